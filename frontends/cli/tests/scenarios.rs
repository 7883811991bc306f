//! The real binary, headless: payload + script + config → stdout, exit status (SPEC §7).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::io::Write;
use std::process::{Command, Output, Stdio};

use rstest::rstest;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_ask-user");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

fn payload() -> Value {
    json!({"title":"Setup","questions":[
        {"id":"lang","label":"Lang","prompt":"Which language?","options":[
            {"value":"rust","label":"Rust"},{"value":"go","label":"Go"}]},
        {"id":"feat","label":"Feat","prompt":"Which features?","type":"multi","options":[
            {"value":"a","label":"Alpha"},{"value":"b","label":"Beta"}]}
    ]})
}

/// Runs `ask-user ask` on `payload` with `script` and an optional config file body.
fn ask(payload: &str, script: &str, config: Option<&str>, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("payload.json");
    std::fs::write(&p, payload).unwrap();
    let s = dir.path().join("keys.txt");
    std::fs::write(&s, script).unwrap();
    let c = dir.path().join("config.json");
    if let Some(body) = config {
        std::fs::write(&c, body).unwrap();
    }
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--script").arg(&s).arg("--config").arg(&c).args(extra);
    run(cmd, dir.path(), None)
}

fn run(mut cmd: Command, dir: &std::path::Path, stdin: Option<&str>) -> Run {
    cmd.env("ASK_LOG_DIR", dir.join("logs"))
        .env("ASK_USER_STORE", dir.join("store.redb"))
        .env_remove("ASK_USER_CONFIG");
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn ask-user");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    let Output { status, stdout, stderr } = child.wait_with_output().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

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

#[rstest]
#[case::double_press_off(r#"{"behaviour":{"doublePressReviewShortcuts":false}}"#, "shift+tab\n1\n", 0)]
#[case::remapped_confirm(r#"{"keymaps":{"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"ctrl+k","optionNote":"n","questionNote":"shift+n"}}"#, "enter\nshift+tab\nenter\n", 4)]
#[case::remapped_confirm_used(r#"{"keymaps":{"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"ctrl+k","optionNote":"n","questionNote":"shift+n"}}"#, "shift+tab\nctrl+k\n", 0)]
#[case::auto_submit(r#"{"behaviour":{"autoSubmitWhenAnsweredWithoutNotes":true}}"#, "1\n1\ntab\n", 0)]
#[case::guard_off(r#"{"behaviour":{"confirmDismissWhenDirty":false}}"#, "space\nesc\n", 1)]
#[case::bad_keymaps_fall_back_behaviour_still_loads(
    r#"{"keymaps":{"confirm":"ctrl+k"},"behaviour":{"doublePressReviewShortcuts":false}}"#,
    "shift+tab\nenter\n",
    0
)]
fn spec6_config_file_drives_the_flow(#[case] config: &str, #[case] script: &str, #[case] code: i32) {
    let r = ask(&payload().to_string(), script, Some(config), &[]);
    assert_eq!(r.code, code, "stdout {} stderr {}", r.stdout, r.stderr);
}

/// SPEC §6 (and issue 12.28: this used to check only the exit status): an unparseable config
/// is moved aside untouched, defaults are used (one `1` on the review only arms Submit), a
/// fresh default file takes its place, and the first frame says so.
#[test]
fn spec6_unparseable_config_is_moved_aside_and_defaults_are_used() {
    let dir = tempfile::tempdir().unwrap();
    let (p, s, c, frame) = (
        dir.path().join("p.json"),
        dir.path().join("k"),
        dir.path().join("config.json"),
        dir.path().join("f.txt"),
    );
    std::fs::write(&p, payload().to_string()).unwrap();
    std::fs::write(&s, "shift+tab\n1\n").unwrap();
    std::fs::write(&c, "{oops").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--script").arg(&s).arg("--config").arg(&c).arg("--frame-out").arg(&frame);
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 4, "double-press (the default) kept the form open: {}", r.stderr);
    let moved: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.starts_with("config.") && n.ends_with(".bak.json"))
        .collect();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join(&moved[0])).unwrap(),
        "{oops",
        "the user's bytes kept"
    );
    let fresh: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&c).unwrap()).unwrap();
    assert_eq!(fresh["behaviour"]["doublePressReviewShortcuts"], true);
    assert!(std::fs::read_to_string(&frame).unwrap().contains("Config: "), "the notice is on screen");
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

#[test]
fn d29_overlay_toggle_persists_and_takes_effect() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("config.json");
    let p = dir.path().join("p.json");
    std::fs::write(&p, payload().to_string()).unwrap();
    let s = dir.path().join("k");
    // `?`, Down to "Confirm dismiss when dirty", Space turns it off; then a dirty Esc leaves at once.
    std::fs::write(&s, "space\n?\ndown\nspace\nesc\nesc\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--script").arg(&s).arg("--config").arg(&c);
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 1);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&c).unwrap()).unwrap();
    assert_eq!(saved["behaviour"]["confirmDismissWhenDirty"], false);
    assert_eq!(saved["schemaVersion"], 2);
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

#[rstest]
#[case::input("input", "questions")]
#[case::result("result", "details")]
fn spec7_schema_command(#[case] kind: &str, #[case] property: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["schema", kind]);
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 0);
    assert!(r.json()["properties"][property].is_object());
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
    // 1×1 has room for one letter of the message; a slightly larger one says it all.
    assert_eq!(std::fs::read_to_string(&frame).unwrap().trim_end(), "E");
    let r =
        ask(&payload().to_string(), "", None, &["--frame-out", frame.to_str().unwrap(), "--size", "40x4"]);
    assert_eq!(r.code, 4);
    let said: String =
        std::fs::read_to_string(&frame).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(said, "Enlarge the terminal to at least 24×7; it is 40×4. Esc or Ctrl+C still leave.");
}

#[test]
fn spec6_question_mark_then_space_persists_and_completes_an_answered_review() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("config.json");
    let p = dir.path().join("p.json");
    std::fs::write(&p, payload().to_string()).unwrap();
    let s = dir.path().join("k");
    std::fs::write(&s, "1\n1\ntab\n?\nspace\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--script").arg(&s).arg("--config").arg(&c);
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 0, "auto-submit completed the open flow: {}", r.stderr);
    assert_eq!(r.json()["details"]["answers"]["lang"]["values"], json!(["rust"]));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&c).unwrap()).unwrap();
    assert_eq!(saved["behaviour"]["autoSubmitWhenAnsweredWithoutNotes"], true);
}

#[test]
fn spec6_env_override_applies_to_the_flow_and_is_never_saved() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("config.json");
    let p = dir.path().join("p.json");
    std::fs::write(&p, payload().to_string()).unwrap();
    let s = dir.path().join("k");
    std::fs::write(&s, "?\ndown\ndown\ndown\nspace\nesc\nshift+tab\n1\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--script").arg(&s).arg("--config").arg(&c);
    cmd.env("ASK_USER__BEHAVIOUR__DOUBLE_PRESS_REVIEW_SHORTCUTS", "false");
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 0, "a single 1 submits: the override is in force");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&c).unwrap()).unwrap();
    assert_eq!(saved["behaviour"]["showFooterHints"], false, "the toggle was saved");
    assert_eq!(saved["behaviour"]["doublePressReviewShortcuts"], true, "the override was not");
}

#[test]
fn spec6_failed_save_reverts_the_toggle_and_shows_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.txt");
    let p = dir.path().join("p.json");
    std::fs::write(&p, payload().to_string()).unwrap();
    let s = dir.path().join("k");
    std::fs::write(&s, "space\n?\ndown\nspace\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--script").arg(&s).args(["--config", "/proc/ask-user/config.json"]);
    cmd.arg("--frame-out").arg(&frame).args(["--size", "100x30"]);
    let r = run(cmd, dir.path(), None);
    assert_eq!(r.code, 4);
    let text = std::fs::read_to_string(&frame).unwrap();
    assert!(text.contains("[on]  Confirm dismiss when dirty"), "reverted:\n{text}");
    assert!(text.contains("could not save settings to /proc/ask-user/config.json"), "{text}");
    std::fs::write(&s, "space\n?\ndown\nspace\nesc\nesc\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("ask").arg(&p).arg("--script").arg(&s).args(["--config", "/proc/ask-user/config.json"]);
    assert_eq!(run(cmd, dir.path(), None).code, 4, "the guard is still on: one Esc only warns");
}

#[test]
fn settings_command_saves_toggles_and_exits_0_when_closed() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("config.json");
    let s = dir.path().join("k");
    std::fs::write(&s, "up\nenter\nesc\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("settings").arg("--script").arg(&s).arg("--config").arg(&c);
    let r = run(cmd, dir.path(), None);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&c).unwrap()).unwrap();
    assert_eq!(saved["behaviour"]["showFooterHints"], false, "Up wraps to the last toggle");
}

#[test]
fn spec6_unusable_config_is_backed_up_and_the_overlay_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("config.json");
    std::fs::write(&c, "{ not json").unwrap();
    let frame = dir.path().join("frame.txt");
    let s = dir.path().join("k");
    std::fs::write(&s, "down\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("settings").arg("--script").arg(&s).arg("--config").arg(&c).arg("--frame-out").arg(&frame);
    cmd.args(["--size", "120x30"]);
    run(cmd, dir.path(), None);
    let text = std::fs::read_to_string(&frame).unwrap();
    assert!(
        text.contains("could not be used because it is not") && text.contains(".bak.json and defaults"),
        "{text}"
    );
    let backups = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".bak.json"))
        .count();
    assert_eq!(backups, 1);
}

#[test]
fn contract_settings_list_shows_the_absolute_config_path() {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.txt");
    let s = dir.path().join("k");
    std::fs::write(&s, "down\n").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir.path()).args(["settings", "--config", "relative.json", "--script"]).arg(&s);
    cmd.arg("--frame-out").arg(&frame).args(["--size", "140x30"]);
    run(cmd, dir.path(), None);
    let text = std::fs::read_to_string(&frame).unwrap();
    let abs = dir.path().join("relative.json");
    assert!(text.contains(&format!("Config: {}", abs.display())), "{text}");
}
