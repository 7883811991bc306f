//! Property: exporting a flow's log and replaying the file gives the live result.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use ask_engine::{Event, FlowState, KeyPress, Origin, Settings, Size};
use ask_schema::{FormSource, validate};
use ask_storage::log_file::{export, import};
use ask_storage::{FlowRecord, Store};
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
    "backspace",
    "ctrl+c",
    "?",
];

fn form(n: usize, multi: bool) -> serde_json::Value {
    let questions: Vec<_> = (0..n)
        .map(|i| json!({"id": format!("q{i}"), "prompt": "P?", "type": if multi && i % 2 == 1 {"multi"} else {"single"},
            "options": [{"value":"a","label":"A"},{"value":"b","label":"B"},{"value":"c","label":"C"}]}))
        .collect();
    json!({"questions": questions})
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn export_then_replay_equals_live(n in 1..4usize, multi in any::<bool>(), keys in prop::collection::vec(prop::sample::select(KEYS), 0..80)) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        let form = validate(&form(n, multi), FormSource::Tool).unwrap();
        let opened = Event::FlowOpened { form: form.into(), settings: Settings::default(), origin: Origin::tool(), size: Size::default(), notices: vec![] };
        store.create_flow(&FlowRecord { id: "f".into(), command: "ask".into(), session: "s".into(), created_ms: 0 }, &opened).unwrap();
        let mut live = FlowState::default();
        live.apply(&opened);
        for event in keys.iter().map(|k| Event::key(KeyPress::parse(k).unwrap())) {
            store.append("f", &event).unwrap();
            live.apply(&event);
        }
        let file = export("f", "ask", &store.events("f").unwrap());
        let (_, events) = import(&file).unwrap();
        let replayed = FlowState::replay(&events);
        prop_assert_eq!(replayed.result(), live.result());
        prop_assert_eq!(&replayed, &live);
        prop_assert_eq!(export("f", "ask", &events), file, "byte-identical on re-export");
    }
}
