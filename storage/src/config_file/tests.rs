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
#[case::unknown_presentation(
    r#"{"mcp":{"presentation":["tmux","zellij"]}}"#,
    "mcp.presentation names \"zellij\""
)]
#[case::unknown_notify(r#"{"ui":{"notify":"fax"}}"#, "ui.notify is \"fax\"")]
#[case::negative_reminder(r#"{"ui":{"remindAfterMinutes":-1}}"#, "ui.remindAfterMinutes must be")]
#[case::unknown_notify_when(r#"{"ui":{"notifyWhen":"never"}}"#, "ui.notifyWhen is \"never\"")]
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

/// A config that exists but cannot be read (here a symbolic link that loops) is not taken for a
/// missing one: saving a toggle fails with a message and leaves it, rather than writing a
/// fresh file over what the user had.
#[test]
fn spec6_saving_into_a_config_that_cannot_be_read_fails_and_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("config.json");
    std::os::unix::fs::symlink(&p, &p).unwrap();
    let err = save_toggle(&p, Toggle::ShowFooterHints, false).unwrap_err();
    assert!(err.to_string().starts_with("could not save settings to "), "{err}");
    assert!(fs::symlink_metadata(&p).unwrap().file_type().is_symlink(), "the link is left as it was");
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

/// Every allowed value of the checked `ui` and `mcp` settings is used as written, without a
/// notice or a backup.
#[rstest]
#[case::every_presentation(json!({"mcp":{"presentation":["terminal","elicitation","tmux"],"waitSeconds":10}}))]
#[case::no_reminder(json!({"ui":{"remindAfterMinutes":0,"notify":"bell","notifyWhen":"always"}}))]
#[case::a_reminder_in_fractions(json!({"ui":{"remindAfterMinutes":2.5,"notify":"osc777","notifyWhen":"unfocused"}}))]
fn spec6_allowed_values_are_used_as_written(#[case] file: Value) {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, &file.to_string());
    let loaded = load(&p);
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert!(backups(&dir).is_empty());
    if let Some(mcp) = file.get("mcp") {
        assert_eq!(serde_json::to_value(&loaded.mcp).unwrap(), *mcp);
    }
    if let Some(ui) = file.get("ui") {
        let used = serde_json::to_value(&loaded.ui).unwrap();
        for (key, value) in ui.as_object().unwrap() {
            assert_eq!(used[key], *value, "{key}");
        }
    }
}

/// A config path that cannot be read (here a directory) is reported; nothing is written there.
#[test]
fn spec6_a_config_that_cannot_be_read_is_named_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("config.json");
    fs::create_dir(&p).unwrap();
    let loaded = load(&p);
    assert_eq!(loaded.settings, Settings::default());
    assert_eq!(loaded.notices.len(), 1, "{:?}", loaded.notices);
    assert!(loaded.notices[0].starts_with("Could not read"), "{:?}", loaded.notices);
    assert!(p.is_dir() && fs::read_dir(&p).unwrap().next().is_none());
}

fn load_with(file: &Value, vars: &[(&str, &str)]) -> (tempfile::TempDir, LoadedConfig) {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, &file.to_string());
    let env = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let loaded = load_settings_with_env(Some(&p), Some(env));
    (dir, loaded)
}

/// Every setting can be overridden for one run, with the type it has in the file: a fraction,
/// a list given as a JSON array, a key id that reads as a number (an MCP client sets
/// `ASK_USER__MCP__WAIT_SECONDS` in its server entry's `env`).
#[rstest]
#[case::a_fraction("ASK_USER__UI__REMIND_AFTER_MINUTES", "2.5", "ui", "remindAfterMinutes", json!(2.5))]
#[case::a_whole_number("ASK_USER__UI__TIMEOUT_SECONDS", "90", "ui", "timeoutSeconds", json!(90))]
#[case::text("ASK_USER__UI__NOTIFY", "bell", "ui", "notify", json!("bell"))]
#[case::a_flag("ASK_USER__UI__PLAIN", "true", "ui", "plain", json!(true))]
#[case::a_command("ASK_USER__UI__NOTIFY_COMMAND", r#"["notify-send", "ask-user"]"#, "ui", "notifyCommand", json!(["notify-send", "ask-user"]))]
#[case::the_extractor("ASK_USER__ANSWER__EXTRACTION_COMMAND", r#"["llm","-m","x"]"#, "answer", "extractionCommand", json!(["llm", "-m", "x"]))]
#[case::retries("ASK_USER__ANSWER__EXTRACTION_RETRIES", "3", "answer", "extractionRetries", json!(3))]
#[case::retention("ASK_USER__STORE__RETENTION_DAYS", "7", "store", "retentionDays", json!(7))]
#[case::the_mcp_wait("ASK_USER__MCP__WAIT_SECONDS", "600", "mcp", "waitSeconds", json!(600))]
#[case::the_mcp_rungs("ASK_USER__MCP__PRESENTATION", r#"["terminal"]"#, "mcp", "presentation", json!(["terminal"]))]
fn spec6_every_setting_can_be_overridden_from_the_environment(
    #[case] var: &str,
    #[case] text: &str,
    #[case] section: &str,
    #[case] key: &str,
    #[case] expected: Value,
) {
    let (_dir, loaded) = load_with(&json!({}), &[(var, text)]);
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    let sections = json!({
        "ui": loaded.ui, "answer": loaded.answer, "store": loaded.store, "mcp": loaded.mcp,
    });
    assert_eq!(sections[section][key], expected);
}

#[test]
fn spec6_a_key_id_that_reads_as_a_number_binds_from_the_environment() {
    let (_dir, loaded) = load_with(&json!({}), &[("ASK_USER__KEYMAPS__OPTION_NOTE", "0")]);
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert_eq!(loaded.settings.keymaps.option_note.to_string(), "0");
}

/// One keymap override binds over the file's own keymaps, which stay as written otherwise; over
/// keymaps the file got wrong, an override that mends them puts them in force, and one that
/// does not is not blamed for the file's mistake.
#[rstest]
#[case::over_the_files_keymaps("ctrl+k", "ASK_USER__KEYMAPS__TOGGLE", "x", json!(["esc", "x", "ctrl+k"]), None)]
#[case::mending_the_files_keymaps("n", "ASK_USER__KEYMAPS__CONFIRM", "ctrl+j", json!(["esc", "space", "ctrl+j"]), None)]
#[case::not_mending_them("n", "ASK_USER__KEYMAPS__CANCEL", "q", json!(["esc", "space", "enter"]), Some("Keymaps not used, defaults in force: keymaps.confirm and keymaps.optionNote are both bound"))]
fn spec6_a_keymap_override_binds_over_the_files_keymaps(
    #[case] files_confirm: &str,
    #[case] var: &str,
    #[case] key: &str,
    #[case] cancel_toggle_confirm: Value,
    #[case] notice: Option<&str>,
) {
    let keymaps = json!({"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":files_confirm,"optionNote":"n","questionNote":"shift+n"});
    let (_dir, loaded) = load_with(&json!({ "keymaps": keymaps }), &[(var, key)]);
    let k = &loaded.settings.keymaps;
    assert_eq!(
        json!([k.cancel.to_string(), k.toggle.to_string(), k.confirm.to_string()]),
        cancel_toggle_confirm
    );
    match notice {
        None => assert!(loaded.notices.is_empty(), "{:?}", loaded.notices),
        Some(notice) => {
            assert_eq!(loaded.notices.len(), 1, "{:?}", loaded.notices);
            assert!(loaded.notices[0].starts_with(notice), "{:?}", loaded.notices);
        }
    }
}

/// An override that does not fit is named with why, and left out alone: the file's own values in
/// that section, and the overrides that fit, stay in force (one used to drop its whole section
/// back to the defaults without a word).
#[rstest]
#[case::a_list_not_given_as_an_array("ASK_USER__UI__NOTIFY_COMMAND", "notify-send hi", "expected a sequence")]
#[case::a_broken_array("ASK_USER__UI__NOTIFY_COMMAND", "[notify-send", "not a JSON array")]
#[case::a_notification_kind_there_is_none_of("ASK_USER__UI__NOTIFY", "fax", "ui.notify is \"fax\"")]
#[case::a_negative_reminder("ASK_USER__UI__REMIND_AFTER_MINUTES", "-1", "ui.remindAfterMinutes must be")]
#[case::retries_out_of_range("ASK_USER__ANSWER__EXTRACTION_RETRIES", "7", "0 to 3")]
#[case::an_unknown_rung("ASK_USER__MCP__PRESENTATION", r#"["zellij"]"#, "mcp.presentation names")]
#[case::text_for_a_number("ASK_USER__MCP__WAIT_SECONDS", "soon", "ill-typed")]
#[case::an_unknown_ui_setting("ASK_USER__UI__COLOUR", "red", "unknown field `colour`")]
#[case::an_unknown_toggle("ASK_USER__BEHAVIOUR__SHOW_HINTS", "false", "not a setting")]
#[case::an_unknown_action("ASK_USER__KEYMAPS__SUBMIT", "ctrl+s", "not a setting")]
#[case::an_unknown_section("ASK_USER__THEME__ACCENT", "blue", "not a setting")]
#[case::a_reserved_key("ASK_USER__KEYMAPS__CONFIRM", "9", "\"9\" is reserved for navigation")]
#[case::a_key_bound_twice("ASK_USER__KEYMAPS__CONFIRM", "n", "both bound")]
#[case::a_toggle_that_is_not_a_flag("ASK_USER__BEHAVIOUR__SHOW_FOOTER_HINTS", "maybe", "not true or false")]
fn spec6_an_override_that_does_not_fit_is_named_and_left_out_alone(
    #[case] var: &str,
    #[case] text: &str,
    #[case] why: &str,
) {
    let keymaps = json!({"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"ctrl+k","optionNote":"n","questionNote":"shift+n"});
    let file = json!({"ui": {"notify": "bell", "timeoutSeconds": 30}, "mcp": {"waitSeconds": 100}, "keymaps": keymaps});
    let fits = ("ASK_USER__ANSWER__EXTRACTION_TIMEOUT_MS", "5000");
    let (dir, loaded) = load_with(&file, &[(var, text), fits]);
    assert_eq!(loaded.notices.len(), 1, "{:?}", loaded.notices);
    let notice = &loaded.notices[0];
    assert!(notice.starts_with("Environment override ") && notice.contains(why), "{notice}");
    assert!(notice.contains(&format!("= {text} ignored")), "{notice}");
    assert_eq!((loaded.ui.notify.as_str(), loaded.ui.timeout_seconds), ("bell", 30));
    assert_eq!(loaded.mcp.wait_seconds, 100);
    assert_eq!(loaded.answer.extraction_timeout_ms, 5000, "the override that fits is in force");
    assert!(loaded.settings.behaviour.show_footer_hints);
    assert_eq!(loaded.settings.keymaps.confirm.to_string(), "ctrl+k", "the file's keymaps stay");
    assert!(backups(&dir).is_empty(), "an override never moves the file");
}

/// A file moved aside hands its retention to the file written in its place, and the notice
/// says so when that differs from the default; a retention that cannot be read keeps every flow.
#[rstest]
#[case::kept(
    r#"{"answer":{"extractionRetries":7},"store":{"retentionDays":0}}"#,
    0,
    "keeping its store.retentionDays 0"
)]
#[case::unreadable(
    r#"{"store":{"retentionDays":-5}}"#,
    0,
    "keeping every finished flow until store.retentionDays is set again"
)]
#[case::not_json("{\"store\":", 0, "keeping every finished flow")]
#[case::not_an_object("[90]", 0, "keeping every finished flow")]
#[case::default(r#"{"answer":{"extractionRetries":7}}"#, 90, "defaults are in use.")]
fn spec6_a_backed_up_file_keeps_its_retention(#[case] text: &str, #[case] days: u64, #[case] said: &str) {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, text);
    let loaded = load(&p);
    assert_eq!(loaded.store.retention_days, days, "this run");
    assert!(loaded.notices[0].contains(said), "{:?}", loaded.notices);
    let fresh: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(fresh["store"]["retentionDays"], days, "the file written in its place");
    assert_eq!(load(&p).store.retention_days, days, "the next run");
}

/// A config given by mistake (no .json file, not JSON) is left alone and its retention is
/// unknown: nothing is pruned on the defaults' word this run.
#[test]
fn a_file_that_is_no_config_prunes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(".bashrc");
    fs::write(&p, "export PATH=$PATH:~/bin\n").unwrap();
    let loaded = load(&p);
    assert_eq!(loaded.store.retention_days, 0);
    assert!(loaded.notices[0].contains("keeping finished flows this time"), "{:?}", loaded.notices);
    assert_eq!(fs::read_to_string(&p).unwrap(), "export PATH=$PATH:~/bin\n");
}
