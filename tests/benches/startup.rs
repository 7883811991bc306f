//! Process start → first frame: spawns the release `ask-user ask` in a pseudo-terminal and times
//! until the prompt is on screen, then a Down key written at that moment until it shows. Run:
//! `cargo bench -p ask-tests --bench startup` (it builds the release binary first). First ever
//! starts (a fresh store, config file and log directory each, so their creation is included),
//! then later starts (all in one directory, as the runs before left it).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::time::Duration;

mod common;
#[path = "common/first_frame.rs"]
mod first_frame;

fn main() {
    let (root, bin) = common::release_binary();
    let payload = root.join("examples/project-setup.json");
    for (kind, later) in [("first ever starts", false), ("later starts", true)] {
        let (mut frames, mut keys) =
            first_frame::starts(&bin, &payload, "Which language", Duration::from_secs(5), 30, later);
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
