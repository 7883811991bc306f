//! Flow records and their event logs.

use ask_engine::Event;
use redb::{Durability, ReadableDatabase, ReadableTable};
use serde::{Deserialize, Serialize};

use super::{EVENTS, FLOWS, Store, StoreError};
use crate::log_format::{decode, encode};

/// What the store knows about a flow besides its events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlowRecord {
    /// The flow id (given with `--id`, or generated).
    pub id: String,
    /// The command that opened it (`ask`, `replay`, `answer`, `settings`).
    pub command: String,
    /// The payload session it belongs to.
    pub session: String,
    /// Creation time, milliseconds since the Unix epoch (for listing; never folded).
    pub created_ms: u64,
}

impl Store {
    /// Records a new flow together with its opening event, in one durable transaction: a crash
    /// can never leave a flow without the event that opens it. Fails if the id is taken.
    pub fn create_flow(&self, record: &FlowRecord, opened: &Event) -> Result<(), StoreError> {
        let mut tx = self.db.begin_write().map_err(|e| self.io(e))?;
        tx.set_durability(Durability::Immediate).map_err(|e| self.io(e))?;
        {
            let mut flows = tx.open_table(FLOWS).map_err(|e| self.io(e))?;
            if flows.get(record.id.as_str()).map_err(|e| self.io(e))?.is_some() {
                return Err(StoreError::FlowExists(record.id.clone()));
            }
            let bytes = serde_json::to_vec(record).unwrap_or_default();
            flows.insert(record.id.as_str(), bytes.as_slice()).map_err(|e| self.io(e))?;
            let mut events = tx.open_table(EVENTS).map_err(|e| self.io(e))?;
            events.insert((record.id.as_str(), 0), encode(opened).as_slice()).map_err(|e| self.io(e))?;
        }
        tx.commit().map_err(|e| self.io(e))
    }

    /// The record of one flow.
    pub fn flow(&self, id: &str) -> Result<Option<FlowRecord>, StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.io(e))?;
        let flows = tx.open_table(FLOWS).map_err(|e| self.io(e))?;
        let Some(bytes) = flows.get(id).map_err(|e| self.io(e))? else { return Ok(None) };
        serde_json::from_slice(bytes.value()).map(Some).map_err(|e| self.decode_error(id, e.to_string()))
    }

    /// Every flow, oldest first.
    pub fn flows(&self) -> Result<Vec<FlowRecord>, StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.io(e))?;
        let flows = tx.open_table(FLOWS).map_err(|e| self.io(e))?;
        let mut out = Vec::new();
        for row in flows.iter().map_err(|e| self.io(e))? {
            let (id, bytes) = row.map_err(|e| self.io(e))?;
            let record: FlowRecord = serde_json::from_slice(bytes.value())
                .map_err(|e| self.decode_error(id.value(), e.to_string()))?;
            out.push(record);
        }
        out.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        Ok(out)
    }

    /// Appends one event to a flow's log and commits it durably; returns its sequence number.
    pub fn append(&self, flow: &str, event: &Event) -> Result<u64, StoreError> {
        self.append_row(EVENTS, flow, &encode(event))
    }

    /// A flow's events in order.
    pub fn events(&self, flow: &str) -> Result<Vec<Event>, StoreError> {
        self.read_rows(EVENTS, flow)?
            .into_iter()
            .map(|(seq, bytes)| {
                decode(&bytes).map_err(|e| self.decode_error(flow, format!("event {seq}: {e}")))
            })
            .collect()
    }

    pub(super) fn decode_error(&self, flow: &str, detail: String) -> StoreError {
        StoreError::Decode { path: self.path.display().to_string(), flow: flow.to_owned(), detail }
    }
}
