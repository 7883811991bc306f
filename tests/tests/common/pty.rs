//! A pseudo-terminal harness: run a shell command on a PTY, feed it bytes, read the screen
//! through a vt100 emulator.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

use super::Sandbox;

type Writer = Arc<Mutex<Box<dyn Write + Send>>>;

pub struct Pty {
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    writer: Writer,
    master: Box<dyn MasterPty + Send>,
    pub child: Box<dyn Child + Send + Sync>,
}

fn size(cols: u16, rows: u16) -> PtySize {
    PtySize { rows, cols, pixel_width: 0, pixel_height: 0 }
}

impl Pty {
    /// `ask-user ask < p.json > out.json` on a `cols`×`rows` terminal, with `payload` as
    /// p.json and `env` added: the payload on stdin, the result on stdout, the form on the
    /// terminal. Returns once the screen shows `first`.
    pub fn ask(sb: &Sandbox, payload: &str, cols: u16, rows: u16, env: &[(&str, &str)], first: &str) -> Pty {
        sb.file("p.json", payload);
        let script = format!("exec '{}' ask < p.json > out.json", super::bin().display());
        let pty = Pty::spawn_with(sb, &script, cols, rows, env);
        pty.wait_for(first);
        pty
    }

    /// Runs `sh -c script` in the sandbox directory on a `cols`×`rows` terminal.
    pub fn spawn(sb: &Sandbox, script: &str, cols: u16, rows: u16) -> Pty {
        Pty::spawn_with(sb, script, cols, rows, &[])
    }

    /// Like [`Pty::spawn`], with extra environment variables.
    pub fn spawn_with(sb: &Sandbox, script: &str, cols: u16, rows: u16, env: &[(&str, &str)]) -> Pty {
        let mut cmd = CommandBuilder::new("sh");
        cmd.args(["-c", script]);
        Pty::spawn_command(sb, cmd, cols, rows, env)
    }

    /// Runs `cmd` (not through a shell) in the sandbox directory.
    pub fn spawn_command(
        sb: &Sandbox,
        mut cmd: CommandBuilder,
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Pty {
        let pair = native_pty_system().openpty(size(cols, rows)).unwrap();
        cmd.cwd(sb.dir.path());
        cmd.env("ASK_USER_STORE", sb.store());
        cmd.env("ASK_USER_CONFIG", sb.path("config.json"));
        cmd.env("ASK_LOG_DIR", sb.path("logs"));
        cmd.env("ASK_USER_KEYBOARD_PROBE", "0");
        cmd.env("TERM", "xterm-256color");
        // A test decides what terminal the program is in, not the one the tests were run from.
        cmd.env_remove("KITTY_WINDOW_ID");
        cmd.env_remove("TERM_PROGRAM");
        // Colours on whatever the machine running the tests says; a test turns them off.
        cmd.env("NO_COLOR", "");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(
            NonZeroU16::new(rows).unwrap(),
            NonZeroU16::new(cols).unwrap(),
            0,
        )));
        let mut reader = pair.master.try_clone_reader().unwrap();
        let sink = Arc::clone(&parser);
        let raw = Arc::new(Mutex::new(Vec::new()));
        let raw_sink = Arc::clone(&raw);
        let writer: Writer = Arc::new(Mutex::new(pair.master.take_writer().unwrap()));
        let answer = Arc::clone(&writer);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                raw_sink.lock().unwrap().extend_from_slice(&buf[..n]);
                sink.lock().unwrap().process(&buf[..n]);
                // A terminal answers a cursor-position query (pi's TUI asks one at start).
                if buf[..n].windows(4).any(|w| w == b"\x1b[6n") {
                    let mut w = answer.lock().unwrap();
                    let _ = w.write_all(b"\x1b[1;1R");
                    let _ = w.flush();
                }
            }
        });
        Pty { parser, raw, writer, master: pair.master, child }
    }

    /// Whether the program has written `bytes` to the terminal so far.
    pub fn wrote(&self, bytes: &[u8]) -> bool {
        self.raw.lock().unwrap().windows(bytes.len()).any(|w| w == bytes)
    }

    /// How many times the program has written `bytes` so far.
    pub fn count(&self, bytes: &[u8]) -> usize {
        self.raw.lock().unwrap().windows(bytes.len()).filter(|w| *w == bytes).count()
    }

    /// Types bytes into the terminal.
    pub fn send(&mut self, bytes: &str) {
        let mut writer = self.writer.lock().unwrap();
        writer.write_all(bytes.as_bytes()).unwrap();
        writer.flush().unwrap();
        drop(writer);
        std::thread::sleep(Duration::from_millis(60));
    }

    /// The screen's text now.
    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// The screen's text now, with each run of underlined text written `_text_`.
    pub fn underlined(&self) -> String {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        let (rows, cols) = screen.size();
        let mut out = String::new();
        for row in 0..rows.get() {
            let mut under = false;
            for col in 0..cols.get() {
                let Some(cell) = screen.cell(row, col) else { continue };
                if cell.underline() != under {
                    under = cell.underline();
                    out.push('_');
                }
                out.push_str(if cell.has_contents() { cell.contents() } else { " " });
            }
            if under {
                out.push('_');
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out
    }

    /// Waits until the screen shows `needle`; panics with the screen after 10 s.
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_for_within(needle, Duration::from_secs(10))
    }

    /// Waits until the screen shows `needle`; panics with the screen after `limit`.
    pub fn wait_for_within(&self, needle: &str, limit: Duration) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            assert!(start.elapsed() < limit, "timed out waiting for {needle:?}; screen:\n{screen}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Resizes the terminal (the program gets SIGWINCH).
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.master.resize(size(cols, rows)).unwrap();
        self.parser
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(NonZeroU16::new(rows).unwrap(), NonZeroU16::new(cols).unwrap());
    }

    /// Waits for the shell to exit and returns its exit code.
    pub fn wait_exit(&mut self) -> u32 {
        self.wait_exit_within(Duration::from_secs(10))
    }

    /// Waits up to `limit` for the program to exit and returns its exit code.
    pub fn wait_exit_within(&mut self, limit: Duration) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(Duration::from_millis(100)); // let the reader drain
                return status.exit_code();
            }
            assert!(start.elapsed() < limit, "still running; screen:\n{}", self.screen());
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Where the terminal's cursor is, (row, column), and whether it shows.
    pub fn cursor(&self) -> ((u16, u16), bool) {
        let p = self.parser.lock().unwrap();
        (p.screen().cursor_position(), !p.screen().hide_cursor())
    }

    /// Waits up to 5 s for `ok` to hold of the terminal; `what` names it if it does not.
    pub fn wait_until(&self, what: &str, ok: impl Fn(&Pty) -> bool) {
        super::wait_until(|| format!("{what}; screen:\n{}", self.screen()), || ok(self));
    }

    /// Once the review shows, submits with its double press (`1`, then `1` again).
    pub fn submit_on_the_review(&mut self) {
        self.wait_for("Ready to send?");
        self.send("1");
        self.wait_for("Press 1 again to Submit");
        self.send("1");
    }

    /// The terminal's device (`/dev/pts/N`), for writing to it as another program would.
    pub fn tty_name(&self) -> std::path::PathBuf {
        self.master.tty_name().expect("the pseudo-terminal has a name")
    }

    /// The terminal's line discipline settings, as `stty -a` prints them (raw mode shows as
    /// `-icanon -echo`).
    pub fn stty(&self) -> String {
        let tty = self.tty_name();
        let out = std::process::Command::new("stty").arg("-a").arg("-F").arg(&tty).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Once a script has run the form and then `echo "rc=$?" > rc; stty -a > stty.txt` in the
    /// sandbox: checks that the form left the terminal as it found it (cooked mode with echo; no
    /// alternate screen, paste mode or hidden cursor) and returns the status line (`rc=N`).
    pub fn ended_restored(&self, sb: &Sandbox) -> String {
        let stty = std::fs::read_to_string(sb.path("stty.txt")).unwrap();
        assert!(stty.contains(" icanon") && stty.contains(" echo "), "raw mode left on: {stty}");
        assert_eq!(self.modes(), (false, false, false), "alternate screen, paste mode and cursor restored");
        std::fs::read_to_string(sb.path("rc")).unwrap().trim().to_owned()
    }

    /// Terminal modes as the emulator sees them: (alternate screen, bracketed paste, cursor hidden).
    pub fn modes(&self) -> (bool, bool, bool) {
        let p = self.parser.lock().unwrap();
        let s = p.screen();
        (s.alternate_screen(), s.bracketed_paste(), s.hide_cursor())
    }
}

/// Sends `signal` (a name, `TERM`, `TSTP`, …) to process `pid`.
pub fn kill(signal: &str, pid: u32) {
    let status = std::process::Command::new("kill").args([&format!("-{signal}"), &pid.to_string()]).status();
    assert!(status.unwrap().success(), "kill -{signal} {pid}");
}

/// The process's state letter from /proc (`T` stopped, `S` sleeping, `R` running).
pub fn process_state(pid: u32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    stat.rsplit(") ").next().and_then(|rest| rest.chars().next()).unwrap()
}
