//! Running the real `ask-user` binary in a sandbox directory.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // shared helpers; tests fail loudly

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The `ask-user` binary cargo built next to this test (`cargo test --workspace` builds it
/// for the cli package's own integration tests).
pub fn bin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap();
    let bin = dir.join(format!("ask-user{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} is missing: run `cargo test --workspace` (or `cargo build -p ask-user`)",
        bin.display()
    );
    bin
}

/// Waits up to 5 s for `ok` to hold, looking every 20 ms; `what` says what did not happen
/// (made only then).
pub fn wait_until(what: impl FnOnce() -> String, ok: impl Fn() -> bool) {
    let start = std::time::Instant::now();
    while !ok() {
        if start.elapsed() >= std::time::Duration::from_secs(5) {
            panic!("{}", what());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A temporary home for one test: store, config, logs, payloads and scripts.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.stdout))
    }
}

impl Sandbox {
    /// The result a run wrote to out.json.
    pub fn out(&self) -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(self.path("out.json")).unwrap()).unwrap()
    }

    pub fn new() -> Sandbox {
        Sandbox { dir: tempfile::tempdir().unwrap() }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn store(&self) -> PathBuf {
        self.path("store.redb")
    }

    /// Writes a file in the sandbox and returns its path.
    pub fn file(&self, name: &str, body: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, body).unwrap();
        p
    }

    /// A command with this sandbox's store, config and log dir.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(bin());
        cmd.args(args)
            .current_dir(self.dir.path())
            .env("ASK_USER_STORE", self.store())
            .env("ASK_USER_CONFIG", self.path("config.json"))
            .env("ASK_LOG_DIR", self.path("logs"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Run {
        let Output { status, stdout, stderr } = self.cmd(args).output().unwrap();
        Run {
            code: status.code().unwrap_or(-1),
            stdout: String::from_utf8(stdout).unwrap(),
            stderr: String::from_utf8(stderr).unwrap(),
        }
    }

    pub fn spawn(&self, args: &[&str]) -> Child {
        self.cmd(args).spawn().unwrap()
    }
}

pub mod pty;
pub mod raw_mcp;

/// Two questions: `db` single (Postgres, SQLite), `extras` multi (CI, Docker, Lint).
pub const PAYLOAD: &str = r#"{"title":"Setup","questions":[
 {"id":"db","label":"Database","prompt":"Which database?","options":[{"value":"pg","label":"Postgres"},{"value":"sqlite","label":"SQLite"}]},
 {"id":"extras","label":"Extras","prompt":"Which extras?","type":"multi","options":[{"value":"ci","label":"CI"},{"value":"docker","label":"Docker"},{"value":"lint","label":"Lint"}]}
]}"#;
