//! `ask-user mcp`: the MCP server (the `ask-mcp` frontend) on stdio.

use crate::cli::McpArgs;
use crate::exit::Status;

pub fn run_mcp(args: &McpArgs) -> anyhow::Result<Status> {
    let mut options = ask_mcp::McpOptions::new(
        std::path::absolute(crate::paths::store_path(args.flow.store.as_deref())?)?,
        crate::paths::config_path(&args.flow).map(|p| std::path::absolute(&p).unwrap_or(p)),
        std::env::current_exe()?,
    );
    options.session = args.flow.session.clone();
    options.wait = args.wait.map(std::time::Duration::from_secs);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(ask_mcp::serve_stdio(options))?;
    Ok(Status::Done)
}
