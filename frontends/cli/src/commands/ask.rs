//! `ask-user ask`: the ask_user tool.

use std::path::{Path, PathBuf};

use anyhow::Context;
use ask_engine::{FlowState, Origin, fallback_result, invalid_result};
use ask_schema::{Form, FormSource, Issue, validate_text};
use ask_storage::Store;

use crate::cli::AskArgs;
use crate::exit::Status;
use crate::runtime::{Report, finish, new_flow_id, open_form, print_result, run};
use crate::session::FlowSession;

/// Reads and validates the payload; `Err(issues)` for anything that is not a valid form.
fn load_form(file: Option<&Path>) -> anyhow::Result<(serde_json::Value, Result<Form, Vec<Issue>>)> {
    let path = file.map_or_else(|| PathBuf::from("-"), Path::to_path_buf);
    let bytes =
        crate::input::read_bytes(&path).with_context(|| format!("cannot read payload {}", path.display()))?;
    let Ok(text) = String::from_utf8(bytes) else {
        let issue = Issue { path: String::new(), message: "payload is not valid UTF-8".to_owned() };
        return Ok((serde_json::Value::Null, Err(vec![issue])));
    };
    let raw = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
    Ok((raw, validate_text(&text, FormSource::Tool)))
}

pub fn run_ask(args: &AskArgs) -> anyhow::Result<Status> {
    let (raw, form) = load_form(args.file.as_deref())?;
    let form = match form {
        Ok(form) => form,
        Err(issues) => {
            tracing::info!(issues = issues.len(), "invalid payload");
            print_result(&invalid_result(issues))?;
            return Ok(Status::Invalid);
        }
    };
    let store = crate::paths::open_store(args.flow.store.as_deref())?;
    if let Some(id) = &args.id
        && store.flow(id)?.is_some()
    {
        return resume_or_report(&store, id.clone(), args);
    }
    let id = args.id.clone().unwrap_or_else(new_flow_id);
    open_form(&store, &args.flow, form, Origin::tool(), Some((id, raw)), Report::ToolJson)
}

/// `--id` of a known flow: a finished flow returns its recorded result without asking again;
/// an unfinished one continues where it stopped.
fn resume_or_report(store: &Store, id: String, args: &AskArgs) -> anyhow::Result<Status> {
    let state = FlowState::replay(&store.events(&id)?);
    if state.outcome().is_some() {
        return finish(&state, Report::ToolJson);
    }
    if crate::terminal::no_ui(&args.flow) {
        print_result(&fallback_result(state.form()))?;
        return Ok(Status::NoTerminal);
    }
    let mut session = FlowSession::resume(store, id)?;
    run(&mut session, &args.flow, Report::ToolJson)
}
