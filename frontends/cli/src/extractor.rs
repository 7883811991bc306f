//! Running the `/answer` extractor: a command that turns an assistant message into a form.
//!
//! Protocol (version 1). The extractor gets one JSON object on stdin and must print the form as
//! raw JSON on stdout, nothing else:
//!
//! ```json
//! {"protocol": "ask-user-extract/1", "attempt": 1, "instructions": "…", "message": "…"}
//! ```
//!
//! On a retry the object also holds `"previousOutput"` (what it printed last time) and `"error"`
//! (why that could not be used). `"prompt"` is the whole user message a model should get for
//! this attempt (the message itself, or on a retry the message with the failed output and the
//! reason), so that a host needs no retry logic of its own. `ASK_USER_EXTRACT_ATTEMPT` carries
//! the attempt number too. Each attempt must finish within `answer.extractionTimeoutMs`; a
//! non-zero exit, a timeout, output that is not JSON, or JSON without a `questions` array is
//! retried up to `answer.extractionRetries` times.
//!
//! The host seam (`--extractor host`, what the pi extension uses so that `/answer` runs on pi's
//! current model): the same object is written as one line on stdout, and the host answers with
//! one line on stdin, `{"attempt": N, "output": "<the model's text>"}` or
//! `{"attempt": N, "error": "<why>"}`. A reply for an older attempt (one that timed out) is
//! skipped. The retry rules stay here, in one place.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// What the extractor is told to do.
pub const INSTRUCTIONS: &str = "Turn the questions the assistant message asks the user into an ask_user form. \
Reply with raw JSON only — no code fences, no prose — shaped {\"title\"?: string, \"questions\": [...]}. \
Each question is {\"id\", \"label\", \"prompt\", \"type\": \"single\"|\"multi\", \"options\": [{\"value\", \"label\", \"description\"?}]}. \
Use short, stable snake_case ids. Keep the questions in the order the message asks them. \
Offer as options only the choices the message itself gives; when a question offers no choices, give it exactly one option: \
{\"value\": \"freeform\", \"label\": \"Type answer\", \"freeform\": true}. \
If the message asks the user nothing, reply {\"questions\": []}.";

/// How to start the extractor.
pub enum ExtractorCommand {
    /// A shell command line (`--extractor`).
    Shell(String),
    /// An argv array (`answer.extractionCommand`).
    Argv(Vec<String>),
    /// The host that started ask-user answers each attempt over stdin/stdout (`--extractor host`).
    Host,
}

impl ExtractorCommand {
    /// `--extractor host` is the host seam; anything else is a shell command line.
    pub fn from_flag(line: &str) -> ExtractorCommand {
        if line == "host" { ExtractorCommand::Host } else { ExtractorCommand::Shell(line.to_owned()) }
    }
}

/// Why extraction gave no form.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// Every attempt failed; the last reason is given.
    #[error("the extractor gave no usable form after {attempts} attempt(s): {last}")]
    Exhausted { attempts: u32, last: String },
    /// The extractor could not be started at all.
    #[error("cannot run the extractor: {0}")]
    Spawn(std::io::Error),
}

/// Runs the extractor until it prints a JSON object with a `questions` array.
pub fn extract(
    cmd: &ExtractorCommand,
    message: &str,
    timeout: Duration,
    retries: u8,
) -> Result<Value, ExtractError> {
    let attempts = u32::from(retries.min(3)) + 1;
    let mut feedback: Option<(String, String)> = None;
    let host = matches!(cmd, ExtractorCommand::Host).then(crate::host_link::HostLink::start);
    for attempt in 1..=attempts {
        let mut input = json!({"protocol": "ask-user-extract/1", "attempt": attempt, "instructions": INSTRUCTIONS, "message": message, "prompt": message});
        if let Some((previous, error)) = &feedback {
            input["previousOutput"] = json!(previous);
            input["error"] = json!(error);
            input["prompt"] = json!(retry_prompt(message, previous, error));
        }
        let once = match (&host, process(cmd)) {
            (Some(link), _) => Ok(link.ask(&input, attempt, timeout)),
            (None, Some(command)) => run_once(command, &input.to_string(), attempt, timeout),
            (None, None) => Ok(Err("no extractor command".to_owned())),
        };
        let (output, problem) = match once? {
            Ok(out) => match usable(&out) {
                Ok(form) => return Ok(form),
                Err(why) => (out, why),
            },
            Err(why) => (String::new(), why),
        };
        tracing::info!(attempt, problem = %problem, "extractor attempt failed");
        feedback = Some((output, problem));
    }
    let last = feedback.map(|(_, why)| why).unwrap_or_default();
    Err(ExtractError::Exhausted { attempts, last })
}

/// What a model is told on a retry: why its last answer failed, that answer, and the message.
fn retry_prompt(message: &str, previous: &str, error: &str) -> String {
    format!(
        "Your previous reply could not be used: {error}\n\nYour previous reply:\n{previous}\n\n\
         The assistant message:\n{message}\n\nReply again with raw JSON only, fixing the problem."
    )
}

/// A JSON object with a `questions` array, or why not.
fn usable(out: &str) -> Result<Value, String> {
    let value: Value =
        serde_json::from_str(out.trim()).map_err(|e| format!("the output is not raw JSON ({e})"))?;
    if value.get("questions").is_some_and(Value::is_array) {
        Ok(value)
    } else {
        Err("the output has no \"questions\" array".to_owned())
    }
}

/// Kills the extractor's whole process group (it was started as its leader) with a system call,
/// so nothing it started outlives the attempt, whatever is on `PATH`.
fn kill_group(child: &mut std::process::Child) {
    if let Some(pid) = rustix::process::Pid::from_raw(child.id() as i32) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// One attempt: `Ok(Ok(stdout))`, `Ok(Err(why))` for a failed attempt, `Err` if it cannot start.
/// The process an extractor command starts; `None` for the host seam, which starts none.
fn process(cmd: &ExtractorCommand) -> Option<Command> {
    match cmd {
        ExtractorCommand::Shell(line) => {
            let mut c = Command::new("sh");
            c.args(["-c", line]);
            Some(c)
        }
        ExtractorCommand::Argv(argv) => {
            let mut c = Command::new(argv.first().map_or("", String::as_str));
            c.args(argv.iter().skip(1));
            Some(c)
        }
        ExtractorCommand::Host => None,
    }
}

/// More than any form an extractor answers with: one that writes without end is stopped here
/// instead of filling memory until its timeout (`yes` as the extractor held 3 GB within 3 s).
const MAX_OUTPUT: u64 = 16 << 20;

fn run_once(
    mut command: Command,
    input: &str,
    attempt: u32,
    timeout: Duration,
) -> Result<Result<String, String>, ExtractError> {
    command.env("ASK_USER_EXTRACT_ATTEMPT", attempt.to_string());
    // Its own process group, so a timeout also stops whatever the extractor started.
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
    let mut child = command.spawn().map_err(ExtractError::Spawn)?;
    let mut stdin = child.stdin.take();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(input.as_bytes());
        }
    });
    let mut stdout = child.stdout.take();
    let (sender, output) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.take(MAX_OUTPUT + 1).read_to_end(&mut bytes);
        }
        // `None`: past the limit. Text that is not UTF-8 reads as nothing, which is no form.
        let out = (bytes.len() as u64 <= MAX_OUTPUT).then(|| String::from_utf8(bytes).unwrap_or_default());
        let _ = sender.send(out);
    });
    let start = Instant::now();
    let too_long = || Ok(Err(format!("it took longer than {} ms", timeout.as_millis())));
    let too_much = || Ok(Err(format!("it wrote more than {} MiB", MAX_OUTPUT >> 20)));
    let mut read = None;
    let status = loop {
        if read.is_none()
            && let Ok(out) = output.try_recv()
        {
            if out.is_none() {
                kill_group(&mut child);
                let _ = writer.join();
                return too_much();
            }
            read = Some(out);
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() >= timeout => {
                kill_group(&mut child);
                let _ = writer.join();
                return too_long();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Ok(Err(format!("waiting for it failed ({e})"))),
        }
    };
    let _ = writer.join();
    // A background child of the extractor may still hold its stdout open: stop reading at the
    // deadline, and stop that child too.
    let out = match read {
        Some(out) => out,
        None => match output.recv_timeout(timeout.saturating_sub(start.elapsed())) {
            Ok(out) => out,
            Err(_) => {
                kill_group(&mut child);
                return too_long();
            }
        },
    };
    let Some(out) = out else { return too_much() };
    if !status.success() {
        return Ok(Err(format!("it exited with {status}")));
    }
    Ok(Ok(out))
}
