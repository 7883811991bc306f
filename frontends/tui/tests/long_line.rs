//! One unbroken line of tens of kilobytes in an answer: the terminal frontend remembers where
//! its rows begin between frames and lays out only the rows near the cursor. What it draws after
//! any keys is what a frontend drawing the same state for the first time draws (a fresh thread
//! starts with nothing remembered).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::sync::Arc;

use ask_engine::{Event, FlowState, KeyPress, editor::LONG_LINE};
use ask_schema::FormSource;
use ask_tui::MemoryTerminal;
use common::{form, opened, press};
use proptest::prelude::*;

fn key() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "up",
        "down",
        "down",
        "down",
        "down",
        "left",
        "right",
        "backspace",
        "x",
        "é",
        "中",
        "🚀",
        "space",
        "ctrl+w",
        "end",
    ])
}

/// The frame `state` draws at `size` in a new thread: nothing remembered from earlier frames.
fn drawn_afresh(state: &FlowState, (width, height): (u16, u16)) -> String {
    let view = Arc::new(state.view());
    std::thread::spawn(move || MemoryTerminal::new(width, height, None).draw(&view)).join().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn a_long_line_draws_as_it_would_afresh_after_any_keys(
        keys in prop::collection::vec(key(), 1..60),
        size in prop::sample::select(vec![(80u16, 24u16), (41, 8), (120, 40)]),
        script in prop::sample::select(vec!["y", "é", "ж", "中", "😀"]),
    ) {
        // ASCII, or words with accented, Cyrillic or CJK letters or emoji: all laid out from
        // remembered rows.
        let line: String = (0..).map(|i| format!("w{i}:{}.x/{} ", i % 13, script.repeat(i % 17)))
            .take_while({ let mut len = 0; move |w: &String| { len += w.len(); len < LONG_LINE * 2 } })
            .collect();
        let mut state = opened(&form(), FormSource::Tool, size.0, size.1, vec![]);
        press(&mut state, "end\nenter");
        state.apply(&Event::TextPasted { text: line });
        state.apply(&Event::key(KeyPress::parse("home").unwrap())); // edits, then down past them
        let mut term = MemoryTerminal::new(size.0, size.1, None);
        for e in term.render(&Arc::new(state.view())) {
            state.apply(&e); // the editor's width, as the live terminal records it
        }
        for k in keys {
            state.apply(&Event::key(KeyPress::parse(k).unwrap()));
            let frame = term.draw(&Arc::new(state.view()));
            prop_assert_eq!(&frame, &drawn_afresh(&state, size), "after {}", k);
        }
    }
}
