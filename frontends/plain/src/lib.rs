//! The plain-line frontend of ask-user (issue 13.4): no cursor addressing, no alternate
//! screen, no colour. A question is printed as numbered lines, an answer is read as a line
//! (`2`, `1,3`, `t my own answer`, `n 2 note text`, `N question note`, `b`, `s`, `r`, `q`), and
//! every change is said as one appended line, which is what screen readers (Orca, NVDA) speak.
//!
//! It is the second real frontend on the engine and needed no change to it: a line becomes the
//! same `KeyPressed` events the terminal frontend sends ([`commands`]), the runtime commits
//! them to the same log, and what is said is read from the same state ([`announce`]). A result
//! is therefore identical to a terminal run of the same answers.

pub mod announce;
pub mod commands;

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use ask_engine::{Event, FlowState};

/// Where the events go: the runtime commits each one before it is applied.
pub trait Flow {
    /// The state folded so far.
    fn state(&self) -> &FlowState;
    /// Commits events together (a line's, or the timeout), then applies them: all of them or,
    /// on `Err` (the store refused them), none, so a refused line can be said again as it was.
    /// Events after one that completes the flow are neither committed nor applied.
    fn push(&mut self, events: &[Event]) -> Result<(), String>;
    /// Whether events can still be committed after a refused one (false when the state could
    /// not be put back to the log's: nothing more may be built on it).
    fn recording(&self) -> bool {
        true
    }
}

/// How the conversation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The flow completed.
    Completed,
    /// The input closed with the flow still open (it stays resumable).
    InputClosed,
}

/// Talks the flow through to its end: says where it is, reads a line, commits its events,
/// says what changed. With a `timeout`, the form closes with what was saved when it runs out
/// (a `TimedOut` event, as in the full-screen frontend); lines are read on a thread so the
/// wait for one can end.
pub fn run(
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
    flow: &mut impl Flow,
    timeout: Option<Duration>,
) -> io::Result<Ended> {
    writeln!(out, "{}", announce::HELP)?;
    for line in announce::screen(flow.state()) {
        writeln!(out, "{line}")?;
    }
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in input.lines() {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    // A timeout past what the clock can hold never runs out, as no timeout does.
    let deadline = timeout.and_then(|t| Some((Instant::now().checked_add(t)?, t.as_secs())));
    // Whether the store refused the last line's events (see [`refused`]).
    let mut unsaved = false;
    while flow.state().outcome().is_none() {
        write!(out, "> ")?;
        out.flush()?;
        let next = match deadline {
            Some((at, _)) => lines.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        let line = match next {
            Ok(Ok(line)) => line,
            // A line that is not UTF-8 (a terminal set to another encoding, a stray byte) is
            // dropped with a word; the reader has consumed it and goes on with the next.
            Ok(Err(e)) if e.kind() == io::ErrorKind::InvalidData => {
                writeln!(out, "That line is not UTF-8 text, so nothing was done; type it again.")?;
                continue;
            }
            Ok(Err(e)) => return Err(e),
            Err(RecvTimeoutError::Disconnected) => return Ok(Ended::InputClosed),
            Err(RecvTimeoutError::Timeout) => {
                let seconds = deadline.map_or(0, |(_, s)| s);
                flow.push(&[Event::TimedOut { seconds }]).map_err(io::Error::other)?;
                writeln!(out)?;
                for line in announce::screen(flow.state()) {
                    writeln!(out, "{line}")?;
                }
                return Ok(Ended::Completed);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let command = commands::parse(&line);
        let leaving = command == Ok(commands::Command::Cancel);
        let said = match command.and_then(|c| reply(&c, flow.state())) {
            Err(why) => vec![why],
            Ok(Reply::Read(lines)) => lines,
            Ok(Reply::Events(events)) => {
                let before = flow.state().clone();
                let was_unsaved = unsaved;
                let failed = flow.push(&events).err();
                let mut said = announce::changes(&before, flow.state());
                unsaved = failed.is_some();
                match failed {
                    Some(why) if !flow.recording() || (was_unsaved && leaving) => {
                        return Err(io::Error::other(why));
                    }
                    Some(why) => said.push(refused(&why)),
                    None if said.is_empty() => said.push("Nothing changed.".to_owned()),
                    None => {}
                }
                said
            }
        };
        for line in said {
            writeln!(out, "{line}")?;
        }
    }
    Ok(Ended::Completed)
}

/// What is said when the store refuses a line's events (a full disk): they are not applied,
/// and the conversation goes on, so the person can fix it and say the line again.
fn refused(why: &str) -> String {
    format!(
        "Not saved, so not applied: {why}. Fix it and type the line again; q now leaves (`ask-user resume` continues from the last saved step)."
    )
}

/// What a command gets: lines read out (help, a whole preview), or the events it makes.
enum Reply {
    Read(Vec<String>),
    Events(Vec<Event>),
}

fn reply(command: &commands::Command, state: &FlowState) -> Result<Reply, String> {
    match command {
        commands::Command::Help => {
            let mut help = vec![announce::HELP.to_owned()];
            help.extend(announce::screen(state));
            Ok(Reply::Read(help))
        }
        commands::Command::Preview(n) => announce::whole_preview(state, *n).map(Reply::Read),
        c => commands::events(c, state).map(Reply::Events),
    }
}
