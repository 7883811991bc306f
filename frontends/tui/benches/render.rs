//! One keypress end to end, in process: event → fold → view model → render of the 80×24 frame
//! into an in-memory backend. Run: `cargo bench -p ask-tui --bench render`.
//!
//! Prints p50/p99 per key over the 2 000-key scripts of the shared workload (typical and
//! stress forms) and over the typical script on a form whose previews are 20 000 lines long.
//! A flow that completes is reopened, so every key is measured.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use ask_engine::{Event, FlowState, Settings, parse_script};
use ask_schema::{FormSource, validate};
use ask_tui::MemoryTerminal;
use serde_json::Value;

fn workload(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/workload").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn run(label: &str, form: &Value, keys: &str) {
    let form = validate(form, FormSource::Tool).unwrap();
    let opened = Event::opened(form);
    let start_state = FlowState::replay([&opened]);
    let events: Vec<Event> = parse_script(&workload(keys))
        .unwrap()
        .iter()
        .flat_map(|s| s.events(&Settings::default()).unwrap())
        .collect();
    let mut term = MemoryTerminal::new(80, 24, Some("/home/user/.config/ask-user/config.json"));
    let mut samples = Vec::with_capacity(events.len() * 5);
    for _round in 0..5 {
        let mut state = start_state.clone();
        term.draw(&Arc::new(state.view()));
        for e in &events {
            let t = Instant::now();
            let fx = state.apply(e);
            term.render(&Arc::new(state.view()));
            samples.push(t.elapsed().as_nanos() as u64);
            if fx.completed.is_some() {
                state = start_state.clone();
            }
        }
    }
    if std::env::var_os("RENDER_BREAKDOWN").is_some() {
        let mut state = start_state.clone();
        let (mut tv, mut tr) = (Vec::new(), Vec::new());
        for e in &events {
            if state.apply(e).completed.is_some() {
                state = start_state.clone();
            }
            let t = Instant::now();
            let v = Arc::new(state.view());
            tv.push(t.elapsed().as_nanos() as u64);
            let t = Instant::now();
            term.render(&v);
            tr.push(t.elapsed().as_nanos() as u64);
        }
        tv.sort_unstable();
        tr.sort_unstable();
        let p99 = |v: &[u64]| v[(v.len() - 1) * 99 / 100];
        println!(
            "  view p50 {} ns p99 {} ns, render p50 {} ns p99 {} ns",
            tv[tv.len() / 2],
            p99(&tv),
            tr[tr.len() / 2],
            p99(&tr)
        );
    }
    samples.sort_unstable();
    let pct = |p: f64| samples[((samples.len() - 1) as f64 * p) as usize] as f64 / 1000.0;
    println!(
        "{label:<28} {} keys: p50 {:7.1} µs  p99 {:7.1} µs  max {:8.1} µs",
        samples.len(),
        pct(0.5),
        pct(0.99),
        *samples.last().unwrap() as f64 / 1000.0
    );
}

/// `form` with every preview replaced by `lines` numbered lines of code.
fn with_previews(form: &Value, lines: usize) -> Value {
    let long: String = (1..=lines).map(|i| format!("{i:>7} | fn line_{i}() {{ work(); }}\n")).collect();
    let mut form = form.clone();
    for q in form["questions"].as_array_mut().unwrap() {
        if q["type"] == "preview" {
            for o in q["options"].as_array_mut().unwrap() {
                o["preview"] = Value::String(long.clone());
            }
        }
    }
    form
}

fn main() {
    let typical: Value = serde_json::from_str(&workload("form-typical.json")).unwrap();
    let stress: Value = serde_json::from_str(&workload("form-stress.json")).unwrap();
    run("typical (5 × 4)", &typical, "keys-typical-2000.txt");
    run("stress (50 × 200)", &stress, "keys-stress-2000.txt");
    run("typical, 20 000-line previews", &with_previews(&typical, 20_000), "keys-typical-2000.txt");
    // Issue 15.3: per-key cost independent of the preview's size.
    run("typical, 1 000 000-line previews", &with_previews(&typical, 1_000_000), "keys-typical-2000.txt");
    // Issue 15.3: per-key cost independent of the number of options (the view is a window).
    let options: Vec<Value> = (0..100_000)
        .map(|i| serde_json::json!({"value": format!("v{i}"), "label": format!("Option {i}"), "description": "about it"}))
        .collect();
    let mut wide_list = typical.clone();
    wide_list["questions"][0]["options"] = Value::Array(options);
    run("typical, 100 000 options on Q1", &wide_list, "keys-typical-2000.txt");
    // Per-key cost must not grow with text that is off screen (issue 14.4): one unbroken 10 MB
    // label on the first question.
    let mut wide = typical.clone();
    wide["questions"][0]["options"][0]["label"] = Value::String("x".repeat(10_000_000));
    run("typical, a 10 MB label", &wide, "keys-typical-2000.txt");
}
