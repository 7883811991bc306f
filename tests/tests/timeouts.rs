//! Timeouts through a real terminal (issue 13.1): the countdown shows in the last 30 s, the
//! form closes with what was saved and a `timedOut` result naming its flow id, an open editor
//! is not cut off while someone types, and `resume` goes on where the form stopped.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::{Duration, Instant};

use common::pty::Pty;
use common::{PAYLOAD, Sandbox, bin};
use rstest::rstest;
use serde_json::json;

fn start(sb: &Sandbox, args: &str) -> Pty {
    sb.file("p.json", PAYLOAD);
    let script = format!("exec '{}' ask {args} < p.json > out.json", bin().display());
    let pty = Pty::spawn(sb, &script, 80, 24);
    pty.wait_for("Which database?");
    pty
}

#[test]
fn spec13_1_a_form_times_out_with_its_answers_and_resumes_where_it_stopped() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, "--timeout 3");
    pty.send("2");
    pty.wait_for("Which extras?");
    let screen = pty.wait_for("s left");
    assert!(screen.lines().next().unwrap().contains("⏱"), "the countdown is at the top: {screen}");
    assert_eq!(pty.wait_exit_within(Duration::from_secs(10)), 1, "reported like a cancel");
    let r = sb.out();
    let d = &r["details"];
    assert_eq!((d["timedOut"].clone(), d["cancelled"].clone()), (json!(true), json!(true)), "{r}");
    assert_eq!(d["answers"]["db"]["values"], json!(["sqlite"]));
    let id = d["flowId"].as_str().unwrap().to_owned();
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("Answered so far:\nDatabase: SQLite")
            && text.contains(&format!("ask-user resume {id}")),
        "{text}"
    );
    // Every keystroke is kept: the form goes on where it stopped, on the Extras tab.
    let keys = sb.file("keys.txt", "1\nenter\nenter\n1\n1\n");
    let resumed = sb.run(&["resume", &id, "--script", keys.to_str().unwrap()]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let d = resumed.json()["details"].clone();
    assert_eq!(d["answers"]["db"]["values"], json!(["sqlite"]), "{d}");
    assert_eq!(d["answers"]["extras"]["values"], json!(["ci"]), "{d}");
    assert!(d.get("timedOut").is_none());
}

/// The countdown shows only for the last 30 s, in whole seconds rounded up: a form given 32 s
/// opens without it, and it first says 30 once fewer than 30 s are left, two seconds in (a
/// count rounded down would say 30 a second early, with 30.9 s left).
#[test]
fn spec13_1_the_countdown_shows_for_the_last_30_seconds_in_whole_seconds() {
    let sb = Sandbox::new();
    let started = Instant::now();
    let mut pty = start(&sb, "--timeout 32");
    assert!(!pty.screen().contains('⏱'), "no countdown with 32 s left: {}", pty.screen());
    let screen = pty.wait_for_within("⏱ 30 s left", Duration::from_secs(10));
    assert!(started.elapsed() >= Duration::from_millis(1500), "30 shown too early: {screen}");
    pty.wait_for_within("⏱ 29 s left", Duration::from_secs(5));
    pty.send("\x1b");
    assert_eq!(pty.wait_exit(), 1);
}

#[test]
fn spec13_1_an_open_editor_is_not_cut_off_while_someone_types() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, "--timeout 1");
    pty.send("3"); // the custom row: its editor opens
    pty.wait_for("Type your answer");
    let mut last = Instant::now();
    for c in ["M", "y", "S", "Q", "L"] {
        std::thread::sleep(Duration::from_millis(600));
        pty.send(c);
        last = Instant::now();
    }
    pty.wait_for("MySQL");
    assert!(
        pty.child.try_wait().unwrap().is_none(),
        "still open 3 s after a 1 s timeout: the editor is in use"
    );
    assert_eq!(pty.wait_exit_within(Duration::from_secs(10)), 1);
    let idle = last.elapsed();
    assert!(
        idle >= Duration::from_millis(4500),
        "closed only after the editor was idle 5 s (closed {idle:?} after the last key)"
    );
    let out = sb.out();
    assert_eq!(out["details"]["timedOut"], true);
    assert_eq!(out["details"]["draft"]["text"], "MySQL", "what was being typed is reported: {out}");
    assert!(out["content"][0]["text"].as_str().unwrap().contains("not saved: Database: \"MySQL\""), "{out}");
}

#[test]
fn spec13_1_the_config_sets_a_timeout_for_every_form() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"ui":{"timeoutSeconds":1}}"#);
    let mut pty = start(&sb, "");
    assert_eq!(pty.wait_exit_within(Duration::from_secs(10)), 1);
    assert_eq!(sb.out()["details"]["timedOut"], true);
    // And --timeout 0 turns it off for one form.
    let sb2 = Sandbox::new();
    sb2.file("config.json", r#"{"ui":{"timeoutSeconds":1}}"#);
    let mut pty = start(&sb2, "--timeout 0");
    std::thread::sleep(Duration::from_millis(2000));
    assert!(pty.child.try_wait().unwrap().is_none(), "no timeout with --timeout 0");
    pty.send("\x03");
    pty.wait_exit();
}

/// A timeout longer than the clock can count to (2^64 - 1 seconds, from the flag or the config)
/// is a form that never times out: it opens, takes the answers and submits them. It used to end
/// before its first frame with "internal error: overflow when adding duration to instant".
#[rstest]
#[case::the_flag("--timeout 18446744073709551615", "{}", false)]
#[case::the_config("", r#"{"ui":{"timeoutSeconds":18446744073709551615}}"#, false)]
#[case::the_plain_frontend("--plain --timeout 18446744073709551615", "{}", true)]
fn spec13_1_a_timeout_past_what_the_clock_holds_never_runs_out(
    #[case] args: &str,
    #[case] config: &str,
    #[case] plain: bool,
) {
    let sb = Sandbox::new();
    sb.file("config.json", config);
    sb.file("p.json", PAYLOAD);
    let script = format!("exec '{}' ask {args} < p.json > out.json", bin().display());
    let mut pty = Pty::spawn(&sb, &script, 80, 24);
    if plain {
        pty.wait_for("Question 1 of 2");
        for (line, then) in [("2", "Question 2 of 2"), ("1", "Review.")] {
            pty.send(&format!("{line}\r"));
            pty.wait_for(then);
        }
        pty.send("1\r");
    } else {
        pty.wait_for("Which database?");
        pty.send("2");
        pty.wait_for("Which extras?");
        pty.send("\t");
        pty.wait_for("Ready to send?");
        pty.send("1");
        pty.send("1");
    }
    assert_eq!(pty.wait_exit(), 0, "{}", pty.screen());
    let d = &sb.out()["details"];
    assert_eq!(d["answers"]["db"]["values"], json!(["sqlite"]), "{d}");
    assert!(d.get("timedOut").is_none(), "{d}");
}
