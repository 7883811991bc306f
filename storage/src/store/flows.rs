//! Flow records and their event logs.

use ask_engine::Event;
use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::payloads::payload_row;
use super::{EVENTS, FLOWS, LEASES, Lease, PAYLOADS, PayloadEntry, Store, StoreError};
use crate::wire::{decode_row, encode_row, packed};

/// The version of the flow record format this build writes.
pub const FLOW_RECORD_VERSION: u32 = 1;

/// What the store knows about a flow besides its events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlowRecord {
    /// The record format version (absent in stores written before versions were recorded: 1).
    #[serde(default = "record_v1")]
    pub version: u32,
    /// The flow id (given with `--id`, or generated).
    pub id: String,
    /// The command that opened it (`ask`, `replay`, `answer`, `settings`).
    pub command: String,
    /// The payload session it belongs to.
    pub session: String,
    /// Creation time, milliseconds since the Unix epoch (for listing; never folded).
    pub created_ms: u64,
}

fn record_v1() -> u32 {
    1
}

impl FlowRecord {
    /// A record in the current format.
    pub fn new(
        id: impl Into<String>,
        command: impl Into<String>,
        session: impl Into<String>,
        created_ms: u64,
    ) -> FlowRecord {
        FlowRecord {
            version: FLOW_RECORD_VERSION,
            id: id.into(),
            command: command.into(),
            session: session.into(),
            created_ms,
        }
    }
}

impl Store {
    /// Records a new flow together with its opening event, in one durable transaction: a crash
    /// can never leave a flow without the event that opens it. Fails if the id is taken.
    pub fn create_flow(&self, record: &FlowRecord, opened: &Event) -> Result<(), StoreError> {
        self.insert_flow(record, &encode_row(opened).map_err(StoreError::Encode)?, None, None, None)
    }

    /// [`Store::create_flow`] for a form an MCP call waits on: the flow and its owed result
    /// (`owed.rs`: owed since `now_ms`, for the form `opened` carries) in the same transaction.
    pub fn create_owed_flow(
        &self,
        record: &FlowRecord,
        opened: &Event,
        now_ms: u64,
    ) -> Result<(), StoreError> {
        let owed = match opened {
            Event::FlowOpened { form, .. } => (now_ms, super::owed::form_hash(form)),
            _ => (now_ms, 0),
        };
        self.insert_flow(record, &encode_row(opened).map_err(StoreError::Encode)?, None, None, Some(owed))
    }

    /// What a process opening a new form on its screen writes, in one durable transaction (one
    /// commit before the first frame instead of three): the form's payload entry when it is
    /// new (`payload`: its session and entry), the flow with its opening event, and this
    /// process's lease on the flow. Fails if the id is taken, writing nothing.
    pub fn open_flow(
        &self,
        record: &FlowRecord,
        opened: &Event,
        payload: Option<(&str, &PayloadEntry)>,
    ) -> Result<(), StoreError> {
        let payload = payload
            .map(|(session, entry)| Ok::<_, StoreError>((session, payload_row(entry)?)))
            .transpose()?;
        let event = encode_row(opened).map_err(StoreError::Encode)?;
        self.insert_owned_flow(record, &event, payload)
    }

    /// Writes the rows of [`OpeningRows::make`] as [`Store::open_flow`] writes its own.
    pub(crate) fn insert_opening(
        &self,
        record: &FlowRecord,
        rows: OpeningRows<'_>,
    ) -> Result<(), StoreError> {
        self.insert_owned_flow(record, &rows.event, rows.payload)
    }

    /// Inserts a flow with its encoded opening event, its payload row and this process's lease.
    fn insert_owned_flow(
        &self,
        record: &FlowRecord,
        event: &[u8],
        payload: Option<(&str, Vec<u8>)>,
    ) -> Result<(), StoreError> {
        let lease = serde_json::to_vec(&Lease::for_this_process())
            .map_err(|e| StoreError::Encode(crate::wire::EncodeError(e)))?;
        self.insert_flow(record, event, payload.as_ref().map(|(s, b)| (*s, b.as_slice())), Some(&lease), None)
    }

    fn insert_flow(
        &self,
        record: &FlowRecord,
        event: &[u8],
        payload: Option<(&str, &[u8])>,
        lease: Option<&[u8]>,
        owed: Option<(u64, u64)>,
    ) -> Result<(), StoreError> {
        let row = serde_json::to_vec(record).map_err(|e| StoreError::Encode(crate::wire::EncodeError(e)))?;
        let id = record.id.as_str();
        self.write_or(|tx| {
            let mut flows = tx.open_table(FLOWS)?;
            if flows.get(id)?.is_some() {
                return Ok(Err(()));
            }
            flows.insert(id, row.as_slice())?;
            tx.open_table(EVENTS)?.insert((id, 0), event)?;
            Self::note_packed(tx, &[event])?;
            if let Some((session, bytes)) = payload {
                Self::append_in(tx, PAYLOADS, session, &[bytes])?;
            }
            // A new id: no live process can hold it, so the lease is simply ours.
            if let Some(lease) = lease {
                tx.open_table(LEASES)?.insert(id, lease)?;
            }
            if let Some(owed) = owed {
                tx.open_table(super::owed::OWED)?.insert(id, owed)?;
            }
            Ok(Ok(()))
        })?
        .map_err(|()| StoreError::FlowExists(record.id.clone()))
    }

    /// The record of one flow.
    pub fn flow(&self, id: &str) -> Result<Option<FlowRecord>, StoreError> {
        let bytes = self.read(|tx| Ok(tx.open_table(FLOWS)?.get(id)?.map(|b| b.value().to_vec())))?;
        bytes.map(|b| self.record(id, &b)).transpose()
    }

    /// Every flow, oldest first.
    pub fn flows(&self) -> Result<Vec<FlowRecord>, StoreError> {
        let rows = self.read(|tx| {
            let mut rows = Vec::new();
            for row in tx.open_table(FLOWS)?.iter()? {
                let (id, bytes) = row?;
                rows.push((id.value().to_owned(), bytes.value().to_vec()));
            }
            Ok(rows)
        })?;
        let mut out = rows.iter().map(|(id, b)| self.record(id, b)).collect::<Result<Vec<_>, _>>()?;
        out.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        Ok(out)
    }

    fn record(&self, id: &str, bytes: &[u8]) -> Result<FlowRecord, StoreError> {
        let record: FlowRecord = serde_json::from_slice(bytes).map_err(|e| StoreError::Record {
            path: self.shown(),
            what: format!("flow {id}"),
            detail: e.to_string(),
        })?;
        if record.version > FLOW_RECORD_VERSION {
            return Err(StoreError::Record {
                path: self.shown(),
                what: format!("flow {id}"),
                detail: format!(
                    "record version {} is newer than this ask-user understands; upgrade ask-user",
                    record.version
                ),
            });
        }
        Ok(record)
    }

    /// Appends one event to a flow's log and commits it durably; returns its sequence number.
    /// An event that cannot be encoded is refused before anything is written.
    pub fn append(&self, flow: &str, event: &Event) -> Result<u64, StoreError> {
        let bytes = encode_row(event).map_err(StoreError::Encode)?;
        self.append_row(EVENTS, flow, &bytes)
    }

    /// Appends several events to a flow's log in one durable transaction (one commit for a
    /// burst of keys that arrived together); returns the last one's sequence number. If any
    /// cannot be encoded, nothing is written.
    pub fn append_all(&self, flow: &str, events: &[Event]) -> Result<u64, StoreError> {
        let encoded =
            events.iter().map(encode_row).collect::<Result<Vec<_>, _>>().map_err(StoreError::Encode)?;
        let rows: Vec<&[u8]> = encoded.iter().map(Vec::as_slice).collect();
        self.append_rows(EVENTS, flow, &rows)
    }

    /// A flow's events in order.
    pub fn events(&self, flow: &str) -> Result<Vec<Event>, StoreError> {
        self.events_from(flow, 0)
    }

    /// A flow's events from sequence number `from` on (a follower reads only what is new).
    /// Decoded straight from the pages, without copying the rows first.
    pub fn events_from(&self, flow: &str, from: u64) -> Result<Vec<Event>, StoreError> {
        let decoded = self.read(|tx| {
            let t = tx.open_table(EVENTS)?;
            let mut out = Vec::new();
            for row in t.range((flow, from)..=(flow, u64::MAX))? {
                let (k, bytes) = row?;
                match decode_row(bytes.value()) {
                    Ok(event) => out.push(event),
                    Err(e) => return Ok(Err((k.value().1, e))),
                }
            }
            Ok(Ok(out))
        })?;
        decoded.map_err(|(seq, source)| StoreError::Decode {
            path: self.shown(),
            flow: flow.to_owned(),
            seq,
            source,
        })
    }
}

/// A new flow's opening event and payload entry as store rows, made before the store is
/// needed: a form opened while the store is still being opened (its integrity check reads the
/// whole file) has its rows made meanwhile.
pub(crate) struct OpeningRows<'a> {
    event: Vec<u8>,
    payload: Option<(&'a str, Vec<u8>)>,
}

impl<'a> OpeningRows<'a> {
    /// The rows of `opened` and of the payload entry `make` gives (for its session). The entry
    /// is made and encoded on a second thread while the opening event is encoded: for a form of
    /// 100 000 options each is ≈ 9 MB of JSON to check or write, and to compress.
    pub(crate) fn make<F>(
        opened: &Event,
        payload: Option<(&'a str, F)>,
    ) -> Result<OpeningRows<'a>, StoreError>
    where
        F: FnOnce() -> Result<PayloadEntry, StoreError> + Send,
    {
        // A thread costs about 0.05 ms, more than a small form's rows take to make: only rows
        // large enough to be packed are made side by side.
        if form_text_bytes(opened) < packed::PACK_FROM {
            let payload =
                payload.map(|(session, make)| Ok::<_, StoreError>((session, payload_row(&make()?)?)));
            let payload = payload.transpose()?;
            return Ok(OpeningRows { event: encode_row(opened).map_err(StoreError::Encode)?, payload });
        }
        let (event, payload) = std::thread::scope(|scope| {
            let payload = payload.map(|(session, make)| (session, scope.spawn(|| payload_row(&make()?))));
            let event = encode_row(opened).map_err(StoreError::Encode);
            let payload = payload.map(|(session, row)| {
                let row = row.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                row.map(|row| (session, row))
            });
            (event, payload.transpose())
        });
        Ok(OpeningRows { event: event?, payload: payload? })
    }
}

/// About how many bytes of text an opening event's form holds (its rows are at least that).
fn form_text_bytes(opened: &Event) -> usize {
    let Event::FlowOpened { form, .. } = opened else { return 0 };
    let option = |o: &ask_schema::OptionItem| {
        o.value.len()
            + o.label.len()
            + o.description.as_ref().map_or(0, |d| d.len())
            + o.preview.as_ref().map_or(0, |p| p.len())
    };
    form.questions.iter().map(|q| q.prompt.len() + q.options.iter().map(option).sum::<usize>()).sum()
}
