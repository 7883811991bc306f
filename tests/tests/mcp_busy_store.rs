//! The real `ask-user mcp` binary while another process holds the shared store: tool calls
//! that wait for the store must not stop the server answering anything else.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::{Duration, Instant};

use common::raw_mcp::RawMcp;
use common::{PAYLOAD, Sandbox};
use serde_json::{Value, json};

/// The server's worker threads: fewer than the calls waiting on the store, on any machine.
const WORKERS: usize = 2;

/// The server's calls wait 1 s for an answer and the store is held 3.5 s, so a call not waiting
/// on the store would have answered "still open" while it was held. Before the store calls ran
/// off the workers, the ping went unanswered until the store was free.
#[test]
fn a_ping_is_answered_while_more_tool_calls_than_workers_wait_for_a_store_another_process_holds() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["terminal"]}}"#);
    let mut server = RawMcp::start(&sb, "1", "logs", &[("TOKIO_WORKER_THREADS", &WORKERS.to_string())]);
    server.replies_to(&[json!(0)], Duration::from_secs(10));

    // Another process in the middle of a write: this one, holding a write transaction.
    let db = redb::Database::builder()
        .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
        .open(sb.store())
        .unwrap();
    let held = db.begin_write().unwrap();
    let args: Value = serde_json::from_str(PAYLOAD).unwrap();
    let calls: Vec<Value> = (1..=WORKERS + 1).map(|id| json!(id)).collect();
    for id in &calls {
        server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "ask_user", "arguments": args}}));
    }
    let sent = Instant::now();
    std::thread::sleep(Duration::from_millis(300));
    server.send(&json!({"jsonrpc": "2.0", "id": "ping", "method": "ping"}));
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
    let (code, stderr) = server.finish();
    assert_eq!(code, Some(0), "{stderr}");
}
