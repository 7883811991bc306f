//! The plain-line frontend through a real terminal (issue 13.4): the exact transcript a screen
//! reader speaks, no escape sequence at all, TERM=dumb choosing it by itself.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::pty::Pty;
use common::{PAYLOAD, Sandbox, bin};
use serde_json::{Value, json};

fn start(sb: &Sandbox, args: &str, env: &[(&str, &str)]) -> Pty {
    sb.file("p.json", PAYLOAD);
    let script = format!("exec '{}' ask {args} < p.json > out.json", bin().display());
    let pty = Pty::spawn_with(sb, &script, 160, 40, env);
    pty.wait_for("Question 1 of 2");
    pty
}

fn answer(pty: &mut Pty, line: &str, then: &str) {
    pty.send(&format!("{line}\r"));
    pty.wait_for(then);
}

const TRANSCRIPT: &str = "\
Commands: a number chooses an option (numbers like 1,3 on a choose-any question); t and text gives your own answer; n, a number and text notes an option; N and text notes the question; p and a number reads a whole preview; s skips, b goes back, r goes to the review, q cancels, h repeats this.
Question 1 of 2, Database, choose one: Which database?
1. Postgres
2. SQLite
3. Type your own answer: t and your text
> 2
Database: SQLite.
Question 2 of 2, Extras, choose any: Which extras?
1. CI
2. Docker
3. Lint
4. Type your own answer: t and your text
> n 2 only for local runs
Extras: Docker note: only for local runs.
> 7
There is no option 7; the options are 1 to 3.
> 4
4 is your own answer: type t, a space and your text.
> t
t needs your answer after it: t, a space and your text.
> 1,2
Extras: CI, Docker.
Review. Database: SQLite. Extras: CI, Docker; Docker note: only for local runs.
1 submits, 2 asks the agent to elaborate on your notes, 3 cancels, b goes back.
> 1
Submitted.";

#[test]
fn spec13_4_every_change_is_one_spoken_line_and_nothing_else_is_written() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, "--plain", &[]);
    answer(&mut pty, "2", "Question 2 of 2");
    answer(&mut pty, "n 2 only for local runs", "only for local runs.");
    answer(&mut pty, "7", "There is no option 7");
    answer(&mut pty, "4", "4 is your own answer");
    answer(&mut pty, "t", "t needs your answer after it");
    answer(&mut pty, "1,2", "Review.");
    pty.send("1\r");
    assert_eq!(pty.wait_exit(), 0);
    let screen: Vec<String> = pty.screen().lines().map(|l| l.trim_end().to_owned()).collect();
    assert_eq!(screen.join("\n").trim_end(), TRANSCRIPT);
    assert!(!pty.wrote(b"\x1b"), "no cursor addressing, no alternate screen, no colour");
    let out: Value = serde_json::from_str(&std::fs::read_to_string(sb.path("out.json")).unwrap()).unwrap();
    assert_eq!(out["details"]["answers"]["db"]["values"], json!(["sqlite"]));
    assert_eq!(out["details"]["answers"]["extras"]["values"], json!(["ci", "docker"]));
    assert_eq!(out["details"]["answers"]["extras"]["optionNotes"]["docker"], "only for local runs");
}

#[test]
fn spec13_4_a_dumb_terminal_gets_the_plain_frontend_by_itself() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, "", &[("TERM", "dumb")]);
    answer(&mut pty, "q", "Cancelled: nothing was sent.");
    assert_eq!(pty.wait_exit(), 1);
    assert!(!pty.wrote(b"\x1b[?1049h"), "no alternate screen");
}

#[test]
fn spec13_4_closing_the_input_keeps_the_answers_for_resume() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, "--plain", &[]);
    answer(&mut pty, "2", "Question 2 of 2");
    pty.send("\x04"); // end of input
    assert_eq!(pty.wait_exit(), 4, "the flow is still open");
    assert!(pty.screen().contains("every answer so far is saved"), "{}", pty.screen());
}

#[test]
fn spec13_1_the_plain_frontend_times_out_too() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, "--plain --timeout 2", &[]);
    answer(&mut pty, "2", "Question 2 of 2");
    pty.wait_for("Time ran out: what was answered is kept.");
    assert_eq!(pty.wait_exit(), 1);
    let out: Value = serde_json::from_str(&std::fs::read_to_string(sb.path("out.json")).unwrap()).unwrap();
    assert_eq!(out["details"]["timedOut"], true);
    assert_eq!(out["details"]["answers"]["db"]["values"], json!(["sqlite"]));
}
