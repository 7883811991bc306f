//! The versioned encoding of events, shared by the redb log and portable JSONL log files.
//!
//! Each event is a JSON object: the engine's serde form (`{"type":"KeyPressed",…}`) plus a
//! `"v"` field naming the encoding version. A reader accepts every version up to its own.

use ask_engine::{EVENT_VERSION, Event};
use serde_json::Value;

/// The header line of an exported log file.
pub const LOG_FORMAT: &str = "ask-user-log";

/// Why a stored event could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Not JSON, or not an event of a known shape.
    #[error("malformed event: {0}")]
    Malformed(String),
    /// Written by a newer ask-user.
    #[error("event version {0} is newer than this ask-user understands ({EVENT_VERSION}); upgrade ask-user")]
    Newer(u64),
}

/// Encodes one event with its version.
pub fn encode(event: &Event) -> Vec<u8> {
    let mut value = serde_json::to_value(event).unwrap_or(Value::Null);
    if let Value::Object(obj) = &mut value {
        obj.insert("v".to_owned(), Value::from(EVENT_VERSION));
    }
    serde_json::to_vec(&value).unwrap_or_default()
}

/// Decodes one event of any version up to [`EVENT_VERSION`].
pub fn decode(bytes: &[u8]) -> Result<Event, DecodeError> {
    let mut value: Value =
        serde_json::from_slice(bytes).map_err(|e| DecodeError::Malformed(e.to_string()))?;
    let version = match &mut value {
        Value::Object(obj) => obj.remove("v").and_then(|v| v.as_u64()).unwrap_or(1),
        _ => return Err(DecodeError::Malformed("not an object".into())),
    };
    if version > u64::from(EVENT_VERSION) {
        return Err(DecodeError::Newer(version));
    }
    // Version 1 is the current shape; later versions add upgrade steps here, oldest first.
    serde_json::from_value(value).map_err(|e| DecodeError::Malformed(e.to_string()))
}
