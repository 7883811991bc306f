//! Key → screen beside the reference, in one run (issue 15): the same forms and key scripts
//! sent to each program in turn, in an 80×24 pseudo-terminal —
//! - `cat` in raw mode, a program that only echoes: the floor of the method,
//! - `ask-user ask FORM` (the store on the local disk),
//! - ask-user inside real pi: pi 0.73.1 with this repo's package, whose `ask_user` call hands
//!   the terminal to the binary,
//! - the reference: pi 0.73.1 with pi-ask 0.8 (`REFERENCE_PI_ASK` names a checkout of
//!   https://github.com/eko24ive/pi-ask at tag v0.8.0; without it this host is left out).
//!
//! pi calls `ask_user` through the offline scripted model of the pi package's tests
//! (`frontends/pi/test/scripted-model.ts`, the form from `PILAB_PAYLOAD`), with pi's working
//! indicator hidden (`PILAB_QUIET`): it is a spinner redrawn on its own clock, whose frames would
//! be taken for a key's. A key is timed as in `keyscreen`: from its write to the first bytes of
//! the screen update (the reference draws every option of a long list, so at 80×24 most of its
//! cursor moves happen above the visible rows: the bytes still come, the visible text does not
//! change). Keys go back to back (the next once the last one's frame has settled), and the
//! typical script's first 300 also one every 100 ms, a person's pace. Start-up is timed from the
//! spawn to the form on screen. When a key ends a form, a fresh process carries on, as in
//! `keyscreen`. Figures and what they show: docs/performance.md, "Beside the reference".
//!
//! Run: `REFERENCE_PI_ASK=/path/to/pi-ask cargo bench -p ask-tests --bench reference`
//! (`REFERENCE_ONLY=typical|stress|paced|scale` runs one workload; `REFERENCE_KEYS=N` sends only the
//! first N keys of each script). pi is installed into `target/pi-cache` on first use, as for
//! the pi tests.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, PtySize, native_pty_system};
use timing::ms;

mod common;
#[path = "common/keys.rs"]
mod keys;
#[path = "common/scale.rs"]
mod scale;
#[path = "common/terminal.rs"]
mod terminal;
#[path = "common/timing.rs"]
mod timing;

/// How long a program may take to show a form before the workload is reported as not shown.
const START_LIMIT: Duration = Duration::from_secs(120);

/// How long a key may take before it counts as one that changed nothing. Long: the reference
/// takes over 100 ms a key on the largest forms, and a late frame must not be taken for the
/// next key's.
const NOTHING_AFTER: Duration = Duration::from_secs(2);

/// The programs compared.
enum Host {
    /// `cat` in raw mode: a program that only echoes each key, the floor of the method.
    Echo,
    AskUser,
    AskUserInPi,
    ReferenceInPi(PathBuf),
}

impl Host {
    fn name(&self) -> &'static str {
        match self {
            Host::Echo => "echo only (floor)",
            Host::AskUser => "ask-user",
            Host::AskUserInPi => "ask-user in pi",
            Host::ReferenceInPi(_) => "reference (pi-ask 0.8) in pi",
        }
    }
}

/// Where things are: the binary, the repo, pi, the scratch directory.
struct Setup {
    root: PathBuf,
    bin: PathBuf,
    node_cli: PathBuf,
    scratch: PathBuf,
}

impl Setup {
    fn command(&self, host: &Host, form: &Path, dir: &Path) -> CommandBuilder {
        let mut cmd = match host {
            Host::Echo => {
                let mut cmd = CommandBuilder::new("sh");
                cmd.args(["-c", "stty raw -echo; echo ready; exec cat"]);
                cmd
            }
            Host::AskUser => {
                let mut cmd = CommandBuilder::new(&self.bin);
                cmd.args(["ask".as_ref(), form.as_os_str()]);
                cmd
            }
            Host::AskUserInPi | Host::ReferenceInPi(_) => {
                let extension = match host {
                    Host::ReferenceInPi(checkout) => checkout.join("src/index.ts"),
                    _ => self.root.join("frontends/pi"),
                };
                let mut cmd = CommandBuilder::new("node");
                cmd.arg(&self.node_cli);
                cmd.args(["--no-extensions", "-e"]);
                cmd.arg(self.root.join("frontends/pi/test/scripted-model.ts"));
                cmd.arg("-e");
                cmd.arg(extension);
                cmd.args(["--provider", "scripted", "--model", "scripted-1", "--session-dir"]);
                cmd.arg(dir.join("sessions"));
                cmd.arg("Set up the project");
                std::fs::create_dir_all(dir.join("home")).unwrap();
                cmd.env("HOME", dir.join("home"));
                cmd.env("PI_OFFLINE", "1");
                cmd.env("PI_TELEMETRY", "0");
                cmd.env("PILAB_PAYLOAD", form);
                // pi ends once the agent has the tool's result: the next key starts a fresh pi.
                cmd.env("PILAB_SHUTDOWN_AFTER", "1");
                cmd.env("PILAB_QUIET", "1");
                cmd.env("ASK_USER_BIN", &self.bin);
                cmd
            }
        };
        cmd.cwd(dir);
        // Every host: the pi package starts ask-user with pi's environment.
        terminal::ask_user_env(&mut cmd, dir);
        cmd
    }
}

struct Session {
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    /// Each read of the program's output: when it arrived, and the screen after it.
    arrivals: Receiver<(Instant, String)>,
    /// Set when the program has left the alternate screen: its form has ended.
    leaving: Arc<AtomicBool>,
    /// The screen as the last output left it.
    screen: String,
}

/// On screen once the reference's form shows: its footer's settings hint. Its first prompt
/// would not do: the reference draws every option of a long list, which scrolls the prompt off
/// an 80×24 screen. ask-user's form is known by its first prompt, always on screen (its help
/// line gives way to a preview pane).
const REFERENCE_SHOWN: &str = "? settings";

/// What the scripted model answers once it has a tool result: in pi, the form has ended.
const MODEL_HAS_THE_RESULT: &str = "Tool said:";

impl Session {
    /// Spawns `cmd` and waits until `marker` is on screen; `None` when it is not within
    /// [`START_LIMIT`]. Returns the session and the time from the spawn to the marker.
    fn spawn(cmd: CommandBuilder, marker: &str) -> Option<(Session, Duration)> {
        let pair = native_pty_system()
            .openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 })
            .unwrap();
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let start = Instant::now();
        let mut child = pair.slave.spawn_command(cmd).unwrap();
        let (send, arrivals) = channel();
        let leaving = Arc::new(AtomicBool::new(false));
        let left = leaving.clone();
        std::thread::spawn(move || {
            let _master = pair.master; // kept open while the reader runs
            let mut parser = vt100::Parser::new(24.try_into().unwrap(), 80.try_into().unwrap(), 0);
            let (mut buf, mut watch) = (vec![0u8; 1 << 16], terminal::LeaveWatch::default());
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let at = Instant::now();
                if watch.left_in(&buf[..n]) {
                    left.store(true, Ordering::SeqCst);
                }
                parser.process(&buf[..n]);
                if send.send((at, parser.screen().contents())).is_err() {
                    break;
                }
            }
        });
        let shown = loop {
            match arrivals.recv_timeout(Duration::from_millis(200)) {
                Ok((at, screen)) if screen.contains(marker) => break Some(at.duration_since(start)),
                Ok(_) | Err(RecvTimeoutError::Timeout) if start.elapsed() < START_LIMIT => {}
                _ => break None,
            }
        };
        let Some(shown) = shown else {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        };
        let mut s = Session { child, writer, arrivals, leaving, screen: String::new() };
        // Let the first frame (and pi's tool-call rendering around it) finish.
        s.quiet(Duration::from_millis(100));
        Some((s, shown))
    }

    /// Sends a key; the time until output arrives, or `None` when none did.
    fn key(&mut self, bytes: &[u8]) -> Option<Duration> {
        let start = Instant::now();
        if self.writer.write_all(bytes).and_then(|()| self.writer.flush()).is_err() {
            return None; // the program has ended
        }
        let first = match self.arrivals.recv_timeout(NOTHING_AFTER) {
            Ok((at, screen)) => {
                self.screen = screen;
                Some(at.saturating_duration_since(start))
            }
            Err(_) => None,
        };
        // Let the rest of the frame arrive before the next key.
        self.quiet(Duration::from_millis(4));
        // A key that ended the form: the next goes to a fresh process, not to this one while it
        // is closing (pi hands the result to its model, which ends the run, and pi exits) —
        // nor into pi's own editor, which the closed form uncovers.
        if self.leaving.load(Ordering::SeqCst) || self.screen.contains(MODEL_HAS_THE_RESULT) {
            self.wait_for_exit();
        }
        first
    }

    /// Takes in output until none has come for `gap`.
    fn quiet(&mut self, gap: Duration) {
        while let Ok((_, screen)) = self.arrivals.recv_timeout(gap) {
            self.screen = screen;
        }
    }

    fn wait_for_exit(&mut self) {
        let start = Instant::now();
        while self.running() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

/// Sends `keys` one at a time, `pace` apart, to `host` showing `form`, starting it again
/// whenever a key ends the form, and prints the key → screen times and the start-up times.
fn run(setup: &Setup, host: &Host, workload: &Workload) {
    let Workload { name: workload, form, keys, pace } = workload;
    let prompt = first_prompt(form);
    let dir = tempfile::tempdir_in(&setup.scratch).unwrap();
    let (mut session, mut samples, mut starts, mut unchanged) = (None::<Session>, Vec::new(), Vec::new(), 0);
    let (mut timed, mut stopped) = (Vec::new(), false);
    for (i, key) in keys.iter().enumerate() {
        if session.as_mut().is_none_or(|s| !s.running()) {
            let shown = match host {
                Host::ReferenceInPi(_) => REFERENCE_SHOWN,
                Host::Echo => "ready",
                _ => prompt.as_str(),
            };
            match Session::spawn(setup.command(host, form, dir.path()), shown) {
                Some((s, took)) => {
                    starts.push(took);
                    session = Some(s);
                }
                None => {
                    stopped = true;
                    break;
                }
            }
        }
        std::thread::sleep(*pace);
        match session.as_mut().unwrap().key(key) {
            Some(d) => {
                samples.push(d);
                timed.push((d, i));
            }
            None => unchanged += 1,
        }
    }
    let name = host.name();
    if samples.is_empty() {
        println!("{workload:<24} {name:<30} did not show the form within {} s", START_LIMIT.as_secs());
        return;
    }
    if let Some(mut s) = session {
        let _ = s.child.kill();
        let _ = s.child.wait();
    }
    starts.sort();
    println!(
        "{workload:<24} {name:<30} {:>5} keys: {}  ({unchanged} changed nothing; {} start(s), median {:.0} ms to the form){}",
        samples.len(),
        timing::spread(&mut samples),
        starts.len(),
        ms(starts[starts.len() / 2]),
        if stopped {
            format!("; stopped: a start did not show the form within {} s", START_LIMIT.as_secs())
        } else {
            String::new()
        },
    );
    timing::print_slowest("REFERENCE_SLOWEST", timed, keys);
}

/// The start of the first question's prompt (as much as fits an 80-column row unwrapped). Read
/// from the text: a scale form is too large to parse for it.
fn first_prompt(form: &Path) -> String {
    let mut head = vec![0u8; 4096];
    let n = std::io::Read::read(&mut std::fs::File::open(form).unwrap(), &mut head).unwrap();
    let head = String::from_utf8_lossy(&head[..n]).into_owned();
    let key = head.find(r#""prompt""#).unwrap() + r#""prompt""#.len();
    let at = key + head[key..].find('"').unwrap() + 1;
    head[at..].chars().take_while(|&c| c != '"').take(24).collect()
}

/// pi 0.73.1's command-line entry point, installed into `target/pi-cache` on first use.
fn pi_cli(root: &Path) -> PathBuf {
    let cache = root.join("target/pi-cache");
    let status = std::process::Command::new("sh")
        .arg(root.join("frontends/pi/test/install-pi.sh"))
        .arg(&cache)
        .status()
        .unwrap();
    assert!(status.success(), "installing pi failed (it needs npm and the npm registry)");
    cache.join("pi-0.73.1/node_modules/@mariozechner/pi-coding-agent/dist/cli.js")
}

/// A form and the keys sent to it.
struct Workload {
    name: String,
    form: PathBuf,
    keys: Vec<Vec<u8>>,
    /// How long before each key is sent (after the last one's frame has settled).
    pace: Duration,
}

/// The workloads `REFERENCE_ONLY` asks for (all by default).
fn workloads(setup: &Setup) -> Vec<Workload> {
    let bench = setup.root.join("bench/workload");
    let only = std::env::var("REFERENCE_ONLY").ok();
    let wanted = |w: &str| only.as_deref().is_none_or(|o| o == w);
    let take = std::env::var("REFERENCE_KEYS").ok().and_then(|n| n.parse().ok());
    let keys = |script: &str, n: usize| keys::script_keys(&bench, script, take.unwrap_or(n).min(n));
    let at_once =
        |name: String, form: PathBuf, keys: Vec<Vec<u8>>| Workload { name, form, keys, pace: Duration::ZERO };
    let mut out = Vec::new();
    for (name, form, script) in [
        ("typical", "form-typical.json", "keys-typical-2000.txt"),
        ("stress", "form-stress.json", "keys-stress-2000.txt"),
    ] {
        if wanted(name) {
            out.push(at_once(format!("{name} form"), bench.join(form), keys(script, 2000)));
        }
    }
    // A key every 100 ms, as a fast typist sends them. pi draws at most every 16 ms
    // (pi-tui's MIN_RENDER_INTERVAL_MS), so a key sent as soon as the last frame settled waits
    // for that interval in the reference; at this pace it does not.
    if wanted("paced") {
        out.push(Workload {
            name: "typical, 100 ms apart".to_owned(),
            form: bench.join("form-typical.json"),
            keys: keys("keys-typical-2000.txt", 300),
            pace: Duration::from_millis(100),
        });
    }
    if wanted("scale") {
        for (name, form, script) in scale::forms(&bench, &setup.scratch) {
            out.push(at_once(name, form, keys(script, 400)));
        }
    }
    out
}

fn main() {
    let (root, bin) = common::release_binary();
    let scratch = root.join("target/keyscreen");
    std::fs::create_dir_all(&scratch).unwrap();
    let setup = Setup { node_cli: pi_cli(&root), root, bin, scratch };
    let mut hosts = vec![Host::Echo, Host::AskUser, Host::AskUserInPi];
    match std::env::var_os("REFERENCE_PI_ASK") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            let entry = dir.join("src/index.ts");
            assert!(
                entry.exists(),
                "REFERENCE_PI_ASK: no {} (a pi-ask checkout at v0.8.0 is expected)",
                entry.display()
            );
            hosts.push(Host::ReferenceInPi(dir));
        }
        None => println!(
            "REFERENCE_PI_ASK is not set: the reference is left out (a checkout of https://github.com/eko24ive/pi-ask at v0.8.0)"
        ),
    }
    for workload in workloads(&setup) {
        for host in &hosts {
            run(&setup, host, &workload);
        }
    }
}
