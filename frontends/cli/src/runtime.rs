//! Running a flow to its end (headless or in the terminal) and reporting how it ended.

use std::time::{SystemTime, UNIX_EPOCH};

use ask_engine::{Event, FlowState, Origin, Outcome, Size};
use ask_schema::{Form, ToolResult};
use ask_storage::{FlowRecord, Store};

use crate::cli::FlowArgs;
use crate::exit::Status;
use crate::headless::{read_script, run_steps};
use crate::session::FlowSession;

/// How a finished flow reports to its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// The tool result JSON on stdout (`ask`, `resume`).
    ToolJson,
    /// Command-flow semantics (`replay`, `answer`): the result text on stdout, or a one-line
    /// notice on stderr when cancelled.
    CommandText,
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A fresh flow id: time plus a random suffix.
pub fn new_flow_id() -> String {
    use std::hash::{BuildHasher, RandomState};
    let salt = RandomState::new().hash_one(now_ms()) & 0xffff;
    format!("f{}-{salt:04x}", now_ms())
}

/// Prints a tool result as one JSON line on stdout.
pub fn print_result(result: &ToolResult) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string(result)?);
    Ok(())
}

/// Records and opens a new flow for `form`.
pub fn start_flow<'s>(
    store: &'s Store,
    id: String,
    form: Form,
    origin: Origin,
    flow: &FlowArgs,
) -> anyhow::Result<FlowSession<'s>> {
    let loaded = ask_storage::load_settings(crate::paths::config_path(flow).as_deref());
    let record = FlowRecord {
        id: id.clone(),
        command: origin.command.clone(),
        session: flow.session.clone(),
        created_ms: now_ms(),
    };
    store.create_flow(&record)?;
    let opened = Event::FlowOpened {
        form: form.into(),
        settings: loaded.settings,
        origin,
        size: Size::default(),
        notices: loaded.notices,
    };
    Ok(FlowSession::start(store, id, opened)?)
}

/// Runs an open flow headless (with `--script`) or in the terminal, then reports its end.
pub fn run(session: &mut FlowSession, flow: &FlowArgs, report: Report) -> anyhow::Result<Status> {
    let config = crate::paths::config_path(flow);
    let Some(script) = &flow.script else {
        // The interactive terminal frontend is not part of this build yet: behave as a host
        // without a UI would, so callers still get the pending questions.
        let result = ask_engine::fallback_result(session.state().form());
        print_result(&result)?;
        return Ok(Status::NoTerminal);
    };
    let text = read_script(script)?;
    run_steps(session, &text, config.as_deref(), flow.pace.map(std::time::Duration::from_millis))?;
    finish(session.state(), report)
}

/// Reports a completed flow; an open one prints nothing (exit 4).
pub fn finish(state: &FlowState, report: Report) -> anyhow::Result<Status> {
    let Some(result) = state.result() else { return Ok(Status::ScriptEnded) };
    let cancelled = state.outcome() == Some(Outcome::Cancelled);
    match (report, cancelled) {
        (Report::ToolJson, _) => print_result(&result)?,
        (Report::CommandText, true) => eprintln!("ask-user: cancelled; nothing was sent"),
        (Report::CommandText, false) => println!("{}", result.text()),
    }
    Ok(if cancelled { Status::Cancelled } else { Status::Done })
}
