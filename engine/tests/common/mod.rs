//! Shared helpers: a three-question form, and running a script (the `--script` format) on it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // shared helpers; tests fail loudly

use ask_engine::{Event, FlowState, Origin, Settings, Size, parse_script};
use ask_schema::{Form, FormSource, QuestionType, validate};
use serde_json::{Value, json};

/// q1 `lang` single (3 options), q2 `feat` multi (3 options), q3 `view` preview (2 options).
pub fn form3() -> Value {
    json!({"title":"Setup","questions":[
        {"id":"lang","label":"Lang","prompt":"Which language?","options":[
            {"value":"rust","label":"Rust"},{"value":"go","label":"Go"},{"value":"ts","label":"TypeScript"}]},
        {"id":"feat","label":"Feat","prompt":"Which features?","type":"multi","options":[
            {"value":"a","label":"Alpha"},{"value":"b","label":"Beta"},{"value":"c","label":"Gamma"}]},
        {"id":"view","label":"View","prompt":"Which layout?","type":"preview","options":[
            {"value":"x","label":"Ex","preview":"X preview"},{"value":"y","label":"Why","preview":"Y preview"}]}
    ]})
}

pub fn form_of(raw: &Value) -> Form {
    validate(raw, FormSource::Tool).expect("test payload is valid")
}

pub fn opened(form: Form, settings: Settings) -> Event {
    Event::FlowOpened {
        form: form.into(),
        settings: Box::new(settings),
        origin: Origin::tool(),
        size: Size::default(),
        notices: vec![],
    }
}

/// Runs a script on a form; stops at completion like the headless runner. Returns state and log.
pub fn run_with(raw: &Value, script: &str, settings: Settings) -> (FlowState, Vec<Event>) {
    let mut log = vec![opened(form_of(raw), settings)];
    let mut state = FlowState::replay(&log);
    for step in parse_script(script).expect("test script parses") {
        for event in step.events(state.settings()).expect("set step is valid") {
            state.apply(&event);
            log.push(event);
            if state.outcome().is_some() {
                return (state, log);
            }
        }
    }
    (state, log)
}

/// Runs a script on [`form3`] with `settings`.
pub fn run3(script: &str, settings: Settings) -> FlowState {
    run_with(&form3(), script, settings).0
}

/// The result's `details` as JSON (`Value::Null` while the flow is open).
pub fn details(state: &FlowState) -> Value {
    state.result().map_or(Value::Null, |r| serde_json::to_value(r.details).expect("serializes"))
}

/// The result text ("" while open).
pub fn text(state: &FlowState) -> String {
    state.result().map(|r| r.text().to_owned()).unwrap_or_default()
}

/// Settings with double-press off (so `1` on the review tab submits at once).
pub fn single_press() -> Settings {
    let mut s = Settings::default();
    s.behaviour.double_press_review_shortcuts = false;
    s
}

pub fn with(f: impl FnOnce(&mut Settings)) -> Settings {
    let mut s = Settings::default();
    f(&mut s);
    s
}

/// Keys of every kind the fold handles: moves, edits, notes, undo, and keys that end a form.
pub const KEYS: &[&str] = &[
    "up",
    "down",
    "left",
    "right",
    "tab",
    "shift+tab",
    "enter",
    "esc",
    "space",
    "backspace",
    "delete",
    "n",
    "shift+n",
    "1",
    "2",
    "3",
    "4",
    "5",
    "9",
    "0",
    "?",
    "ctrl+c",
    "alt+enter",
    "home",
    "end",
    "pageUp",
    "pageDown",
    "a",
    "shift+z",
    "é",
    "世",
    "ctrl+w",
    "ctrl+u",
    "alt+b",
    "/",
    "ctrl+z",
    "ctrl+y",
    "ctrl+shift+z",
];

/// What must hold after any event: the tab and cursor in range, single-select questions never
/// holding two answers, and every result one the published result schema accepts, in the
/// form's order and with 1-based indices in range; the view and the dirty check never panic.
pub fn check_invariants(state: &FlowState) {
    let form = state.form();
    assert!(state.tab() <= form.questions.len(), "tab in range");
    if let Some((q, qs)) = state.current() {
        assert!(state.cursor() <= q.declared_rows(), "cursor in range");
        if q.kind != QuestionType::Multi {
            assert!(qs.selected_count() <= 1, "single-select never holds two options");
            assert!(
                !(qs.selected_count() == 1 && qs.custom_selected()),
                "option and custom text never both selected"
            );
        }
    }
    if let Some(result) = state.result_of("f-1") {
        // Every result an agent can receive is one the published result schema accepts.
        static SCHEMA: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
        let schema = SCHEMA.get_or_init(|| jsonschema::validator_for(&ask_schema::result_schema()).unwrap());
        let json = serde_json::to_value(&result).unwrap();
        if let Err(e) = schema.validate(&json) {
            panic!("result breaks the result schema: {e}\n{json}");
        }
        for (meta, q) in result.details.questions.iter().zip(&form.questions) {
            assert_eq!(meta.id, q.id);
            let Some(a) = result.details.answers.get(&q.id) else { continue };
            assert_eq!(a.values.len(), a.labels.len());
            assert!(
                a.indices.iter().all(|&i| i >= 1 && i <= q.options.len()),
                "indices are 1-based and in range"
            );
            assert!(a.indices.windows(2).all(|w| w[0] < w[1]), "declared order");
            if q.kind != QuestionType::Multi {
                assert!(a.values.len() <= 1);
            }
        }
    }
    let _ = state.view();
    let _ = state.is_dirty();
}

/// The modifiers the low four bits of `bits` name (for properties over every combination).
pub fn modifiers(bits: u8) -> ask_engine::Modifiers {
    use ask_engine::Modifiers;
    [Modifiers::CTRL, Modifiers::SHIFT, Modifiers::ALT, Modifiers::SUPER]
        .into_iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .fold(Modifiers::NONE, |all, (_, m)| all.union(m))
}
