//! `ask-user resume` and `ask-user replay`: reopening a flow or a stored form.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::Path;

use anyhow::{Context, bail};
use ask_engine::{FlowState, Origin};
use ask_schema::{Form, FormSource, validate, validate_text};
use ask_storage::{Store, StoreError, pi_session};

use crate::cli::{AttachArgs, PiArgs, ReplayArgs, ResumeArgs, SettingsArgs};
use crate::exit::Status;
use crate::runtime::{Report, new_flow_id, resume_flow, run};

pub fn run_resume(args: &ResumeArgs) -> anyhow::Result<Status> {
    resume(args, Report::ToolJson)
}

fn resume(args: &ResumeArgs, report: Report) -> anyhow::Result<Status> {
    let store = crate::paths::open_store(args.flow.store.as_deref())?;
    let id = match &args.flow_id {
        Some(id) => {
            if store.flow(id)?.is_none() {
                bail!("no flow with id {id}; `ask-user log list` shows the flows");
            }
            id.clone()
        }
        None => newest_unfinished(&store, &mut HashSet::new())?
            .context("no unfinished flow to resume (flows open in other processes are not offered)")?,
    };
    match reopen(&store, &id, &args.flow, report)? {
        Reopened::Ran(status) => Ok(status),
        Reopened::HeldBy(pid) => {
            bail!(
                "flow {id} is open in another ask-user process (pid {pid}); `ask-user wait {id}` waits for it"
            )
        }
    }
}

/// What came of reopening a flow.
#[derive(Debug, PartialEq, Eq)]
enum Reopened {
    /// It ran here (or had already finished, and its result was reported).
    Ran(Status),
    /// Another live process shows it (this pid).
    HeldBy(u32),
}

/// Runs flow `id` here until it ends, or reports its result when it has already ended.
fn reopen(store: &Store, id: &str, flow: &crate::cli::FlowArgs, report: Report) -> anyhow::Result<Reopened> {
    // A flow closed before this command opened it went nowhere now: its result is shown.
    let closed = if report == Report::Handed { Report::ToolJson } else { report };
    // One read of the log: the resumed flow's state says whether it is already finished.
    let status = match resume_flow(store, id, flow) {
        Ok(session) if session.state().outcome().is_some() => {
            crate::runtime::finish(session.state(), id, closed)?
        }
        Ok(mut session) => run(&mut session, flow, report)?,
        Err(StoreError::Held { pid, .. }) => {
            let state = FlowState::replay(&store.events(id)?);
            if state.outcome().is_none() {
                return Ok(Reopened::HeldBy(pid));
            }
            crate::runtime::finish(&state, id, closed)?
        }
        Err(e) => return Err(e.into()),
    };
    Ok(Reopened::Ran(status))
}

/// The newest flow that can be picked up: opened, unfinished (or timed out) and held by no
/// process. Finding out means folding a flow's log, so `ended` remembers the flows seen
/// finished for good (submitted, elaborated or cancelled: nothing reopens them) and they are
/// not read again — `attach` asks four times a second while it waits, and on a store of 1 500
/// finished flows that kept a tenth of a core busy.
fn newest_unfinished(store: &Store, ended: &mut HashSet<String>) -> anyhow::Result<Option<String>> {
    for record in store.flows()?.into_iter().rev() {
        if ended.contains(&record.id) {
            continue;
        }
        let state = FlowState::replay(&store.events(&record.id)?);
        match state.outcome() {
            Some(outcome) if outcome != ask_engine::Outcome::TimedOut => {
                ended.insert(record.id);
            }
            _ if state.is_opened() && store.holder(&record.id)?.is_none() => return Ok(Some(record.id)),
            _ => {}
        }
    }
    Ok(None)
}

/// The newest form an MCP call waits on (or will come back for) that no process shows: what
/// `attach` is for, so it comes before any form an agent abandoned (`newest_unfinished`).
fn newest_waited_on(store: &Store) -> anyhow::Result<Option<String>> {
    for owed in store.owed()? {
        let state = FlowState::replay(&store.events(&owed.id)?);
        if state.is_opened() && state.outcome().is_none() && store.holder(&owed.id)?.is_none() {
            return Ok(Some(owed.id));
        }
    }
    Ok(None)
}

/// The newest stored tool form: `Ok(None)` when there is none; an error naming the problem
/// when the newest one no longer validates.
fn newest_form(args: &ReplayArgs, store: &Store, source: FormSource) -> anyhow::Result<Option<Form>> {
    // A stored payload is kept as text: validated as text, a valid one takes the fast path
    // straight into the form. A pi session's arrives parsed.
    let validated = match &args.pi.pi_session {
        Some(file) => newest_pi_form(file, &args.pi, source)?.map(|raw| validate(&raw, source)),
        None => store
            .payloads(&args.flow.session)?
            .into_iter()
            .rev()
            .find(|p| p.source == source)
            .map(|p| validate_text(p.params.get(), source)),
    };
    let Some(validated) = validated else { return Ok(None) };
    match validated {
        Ok(form) => Ok(Some(form)),
        Err(issues) => {
            let first = issues.first().map(|i| format!("{}: {}", i.path, i.message)).unwrap_or_default();
            Err(anyhow::anyhow!("form incompatible: the latest stored form no longer validates ({first})"))
        }
    }
}

fn newest_pi_form(file: &Path, pi: &PiArgs, source: FormSource) -> anyhow::Result<Option<serde_json::Value>> {
    let entries = crate::input::pi_entries(file)?;
    let branch = pi_session::branch(&entries, pi.leaf.as_deref())?;
    skipped_notice(&branch);
    Ok(pi_session::stored_forms(&branch).into_iter().rev().find(|f| f.source == source).map(|f| f.params))
}

/// Says when forms on the branch were passed over because their entry version is unknown
/// (written by a newer extension), so "no form found" or an older form is not a mystery.
pub fn skipped_notice(branch: &[&pi_session::PiEntry]) {
    let n = pi_session::unknown_version_forms(branch);
    if n > 0 {
        let v = pi_session::PAYLOAD_ENTRY_VERSION;
        errln!(
            "ask-user: skipped {n} stored form(s) of an ask:payload version other than {v} (written by a newer extension?)"
        );
    }
}

pub fn run_replay(args: &ReplayArgs) -> anyhow::Result<Status> {
    let store = crate::paths::open_store(args.flow.store.as_deref())?;
    let form = match newest_form(args, &store, FormSource::Tool) {
        Ok(Some(form)) => form,
        Ok(None) => {
            errln!("ask-user: no ask_user form found to replay");
            return Ok(Status::NoForm);
        }
        Err(e) => {
            errln!("ask-user: {e}");
            return Ok(Status::Invalid);
        }
    };
    let n = form.questions.len();
    errln!("ask-user: replaying {n} question{}", if n == 1 { "" } else { "s" });
    let origin = Origin { source: FormSource::Tool, command: "replay".to_owned() };
    crate::runtime::open_form(&store, &args.flow, form, origin, None, Report::CommandText)
}

/// `ask-user settings`: a flow with no questions, the overlay alone.
pub fn run_settings(args: &SettingsArgs) -> anyhow::Result<Status> {
    if crate::terminal::no_ui(&args.flow) {
        anyhow::bail!("the settings overlay needs a terminal (or --script)");
    }
    let store = crate::paths::open_store(args.flow.store.as_deref())?;
    let origin = Origin { source: FormSource::Tool, command: "settings".to_owned() };
    let form = Form { title: None, questions: Vec::new() };
    crate::runtime::start_and_run(&store, new_flow_id(), form, origin, &args.flow, None, Report::Silent)
}

/// `ask-user attach`: answer a form that waits for this terminal (an MCP call's, say). Without
/// an id it takes the newest form nobody is showing, or waits for one to arrive.
pub fn run_attach(args: &AttachArgs) -> anyhow::Result<Status> {
    // A person at a terminal gets a line saying where the answers went; a script or the tmux
    // popup (whose output nobody reads) gets the result, as `resume` prints it.
    let report = if std::io::stdout().is_terminal() { Report::Handed } else { Report::ToolJson };
    if let Some(id) = &args.flow_id {
        let args = ResumeArgs {
            flow_id: Some(id.clone()),
            flow: args.flow.clone(),
            unused_pi: args.unused_pi.clone(),
        };
        return resume(&args, report);
    }
    let store = crate::paths::open_store(args.flow.store.as_deref())?;
    let mut ended = HashSet::new();
    let pick = || -> anyhow::Result<Option<String>> {
        match newest_waited_on(&store)? {
            Some(id) => Ok(Some(id)),
            None => newest_unfinished(&store, &mut ended),
        }
    };
    attach_next(pick, |id| reopen(&store, id, &args.flow, report), POLL)
}

/// How often `attach` looks for a form while none is waiting.
const POLL: std::time::Duration = std::time::Duration::from_millis(250);

/// Picks the next form to open with `pick` (none yet: ask again after `pause`) and opens it with
/// `open`. A form another process opened between the two — a tmux popup the MCP server opened
/// for the same form — is left to it, and the wait goes on for the next one.
fn attach_next(
    mut pick: impl FnMut() -> anyhow::Result<Option<String>>,
    open: impl Fn(&str) -> anyhow::Result<Reopened>,
    pause: std::time::Duration,
) -> anyhow::Result<Status> {
    let mut told = false;
    loop {
        if let Some(id) = pick()? {
            match open(&id)? {
                Reopened::Ran(status) => return Ok(status),
                Reopened::HeldBy(pid) => {
                    errln!(
                        "ask-user: flow {id} was opened by another process (pid {pid}); waiting for the next form"
                    );
                    told = true;
                }
            }
        }
        if !told {
            errln!("ask-user: no form is waiting; this terminal will open the next one (Ctrl+C to stop)");
            told = true;
        }
        std::thread::sleep(pause);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::collections::HashSet;

    use ask_engine::{Event, KeyPress};
    use ask_storage::{DurableFlow, FlowRecord, Store};

    /// The opening event of a one-question form with one option.
    fn opened() -> Event {
        let raw = serde_json::json!({"questions": [{"id": "q", "prompt": "Q?", "options": [{"value": "a", "label": "A"}]}]});
        Event::opened(ask_schema::validate(&raw, ask_schema::FormSource::Tool).unwrap())
    }

    /// A flow of that form after `keys`.
    fn flow(store: &Store, id: &str, keys: &[&str]) {
        store.create_flow(&FlowRecord::new(id, "ask", "default", 0), &opened()).unwrap();
        let mut flow = DurableFlow::resume(store, id).unwrap();
        for k in keys {
            let event = match *k {
                "time out" => Event::TimedOut { seconds: 1 },
                k => Event::key(KeyPress::parse(k).unwrap()),
            };
            flow.push(event).unwrap();
        }
    }

    /// `attach` takes a form an MCP call waits on before a newer one an agent abandoned.
    #[test]
    fn attach_prefers_the_form_an_mcp_call_waits_on() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        for (since, id) in [(1, "f1-waited-on"), (2, "f2-answered")] {
            store.create_owed_flow(&FlowRecord::new(id, "mcp", "default", 0), &opened(), since).unwrap();
        }
        DurableFlow::resume(&store, "f2-answered")
            .unwrap()
            .push(Event::key(KeyPress::parse("esc").unwrap()))
            .unwrap();
        flow(&store, "f3-abandoned", &["down"]);
        assert_eq!(super::newest_waited_on(&store).unwrap().as_deref(), Some("f1-waited-on"));
        assert_eq!(
            super::newest_unfinished(&store, &mut HashSet::new()).unwrap().as_deref(),
            Some("f3-abandoned")
        );
        store.settle("f1-waited-on").unwrap();
        assert_eq!(super::newest_waited_on(&store).unwrap(), None, "then any unfinished form");
    }

    /// What `attach` (and `resume` without an id) picks, and what it need not read again.
    #[test]
    fn the_newest_unfinished_flow_is_found_and_only_flows_that_ended_for_good_are_skipped_later() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        flow(&store, "f1-open", &["down"]);
        flow(&store, "f2-timed-out", &["time out"]);
        flow(&store, "f3-submitted", &["1", "enter"]);
        flow(&store, "f4-cancelled", &["esc"]);
        let mut ended = HashSet::new();
        assert_eq!(super::newest_unfinished(&store, &mut ended).unwrap().as_deref(), Some("f2-timed-out"));
        let expected: HashSet<String> = ["f3-submitted", "f4-cancelled"].map(String::from).into();
        assert_eq!(ended, expected, "a timed-out flow can be resumed: it is read again next time");
        // A flow remembered as ended is not read again, whatever its log says now.
        ended.insert("f2-timed-out".to_owned());
        assert_eq!(super::newest_unfinished(&store, &mut ended).unwrap().as_deref(), Some("f1-open"));
        // A flow that arrives later is found.
        ended.insert("f1-open".to_owned());
        assert_eq!(super::newest_unfinished(&store, &mut ended).unwrap(), None);
        flow(&store, "f5-new", &[]);
        assert_eq!(super::newest_unfinished(&store, &mut ended).unwrap().as_deref(), Some("f5-new"));
    }

    /// A form another process shows (a terminal answering it, a tmux popup) is not offered to
    /// `attach` or `resume`: the older one nobody shows is.
    #[test]
    fn a_flow_shown_by_a_live_process_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        flow(&store, "f1-open", &["down"]);
        flow(&store, "f2-shown", &[]);
        store.create_owed_flow(&FlowRecord::new("f3-owed-shown", "mcp", "default", 0), &opened(), 3).unwrap();
        for id in ["f2-shown", "f3-owed-shown"] {
            assert_eq!(store.claim(id).unwrap(), ask_storage::Claim::Acquired);
        }
        assert_eq!(super::newest_waited_on(&store).unwrap(), None);
        assert_eq!(
            super::newest_unfinished(&store, &mut HashSet::new()).unwrap().as_deref(),
            Some("f1-open")
        );
        store.release("f2-shown").unwrap();
        let freed = super::newest_unfinished(&store, &mut HashSet::new()).unwrap();
        assert_eq!(freed.as_deref(), Some("f2-shown"), "offered again once its process lets go");
    }

    /// `attach` without an id picked a form, and a tmux popup opened that form first: the popup
    /// keeps it, and this terminal waits on for the next form instead of ending in an error.
    #[test]
    fn attach_passes_over_a_form_another_process_opened_first_and_opens_the_next() {
        use std::cell::RefCell;

        use super::{Reopened, attach_next};
        use crate::exit::Status;

        let mut picks = vec![None, Some("next"), Some("claimed")];
        let opened = RefCell::new(Vec::new());
        let status = attach_next(
            || Ok(picks.pop().flatten().map(String::from)),
            |id| {
                opened.borrow_mut().push(id.to_owned());
                Ok(if id == "claimed" { Reopened::HeldBy(4242) } else { Reopened::Ran(Status::Cancelled) })
            },
            std::time::Duration::ZERO,
        )
        .unwrap();
        assert_eq!(status, Status::Cancelled, "the next form's own ending");
        assert_eq!(opened.into_inner(), ["claimed", "next"]);
    }
}
