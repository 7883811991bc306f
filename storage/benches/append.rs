//! Durable append latency, side by side with the disk's own sync cost, and resume of a long
//! flow. Run: `cargo bench -p ask-storage --bench append` (set `ASK_BENCH_DIR` to measure
//! another disk; the default is the current directory).
//!
//! 1. A bare 4 KiB write + `fdatasync` on a file in the same directory: the floor any durable
//!    commit pays.
//! 2. The write pattern of one such commit without redb (nine scattered pages, sync, header,
//!    sync): what the disk alone charges for it.
//! 3. `Store::append` as a live flow writes (multi-writer mode, `Durability::Immediate`).
//! 4. The same appends on redb's own `FileBackend` in multi-writer mode, which asks the file's
//!    length with `statx` (the store's backend uses `lseek`: see `storage/src/store/backend.rs`),
//!    and in the exclusive-writer mode the store used before; the three stores take turns.
//! 5. `Store::events` + fold of a flow with 100 000 events (what `ask-user resume` does).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Instant;

use ask_engine::{Event, FlowState, KeyPress};
use ask_schema::{FormSource, validate};
use ask_storage::{FlowRecord, Store};

const N: usize = 5_000;

fn summary(name: &str, mut lat: Vec<u64>) {
    lat.sort_unstable();
    let n = lat.len();
    let pct = |p: f64| lat[((n as f64 - 1.0) * p) as usize];
    println!(
        "{name:<34} n={n}: p50 {} µs, p90 {} µs, p99 {} µs, max {} µs",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        lat[n - 1]
    );
}

fn keys() -> [Event; 8] {
    ["down", "space", "enter", "tab", "n", "x", "backspace", "shift+n"]
        .map(|k| Event::key(KeyPress::parse(k).unwrap()))
}

fn opened() -> Event {
    let raw = serde_json::json!({"questions": [{"id": "q", "prompt": "P?", "type": "multi",
        "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]}]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    Event::opened(form)
}

fn fdatasync_probe(dir: &Path) -> Vec<u64> {
    let mut file = std::fs::File::create(dir.join("probe")).unwrap();
    let page = [7u8; 4096];
    (0..N)
        .map(|i| {
            let t = Instant::now();
            file.seek(SeekFrom::Start((i % 64) as u64 * 4096)).unwrap();
            file.write_all(&page).unwrap();
            file.sync_data().unwrap();
            t.elapsed().as_micros() as u64
        })
        .collect()
}

/// The write pattern of one redb commit in multi-writer mode, without redb: nine 4 KiB pages at
/// scattered places in a small file (an `strace` of one append shows redb writing nine: the
/// events table's leaf and branch, the table directory, the allocator state that this mode saves
/// on every commit, the freed-page trees), `fdatasync`, then the 320-byte header and a second
/// `fdatasync` (the two-phase commit a store several processes write must use). What separates
/// this from the bare sync is what the disk charges per scattered write.
fn commit_pattern_probe(dir: &Path) -> Vec<u64> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::create(dir.join("pattern")).unwrap();
    let page = [7u8; 4096];
    for p in 0..64 {
        file.write_all_at(&page, p * 4096).unwrap();
    }
    file.sync_all().unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    (0..N)
        .map(|_| {
            let mut pages = Vec::with_capacity(9);
            while pages.len() < 9 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let p = 1 + seed % 63;
                if !pages.contains(&p) {
                    pages.push(p);
                }
            }
            let t = Instant::now();
            for p in &pages {
                file.write_all_at(&page, p * 4096).unwrap();
            }
            file.sync_data().unwrap();
            file.write_all_at(&page[..320], 0).unwrap();
            file.sync_data().unwrap();
            t.elapsed().as_micros() as u64
        })
        .collect()
}

/// `N` appends on each store, in alternating rounds of a tenth each, so that both series see the
/// same hours of a disk whose speed drifts.
fn appends(stores: &[&Store]) -> Vec<Vec<u64>> {
    for store in stores {
        store.create_flow(&FlowRecord::new("bench", "ask", "b", 0), &opened()).unwrap();
    }
    let keys = keys();
    let mut lat = vec![Vec::with_capacity(N); stores.len()];
    for round in 0..10 {
        for (store, lat) in stores.iter().zip(&mut lat) {
            for i in round * N / 10..(round + 1) * N / 10 {
                let t = Instant::now();
                store.append("bench", &keys[i % keys.len()]).unwrap();
                lat.push(t.elapsed().as_micros() as u64);
            }
        }
    }
    lat
}

/// A store on redb's own `FileBackend`, created fresh in `dir`.
fn on_redbs_backend(dir: &Path, name: &str, mode: redb::ConcurrencyMode) -> Store {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(dir.join(name))
        .unwrap();
    Store::with_backend(redb::backends::FileBackend::new(file), name, mode).unwrap()
}

/// A 100 000-event flow written in one transaction (building it key by key would take minutes),
/// then read back and folded as resume does.
fn resume(dir: &Path) {
    let path = dir.join("long.redb");
    drop(Store::open(&path).unwrap());
    {
        let db = redb::Builder::new()
            .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
            .open(&path)
            .unwrap();
        let tx = db.begin_write().unwrap();
        {
            let record = serde_json::to_vec(&FlowRecord::new("long", "ask", "b", 0)).unwrap();
            tx.open_table(redb::TableDefinition::<&str, &[u8]>::new("flows"))
                .unwrap()
                .insert("long", record.as_slice())
                .unwrap();
            let mut events =
                tx.open_table(redb::TableDefinition::<(&str, u64), &[u8]>::new("events")).unwrap();
            events.insert(("long", 0), ask_storage::wire::encode(&opened()).unwrap().as_slice()).unwrap();
            let keys = keys();
            for i in 1..100_000u64 {
                let bytes = ask_storage::wire::encode(&keys[i as usize % keys.len()]).unwrap();
                events.insert(("long", i), bytes.as_slice()).unwrap();
            }
        }
        tx.commit().unwrap();
    }
    let mut opens = Vec::new();
    for _ in 0..10 {
        let t = Instant::now();
        drop(Store::open(&path).unwrap());
        opens.push(t.elapsed().as_micros() as u64);
    }
    opens.sort_unstable();
    println!(
        "open of that store ({} KiB, integrity check included), 10 runs: median {} ms",
        std::fs::metadata(&path).unwrap().len() / 1024,
        opens[5] / 1000
    );
    let mut times = Vec::new();
    for _ in 0..10 {
        let t = Instant::now();
        let store = Store::open(&path).unwrap();
        let events = store.events("long").unwrap();
        let state = FlowState::replay(&events);
        times.push(t.elapsed().as_micros() as u64);
        assert_eq!(events.len(), 100_000);
        assert!(state.is_opened());
    }
    times.sort_unstable();
    println!(
        "resume of a 100 000-event flow (open + read + decode + fold), 10 runs: median {} ms, max {} ms",
        times[5] / 1000,
        times[9] / 1000
    );
}

fn main() {
    let dir = tempfile::tempdir_in(std::env::var_os("ASK_BENCH_DIR").unwrap_or_else(|| ".".into())).unwrap();
    let probe = fdatasync_probe(dir.path());
    let pattern = commit_pattern_probe(dir.path());
    let store = Store::open(&dir.path().join("multi.redb")).unwrap();
    let statx = on_redbs_backend(dir.path(), "statx.redb", redb::ConcurrencyMode::MultiWriter);
    let exclusive = on_redbs_backend(dir.path(), "exclusive.redb", redb::ConcurrencyMode::ExclusiveWriter);
    let [multi, statx, exclusive] = <[_; 3]>::try_from(appends(&[&store, &statx, &exclusive])).unwrap();
    summary("bare 4 KiB write + fdatasync", probe);
    summary("9 pages + sync, header + sync", pattern);
    summary("append, multi-writer (now)", multi);
    summary("append, multi-writer, len by statx", statx);
    summary("append, exclusive-writer (before)", exclusive);
    resume(dir.path());
}
