//! `ask-user ask`: the ask_user tool.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Context;
use ask_engine::{Event, FlowState, Origin, Outcome, Size, fallback_result, invalid_result};
use ask_schema::{Form, FormSource, Issue, ToolResult, validate_text};

use crate::cli::{AskArgs, FlowArgs};
use crate::exit::Status;
use crate::headless::{read_script, run_steps};
use crate::session::FlowSession;

/// Prints a tool result as one JSON line on stdout.
pub fn print_result(result: &ToolResult) -> anyhow::Result<()> {
    let json = serde_json::to_string(result)?;
    println!("{json}");
    Ok(())
}

/// Reads and validates the payload; `Err(issues)` for anything that is not a valid form.
fn load_form(file: Option<&Path>) -> anyhow::Result<Result<Form, Vec<Issue>>> {
    let path = file.map_or_else(|| PathBuf::from("-"), Path::to_path_buf);
    let bytes =
        crate::input::read_bytes(&path).with_context(|| format!("cannot read payload {}", path.display()))?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => validate_text(&text, FormSource::Tool),
        Err(_) => Err(vec![Issue { path: String::new(), message: "payload is not valid UTF-8".to_owned() }]),
    })
}

/// The config path: `--config`, else `$ASK_USER_CONFIG`, else the platform config dir.
pub fn config_path(flow: &FlowArgs) -> Option<PathBuf> {
    if let Some(p) = &flow.config {
        return Some(p.clone());
    }
    if let Some(p) = std::env::var_os("ASK_USER_CONFIG") {
        return Some(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "ask-user").map(|d| d.config_dir().join("config.json"))
}

pub fn run(args: &AskArgs) -> anyhow::Result<Status> {
    let form = match load_form(args.file.as_deref())? {
        Ok(form) => form,
        Err(issues) => {
            tracing::info!(issues = issues.len(), "invalid payload");
            print_result(&invalid_result(issues))?;
            return Ok(Status::Invalid);
        }
    };
    let headless = args.flow.script.is_some();
    if args.flow.no_ui || (!headless && !std::io::stdin().is_terminal() && !has_tty()) {
        print_result(&fallback_result(&form))?;
        return Ok(Status::NoTerminal);
    }
    let Some(script) = &args.flow.script else {
        // The interactive terminal frontend is not part of this build yet: behave as a host
        // without a UI would, so callers still get the pending questions.
        print_result(&fallback_result(&form))?;
        return Ok(Status::NoTerminal);
    };
    let steps = read_script(script)?;
    let config = config_path(&args.flow);
    let loaded = ask_storage::load_settings(config.as_deref());
    let mut session = FlowSession::open(Event::FlowOpened {
        form: form.into(),
        settings: loaded.settings,
        origin: Origin::tool(),
        size: Size::default(),
        notices: loaded.notices,
    });
    run_steps(&mut session, &steps, config.as_deref())?;
    finish(session.state())
}

/// Prints the result of a completed flow; an open flow prints nothing (exit 4).
pub fn finish(state: &FlowState) -> anyhow::Result<Status> {
    let Some(result) = state.result() else { return Ok(Status::ScriptEnded) };
    print_result(&result)?;
    Ok(match state.outcome() {
        Some(Outcome::Cancelled) => Status::Cancelled,
        _ => Status::Done,
    })
}

fn has_tty() -> bool {
    std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").is_ok()
}
