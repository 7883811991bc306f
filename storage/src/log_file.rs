//! Portable log files for bug reports: self-contained, versioned JSONL.
//!
//! Line 1 is a header `{"format":"ask-user-log","version":1,"flowId":…,"command":…}`; every
//! other line is one encoded event, the first being `FlowOpened` with the normalized form,
//! the settings snapshot and the terminal size. Nothing else is needed to replay it.

use ask_engine::{EVENT_VERSION, Event};
use serde::{Deserialize, Serialize};

use crate::log_format::{LOG_FORMAT, decode, encode};

/// The first line of a log file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogHeader {
    pub format: String,
    pub version: u32,
    pub flow_id: String,
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
    #[error("log format version {0} is newer than this ask-user understands")]
    Newer(u32),
    /// An event line is unreadable.
    #[error("line {line}: {detail}")]
    BadLine { line: usize, detail: String },
    /// There is no FlowOpened event.
    #[error("the log has no FlowOpened event")]
    NotOpened,
}

/// Writes a flow's events as a log file.
pub fn export(flow_id: &str, command: &str, events: &[Event]) -> String {
    let header = LogHeader {
        format: LOG_FORMAT.to_owned(),
        version: EVENT_VERSION,
        flow_id: flow_id.to_owned(),
        command: command.to_owned(),
    };
    let mut out = serde_json::to_string(&header).unwrap_or_default();
    out.push('\n');
    for e in events {
        out.push_str(&String::from_utf8_lossy(&encode(e)));
        out.push('\n');
    }
    out
}

/// Reads a log file back into its header and events.
pub fn import(text: &str) -> Result<(LogHeader, Vec<Event>), LogFileError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or(LogFileError::NoHeader)?;
    let header: LogHeader = serde_json::from_str(first).map_err(|_| LogFileError::NoHeader)?;
    if header.format != LOG_FORMAT {
        return Err(LogFileError::NoHeader);
    }
    if header.version > EVENT_VERSION {
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
