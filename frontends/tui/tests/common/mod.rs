//! Building the flow state a frame is drawn from: a payload opened at a size, then script steps.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // shared helpers; tests fail loudly

use std::sync::Arc;

use ask_engine::{Event, FlowState, Origin, Settings, Size, parse_script};
use ask_schema::{FormSource, validate};
use ask_tui::MemoryTerminal;
use serde_json::{Value, json};

/// A flow on `raw`, opened on a `width`×`height` terminal with these config notices.
pub fn opened(raw: &Value, source: FormSource, width: u16, height: u16, notices: Vec<String>) -> FlowState {
    let mut state = FlowState::default();
    state.apply(&Event::FlowOpened {
        form: validate(raw, source).unwrap().into(),
        settings: Settings::default().into(),
        origin: Origin::tool(),
        size: Size { width, height },
        notices,
    });
    state
}

/// Applies the steps of a `--script` text, one line per step.
pub fn press(state: &mut FlowState, script: &str) {
    for step in parse_script(script).unwrap() {
        for e in step.events(state.settings()).unwrap() {
            state.apply(&e);
        }
    }
}

/// The three-question form most screen tests draw: single, multi and preview.
pub fn form() -> Value {
    json!({"title":"New service setup","questions":[
        {"id":"lang","label":"Language","prompt":"Which language should the new service be written in?","options":[
            {"value":"rust","label":"Rust","description":"Fast, memory safe, single static binary"},
            {"value":"go","label":"Go","description":"Simple concurrency, quick builds"},
            {"value":"ts","label":"TypeScript"}]},
        {"id":"feat","label":"Features","prompt":"Which cross-cutting features should the skeleton include?","type":"multi","options":[
            {"value":"tracing","label":"OpenTelemetry tracing"},{"value":"metrics","label":"Prometheus metrics"},
            {"value":"auth","label":"JWT authentication","description":"Validates tokens from the identity service"}]},
        {"id":"cfg","label":"Config","prompt":"How should the service read its configuration?","type":"preview","options":[
            {"value":"env","label":"Environment only","description":"Twelve-factor","preview":"DATABASE_URL=postgres://db/app\nPORT=8080\nLOG_LEVEL=info"},
            {"value":"toml","label":"TOML file","preview":"[server]\nport = 8080\n\n[database]\nurl = \"postgres://db/app\""}]}
    ]})
}

/// `n` questions, "Question i" answered by "Answer i" with the key 1: a summary of `n` lines.
pub fn numbered(n: usize) -> Value {
    let questions: Vec<Value> = (1..=n)
        .map(|i| {
            json!({"id": format!("q{i}"), "label": format!("Question {i}"), "prompt": format!("Pick {i}?"),
            "options": [{"value": "a", "label": format!("Answer {i}")}, {"value": "b", "label": "Other"}]})
        })
        .collect();
    json!({"questions": questions})
}

/// `n` options labelled `label 1` … `label n`, valued `v1` … `vn`.
pub fn options(n: usize, label: &str) -> Vec<Value> {
    (1..=n).map(|i| json!({"value": format!("v{i}"), "label": format!("{label} {i}")})).collect()
}

/// Answers the three questions of [`form`], with a note on the last, and lands on the review.
pub const REVIEWED: &str = "1\n1\n3\ntab\nn\ntype \"why not toml?\"\nenter\n1";

/// [`REVIEWED`], and with `press` the first press of a double-press action (its hint then
/// shows under the actions).
pub fn reviewed(press: bool) -> String {
    if press { format!("{REVIEWED}\n1") } else { REVIEWED.to_owned() }
}

/// The layout and the frame after `script` on `raw` opened at `width`×`height` with these config
/// notices, and the view they were drawn from.
pub fn laid_out(
    raw: &Value,
    width: u16,
    height: u16,
    script: &str,
    notices: Vec<String>,
) -> (ask_tui::layout::Areas, String, Arc<ask_engine::ViewModel>) {
    let mut state = opened(raw, FormSource::Tool, width, height, notices);
    press(&mut state, script);
    let view = Arc::new(state.view());
    let areas = ask_tui::layout::layout(tuirealm::ratatui::layout::Rect::new(0, 0, width, height), &view);
    (areas, MemoryTerminal::new(width, height, None).draw(&view), view)
}

/// The frame after `script` on `raw` opened at `width`×`height`, with a config path to show.
pub fn draw(raw: &Value, source: FormSource, script: &str, width: u16, height: u16) -> String {
    let mut state = opened(raw, source, width, height, vec![]);
    press(&mut state, script);
    let mut term = MemoryTerminal::new(width, height, Some("/home/ada/.config/ask-user/config.json"));
    term.draw(&Arc::new(state.view()))
}

/// The frames a person sees, one per script line, drawn as the live terminal draws them: each
/// key is applied, the frame drawn, and the events the frame asks to record applied before the
/// next key (the runtime commits them first). Returns the frames and how many such events there
/// were.
pub fn drive_live(raw: &Value, script: &str, width: u16, height: u16) -> (Vec<String>, usize) {
    let mut state = opened(raw, FormSource::Tool, width, height, vec![]);
    let mut term = MemoryTerminal::new(width, height, None);
    let (mut frames, mut recorded) = (Vec::new(), 0);
    for line in script.lines() {
        press(&mut state, line);
        let drawn = term.render(&Arc::new(state.view()));
        frames.push(ask_tui::buffer_text(term.buffer()));
        if drawn.is_empty() {
            continue;
        }
        for event in &drawn {
            assert!(
                matches!(
                    event,
                    Event::SummaryClamped { .. } | Event::PreviewClamped { .. } | Event::EditorWrapped { .. }
                ),
                "{event:?}"
            );
            state.apply(event);
        }
        recorded += drawn.len();
        let again = term.render(&Arc::new(state.view()));
        assert_eq!(again, [], "what a frame recorded is not recorded again");
        assert_eq!(
            &ask_tui::buffer_text(term.buffer()),
            frames.last().unwrap(),
            "recording changes nothing on screen"
        );
    }
    (frames, recorded)
}
