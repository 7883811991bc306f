//! Any characters typed into an answer, a note and a filter — controls, odd spaces, combining
//! marks, wide and zero-width characters, any modifiers — draw at any size without a panic, as
//! frames of the terminal's size with no control character in any cell. (A key no key id names once made a flow's log unreadable;
//! this holds the drawing of such keys to the same standard as their storing.)
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::sync::Arc;

use ask_engine::{Event, KeyCode, KeyPress, Modifiers, Size};
use ask_schema::FormSource;
use ask_tui::MemoryTerminal;
use common::{form, opened, press};
use proptest::prelude::*;

/// Where the characters go: the custom answer's editor, an option note, the filter's query.
const PLACES: &[&str] = &["end\nenter", "n", "/"];

fn typed() -> impl Strategy<Value = Event> {
    prop_oneof![
        8 => any::<char>().prop_map(|c| Event::key(KeyPress::plain(KeyCode::Char(c)))),
        1 => (any::<char>(), 1u8..16).prop_map(|(c, bits)| {
            let mods = [Modifiers::CTRL, Modifiers::SHIFT, Modifiers::ALT, Modifiers::SUPER]
                .into_iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .fold(Modifiers::NONE, |all, (_, m)| all.union(m));
            Event::key(KeyPress::new(KeyCode::Char(c), mods))
        }),
        1 => any::<String>().prop_map(|text| Event::TextPasted { text }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_characters_typed_draw_at_any_size(
        place in 0..PLACES.len(),
        events in prop::collection::vec(typed(), 1..40),
        sizes in prop::collection::vec((1..140u16, 1..50u16), 1..4),
    ) {
        let mut state = opened(&form(), FormSource::Tool, 80, 24, vec![]);
        press(&mut state, PLACES[place]);
        let mut term = MemoryTerminal::new(80, 24, None);
        for e in &events {
            state.apply(e);
        }
        for (width, height) in sizes {
            state.apply(&Event::TerminalResized { size: Size { width, height } });
            term.resize(width, height);
            for event in term.render(&Arc::new(state.view())) {
                state.apply(&event);
            }
            let frame = term.draw(&Arc::new(state.view()));
            prop_assert_eq!(frame.lines().count(), usize::from(height), "{}", frame);
            // Shown inert: no cell holds a control character the terminal would act on.
            let buffer = term.buffer();
            let control = buffer.content().iter().find(|cell| cell.symbol().chars().any(char::is_control));
            prop_assert!(control.is_none(), "{:?} in\n{}", control, frame);
        }
    }
}
