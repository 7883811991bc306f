//! Reading back a flow opened on a large form (issue 15.4): what `resume`, `replay`, `attach`,
//! `wait` and `log list` do with it before anything else — open the store, read the flow's
//! events (the opening event holds the whole form, packed), decode them, fold. One question of
//! 100 000 and of 1 000 000 options (value, label, description), on the local disk. Run:
//! `cargo bench -p ask-storage --bench large_form` (`ASK_BENCH_DIR`: another disk).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::time::Instant;

use ask_engine::{Event, FlowState};
use ask_schema::FormSource;
use ask_schema::sample::{SampleText, options_payload};
use ask_storage::{FlowRecord, Store};

fn main() {
    let dir = tempfile::tempdir_in(std::env::var_os("ASK_BENCH_DIR").unwrap_or_else(|| ".".into())).unwrap();
    for (n, runs) in [(100_000, 15), (1_000_000, 5)] {
        let path = dir.path().join(format!("f{n}.redb"));
        {
            let form =
                ask_schema::validate_text(&options_payload(n, SampleText::Varied), FormSource::Tool).unwrap();
            let opened = Event::opened(form);
            let store = Store::open(&path).unwrap();
            store.open_flow(&FlowRecord::new("large", "ask", "b", 0), &opened, None).unwrap();
        }
        let mut times: Vec<u64> = (0..runs)
            .map(|_| {
                let t = Instant::now();
                let store = Store::open(&path).unwrap();
                let events = store.events("large").unwrap();
                let state = FlowState::replay(&events);
                let took = t.elapsed().as_micros() as u64;
                assert!(state.is_opened());
                took
            })
            .collect();
        times.sort_unstable();
        println!(
            "{n:>9} options ({:>6} KiB store): open + read + decode + fold, {runs} runs: median {:>6.1} ms, min {:>6.1}, max {:>6.1}",
            std::fs::metadata(&path).unwrap().len() / 1024,
            times[runs / 2] as f64 / 1e3,
            times[0] as f64 / 1e3,
            times[runs - 1] as f64 / 1e3,
        );
    }
}
