//! Building the flow state a frame is drawn from: a payload opened at a size, then script steps.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // shared helpers; tests fail loudly

use ask_engine::{Event, FlowState, Origin, Settings, Size, parse_script};
use ask_schema::{FormSource, validate};
use serde_json::Value;

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
