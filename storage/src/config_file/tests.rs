use super::*;
use rstest::rstest;

fn write(dir: &tempfile::TempDir, text: &str) -> PathBuf {
    let p = dir.path().join("config.json");
    fs::write(&p, text).unwrap();
    p
}

#[test]
fn missing_file_gives_defaults_without_notices() {
    let dir = tempfile::tempdir().unwrap();
    let loaded = load_settings(Some(&dir.path().join("none.json")));
    assert_eq!(loaded.settings, Settings::default());
    assert!(loaded.notices.is_empty());
}

#[rstest]
#[case::partial_behaviour(r#"{"behaviour":{"doublePressReviewShortcuts":false}}"#, false, "enter", 0)]
#[case::remapped_confirm(r#"{"keymaps":{"cancel":"escape","dismiss":"control+c","toggle":"space","confirm":"ctrl+k","optionNote":"n","questionNote":"Shift+N"}}"#, true, "ctrl+k", 0)]
#[case::incomplete_keymaps_fall_back(
    r#"{"keymaps":{"confirm":"ctrl+k"},"behaviour":{"doublePressReviewShortcuts":false}}"#,
    false,
    "enter",
    1
)]
#[case::reserved_key_falls_back(r#"{"keymaps":{"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"tab","optionNote":"n","questionNote":"shift+n"}}"#, true, "enter", 1)]
#[case::duplicate_key_falls_back(r#"{"keymaps":{"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"n","optionNote":"n","questionNote":"shift+n"}}"#, true, "enter", 1)]
#[case::bad_json(r#"{"behaviour":"#, true, "enter", 1)]
fn d29_partial_files_load_and_bad_keymaps_fall_back(
    #[case] text: &str,
    #[case] double_press: bool,
    #[case] confirm: &str,
    #[case] notices: usize,
) {
    let dir = tempfile::tempdir().unwrap();
    let loaded = load_settings(Some(&write(&dir, text)));
    assert_eq!(loaded.settings.behaviour.double_press_review_shortcuts, double_press);
    assert_eq!(loaded.settings.keymaps.confirm.to_string(), confirm);
    assert_eq!(loaded.notices.len(), notices, "{:?}", loaded.notices);
}

#[test]
fn d29_save_keeps_user_keymaps_and_unknown_fields() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, r#"{"keymaps":{"confirm":"ctrl+k"},"mine":1}"#);
    let mut s = Settings::default();
    s.behaviour.show_footer_hints = false;
    save_behaviour(&p, &s).unwrap();
    let text = fs::read_to_string(&p).unwrap();
    assert!(text.ends_with("}\n"));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["schemaVersion"], 2);
    assert_eq!(v["mine"], 1);
    assert_eq!(v["keymaps"], json!({"confirm":"ctrl+k"}));
    assert_eq!(v["behaviour"]["showFooterHints"], false);
    assert_eq!(v["answer"]["extractionRetries"], 1);
}
