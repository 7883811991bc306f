//! Running a flow to its end (headless or in the terminal) and reporting how it ended.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use ask_engine::{Event, FlowState, Origin, Outcome};
use ask_schema::{Form, ToolResult};
use ask_storage::{FlowRecord, Store, save_toggle};
use ask_tui::terminal::{Input, LiveTerminal};

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
    /// Nothing to report (`settings`): closing is the normal end.
    Silent,
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

/// Opens a form the way every command does: store its raw payload first when it is new (also
/// without a UI, so `/ask:replay` finds it), give the "Needs user input" result when there is no
/// UI, else record a new flow and run it.
pub fn open_form(
    store: &Store,
    flow: &FlowArgs,
    form: Form,
    origin: Origin,
    new_payload: Option<(String, serde_json::Value)>,
    report: Report,
) -> anyhow::Result<Status> {
    let id = match new_payload {
        Some((id, params)) => {
            let entry = ask_storage::PayloadEntry {
                version: 1,
                timestamp: now_ms(),
                params,
                source: origin.source,
                flow_id: Some(id.clone()),
            };
            store.save_payload(&flow.session, &entry)?;
            id
        }
        None => new_flow_id(),
    };
    if crate::terminal::no_ui(flow) {
        print_result(&ask_engine::fallback_result(&form))?;
        return Ok(Status::NoTerminal);
    }
    let mut session = start_flow(store, id, form, origin, flow)?;
    run(&mut session, flow, report)
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
    tracing::info!(flow = %id, command = %record.command, questions = form.questions.len(), "flow opened");
    let opened = Event::FlowOpened {
        form: form.into(),
        settings: loaded.settings,
        origin,
        size: flow.size.unwrap_or_default(),
        notices: loaded.notices,
    };
    Ok(FlowSession::start(store, &record, opened)?)
}

/// Commits and applies one event, carrying out its effects: an overlay toggle is saved to the
/// config file, and a failed save comes back as an event, as it would on any run.
pub fn push(session: &mut FlowSession, event: Event, config: Option<&Path>) -> anyhow::Result<()> {
    let before = *session.state().settings();
    let fx = session.push(event)?;
    if let (Some((toggle, on)), Some(path)) = (fx.save_toggle, config)
        && let Err(e) = save_toggle(path, toggle, on)
    {
        tracing::warn!(error = %e, "settings save failed");
        session.push(Event::SettingsSaveFailed { settings: before, message: e.to_string() })?;
    }
    if let Some(query) = fx.complete_query {
        let root = std::env::current_dir().unwrap_or_else(|_| ".".into());
        let items = session.files.offer(&root, &query);
        session.push(Event::CompletionsOffered { query, items })?;
    }
    Ok(())
}

/// Runs an open flow headless (with `--script`) or in the terminal, then reports its end.
pub fn run(session: &mut FlowSession, flow: &FlowArgs, report: Report) -> anyhow::Result<Status> {
    let config = crate::paths::config_path(flow);
    let Some(script) = &flow.script else {
        return interactive(session, config.as_deref(), report);
    };
    if let Some(size) = flow.size
        && size != session.state().size()
    {
        push(session, Event::TerminalResized { size }, None)?;
    }
    let text = read_script(script)?;
    run_steps(session, &text, config.as_deref(), flow.pace.map(Duration::from_millis))?;
    if let Some(path) = &flow.frame_out {
        let size = session.state().size();
        let mut term = ask_tui::MemoryTerminal::new(
            size.width,
            size.height,
            config_display(config.as_deref()).as_deref(),
        );
        let frame = term.draw(&Arc::new(session.state().view()));
        std::fs::write(path, frame).with_context(|| format!("cannot write frame to {}", path.display()))?;
    }
    finish(session.state(), report)
}

fn config_display(config: Option<&Path>) -> Option<String> {
    let path = config?;
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    Some(abs.display().to_string())
}

/// The live terminal loop: draw, read, commit, fold — until the flow completes.
fn interactive(session: &mut FlowSession, config: Option<&Path>, report: Report) -> anyhow::Result<Status> {
    let shown = config_display(config);
    let Ok(mut term) = LiveTerminal::open(shown.as_deref()) else {
        print_result(&ask_engine::fallback_result(session.state().form()))?;
        return Ok(Status::NoTerminal);
    };
    let size = term.size();
    if size != session.state().size() {
        push(session, Event::TerminalResized { size }, None)?;
    }
    // Watch from before the first frame, so an edit made once the form shows is never missed.
    let mut watch = ConfigWatch::new(config);
    term.draw(&Arc::new(session.state().view()))?;
    term.enable_kitty_keys();
    while session.state().outcome().is_none() {
        match term.next(Duration::from_millis(250))? {
            Input::Event(event) => {
                push(session, event, config)?;
                watch.saw_own_write();
                term.draw(&Arc::new(session.state().view()))?;
            }
            Input::Nothing if watch.changed() => {
                if let Some(settings) = config.and_then(ask_storage::reload_settings)
                    && settings != *session.state().settings()
                {
                    push(session, Event::SettingsChanged { settings }, None)?;
                    term.draw(&Arc::new(session.state().view()))?;
                }
            }
            Input::Signal => {
                drop(term);
                anyhow::bail!(
                    "stopped by a signal; every answer so far is saved: `ask-user resume` continues"
                );
            }
            Input::Nothing => {}
        }
    }
    drop(term);
    finish(session.state(), report)
}

/// Reports a completed flow; an open one prints nothing (exit 4).
pub fn finish(state: &FlowState, report: Report) -> anyhow::Result<Status> {
    let Some(result) = state.result() else {
        tracing::info!("script ended with the flow open");
        return Ok(Status::ScriptEnded);
    };
    tracing::info!(outcome = ?state.outcome(), "flow finished");
    if report == Report::Silent {
        return Ok(Status::Done);
    }
    let cancelled = state.outcome() == Some(Outcome::Cancelled);
    match (report, cancelled) {
        (Report::Silent, _) => {}
        (Report::ToolJson, _) => print_result(&result)?,
        (Report::CommandText, true) => eprintln!("ask-user: cancelled; nothing was sent"),
        (Report::CommandText, false) => println!("{}", result.text()),
    }
    Ok(if cancelled { Status::Cancelled } else { Status::Done })
}

/// Notices when the config file changes on disk while a flow is open (someone edited keymaps),
/// so the change reaches the flow as a `SettingsChanged` event.
struct ConfigWatch<'a> {
    path: Option<&'a Path>,
    seen: Option<SystemTime>,
}

impl<'a> ConfigWatch<'a> {
    fn new(path: Option<&'a Path>) -> ConfigWatch<'a> {
        ConfigWatch { path, seen: path.and_then(modified) }
    }

    /// Our own toggle saves change the file too; they are already in the flow.
    fn saw_own_write(&mut self) {
        self.seen = self.path.and_then(modified);
    }

    fn changed(&mut self) -> bool {
        let now = self.path.and_then(modified);
        let changed = now.is_some() && now != self.seen;
        self.seen = now;
        changed
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}
