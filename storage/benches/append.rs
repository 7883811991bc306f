//! Durable append latency: one committed (fsynced) redb transaction per key, as a live flow
//! writes them. Run: `cargo bench -p ask-storage --bench append`. Prints p50/p99/max over
//! 10 000 keys; the target is p99 ≤ 1 ms.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::time::Instant;

use ask_engine::{Event, KeyPress};
use ask_storage::{FlowRecord, Store};

fn main() {
    let dir = tempfile::tempdir_in(std::env::var_os("ASK_BENCH_DIR").unwrap_or_else(|| ".".into())).unwrap();
    let store = Store::open(&dir.path().join("bench.redb")).unwrap();
    store
        .create_flow(
            &FlowRecord { id: "bench".into(), command: "ask".into(), session: "b".into(), created_ms: 0 },
            &Event::key(KeyPress::parse("down").unwrap()),
        )
        .unwrap();
    let keys = ["down", "space", "enter", "tab", "n", "x", "backspace", "shift+n"]
        .map(|k| Event::key(KeyPress::parse(k).unwrap()));
    let n = 10_000;
    let mut lat = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        store.append("bench", &keys[i % keys.len()]).unwrap();
        lat.push(t.elapsed().as_micros() as u64);
    }
    lat.sort_unstable();
    let pct = |p: f64| lat[((n as f64 - 1.0) * p) as usize];
    println!(
        "durable append, {n} keys: p50 {} µs, p90 {} µs, p99 {} µs, max {} µs, mean {} µs",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        lat[n - 1],
        lat.iter().sum::<u64>() / n as u64
    );
}
