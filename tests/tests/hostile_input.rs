//! Inputs and environments people really produce: closed pipes, byte-order marks, odd ids.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::process::Stdio;

use common::{PAYLOAD, Sandbox};
use rstest::rstest;

fn s(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

/// Runs with stdout's reader gone before anything is written (as `| head -0` would leave it).
fn with_closed_stdout(sb: &Sandbox, args: &[&str]) -> (Option<i32>, String) {
    let mut cmd = sb.cmd(args);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[rstest]
#[case::schema(&["schema", "result"], 0)]
#[case::no_ui(&["ask", "p.json", "--no-ui"], 3)]
#[case::log_list(&["log", "list"], 0)]
#[case::replay_frames(&["log", "replay", "f.jsonl", "--frames"], 0)]
fn a_closed_stdout_is_never_a_panic(#[case] args: &[&str], #[case] code: i32) {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    for n in 0..3 {
        sb.run(&["ask", s(&p), "--id", &format!("f{n}"), "--script", s(&sb.file("k", "1\ntab\n1\n1\n"))]);
    }
    sb.run(&["log", "export", "f0", "-o", s(&sb.path("f.jsonl"))]);
    let (status, stderr) = with_closed_stdout(&sb, args);
    assert_eq!(status, Some(code), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("internal error"), "{stderr}");
}

/// Runs with stdout on a device that refuses every write, as a full disk does.
fn with_full_stdout(sb: &Sandbox, args: &[&str]) -> (Option<i32>, String) {
    let mut cmd = sb.cmd(args);
    cmd.stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap());
    let out = cmd.output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A result that could not be written (a full disk) used to end with exit 0 and nothing on
/// stdout: the caller took an empty file for an answer. Now any output that cannot be written
/// ends with the error exit and one line, and saved answers can be printed again.
#[rstest]
#[case::tool_json(&["ask", "p.json", "--id", "f1", "--script", "k"], true)]
#[case::validate(&["validate", "p.json"], false)]
#[case::invalid_payload(&["ask", "bad.json"], false)]
#[case::log_list(&["log", "list"], false)]
#[case::log_export(&["log", "export", "f0"], false)]
#[case::schema(&["schema", "result"], false)]
fn output_that_cannot_be_written_is_an_error_and_the_answers_stay_saved(
    #[case] args: &[&str],
    #[case] answered: bool,
) {
    let sb = Sandbox::new();
    sb.file("p.json", PAYLOAD);
    sb.file("bad.json", r#"{"questions": []}"#);
    sb.file("k", "1\ntab\n1\n1\n");
    assert_eq!(sb.run(&["ask", "p.json", "--id", "f0", "--script", "k"]).code, 0, "a flow to list");
    let (status, stderr) = with_full_stdout(&sb, args);
    assert_eq!(status, Some(5), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.contains("cannot write") && stderr.contains("stdout") && stderr.contains("No space left"),
        "{stderr}"
    );
    if answered {
        assert!(stderr.contains("`ask-user wait f1` prints the result again"), "{stderr}");
        let again = sb.run(&["wait", "f1"]);
        assert_eq!(again.code, 0, "{}", again.stderr);
        assert_eq!(again.json()["details"]["answers"]["db"]["values"], serde_json::json!(["pg"]));
    }
}

#[test]
fn a_payload_starting_with_a_byte_order_mark_is_accepted() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", &format!("\u{feff}{PAYLOAD}"));
    let r = sb.run(&["ask", s(&p), "--no-ui"]);
    assert_eq!(r.code, 3, "{}", r.stdout);
    assert!(r.stdout.contains("Needs user input"));
}

#[rstest]
#[case::blank("")]
#[case::spaces("   ")]
#[case::newline("a\nb")]
#[case::escape("a\u{1b}[31m")]
#[case::longer_than_512_bytes(&"a".repeat(513))]
fn a_flow_id_that_would_break_the_listing_is_refused_clearly(#[case] id: &str) {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let r = sb.run(&["ask", s(&p), "--id", id, "--no-ui"]);
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("flow id"), "{}", r.stderr);
    assert!(!sb.store().exists() || sb.run(&["log", "list"]).stdout.is_empty(), "nothing stored");
}

#[test]
fn a_flow_id_of_512_bytes_is_kept_whole() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let id = "a".repeat(512);
    let r = sb.run(&["ask", s(&p), "--id", &id, "--script", s(&sb.file("k", "down\n"))]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert_eq!(sb.run(&["log", "show", &id]).code, 0, "stored under its whole id");
}

/// `--size` with a side of zero is a usage error, said in one line.
#[rstest]
#[case::no_columns("0x24")]
#[case::no_rows("80x0")]
fn a_terminal_size_with_a_zero_side_is_refused(#[case] size: &str) {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let r = sb.run(&["ask", s(&p), "--size", size, "--script", s(&sb.file("k", "esc\n"))]);
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.contains("width and height must be at least 1"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
}

/// A `--timeout` that is no span of time is a usage error said in one line — not a panic where
/// the wait begins (NaN, infinity and 1e300 seconds did that for `wait`), and not clap's advice
/// to pass `-1` after `--`, which would make it the payload's file name.
#[rstest]
#[case::wait_nan(&["wait", "f0", "--timeout", "nan"], "expected a number of seconds, 0 or more")]
#[case::wait_infinite(&["wait", "f0", "--timeout", "inf"], "expected a number of seconds, 0 or more")]
#[case::wait_too_long(&["wait", "f0", "--timeout", "1e300"], "expected a number of seconds, 0 or more")]
#[case::wait_negative(&["wait", "f0", "--timeout", "-1"], "expected a number of seconds, 0 or more")]
#[case::ask_negative(&["ask", "p.json", "--timeout", "-3"], "expected a whole number of seconds, 0 or more")]
#[case::ask_fraction(&["ask", "p.json", "--timeout", "1.5"], "expected a whole number of seconds, 0 or more")]
#[case::mcp_negative(&["mcp", "--wait", "-5"], "expected a whole number of seconds, 0 or more")]
fn a_timeout_that_is_no_span_of_time_is_refused_clearly(#[case] args: &[&str], #[case] says: &str) {
    let sb = Sandbox::new();
    sb.file("p.json", PAYLOAD);
    let keys = sb.file("k", "down\n");
    assert_eq!(sb.run(&["ask", "p.json", "--id", "f0", "--script", s(&keys)]).code, 4, "f0 left open");
    let r = sb.run(args);
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(r.stderr.lines().next().is_some_and(|l| l.contains(says)), "{}", r.stderr);
    assert!(!r.stderr.contains("internal error"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
}

#[test]
fn c1_controls_in_answers_reach_stdout_as_escapes() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let keys = sb.file("k", "paste \"x\\u009b31my\"\nenter\ntab\n1\n1\n");
    let r = sb.run(&["ask", s(&p), "--script", s(&keys)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains('\u{9b}') && r.stdout.contains("\\u009b"), "{}", r.stdout);
    assert_eq!(r.json()["details"]["answers"]["db"]["customText"], "x\u{9b}31my", "the value is unchanged");
}

#[test]
fn a_huge_terminal_size_is_drawn_clamped_and_logged_as_it_was() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let keys = sb.file("k", "resize 65535 65535\n1\nresize 5000 5000\n");
    let start = std::time::Instant::now();
    let r =
        sb.run(&["ask", s(&p), "--id", "big", "--script", s(&keys), "--frame-out", s(&sb.path("frame.txt"))]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    let frame = std::fs::read_to_string(sb.path("frame.txt")).unwrap();
    assert_eq!(frame.lines().count(), 1000, "drawn at most 1000 rows");
    assert!(frame.contains("Which extras?"));
    assert!(sb.run(&["log", "show", "big"]).stdout.contains("resize 65535x65535"), "the logged size is kept");
    sb.run(&["log", "export", "big", "-o", s(&sb.path("big.jsonl"))]);
    let (status, stderr) = with_closed_stdout(&sb, &["log", "replay", "big.jsonl", "--frames"]);
    assert_eq!(status, Some(4), "{stderr}");
    assert!(start.elapsed() < std::time::Duration::from_secs(20), "took {:?}", start.elapsed());
}

/// Issue 12.4: payload text printed outside the form cannot drive the terminal. On a terminal
/// it is shown inert, as the form shows it; into a pipe the exact text passes.
#[test]
fn payload_text_printed_to_a_terminal_is_inert_and_exact_into_a_pipe() {
    let sb = Sandbox::new();
    let payload = serde_json::json!({"title": "Set\u{1b}]0;pwned\u{7}up", "questions": [
        {"id": "c", "label": "Colour", "prompt": "Which?", "options": [{"value": "r", "label": "\u{1b}[31mred\u{1b}[0m"}]}
    ]});
    sb.file("p.json", &payload.to_string());
    sb.file("k", "1\nenter\n");
    let cmd = format!(
        "'{bin}' transcript call p.json; '{bin}' ask p.json --session s --script k > /dev/null; '{bin}' replay --session s --script k",
        bin = common::bin().display()
    );
    let mut pty = common::pty::Pty::spawn(&sb, &cmd, 100, 20);
    pty.wait_exit();
    assert!(!pty.wrote(b"\x1b]0;pwned"), "the title reached the terminal raw");
    assert!(!pty.wrote(b"\x1b[31mred"), "the answer's colour codes reached the terminal raw");
    let screen = pty.screen();
    assert!(screen.contains("Set␛]0;pwned␇up"), "{screen}");
    assert!(screen.contains("Colour: ␛[31mred␛[0m"), "{screen}");

    // Into a pipe, the host gets the exact text.
    let piped = sb.run(&["transcript", "call", "p.json"]);
    assert!(piped.stdout.contains("Set\u{1b}]0;pwned\u{7}up"), "{:?}", piped.stdout);
}

/// Issue 12.5 (SPEC §7): a host passes the same common options to every call; no command
/// refuses them (exit 64). Where one means nothing it is ignored, and the command does its job.
#[rstest]
#[case::schema(&["schema", "input"], 0)]
#[case::validate(&["validate", "p.json"], 0)]
#[case::transcript(&["transcript", "call", "p.json"], 0)]
#[case::log_list(&["log", "list"], 0)]
#[case::log_show(&["log", "show", "f0"], 0)]
#[case::log_export(&["log", "export", "f0", "-o", "f.jsonl"], 0)]
#[case::log_replay(&["log", "replay", "f.jsonl"], 0)]
#[case::log_prune(&["log", "prune", "--keep", "5"], 0)]
#[case::wait(&["wait", "f0"], 0)]
#[case::ask(&["ask", "p.json"], 3)]
#[case::replay(&["replay"], 3)]
#[case::resume(&["resume"], 5)]
#[case::settings(&["settings"], 5)] // "the settings overlay needs a terminal"
fn every_command_accepts_the_common_options(#[case] args: &[&str], #[case] code: i32) {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    // A finished flow f0 in session s1, exported once so `log replay` has a file.
    let keys = sb.file("k", "1\ntab\n1\n1\n");
    let store = sb.store();
    let done = sb.run(&["ask", s(&p), "--id", "f0", "--session", "s1", "--script", s(&keys)]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    sb.run(&["log", "export", "f0", "-o", s(&sb.path("f.jsonl"))]);
    let session = sb.file("pi.jsonl", "");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--config", "config.json", "--store", s(&store), "--session", "s1"]);
    if !matches!(args[0], "replay") {
        all.extend(["--pi-session", s(&session), "--leaf", "L"]);
    }
    all.push("--no-ui");
    let r = sb.run(&all);
    assert_ne!(r.code, 64, "{all:?} refused: {}", r.stderr);
    assert_eq!(r.code, code, "{all:?}: {}{}", r.stdout, r.stderr);
}

/// A device or stream that never ends — `/dev/zero`, `/dev/urandom`, piped in or named — given
/// where a payload, a script or a log is read: read up to its first NUL byte (no text ask-user
/// reads holds one), then refused in one line. It used to be read until memory ran out.
#[rstest]
#[case::payload_named(&["ask", "/dev/zero", "--no-ui"], None, 2, "payload is not valid JSON")]
#[case::payload_piped(&["ask", "-", "--no-ui"], Some("/dev/zero"), 2, "payload is not valid JSON")]
#[case::random_piped(&["ask", "-", "--no-ui"], Some("/dev/urandom"), 2, "Invalid ask_user payload")]
#[case::script(&["ask", "p.json", "--script", "/dev/zero"], None, 5, "script")]
#[case::log(&["log", "replay", "/dev/zero"], None, 5, "/dev/zero")]
fn an_endless_stream_is_refused_not_read_forever(
    #[case] args: &[&str],
    #[case] stdin: Option<&str>,
    #[case] code: i32,
    #[case] says: &str,
) {
    let sb = Sandbox::new();
    sb.file("p.json", PAYLOAD);
    let mut cmd = sb.cmd(args);
    cmd.stdin(stdin.map_or_else(std::process::Stdio::null, |dev| std::fs::File::open(dev).unwrap().into()));
    let mut child =
        cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("{args:?} still reading after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "{stdout}{stderr}");
    assert!(format!("{stdout}{stderr}").contains(says), "{stdout}{stderr}");
    assert!(stderr.lines().count() <= 1 && !stderr.contains("panicked"), "{stderr}");
}
