//! A nudge when a form is waiting (issue 13.2), through a real terminal: the bell, OSC 9 /
//! OSC 777 desktop notifications picked from the terminal's environment, tmux's passthrough,
//! a command of the user's, sent once when the form opens unfocused (or always), and a reminder.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::{Duration, Instant};

use common::pty::Pty;
use common::{PAYLOAD, Sandbox};

const BEL: &[u8] = b"\x07";
const FOCUS_OUT: &str = "\x1b[O";

fn open(sb: &Sandbox, ui: &str, env: &[(&str, &str)]) -> Pty {
    sb.file("config.json", &format!(r#"{{"ui":{ui}}}"#));
    Pty::ask(sb, PAYLOAD, 80, 24, env, "Which database?")
}

/// Waits up to two seconds for `bytes` in what the program wrote.
fn eventually_wrote(pty: &Pty, bytes: &[u8]) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) {
        if pty.wrote(bytes) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Opens a form with `ui`, checks the program wrote `bytes`, leaves it with Ctrl+C.
fn nudges_with(ui: &str, env: &[(&str, &str)], bytes: &[u8]) {
    let sb = Sandbox::new();
    let mut pty = open(&sb, ui, env);
    assert!(eventually_wrote(&pty, bytes), "{:?} not written", String::from_utf8_lossy(bytes));
    pty.send("\x03");
    pty.wait_exit();
}

#[test]
fn spec13_2_always_rings_the_bell_when_the_form_opens() {
    nudges_with(r#"{"notify":"bell","notifyWhen":"always"}"#, &[], BEL);
}

#[test]
fn spec13_2_auto_sends_a_desktop_notification_in_a_terminal_that_shows_them() {
    let always = r#"{"notifyWhen":"always"}"#;
    let osc9 = b"\x1b]9;Setup: A question is waiting for your answer: Which database?\x07";
    nudges_with(always, &[("TERM_PROGRAM", "iTerm.app")], osc9);
    let osc777 = b"\x1b]777;notify;Setup;A question is waiting for your answer: Which database?\x07";
    nudges_with(always, &[("TERM", "foot")], osc777);
}

#[test]
fn spec13_2_inside_tmux_the_notification_goes_through_its_passthrough() {
    let env = [("TERM_PROGRAM", "WezTerm"), ("TMUX", "/tmp/tmux-0/default,1,0")];
    nudges_with(r#"{"notifyWhen":"always"}"#, &env, b"\x1bPtmux;\x1b\x1b]9;Setup: ");
}

#[test]
fn spec13_2_by_default_only_an_unfocused_form_nudges_and_only_once() {
    let sb = Sandbox::new();
    let mut pty = open(&sb, r#"{}"#, &[]);
    std::thread::sleep(Duration::from_millis(400));
    assert!(!pty.wrote(BEL), "a form in a focused (or silent) terminal does not ring");
    pty.send(FOCUS_OUT);
    assert!(eventually_wrote(&pty, BEL), "the window lost the focus before anyone answered");
    pty.send("\x1b[I");
    pty.send("2");
    pty.wait_for("Which extras?");
    pty.send(FOCUS_OUT);
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(pty.count(BEL), 1, "sent once: someone has answered since");
    pty.send("\x03\x03");
    pty.wait_exit();
}

/// The reminder is for a form nobody is looking at: a terminal that has the focus back (after
/// losing it, which nudged once) is not reminded, however long the form then waits.
#[test]
fn spec13_2_a_form_whose_terminal_has_the_focus_back_is_not_reminded() {
    let sb = Sandbox::new();
    // 0.05 minutes: a reminder would come 3 s after the form opened.
    let mut pty = open(&sb, r#"{"notify":"bell","remindAfterMinutes":0.05}"#, &[]);
    pty.send(FOCUS_OUT);
    assert!(eventually_wrote(&pty, BEL), "the window lost the focus before anyone answered");
    pty.send("\x1b[I");
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(pty.count(BEL), 1, "no reminder while the terminal has the focus");
    pty.send("\x03");
    pty.wait_exit();
}

#[test]
fn spec13_2_a_command_of_the_user_s_is_run_with_the_message() {
    let sb = Sandbox::new();
    let ui = r#"{"notify":"command","notifyWhen":"always","notifyCommand":["sh","-c","printf '%s|%s' \"$1\" \"$2\" > nudged.txt","sh","{title}","{message}"]}"#;
    let mut pty = open(&sb, ui, &[]);
    let start = Instant::now();
    while !sb.path("nudged.txt").exists() && start.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let said = std::fs::read_to_string(sb.path("nudged.txt")).unwrap();
    assert_eq!(said, "Setup|A question is waiting for your answer: Which database?");
    assert!(!pty.wrote(BEL), "the command instead of the bell");
    pty.send("\x03");
    pty.wait_exit();
}

#[test]
fn spec13_2_a_reminder_comes_after_the_configured_wait_without_a_key() {
    let sb = Sandbox::new();
    // 0.05 minutes: 3 s after the form opened (room for a slow start on a loaded machine).
    let mut pty = open(&sb, r#"{"notify":"bell","remindAfterMinutes":0.05}"#, &[]);
    std::thread::sleep(Duration::from_millis(800));
    assert!(!pty.wrote(BEL), "not yet");
    let start = Instant::now();
    while !pty.wrote(BEL) && start.elapsed() < Duration::from_secs(6) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(pty.wrote(BEL), "reminded after 3 s without a key");
    pty.send("\x03");
    pty.wait_exit();
}

/// A reminder wait too long for the clock (1e300 minutes) is a reminder that never comes: the
/// form opens and answers as any other. It used to end before its first frame with "internal
/// error: cannot convert float seconds to Duration".
#[test]
fn spec13_2_a_reminder_too_far_off_to_count_never_comes() {
    let sb = Sandbox::new();
    let mut pty = open(&sb, r#"{"notify":"bell","remindAfterMinutes":1e300}"#, &[]);
    pty.send("2");
    pty.wait_for("Which extras?");
    pty.send("\x1b");
    pty.wait_for("unsaved answers");
    pty.send("\x1b");
    assert_eq!(pty.wait_exit(), 1, "cancelled, not crashed: {}", pty.screen());
    assert_eq!(sb.out()["details"]["answers"]["db"]["values"], serde_json::json!(["sqlite"]));
}

/// A notify command that does not start (a typo in `ui.notifyCommand`) is said where the
/// config's problems are, in the footer, instead of only in the log file; a reminder that fails
/// the same way again does not say it twice.
#[test]
fn spec13_2_a_notify_command_that_does_not_start_is_said_once() {
    let sb = Sandbox::new();
    let ui = r#"{"notify":"command","notifyCommand":["/nonexistent/notifier","{title}"],"notifyWhen":"always","remindAfterMinutes":0.01}"#;
    let mut pty = open(&sb, ui, &[]);
    let screen = pty.wait_for("ui.notifyCommand did not start (/nonexistent/notifier");
    assert!(screen.lines().any(|l| l.starts_with("Config: ui.notifyCommand")), "in the footer: {screen}");
    // The reminder is due 0.6 s after the form opened; it fails as the first nudge did.
    std::thread::sleep(Duration::from_millis(1500));
    pty.send("\x03");
    assert_eq!(pty.wait_exit(), 1);
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    let log = sb.run(&["log", "show", &id]).stdout;
    assert_eq!(log.matches("settings changed").count(), 1, "{log}");
    let logged = std::fs::read_to_string(sb.path("logs/ask-user.log")).unwrap();
    assert_eq!(
        logged.matches("the notify command did not start").count(),
        2,
        "opening and reminder: {logged}"
    );
}
