//! Reading pi session files (JSONL): the branch from a leaf to the root, stored `ask:payload`
//! forms on it, and its latest assistant message.
//!
//! Line 1 of a pi session is a `session` header; every other line is an entry with `id` and
//! `parentId`. A branch is the path from a leaf (default: the last entry) to the root; only
//! that path is scanned, never sibling branches. Malformed lines and unknown entry types are
//! skipped.

use std::collections::{HashMap, HashSet};

use ask_schema::FormSource;
use serde_json::Value;

/// One entry of a session file.
#[derive(Debug, Clone, PartialEq)]
pub struct PiEntry {
    pub id: String,
    pub parent_id: Option<String>,
    pub value: Value,
}

/// Why a branch cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PiError {
    /// The session has no entries at all.
    #[error("the pi session has no entries")]
    Empty,
    /// `--leaf` names no entry.
    #[error("the pi session has no entry with id {0}")]
    UnknownLeaf(String),
}

/// A form stored on the branch.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredForm {
    pub entry_id: String,
    pub source: FormSource,
    pub params: Value,
}

/// The newest assistant message on a branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssistantMessage {
    pub entry_id: String,
    pub text: String,
    pub stop_reason: Option<String>,
}

/// Parses a session file; bad lines are skipped.
pub fn entries(text: &str) -> Vec<PiEntry> {
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|v| v.get("type").and_then(Value::as_str) != Some("session"))
        .filter_map(|value| {
            let id = value.get("id")?.as_str()?.to_owned();
            let parent_id = value.get("parentId").and_then(Value::as_str).map(str::to_owned);
            Some(PiEntry { id, parent_id, value })
        })
        .collect()
}

/// The entries from the root to `leaf` (default: the last entry), in that order.
pub fn branch<'a>(entries: &'a [PiEntry], leaf: Option<&str>) -> Result<Vec<&'a PiEntry>, PiError> {
    let by_id: HashMap<&str, &PiEntry> = entries.iter().map(|e| (e.id.as_str(), e)).collect();
    let start = match leaf {
        Some(id) => *by_id.get(id).ok_or_else(|| PiError::UnknownLeaf(id.to_owned()))?,
        None => entries.last().ok_or(PiError::Empty)?,
    };
    let mut path = vec![start];
    let mut seen = HashSet::from([start.id.as_str()]);
    let mut at = start;
    while let Some(parent) = at.parent_id.as_deref().and_then(|p| by_id.get(p)) {
        if !seen.insert(parent.id.as_str()) {
            break; // a cycle: stop rather than loop forever
        }
        path.push(parent);
        at = parent;
    }
    path.reverse();
    Ok(path)
}

/// The `ask:payload` entry version this ask-user reads (the reference extension's).
pub const PAYLOAD_ENTRY_VERSION: u64 = 1;

/// `ask:payload` custom entries of version 1 on a branch, oldest first. Entries of another
/// version are left out: their shape is not known (the reference extension skips them too).
pub fn stored_forms(branch: &[&PiEntry]) -> Vec<StoredForm> {
    payload_entries(branch)
        .filter(|(_, data)| data.get("version").and_then(Value::as_u64) == Some(PAYLOAD_ENTRY_VERSION))
        .filter_map(|(entry, data)| {
            let source = match data.get("source").and_then(Value::as_str) {
                Some("answer-extraction") => FormSource::AnswerExtraction,
                Some("tool") => FormSource::Tool,
                _ => return None,
            };
            Some(StoredForm { entry_id: entry.id.clone(), source, params: data.get("params")?.clone() })
        })
        .collect()
}

/// How many `ask:payload` entries on the branch have a version this ask-user does not read.
pub fn unknown_version_forms(branch: &[&PiEntry]) -> usize {
    payload_entries(branch)
        .filter(|(_, data)| data.get("version").and_then(Value::as_u64) != Some(PAYLOAD_ENTRY_VERSION))
        .count()
}

fn payload_entries<'a>(branch: &'a [&'a PiEntry]) -> impl Iterator<Item = (&'a PiEntry, &'a Value)> + 'a {
    branch
        .iter()
        .copied()
        .filter(|e| e.value.get("type").and_then(Value::as_str) == Some("custom"))
        .filter(|e| e.value.get("customType").and_then(Value::as_str) == Some("ask:payload"))
        .filter_map(|e| Some((e, e.value.get("data")?)))
}

/// The newest assistant `message` entry on the branch that has text.
pub fn latest_assistant(branch: &[&PiEntry]) -> Option<AssistantMessage> {
    branch.iter().rev().find_map(|e| {
        if e.value.get("type").and_then(Value::as_str) != Some("message") {
            return None;
        }
        let message = e.value.get("message")?;
        if message.get("role").and_then(Value::as_str) != Some("assistant") {
            return None;
        }
        let text: Vec<&str> = message
            .get("content")?
            .as_array()?
            .iter()
            .filter(|c| c.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .collect();
        let text = text.join("\n");
        if text.trim().is_empty() {
            return None;
        }
        let stop_reason = message.get("stopReason").and_then(Value::as_str).map(str::to_owned);
        Some(AssistantMessage { entry_id: e.id.clone(), text, stop_reason })
    })
}
