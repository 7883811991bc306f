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

use ask_engine::{Event, FlowState};

/// Where the events go: the runtime commits each one before it is applied.
pub trait Flow {
    /// The state folded so far.
    fn state(&self) -> &FlowState;
    /// Commits and applies one event.
    fn push(&mut self, event: Event) -> Result<(), String>;
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
/// says what changed.
pub fn run(input: impl BufRead, out: &mut impl Write, flow: &mut impl Flow) -> io::Result<Ended> {
    writeln!(out, "{}", announce::HELP)?;
    for line in announce::screen(flow.state()) {
        writeln!(out, "{line}")?;
    }
    let mut lines = input.lines();
    while flow.state().outcome().is_none() {
        write!(out, "> ")?;
        out.flush()?;
        let Some(line) = lines.next().transpose()? else { return Ok(Ended::InputClosed) };
        if line.trim().is_empty() {
            continue;
        }
        let said = match commands::parse(&line).and_then(|c| {
            if c == commands::Command::Help {
                return Ok(None);
            }
            commands::events(&c, flow.state()).map(Some)
        }) {
            Err(why) => vec![why],
            Ok(None) => {
                let mut help = vec![announce::HELP.to_owned()];
                help.extend(announce::screen(flow.state()));
                help
            }
            Ok(Some(events)) => {
                let before = flow.state().clone();
                for event in events {
                    flow.push(event).map_err(io::Error::other)?;
                    if flow.state().outcome().is_some() {
                        break;
                    }
                }
                let said = announce::changes(&before, flow.state());
                if said.is_empty() { vec!["Nothing changed.".to_owned()] } else { said }
            }
        };
        for line in said {
            writeln!(out, "{line}")?;
        }
    }
    Ok(Ended::Completed)
}
