//! The real binary, headless, with a config file: what the settings change in a flow, the
//! settings overlay and command, and a config that cannot be used (SPEC §6).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::process::Command;

use common::{BIN, ask, payload, run};
use rstest::rstest;
use serde_json::{Value, json};

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
