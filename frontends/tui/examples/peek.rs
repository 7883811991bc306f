//! Draws a payload after a script into a text frame: `cargo run -p ask-tui --example peek -- P S W H`.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::Arc;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let form =
        ask_schema::validate_text(&std::fs::read_to_string(&a[1]).unwrap(), ask_schema::FormSource::Tool)
            .unwrap();
    let mut st = ask_engine::FlowState::default();
    st.apply(&ask_engine::Event::FlowOpened {
        form: form.into(),
        settings: Default::default(),
        origin: ask_engine::Origin::tool(),
        size: Default::default(),
        notices: vec![],
    });
    for step in ask_engine::parse_script(&std::fs::read_to_string(&a[2]).unwrap()).unwrap() {
        for e in step.events(st.settings()).unwrap() {
            st.apply(&e);
        }
    }
    let mut t = ask_tui::MemoryTerminal::new(
        a[3].parse().unwrap(),
        a[4].parse().unwrap(),
        Some("/home/u/.config/ask-user/config.json"),
    );
    print!("{}", t.draw(&Arc::new(st.view())));
}
