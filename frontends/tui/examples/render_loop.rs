//! Profiling aid: draws one typical frame many times (`perf record` this).
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::sync::Arc;
fn main() {
    let raw = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../bench/workload/form-typical.json"
    ))
    .unwrap();
    let form = ask_schema::validate_text(&raw, ask_schema::FormSource::Tool).unwrap();
    let mut st = ask_engine::FlowState::default();
    st.apply(&ask_engine::Event::FlowOpened {
        form: form.into(),
        settings: Box::default(),
        origin: ask_engine::Origin::tool(),
        size: Default::default(),
        notices: vec![],
    });
    let v = Arc::new(st.view());
    let mut t = ask_tui::MemoryTerminal::new(80, 24, None);
    let start = std::time::Instant::now();
    for _ in 0..20000 {
        t.render(&v);
    }
    println!("{:?} per frame", start.elapsed() / 20000);
}
