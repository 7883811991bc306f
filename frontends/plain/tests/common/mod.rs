//! A flow folded in memory, answered through the plain frontend's `run`.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // shared helpers; tests fail loudly

use ask_engine::{Event, FlowState};
use ask_plain::{Ended, Flow, run};
use ask_schema::{FormSource, validate};

pub struct Memory(pub FlowState);

impl Flow for Memory {
    fn state(&self) -> &FlowState {
        &self.0
    }
    fn push(&mut self, events: &[Event]) -> Result<(), String> {
        for event in events {
            if self.0.outcome().is_some() {
                break;
            }
            self.0.apply(event);
        }
        Ok(())
    }
}

/// A flow opened on one of `examples/`.
pub fn opened(example: &str) -> FlowState {
    let text =
        std::fs::read_to_string(format!("{}/../../examples/{example}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    opened_on(&serde_json::from_str(&text).unwrap())
}

/// A flow opened on `raw`, an `ask_user` call.
pub fn opened_on(raw: &serde_json::Value) -> FlowState {
    opened_from(raw, FormSource::Tool)
}

/// A flow opened on `raw` from `source` (free-form questions come only from `/answer`).
pub fn opened_from(raw: &serde_json::Value, source: FormSource) -> FlowState {
    let mut state = FlowState::default();
    state.apply(&Event::opened(validate(raw, source).unwrap()));
    state
}

/// The plain frontend answering `state` with `lines` to the end; returns the result and what
/// it said.
pub fn answered(state: FlowState, lines: &[&str]) -> (serde_json::Value, String) {
    let mut flow = Memory(state);
    let mut said = Vec::new();
    let input = std::io::Cursor::new(lines.join("\n").into_bytes());
    assert_eq!(run(input, &mut said, &mut flow, None).unwrap(), Ended::Completed);
    (serde_json::to_value(flow.0.result().unwrap()).unwrap(), String::from_utf8(said).unwrap())
}

/// The plain frontend answering an example with `lines`.
pub fn plain(example: &str, lines: &[&str]) -> (serde_json::Value, String) {
    answered(opened(example), lines)
}
