//! Properties of the durable flow: the state the runtime held after live pushes (effects
//! carried out: settings saved, save failures and `@` offers committed as events) equals a fold
//! of what the store returns; and exporting that log and replaying the file gives it again.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use ask_engine::{Event, FlowState, KeyPress, Origin, Settings, Size};
use ask_schema::{FormSource, validate};
use ask_storage::log_file::{export, import};
use ask_storage::{DurableFlow, FlowHost, FlowRecord, Store};
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
        1 => "[a-z @\\n]{0,6}".prop_map(|text| Event::TextPasted { text }),
        1 => (1..200u16, 1..60u16).prop_map(|(width, height)| Event::TerminalResized { size: Size { width, height } }),
        1 => any::<bool>().prop_map(|on| {
            let mut settings = Settings::default();
            settings.behaviour.auto_submit_when_answered_without_notes = on;
            Event::SettingsChanged { settings, notices: if on { vec!["a notice".into()] } else { vec![] } }
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
        let opened = Event::FlowOpened { form: form.into(), settings: Settings::default(), origin: Origin::tool(), size: Size::default(), notices: vec![] };
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
    let opened = Event::FlowOpened {
        form: form.into(),
        settings: Settings::default(),
        origin: Origin::tool(),
        size: Size::default(),
        notices: vec![],
    };
    let mut flow = DurableFlow::start(&store, &FlowRecord::new("f", "ask", "s", 0), opened)
        .unwrap()
        .with_host(FlowHost { config: Some(dir.path().join("config.json")) });
    flow.push(Event::key(KeyPress::parse("?").unwrap())).unwrap();
    flow.push(Event::key(KeyPress::parse("space").unwrap())).unwrap();
    let logged = store.events("f").unwrap();
    let Some(Event::SettingsSaveFailed { message, settings }) = logged.last() else { panic!("{logged:?}") };
    assert!(message.contains("cannot be read as a JSON object"), "{message}");
    assert_eq!(*settings, Settings::default(), "the toggle is reverted");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("config.json")).unwrap(),
        "{ not json",
        "file untouched"
    );
}
