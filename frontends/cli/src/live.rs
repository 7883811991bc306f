//! The live terminal frontend's loop: draw, read, commit, fold — until the flow completes —
//! with the form's timeout and a watch on the config file.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use ask_engine::{Event, FlowState};
use ask_storage::DurableFlow;
use ask_tui::terminal::{Input, LiveTerminal};

use crate::exit::Status;
use crate::runtime::{Report, config_display, finish, print_result};

/// The form's timeout (issue 13.1): when it runs out — and an open editor has been idle for
/// [`EDITOR_IDLE`], so nobody is cut off mid-word — the runtime commits `TimedOut`.
pub(crate) struct Clock {
    deadline: Option<(Instant, u64)>,
    last_key: Instant,
}

/// How long an open editor must be left alone before a timeout closes the form.
const EDITOR_IDLE: Duration = Duration::from_secs(5);
/// The countdown shows for the form's last this many seconds.
const COUNTDOWN: u64 = 30;

impl Clock {
    pub(crate) fn new(timeout: Option<Duration>) -> Clock {
        let now = Instant::now();
        // A timeout past what the clock can hold (`--timeout 18446744073709551615`) never runs
        // out, as no timeout does.
        let deadline = timeout.and_then(|t| Some((now.checked_add(t)?, t.as_secs())));
        Clock { deadline, last_key: now }
    }

    /// Whole seconds left, rounded up, while the countdown shows.
    fn countdown(&self) -> Option<u64> {
        let (deadline, _) = self.deadline?;
        let left = deadline.saturating_duration_since(Instant::now());
        let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
        (secs <= COUNTDOWN).then_some(secs)
    }

    /// The `TimedOut` event once the time is up and no one is typing.
    fn expired(&self, editing: bool) -> Option<Event> {
        let (deadline, seconds) = self.deadline?;
        let now = Instant::now();
        let idle = !editing || now.duration_since(self.last_key) >= EDITOR_IDLE;
        (now >= deadline && idle).then_some(Event::TimedOut { seconds })
    }

    /// How long the loop may wait for input before the clock needs looking at again.
    fn tick(&self, default: Duration) -> Duration {
        match self.countdown() {
            Some(_) => default.min(Duration::from_millis(200)),
            None => default,
        }
    }
}

/// The most keys committed in one transaction: a burst longer than this is drawn in steps.
const MAX_BURST: usize = 256;

/// The live terminal loop: draw, read, commit, fold — until the flow completes.
pub(crate) fn interactive(
    session: &mut DurableFlow,
    config: Option<&Path>,
    (mut clock, mut nudger): (Clock, crate::nudge::Nudger),
    report: Report,
) -> anyhow::Result<Status> {
    let shown = config_display(config);
    let Ok(mut term) = LiveTerminal::open(shown.as_deref()) else {
        print_result(&ask_engine::fallback_result(session.state().form()))?;
        return Ok(Status::NoTerminal);
    };
    if let Some(resized) = resized(&term, session.state()) {
        session.push(resized)?;
    }
    // Watch from before the first frame, so an edit made once the form shows is never missed.
    let mut watch = ConfigWatch::new(config);
    // Why the last keys could not be saved, while the form waits for the store to take them.
    let mut unsaved: Option<String> = None;
    let view = |state: &FlowState, clock: &Clock, unsaved: &Option<String>| {
        let mut view = state.view();
        view.countdown = clock.countdown();
        if unsaved.is_some() {
            view.warning.clone_from(unsaved);
        }
        Arc::new(view)
    };
    let first = term.draw(&view(session.state(), &clock, &unsaved))?;
    term.enable_kitty_keys();
    if nudger.opened() {
        nudger.send(|b| term.write_raw(b));
    }
    // The first frame is up; keys typed from now on wait in the terminal until the opening
    // commit is durable, and a failed one ends the run at once.
    session.opened()?;
    // What a frame asked to record (a summary or preview drawn clamped to its end, an editor
    // drawn at a new width) is committed and applied at once: the frame already shows the state
    // it leads to, and the next key must find it applied. It is rare, and usually nothing.
    session.push_all(&first)?;
    let mut shown_countdown = clock.countdown();
    let mut next_input = None;
    while session.state().outcome().is_none() {
        // Poll faster while `@` paths are being looked up, so they show as soon as they arrive.
        let tick =
            if session.offers_pending() { Duration::from_millis(10) } else { Duration::from_millis(250) };
        let input = match next_input.take() {
            Some(input) => input,
            None => term.next(nudger.wait(clock.tick(tick)))?,
        };
        let mut redraw = match input {
            Input::Event(event) => {
                clock.last_key = Instant::now();
                nudger.key();
                // Keys already waiting behind this one (a paste without bracketed paste, key
                // repeat, a fast typist over ssh) are committed together and drawn once.
                let mut burst = vec![event];
                let after = term.waiting(&mut burst, MAX_BURST);
                if burst.len() > 1 {
                    tracing::debug!(events = burst.len(), "events committed together");
                }
                // What was read is committed even if reading on failed. Keys the store cannot
                // take (a full disk, a lock held too long) are not applied, and the form stays:
                // the person can free space and type on. Leaving while it cannot save ends the
                // run as any write failure does, with every key saved before it kept; so does a
                // flow that can no longer be recorded (its state could not be put back).
                // A resize the store refused is not reported again: while writes are refused,
                // each try first records the size the terminal has now (on its own, so a
                // refusal needs nothing taken back out of the state).
                let caught_up = match resized(&term, session.state()) {
                    Some(resized) if unsaved.is_some() => session.push(resized).map(drop),
                    _ => Ok(()),
                };
                match caught_up.and_then(|()| session.push_all(&burst)) {
                    Ok(_) => {
                        unsaved = None;
                        ask_storage::faults::at("after-keys");
                    }
                    Err(e)
                        if session.is_recording()
                            && (unsaved.is_none() || !burst.iter().any(|e| session.state().leaves(e))) =>
                    {
                        tracing::warn!(error = %e, "keys not committed; the form waits");
                        unsaved = Some(not_saved(&e, session.state()));
                    }
                    Err(e) => return Err(e.into()),
                }
                next_input = after?;
                true
            }
            Input::Resumed => {
                // Back from a suspension: the terminal may have been resized meanwhile, and
                // the screen holds whatever the shell left there. (While the store refuses
                // writes, the next key's try records the size first, as after any resize.)
                if let Some(resized) = resized(&term, session.state())
                    && unsaved.is_none()
                {
                    session.push(resized)?;
                }
                true
            }
            Input::Focus(focused) => {
                if nudger.focus(focused) {
                    nudger.send(|b| term.write_raw(b));
                }
                false
            }
            Input::Signal => {
                drop(term);
                anyhow::bail!(
                    "stopped by a signal; every answer so far is saved: `ask-user resume` continues"
                );
            }
            Input::Gone => {
                drop(term);
                anyhow::bail!(
                    "the terminal went away; every answer so far is saved: `ask-user resume` continues"
                );
            }
            Input::Abandoned => {
                drop(term);
                anyhow::bail!(
                    "the program that started this form ended; every answer so far is saved: `ask-user resume` continues"
                );
            }
            Input::Nothing => false,
        };
        redraw |= session.take_offers(Duration::ZERO)?;
        // A config edit (e.g. keymaps) reaches the flow whenever the file changes on disk; our
        // own toggle saves reload to the settings already in force and add nothing.
        if watch.changed()
            && let Some((settings, notices)) = config.and_then(ask_storage::reload_config)
            && (settings != *session.state().settings() || notices != session.state().notices())
        {
            session.push(Event::SettingsChanged { settings: Box::new(settings), notices })?;
            redraw = true;
        }
        // A notify command that did not start is a config problem the form says with the others
        // (it is in the log, so a replay shows it too), once however often it fails.
        if let Some(why) = nudger.take_failure()
            && !session.state().notices().contains(&why)
        {
            let mut notices = session.state().notices().to_vec();
            notices.push(why);
            let settings = Box::new(*session.state().settings());
            session.push(Event::SettingsChanged { settings, notices })?;
            redraw = true;
        }
        if nudger.tick() {
            nudger.send(|b| term.write_raw(b));
        }
        if let Some(timed_out) = clock.expired(session.state().editor().is_some()) {
            tracing::info!("the form timed out");
            session.push(timed_out)?;
            break;
        }
        let countdown = clock.countdown();
        redraw |= countdown != shown_countdown;
        shown_countdown = countdown;
        if redraw {
            let drawn = term.draw(&view(session.state(), &clock, &unsaved))?;
            session.push_all(&drawn)?;
        }
    }
    drop(term);
    finish(session.state(), session.id(), report)
}

/// The resize to record when the terminal's size is not the one the flow holds (a resize the
/// terminal will not report again: before the first frame, after a suspension, after a
/// refused write).
fn resized(term: &LiveTerminal, state: &FlowState) -> Option<Event> {
    let size = term.size();
    (size != state.size()).then_some(Event::TerminalResized { size })
}

/// The footer's warning while keys cannot be saved, naming the keys that leave.
fn not_saved(error: &ask_storage::StoreError, state: &FlowState) -> String {
    let keys = &state.settings().keymaps;
    // A bug is nothing the person can fix; the next key may still be saved.
    let next = if matches!(error, ask_storage::StoreError::Bug { .. }) {
        "Type on to try again"
    } else {
        "Fix it and type on"
    };
    format!(
        "Not saved, so not applied: {}. {next}; {} or {} now leaves (`ask-user resume` continues from the last saved key).",
        ask_storage::error_line(error),
        keys.cancel.label(),
        keys.dismiss.label()
    )
}

/// Notices when the config file changes on disk while a flow is open.
struct ConfigWatch<'a> {
    path: Option<&'a Path>,
    seen: Option<(SystemTime, u64)>,
}

impl<'a> ConfigWatch<'a> {
    fn new(path: Option<&'a Path>) -> ConfigWatch<'a> {
        ConfigWatch { path, seen: path.and_then(stamp) }
    }

    fn changed(&mut self) -> bool {
        let now = self.path.and_then(stamp);
        let changed = now.is_some() && now != self.seen;
        self.seen = now;
        changed
    }
}

/// Modification time and length: together they catch an edit within the same clock tick.
fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}
