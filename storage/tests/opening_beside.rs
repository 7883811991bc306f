//! A flow whose opening commit runs beside its first frame (`DurableFlow::start_beside`): the
//! form is there to draw before the commit lands, no input is committed or applied before it
//! does, and a failed opening records nothing and touches no other flow.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::Event;
use ask_schema::{FormSource, validate};
use ask_storage::{DurableFlow, FlowRecord, MakePayload, PayloadEntry, Store, StoreError};
use common::events::key;
use serde_json::json;

fn opened() -> Event {
    let raw = json!({"questions": [{"id": "db", "prompt": "Which database?",
        "options": [{"value": "pg", "label": "Postgres"}, {"value": "lite", "label": "SQLite"}]}]});
    opening(validate(&raw, FormSource::Tool).unwrap())
}

fn opening(form: ask_schema::Form) -> Event {
    Event::opened(form)
}

fn entry() -> PayloadEntry {
    PayloadEntry::from_text(r#"{"questions":[]}"#.to_owned(), 1, FormSource::Tool, Some("f".into())).unwrap()
}

/// The entry made on the commit thread, as the CLI makes it from the payload's text.
fn make(entry: &PayloadEntry) -> MakePayload<'_> {
    Box::new(move || Ok(entry.clone()))
}

#[test]
fn the_form_is_ready_to_draw_while_the_store_is_held_and_keys_wait_for_the_opening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let store = Store::open(&path).unwrap();
    // Another process holding the store's write lock, as a busy sub-agent would.
    let raw =
        redb::Builder::new().set_concurrency_mode(redb::ConcurrencyMode::MultiWriter).open(&path).unwrap();
    let blocker = raw.begin_write().unwrap();
    let entry = entry();
    std::thread::scope(|scope| {
        let mut flow = DurableFlow::start_beside(
            scope,
            &store,
            FlowRecord::new("f", "ask", "s", 0),
            opened(),
            Some(("s", make(&entry))),
        );
        // Returned while the commit cannot even begin: the first frame can be drawn now…
        assert_eq!(flow.state().form().questions[0].prompt, "Which database?");
        // …and nothing is recorded yet.
        assert!(store.flow("f").unwrap().is_none());
        assert!(store.payloads("s").unwrap().is_empty());
        drop(blocker);
        // A key waits for the opening commit, then is committed after it and applied.
        flow.push(key("down")).unwrap();
        assert_eq!(flow.state().cursor(), 1, "the Down was applied");
        assert_eq!(store.events("f").unwrap(), vec![opened(), key("down")]);
        assert_eq!(store.payloads("s").unwrap(), vec![entry.clone()]);
        assert!(store.holder("f").unwrap().is_some(), "the flow is leased to this process");
    });
}

#[test]
fn a_failed_opening_records_nothing_and_leaves_the_other_flow_alone() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    // Another flow already has this id (another process took it first).
    let mut first = DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened()).unwrap();
    first.push(key("down")).unwrap();
    std::thread::scope(|scope| {
        let mut second =
            DurableFlow::start_beside(scope, &store, FlowRecord::new("f", "ask", "s", 1), opened(), None);
        assert!(second.is_recording(), "not known to have failed before it is waited for");
        assert!(matches!(second.opened(), Err(StoreError::FlowExists(_))));
        assert!(!second.is_recording(), "a frontend stops building on it (the plain one ends)");
        // Every later write of it fails too, and none reaches the other flow's log.
        let again = second.push(key("up")).unwrap_err();
        assert!(matches!(again, StoreError::NotRecorded(_)), "{again:?}");
        assert!(again.to_string().contains("never recorded"), "{again}");
        assert!(second.push_all(&[key("up"), key("up")]).is_err());
        drop(second);
    });
    assert_eq!(store.events("f").unwrap(), vec![opened(), key("down")]);
    assert!(store.holder("f").unwrap().is_some(), "the first flow keeps its lease");
    first.push(key("enter")).unwrap();
    assert!(first.is_recording());
}

#[test]
fn a_flow_dropped_before_its_opening_lands_still_records_it_and_lets_the_lease_go() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    std::thread::scope(|scope| {
        drop(DurableFlow::start_beside(scope, &store, FlowRecord::new("f", "ask", "s", 0), opened(), None));
    });
    assert_eq!(store.events("f").unwrap(), vec![opened()]);
    assert!(store.holder("f").unwrap().is_none(), "released after the opening, not before it");
}

#[test]
fn a_payload_text_that_is_not_json_fails_the_opening_and_records_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let refused =
        PayloadEntry::from_text("{\"questions\": [".to_owned(), 1, FormSource::Tool, None).unwrap_err();
    assert!(!refused.to_string().contains('\n'), "one line: {refused}");
    std::thread::scope(|scope| {
        let text = "not json".to_owned();
        let make: MakePayload = Box::new(move || PayloadEntry::from_text(text, 1, FormSource::Tool, None));
        let mut flow = DurableFlow::start_beside(
            scope,
            &store,
            FlowRecord::new("f", "ask", "s", 0),
            opened(),
            Some(("s", make)),
        );
        assert!(matches!(flow.opened(), Err(StoreError::Encode(_))));
        assert!(flow.push(key("down")).is_err());
    });
    assert!(store.flow("f").unwrap().is_none());
    assert!(store.events("f").unwrap().is_empty());
    assert!(store.payloads("s").unwrap().is_empty());
}

/// An opening of `options` options (a large form's rows are made on two threads).
fn opened_with(options: usize) -> Event {
    let text = ask_schema::sample::options_payload(options, ask_schema::sample::SampleText::Repeated);
    opening(ask_schema::validate_text(&text, FormSource::Tool).unwrap())
}

/// The payload row is made beside the opening event when the form is large (serially when it
/// is small): either way both land in the one commit, and a payload that fails or panics while
/// it is made ends the opening in one line and records nothing.
#[rstest::rstest]
fn the_payload_row_lands_with_the_opening_or_nothing_does(
    #[values(2, 3_000)] options: usize,
    #[values("ok", "not json", "panic")] making: &str,
) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let event = opened_with(options);
    std::thread::scope(|scope| {
        let make: MakePayload = match making {
            "ok" => {
                Box::new(|| PayloadEntry::from_text(r#"{"questions":[]}"#.into(), 1, FormSource::Tool, None))
            }
            "not json" => Box::new(|| PayloadEntry::from_text("not json".into(), 1, FormSource::Tool, None)),
            _ => Box::new(|| panic!("payload entry went wrong")),
        };
        let mut flow = DurableFlow::start_beside(
            scope,
            &store,
            FlowRecord::new("f", "ask", "s", 0),
            event.clone(),
            Some(("s", make)),
        );
        match (making, flow.opened()) {
            ("ok", outcome) => outcome.unwrap(),
            ("not json", Err(StoreError::Encode(_))) => {}
            // A panic there is a bug, not damage: the person must not be told to move the store.
            ("panic", Err(err @ StoreError::Bug { .. })) => {
                let line = err.to_string();
                assert!(line.contains("payload entry went wrong") && !line.contains('\n'), "{line}");
                assert!(line.contains("the store is not damaged"), "{line}");
            }
            (_, outcome) => panic!("{making}: {outcome:?}"),
        }
    });
    if making == "ok" {
        assert_eq!(store.events("f").unwrap(), vec![event]);
        assert_eq!(store.payloads("s").unwrap().len(), 1);
    } else {
        assert!(store.flow("f").unwrap().is_none());
        assert!(store.events("f").unwrap().is_empty());
        assert!(store.payloads("s").unwrap().is_empty());
    }
}

/// A flow started while its store is still being opened (`DurableFlow::start_beside_opening`):
/// its form is there to draw at once; a key waits for the store and the opening commit; and a
/// store that fails to open — or whose opening thread panics — fails the opening in one line,
/// every later write too, without a panic of its own.
#[rstest::rstest]
fn a_flow_can_start_before_its_store_is_open(#[values("opens", "fails", "panics")] store_does: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = match store_does {
        // A store under a regular file cannot be created.
        "fails" => {
            std::fs::write(dir.path().join("file"), "x").unwrap();
            dir.path().join("file").join("s.redb")
        }
        _ => dir.path().join("s.redb"),
    };
    let slot = std::sync::OnceLock::new();
    let (gate, opened_gate) = std::sync::mpsc::channel::<()>();
    let entry = entry();
    std::thread::scope(|scope| {
        let path = &path;
        let thread = scope.spawn(move || {
            // The store opens only once the test says so: the flow must not wait for it.
            opened_gate.recv().unwrap();
            if store_does == "panics" {
                panic!("opening went wrong");
            }
            Store::open(path)
        });
        let store = ask_storage::StoreOpening { slot: &slot, thread };
        let mut flow = DurableFlow::start_beside_opening(
            scope,
            store,
            FlowRecord::new("f", "ask", "s", 0),
            opened(),
            Some(("s", make(&entry))),
        );
        assert_eq!(
            flow.state().form().questions[0].prompt,
            "Which database?",
            "drawable before the store opens"
        );
        gate.send(()).unwrap();
        match store_does {
            "opens" => {
                flow.push(key("down")).unwrap();
                assert_eq!(flow.state().cursor(), 1);
            }
            _ => {
                let failed = flow.opened().unwrap_err();
                let line = failed.to_string();
                assert!(!line.contains('\n'), "one line: {line}");
                if store_does == "panics" {
                    // Store::open contains redb's own panics: one that reaches here is a bug.
                    assert!(matches!(failed, StoreError::Bug { .. }), "{failed:?}");
                    assert!(line.contains("opening went wrong"), "{line}");
                }
                assert!(matches!(flow.push(key("down")), Err(StoreError::NotRecorded(_))));
            }
        }
        drop(flow);
    });
    if store_does == "opens" {
        let store = slot.get().expect("kept where the caller can reach it");
        assert_eq!(store.events("f").unwrap(), vec![opened(), key("down")]);
        assert_eq!(store.payloads("s").unwrap(), vec![entry]);
        assert!(store.holder("f").unwrap().is_none(), "the lease is let go when the flow is dropped");
    } else {
        assert!(slot.get().is_none());
    }
}
