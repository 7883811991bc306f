//! Start-up at scale (issue 15.2): one question of 10 000, 100 000 and 1 000 000 options (value,
//! label, description), a fresh store on disk each run, measured two ways:
//! - headless, `ask --script` of one key with `--frame-out`: the whole process — reading,
//!   validating, the opening commit, one key, the frame and exit; wall time (median, min, max)
//!   and peak RSS (`VmHWM`, sampled every millisecond while the process runs);
//! - in a pseudo-terminal at 80×24, as a person sees it: process start → the first frame on
//!   screen, then a Down key written at that moment → the screen showing it (that key waits for
//!   the opening commit, which runs beside the first frame); first ever starts (a fresh store,
//!   config file and log directory each) and later ones (one directory, holding the flows of
//!   the starts before).
//!
//! Run: `cargo bench -p ask-tests --bench startup_scale` (`STARTUP_SCALE_VARIED=1`: varied
//! text). Side by side with another build:
//! `ASK_BENCH_BIN=/path/to/old/ask-user cargo bench -p ask-tests --bench startup_scale`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod common;
#[path = "common/first_frame.rs"]
mod first_frame;

/// The peak resident set of `pid` in kB, as far as it has been seen.
fn watch_peak(pid: u32, peak: Arc<AtomicU64>) {
    std::thread::spawn(move || {
        while let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            let hwm = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            match hwm {
                Some(kb) => {
                    peak.fetch_max(kb, Ordering::Relaxed);
                }
                None => return, // a zombie has no memory left to report
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

fn run(bin: &Path, dir: &Path, file: &Path) -> (Duration, u64) {
    let store = dir.join("s.redb");
    let _ = std::fs::remove_file(&store);
    let peak = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let mut child = Command::new(bin)
        .args(["ask", "--store"])
        .arg(&store)
        .arg("--script")
        .arg(dir.join("keys.txt"))
        .arg("--frame-out")
        .arg(dir.join("frame.txt"))
        .arg(file)
        .env("ASK_USER_CONFIG", dir.join("c.json"))
        .env("ASK_LOG_DIR", dir.join("logs"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    watch_peak(child.id(), peak.clone());
    child.wait().unwrap();
    let took = start.elapsed();
    let frame = std::fs::read_to_string(dir.join("frame.txt")).unwrap();
    assert!(frame.contains("Pick one"), "the first frame shows the form:\n{frame}");
    (took, peak.load(Ordering::Relaxed))
}

/// This process's resident memory in kB.
fn own_resident_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).unwrap();
    line.trim().trim_end_matches("kB").trim().parse().unwrap()
}

fn main() {
    let (_, bin) = common::release_binary();
    // `STARTUP_SCALE_VARIED=1`: text that compresses like real text (the store packs large rows).
    let sample_text = if std::env::var("STARTUP_SCALE_VARIED").is_ok_and(|v| v == "1") {
        ask_schema::sample::SampleText::Varied
    } else {
        ask_schema::sample::SampleText::Repeated
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keys.txt"), "down\n").unwrap();
    for (n, runs) in [(10_000, 15), (100_000, 9), (1_000_000, 5)] {
        let file = dir.path().join(format!("p{n}.json"));
        // The payload is not kept (and `options_payload` makes it without a JSON tree): the PTY
        // spawn forks this process, and a fork copies the page tables of all the memory it
        // holds. Holding a million options' freed tree (1.1 GB resident) put 40-55 ms between
        // the spawn and ask-user's `main`, timed as its start-up; 2-3 ms now.
        let payload_bytes = {
            let text = ask_schema::sample::options_payload(n, sample_text);
            std::fs::write(&file, &text).unwrap();
            text.len()
        };
        let mut times = Vec::new();
        let mut peak = 0;
        for _ in 0..runs {
            let (took, kb) = run(&bin, dir.path(), &file);
            times.push(took);
            peak = peak.max(kb);
        }
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{n:>9} options ({:>5.1} MB): to first frame median {:>7.1} ms, min {:>7.1}, max {:>7.1} ({runs} runs); peak RSS {} MB",
            payload_bytes as f64 / 1e6,
            ms(times[runs / 2]),
            ms(times[0]),
            ms(times[runs - 1]),
            peak / 1024,
        );
        let own = own_resident_kb();
        assert!(own < 64 * 1024, "this bench holds {own} kB: its forks would be timed as start-up");
        for (kind, later) in [("first ever", false), ("later", true)] {
            let limit = Duration::from_secs(60);
            let (mut frames, mut keys) = first_frame::starts(&bin, &file, "Pick one", limit, runs, later);
            let (frame, frame_p90, frame_min) = first_frame::summary(&mut frames);
            let (key, key_p90, key_min) = first_frame::summary(&mut keys);
            println!(
                "{n:>9} options in a terminal, {kind:>10} starts: first frame median {frame:>7.1} ms, p90 {frame_p90:>7.1}, \
                 min {frame_min:>7.1}; then the first key median {key:>7.1} ms, p90 {key_p90:>7.1}, min {key_min:>7.1}"
            );
        }
    }
}
