//! `ask-user answer` (/answer, /answer:again) with fixture extractors and pi sessions.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::Sandbox;
use rstest::rstest;

fn extractor(name: &str) -> String {
    format!("sh {}/fixtures/extractors/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn s(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

/// `ask-user answer --text TEXT --extractor EXTRACTOR --script KEYS`.
fn answer_text(
    sb: &Sandbox,
    text: &std::path::Path,
    extractor_name: &str,
    keys: &std::path::Path,
) -> common::Run {
    sb.run(&["answer", "--text", s(text), "--extractor", &extractor(extractor_name), "--script", s(keys)])
}

const MESSAGE: &str = "Done. Two follow-ups:\n1. Should the CI run on Linux only, or Linux + macOS?\n2. What package name do you want?";

#[test]
fn a_free_form_question_typed_and_submitted_prints_the_answer_text() {
    let sb = Sandbox::new();
    let text = sb.file("msg.txt", MESSAGE);
    let keys = sb.file("k", "2\ntype \"ask-user\"\nenter\n1\n1\n");
    let r =
        sb.run(&["answer", "--text", s(&text), "--extractor", &extractor("valid.sh"), "--script", s(&keys)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "CI: Linux + macOS\nPackage: ask-user\n");
}

#[test]
fn the_free_form_question_is_drawn_as_type_your_answer() {
    let sb = Sandbox::new();
    let text = sb.file("msg.txt", MESSAGE);
    let frame = sb.path("frame.txt");
    let keys = sb.file("k", "2\n");
    sb.run(&[
        "answer",
        "--text",
        s(&text),
        "--extractor",
        &extractor("valid.sh"),
        "--script",
        s(&keys),
        "--frame-out",
        s(&frame),
    ]);
    let f = std::fs::read_to_string(&frame).unwrap();
    assert!(f.contains("Type your answer:") && !f.contains("❯"), "{f}");
}

#[test]
fn chatty_output_is_retried_with_the_error_and_previous_output_fed_back() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"answer":{"extractionRetries":1}}"#);
    let text = sb.file("msg.txt", MESSAGE);
    let keys = sb.file("k", "type \"x\"\nenter\n1\n1\n");
    let r = answer_text(&sb, &text, "chatty_then_valid.sh", &keys);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "Q1: x\n");
}

#[rstest]
#[case::no_retries(0)]
#[case::three_retries(3)]
fn always_invalid_output_gives_a_clear_message_after_the_last_attempt(#[case] retries: u8) {
    let sb = Sandbox::new();
    sb.file("config.json", &format!(r#"{{"answer":{{"extractionRetries":{retries}}}}}"#));
    let text = sb.file("msg.txt", MESSAGE);
    let r = answer_text(&sb, &text, "always_invalid.sh", &sb.file("k", ""));
    assert_eq!((r.code, r.stdout.as_str()), (5, ""));
    let expected = format!("after {} attempt(s): the output is not raw JSON", retries + 1);
    assert!(r.stderr.contains(&expected), "{}", r.stderr);
}

/// An extractor that runs over is stopped, with its process group, and the attempt fails with
/// why: one that takes too long at its timeout; one that writes without end once it has written
/// more than any form (before the limit it was read until its timeout: in 3 s `yes` filled 3 GB
/// of memory here, and the default timeout is 30 s).
#[rstest]
#[case::slow_at_the_timeout("slow.sh", 300, "it took longer than 300 ms")]
#[case::flooding_at_the_output_limit("flood.sh", 2000, "it wrote more than 16 MiB")]
fn an_extractor_that_runs_over_is_stopped(
    #[case] fixture: &str,
    #[case] timeout_ms: u64,
    #[case] says: &str,
) {
    let sb = Sandbox::new();
    let config = serde_json::json!({"answer": {"extractionTimeoutMs": timeout_ms, "extractionRetries": 0}});
    sb.file("config.json", &config.to_string());
    let text = sb.file("msg.txt", MESSAGE);
    let start = std::time::Instant::now();
    let r = answer_text(&sb, &text, fixture, &sb.file("k", ""));
    assert!(start.elapsed() < std::time::Duration::from_secs(3), "did not wait for the extractor");
    assert_eq!(r.code, 5);
    assert!(r.stderr.contains(says), "{}", r.stderr);
}

#[test]
fn no_questions_means_no_ui_and_nothing_stored() {
    let sb = Sandbox::new();
    let text = sb.file("msg.txt", "All done, nothing to ask.");
    let r = answer_text(&sb, &text, "no_questions.sh", &sb.file("k", "1\n"));
    assert_eq!((r.code, r.stdout.as_str()), (5, ""));
    assert_eq!(r.stderr, "ask-user: no questions found in the assistant message\n");
    let store = ask_storage::Store::open(&sb.store()).unwrap();
    assert!(store.payloads("default").unwrap().is_empty());
    assert!(store.flows().unwrap().is_empty());
}

#[test]
fn an_invalid_extracted_form_is_reported_as_invalid_payload_without_ui() {
    let sb = Sandbox::new();
    let text = sb.file("msg.txt", MESSAGE);
    let r = answer_text(&sb, &text, "invalid_form.sh", &sb.file("k", "1\n"));
    assert_eq!((r.code, r.stdout.as_str()), (2, ""));
    assert!(
        r.stderr.starts_with("Invalid ask_user payload:\n- questions[0].options[1].freeform: "),
        "{}",
        r.stderr
    );
}

#[test]
fn the_extractor_protocol_carries_instructions_and_the_message() {
    let sb = Sandbox::new();
    let text = sb.file("msg.txt", MESSAGE);
    let copy = sb.path("input.json");
    let mut cmd =
        sb.cmd(&["answer", "--text", s(&text), "--extractor", &extractor("echo_input.sh"), "--no-ui"]);
    cmd.env("ASK_TEST_INPUT_COPY", &copy);
    assert_eq!(cmd.output().unwrap().status.code(), Some(3));
    let input: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&copy).unwrap()).unwrap();
    assert_eq!(input["protocol"], "ask-user-extract/1");
    assert_eq!(input["attempt"], 1);
    assert_eq!(input["message"], MESSAGE);
    let instructions = input["instructions"].as_str().unwrap();
    for rule in ["raw JSON only", "snake_case", "order", "\"freeform\": true", "{\"questions\": []}"] {
        assert!(instructions.contains(rule), "instructions mention {rule}");
    }
}

#[test]
fn an_extractor_from_the_config_file_is_used() {
    let sb = Sandbox::new();
    let script = format!("{}/fixtures/extractors/valid.sh", env!("CARGO_MANIFEST_DIR"));
    sb.file("config.json", &serde_json::json!({"answer": {"extractionCommand": ["sh", script]}}).to_string());
    let r = sb.run(&["answer", "--text", s(&sb.file("m", MESSAGE)), "--no-ui"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stdout.contains("What package name do you want?"));
}

#[test]
fn without_any_extractor_the_message_says_how_to_set_one() {
    let sb = Sandbox::new();
    let r = sb.run(&["answer", "--text", s(&sb.file("m", MESSAGE)), "--no-ui"]);
    assert_eq!(r.code, 5);
    assert!(r.stderr.contains("answer.extractionCommand"), "{}", r.stderr);
}

/// A config file `answer` cannot use (here a retry count out of range beside the extractor) is
/// moved aside before any form shows: `answer` says so, naming why and where the file went, so
/// "no extractor configured" is not the only trace of the user's lost setting. `log prune`, the
/// other command that reads the config without a form, says it too.
#[rstest]
#[case::answer(&["answer", "--text", "m", "--no-ui"], 5)]
#[case::log_prune(&["log", "prune"], 0)]
fn a_config_file_that_cannot_be_used_is_said_by_commands_without_a_form(
    #[case] args: &[&str],
    #[case] code: i32,
) {
    let sb = Sandbox::new();
    sb.file("m", MESSAGE);
    let script = format!("{}/fixtures/extractors/valid.sh", env!("CARGO_MANIFEST_DIR"));
    let config = serde_json::json!({"answer": {"extractionCommand": ["sh", script], "extractionRetries": 9}});
    sb.file("config.json", &config.to_string());
    let r = sb.run(args);
    assert_eq!(r.code, code, "{}", r.stderr);
    let said =
        r.stderr.lines().find(|l| l.contains("could not be used")).unwrap_or_else(|| panic!("{}", r.stderr));
    assert!(said.contains("extractionRetries must be 0 to 3") && said.contains(".bak.json"), "{said}");
    let backup = std::fs::read_dir(sb.path(".")).unwrap().flatten().find(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.starts_with("config.") && name.ends_with(".bak.json")
    });
    let backup = backup.expect("the file moved aside");
    assert!(said.contains(&*backup.file_name().to_string_lossy()), "{said}");
    assert_eq!(std::fs::read_to_string(backup.path()).unwrap(), config.to_string(), "the user's bytes kept");
}

#[test]
fn answer_again_reopens_the_newest_extracted_form() {
    let sb = Sandbox::new();
    let text = sb.file("msg.txt", MESSAGE);
    let cancel = sb.file("esc", "esc\n");
    let r = answer_text(&sb, &text, "valid.sh", &cancel);
    assert_eq!((r.code, r.stdout.as_str()), (1, ""), "cancelled command flows print nothing");
    assert!(r.stderr.contains("cancelled"));
    let keys = sb.file("k", "1\ntype \"pkg\"\nenter\n1\n1\n");
    let again = sb.run(&["answer", "--again", "--script", s(&keys)]);
    assert_eq!(again.stdout, "CI: Linux only\nPackage: pkg\n", "{}", again.stderr);
    let store = ask_storage::Store::open(&sb.store()).unwrap();
    assert_eq!(store.payloads("default").unwrap().len(), 1, "reopening stores nothing new");
}

fn pi_fixture() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../storage/tests/fixtures/pi-session-two-branches.jsonl"
    ))
    .unwrap()
}

#[test]
fn answer_again_on_a_pi_branch_uses_the_stored_extraction() {
    let sb = Sandbox::new();
    let pi = sb.file("session.jsonl", &pi_fixture());
    let keys = sb.file("k", "2\ntype \"demo\"\nenter\n1\n1\n");
    let r = sb.run(&["answer", "--again", "--pi-session", s(&pi), "--script", s(&keys)]);
    assert_eq!(r.stdout, "CI platforms: Linux + macOS\nPackage name: demo\n", "{}", r.stderr);
    let a_branch = sb.run(&["answer", "--again", "--pi-session", s(&pi), "--leaf", "44ce8db4", "--no-ui"]);
    assert_eq!(a_branch.code, 5, "branch A has no /answer form");
}

#[rstest]
#[case::default_branch_stop(None, 0, "")]
#[case::tool_use_message_refused(Some("0b03f325"), 5, "did not finish (stopReason: toolUse)")]
#[case::no_assistant_text(Some("0a685d49"), 5, "no assistant message with text")]
fn pi_session_source(#[case] leaf: Option<&str>, #[case] code: i32, #[case] stderr: &str) {
    let sb = Sandbox::new();
    let pi = sb.file("session.jsonl", &pi_fixture());
    let keys = sb.file("k", "1\ntype \"x\"\nenter\n1\n1\n");
    let ex = extractor("valid.sh");
    let mut args = vec!["answer", "--pi-session", s(&pi), "--extractor", &ex, "--script", s(&keys)];
    if let Some(leaf) = leaf {
        args.extend(["--leaf", leaf]);
    }
    let r = sb.run(&args);
    assert_eq!(r.code, code, "{}", r.stderr);
    assert!(r.stderr.contains(stderr), "{}", r.stderr);
}

#[test]
fn an_extractor_whose_child_keeps_stdout_open_is_cut_at_the_deadline_and_its_child_killed() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"answer":{"extractionTimeoutMs":500,"extractionRetries":0}}"#);
    let text = sb.file("msg.txt", MESSAGE);
    let keys = sb.file("k", "");
    let start = std::time::Instant::now();
    let mut cmd = sb.cmd(&[
        "answer",
        "--text",
        s(&text),
        "--extractor",
        &extractor("leaves_a_child.sh"),
        "--script",
        s(&keys),
    ]);
    // Without `kill` on PATH the group must still be stopped (a system call, not a command).
    cmd.env("ASK_TEST_CHILD_PID", sb.path("child.pid")).env("PATH", "/nonexistent:/bin:/usr/bin");
    let out = cmd.output().unwrap();
    assert!(
        start.elapsed() < std::time::Duration::from_secs(3),
        "read stopped at the deadline: {:?}",
        start.elapsed()
    );
    assert_eq!(out.status.code(), Some(5), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("it took longer than 500 ms"));
    let pid = std::fs::read_to_string(sb.path("child.pid")).unwrap();
    let alive = || {
        std::path::Path::new(&format!("/proc/{}", pid.trim())).exists()
            && !std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
                .unwrap_or_default()
                .contains(") Z")
    };
    // Killed before the run ended; on a loaded machine it may take a moment to be gone.
    common::wait_until(|| "the extractor's background child was killed".into(), || !alive());
}

/// The host seam (`--extractor host`, what the pi package uses): requests come as JSON lines on
/// stdout, replies go back as JSON lines on stdin.
mod host_seam {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    use serde_json::{Value, json};

    use super::{MESSAGE, s};
    use crate::common::Sandbox;

    const FORM: &str = r#"{"questions":[{"id":"pkg","label":"Package","prompt":"What package name do you want?","options":[{"value":"freeform","label":"Type answer","freeform":true}]}]}"#;

    /// Runs `answer --extractor host --extract-only`, answering each request with `reply`
    /// (attempt number, request → reply lines to write). Returns (requests, stdout lines, code).
    fn converse(
        sb: &Sandbox,
        mut reply: impl FnMut(u64, &Value) -> Vec<Value>,
    ) -> (Vec<Value>, Vec<String>, i32, String) {
        let text = sb.file("msg.txt", MESSAGE);
        let mut child = sb
            .cmd(&["answer", "--text", s(&text), "--extractor", "host", "--extract-only"])
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut requests = Vec::new();
        let mut lines = Vec::new();
        for line in stdout.lines() {
            let line = line.unwrap();
            let value: Value = serde_json::from_str(&line).unwrap();
            if value["protocol"] == "ask-user-extract/1" {
                for answer in reply(value["attempt"].as_u64().unwrap(), &value) {
                    let _ = writeln!(stdin, "{answer}");
                }
                requests.push(value);
            } else {
                lines.push(line);
            }
        }
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        (requests, lines, out.status.code().unwrap(), String::from_utf8(out.stderr).unwrap())
    }

    #[test]
    fn a_prose_reply_is_retried_with_the_reason_and_the_message_and_the_form_is_printed() {
        let sb = Sandbox::new();
        let (requests, lines, code, stderr) = converse(&sb, |attempt, _| match attempt {
            1 => vec![json!({"attempt": 1, "output": "Sure! Here they are."})],
            _ => vec![json!({"attempt": attempt, "output": FORM})],
        });
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(requests.len(), 2);
        assert_eq!(requests[0]["prompt"], MESSAGE, "attempt 1 asks with the message itself");
        let retry = requests[1]["prompt"].as_str().unwrap();
        assert!(
            retry.contains("could not be used")
                && retry.contains("Sure! Here they are.")
                && retry.contains(MESSAGE)
        );
        assert!(requests[1]["instructions"].as_str().unwrap().starts_with("Turn the questions"));
        let last: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
        assert_eq!(last["form"], serde_json::from_str::<Value>(FORM).unwrap());
        assert_eq!(last["sourceEntryId"], Value::Null, "--text has no pi entry");
    }

    #[test]
    fn a_late_reply_to_a_timed_out_attempt_is_skipped() {
        let sb = Sandbox::new();
        sb.file("config.json", r#"{"answer":{"extractionTimeoutMs":300,"extractionRetries":1}}"#);
        let stale =
            r#"{"questions":[{"id":"stale","prompt":"Stale?","options":[{"value":"a","label":"A"}]}]}"#;
        let (requests, lines, code, stderr) = converse(&sb, |attempt, _| match attempt {
            1 => vec![], // no answer in time
            _ => vec![json!({"attempt": 1, "output": stale}), json!({"attempt": 2, "output": FORM})],
        });
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(requests.len(), 2);
        assert!(requests[1]["error"].as_str().unwrap().contains("took longer than 300 ms"));
        let last: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
        assert_eq!(last["form"]["questions"][0]["id"], "pkg");
    }

    #[test]
    fn a_host_error_on_every_attempt_ends_with_one_line_naming_it() {
        let sb = Sandbox::new();
        let (requests, lines, code, stderr) =
            converse(&sb, |attempt, _| vec![json!({"attempt": attempt, "error": "rate limited"})]);
        assert_eq!((code, requests.len()), (5, 2));
        assert!(lines.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("rate limited"), "{stderr}");
    }

    #[test]
    fn an_extracted_form_given_with_form_opens_and_prints_the_answer_text() {
        let sb = Sandbox::new();
        let form = sb.file("form.json", FORM);
        let keys = sb.file("k", "type \"ask-user\"\nenter\nenter\n");
        let r = sb.run(&["answer", "--form", s(&form), "--script", s(&keys)]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.stdout, "Package: ask-user\n");
    }
}
