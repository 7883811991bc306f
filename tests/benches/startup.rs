//! Process start → first frame: spawns the release `ask-user ask` in a pseudo-terminal and times
//! until the prompt is on screen, then a Down key written at that moment until it shows. Run:
//! `cargo bench -p ask-tests --bench startup` (it builds the release binary first). First ever
//! starts (a fresh store, config file and log directory each, so their creation is included),
//! then later starts (all in one directory, as the runs before left it), then later starts on a
//! store holding six flows of a 100 000-option form: the store's integrity check on open grows
//! with what it holds, and runs beside the first frame, so it shows in the first key.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use ask_schema::sample::SampleText;
use first_frame::Home;

mod common;
#[path = "common/first_frame.rs"]
mod first_frame;

/// A directory whose store (named as [`first_frame`] names it) holds `flows` cancelled flows of
/// a one-question form of `options` options.
fn home_with_large_flows(bin: &Path, options: usize, flows: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("large.json");
    std::fs::write(&payload, ask_schema::sample::options_payload(options, SampleText::Varied)).unwrap();
    std::fs::write(dir.path().join("esc.txt"), "esc\n").unwrap();
    for _ in 0..flows {
        let status = Command::new(bin)
            .args(["ask", "--script"])
            .arg(dir.path().join("esc.txt"))
            .arg(&payload)
            .env("ASK_USER_STORE", dir.path().join("s.redb"))
            .env("ASK_USER_CONFIG", dir.path().join("c.json"))
            .env("ASK_LOG_DIR", dir.path().join("logs"))
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1), "a cancelled flow");
    }
    dir
}

fn main() {
    let (root, bin) = common::release_binary();
    let payload = root.join("examples/project-setup.json");
    let large = home_with_large_flows(&bin, 100_000, 6);
    let store_mb = std::fs::metadata(large.path().join("s.redb")).unwrap().len() as f64 / 1e6;
    let on_large = format!("later starts, a {store_mb:.0} MB store");
    let limit = Duration::from_secs(5);
    let marker = "Which language";
    let starts = |later| first_frame::starts(&bin, &payload, marker, limit, 30, later);
    let on_large_store = (0..30)
        .map(|_| first_frame::start_and_first_key(&bin, &payload, marker, limit, Home::Kept(large.path())))
        .unzip();
    for (kind, (mut frames, mut keys)) in [
        ("first ever starts", starts(false)),
        ("later starts", starts(true)),
        (on_large.as_str(), on_large_store),
    ] {
        let (median, p90, min) = first_frame::summary(&mut frames);
        println!(
            "{kind}: process start → first frame, {} runs: median {median:.1} ms, p90 {p90:.1} ms, min {min:.1} ms",
            frames.len()
        );
        let (median, p90, min) = first_frame::summary(&mut keys);
        println!(
            "{kind}: then the first key → screen: median {median:.2} ms, p90 {p90:.2} ms, min {min:.2} ms"
        );
    }
}
