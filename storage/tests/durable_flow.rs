//! Properties of the durable flow: the state the runtime held after live pushes (effects
//! carried out: settings saved, save failures and `@` offers committed as events) equals a fold
//! of what the store returns; and exporting that log and replaying the file gives it again.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::{Event, FlowState, KeyPress, Origin, Settings, Size, SummaryEdge};
use ask_schema::{FormSource, validate};
use ask_storage::log_file::{export, import};
use ask_storage::{DurableFlow, FlowHost, FlowRecord, Store};
use common::sync_hook::SyncHook;
use proptest::prelude::*;
use serde_json::json;

const KEYS: &[&str] = &[
    "up",
    "down",
    "tab",
    "shift+tab",
    "enter",
    "esc",
    "space",
    "n",
    "shift+n",
    "1",
    "2",
    "3",
    "4",
    "x",
    "@",
    "backspace",
    "ctrl+c",
    "?",
    "alt+enter",
    "/",
    "ctrl+z",
    "ctrl+y",
];

fn payload(n: usize, multi: bool) -> serde_json::Value {
    let questions: Vec<_> = (0..n)
        .map(|i| json!({"id": format!("q{i}"), "prompt": "P?", "type": if multi && i % 2 == 1 {"multi"} else {"single"},
            "options": [{"value":"a","label":"A"},{"value":"b","label":"B"},{"value":"c","label":"C"}]}))
        .collect();
    json!({"questions": questions})
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        20 => prop::sample::select(KEYS).prop_map(|k| Event::key(KeyPress::parse(k).unwrap())),
        // Any character a terminal can type, also ones no key id a person writes names (an
        // ideographic space, a no-break space, a control character): they must read back too.
        2 => any::<char>().prop_map(|c| Event::key(KeyPress::plain(ask_engine::KeyCode::Char(c)))),
        1 => "[a-z @\\n]{0,6}".prop_map(|text| Event::TextPasted { text }),
        1 => (1..200u16, 1..60u16).prop_map(|(width, height)| Event::TerminalResized { size: Size { width, height } }),
        1 => any::<bool>().prop_map(|end| Event::SummaryClamped { edge: if end { SummaryEdge::End } else { SummaryEdge::Top } }),
        1 => (0..40usize).prop_map(|line| Event::PreviewClamped { line }),
        1 => (0..120u16, any::<bool>()).prop_map(|(width, spaces)| Event::EditorWrapped {
            width,
            breaks: if spaces { ask_engine::editor::Breaks::Spaces } else { ask_engine::editor::Breaks::Words },
        }),
        1 => any::<bool>().prop_map(|on| {
            let mut settings = Settings::default();
            settings.behaviour.auto_submit_when_answered_without_notes = on;
            Event::SettingsChanged { settings: Box::new(settings), notices: if on { vec!["a notice".into()] } else { vec![] } }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_live_state_equals_a_fold_of_the_stored_log(
        n in 1..4usize,
        multi in any::<bool>(),
        config_writable in any::<bool>(),
        events in prop::collection::vec(event(), 0..120),
    ) {
        let dir = tempfile::tempdir().unwrap();
        // A config path under a plain file cannot be written: toggles then fail and the failure
        // is committed as SettingsSaveFailed.
        std::fs::write(dir.path().join("file"), "").unwrap();
        let config = if config_writable { dir.path().join("config.json") } else { dir.path().join("file/config.json") };
        let store = Store::with_backend(redb::backends::InMemoryBackend::new(), "memory", redb::ConcurrencyMode::ExclusiveWriter).unwrap();
        let form = validate(&payload(n, multi), FormSource::Tool).unwrap();
        let opened = Event::FlowOpened { form: form.into(), settings: Box::new(Settings::default()), origin: Origin::tool(), size: Size::default(), notices: vec![] };
        let mut flow = DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened).unwrap()
            .with_host(FlowHost { config: Some(config) })
            .with_file_offers(Box::new(|q: &str| vec![format!("{q}.rs"), "README.md".to_owned()]));
        for event in events {
            flow.push(event).unwrap();
            flow.settle().unwrap();
            if flow.state().outcome().is_some() {
                break;
            }
        }
        let live = flow.state().clone();
        drop(flow);
        let logged = store.events("f").unwrap();
        prop_assert_eq!(&FlowState::replay(&logged), &live);
        let file = export("f", "ask", &logged).unwrap();
        let (_, imported) = import(&file).unwrap();
        prop_assert_eq!(&imported, &logged, "the wire form round-trips every event");
        prop_assert_eq!(export("f", "ask", &imported).unwrap(), file, "byte-identical on re-export");
    }
}

#[test]
fn an_overlay_toggle_is_saved_and_a_failed_save_is_committed_as_an_event() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.json"), "{ not json").unwrap();
    let store = Store::with_backend(
        redb::backends::InMemoryBackend::new(),
        "memory",
        redb::ConcurrencyMode::ExclusiveWriter,
    )
    .unwrap();
    let form = validate(&payload(1, false), FormSource::Tool).unwrap();
    let opened = Event::opened(form);
    let mut flow = DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened)
        .unwrap()
        .with_host(FlowHost { config: Some(dir.path().join("config.json")) });
    flow.push(Event::key(KeyPress::parse("?").unwrap())).unwrap();
    flow.push(Event::key(KeyPress::parse("space").unwrap())).unwrap();
    let logged = store.events("f").unwrap();
    let Some(Event::SettingsSaveFailed { message, settings }) = logged.last() else { panic!("{logged:?}") };
    assert!(message.contains("cannot be read as a JSON object"), "{message}");
    assert_eq!(*settings, Box::new(Settings::default()), "the toggle is reverted");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("config.json")).unwrap(),
        "{ not json",
        "file untouched"
    );
}

fn opened(n: usize, multi: bool) -> Event {
    let form = validate(&payload(n, multi), FormSource::Tool).unwrap();
    Event::opened(form)
}

fn memory_store() -> Store {
    Store::with_backend(
        redb::backends::InMemoryBackend::new(),
        "memory",
        redb::ConcurrencyMode::ExclusiveWriter,
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Group commit (issue 15.1): keys that arrive together are committed in one transaction,
    /// yet the log and the state are exactly those of pushing each key on its own — including
    /// an overlay toggle whose save fails in the middle of a burst (its failure is logged right
    /// after it) and a burst that completes the flow (what follows is neither logged nor folded).
    #[test]
    fn a_burst_is_logged_and_folded_exactly_as_its_keys_one_by_one(
        n in 1..4usize,
        multi in any::<bool>(),
        config_writable in any::<bool>(),
        events in prop::collection::vec(event(), 0..120),
        cuts in prop::collection::vec(1..12usize, 1..40),
    ) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("file"), "").unwrap();
        // Each flow saves to its own directory under the same file name, so the logged save
        // failures read alike.
        let config = |flow: &str| {
            let parent = if config_writable { dir.path().join(flow) } else { dir.path().join("file") };
            let _ = std::fs::create_dir(&parent);
            parent.join("config.json")
        };
        let (one_store, burst_store) = (memory_store(), memory_store());
        let record = FlowRecord::new("f", "ask", "s", 0);
        let mut one = DurableFlow::start(&one_store, &record, opened(n, multi)).unwrap()
            .with_host(FlowHost { config: Some(config("one")) });
        let mut burst = DurableFlow::start(&burst_store, &record, opened(n, multi)).unwrap()
            .with_host(FlowHost { config: Some(config("burst")) });
        for event in &events {
            if one.state().outcome().is_some() {
                break;
            }
            one.push(event.clone()).unwrap();
        }
        let (mut at, mut cut) = (0, cuts.iter().cycle());
        while at < events.len() {
            let end = (at + cut.next().unwrap()).min(events.len());
            burst.push_all(&events[at..end]).unwrap();
            at = end;
        }
        let (one_live, burst_live) = (one.state().clone(), burst.state().clone());
        drop((one, burst));
        let burst_log = burst_store.events("f").unwrap();
        prop_assert_eq!(&burst_log, &one_store.events("f").unwrap(), "the same log");
        prop_assert_eq!(&burst_live, &one_live, "the same state");
        prop_assert_eq!(&FlowState::replay(&burst_log), &burst_live, "live equals a fold of the log");
    }
}

/// Group commit (issue 15.1): a burst of typed characters costs the synced writes of one commit
/// (redb may add a sync when the transaction grows the file), not one commit per key.
#[rstest::rstest]
#[case::one_key(1)]
#[case::forty_keys(40)]
#[case::two_hundred_keys(200)]
fn a_burst_of_keys_is_one_durable_commit(#[case] keys: usize) {
    let (backend, syncs) = SyncHook::counting();
    let store = Store::with_backend(backend, "memory", redb::ConcurrencyMode::ExclusiveWriter).unwrap();
    let mut flow =
        DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened(1, false)).unwrap();
    flow.push(Event::key(KeyPress::parse("n").unwrap())).unwrap(); // an option note editor
    let typed: Vec<Event> =
        (0..keys).map(|i| Event::key(KeyPress::parse(&"abc"[i % 3..=i % 3]).unwrap())).collect();
    let before = syncs.load(std::sync::atomic::Ordering::SeqCst);
    flow.push(Event::key(KeyPress::parse("x").unwrap())).unwrap();
    let one_commit = syncs.load(std::sync::atomic::Ordering::SeqCst) - before;
    assert!(one_commit >= 1, "a commit syncs");
    let before = syncs.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(flow.push_all(&typed).unwrap(), keys);
    let burst = syncs.load(std::sync::atomic::Ordering::SeqCst) - before;
    assert!(burst <= 2 * one_commit, "one commit for the burst: {burst} syncs, {one_commit} for one key");
    let logged = store.events("f").unwrap();
    assert_eq!(logged.len(), 3 + keys, "every key is in the log");
    assert_eq!(&FlowState::replay(&logged), flow.state());
}

/// A burst is folded before its commit lands (no copy of the state is made for it); when that
/// commit fails — here another process holds the store's write lock past the bounded wait —
/// the burst is taken back out: the state is again a fold of the log, and the flow goes on once
/// the store is free, as if the burst had never been typed.
#[test]
fn a_burst_whose_commit_fails_leaves_the_state_a_fold_of_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let mut store = Store::open(&path).unwrap();
    store.set_write_wait(std::time::Duration::from_millis(200));
    let key = |id: &str| Event::key(KeyPress::parse(id).unwrap());
    let mut flow = DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened(2, true)).unwrap();
    flow.push(key("down")).unwrap();
    let before = flow.state().clone();
    let raw =
        redb::Builder::new().set_concurrency_mode(redb::ConcurrencyMode::MultiWriter).open(&path).unwrap();
    let blocker = raw.begin_write().unwrap();
    let failed = flow.push_all(&[key("enter"), key("tab"), key("space")]).unwrap_err();
    assert!(matches!(failed, ask_storage::StoreError::Busy { .. }), "{failed:?}");
    assert_eq!(flow.state(), &before, "the burst is taken back out of the state");
    drop((blocker, raw));
    assert_eq!(flow.push_all(&[key("tab"), key("space")]).unwrap(), 2, "the flow goes on");
    let logged = store.events("f").unwrap();
    assert_eq!(logged.len(), 4, "the opening, the first key and the later burst: {logged:?}");
    assert_eq!(&FlowState::replay(&logged), flow.state());
}

/// The log of flow `f` ends with the paths offered for `query` (the test walk answers `query.rs`),
/// and the live state is a fold of that log.
fn assert_offered_last(store: &Store, flow: &DurableFlow, query: &str) {
    let logged = store.events("f").unwrap();
    let offered = Event::CompletionsOffered { query: query.into(), items: vec![format!("{query}.rs")] };
    assert_eq!(logged.last(), Some(&offered), "{logged:?}");
    assert_eq!(&FlowState::replay(&logged), flow.state());
}

/// An `@` path typed in one burst (a paste, or a line of the plain frontend) is one commit and
/// one lookup, for the query as it stands at the burst's end: the fold keeps only paths for the
/// query it shows, so asking for `@`, `@s` and `@sr` on the way was wasted, and ending a group
/// at each of them split a line into commits that a full disk could cut in the middle.
#[test]
fn a_burst_typing_an_at_path_is_one_commit_and_one_lookup() {
    let (backend, syncs) = SyncHook::counting();
    let store = Store::with_backend(backend, "memory", redb::ConcurrencyMode::ExclusiveWriter).unwrap();
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = std::sync::Arc::clone(&asked);
    let mut flow = DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened(1, false))
        .unwrap()
        .with_file_offers(Box::new(move |q: &str| {
            log.lock().unwrap().push(q.to_owned());
            vec![format!("{q}.rs")]
        }));
    let key = |id: &str| Event::key(KeyPress::parse(id).unwrap());
    flow.push(key("n")).unwrap(); // an option note editor
    flow.push(key("x")).unwrap();
    let before = syncs.load(std::sync::atomic::Ordering::SeqCst);
    flow.push(key("y")).unwrap();
    let one_commit = syncs.load(std::sync::atomic::Ordering::SeqCst) - before;
    let typed: Vec<Event> =
        "see @sr".chars().map(|c| if c == ' ' { key("space") } else { key(&c.to_string()) }).collect();
    let before = syncs.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(flow.push_all(&typed).unwrap(), typed.len());
    let burst = syncs.load(std::sync::atomic::Ordering::SeqCst) - before;
    assert!(burst <= 2 * one_commit, "one commit for the burst: {burst} syncs, {one_commit} for one key");
    flow.settle().unwrap();
    assert_eq!(*asked.lock().unwrap(), ["sr"], "one lookup, for the query typed");
    assert_offered_last(&store, &flow, "sr");
}

/// `settle` waits for every lookup asked, not only the first to answer: a headless run's log
/// must not depend on how fast the file walk is.
#[test]
fn settling_waits_for_the_last_lookup_asked() {
    let store = memory_store();
    let mut flow = DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened(1, false))
        .unwrap()
        .with_file_offers(Box::new(|q: &str| {
            // Slow enough that the second query is still being looked up when the first answers.
            std::thread::sleep(std::time::Duration::from_millis(150));
            vec![format!("{q}.rs")]
        }));
    let key = |id: &str| Event::key(KeyPress::parse(id).unwrap());
    for k in ["n", "@"] {
        flow.push(key(k)).unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(30)); // the worker has taken `@`'s query
    flow.push(key("s")).unwrap();
    flow.settle().unwrap();
    assert!(!flow.offers_pending());
    assert_offered_last(&store, &flow, "s");
}
