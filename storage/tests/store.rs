//! The redb store: round-trips, ordering, locking, corrupt files.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::{Duration, Instant};

use ask_engine::{Event, Size};
use ask_schema::FormSource;
use ask_storage::{FlowRecord, PayloadEntry, Store, StoreError};
use common::events::key;
use serde_json::json;

fn record(id: &str, created_ms: u64) -> FlowRecord {
    FlowRecord::new(id, "ask", "default", created_ms)
}

const LEASES: redb::TableDefinition<&str, &[u8]> = redb::TableDefinition::new("leases");

/// A plain redb handle on the store file, in the store's multi-writer mode.
fn raw_handle(path: &std::path::Path) -> redb::Database {
    redb::Builder::new().set_concurrency_mode(redb::ConcurrencyMode::MultiWriter).open(path).unwrap()
}

/// Writes `rows` into `table` of the store file as another build or process would have.
fn put_rows(store: &std::path::Path, table: redb::TableDefinition<&str, &[u8]>, rows: &[(&str, &[u8])]) {
    let raw = raw_handle(store);
    let tx = raw.begin_write().unwrap();
    let mut t = tx.open_table(table).unwrap();
    for (key, value) in rows {
        t.insert(*key, *value).unwrap();
    }
    drop(t);
    tx.commit().unwrap();
}

/// Writes flow `f`'s lease as process `pid` (started at `started`, if given) would have.
fn put_lease(store: &std::path::Path, pid: u32, started: Option<u64>) {
    let started = started.map(|s| format!(r#","started":{s}"#)).unwrap_or_default();
    let lease = format!(r#"{{"version":1,"pid":{pid}{started},"sinceMs":0}}"#);
    put_rows(store, LEASES, &[("f", lease.as_bytes())]);
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

/// A flow record written before records had versions reads as version 1; one from a newer
/// ask-user is refused by name (read as this one, its fields might mean something else).
#[test]
fn a_flow_record_from_a_newer_ask_user_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    drop(Store::open(&path).unwrap());
    put_rows(
        &path,
        redb::TableDefinition::new("flows"),
        &[
            ("old", br#"{"id":"old","command":"ask","session":"s","createdMs":5}"#),
            ("new", br#"{"version":2,"id":"new","command":"ask","session":"s","createdMs":6}"#),
        ],
    );
    let store = Store::open(&path).unwrap();
    assert_eq!(store.flow("old").unwrap(), Some(FlowRecord::new("old", "ask", "s", 5)));
    let err = store.flow("new").unwrap_err().to_string();
    assert!(
        err.contains("flow new") && err.contains("record version 2 is newer") && err.contains("upgrade"),
        "{err}"
    );
    assert!(!err.contains('\n'), "{err}");
    assert!(store.flows().is_err(), "listing does not pass over it in silence");
}

/// Opening a new form on screen is one commit (issue 15.2): the payload entry, the flow with its
/// opening event and this process's lease appear together; a taken id writes none of them.
#[test]
fn opening_a_flow_saves_payload_flow_and_lease_together_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let entry = |n: u64| PayloadEntry {
        version: 1,
        timestamp: n,
        params: ask_storage::raw_params(&json!({"n": n})),
        source: FormSource::Tool,
        flow_id: Some("f".into()),
    };
    store.open_flow(&record("f", 1), &opening(), Some(("s", &entry(1)))).unwrap();
    assert_eq!(store.events("f").unwrap(), vec![opening()]);
    assert_eq!(store.payloads("s").unwrap(), vec![entry(1)]);
    assert_eq!(store.holder("f").unwrap().map(|l| l.pid), Some(std::process::id()), "leased to this process");
    let taken = store.open_flow(&record("f", 2), &key("up"), Some(("s", &entry(2))));
    assert!(matches!(taken, Err(StoreError::FlowExists(_))), "{taken:?}");
    assert_eq!(store.payloads("s").unwrap(), vec![entry(1)], "the refused open saved no payload");
    assert_eq!(store.events("f").unwrap(), vec![opening()]);
    store.open_flow(&record("g", 3), &opening(), None).unwrap();
    assert_eq!(store.payloads("s").unwrap().len(), 1, "no payload given, none saved");
}

#[test]
fn payloads_are_kept_per_session_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let entry = |n: u64, source| PayloadEntry {
        version: 1,
        timestamp: n,
        params: ask_storage::raw_params(&json!({"n": n})),
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

/// A payload entry read back is the one saved, field for field (the payload compared as the
/// JSON text the agent sent), and no other: the tests above that compare entries can fail.
#[rstest::rstest]
#[case::version(|e: &mut PayloadEntry| e.version = 0)]
#[case::timestamp(|e: &mut PayloadEntry| e.timestamp += 1)]
#[case::payload_text(|e: &mut PayloadEntry| e.params = ask_storage::raw_params(&json!({"n": 2})))]
#[case::source(|e: &mut PayloadEntry| e.source = FormSource::AnswerExtraction)]
#[case::flow(|e: &mut PayloadEntry| e.flow_id = None)]
fn a_payload_entry_read_back_equals_the_one_saved_and_no_other(#[case] change: fn(&mut PayloadEntry)) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let saved = PayloadEntry::from_text(r#"{"n": 1}"#.into(), 7, FormSource::Tool, Some("f".into())).unwrap();
    store.save_payload("s", &saved).unwrap();
    let read = store.payloads("s").unwrap().pop().unwrap();
    assert_eq!(read, saved);
    assert_eq!(read.params.get(), r#"{"n": 1}"#, "kept as the text that came");
    assert_eq!(read.params_value(), json!({"n": 1}), "and read as a JSON tree when asked");
    let mut other = saved.clone();
    change(&mut other);
    assert_ne!(read, other);
}

#[test]
fn spec8_two_handles_on_one_file_write_and_see_each_others_commits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let first = Store::open(&path).unwrap();
    let second = Store::open(&path).expect("a second handle opens at once (multi-writer mode)");
    first.create_flow(&record("a", 1), &opening()).unwrap();
    second.create_flow(&record("b", 2), &opening()).unwrap();
    first.append("b", &key("down")).unwrap();
    second.append("a", &key("up")).unwrap();
    assert_eq!(
        second.events("b").unwrap(),
        [opening(), key("down")],
        "reads follow the other handle's commits"
    );
    assert_eq!(first.events("a").unwrap(), [opening(), key("up")]);
}

#[test]
fn spec8_threads_appending_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    std::thread::scope(|scope| {
        for t in 0..4 {
            let path = path.clone();
            scope.spawn(move || {
                let store = Store::open(&path).unwrap();
                let id = format!("t{t}");
                store.create_flow(&record(&id, t), &opening()).unwrap();
                for _ in 0..25 {
                    store.append(&id, &key("down")).unwrap();
                }
            });
        }
    });
    let store = Store::open(&path).unwrap();
    for t in 0..4 {
        assert_eq!(store.events(&format!("t{t}")).unwrap().len(), 26);
    }
}

#[test]
fn a_write_that_cannot_get_its_turn_is_a_one_line_busy_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let holder = Store::open(&path).unwrap();
    holder.create_flow(&record("f", 1), &opening()).unwrap();
    let mut waiter = Store::open(&path).unwrap();
    waiter.set_write_wait(Duration::from_millis(200));
    // A raw redb handle holds a write transaction open, as a stuck process would.
    let raw = raw_handle(&path);
    let blocker = raw.begin_write().unwrap();
    let start = Instant::now();
    let err = waiter.append("f", &key("down")).unwrap_err();
    drop(blocker);
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(200), "waited its bounded time first");
    assert!(waited < Duration::from_secs(5), "and no longer than the wait it was given: {waited:?}");
    assert!(matches!(err, StoreError::Busy { .. }), "{err:?}");
    let line = err.to_string();
    assert!(
        line.contains(&path.display().to_string()) && line.contains("busy") && !line.contains('\n'),
        "{line}"
    );
    waiter.append("f", &key("down")).expect("works again once the lock is free");
}

#[test]
fn leases_name_the_live_holder_and_let_go() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    store.create_flow(&record("f", 1), &opening()).unwrap();
    assert_eq!(store.holder("f").unwrap(), None);
    assert_eq!(store.claim("f").unwrap(), ask_storage::Claim::Acquired);
    assert_eq!(store.holder("f").unwrap().map(|l| l.pid), Some(std::process::id()));
    assert_eq!(store.claim("f").unwrap(), ask_storage::Claim::Acquired, "this process may claim again");
    store.release("f").unwrap();
    assert_eq!(store.holder("f").unwrap(), None);
}

/// A flow another live process shows is not resumed here (two screens would answer one form);
/// once that process is gone, it is.
#[test]
fn a_flow_held_by_a_live_process_is_resumed_only_after_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    store.create_flow(&record("f", 1), &opening()).unwrap();
    let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
    let live = child.id();
    put_lease(&dir.path().join("s.redb"), live, None);
    let refused = ask_storage::DurableFlow::resume(&store, "f").err().expect("held elsewhere");
    assert!(matches!(&refused, StoreError::Held { flow, pid } if flow == "f" && *pid == live), "{refused:?}");
    child.kill().unwrap();
    child.wait().unwrap();
    let flow = ask_storage::DurableFlow::resume(&store, "f").unwrap();
    assert_eq!(flow.id(), "f");
    assert!(flow.is_recording());
    assert_eq!(store.holder("f").unwrap().map(|l| l.pid), Some(std::process::id()));
}

#[test]
fn a_lease_of_a_dead_process_is_stale_and_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    store.create_flow(&record("f", 1), &opening()).unwrap();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    put_lease(&dir.path().join("s.redb"), dead, None);
    assert_eq!(store.holder("f").unwrap(), None, "a dead holder is no holder");
    assert_eq!(store.claim("f").unwrap(), ask_storage::Claim::Acquired);
}

/// A lease is stale when its process has exited but is not yet reaped (a zombie), and when its
/// pid now belongs to another process (its start time differs); a lease records this process's
/// start time for that check.
#[cfg(target_os = "linux")]
#[test]
fn a_lease_of_an_exited_or_recycled_process_is_stale() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let store = Store::open(&path).unwrap();
    store.create_flow(&record("f", 1), &opening()).unwrap();
    assert_eq!(store.claim("f").unwrap(), ask_storage::Claim::Acquired);
    let mine = store.holder("f").unwrap().unwrap();
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let started: u64 =
        stat[stat.rfind(')').unwrap() + 1..].split_whitespace().nth(19).unwrap().parse().unwrap();
    assert_eq!(mine.started, Some(started), "the lease carries this process's start time");
    let mut zombie = std::process::Command::new("true").spawn().unwrap();
    let pid = zombie.id();
    let state = || std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !state().contains(") Z ") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(state().contains(") Z "), "exited, not reaped: {}", state());
    put_lease(&path, pid, None);
    assert_eq!(store.holder("f").unwrap(), None, "an exited process holds nothing");
    zombie.wait().unwrap();
    let mut other = std::process::Command::new("sleep").arg("30").spawn().unwrap();
    put_lease(&path, other.id(), Some(1));
    assert_eq!(store.holder("f").unwrap(), None, "a pid reused by another process holds nothing");
    put_lease(&path, other.id(), None);
    assert!(store.holder("f").unwrap().is_some(), "the same pid without a start time is taken as alive");
    other.kill().unwrap();
    other.wait().unwrap();
}
