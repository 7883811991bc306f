//! Tool call → form on screen in a tmux popup: a private tmux server with a client attached in a
//! pseudo-terminal, the release `ask-user mcp` started with its `TMUX`, and the time from sending
//! `tools/call` to the question appearing on the attached client's screen. Each call is then
//! answered so the next one starts clean. Run: `cargo bench -p ask-tests --bench mcp_popup`
//! (builds the release binary first; needs tmux ≥ 3.2).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

#[path = "../tests/common/mod.rs"]
mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::Sandbox;
use common::pty::Pty;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::json;

#[tokio::main]
async fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "-q", "-p", "ask-user"])
        .current_dir(&root)
        .status()
        .unwrap();
    assert!(built.success());
    let bin = root.join("target/release/ask-user");
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["tmux"]}}"#);
    let socket = format!("ask-bench-{}", std::process::id());
    let tmux = |args: &[&str]| {
        let out = Command::new("tmux").args(["-L", &socket, "-f", "/dev/null"]).args(args).output().unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    tmux(&["new-session", "-d", "-s", "main", "-x", "100", "-y", "30", "sleep 600"]);
    let mut pty = Pty::spawn(&sb, &format!("exec tmux -L {socket} -f /dev/null attach -t main"), 100, 30);
    std::thread::sleep(Duration::from_millis(300));
    let mut cmd = tokio::process::Command::new(&bin);
    cmd.args(["mcp", "--wait", "30"])
        .env("ASK_USER_STORE", sb.store())
        .env("ASK_USER_CONFIG", sb.path("config.json"))
        .env("ASK_LOG_DIR", sb.path("logs"))
        .env("ASK_USER_KEYBOARD_PROBE", "0")
        .env("TMUX", tmux(&["display-message", "-p", "#{socket_path},#{pid},0"]));
    let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let mut samples = Vec::new();
    for n in 0..20 {
        let prompt = format!("Question number {n}?");
        let args =
            json!({"questions": [{"id": "q", "prompt": prompt, "options": [{"value": "a", "label": "A"}]}]});
        let start = Instant::now();
        let call = client.call_tool(
            CallToolRequestParams::new("ask_user").with_arguments(args.as_object().unwrap().clone()),
        );
        let shown = async {
            while !pty.screen().contains(&prompt) {
                tokio::time::sleep(Duration::from_micros(500)).await;
            }
            samples.push(start.elapsed().as_secs_f64() * 1000.0);
            pty.send("1");
            pty.send("1");
            pty.send("1");
        };
        let (result, ()) = tokio::join!(call, shown);
        result.unwrap();
    }
    tmux(&["kill-server"]);
    samples.sort_by(f64::total_cmp);
    println!(
        "tool call → form on screen in a tmux popup, n={}: p50 {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        samples.len(),
        samples[samples.len() / 2],
        samples[samples.len() * 9 / 10],
        samples[samples.len() - 1]
    );
}
