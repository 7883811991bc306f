//! Exit statuses (SPEC §7) and what a command hands back to `main`.

use std::process::ExitCode;

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// 0: submitted or elaborated (or a command that simply succeeded).
    Done,
    /// 1: cancelled by the user.
    Cancelled,
    /// 2: invalid input.
    Invalid,
    /// 3: no interactive terminal: the "Needs user input" result.
    NoTerminal,
    /// 4: the script ended with the flow still open.
    ScriptEnded,
    /// 5: a command found nothing to open (e.g. no stored form to replay).
    NoForm,
    /// 6: the flow is still open in another process (`ask --no-wait`, `wait --timeout`).
    StillOpen,
    /// 7: the flow id was recorded for a different form.
    IdConflict,
}

/// Any other failure, explained on stderr in one line.
pub const ERROR: u8 = 5;
/// A command line clap could not parse.
pub const USAGE: u8 = 64;

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(match s {
            Status::Done => 0,
            Status::Cancelled => 1,
            Status::Invalid => 2,
            Status::NoTerminal => 3,
            Status::ScriptEnded => 4,
            Status::NoForm => ERROR,
            Status::StillOpen => 6,
            Status::IdConflict => 7,
        })
    }
}
