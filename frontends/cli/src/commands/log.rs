//! `ask-user log list|show|export|replay`: the event log, for people and bug reports.

use std::path::Path;

use anyhow::Context;
use ask_engine::{Event, FlowState, Outcome, SummaryEdge};
use ask_storage::{PruneRule, Store, log_file};

use crate::cli::{LogCommand, PruneArgs, StoreArgs};
use crate::exit::Status;
use crate::runtime::{Report, finish};

pub fn run_log(command: &LogCommand) -> anyhow::Result<Status> {
    match command {
        LogCommand::List(store) => list(&open(store)?),
        LogCommand::Show { flow_id, store } => {
            let store = open(store)?;
            show(&store, &chosen(&store, flow_id.as_deref())?)
        }
        LogCommand::Export { flow_id, output, store } => {
            let store = open(store)?;
            export(&store, &chosen(&store, flow_id.as_deref())?, output.as_deref())
        }
        LogCommand::Replay { file, frames, .. } => replay(file, *frames),
        LogCommand::Prune(args) => prune(args),
    }
}

fn open(args: &StoreArgs) -> anyhow::Result<Store> {
    crate::paths::open_store(args.store.as_deref())
}

/// A flow's status in `log list`. An unfinished flow is `open` while a live process shows it
/// and `resumable` when none does (its process was killed or its terminal closed), or `waiting`
/// when `owed`: an MCP call waits for its result or will come back for it (the store's `owed`
/// table). `resume` and `attach` take exactly the ones no process shows.
fn status_of(state: &FlowState, shown: bool, owed: bool) -> &'static str {
    match state.outcome() {
        None if shown => "open",
        None if owed => "waiting",
        None => "resumable",
        Some(Outcome::Submitted) => "submitted",
        Some(Outcome::Elaborated) => "elaborated",
        Some(Outcome::Cancelled) => "cancelled",
        Some(Outcome::TimedOut) => "timed out",
    }
}

fn list(store: &Store) -> anyhow::Result<Status> {
    let owed: std::collections::HashSet<String> = store.owed()?.into_iter().map(|o| o.id).collect();
    let flows = store.flows()?;
    if flows.is_empty() {
        // Nothing on stdout, as for any empty list; a person is told which store was read.
        let path = store.path().display().to_string();
        errln!("ask-user: the store holds no flows yet ({})", ask_tui::text::sanitize(&path, false));
    }
    let mut unreadable = 0;
    for record in flows {
        let (status, events, asked) = match store.events(&record.id) {
            Ok(events) => {
                let state = FlowState::replay(&events);
                let shown = state.outcome().is_none() && store.holder(&record.id)?.is_some();
                let status = status_of(&state, shown, owed.contains(&record.id));
                (status, events.len().to_string(), what_it_asked(&state))
            }
            // One flow that cannot be read (written by a newer ask-user, damaged) is listed as
            // such; the others are still listed.
            Err(e) => {
                unreadable += 1;
                tracing::warn!(flow = %record.id, error = %e, "flow not readable");
                ("unreadable", "?".to_owned(), format!("(`ask-user log show {}` says why)", record.id))
            }
        };
        outln!(
            "{}  {}  {:<8} {:<10} {:>5} events  session {}  {}",
            record.id,
            crate::clock::utc(record.created_ms),
            record.command,
            status,
            events,
            crate::inert::for_stdout(&record.session, false),
            asked
        );
    }
    if unreadable > 0 {
        errln!("ask-user: {unreadable} flow(s) could not be read; `ask-user log show ID` says why");
    }
    Ok(Status::Done)
}

/// What a flow asked, to tell the flows apart in `log list`: its form's title, else its first
/// question's prompt; one line, cut to a width that keeps the list's lines short.
fn what_it_asked(state: &FlowState) -> String {
    let form = state.form();
    let text = form.title.as_deref().or_else(|| form.questions.first().map(|q| q.prompt.as_str()));
    let text = text.unwrap_or_default();
    // One line whatever the terminal: control characters and line breaks made inert.
    ask_tui::text::truncate(&ask_tui::text::sanitize(text, false), 40)
}

/// The flow named, else the newest one: the form just answered or just broken, which is the
/// one a bug report is about.
fn chosen(store: &Store, flow_id: Option<&str>) -> anyhow::Result<String> {
    if let Some(id) = flow_id {
        return Ok(id.to_owned());
    }
    match store.flows()?.pop() {
        Some(newest) => Ok(newest.id),
        None => anyhow::bail!("the store holds no flows yet"),
    }
}

fn events_of(store: &Store, flow_id: &str) -> anyhow::Result<Vec<Event>> {
    if store.flow(flow_id)?.is_none() {
        anyhow::bail!("no flow with id {flow_id}; `ask-user log list` shows the flows");
    }
    Ok(store.events(flow_id)?)
}

/// One human-readable line per event.
fn describe(event: &Event) -> String {
    match event {
        Event::FlowOpened { form, origin, size, notices, .. } => {
            let labels: Vec<&str> = form.questions.iter().map(|q| q.label.as_str()).collect();
            let notes =
                if notices.is_empty() { String::new() } else { format!(", {} notice(s)", notices.len()) };
            format!(
                "opened by {}: {} question(s) [{}], {}x{}{notes}",
                origin.command,
                labels.len(),
                labels.join(", "),
                size.width,
                size.height
            )
        }
        Event::KeyPressed { key } => format!("key {key}"),
        Event::TextPasted { text } => format!("paste {}", serde_json::to_string(text).unwrap_or_default()),
        Event::TerminalResized { size } => format!("resize {}x{}", size.width, size.height),
        Event::SettingsChanged { settings, .. } => {
            format!("settings changed: {}", serde_json::to_string(&settings.behaviour).unwrap_or_default())
        }
        Event::SettingsSaveFailed { message, .. } => format!("settings save failed: {message}"),
        Event::CompletionsOffered { query, items } => {
            format!("paths offered for @{query}: {}", items.join(", "))
        }
        Event::TimedOut { seconds } => format!("timed out after {seconds} s"),
        Event::FlowResumed => "resumed".to_owned(),
        Event::SummaryClamped { edge: SummaryEdge::Top } => "review summary drawn at its top".to_owned(),
        Event::SummaryClamped { edge: SummaryEdge::End } => "review summary drawn at its end".to_owned(),
        Event::PreviewClamped { line } => {
            format!("preview drawn at its last page: scrolled back to line {}", line + 1)
        }
        Event::EditorWrapped { width, breaks } => {
            let at = match breaks {
                ask_engine::editor::Breaks::Words => "every word boundary",
                ask_engine::editor::Breaks::Spaces => "spaces",
            };
            format!("editor drawn {width} cells wide, rows broken at {at}")
        }
    }
}

fn show(store: &Store, flow_id: &str) -> anyhow::Result<Status> {
    let events = events_of(store, flow_id)?;
    for (i, e) in events.iter().enumerate() {
        outln!("{i:>5}  {}", crate::inert::for_stdout(&describe(e), false));
    }
    let state = FlowState::replay(&events);
    let shown = state.outcome().is_none() && store.holder(flow_id)?.is_some();
    let owed = store.owed()?.iter().any(|o| o.id == flow_id);
    outln!("status: {}", status_of(&state, shown, owed));
    Ok(Status::Done)
}

fn export(store: &Store, flow_id: &str, output: Option<&Path>) -> anyhow::Result<Status> {
    let events = events_of(store, flow_id)?;
    let command = store.flow(flow_id)?.map(|r| r.command).unwrap_or_default();
    let text = log_file::export(flow_id, &command, &events)?;
    match output {
        Some(path) => {
            write_private(path, &text).with_context(|| format!("cannot write {}", path.display()))?
        }
        None => out!("{text}"),
    }
    Ok(Status::Done)
}

/// The export holds every keystroke: only its owner may read it.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    std::io::Write::write_all(&mut options.open(path)?, text.as_bytes())?;
    ask_storage::files::make_private(path)
}

fn prune(args: &PruneArgs) -> anyhow::Result<Status> {
    let store = crate::paths::open_store(args.store.as_deref())?;
    let older_than_ms = match (args.older_than, args.keep) {
        (Some(age), _) => Some(age.as_millis() as u64),
        (None, Some(_)) => None,
        (None, None) => {
            let config = args.config.clone().or_else(crate::paths::default_config_path);
            let days = crate::paths::load_settings_saying_why(config.as_deref()).store.retention_days;
            PruneRule::retention(days).older_than_ms
        }
    };
    let rule = PruneRule { older_than_ms, keep: args.keep, unfinished: args.unfinished };
    let report = store.prune(crate::runtime::now_ms(), rule)?;
    if args.unfinished {
        let (flows, events, unfinished) = (report.flows, report.events, report.unfinished);
        errln!("ask-user: pruned {flows} flow(s) ({unfinished} unfinished), {events} event(s)");
    } else {
        errln!("ask-user: pruned {} finished flow(s), {} event(s)", report.flows, report.events);
    }
    Ok(Status::Done)
}

fn replay(file: &Path, frames: bool) -> anyhow::Result<Status> {
    let text = crate::input::read_text(file).with_context(|| format!("cannot read {}", file.display()))?;
    let (header, events) = log_file::import(&text).with_context(|| format!("{}", file.display()))?;
    let state = if frames { print_frames(&events) } else { FlowState::replay(&events) };
    let status = finish(&state, &header.flow_id, Report::ToolJson)?;
    if status == Status::ScriptEnded {
        errln!("ask-user: the logged flow did not complete ({} events folded)", events.len());
    }
    Ok(status)
}

/// Folds `events`, printing the frame after each one; returns the final state.
fn print_frames(events: &[Event]) -> FlowState {
    let mut state = FlowState::default();
    let mut screen: Option<ask_tui::MemoryTerminal> = None;
    for (i, e) in events.iter().enumerate() {
        state.apply(e);
        let size = state.size();
        let term = screen.get_or_insert_with(|| ask_tui::MemoryTerminal::new(size.width, size.height, None));
        term.resize(size.width, size.height);
        outln!("── frame {i}: {} ──", crate::inert::for_stdout(&describe(e), false));
        out!("{}", term.draw(&std::sync::Arc::new(state.view())));
    }
    state
}
