//! The payload store: every valid form, per session, saved before its UI opens.

use ask_schema::FormSource;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{PAYLOADS, Store, StoreError};

/// One stored form, as pi stores `ask:payload` entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayloadEntry {
    /// The entry format version (1).
    pub version: u32,
    /// Milliseconds since the Unix epoch.
    pub timestamp: u64,
    /// The raw payload as the agent sent it (re-validated before any replay).
    pub params: Value,
    /// `tool` or `answer-extraction`.
    pub source: FormSource,
    /// The flow that was opened for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow_id: Option<String>,
}

/// The payload entry format this build reads and writes.
pub const PAYLOAD_VERSION: u32 = 1;

impl Store {
    /// Appends a payload to a session, durably.
    pub fn save_payload(&self, session: &str, entry: &PayloadEntry) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(entry).map_err(|e| StoreError::Encode(crate::wire::EncodeError(e)))?;
        self.append_row(PAYLOADS, session, &bytes).map(|_| ())
    }

    /// A session's payloads, oldest first; entries that cannot be decoded, or of a version this
    /// build does not know, are skipped (replay then falls back to an older form it can read).
    pub fn payloads(&self, session: &str) -> Result<Vec<PayloadEntry>, StoreError> {
        let rows = self.read_rows(PAYLOADS, session, 0)?;
        Ok(rows
            .iter()
            .filter_map(|(_, bytes)| serde_json::from_slice::<PayloadEntry>(bytes).ok())
            .filter(|p| p.version <= PAYLOAD_VERSION)
            .collect())
    }
}
