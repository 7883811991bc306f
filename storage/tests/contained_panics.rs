//! A panic inside the storage layer (redb panics on some damaged pages) is caught and reported
//! as one line, and the process's panic hook is told so, so it can stay quiet: the binary's
//! hook prints a panic's own report only when `panic_is_contained` is false. This file is its
//! own test binary because it replaces the process-wide panic hook.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use ask_engine::{Event, Size};
use ask_storage::{FlowRecord, Store, StoreError, panic_is_contained};
use common::sync_hook::SyncHook;

/// A store holding flow `f`: once the flag is set, a synced write panics, as redb's own code
/// does when it meets a page it cannot make sense of.
fn store_that_explodes(name: &str) -> (Store, Arc<AtomicBool>) {
    let explode = Arc::new(AtomicBool::new(false));
    let armed = Arc::clone(&explode);
    let backend = SyncHook::new(move || assert!(!armed.load(Ordering::SeqCst), "page 7 is not a btree page"));
    let store = Store::with_backend(backend, name, redb::ConcurrencyMode::ExclusiveWriter).unwrap();
    store.create_flow(&FlowRecord::new("f", "ask", "s", 0), &opening()).unwrap();
    (store, explode)
}

fn opening() -> Event {
    Event::TerminalResized { size: Size { width: 80, height: 24 } }
}

#[test]
fn spec9_a_panic_inside_the_store_is_one_named_error_and_the_hook_is_told_it_is_contained() {
    let seen: Arc<Mutex<Vec<bool>>> = Arc::default();
    let hook_seen = Arc::clone(&seen);
    std::panic::set_hook(Box::new(move |_| hook_seen.lock().unwrap().push(panic_is_contained())));

    let (store, explode) = store_that_explodes("damaged.redb");
    assert!(!panic_is_contained(), "outside storage code");

    explode.store(true, Ordering::SeqCst);
    let err = store.append("f", &opening()).unwrap_err();
    assert!(matches!(err, StoreError::Damaged { .. }), "{err:?}");
    let line = err.to_string();
    assert!(
        line.contains("damaged.redb") && line.contains("page 7 is not a btree page") && !line.contains('\n'),
        "{line}"
    );
    assert!(!panic_is_contained(), "back outside storage code once the error is returned");

    // A panic outside storage code reaches the hook as one to report.
    let outside = std::panic::catch_unwind(|| panic!("not the store's"));
    assert!(outside.is_err());
    let _ = std::panic::take_hook();
    assert_eq!(*seen.lock().unwrap(), [true, false], "the store's panic contained, the other not");

    // A hook that passes where a panic was raised lets the store tell damage (redb's panic)
    // from a bug: this one is raised in this crate's source, so the file is not called damaged.
    // (A fresh store: redb refuses every write after a failed commit until it is reopened.)
    let (store, explode) = store_that_explodes("second.redb");
    let hook_seen = Arc::clone(&seen);
    std::panic::set_hook(Box::new(move |info| {
        hook_seen.lock().unwrap().push(ask_storage::panic_is_contained_at(info.location()));
    }));
    explode.store(true, Ordering::SeqCst);
    let err = store.append("f", &opening()).unwrap_err();
    let _ = std::panic::take_hook();
    assert_eq!(*seen.lock().unwrap(), [true, false, true], "contained again: {err:?}");
    let StoreError::Bug { detail } = &err else { panic!("{err:?}") };
    assert!(
        detail.starts_with("page 7 is not a btree page, at storage/tests/contained_panics.rs:"),
        "where it was raised: {detail}"
    );
    assert!(
        err.to_string().ends_with("a bug in ask-user; nothing was recorded, and the store is not damaged")
    );
}
