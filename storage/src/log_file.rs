//! Portable log files for bug reports: self-contained, versioned JSONL.
//!
//! Line 1 is a header `{"format":"ask-user-log","version":1,"flowId":…,"command":…}` whose
//! `version` is the file layout's own ([`LOG_FILE_VERSION`]); every other line is one event in
//! its versioned wire form ([`crate::wire`]), the first being `FlowOpened` with the normalized
//! form, the settings snapshot and the terminal size. Nothing else is needed to replay it.
//! The file holds every keystroke of the flow, drafts included.

use ask_engine::Event;
use serde::{Deserialize, Serialize};

use crate::wire::{EncodeError, LOG_FORMAT, decode, encode};

/// The layout version of log files this build writes (header + one event per line).
pub const LOG_FILE_VERSION: u32 = 1;

/// The first line of a log file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogHeader {
    /// Always `ask-user-log`.
    pub format: String,
    /// The file layout version.
    pub version: u32,
    /// The flow the events belong to.
    pub flow_id: String,
    /// The command that opened it.
    #[serde(default)]
    pub command: String,
}

/// Why a log file cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogFileError {
    /// The first line is not an ask-user log header.
    #[error("not an ask-user log file (line 1 must be its header)")]
    NoHeader,
    /// Written by a newer ask-user.
    #[error(
        "log file version {0} is newer than this ask-user understands (up to {LOG_FILE_VERSION}); upgrade ask-user"
    )]
    Newer(u32),
    /// An event line is unreadable.
    #[error("line {line}: {detail}")]
    BadLine {
        /// The 1-based line number.
        line: usize,
        /// Why.
        detail: String,
    },
    /// There is no FlowOpened event.
    #[error("the log has no FlowOpened event")]
    NotOpened,
}

/// Writes a flow's events as a log file.
pub fn export(flow_id: &str, command: &str, events: &[Event]) -> Result<String, EncodeError> {
    let header = LogHeader {
        format: LOG_FORMAT.to_owned(),
        version: LOG_FILE_VERSION,
        flow_id: flow_id.to_owned(),
        command: command.to_owned(),
    };
    let mut out = serde_json::to_string(&header).map_err(EncodeError)?;
    out.push('\n');
    for e in events {
        out.push_str(&String::from_utf8_lossy(&encode(e)?));
        out.push('\n');
    }
    Ok(out)
}

/// Reads a log file back into its header and events.
pub fn import(text: &str) -> Result<(LogHeader, Vec<Event>), LogFileError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or(LogFileError::NoHeader)?;
    let header: LogHeader = serde_json::from_str(first).map_err(|_| LogFileError::NoHeader)?;
    if header.format != LOG_FORMAT {
        return Err(LogFileError::NoHeader);
    }
    if header.version > LOG_FILE_VERSION {
        return Err(LogFileError::Newer(header.version));
    }
    let mut events = Vec::new();
    for (i, line) in lines {
        let event = decode(line.as_bytes())
            .map_err(|e| LogFileError::BadLine { line: i + 1, detail: e.to_string() })?;
        events.push(event);
    }
    if !matches!(events.first(), Some(Event::FlowOpened { .. })) {
        return Err(LogFileError::NotOpened);
    }
    Ok((header, events))
}
