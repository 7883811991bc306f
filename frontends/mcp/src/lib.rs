//! `ask-user mcp`: the `ask_user` tool for every MCP client (Claude Code, Codex, Gemini CLI,
//! OpenCode, Cursor, VS Code, …), over stdio.
//!
//! The client owns the terminal, so the form is shown elsewhere, on the first rung that applies
//! ([`present::Rung`], order set by `mcp.presentation`): a tmux popup with the full form; the
//! client's own form through MCP elicitation; or another terminal, where the user runs
//! `ask-user attach`. The flow lives in the shared store like any other, so a call that times
//! out (or is cancelled) loses nothing: the form stays open, and the next call with the same
//! payload returns the answers given meanwhile — never a second form for the same question.

pub mod elicit;
pub mod present;
mod server;
mod waiting;

pub use server::{AskServer, McpOptions};

/// The longest message the server reads (one line of stdio). rmcp's default, 16 MiB, would drop
/// a larger call without a reply, and the client would wait for one until its own timeout;
/// `ask-user ask` takes forms of a million options (about 100 MB), so a call may be as large.
pub const MAX_MESSAGE_BYTES: usize = 256 << 20;

/// Serves the `ask_user` tool on stdin/stdout until the client disconnects.
pub async fn serve_stdio(options: McpOptions) -> anyhow::Result<()> {
    use rmcp::ServiceExt;
    use rmcp::transport::async_rw::AsyncRwTransport;
    let server = AskServer::new(options)?;
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = AsyncRwTransport::new_server(stdin, stdout).with_max_line_length(MAX_MESSAGE_BYTES);
    let running = server.serve(transport).await?;
    running.waiting().await?;
    Ok(())
}
