//! Key → screen through a real pseudo-terminal (issue 15.1): the release `ask-user ask` on the
//! shared workload forms at 80×24, the store on the local disk, the 2 000-key scripts sent one
//! key at a time; for each key, the time from writing it to the first bytes of the screen
//! update arriving. A program that only echoes (`cat` in raw mode) is timed the same way in
//! the same run, as the floor. Keys that change nothing on screen are counted, not timed. When
//! a script ends the form (a second Esc, a review shortcut), a fresh process carries on, as a
//! host would.
//!
//! Then bursts: 16, 32 and 64 characters written to the terminal in one write (a paste
//! without bracketed paste, key repeat), timed until all of them are on screen — what group
//! commit is for.
//!
//! Then the scale sizes: 500 questions × 2 000 options, and previews of 1 000, 100 000 and
//! 1 000 000 lines, 400 keys each.
//!
//! Then at a person's pace: the first 300 keys of the typical script (and the echo floor), one
//! every 100 ms, as a fast typist sends them. Above, a key follows as soon as the last one's
//! frame has settled (4 ms of quiet); this machine's disk syncs slower after it has been idle,
//! so that pace flatters the durable commit.
//!
//! Run: `cargo bench -p ask-tests --bench keyscreen` (it builds the release binary first;
//! `KEYSCREEN_ONLY=keys|scale|burst|paced` runs one part, `ASK_BENCH_BIN` measures another build,
//! `KEYSCREEN_SLOWEST=N` lists each script's N slowest keys).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, PtySize, native_pty_system};

struct Session {
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    arrivals: Receiver<Instant>,
    /// Set when the program has left the alternate screen: its form has ended.
    leaving: Arc<AtomicBool>,
}

impl Session {
    fn spawn(cmd: CommandBuilder, ready: &str) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 })
            .unwrap();
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let child = pair.slave.spawn_command(cmd).unwrap();
        let (send, arrivals) = channel();
        let (screen_send, screen) = channel();
        let leaving = Arc::new(AtomicBool::new(false));
        let left = leaving.clone();
        std::thread::spawn(move || {
            let _master = pair.master; // kept open while the reader runs
            let mut parser = vt100::Parser::new(24.try_into().unwrap(), 80.try_into().unwrap(), 0);
            let mut buf = [0u8; 65536];
            let mut seen = false;
            let mut watch = terminal::LeaveWatch::default();
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if watch.left_in(&buf[..n]) {
                    left.store(true, Ordering::SeqCst);
                }
                let _ = send.send(Instant::now());
                if !seen {
                    parser.process(&buf[..n]);
                    if screen_send.send(parser.screen().contents()).is_err() {
                        seen = true;
                    }
                }
            }
        });
        let start = Instant::now();
        loop {
            let contents = screen.recv_timeout(Duration::from_secs(60)).expect("a first frame");
            if contents.contains(ready) {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "no first frame");
        }
        drop(screen);
        let mut s = Session { child, writer, arrivals, leaving };
        s.settle();
        s
    }

    /// Waits until nothing has arrived for a while, then forgets what did.
    fn settle(&mut self) {
        while self.arrivals.recv_timeout(Duration::from_millis(30)).is_ok() {}
    }

    /// Sends a key; the time until output arrives, or `None` when nothing changed on screen.
    fn key(&mut self, bytes: &[u8]) -> Option<Duration> {
        let start = Instant::now();
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
        let first = match self.arrivals.recv_timeout(Duration::from_millis(150)) {
            Ok(at) => Some(at.saturating_duration_since(start)),
            Err(RecvTimeoutError::Timeout) => None,
            // The program closed the terminal: it is ending. Wait until it has, or the keys that
            // follow would all be sent into a closed terminal before a fresh one starts.
            Err(RecvTimeoutError::Disconnected) => {
                let _ = self.child.wait();
                None
            }
        };
        // Let the rest of the frame arrive before the next key.
        while self.arrivals.recv_timeout(Duration::from_millis(4)).is_ok() {}
        // A key that ended the form: the next goes to a fresh process, not to this one while it
        // is still closing (which would lose it, and run the rest of the script from elsewhere).
        if self.leaving.load(Ordering::SeqCst) {
            let _ = self.child.wait();
        }
        first
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

fn ask(bin: &Path, form: &Path, dir: &Path) -> CommandBuilder {
    let mut cmd = CommandBuilder::new(bin);
    cmd.args(["ask".as_ref(), form.as_os_str()]);
    terminal::ask_user_env(&mut cmd, dir);
    cmd
}

fn report(name: &str, mut samples: Vec<Duration>, unchanged: usize, restarts: usize) {
    println!(
        "{name:<28} {:>5} keys timed: {}  ({unchanged} changed nothing, {restarts} restarts)",
        samples.len(),
        timing::spread(&mut samples)
    );
}

/// The floor: a program that only echoes each key back, sent the typical script's first
/// `take` lines, `pace` apart.
fn echo_floor(bench: &Path, name: &str, take: usize, pace: Duration) {
    let mut echo = CommandBuilder::new("sh");
    echo.args(["-c", "stty raw -echo; echo ready; exec cat"]);
    let mut floor = Session::spawn(echo, "ready");
    let keys = script_keys(bench, "keys-typical-2000.txt", take);
    // cat echoes ESC, but a lone ESC then waits for more bytes.
    let samples: Vec<Duration> = keys
        .iter()
        .filter(|k| k.as_slice() != b"\x1b")
        .filter_map(|k| {
            std::thread::sleep(pace);
            floor.key(k)
        })
        .collect();
    report(name, samples, 0, 0);
    let _ = floor.child.kill();
}

/// The echo floor, then the 2 000-key scripts sent one key at a time.
fn keys_one_at_a_time(bin: &Path, bench: &Path, scratch: &Path) {
    echo_floor(bench, "echo only (floor)", usize::MAX, Duration::ZERO);
    for (name, form, script) in [
        ("typical (5 × 4)", "form-typical.json", "keys-typical-2000.txt"),
        ("stress (50 × 200)", "form-stress.json", "keys-stress-2000.txt"),
    ] {
        let keys = script_keys(bench, script, usize::MAX);
        run_script(bin, name, &bench.join(form), &keys, scratch, Duration::ZERO);
    }
}

/// The typical script's first 300 keys and the echo floor, one key every 100 ms.
fn keys_at_a_persons_pace(bin: &Path, bench: &Path, scratch: &Path) {
    const PACE: Duration = Duration::from_millis(100);
    echo_floor(bench, "echo only, 100 ms apart", 300, PACE);
    let keys = script_keys(bench, "keys-typical-2000.txt", 300);
    run_script(bin, "typical, 100 ms apart", &bench.join("form-typical.json"), &keys, scratch, PACE);
}

/// Sends `keys` one at a time, `pace` apart, to `ask-user ask form`, starting a fresh process
/// whenever the script ends the form, and reports the key → screen times.
fn run_script(bin: &Path, name: &str, form: &Path, keys: &[Vec<u8>], scratch: &Path, pace: Duration) {
    let dir = tempfile::tempdir_in(scratch).unwrap();
    let ready = |s: &mut Option<Session>| {
        if s.as_mut().is_none_or(|s| !s.running()) {
            *s = Some(Session::spawn(ask(bin, form, dir.path()), "│"));
            true
        } else {
            false
        }
    };
    let (mut session, mut samples, mut unchanged, mut restarts) = (None, Vec::new(), 0, 0);
    let mut timed = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        if ready(&mut session) {
            restarts += 1;
        }
        std::thread::sleep(pace);
        match session.as_mut().unwrap().key(key) {
            Some(d) => {
                samples.push(d);
                timed.push((d, i));
            }
            None => unchanged += 1,
        }
    }
    report(name, samples, unchanged, restarts - 1);
    timing::print_slowest("KEYSCREEN_SLOWEST", timed, keys);
    if let Some(mut s) = session {
        let _ = s.child.kill();
    }
}

/// The forms at the scale sizes of issue 15 (see [`scale::forms`]), each driven by the first
/// 400 keys of its script: the time per key must not grow with the size.
fn scale(bin: &Path, bench: &Path, scratch: &Path) {
    for (name, form, script) in scale::forms(bench, scratch) {
        let keys = script_keys(bench, script, 400);
        run_script(bin, &name, &form, &keys, scratch, Duration::ZERO);
    }
}

/// A burst: `text` written to the terminal in one write (a paste without bracketed paste, key
/// repeat, keys typed faster than they travel), timed until all of it is on screen. `text` is
/// typed into an option note, one event per character.
fn burst(bin: &Path, form: &Path, dir: &Path, text: &str) -> Duration {
    let pair =
        native_pty_system().openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 }).unwrap();
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let mut child = pair.slave.spawn_command(ask(bin, form, dir)).unwrap();
    let (send, screens) = channel::<(Instant, String)>();
    std::thread::spawn(move || {
        let _master = pair.master;
        let mut parser = vt100::Parser::new(24.try_into().unwrap(), 80.try_into().unwrap(), 0);
        let mut buf = [0u8; 65536];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            parser.process(&buf[..n]);
            if send.send((Instant::now(), parser.screen().contents())).is_err() {
                break;
            }
        }
    });
    let wait_for = |what: &str| loop {
        let (at, contents) = screens.recv_timeout(Duration::from_secs(10)).expect("the screen");
        if contents.contains(what) {
            return at;
        }
    };
    wait_for("│");
    writer.write_all(b"n").unwrap();
    wait_for("Option note:");
    let start = Instant::now();
    writer.write_all(text.as_bytes()).unwrap();
    writer.flush().unwrap();
    let done = wait_for(text).saturating_duration_since(start);
    let _ = child.kill();
    done
}

mod common;
#[path = "common/keys.rs"]
mod keys;
#[path = "common/scale.rs"]
mod scale;
#[path = "common/terminal.rs"]
mod terminal;
#[path = "common/timing.rs"]
mod timing;
use keys::script_keys;

fn main() {
    let (root, bin) = common::release_binary();
    let bench = root.join("bench/workload");
    // The store on the local disk, not a tmpfs: the durable commit is part of the measure.
    // `KEYSCREEN_DIR=/dev/shm` puts it in memory, to see what the commit costs.
    let scratch =
        std::env::var_os("KEYSCREEN_DIR").map_or_else(|| root.join("target/keyscreen"), PathBuf::from);
    std::fs::create_dir_all(&scratch).unwrap();

    // `KEYSCREEN_ONLY=burst` (or `scale`) runs only that part.
    let only = std::env::var("KEYSCREEN_ONLY").ok();
    let runs = |part: &str| only.as_deref().is_none_or(|o| o == part);
    if runs("keys") {
        keys_one_at_a_time(&bin, &bench, &scratch);
    }
    if runs("scale") {
        scale(&bin, &bench, &scratch);
    }
    if runs("paced") {
        keys_at_a_persons_pace(&bin, &bench, &scratch);
    }
    if !runs("burst") {
        return;
    }

    let form = bench.join("form-typical.json");
    for len in [16, 32, 64] {
        let text: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let mut runs: Vec<Duration> = (0..20)
            .map(|_| burst(&bin, &form, tempfile::tempdir_in(&scratch).unwrap().path(), &text))
            .collect();
        runs.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "burst of {len:>3} keys in one write, until all on screen: median {:>7.3} ms  max {:>7.3} ms  (20 runs)",
            ms(runs[runs.len() / 2]),
            ms(runs[runs.len() - 1]),
        );
    }
}
