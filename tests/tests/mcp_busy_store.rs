//! The real `ask-user mcp` binary while another process holds the shared store: tool calls
//! that wait for the store must not stop the server answering anything else.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use common::{PAYLOAD, Sandbox, bin};
use serde_json::{Value, json};

/// The server's worker threads: fewer than the calls waiting on the store, on any machine.
const WORKERS: usize = 2;

struct Server {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<Value>,
}

impl Server {
    fn start(sb: &Sandbox) -> Server {
        let mut child = std::process::Command::new(bin())
            .args(["mcp", "--wait", "1"])
            .current_dir(sb.dir.path())
            .env("ASK_USER_STORE", sb.store())
            .env("ASK_USER_CONFIG", sb.path("config.json"))
            .env("ASK_LOG_DIR", sb.path("logs"))
            .env("TOKIO_WORKER_THREADS", WORKERS.to_string())
            .env_remove("TMUX")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let (tx, replies) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(serde_json::from_str(&l).unwrap());
            }
        });
        let stdin = child.stdin.take().unwrap();
        let mut server = Server { child, stdin, replies };
        server.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}));
        server.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server.reply_to(&json!(0), Duration::from_secs(10));
        server
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The replies that arrive within `within`, until one to each of `ids` has.
    fn replies_to(&self, ids: &[Value], within: Duration) -> Vec<Value> {
        let deadline = Instant::now() + within;
        let mut got: Vec<Value> = Vec::new();
        while !ids.iter().all(|id| got.iter().any(|r| &r["id"] == id)) {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else { break };
            let Ok(reply) = self.replies.recv_timeout(left) else { break };
            got.push(reply);
        }
        got
    }

    fn reply_to(&self, id: &Value, within: Duration) -> Option<Value> {
        self.replies_to(std::slice::from_ref(id), within).into_iter().find(|r| &r["id"] == id)
    }
}

/// The server's calls wait 1 s for an answer and the store is held 3.5 s, so a call not waiting
/// on the store would have answered "still open" while it was held. Before the store calls ran
/// off the workers, the ping went unanswered until the store was free.
#[test]
fn a_ping_is_answered_while_more_tool_calls_than_workers_wait_for_a_store_another_process_holds() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["terminal"]}}"#);
    let mut server = Server::start(&sb);

    // Another process in the middle of a write: this one, holding a write transaction.
    let db = redb::Database::builder()
        .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
        .open(sb.store())
        .unwrap();
    let held = db.begin_write().unwrap();
    let args: Value = serde_json::from_str(PAYLOAD).unwrap();
    let calls: Vec<Value> = (1..=WORKERS + 1).map(|id| json!(id)).collect();
    for id in &calls {
        server.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "ask_user", "arguments": args}}));
    }
    let sent = Instant::now();
    std::thread::sleep(Duration::from_millis(300));
    server.send(json!({"jsonrpc": "2.0", "id": "ping", "method": "ping"}));
    let ping = server.replies_to(&[json!("ping")], Duration::from_secs(2));
    assert!(
        matches!(ping.as_slice(), [r] if r["id"] == "ping" && r["result"] == json!({})),
        "a ping must be answered within 2 s while {} tool calls wait for the store, got {ping:?}",
        calls.len()
    );
    let early = server.replies_to(&calls, Duration::from_millis(3500).saturating_sub(sent.elapsed()));
    assert_eq!(early, Vec::<Value>::new(), "no call can end while the store is held");
    drop(held);

    let replies = server.replies_to(&calls, Duration::from_secs(20));
    for id in &calls {
        let answers: Vec<&Value> = replies.iter().filter(|r| &r["id"] == id).collect();
        assert!(
            matches!(answers.as_slice(), [r] if r["result"]["structuredContent"]["stillOpen"] == true),
            "call {id} must end once the store is free, with the form left open: {answers:?}"
        );
    }
    drop(server.stdin);
    assert_eq!(server.child.wait().unwrap().code(), Some(0));
}
