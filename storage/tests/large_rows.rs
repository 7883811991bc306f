//! A form of thousands of options: its payload row and opening event are stored packed (LZ4),
//! read back exactly, take a fraction of the file a plain store would, and a large plain row an
//! older build wrote still reads.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use ask_engine::{Event, FlowState, KeyPress};
use ask_schema::{FormSource, validate_text};
use ask_storage::{DurableFlow, FlowRecord, PayloadEntry, Store};
use redb::{ReadableDatabase, ReadableTable, TableDefinition};

const EVENTS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("events");
const PAYLOADS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("payloads");
const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");

/// A log table (`events`, `payloads`): rows keyed by (flow or session, seq).
type LogTable = TableDefinition<'static, (&'static str, u64), &'static [u8]>;

/// The store file opened with redb alone, as another program (or an older build) sees it.
fn raw(path: &std::path::Path) -> redb::Database {
    redb::Builder::new().set_concurrency_mode(redb::ConcurrencyMode::MultiWriter).open(path).unwrap()
}

/// Writes rows as they are, past the store's own encoding.
fn put_raw(path: &std::path::Path, rows: &[(LogTable, (&str, u64), &[u8])]) {
    let db = raw(path);
    let tx = db.begin_write().unwrap();
    for (table, key, bytes) in rows {
        tx.open_table(*table).unwrap().insert(*key, *bytes).unwrap();
    }
    tx.commit().unwrap();
}

fn layout(path: &std::path::Path) -> String {
    let db = raw(path);
    let tx = db.begin_read().unwrap();
    let meta = tx.open_table(META).unwrap();
    String::from_utf8(meta.get("storeVersion").unwrap().unwrap().value().to_vec()).unwrap()
}

/// `n` options of varied text (it compresses about 3×, like real text).
fn payload(n: usize) -> String {
    ask_schema::sample::options_payload(n, ask_schema::sample::SampleText::Varied)
}

fn opened(text: &str) -> Event {
    Event::opened(validate_text(text, FormSource::Tool).unwrap())
}

fn raw_row(path: &std::path::Path, table: LogTable, key: (&str, u64)) -> Vec<u8> {
    let db = raw(path);
    let tx = db.begin_read().unwrap();
    tx.open_table(table).unwrap().get(key).unwrap().unwrap().value().to_vec()
}

#[test]
fn a_large_form_is_stored_packed_and_reads_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let text = payload(20_000);
    let entry = PayloadEntry::from_text(text.clone(), 1, FormSource::Tool, Some("f".into())).unwrap();
    {
        let store = Store::open(&path).unwrap();
        let record = FlowRecord::new("f", "ask", "s", 0);
        let mut flow =
            DurableFlow::start_saving(&store, &record, opened(&text), Some(("s", &entry))).unwrap();
        flow.push(Event::key(KeyPress::parse("down").unwrap())).unwrap();
    }
    let event_row = raw_row(&path, EVENTS, ("f", 0));
    let payload_row = raw_row(&path, PAYLOADS, ("s", 0));
    let plain_event = ask_storage::wire::encode(&opened(&text)).unwrap().len();
    let plain_payload = serde_json::to_vec(&entry).unwrap().len();
    for (what, row, plain) in
        [("opening event", &event_row, plain_event), ("payload", &payload_row, plain_payload)]
    {
        assert!(row.starts_with(b"\0lz4"), "the {what} row is packed");
        assert!(row.len() < plain / 2, "the {what} row is {} bytes of ≥ {plain}", row.len());
    }
    assert!(raw_row(&path, EVENTS, ("f", 1)).starts_with(b"{"), "a key's row stays plain JSON");
    let store = Store::open(&path).unwrap();
    let events = store.events("f").unwrap();
    assert_eq!(events[0], opened(&text));
    assert_eq!(FlowState::replay(&events).cursor(), 1);
    assert_eq!(store.payloads("s").unwrap(), vec![entry]);
    // What the file takes on disk: 2.2× the payload packed, 4.4× plain (each ≈ 1.9 MB row had a
    // 2 MiB region and the file grew around them).
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size < 3 * text.len() as u64, "store file {size} bytes for a {} byte payload", text.len());
}

#[test]
fn a_large_plain_row_an_older_build_wrote_still_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let text = payload(5_000);
    let plain_event = ask_storage::wire::encode(&opened(&text)).unwrap();
    let plain_payload =
        serde_json::to_vec(&PayloadEntry::from_text(text.clone(), 1, FormSource::Tool, None).unwrap())
            .unwrap();
    drop(Store::open(&path).unwrap());
    put_raw(&path, &[(EVENTS, ("old", 0), &plain_event), (PAYLOADS, ("s", 0), &plain_payload)]);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.events("old").unwrap(), vec![opened(&text)]);
    assert_eq!(store.payloads("s").unwrap()[0].params.get(), text);
}

#[test]
fn a_damaged_packed_row_is_a_named_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let text = payload(5_000);
    {
        let store = Store::open(&path).unwrap();
        drop(DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened(&text)).unwrap());
    }
    let mut row = raw_row(&path, EVENTS, ("f", 0));
    row.truncate(row.len() / 2);
    put_raw(&path, &[(EVENTS, ("f", 0), &row)]);
    let err = Store::open(&path).unwrap().events("f").unwrap_err().to_string();
    assert!(err.contains("flow f: event 0") && !err.contains('\n'), "{err}");
}

#[test]
fn the_first_packed_row_records_its_layout_so_older_builds_refuse_the_file_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let store = Store::open(&path).unwrap();
    let small = payload(10);
    drop(DurableFlow::start(&store, &FlowRecord::new("small", "ask", "s", 0), opened(&small)).unwrap());
    store.save_payload("s", &PayloadEntry::from_text(small, 1, FormSource::Tool, None).unwrap()).unwrap();
    drop(store);
    assert_eq!(
        layout(&path),
        ask_storage::STORE_VERSION.to_string(),
        "no large row, the layout older builds read"
    );
    let store = Store::open(&path).unwrap();
    let text = payload(5_000);
    store
        .save_payload("s", &PayloadEntry::from_text(text.clone(), 2, FormSource::Tool, None).unwrap())
        .unwrap();
    drop(store);
    assert_eq!(layout(&path), ask_storage::PACKED_STORE_VERSION.to_string());
    // This build reads it on, and opening it again keeps the layout (an older build would
    // otherwise take it for one it reads); a large opening event alone marks a fresh store too.
    assert_eq!(Store::open(&path).unwrap().payloads("s").unwrap().len(), 2);
    assert_eq!(layout(&path), ask_storage::PACKED_STORE_VERSION.to_string(), "kept on opening");
    let fresh = dir.path().join("t.redb");
    let store = Store::open(&fresh).unwrap();
    drop(DurableFlow::start(&store, &FlowRecord::new("big", "ask", "s", 0), opened(&text)).unwrap());
    drop(store);
    assert_eq!(layout(&fresh), ask_storage::PACKED_STORE_VERSION.to_string());
}
