//! The tmux rung for real: a private tmux server with a client attached in a pseudo-terminal,
//! `ask-user mcp` started with that server's `TMUX`, a tool call whose form opens in a popup on
//! the attached client, keys typed into that client, and the answer coming back as the result.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::process::Command;
use std::time::Duration;

use common::pty::Pty;
use common::{PAYLOAD, Sandbox, bin};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
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

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_call_opens_the_form_in_a_tmux_popup_and_keys_typed_there_answer_it() {
    if Command::new("tmux").arg("-V").output().is_err() {
        panic!("tmux is needed for this test (.ci/run installs it)");
    }
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["tmux"]}}"#);
    let server = TmuxServer { socket: format!("ask-test-{}", std::process::id()) };
    server.tmux(&["new-session", "-d", "-s", "main", "-x", "100", "-y", "30", "sleep 600"]);
    let client_script = format!("exec tmux -L {} -f /dev/null attach -t main", server.socket);
    let mut pty = Pty::spawn(&sb, &client_script, 100, 30);
    std::thread::sleep(Duration::from_millis(300));
    let tmux_env = server.tmux(&["display-message", "-p", "#{socket_path},#{pid},0"]);

    let mut cmd = tokio::process::Command::new(bin());
    cmd.args(["mcp", "--wait", "30"])
        .current_dir(sb.dir.path())
        .env("ASK_USER_STORE", sb.store())
        .env("ASK_USER_CONFIG", sb.path("config.json"))
        .env("ASK_LOG_DIR", sb.path("logs"))
        .env("ASK_USER_KEYBOARD_PROBE", "0")
        .env("TMUX", &tmux_env);
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
