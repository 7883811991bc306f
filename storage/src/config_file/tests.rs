//! Config loading and saving: every kind of file, migration, aliases, env overrides, failures.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;

use ask_engine::{Settings, Toggle};
use rstest::rstest;
use serde_json::{Value, json};

use super::*;

fn write(dir: &tempfile::TempDir, text: &str) -> PathBuf {
    let p = dir.path().join("config.json");
    fs::write(&p, text).unwrap();
    p
}

fn load(p: &std::path::Path) -> LoadedConfig {
    load_settings_with_env(Some(p), Some(HashMap::new()))
}

fn backups(dir: &tempfile::TempDir) -> Vec<String> {
    fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".bak.json"))
        .collect()
}

#[test]
fn spec6_missing_file_is_written_with_defaults_on_first_use() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("sub/config.json");
    let loaded = load(&p);
    assert_eq!(loaded.settings, Settings::default());
    assert!(loaded.notices.is_empty());
    let written: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(written["schemaVersion"], 2);
    assert_eq!(written["behaviour"]["confirmDismissWhenDirty"], true);
    assert_eq!(written["keymaps"]["questionNote"], "shift+n");
    assert!(fs::read_to_string(&p).unwrap().ends_with("}\n"));
}

#[rstest]
#[case::bad_json("{\"behaviour\":", "not valid JSON")]
#[case::not_an_object("[1, 2]", "not a JSON object")]
#[case::wrong_behaviour_type(
    r#"{"behaviour":{"showFooterHints":"yes"}}"#,
    "behaviour.showFooterHints is not true or false"
)]
#[case::behaviour_not_object(r#"{"behaviour":true}"#, "behaviour is not an object")]
#[case::wrong_answer_type(r#"{"answer":{"extractionRetries":"two"}}"#, "answer section is ill-typed")]
#[case::retries_out_of_range(r#"{"answer":{"extractionRetries":7}}"#, "0 to 3")]
#[case::future_version(r#"{"schemaVersion":3,"behaviour":{"showFooterHints":false}}"#, "newer ask-user")]
#[case::bad_version(r#"{"schemaVersion":"two"}"#, "schemaVersion is not a positive integer")]
fn spec6_unusable_files_are_backed_up_and_defaults_used(#[case] text: &str, #[case] why: &str) {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, text);
    let loaded = load(&p);
    assert_eq!(loaded.settings, Settings::default());
    assert_eq!(loaded.notices.len(), 1, "{:?}", loaded.notices);
    assert!(
        loaded.notices[0].contains(why) && loaded.notices[0].contains(".bak.json"),
        "{:?}",
        loaded.notices
    );
    let b = backups(&dir);
    assert_eq!(b.len(), 1);
    assert!(b[0].starts_with("config.2") && b[0].ends_with(".bak.json"), "{b:?}");
    assert_eq!(fs::read_to_string(dir.path().join(&b[0])).unwrap(), text, "the user's bytes are kept");
    let fresh: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(fresh["schemaVersion"], 2, "defaults written in its place");
}

#[test]
fn spec6_no_version_is_read_as_current_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, r#"{"behaviour":{"showFooterHints":false}}"#);
    let loaded = load(&p);
    assert!(!loaded.settings.behaviour.show_footer_hints);
    assert!(loaded.notices.is_empty());
    assert!(backups(&dir).is_empty());
}

#[test]
fn spec6_version_1_is_migrated_keeping_every_value() {
    let dir = tempfile::tempdir().unwrap();
    let v1 = json!({"schemaVersion": 1,
        "answer": {"extractionCommand": ["my-extractor", "--json"], "extractionTimeoutMs": 5000, "extractionRetries": 3},
        "behaviour": {"autoSubmitWhenAnsweredWithoutNotes": true, "confirmDismissWhenDirty": false,
                      "doublePressReviewShortcuts": false, "showFooterHints": false},
        "keymaps": {"cancel": "escape", "dismiss": "ctrl+q", "toggle": "space", "confirm": "ctrl+k", "optionNote": "o", "questionNote": "shift+o"},
        "mine": {"kept": true}});
    let p = write(&dir, &v1.to_string());
    let loaded = load(&p);
    let b = loaded.settings.behaviour;
    assert!(b.auto_submit_when_answered_without_notes && !b.confirm_dismiss_when_dirty);
    assert!(!b.double_press_review_shortcuts && !b.show_footer_hints);
    assert_eq!(loaded.settings.keymaps.confirm.to_string(), "ctrl+k");
    assert_eq!(loaded.answer.extraction_command, ["my-extractor", "--json"]);
    assert_eq!((loaded.answer.extraction_timeout_ms, loaded.answer.extraction_retries), (5000, 3));
    assert!(loaded.notices[0].contains("Migrated"), "{:?}", loaded.notices);
    let mut expected = v1;
    expected["schemaVersion"] = json!(2);
    let migrated: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(migrated, expected, "only the version changed");
    assert!(backups(&dir).is_empty());
}

#[rstest]
#[case::escape("escape", "esc")]
#[case::return_key("return", "enter")]
#[case::control("control+k", "ctrl+k")]
#[case::capital_shift("Shift+K", "shift+k")]
#[case::uppercase_letter("K", "shift+k")]
#[case::ctl("ctl+k", "ctrl+k")]
#[case::option("option+k", "alt+k")]
#[case::cmd("cmd+k", "super+k")]
#[case::pgup("ctrl+pgup", "ctrl+pageUp")]
fn spec6_key_id_aliases(#[case] alias: &str, #[case] canonical: &str) {
    let dir = tempfile::tempdir().unwrap();
    let keymaps = json!({"cancel": "ctrl+g", "dismiss": "ctrl+c", "toggle": "space", "confirm": alias, "optionNote": "n", "questionNote": "shift+n"});
    let p = write(&dir, &json!({"keymaps": keymaps}).to_string());
    let loaded = load(&p);
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert_eq!(loaded.settings.keymaps.confirm.to_string(), canonical);
}

#[rstest]
#[case::incomplete(json!({"confirm": "ctrl+k"}), "keymaps.cancel is missing")]
#[case::unsupported(json!({"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"hyper+k","optionNote":"n","questionNote":"shift+n"}), "unsupported key id")]
#[case::reserved(json!({"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"tab","optionNote":"n","questionNote":"shift+n"}), "reserved")]
#[case::duplicate(json!({"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"n","optionNote":"n","questionNote":"shift+n"}), "both bound")]
#[case::not_string(json!({"cancel":1,"dismiss":"ctrl+c","toggle":"space","confirm":"enter","optionNote":"n","questionNote":"shift+n"}), "must be a key id string")]
#[case::unknown_action(json!({"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"enter","optionNote":"n","questionNote":"shift+n","submit":"x"}), "not a known action")]
#[case::not_object(json!("esc"), "keymaps must be an object")]
fn spec6_keymap_errors_fall_back_while_behaviour_loads(#[case] keymaps: Value, #[case] why: &str) {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, &json!({"behaviour": {"showFooterHints": false}, "keymaps": keymaps}).to_string());
    let loaded = load(&p);
    assert_eq!(loaded.settings.keymaps, Settings::default().keymaps);
    assert!(!loaded.settings.behaviour.show_footer_hints, "behaviour still loads");
    assert_eq!(loaded.notices.len(), 1);
    assert!(
        loaded.notices[0].starts_with("Keymaps not used") && loaded.notices[0].contains(why),
        "{:?}",
        loaded.notices
    );
    assert!(backups(&dir).is_empty(), "keymap problems never move the file");
}

#[test]
fn spec6_env_override_is_read_but_never_saved() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, r#"{"behaviour":{"showFooterHints":true},"mine":1}"#);
    let env = HashMap::from([
        ("ASK_USER__BEHAVIOUR__SHOW_FOOTER_HINTS".to_owned(), "false".to_owned()),
        ("ASK_USER__KEYMAPS__CONFIRM".to_owned(), "ctrl+k".to_owned()),
    ]);
    let loaded = load_settings_with_env(Some(&p), Some(env));
    assert!(!loaded.settings.behaviour.show_footer_hints, "override in force");
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    save_toggle(&p, Toggle::AutoSubmitWhenAnsweredWithoutNotes, true).unwrap();
    let saved: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(saved["behaviour"]["showFooterHints"], true, "the file keeps its own value");
    assert_eq!(saved["behaviour"]["autoSubmitWhenAnsweredWithoutNotes"], true);
    assert_eq!(saved["mine"], 1);
    assert!(saved.get("keymaps").is_none(), "the env keymap is not written");
}

#[test]
fn spec6_ill_typed_env_override_is_ignored_with_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "{}");
    let env = HashMap::from([("ASK_USER__BEHAVIOUR__SHOW_FOOTER_HINTS".to_owned(), "maybe".to_owned())]);
    let loaded = load_settings_with_env(Some(&p), Some(env));
    assert!(loaded.settings.behaviour.show_footer_hints);
    assert!(loaded.notices[0].contains("behaviour.showFooterHints"), "{:?}", loaded.notices);
    assert!(backups(&dir).is_empty());
}

#[test]
fn d29_save_writes_sections_in_full_and_keeps_user_keymaps_and_unknown_fields() {
    let dir = tempfile::tempdir().unwrap();
    let p =
        write(&dir, r#"{"keymaps":{"confirm":"ctrl+k"},"mine":[1,2],"behaviour":{"showFooterHints":false}}"#);
    save_toggle(&p, Toggle::DoublePressReviewShortcuts, false).unwrap();
    let text = fs::read_to_string(&p).unwrap();
    assert!(text.ends_with("}\n") && text.contains("\n  \""), "pretty JSON with a trailing newline");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["schemaVersion"], 2);
    assert_eq!(v["mine"], json!([1, 2]));
    assert_eq!(v["keymaps"], json!({"confirm": "ctrl+k"}), "kept as written, even unusable");
    assert_eq!(
        v["behaviour"],
        json!({"autoSubmitWhenAnsweredWithoutNotes": false, "confirmDismissWhenDirty": true,
        "doublePressReviewShortcuts": false, "showFooterHints": false})
    );
    assert_eq!(
        v["answer"],
        json!({"extractionCommand": [], "extractionTimeoutMs": 30000, "extractionRetries": 1})
    );
}

#[test]
fn spec6_save_into_a_read_only_directory_fails_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "{}");
    let mut perms = fs::metadata(dir.path()).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o555);
    fs::set_permissions(dir.path(), perms.clone()).unwrap();
    let result = save_toggle(&p, Toggle::ShowFooterHints, false);
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(dir.path(), perms).unwrap();
    // root ignores directory permissions; the same failure is then shown by a path that cannot exist.
    let err = match result {
        Err(e) => e,
        Ok(()) => {
            save_toggle(std::path::Path::new("/proc/ask-user/config.json"), Toggle::ShowFooterHints, false)
                .unwrap_err()
        }
    };
    assert!(err.to_string().starts_with("could not save settings to "), "{err}");
}

#[test]
fn a_live_reload_reads_a_changed_file_and_never_moves_a_broken_one() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, r#"{"behaviour":{"showFooterHints":false}}"#);
    assert!(reload_config(&p).is_some_and(|(s, _)| !s.behaviour.show_footer_hints));
    fs::write(&p, "{ half-written").unwrap();
    assert_eq!(reload_config(&p), None);
    assert!(backups(&dir).is_empty());
    assert_eq!(fs::read_to_string(&p).unwrap(), "{ half-written");
}
