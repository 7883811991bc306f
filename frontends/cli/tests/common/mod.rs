//! Shared by the headless scenario files: the binary, a run's output, the test payload.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // shared helpers; tests fail loudly

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

pub const BIN: &str = env!("CARGO_BIN_EXE_ask-user");

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

pub fn payload() -> Value {
    json!({"title":"Setup","questions":[
        {"id":"lang","label":"Lang","prompt":"Which language?","options":[
            {"value":"rust","label":"Rust"},{"value":"go","label":"Go"}]},
        {"id":"feat","label":"Feat","prompt":"Which features?","type":"multi","options":[
            {"value":"a","label":"Alpha"},{"value":"b","label":"Beta"}]}
    ]})
}

/// Runs `ask-user ask` on `payload` with `script` and an optional config file body.
pub fn ask(payload: &str, script: &str, config: Option<&str>, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("payload.json");
    std::fs::write(&p, payload).unwrap();
    let s = dir.path().join("keys.txt");
    std::fs::write(&s, script).unwrap();
    let c = dir.path().join("config.json");
    if let Some(body) = config {
        std::fs::write(&c, body).unwrap();
    }
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--script").arg(&s).arg("--config").arg(&c).args(extra);
    run(cmd, dir.path(), None)
}

pub fn run(mut cmd: Command, dir: &std::path::Path, stdin: Option<&str>) -> Run {
    cmd.env("ASK_LOG_DIR", dir.join("logs"))
        .env("ASK_USER_STORE", dir.join("store.redb"))
        .env_remove("ASK_USER_CONFIG");
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn ask-user");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    let Output { status, stdout, stderr } = child.wait_with_output().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}
