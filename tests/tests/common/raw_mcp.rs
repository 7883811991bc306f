//! `ask-user mcp` spoken to line by line, as a client writing raw JSON-RPC would.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // shared helpers; tests fail loudly

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};

use serde_json::{Value, json};

use super::{Sandbox, bin};

/// A running server: its stdin, and every line it writes to stdout as it comes.
pub struct RawMcp {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

impl RawMcp {
    /// Starts `ask-user mcp --wait WAIT` on the sandbox's store and config, logging to the
    /// sandbox folder `logs`, with `env` set; `initialize` (id 0) and `initialized` are sent.
    /// Stderr is piped (read it with `finish`).
    pub fn start(sb: &Sandbox, wait: &str, logs: &str, env: &[(&str, &str)]) -> RawMcp {
        let mut child = std::process::Command::new(bin())
            .args(["mcp", "--wait", wait])
            .current_dir(sb.dir.path())
            .env("ASK_USER_STORE", sb.store())
            .env("ASK_USER_CONFIG", sb.path("config.json"))
            .env("ASK_LOG_DIR", sb.path(logs))
            .envs(env.iter().copied())
            .env_remove("TMUX")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        let stdin = child.stdin.take().unwrap();
        let mut server = RawMcp { child, stdin, lines };
        server.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}));
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    /// Writes one line.
    pub fn write_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        self.write_line(&message.to_string());
    }

    /// The replies the server writes within `within`, until one to each of `ids` has come.
    pub fn replies_to(&self, ids: &[Value], within: std::time::Duration) -> Vec<Value> {
        let deadline = std::time::Instant::now() + within;
        let mut got: Vec<Value> = Vec::new();
        while !ids.iter().all(|id| got.iter().any(|r| &r["id"] == id)) {
            let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) else { break };
            let Ok(line) = self.lines.recv_timeout(left) else { break };
            got.push(serde_json::from_str(&line).unwrap());
        }
        got
    }

    /// Closes stdin and waits for the server to end: its exit code and stderr.
    pub fn finish(self) -> (Option<i32>, String) {
        drop(self.stdin);
        let output = self.child.wait_with_output().unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
    }
}
