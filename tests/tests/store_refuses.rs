//! A store that refuses writes while a form is open (a full disk, here a file-size limit the
//! test raises again): the keys it refused are not applied, the form stays and says why, and
//! once the store takes writes again the person types on. Leaving still works while it
//! refuses, and nothing saved before is lost.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::process::Command;

use common::pty::Pty;
use common::{Sandbox, bin};

const ONE_QUESTION: &str = r#"{"questions":[{"id":"log","label":"Log","prompt":"Paste the failing log",
  "options":[{"value":"none","label":"No log"}]}]}"#;
/// Larger than the limit, and text the store's packing cannot shrink below it.
const PASTE_BYTES: usize = 1_500_000;
const LIMIT_BYTES: usize = 1_000_000;

/// The form under a file-size limit (SIGXFSZ ignored, so a write past it fails with EFBIG as
/// a full disk fails with ENOSPC), waiting at its first question.
fn limited(sb: &Sandbox) -> Pty {
    sb.file("p.json", ONE_QUESTION);
    let script = format!(
        "trap '' XFSZ; exec prlimit --fsize={LIMIT_BYTES}: -- '{}' ask p.json --id refused > out.json",
        bin().display()
    );
    let pty = Pty::spawn(sb, &script, 100, 30);
    pty.wait_for("Paste the failing log");
    pty
}

/// Letters from a fixed pseudo-random sequence: the same text each run, hard to compress.
fn noise(len: usize) -> String {
    let mut x: u32 = 0x2545_f491;
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if i % 80 == 79 { '\n' } else { char::from(b'a' + (x % 26) as u8) }
        })
        .collect()
}

fn paste(pty: &mut Pty, text: &str) {
    pty.send(&format!("\x1b[200~{text}\x1b[201~"));
}

/// Moves the store file away: the running form cannot open it again.
fn move_store_away(sb: &Sandbox) {
    std::fs::rename(sb.store(), sb.path("elsewhere.redb")).unwrap();
}

/// The run ended in one line (exit 5) with the terminal restored and no store made in place of
/// the one moved away; the file is put back. Returns the last screen and the flow's log.
fn ended_in_one_line(pty: &mut Pty, sb: &Sandbox) -> (String, String) {
    assert_eq!(pty.wait_exit(), 5);
    let screen = pty.screen();
    assert_eq!(pty.modes(), (false, false, false), "terminal restored");
    assert!(!sb.store().exists(), "no new store was made at the path");
    std::fs::rename(sb.path("elsewhere.redb"), sb.store()).unwrap();
    (screen, sb.run(&["log", "show", "refused"]).stdout)
}

fn pasted_events(sb: &Sandbox) -> usize {
    sb.run(&["log", "show", "refused"]).stdout.lines().filter(|l| l.contains("  paste ")).count()
}

#[test]
fn keys_the_store_refuses_are_not_applied_and_the_form_goes_on_once_it_takes_them() {
    let sb = Sandbox::new();
    let mut pty = limited(&sb);
    let text = noise(PASTE_BYTES);
    paste(&mut pty, &text);
    let screen = pty.wait_for("Not saved, so not applied");
    assert!(screen.replace('\n', " ").contains("File too large"), "the cause is named:\n{screen}");
    assert!(!screen.contains(&text[..40]), "the refused paste is not applied:\n{screen}");
    let pid = pty.child.process_id().unwrap().to_string();
    let raised = Command::new("prlimit").args(["--pid", &pid, "--fsize=unlimited:"]).status().unwrap();
    assert!(raised.success());
    paste(&mut pty, &text);
    let screen = pty.wait_for(&text[text.len() - 30..text.len() - 10]);
    assert!(!screen.contains("Not saved"), "the warning goes once a key is saved:\n{screen}");
    pty.send("\r");
    pty.wait_for("Ready to send?");
    pty.send("1");
    pty.send("1");
    assert_eq!(pty.wait_exit(), 0);
    assert_eq!(sb.out()["details"]["answers"]["log"]["customText"], text.trim_end());
    assert_eq!(pasted_events(&sb), 1, "the refused paste is not in the log");
    assert_eq!(pty.modes(), (false, false, false), "terminal restored");
}

/// While the store refuses and cannot be opened again (its file was moved away), Esc ends the
/// run in one line; what was saved before is kept, and the form resumes once the file is back.
#[test]
fn esc_leaves_while_the_store_refuses_and_the_flow_resumes_later() {
    let sb = Sandbox::new();
    let mut pty = limited(&sb);
    pty.send("1"); // a key saved before the trouble
    pty.wait_for("Ready to send?");
    pty.send("\x1b[Z"); // Shift+Tab back to the question
    pty.wait_for("Paste the failing log");
    paste(&mut pty, &noise(PASTE_BYTES));
    pty.wait_for("Not saved, so not applied");
    move_store_away(&sb);
    pty.send("\x1b");
    let (screen, log) = ended_in_one_line(&mut pty, &sb);
    assert!(screen.contains("moved or replaced"), "{screen}");
    assert!(log.contains("key 1") && log.contains("key shift+tab") && !log.contains("paste"), "{log}");
    let resumed = sb.run(&["resume", "refused", "--script", sb.file("k", "tab\n1\n1\n").to_str().unwrap()]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(resumed.json()["details"]["answers"]["log"]["values"][0], "none");
}

/// A burst (a paste and the key typed right after it, read together) is folded before its
/// commit; refused, it is taken back out by folding the log again. When that log cannot be read
/// (the store's file was moved away, so it is not opened again), the run ends at once in one
/// line instead of drawing keys the log lacks; the flow resumes once the file is back.
#[test]
fn a_refused_burst_that_cannot_be_taken_back_ends_the_run_at_once() {
    let sb = Sandbox::new();
    let mut pty = limited(&sb);
    pty.send("\x1b[B"); // a key saved before the trouble
    pty.wait_for("Type your answer");
    move_store_away(&sb);
    pty.send(&format!("\x1b[200~{}\x1b[201~x", noise(PASTE_BYTES)));
    let (screen, log) = ended_in_one_line(&mut pty, &sb);
    assert!(screen.replace('\n', " ").contains("File too large"), "{screen}");
    assert!(!screen.contains("Not saved"), "{screen}");
    assert!(log.contains("key down") && !log.contains("paste"), "{log}");
}

/// A resize the store refused is not reported again by the terminal; once the store takes
/// writes, the next key records the size the terminal has then, so the flow's log (and what
/// `resume` or a replay lays out from it) is not left at the old size.
#[test]
fn a_refused_resize_is_recorded_once_the_store_takes_writes_again() {
    let sb = Sandbox::new();
    let mut pty = limited(&sb);
    paste(&mut pty, &noise(PASTE_BYTES));
    pty.wait_for("Not saved, so not applied");
    move_store_away(&sb); // refused, the store's handle was closed: it cannot be opened now
    pty.resize(90, 26);
    pty.wait_for("moved or replaced");
    std::fs::rename(sb.path("elsewhere.redb"), sb.store()).unwrap();
    pty.send("\x1b[B");
    pty.wait_for("Type your answer");
    pty.send("\x1b");
    pty.send("\x1b");
    assert_eq!(pty.wait_exit(), 1);
    let log = sb.run(&["log", "show", "refused"]).stdout;
    let resize_at = log.find("resize 90x26").unwrap_or_else(|| panic!("the new size is logged:\n{log}"));
    assert!(resize_at < log.find("key down").unwrap(), "recorded before the key:\n{log}");
}
