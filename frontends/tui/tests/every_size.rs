//! Every screen at every terminal size a person can make, from 1×1 up: drawn without a panic,
//! and what a frame asks the flow to record (a scroll clamped, an editor's width) recorded once,
//! not again at the next frame. Terminals are resized by dragging through sizes no snapshot test
//! picks, and a layout that subtracts one row too many or splits a width of 0 fails only there.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::sync::Arc;

use ask_engine::{Event, Size};
use ask_schema::FormSource;
use ask_tui::MemoryTerminal;
use common::{form, opened, press};
use serde_json::Value;

/// The screens: each tab, each editor, the overlays, a filter, and the review with answers.
const SCREENS: &[&str] = &[
    "",
    "n\ntype \"an option note long enough to wrap several times in a narrow editor pane\"",
    "shift+n\ntype \"a question note\\nof two lines\"",
    "end\nenter\ntype \"my own answer\"",
    "tab\nspace\ndown\nspace",
    "tab\ntab",
    "tab\ntab\ndown\npageDown",
    "1\nspace\ntab\n2",
    "1\nspace\ntab\n1\n2",
    "?",
    "/\ntype \"ru\"",
    "shift+tab\nend",
    "1\nspace\ntab\n1\npageDown\npageDown\npageDown\npageDown\npageUp",
    "1\n1\n1\n1\n1\n1\n1\n1\npageDown\npageDown\npageDown\npageDown\npageDown\npageDown\npageUp",
];

/// The screen tests' form, the examples, and the fixtures of long answers and wrapping previews.
fn payloads() -> Vec<Value> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut payloads = vec![form()];
    for dir in ["examples", "tests/fixtures/payloads"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            payloads.push(serde_json::from_str(&text).unwrap());
        }
    }
    payloads
}

/// Every width up to 100 at a few heights, and every height up to 45 at a few widths.
fn sizes() -> Vec<(u16, u16)> {
    let mut sizes = Vec::new();
    for h in [1, 2, 3, 5, 7, 8, 12, 24] {
        sizes.extend((1..=100).map(|w| (w, h)));
    }
    for w in [1, 2, 10, 23, 24, 25, 40, 80, 120] {
        sizes.extend((1..=45).map(|h| (w, h)));
    }
    sizes
}

#[test]
fn every_screen_draws_at_every_size() {
    let sizes = sizes();
    for raw in payloads() {
        for script in SCREENS {
            let mut state = opened(&raw, FormSource::Tool, 80, 24, vec![]);
            press(&mut state, script);
            let mut term = MemoryTerminal::new(80, 24, None);
            for &(width, height) in &sizes {
                state.apply(&Event::TerminalResized { size: Size { width, height } });
                term.resize(width, height);
                // As the live loop does: what a frame asks to record (a clamp, an editor's
                // width) is applied, and the next frame asks for nothing more.
                for event in term.render(&Arc::new(state.view())) {
                    state.apply(&event);
                }
                let again = term.render(&Arc::new(state.view()));
                assert_eq!(again, [], "{width}×{height} after {script:?}: recorded twice");
            }
        }
    }
}
