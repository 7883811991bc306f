//! The real `ask-user mcp` binary over stdio, driven by an rmcp client that spawns it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::Duration;

use common::pty::Pty;
use common::{PAYLOAD, Sandbox, bin};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

fn mcp_command(sb: &Sandbox) -> tokio::process::Command {
    mcp_waiting(sb, "20")
}

/// `ask-user mcp` whose calls wait `seconds` for an answer.
fn mcp_waiting(sb: &Sandbox, seconds: &str) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(bin());
    cmd.args(["mcp", "--wait", seconds])
        .current_dir(sb.dir.path())
        .env("ASK_USER_STORE", sb.store())
        .env("ASK_USER_CONFIG", sb.path("config.json"))
        .env("ASK_LOG_DIR", sb.path("logs"))
        .env_remove("TMUX");
    cmd
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_spawning_the_binary_lists_the_tool_and_gets_an_answer_given_with_attach() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["terminal"]}}"#);
    let client = ().serve(TokioChildProcess::new(mcp_command(&sb)).unwrap()).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.iter().map(|t| t.name.to_string()).collect::<Vec<_>>(), ["ask_user"]);

    let invalid = client
        .call_tool(
            CallToolRequestParams::new("ask_user")
                .with_arguments(json!({"questions": []}).as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    assert_eq!(invalid.structured_content.unwrap()["error"]["kind"], "invalid_input");

    // A person answers in another terminal with `ask-user attach` (headless here).
    let answer = {
        let keys = sb.file("k", "2\nenter\n1\n1\n");
        let mut cmd = sb.cmd(&["attach", "--script", keys.to_str().unwrap()]);
        std::thread::spawn(move || cmd.output().unwrap())
    };
    let args: Value = serde_json::from_str(PAYLOAD).unwrap();
    let result = tokio::time::timeout(
        Duration::from_secs(30),
        client.call_tool(
            CallToolRequestParams::new("ask_user").with_arguments(args.as_object().unwrap().clone()),
        ),
    )
    .await
    .expect("answered in time")
    .unwrap();
    let attached = answer.join().unwrap();
    assert_eq!(attached.status.code(), Some(0), "{}", String::from_utf8_lossy(&attached.stderr));
    let details = result.structured_content.unwrap();
    assert_eq!(details["answers"]["db"]["values"], json!(["sqlite"]));
    let attach_json: Value = serde_json::from_slice(&attached.stdout).unwrap();
    assert_eq!(attach_json["details"], details, "attach and the MCP call report the same result");
    client.cancel().await.unwrap();
}

/// A form a call left open is listed as `waiting` (an agent will come back for it), not as an
/// abandoned `resumable` one; the repeated call collects what `attach` answered.
#[tokio::test(flavor = "multi_thread")]
async fn a_form_a_call_left_open_is_listed_as_waiting_until_its_answers_are_collected() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["terminal"]}}"#);
    let client = ().serve(TokioChildProcess::new(mcp_waiting(&sb, "1")).unwrap()).await.unwrap();
    let args: Value = serde_json::from_str(PAYLOAD).unwrap();
    let call = || {
        client.call_tool(
            CallToolRequestParams::new("ask_user").with_arguments(args.as_object().unwrap().clone()),
        )
    };
    let open = call().await.unwrap().structured_content.unwrap();
    let id = open["flowId"].as_str().unwrap().to_owned();
    let listed = sb.run(&["log", "list"]).stdout;
    assert!(listed.contains(&id) && listed.contains(" waiting "), "{listed}");
    assert!(sb.run(&["log", "show", &id]).stdout.ends_with("status: waiting\n"));
    let keys = sb.file("k", "2\nenter\n1\n1\n");
    let attached = sb.run(&["attach", &id, "--script", keys.to_str().unwrap()]);
    assert_eq!(attached.code, 0, "{}", attached.stderr);
    assert!(sb.run(&["log", "list"]).stdout.contains(" submitted "), "answered");
    let collected = call().await.unwrap().structured_content.unwrap();
    assert_eq!(collected["answers"]["db"]["values"], json!(["sqlite"]), "{collected}");
    client.cancel().await.unwrap();
}

/// A call larger than rmcp's default line limit (16 MiB) got no reply at all: the transport
/// dropped it, and the client waited until its own timeout. `ask-user ask` takes forms that
/// large, so the server reads messages of up to `ask_mcp::MAX_MESSAGE_BYTES`.
#[tokio::test(flavor = "multi_thread")]
async fn a_call_larger_than_16_mib_is_answered() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["terminal"]}}"#);
    let client = ().serve(TokioChildProcess::new(mcp_waiting(&sb, "1")).unwrap()).await.unwrap();
    let preview = "x".repeat(17 << 20);
    let call = |second: Value| {
        let payload = json!({"questions": [{"id": "q", "prompt": "Which?", "type": "preview", "options": [
            {"value": "a", "label": "A", "preview": preview}, second]}]});
        let call = client.call_tool(
            CallToolRequestParams::new("ask_user").with_arguments(payload.as_object().unwrap().clone()),
        );
        async { tokio::time::timeout(Duration::from_secs(60), call).await.expect("answered").unwrap() }
    };
    let invalid = call(json!({"value": "b", "label": "B"})).await.structured_content.unwrap();
    assert_eq!(invalid["error"]["issues"][0]["path"], "questions[0].options[1].preview", "{invalid}");
    let open = call(json!({"value": "b", "label": "B", "preview": "b"})).await.structured_content.unwrap();
    assert_eq!(open["stillOpen"], true, "{open}");
    let id = open["flowId"].as_str().unwrap();
    assert!(sb.run(&["log", "list"]).stdout.contains(id), "the large form is recorded");
    client.cancel().await.unwrap();
}

/// An MCP client started in a terminal shares it with the server: a form waiting for `ask-user
/// attach` rings that terminal's bell and, on one that shows desktop notifications (kitty
/// here), says which command to run.
#[test]
fn a_form_waiting_in_another_terminal_rings_the_terminal_the_server_shares() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["terminal"]}}"#);
    let args: Value = serde_json::from_str(PAYLOAD).unwrap();
    let lines = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ask_user", "arguments": args}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    sb.file("client.jsonl", &text);
    // stdin and stdout are pipes, as under a client; the controlling terminal is the PTY.
    let script = format!("(cat client.jsonl; sleep 10) | '{}' mcp --wait 1 > out.jsonl", bin().display());
    let pty = Pty::spawn_with(&sb, &script, 80, 24, &[("TERM", "xterm-kitty")]);
    pty.wait_until("the call's result", |_| {
        std::fs::read_to_string(sb.path("out.jsonl")).is_ok_and(|o| o.contains(r#""id":1"#))
    });
    let out = std::fs::read_to_string(sb.path("out.jsonl")).unwrap();
    let reply: Value =
        out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).find(|m| m["id"] == 1).unwrap();
    let id = reply["result"]["structuredContent"]["flowId"].as_str().unwrap();
    let bell = format!("\x07\x1b]9;ask_user: a form is waiting - run ask-user attach {id}\x07");
    assert!(pty.wrote(bell.as_bytes()), "the terminal got: {:?}", pty.screen());
    assert!(!out.contains('\x07'), "the protocol stream stays clean");
}
