//! Process start → first frame: spawns the release `ask-user ask` in a pseudo-terminal and times
//! until the prompt is on screen. Run: `cargo bench -p ask-tests --bench startup` (it builds the
//! release binary first). Each run uses a fresh store, so its creation is included.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

mod common;

fn main() {
    let (root, bin) = common::release_binary();
    let payload = root.join("examples/project-setup.json");
    let mut samples = Vec::new();
    for _ in 0..30 {
        let dir = tempfile::tempdir().unwrap();
        let pair = native_pty_system()
            .openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 })
            .unwrap();
        let mut cmd = CommandBuilder::new(&bin);
        cmd.args(["ask".as_ref(), payload.as_os_str()]);
        cmd.env("ASK_USER_STORE", dir.path().join("s.redb"));
        cmd.env("ASK_USER_CONFIG", dir.path().join("c.json"));
        cmd.env("ASK_LOG_DIR", dir.path().join("logs"));
        cmd.env("ASK_USER_KEYBOARD_PROBE", "0");
        let mut reader = pair.master.try_clone_reader().unwrap();
        let mut writer = pair.master.take_writer().unwrap();
        let start = Instant::now();
        let mut child = pair.slave.spawn_command(cmd).unwrap();
        let mut parser = vt100::Parser::new(NonZeroU16::new(24).unwrap(), NonZeroU16::new(80).unwrap(), 0);
        let mut buf = [0u8; 4096];
        loop {
            let n = reader.read(&mut buf).unwrap();
            parser.process(&buf[..n]);
            if parser.screen().contents().contains("Which language") {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(5), "no first frame");
        }
        samples.push(start.elapsed());
        writer.write_all(b"\x03").unwrap();
        child.wait().unwrap();
    }
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "process start → first frame, {} runs: median {:.1} ms, p90 {:.1} ms, min {:.1} ms",
        samples.len(),
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() * 9 / 10]),
        ms(samples[0])
    );
}
