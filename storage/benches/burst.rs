//! Group commit on a large state (issue 15.1, 15.3): the shared workload's 100 000-key scripts
//! pushed through `DurableFlow::push_all` in bursts of 16 keys (a paste without bracketed
//! paste, key repeat), on a store in memory so what is timed is the flow's own work per burst —
//! the fold, the grouping, the commit's encoding and redb's in-memory transaction — not the disk.
//! When a script completes its flow, a fresh one is opened and the pushing goes on.
//!
//! Run: `cargo bench -p ask-storage --bench burst`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::path::PathBuf;
use std::time::Instant;

use ask_engine::{Event, Settings, parse_script};
use ask_schema::{FormSource, validate_text};
use ask_storage::{DurableFlow, FlowRecord, Store};

const BURST: usize = 16;

fn workload(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bench/workload").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn main() {
    for (name, form, keys) in [
        ("typical (5 × 4)", "form-typical.json", "keys-typical-100000.txt"),
        ("stress (50 × 200)", "form-stress.json", "keys-stress-100000.txt"),
    ] {
        let form = validate_text(&workload(form), FormSource::Tool).unwrap();
        let opened = Event::opened(form);
        let settings = Settings::default();
        let events: Vec<Event> = parse_script(&workload(keys))
            .unwrap()
            .iter()
            .flat_map(|s| s.events(&settings).unwrap())
            .collect();
        let store = Store::with_backend(
            redb::backends::InMemoryBackend::new(),
            "memory",
            redb::ConcurrencyMode::ExclusiveWriter,
        )
        .unwrap();
        let (mut flows, mut at, mut times) = (0, 0, Vec::new());
        let mut flow = None;
        while at < events.len() {
            let live = flow.get_or_insert_with(|| {
                flows += 1;
                let record = FlowRecord::new(format!("f{flows}"), "ask", "b", 0);
                DurableFlow::start(&store, &record, opened.clone()).unwrap()
            });
            let burst = &events[at..(at + BURST).min(events.len())];
            let start = Instant::now();
            let pushed = live.push_all(burst).unwrap();
            times.push(start.elapsed().as_micros() as u64);
            if live.state().outcome().is_some() {
                flow = None;
            }
            // Keys after a completion went to no flow; they start the next one.
            at += pushed.max(1);
        }
        times.sort_unstable();
        let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
        println!(
            "{name:<18} {} bursts of {BURST} keys ({flows} flows): p50 {} µs, p90 {} µs, p99 {} µs, max {} µs",
            times.len(),
            at(0.5),
            at(0.9),
            at(0.99),
            times.last().unwrap(),
        );
    }
}
