//! Running a flow to its end (headless or in the terminal) and reporting how it ended. The
//! commit → apply → effects loop itself is the library's [`DurableFlow`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use ask_engine::{Event, FlowState, Origin, Outcome};
use ask_schema::{Form, FormSource, ToolResult};
use ask_storage::{
    DurableFlow, FlowHost, FlowRecord, MakePayload, PayloadEntry, Store, StoreError, StoreOpening,
};

use crate::cli::FlowArgs;
use crate::exit::Status;
use crate::headless::{read_script, run_steps};

/// How a finished flow reports to its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// The tool result JSON on stdout (`ask`, `resume`, `wait`).
    ToolJson,
    /// Command-flow semantics (`replay`, `answer`): the result text on stdout, or a one-line
    /// notice on stderr when cancelled.
    CommandText,
    /// Nothing to report (`settings`): closing is the normal end.
    Silent,
    /// A form another process waits on, answered by a person at a terminal (`attach`): the
    /// waiting process reports the result; the person is told in one line where it went.
    Handed,
}

pub use ask_storage::now_ms;

/// A fresh flow id for a flow this command opens.
pub fn new_flow_id() -> String {
    ask_storage::new_flow_id("f")
}

/// Prints a tool result as one JSON line on stdout.
/// DEL and the C1 controls (U+0080–U+009F, which some terminals obey like ESC sequences) are
/// written as `\u` escapes, so a result shown in a terminal cannot drive it; the JSON value is
/// the same.
pub fn print_result(result: &ToolResult) -> anyhow::Result<()> {
    write_result_line(&inert_json(&serde_json::to_string(result)?))
}

/// Writes `text` and a newline to stdout, flushed. The result is what a run is for, so a
/// failure to deliver it (a full disk, an I/O error) is an error, not a silent exit 0. A reader
/// that has gone away (`| head -0`) chose not to read it: that stays quiet.
pub fn write_result_line(text: &str) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match crate::stdout_failure(writeln!(out, "{text}").and_then(|()| out.flush())) {
        Some(e) => Err(anyhow::Error::new(e).context("cannot write the result to stdout")),
        None => Ok(()),
    }
}

/// JSON text with DEL and C1 controls escaped (they can only occur inside strings).
pub fn inert_json(json: &str) -> std::borrow::Cow<'_, str> {
    // In UTF-8, DEL is the byte 0x7f and a C1 control is 0xc2 followed by 0x80–0x9f: most
    // results hold neither and are passed through without a copy.
    let b = json.as_bytes();
    let has_control =
        b.contains(&0x7f) || b.windows(2).any(|w| w[0] == 0xc2 && (0x80..=0x9f).contains(&w[1]));
    if !has_control {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if ('\u{7f}'..='\u{9f}').contains(&c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Opens a form the way every command does: store its raw payload (`new_payload`: the new
/// flow's id and the payload's JSON text, as it validated) when it is new, also without a UI, so
/// `/ask:replay` finds it; give the "Needs user input" result when there is no UI, else record a
/// new flow and run it.
pub fn open_form(
    store: &Store,
    flow: &FlowArgs,
    form: Form,
    origin: Origin,
    new_payload: Option<(String, String)>,
    report: Report,
) -> anyhow::Result<Status> {
    let source = origin.source;
    let (id, payload) = match new_payload {
        Some((id, text)) => {
            let make = payload_entry(&id, text, source);
            (id, Some(make))
        }
        None => (new_flow_id(), None),
    };
    if crate::terminal::no_ui(flow) {
        if let Some(make) = payload {
            store.save_payload(&flow.session, &make()?)?;
        }
        print_result(&ask_engine::fallback_result(&form))?;
        return Ok(Status::NoTerminal);
    }
    // The payload entry, the flow and its lease: one commit, beside the first frame.
    let payload = payload.map(|make| (flow.session.as_str(), Box::new(make) as MakePayload));
    start_and_run(store, id, form, origin, flow, payload, report)
}

/// Makes the payload entry of a new flow `id` from the payload's JSON text, as it validated.
pub fn payload_entry(
    id: &str,
    text: String,
    source: FormSource,
) -> impl FnOnce() -> Result<PayloadEntry, StoreError> + Send + use<> {
    let (flow_id, timestamp) = (Some(id.to_owned()), now_ms());
    move || PayloadEntry::from_text(text, timestamp, source, flow_id)
}

/// Records a new flow for `form` (with its new payload entry, if any) and runs it. The opening
/// commit runs on a second thread while the first frame is drawn; no input is taken before it
/// is durable ([`DurableFlow::start_beside`]).
pub fn start_and_run<'s>(
    store: &'s Store,
    id: String,
    form: Form,
    origin: Origin,
    flow: &'s FlowArgs,
    payload: Option<(&'s str, MakePayload<'s>)>,
    report: Report,
) -> anyhow::Result<Status> {
    std::thread::scope(|scope| {
        let (record, opened, config, retention_days) = opening(id, form, origin, flow);
        prune_if_due(store, retention_days);
        let session = DurableFlow::start_beside(scope, store, record, opened, payload);
        drive(equip(session, config), flow, report)
    })
}

/// Like [`start_and_run`], inside the caller's `scope`, while the store is still being opened
/// on it: the first frame waits for neither the store nor the opening commit. The thread
/// opening the store is sent the store's retention from the flow's settings, to prune with.
pub fn start_and_run_opening<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    (store, retention): (StoreOpening<'s>, std::sync::mpsc::Sender<u64>),
    id: String,
    form: Form,
    origin: Origin,
    (flow, report): (&'s FlowArgs, Report),
    payload: Option<(&'s str, MakePayload<'s>)>,
) -> anyhow::Result<Status> {
    let (record, opened, config, retention_days) = opening(id, form, origin, flow);
    let _ = retention.send(retention_days);
    drive(
        equip(DurableFlow::start_beside_opening(scope, store, record, opened, payload), config),
        flow,
        report,
    )
}

fn drive(mut session: DurableFlow<'_>, flow: &FlowArgs, report: Report) -> anyhow::Result<Status> {
    // A run that failed reports its own error — a failed opening commit among them, in its
    // own words (a later `opened` would only say the flow was never recorded).
    let status = run(&mut session, flow, report)?;
    // A run that ended without writing (no terminal after all) still reports a failed opening.
    session.opened()?;
    Ok(status)
}

/// A new flow's record and opening event for `form`, the config file, and the store's
/// retention in days.
fn opening(
    id: String,
    form: Form,
    origin: Origin,
    flow: &FlowArgs,
) -> (FlowRecord, Event, Option<PathBuf>, u64) {
    let config = crate::paths::config_path(flow);
    let loaded = ask_storage::load_settings(config.as_deref());
    let record = FlowRecord::new(id.clone(), origin.command.clone(), flow.session.clone(), now_ms());
    tracing::info!(flow = %id, command = %record.command, questions = form.questions.len(), "flow opened");
    let opened = Event::FlowOpened {
        form: form.into(),
        settings: Box::new(loaded.settings),
        origin,
        // A live terminal's own size, so the first frame needs no resize event committed first.
        size: flow.size.unwrap_or_else(|| match flow.script {
            None => ask_tui::terminal::terminal_size(),
            Some(_) => ask_engine::Size::default(),
        }),
        notices: loaded.notices,
    };
    (record, opened, config, loaded.store.retention_days)
}

/// Deletes finished flows past `retention_days` when a day has passed since that was last done
/// (then a write commit at least; otherwise one read).
pub fn prune_if_due(store: &Store, retention_days: u64) {
    match store.prune_if_due(now_ms(), retention_days) {
        Ok(Some(report)) => tracing::info!(flows = report.flows, events = report.events, "pruned old flows"),
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "pruning old flows failed"),
    }
}

/// Reopens a recorded flow in this process; a timed-out one goes on where it stopped.
pub fn resume_flow<'s>(store: &'s Store, id: &str, flow: &FlowArgs) -> Result<DurableFlow<'s>, StoreError> {
    let mut session = equip(DurableFlow::resume(store, id)?, crate::paths::config_path(flow));
    if session.state().outcome() == Some(Outcome::TimedOut) {
        tracing::info!(flow = %id, "timed-out flow reopened");
        session.push(Event::FlowResumed)?;
    }
    Ok(session)
}

/// Effects go to the config file; `@` paths come from the current directory.
fn equip(flow: DurableFlow<'_>, config: Option<PathBuf>) -> DurableFlow<'_> {
    let root = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let mut index = crate::file_refs::FileIndex::default();
    flow.with_host(FlowHost { config }).with_file_offers(Box::new(move |query| index.offer(&root, query)))
}

/// Runs an open flow headless (with `--script`) or in the terminal, then reports its end.
pub fn run(session: &mut DurableFlow, flow: &FlowArgs, report: Report) -> anyhow::Result<Status> {
    let config = crate::paths::config_path(flow);
    let Some(script) = &flow.script else {
        let ui = ask_storage::load_settings(config.as_deref()).ui;
        let timeout = flow.timeout.unwrap_or(ui.timeout_seconds);
        if flow.plain || ui.plain || std::env::var("TERM").is_ok_and(|t| t == "dumb") {
            return plain(session, (timeout > 0).then(|| Duration::from_secs(timeout)), report);
        }
        let clock = crate::live::Clock::new((timeout > 0).then(|| Duration::from_secs(timeout)));
        let form = session.state().form();
        let prompt = form.questions.first().map_or("", |q| q.prompt.as_str());
        let nudger = crate::nudge::Nudger::new(&ui, form.title.as_deref(), prompt);
        return crate::live::interactive(session, config.as_deref(), (clock, nudger), report);
    };
    if let Some(size) = flow.size
        && size != session.state().size()
    {
        session.push(Event::TerminalResized { size })?;
    }
    let text = read_script(script)?;
    run_steps(session, &text, flow.pace.map(Duration::from_millis))?;
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
    let status = finish(session.state(), session.id(), report)?;
    if status == Status::ScriptEnded {
        // Exit 4 with nothing on stdout is the contract; this line says why, and what next.
        errln!(
            "ask-user: the script ended with the form still open; it is saved: `ask-user resume {}` continues it",
            session.id()
        );
    }
    Ok(status)
}

pub(crate) fn config_display(config: Option<&Path>) -> Option<String> {
    let path = config?;
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    Some(abs.display().to_string())
}

/// The plain-line frontend on `/dev/tty` (issue 13.4): the same flow, the same log.
fn plain(session: &mut DurableFlow, timeout: Option<Duration>, report: Report) -> anyhow::Result<Status> {
    struct Driver<'a, 's>(&'a mut DurableFlow<'s>);
    impl ask_plain::Flow for Driver<'_, '_> {
        fn state(&self) -> &FlowState {
            self.0.state()
        }
        fn push(&mut self, events: &[Event]) -> Result<(), String> {
            // One group: a line never toggles a setting, the one thing that splits a group.
            self.0.push_all(events).map(|_| ()).map_err(|e| ask_storage::error_line(&e))
        }
        fn recording(&self) -> bool {
            self.0.is_recording()
        }
    }
    let tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty");
    let Ok(tty) = tty else {
        print_result(&ask_engine::fallback_result(session.state().form()))?;
        return Ok(Status::NoTerminal);
    };
    let input = std::io::BufReader::new(tty.try_clone()?);
    let mut output = tty;
    let ended = ask_plain::run(input, &mut output, &mut Driver(session), timeout)?;
    if ended == ask_plain::Ended::InputClosed {
        errln!(
            "ask-user: the input closed; every answer so far is saved: `ask-user resume {}` continues",
            session.id()
        );
    }
    finish(session.state(), session.id(), report)
}

/// Reports a completed flow (stored as `id`); an open one prints nothing (exit 4).
pub fn finish(state: &FlowState, id: &str, report: Report) -> anyhow::Result<Status> {
    let Some(result) = state.result_of(id) else {
        tracing::info!("script ended with the flow open");
        return Ok(Status::ScriptEnded);
    };
    tracing::info!(outcome = ?state.outcome(), "flow finished");
    let cancelled = matches!(state.outcome(), Some(Outcome::Cancelled | Outcome::TimedOut));
    // The answers are in the store whatever happens to stdout: say where to get them again.
    let undelivered = |e: anyhow::Error| {
        anyhow::anyhow!(
            "{}; every answer is saved: `ask-user wait {id}` prints the result again",
            crate::one_line(&e)
        )
    };
    match (report, state.outcome()) {
        (Report::Silent, _) => return Ok(Status::Done),
        (Report::Handed, outcome) => errln!("ask-user: {}", handed(outcome, id)),
        (Report::ToolJson, _) => print_result(&result).map_err(undelivered)?,
        (Report::CommandText, Some(Outcome::TimedOut)) => {
            errln!("ask-user: the form timed out; nothing was sent. `ask-user resume {id}` reopens it")
        }
        (Report::CommandText, _) if cancelled => errln!("ask-user: cancelled; nothing was sent"),
        (Report::CommandText, _) => {
            write_result_line(&crate::inert::for_stdout(result.text(), true)).map_err(undelivered)?;
        }
    }
    Ok(if cancelled { Status::Cancelled } else { Status::Done })
}

/// What `attach` tells the person when the form closes.
fn handed(outcome: Option<Outcome>, id: &str) -> String {
    match outcome {
        Some(Outcome::Elaborated) => "sent; the waiting agent is asked to elaborate on your notes".to_owned(),
        Some(Outcome::Cancelled) => "cancelled; the waiting agent is told".to_owned(),
        Some(Outcome::TimedOut) => format!("the form timed out; `ask-user attach {id}` reopens it"),
        Some(Outcome::Submitted) | None => "your answers went to the waiting agent".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn c1_controls_and_del_are_escaped_and_the_value_is_unchanged() {
        let raw = serde_json::json!({"text": "a\u{9b}31mred\u{7f}é"});
        let json = raw.to_string();
        let text = super::inert_json(&json);
        assert!(text.is_ascii() || !text.chars().any(|c| ('\u{7f}'..='\u{9f}').contains(&c)), "{text}");
        assert!(text.contains("\\u009b") && text.contains("\\u007f"), "{text}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), raw);
        let plain = "{\"text\":\"héllo\"}";
        assert!(
            matches!(super::inert_json(plain), std::borrow::Cow::Borrowed(_)),
            "no copy without controls"
        );
    }
}
