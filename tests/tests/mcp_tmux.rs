//! The tmux rung for real: a private tmux server with a client attached in a pseudo-terminal,
//! `ask-user mcp` started with that server's `TMUX`, a tool call whose form opens in a popup on
//! the attached client, keys typed into that client, and the answer coming back as the result.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::pty::Pty;
use common::{PAYLOAD, Sandbox, bin};
use rmcp::model::{CallToolRequestParams, ClientRequest, ProgressNotificationParam, Request, ServerResult};
use rmcp::service::{NotificationContext, PeerRequestOptions};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

struct TmuxServer {
    socket: String,
}

impl TmuxServer {
    fn tmux(&self, args: &[&str]) -> String {
        let out =
            Command::new("tmux").args(["-L", &self.socket, "-f", "/dev/null"]).args(args).output().unwrap();
        assert!(out.status.success(), "tmux {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }
}

impl Drop for TmuxServer {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["-L", &self.socket, "kill-server"]).output();
    }
}

/// A sandbox whose config shows forms in tmux only, and a private tmux server with one session
/// (`name` keeps parallel tests' servers apart), no client attached yet.
fn tmux_sandbox(name: &str) -> (Sandbox, TmuxServer) {
    if Command::new("tmux").arg("-V").output().is_err() {
        panic!("tmux is needed for this test (.ci/run installs it)");
    }
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["tmux"]}}"#);
    let server = TmuxServer { socket: format!("ask-test-{name}-{}", std::process::id()) };
    server.tmux(&["new-session", "-d", "-s", "main", "-x", "100", "-y", "30", "sleep 600"]);
    (sb, server)
}

/// A terminal attached to the server's session, as the person at it has one.
fn attach_client(server: &TmuxServer, sb: &Sandbox) -> Pty {
    let client_script = format!("exec tmux -L {} -f /dev/null attach -t main", server.socket);
    let pty = Pty::spawn(sb, &client_script, 100, 30);
    std::thread::sleep(Duration::from_millis(300));
    pty
}

/// `ask-user mcp --wait SECONDS` for a private tmux server's session, as a process inside it
/// would start it.
fn mcp_in(server: &TmuxServer, sb: &Sandbox, wait: &str) -> tokio::process::Command {
    let tmux_env = server.tmux(&["display-message", "-p", "#{socket_path},#{pid},0"]);
    let mut cmd = tokio::process::Command::new(bin());
    cmd.args(["mcp", "--wait", wait])
        .current_dir(sb.dir.path())
        .env("ASK_USER_STORE", sb.store())
        .env("ASK_USER_CONFIG", sb.path("config.json"))
        .env("ASK_LOG_DIR", sb.path("logs"))
        .env("ASK_USER_KEYBOARD_PROBE", "0")
        .env("TMUX", &tmux_env);
    cmd
}

/// A client that keeps the progress messages it is sent, connected to `ask-user mcp --wait 30`
/// in the tmux server's session, and the `ask_user` call it has just made.
async fn start_listened_call(
    server: &TmuxServer,
    sb: &Sandbox,
) -> (Listener, rmcp::service::RunningService<RoleClient, Listener>, rmcp::service::RequestHandle<RoleClient>)
{
    let listener = Listener::default();
    let client =
        listener.clone().serve(TokioChildProcess::new(mcp_in(server, sb, "30")).unwrap()).await.unwrap();
    let params = CallToolRequestParams::new("ask_user")
        .with_arguments(serde_json::from_str::<Value>(PAYLOAD).unwrap().as_object().unwrap().clone());
    let request = ClientRequest::CallToolRequest(Request::new(params));
    let handle = client.send_cancellable_request(request, PeerRequestOptions::no_options()).await.unwrap();
    (listener, client, handle)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_call_opens_the_form_in_a_tmux_popup_and_keys_typed_there_answer_it() {
    let (sb, server) = tmux_sandbox("popup");
    let mut pty = attach_client(&server, &sb);
    let cmd = mcp_in(&server, &sb, "30");
    let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let args: Value = serde_json::from_str(PAYLOAD).unwrap();
    let call = tokio::spawn(async move {
        let params = CallToolRequestParams::new("ask_user").with_arguments(args.as_object().unwrap().clone());
        let result = client.call_tool(params).await.unwrap();
        let _ = client.cancel().await;
        result
    });
    tokio::task::spawn_blocking(move || {
        pty.wait_for("Which database?");
        pty.send("2"); // SQLite, next tab
        pty.wait_for("Which extras?");
        pty.send("\r"); // review
        pty.wait_for("Submit");
        pty.send("1");
        pty.send("1");
    })
    .await
    .unwrap();
    let result = tokio::time::timeout(Duration::from_secs(20), call).await.expect("answered").unwrap();
    let details = result.structured_content.unwrap();
    assert_eq!(details["answers"]["db"]["values"], json!(["sqlite"]));
    assert_eq!(details["cancelled"], false);
}

/// A client that records the progress messages of its calls.
#[derive(Clone, Default)]
struct Listener {
    progress: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Listener {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params.message.unwrap_or_default());
    }
}

/// An agent in a tmux session nobody is attached to (a detached session, say): tmux has no
/// client to show the popup on, and `display-popup` fails at once. The call does not wait in
/// silence: the agent is told, in a progress message, to have the user run `ask-user attach`,
/// and an answer given there comes back as the result.
#[tokio::test(flavor = "multi_thread")]
async fn with_no_tmux_client_to_show_the_popup_the_call_says_to_attach() {
    let (sb, server) = tmux_sandbox("detached");
    let (listener, client, handle) = start_listened_call(&server, &sb).await;
    let start = Instant::now();
    let told = loop {
        let progress = listener.progress.lock().unwrap().clone();
        if let Some(m) = progress.iter().find(|m| m.contains("ask-user attach")) {
            break m.clone();
        }
        assert!(start.elapsed() < Duration::from_secs(10), "never told where to answer: {progress:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(told.contains("run `ask-user attach mcp-"), "{told}");
    let keys = sb.file("keys", "2\nenter\n1\n1\n");
    let attached = sb.run(&["attach", "--script", keys.to_str().unwrap()]);
    assert_eq!(attached.code, 0, "{}", attached.stderr);
    let response =
        tokio::time::timeout(Duration::from_secs(20), handle.await_response()).await.expect("answered");
    let ServerResult::CallToolResult(result) = response.unwrap() else { panic!("a tool result") };
    assert_eq!(result.structured_content.unwrap()["answers"]["db"]["values"], json!(["sqlite"]));
    let _ = client.cancel().await;
}

/// Two calls at once (parallel sub-agents) share one popup at a time. The second, queued
/// behind a popup nobody answers, still ends when its own `--wait` runs out, counted from the
/// call, with the "still open, call again" result; it does not first wait out the other's.
#[tokio::test(flavor = "multi_thread")]
async fn a_call_queued_behind_another_popup_keeps_its_own_wait() {
    let (sb, server) = tmux_sandbox("queue");
    let pty = attach_client(&server, &sb);
    let client = ().serve(TokioChildProcess::new(mcp_in(&server, &sb, "4")).unwrap()).await.unwrap();
    let start = Instant::now();
    let mut calls = Vec::new();
    for db in ["Which database?", "Which cache?"] {
        let args: Value = serde_json::from_str(&PAYLOAD.replace("Which database?", db)).unwrap();
        let params = CallToolRequestParams::new("ask_user").with_arguments(args.as_object().unwrap().clone());
        let peer = client.peer().clone();
        calls.push(tokio::spawn(async move { (peer.call_tool(params).await.unwrap(), start.elapsed()) }));
    }
    pty.wait_for("Which");
    for call in calls {
        let (result, took) =
            tokio::time::timeout(Duration::from_secs(20), call).await.expect("ended").unwrap();
        let text = serde_json::to_value(&result.content[0]).unwrap()["text"].as_str().unwrap().to_owned();
        assert!(text.contains("has not answered yet"), "{text}");
        assert!(
            took < Duration::from_millis(6500),
            "each call ends at its own 4 s wait, not after the other's: {took:?}"
        );
    }
    let _ = client.cancel().await;
}

/// Cancelling the form in the popup ends the call with the cancelled result. tmux reports the
/// popup's command as failed then, just as when it has no client to show the popup on; the
/// user, who has just dismissed the form, is not told to go and answer it with `attach`.
#[tokio::test(flavor = "multi_thread")]
async fn a_form_cancelled_in_the_popup_returns_cancelled_without_sending_the_user_to_attach() {
    let (sb, server) = tmux_sandbox("cancel");
    let mut pty = attach_client(&server, &sb);
    let (listener, client, handle) = start_listened_call(&server, &sb).await;
    tokio::task::spawn_blocking(move || {
        pty.wait_for("Which database?");
        pty.send("\x1b");
    })
    .await
    .unwrap();
    let response =
        tokio::time::timeout(Duration::from_secs(20), handle.await_response()).await.expect("ended");
    let ServerResult::CallToolResult(result) = response.unwrap() else { panic!("a tool result") };
    assert_eq!(result.structured_content.unwrap()["cancelled"], true);
    let progress = listener.progress.lock().unwrap().clone();
    assert!(!progress.iter().any(|m| m.contains("ask-user attach")), "{progress:?}");
    let _ = client.cancel().await;
}
