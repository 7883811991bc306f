//! The redb store: round-trips, ordering, locking, corrupt files.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::time::{Duration, Instant};

use ask_engine::{Event, KeyPress, Size};
use ask_schema::FormSource;
use ask_storage::{FlowRecord, PayloadEntry, Store, StoreError};
use serde_json::json;

fn record(id: &str, created_ms: u64) -> FlowRecord {
    FlowRecord { id: id.into(), command: "ask".into(), session: "default".into(), created_ms }
}

fn key(id: &str) -> Event {
    Event::key(KeyPress::parse(id).unwrap())
}

/// Any event will do as the opening one for storage tests.
fn opening() -> Event {
    Event::TerminalResized { size: Size { width: 80, height: 24 } }
}

#[test]
fn events_round_trip_in_order_per_flow() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    store.create_flow(&record("b", 2), &opening()).unwrap();
    store.create_flow(&record("a", 1), &opening()).unwrap();
    let a = vec![key("down"), Event::TextPasted { text: "x\ny".into() }, key("shift+n")];
    let b = [Event::TerminalResized { size: Size { width: 9, height: 3 } }];
    for (i, e) in a.iter().enumerate() {
        assert_eq!(store.append("a", e).unwrap(), i as u64 + 1, "after the opening event");
    }
    store.append("b", &b[0]).unwrap();
    assert_eq!(store.events("a").unwrap()[1..], a);
    assert_eq!(store.events("b").unwrap(), [opening(), b[0].clone()]);
    let ids: Vec<String> = store.flows().unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(ids, ["a", "b"], "oldest first");
}

#[test]
fn events_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/dir/s.redb");
    {
        let store = Store::open(&path).unwrap();
        store.create_flow(&record("f", 1), &opening()).unwrap();
        store.append("f", &key("esc")).unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.events("f").unwrap(), vec![opening(), key("esc")]);
    assert_eq!(store.flow("f").unwrap(), Some(record("f", 1)));
}

#[test]
fn a_flow_id_is_used_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    store.create_flow(&record("f", 1), &opening()).unwrap();
    assert!(matches!(store.create_flow(&record("f", 2), &key("up")), Err(StoreError::FlowExists(_))));
    assert_eq!(store.events("f").unwrap(), vec![opening()], "the refused flow wrote nothing");
}

#[test]
fn payloads_are_kept_per_session_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let entry = |n: u64, source| PayloadEntry {
        version: 1,
        timestamp: n,
        params: json!({"n": n}),
        source,
        flow_id: None,
    };
    store.save_payload("s1", &entry(1, FormSource::Tool)).unwrap();
    store.save_payload("s2", &entry(2, FormSource::Tool)).unwrap();
    store.save_payload("s1", &entry(3, FormSource::AnswerExtraction)).unwrap();
    let s1: Vec<u64> = store.payloads("s1").unwrap().iter().map(|p| p.timestamp).collect();
    assert_eq!(s1, [1, 3]);
    assert_eq!(store.payloads("nobody").unwrap(), vec![]);
}

#[test]
fn spec8_second_writer_waits_briefly_then_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let _held = Store::open(&path).unwrap();
    let start = Instant::now();
    let err = Store::open(&path).err().expect("locked");
    assert!(start.elapsed() >= Duration::from_millis(1500), "waited before failing");
    assert!(matches!(err, StoreError::Locked(_)));
    assert!(err.to_string().contains("in use by another ask-user process"));
}

#[test]
fn spec9_corrupt_store_is_a_clear_error_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let garbage = b"definitely not a redb file, but somebody's data".repeat(100);
    std::fs::write(&path, &garbage).unwrap();
    let err = Store::open(&path).err().expect("unreadable");
    let msg = err.to_string();
    assert!(msg.contains(&path.display().to_string()) && msg.contains("left untouched"), "{msg}");
    assert_eq!(std::fs::read(&path).unwrap(), garbage, "never silently emptied");
}

#[test]
fn spec9_unwritable_store_directory_is_a_clear_error() {
    let err = Store::open(std::path::Path::new("/proc/ask-user-test/s.redb")).err().expect("cannot create");
    assert!(err.to_string().contains("/proc/ask-user-test"), "{err}");
}
