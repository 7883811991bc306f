//! `ask-user ask`: the ask_user tool.

use std::path::{Path, PathBuf};

use anyhow::Context;
use ask_engine::{Event, FlowState, Origin, fallback_result, id_conflict_result, invalid_result};
use ask_schema::{Form, FormSource, Issue};
use ask_storage::{Store, StoreError};

use crate::cli::AskArgs;
use crate::exit::Status;
use crate::runtime::{Report, finish, new_flow_id, open_form, print_result, resume_flow, run};

/// A valid payload: its normalized form, and its JSON text to store.
pub type Loaded = (Form, String);

/// Reads and validates the payload; `Err(issues)` for anything that is not a valid form.
pub fn load_form(file: Option<&Path>) -> anyhow::Result<Result<Loaded, Vec<Issue>>> {
    let path = file.map_or_else(|| PathBuf::from("-"), Path::to_path_buf);
    let bytes =
        crate::input::read_bytes(&path).with_context(|| format!("cannot read payload {}", path.display()))?;
    let Ok(text) = String::from_utf8(bytes) else {
        let issue = Issue { path: String::new(), message: "payload is not valid UTF-8".to_owned() };
        return Ok(Err(vec![issue]));
    };
    // A payload of a million options is 90 MB of JSON: a valid one is read straight into the form
    // (no JSON tree) and stored as the text it came as.
    let form = match ask_schema::validate_text(&text, FormSource::Tool) {
        Ok(form) => form,
        Err(issues) => return Ok(Err(issues)),
    };
    Ok(Ok((form, text)))
}

pub fn run_ask(args: &AskArgs) -> anyhow::Result<Status> {
    // The store opens (its integrity check, and the first time its creation, are a few synced
    // writes) while the payload is read and validated: at 100 000 options that takes 5 ms off
    // the first frame.
    let (loaded, store) = std::thread::scope(|scope| {
        let store = scope.spawn(|| crate::paths::open_store(args.flow.store.as_deref()));
        let loaded = load_form(args.file.as_deref());
        (loaded, store.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    // When the payload decides the run (its issues, or why it could not be read), a store that
    // failed to open meanwhile — a damaged one is moved aside — is still said, not dropped.
    if !matches!(loaded, Ok(Ok(_)))
        && let Err(e) = &store
    {
        errln!("ask-user: {}", crate::one_line(e));
    }
    let (form, text) = match loaded? {
        Ok(loaded) => loaded,
        Err(issues) => {
            tracing::info!(issues = issues.len(), "invalid payload");
            print_result(&invalid_result(issues))?;
            return Ok(Status::Invalid);
        }
    };
    let store = store?;
    if let Some(id) = &args.id
        && store.flow(id)?.is_some()
    {
        return known_flow(&store, id, &form, args);
    }
    let id = args.id.clone().unwrap_or_else(new_flow_id);
    open_form(&store, &args.flow, form, Origin::tool(), Some((id, text)), Report::ToolJson)
}

/// `--id` of a known flow. Another form under the same id is refused; a finished flow returns
/// its recorded result without asking again; one that another live process shows is waited on
/// (or, with `--no-wait`, reported); otherwise it continues where it stopped.
fn known_flow(store: &Store, id: &str, form: &Form, args: &AskArgs) -> anyhow::Result<Status> {
    let events = store.events(id)?;
    let recorded = match events.first() {
        Some(Event::FlowOpened { form, .. }) => Some(form.as_ref()),
        _ => None,
    };
    if recorded != Some(form) {
        tracing::info!(flow = %id, "id reused for another form");
        errln!("ask-user: flow id {id} was recorded for a different form; ask again with a new --id");
        print_result(&id_conflict_result(id))?;
        return Ok(Status::IdConflict);
    }
    let state = FlowState::replay(&events);
    // A timed-out flow is reopened where it stopped (below); any other finished one reports.
    if state.outcome().is_some_and(|o| o != ask_engine::Outcome::TimedOut) {
        return finish(&state, id, Report::ToolJson);
    }
    if let Some(lease) = store.holder(id)? {
        return elsewhere(store, id, lease.pid, args);
    }
    if crate::terminal::no_ui(&args.flow) {
        print_result(&fallback_result(state.form()))?;
        return Ok(Status::NoTerminal);
    }
    match resume_flow(store, id, &args.flow) {
        Ok(mut session) => run(&mut session, &args.flow, Report::ToolJson),
        Err(StoreError::Held { pid, .. }) => elsewhere(store, id, pid, args),
        Err(e) => Err(e.into()),
    }
}

/// The flow is on another process's screen: wait for its outcome, or say so at once.
fn elsewhere(store: &Store, id: &str, pid: u32, args: &AskArgs) -> anyhow::Result<Status> {
    if args.no_wait {
        errln!(
            "ask-user: flow {id} is open in another ask-user process (pid {pid}); `ask-user wait {id}` waits for it"
        );
        return Ok(Status::StillOpen);
    }
    errln!("ask-user: flow {id} is open in another ask-user process (pid {pid}); waiting for its answer");
    crate::commands::wait::follow(store, id, None, Report::ToolJson)
}

/// `ask-user validate`: the tool's own validation, nothing stored, no UI.
pub fn run_validate(file: Option<&Path>) -> anyhow::Result<Status> {
    match load_form(file)? {
        Ok((form, _)) => {
            outln!("{}", crate::runtime::inert_json(&serde_json::to_string(&form)?));
            Ok(Status::Done)
        }
        Err(issues) => {
            print_result(&invalid_result(issues))?;
            Ok(Status::Invalid)
        }
    }
}
