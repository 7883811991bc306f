//! Times a form's start in a pseudo-terminal the way a person sees it: process start → the first
//! frame on the emulated 80×24 screen, then a key written at that moment → its effect on screen
//! (the first key waits for the opening commit when that runs beside the first frame).
//!
//! Two kinds of start: the first ever (a fresh directory: the store, the config file and the log
//! directory are created on the way) and a later one (`Home::Kept`: they are there from the runs
//! before, and the store holds those runs' flows) — what a person sees from the second form on.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// Where a start keeps its store, config file and logs.
pub enum Home<'a> {
    /// A new directory: nothing there yet.
    Fresh,
    /// This directory, as earlier starts left it.
    Kept(&'a Path),
}

/// One start of `bin ask payload` in `home`: (to the first frame, first key → screen). The
/// first frame is the one showing `marker`; the key is Down.
pub fn start_and_first_key(
    bin: &Path,
    payload: &Path,
    marker: &str,
    limit: Duration,
    home: Home,
) -> (Duration, Duration) {
    let fresh = tempfile::tempdir().unwrap();
    let dir = match home {
        Home::Fresh => fresh.path(),
        Home::Kept(dir) => dir,
    };
    let pair =
        native_pty_system().openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 }).unwrap();
    let mut cmd = CommandBuilder::new(bin);
    cmd.args(["ask".as_ref(), payload.as_os_str()]);
    cmd.env("ASK_USER_STORE", dir.join("s.redb"));
    cmd.env("ASK_USER_CONFIG", dir.join("c.json"));
    cmd.env("ASK_LOG_DIR", dir.join("logs"));
    cmd.env("ASK_USER_KEYBOARD_PROBE", "0");
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let start = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    let mut parser = vt100::Parser::new(NonZeroU16::new(24).unwrap(), NonZeroU16::new(80).unwrap(), 0);
    let mut buf = vec![0u8; 1 << 16];
    let mut read_until = |parser: &mut vt100::Parser, done: &dyn Fn(&str) -> bool| loop {
        let n = reader.read(&mut buf).unwrap();
        parser.process(&buf[..n]);
        if done(&parser.screen().contents()) {
            return;
        }
        assert!(start.elapsed() < limit, "nothing on screen in {limit:?}");
    };
    read_until(&mut parser, &|screen| screen.contains(marker));
    let first_frame = start.elapsed();
    let shown = parser.screen().contents();
    let pressed = Instant::now();
    writer.write_all(b"\x1b[B").unwrap();
    read_until(&mut parser, &|screen| screen != shown);
    let first_key = pressed.elapsed();
    writer.write_all(b"\x03").unwrap();
    child.wait().unwrap();
    (first_frame, first_key)
}

/// Median, p90 and min of `samples`, in milliseconds.
pub fn summary(samples: &mut [Duration]) -> (f64, f64, f64) {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let n = samples.len();
    (ms(samples[n / 2]), ms(samples[(n * 9 / 10).min(n - 1)]), ms(samples[0]))
}

/// `runs` timed starts, each in a fresh directory or (`later`) all in one directory that an
/// untimed start has set up first: (first frames, first keys).
pub fn starts(
    bin: &Path,
    payload: &Path,
    marker: &str,
    limit: Duration,
    runs: usize,
    later: bool,
) -> (Vec<Duration>, Vec<Duration>) {
    let kept = tempfile::tempdir().unwrap();
    let home = || if later { Home::Kept(kept.path()) } else { Home::Fresh };
    if later {
        start_and_first_key(bin, payload, marker, limit, home());
    }
    (0..runs).map(|_| start_and_first_key(bin, payload, marker, limit, home())).unzip()
}
