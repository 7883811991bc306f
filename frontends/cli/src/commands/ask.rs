//! `ask-user ask`: the ask_user tool.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::mpsc::Receiver;

use anyhow::Context;
use ask_engine::{Event, FlowState, Origin, fallback_result, id_conflict_result, invalid_result};
use ask_schema::{Form, FormSource, Issue};
use ask_storage::{MakePayload, Store, StoreError, StoreOpening};

use crate::cli::AskArgs;
use crate::exit::Status;
use crate::runtime::{
    Report, finish, new_flow_id, open_form, print_result, resume_flow, run, start_and_run_opening,
};

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
    let path = crate::paths::store_path(args.flow.store.as_deref());
    let slot = OnceLock::new();
    // The store opens on a thread of its own: its creation the first time is a few synced
    // writes, and every open checks it (each page of the file read and checksummed: tens of
    // milliseconds for a store holding large forms). A new form in a live terminal does not
    // wait for it at all: its first frame is drawn meanwhile, and its opening commit (which
    // every key waits for) waits for the store instead. Elsewhere the store opens while the
    // payload is read and validated.
    std::thread::scope(|scope| {
        let (retention, retention_days) = std::sync::mpsc::channel();
        let live = args.id.is_none() && args.flow.script.is_none() && !crate::terminal::no_ui(&args.flow);
        // A payload read on two threads keeps both cores busy until its form is built, and the
        // store's check beside it delayed the first frame (at 100 000 options, by 5-10 ms with a
        // 60 MB store). In a live terminal such a store waits for the form, then opens beside
        // the opening commit's encoding, which does not need it.
        let (go, until_go) = std::sync::mpsc::channel::<()>();
        // The store's thread goes on once `go` is dropped: here at once, or after the form.
        let go = (live && crate::input::read_in_halves(args.file.as_deref())).then_some(go);
        let opening = path.as_ref().map(|path| {
            let open = move || {
                let _ = until_go.recv();
                open_and_prune(path, &retention_days)
            };
            scope.spawn(open)
        });
        let loaded = load_form(args.file.as_deref());
        drop(go);
        match (loaded, opening) {
            (Ok(Ok((form, text))), Ok(thread)) if live => {
                let id = new_flow_id();
                let make = crate::runtime::payload_entry(&id, text, FormSource::Tool);
                let payload = Some((args.flow.session.as_str(), Box::new(make) as MakePayload));
                let store = StoreOpening { slot: &slot, thread };
                let flow = (&args.flow, Report::ToolJson);
                start_and_run_opening(scope, (store, retention), id, form, Origin::tool(), flow, payload)
            }
            (loaded, opening) => {
                // No new flow opens here before the store is open (`start_and_run` prunes).
                drop(retention);
                let store = match opening {
                    Ok(thread) => thread
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                        .map_err(Into::into),
                    Err(no_path) => Err(anyhow::anyhow!("{no_path:#}")),
                };
                ask_with(args, loaded, store)
            }
        }
    })
}

/// Opens the store for `ask`, then prunes old flows when that is due — with the retention the
/// new flow's settings give (they are loaded once, by the flow's opening: loading moves an
/// unreadable config aside), and not at all when no retention comes.
fn open_and_prune(path: &Path, retention_days: &Receiver<u64>) -> Result<Store, StoreError> {
    let store = Store::open(path)?;
    if let Ok(days) = retention_days.recv() {
        crate::runtime::prune_if_due(&store, days);
    }
    Ok(store)
}

/// `ask` once the store is open (or failed to): a payload's issues, a known `--id`, a run
/// without a terminal, or a headless script.
fn ask_with(
    args: &AskArgs,
    loaded: anyhow::Result<Result<Loaded, Vec<Issue>>>,
    store: anyhow::Result<Store>,
) -> anyhow::Result<Status> {
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
            crate::runtime::write_result_line(&crate::runtime::inert_json(&serde_json::to_string(&form)?))?;
            Ok(Status::Done)
        }
        Err(issues) => {
            print_result(&invalid_result(issues))?;
            Ok(Status::Invalid)
        }
    }
}
