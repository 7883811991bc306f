//! The real binary, headless: payload + script + config → stdout, exit status (SPEC §7).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::process::Command;

use common::{BIN, Run, ask, payload, run};
use rstest::rstest;
use serde_json::json;

#[rstest]
#[case::submit_exits_0("2\n2\ntab\n1\n1\n", 0, "Lang: Go\nFeat: Beta")]
#[case::elaborate_exits_0(
    "1\nshift+n\ntype \"why?\"\nenter\ntab\n2\n2\n",
    0,
    "User asked to elaborate on question \"Which features?\" with note \"why?\""
)]
#[case::cancel_exits_1("esc\n", 1, "User cancelled the ask_user flow without submitting answers.")]
#[case::review_cancel_exits_1(
    "shift+tab\n3\n3\n",
    1,
    "User cancelled the ask_user flow without submitting answers."
)]
#[case::steps_after_completion_are_ignored(
    "esc\nthis-is-not-a-key-but-never-read\n",
    1,
    "User cancelled the ask_user flow without submitting answers."
)]
fn spec7_exit_status_and_result_text(#[case] script: &str, #[case] code: i32, #[case] text: &str) {
    let r = ask(&payload().to_string(), script, None, &[]);
    assert_eq!(r.code, code, "stderr: {}", r.stderr);
    assert_eq!(r.json()["content"][0]["text"], text);
    assert_eq!(r.json()["content"][0]["type"], "text");
    assert_eq!(r.stdout.lines().count(), 1, "stdout carries only the result");
}

#[test]
fn spec7_script_ending_with_flow_open_exits_4_and_prints_nothing() {
    let r = ask(&payload().to_string(), "down\n", None, &[]);
    assert_eq!((r.code, r.stdout.as_str()), (4, ""));
    // Stderr says why in one line, and how to go on with the form kept open.
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("script ended with the form still open"), "{}", r.stderr);
    assert!(r.stderr.contains("`ask-user resume f"), "names the flow to resume: {}", r.stderr);
}

#[test]
fn spec7_invalid_payload_exits_2_with_structured_error() {
    let r = ask(r#"{"questions":[{"id":"a","prompt":"P","options":[]}]}"#, "1\n", None, &[]);
    assert_eq!(r.code, 2);
    let j = r.json();
    assert_eq!(j["details"]["error"]["kind"], "invalid_input");
    assert_eq!(j["details"]["error"]["issues"][0]["path"], "questions[0].options");
    assert!(
        j["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Invalid ask_user payload:\n- questions[0].options: ")
    );
}

#[rstest]
#[case::not_json("this is not json")]
#[case::not_an_object("[1,2]")]
fn d25_non_object_payload_is_one_root_issue_exit_2(#[case] body: &str) {
    let r = ask(body, "1\n", None, &[]);
    assert_eq!(r.code, 2);
    let issues = &r.json()["details"]["error"]["issues"];
    assert_eq!(issues.as_array().map(Vec::len), Some(1));
    assert_eq!(issues[0]["path"], "");
}

#[test]
fn spec9_invalid_utf8_payload_is_an_issue_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.json");
    std::fs::write(&p, b"{\"questions\": \"\xff\xfe\"}").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--no-ui");
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 2);
    assert_eq!(r.json()["details"]["error"]["issues"][0]["path"], "");
}

#[test]
fn contract_no_ui_gives_needs_user_input_exit_3() {
    let r = ask(&payload().to_string(), "1\n", None, &["--no-ui"]);
    assert_eq!(r.code, 3);
    let j = r.json();
    assert!(j["content"][0]["text"].as_str().unwrap().starts_with("Needs user input"));
    assert_eq!(j["details"]["cancelled"], true);
    assert_eq!(j["details"]["questions"].as_array().map(Vec::len), Some(2));
    assert_eq!(j["details"]["answers"], json!({}));
}

#[test]
fn spec7_payload_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("keys");
    std::fs::write(&s, "1\ntab\n1\n1\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["ask", "-", "--config"]).arg(dir.path().join("c.json")).arg("--script").arg(&s);
    let r = run(cmd, dir.path(), Some(&payload().to_string()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["details"]["answers"]["lang"]["values"], json!(["rust"]));
}

#[test]
fn spec7_live_set_step_completes_flow() {
    let r = ask(
        &payload().to_string(),
        "1\n1\ntab\nset behaviour.autoSubmitWhenAnsweredWithoutNotes true\n",
        None,
        &[],
    );
    assert_eq!(r.code, 0);
    assert_eq!(r.json()["details"]["mode"], "submit");
}

#[rstest]
#[case::bad_key_id("down\nfoo+bar\n", "script line 2")]
#[case::bad_set("set behaviour.nope true\n", "unknown setting")]
fn spec9_bad_script_is_a_one_line_error(#[case] script: &str, #[case] needle: &str) {
    let r = ask(&payload().to_string(), script, None, &[]);
    assert_eq!(r.code, 5);
    assert_eq!(r.stdout, "");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains(needle), "{}", r.stderr);
}

#[test]
fn spec9_missing_payload_file_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["ask", "/nonexistent/p.json", "--no-ui"]);
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 5);
    assert!(r.stderr.starts_with("ask-user: cannot read payload /nonexistent/p.json"), "{}", r.stderr);
}

/// `--lenient` gives the input schema that requires nothing (for hosts that must let a
/// malformed call reach the tool); the others require what they must.
#[rstest]
#[case::input(&["input"], "questions", true)]
#[case::lenient_input(&["input", "--lenient"], "questions", false)]
#[case::result(&["result"], "details", true)]
fn spec7_schema_command(#[case] args: &[&str], #[case] property: &str, #[case] requires: bool) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("schema").args(args);
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 0);
    assert!(r.json()["properties"][property].is_object());
    assert_eq!(r.stdout.contains("\"required\""), requires, "{}", r.stdout);
}

#[test]
fn spec7_transcript_commands() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p.json");
    std::fs::write(&p, payload().to_string()).unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["transcript", "call"]).arg(&p);
    assert_eq!(run(cmd, dir.path(), None).stdout, "ask_user \"Setup\" · 2 questions: Lang, Feat\n");
    let result = ask(&payload().to_string(), "2\n1\n2\ntab\n1\n1\n", None, &[]).stdout;
    let r = dir.path().join("r.json");
    std::fs::write(&r, result).unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["transcript", "result"]).arg(&r);
    assert_eq!(run(cmd, dir.path(), None).stdout, "✓ Lang: Go\n✓ Feat: Alpha, Beta\n");
    // The JSON form a host styles (the pi package): the same words, each row with its kind.
    let mut cmd = Command::new(BIN);
    cmd.args(["transcript", "result", "--json"]).arg(&r);
    assert_eq!(
        run(cmd, dir.path(), None).json(),
        serde_json::json!([{"kind": "answer", "text": "✓ Lang: Go"}, {"kind": "answer", "text": "✓ Feat: Alpha, Beta"}])
    );
    let mut cmd = Command::new(BIN);
    cmd.args(["transcript", "call", "--json"]).arg(&p);
    assert_eq!(run(cmd, dir.path(), None).json()[0]["kind"], "call");
    let cancelled = ask(&payload().to_string(), "esc\n", None, &[]).stdout;
    std::fs::write(&r, cancelled).unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["transcript", "result", "--json"]).arg(&r);
    assert_eq!(
        run(cmd, dir.path(), None).json(),
        serde_json::json!([{"kind": "cancelled", "text": "Cancelled"}])
    );
}

#[test]
fn spec7_usage_errors_do_not_collide_with_result_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["ask", "--bogus"]);
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 64);
    let mut cmd = Command::new(BIN);
    cmd.args(["ask", "--help"]);
    assert_eq!(run(cmd, dir.path(), None).code, 0);
}

#[test]
fn d30_frame_out_gets_the_frame_after_the_last_event_at_the_default_size() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.txt");
    let r = ask(&payload().to_string(), "2\n", None, &["--frame-out", frame.to_str().unwrap()]);
    assert_eq!(r.code, 4);
    let text = std::fs::read_to_string(&frame).unwrap();
    assert_eq!(text.lines().count(), 24, "80x24 by default");
    assert!(text.lines().all(|l| l.chars().count() <= 80));
    assert!(text.contains("Which features?") && text.contains("✓ Lang"), "{text}");
}

#[test]
fn d30_frame_out_of_a_completed_flow_is_the_screen_at_completion_and_size_applies() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.txt");
    let args = ["--frame-out", frame.to_str().unwrap(), "--size", "50x12"];
    let r = ask(&payload().to_string(), "shift+tab\n1\n1\n", None, &args);
    assert_eq!(r.code, 0);
    let text = std::fs::read_to_string(&frame).unwrap();
    assert_eq!(text.lines().count(), 12);
    assert!(text.contains("Ready to send?"), "{text}");
}

#[test]
fn d30_resize_steps_change_the_frame_size() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.txt");
    let r = ask(&payload().to_string(), "resize 100 30\n", None, &["--frame-out", frame.to_str().unwrap()]);
    assert_eq!(r.code, 4);
    assert_eq!(std::fs::read_to_string(&frame).unwrap().lines().count(), 30);
}

/// After a `resize` step the form is drawn at the new size, as if it had opened at it: the
/// answer editor wraps at the new width, so Up moves one wrapped row up (where `Y` lands).
#[test]
fn d30_a_resize_step_draws_at_the_new_size() {
    let typed = format!("3\ntype \"{}\"\nup\ntype \"Y\"\nenter\n1\ntab\n1\n1\n", "a".repeat(40));
    let text = |r: Run| {
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.json()["details"]["answers"]["lang"]["customText"].as_str().unwrap().to_owned()
    };
    let resized = text(ask(&payload().to_string(), &format!("resize 30 24\n{typed}"), None, &[]));
    let opened_narrow = text(ask(&payload().to_string(), &typed, None, &["--size", "30x24"]));
    let wide = text(ask(&payload().to_string(), &typed, None, &[]));
    assert_eq!(resized, opened_narrow);
    assert_ne!(resized, wide, "at 80 columns the text is one row: Y lands elsewhere");
}

#[test]
fn d30_frame_out_is_ignored_with_no_ui() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.txt");
    let r = ask(&payload().to_string(), "", None, &["--no-ui", "--frame-out", frame.to_str().unwrap()]);
    assert_eq!(r.code, 3);
    assert!(!frame.exists());
}

#[test]
fn spec9_tiny_terminal_frame_says_enlarge() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.txt");
    let r = ask(
        &payload().to_string(),
        "down\n",
        None,
        &["--frame-out", frame.to_str().unwrap(), "--size", "1x1"],
    );
    assert_eq!(r.code, 4);
    // 1×1 has room for one letter of the shortest message ("Needs 24×7"); a larger one says it all.
    assert_eq!(std::fs::read_to_string(&frame).unwrap().trim_end(), "N");
    let r =
        ask(&payload().to_string(), "", None, &["--frame-out", frame.to_str().unwrap(), "--size", "40x4"]);
    assert_eq!(r.code, 4);
    let said: String =
        std::fs::read_to_string(&frame).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(said, "Enlarge the terminal to at least 24×7; it is 40×4. Esc or Ctrl+C still leave.");
}
