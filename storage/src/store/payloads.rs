//! The payload store: every valid form, per session, saved before its UI opens.

use ask_schema::FormSource;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use super::{PAYLOADS, Store, StoreError};
use crate::wire::packed;

/// One stored form, as pi stores `ask:payload` entries.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayloadEntry {
    /// The entry format version (1).
    pub version: u32,
    /// Milliseconds since the Unix epoch.
    pub timestamp: u64,
    /// The raw payload as the agent sent it (re-validated before any replay), kept as its JSON
    /// text: a payload read from a file is stored as it came, with no JSON tree built for it
    /// (90 MB of text for a million options; issue 15.2).
    pub params: Box<RawValue>,
    /// `tool` or `answer-extraction`.
    pub source: FormSource,
    /// The flow that was opened for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow_id: Option<String>,
}

/// Equal when every field is, the payload compared as its JSON text.
impl PartialEq for PayloadEntry {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
            && self.timestamp == other.timestamp
            && self.params.get() == other.params.get()
            && self.source == other.source
            && self.flow_id == other.flow_id
    }
}

impl Eq for PayloadEntry {}

impl PayloadEntry {
    /// A new entry (version `PAYLOAD_VERSION`) for a payload that arrived as JSON text, stored
    /// as it came; text that is not JSON is refused.
    pub fn from_text(
        text: String,
        timestamp: u64,
        source: FormSource,
        flow_id: Option<String>,
    ) -> Result<PayloadEntry, StoreError> {
        let params =
            RawValue::from_string(text).map_err(|e| StoreError::Encode(crate::wire::EncodeError(e)))?;
        Ok(PayloadEntry { version: PAYLOAD_VERSION, timestamp, params, source, flow_id })
    }

    /// The payload as a JSON tree (for callers that look into it).
    pub fn params_value(&self) -> Value {
        serde_json::from_str(self.params.get()).unwrap_or(Value::Null)
    }
}

/// The payload JSON of a value (a payload that arrived already parsed, e.g. over MCP).
pub fn raw_params(value: &Value) -> Box<RawValue> {
    // A `Value` always serializes; `null` is the unreachable fallback.
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// The payload entry format this build reads and writes.
pub const PAYLOAD_VERSION: u32 = 1;

impl Store {
    /// Appends a payload to a session, durably.
    pub fn save_payload(&self, session: &str, entry: &PayloadEntry) -> Result<(), StoreError> {
        self.append_row(PAYLOADS, session, &payload_row(entry)?).map(|_| ())
    }

    /// A session's payloads, oldest first; entries that cannot be decoded, or of a version this
    /// build does not know, are skipped (replay then falls back to an older form it can read).
    pub fn payloads(&self, session: &str) -> Result<Vec<PayloadEntry>, StoreError> {
        let rows = self.read_rows(PAYLOADS, session, 0)?;
        Ok(rows
            .iter()
            .filter_map(|(_, bytes)| {
                serde_json::from_slice::<PayloadEntry>(&packed::unpack(bytes).ok()?).ok()
            })
            .filter(|p| p.version <= PAYLOAD_VERSION)
            .collect())
    }
}

/// A payload entry as its store row (packed when large).
pub(super) fn payload_row(entry: &PayloadEntry) -> Result<Vec<u8>, StoreError> {
    let bytes = serde_json::to_vec(entry).map_err(|e| StoreError::Encode(crate::wire::EncodeError(e)))?;
    Ok(packed::pack(bytes))
}
