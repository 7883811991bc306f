//! Fold throughput over the shared workload: 100 000-key scripts on the typical and stress forms.
//!
//! Run: `cargo bench -p ask-engine --bench fold`. Divan reports time per pass over the whole
//! script and keys per second; ns per key = 1e9 / (keys per second).
//!
//! The scripts were generated so the reference's flow never completes; under our decisions
//! (e.g. D12's second Esc) a flow may complete early. Then, as a host would, we open a fresh
//! flow and keep folding, so every one of the 100 000 keys is folded and counted.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::path::PathBuf;

use ask_engine::{Event, FlowState, Settings, parse_script};
use ask_schema::{FormSource, validate_text};
use divan::counter::ItemsCount;

fn workload(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bench/workload").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

struct Workload {
    opened: FlowState,
    events: Vec<Event>,
}

fn load(form: &str, keys: &str) -> Workload {
    let form = validate_text(&workload(form), FormSource::Tool).expect("workload form is valid");
    let opened = Event::opened(form);
    let settings = Settings::default();
    let events: Vec<Event> = parse_script(&workload(keys))
        .expect("workload script parses")
        .iter()
        .flat_map(|s| s.events(&settings).expect("no set steps"))
        .collect();
    Workload { opened: FlowState::replay([&opened]), events }
}

/// Folds every event, reopening a fresh flow after each completion; returns completions.
fn fold_all(w: &Workload) -> usize {
    let mut state = w.opened.clone();
    let mut completions = 0;
    for e in &w.events {
        if state.apply(e).completed.is_some() {
            completions += 1;
            state = w.opened.clone();
        }
    }
    completions
}

fn bench(bencher: divan::Bencher, form: &str, keys: &str) {
    let w = load(form, keys);
    eprintln!("{keys}: {} key events, {} completions per pass", w.events.len(), fold_all(&w));
    bencher.counter(ItemsCount::new(w.events.len())).bench(|| divan::black_box(fold_all(&w)));
}

#[divan::bench(sample_count = 20)]
fn typical_100k(bencher: divan::Bencher) {
    bench(bencher, "form-typical.json", "keys-typical-100000.txt");
}

#[divan::bench(sample_count = 20)]
fn stress_100k(bencher: divan::Bencher) {
    bench(bencher, "form-stress.json", "keys-stress-100000.txt");
}

fn main() {
    divan::main();
}
