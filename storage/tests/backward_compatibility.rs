//! Everything an older ask-user wrote must keep opening and replaying to the same result.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use ask_engine::editor::Breaks;
use ask_engine::{Action, Event, FlowState, KeyPress, Settings, SummaryEdge, Toggle};
use ask_storage::Store;
use ask_storage::log_file::{LogFileError, import};
use ask_storage::wire::{DecodeError, decode, encode};
use rstest::rstest;

fn result_json(state: &FlowState) -> String {
    serde_json::to_string(&state.result().expect("completed")).unwrap()
}

#[rstest]
#[case::v1("tests/fixtures/log-v1.jsonl", "tests/fixtures/log-v1.result.json")]
fn checked_in_logs_replay_to_their_recorded_result(#[case] log: &str, #[case] result: &str) {
    let (header, events) = import(&std::fs::read_to_string(log).unwrap()).unwrap();
    assert_eq!(header.flow_id, "fixture-v1");
    let replayed = serde_json::to_value(FlowState::replay(&events).result().expect("completed")).unwrap();
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(result).unwrap()).unwrap();
    assert_eq!(replayed, expected);
}

/// One exported log per event variant of encoding v1, written by the build before v2: each
/// holds its variant and replays to the byte-identical result that build printed.
#[rstest]
#[case::flow_opened_with_notices("flow-opened-notices", "FlowOpened")]
#[case::key_pressed("key-pressed", "KeyPressed")]
#[case::text_pasted("text-pasted", "TextPasted")]
#[case::terminal_resized("terminal-resized", "TerminalResized")]
#[case::settings_changed("settings-changed", "SettingsChanged")]
#[case::settings_save_failed("settings-save-failed", "SettingsSaveFailed")]
#[case::completions_offered("completions-offered", "CompletionsOffered")]
fn every_v1_event_variant_replays_byte_identically(#[case] name: &str, #[case] variant: &str) {
    let text = std::fs::read_to_string(format!("tests/fixtures/logs-v1/{name}.jsonl")).unwrap();
    assert!(
        text.lines().skip(1).any(|l| l.contains(&format!("\"type\":\"{variant}\""))),
        "fixture holds {variant}"
    );
    let (_, events) = import(&text).unwrap();
    let expected = std::fs::read_to_string(format!("tests/fixtures/logs-v1/{name}.result.json")).unwrap();
    assert_eq!(result_json(&FlowState::replay(&events)), expected.trim_end());
}

#[test]
fn a_v1_settings_change_upgrades_without_notices() {
    let line = std::fs::read_to_string("tests/fixtures/logs-v1/settings-changed.jsonl").unwrap();
    let v1 = line.lines().find(|l| l.contains("SettingsChanged")).unwrap();
    assert!(v1.contains("\"v\":1") && !v1.contains("notices"));
    let Event::SettingsChanged { settings, notices } = decode(v1.as_bytes()).unwrap() else {
        panic!("variant")
    };
    assert!(settings.behaviour.auto_submit_when_answered_without_notes);
    assert!(notices.is_empty());
    let again =
        encode(&Event::SettingsChanged { settings, notices: vec!["Keymaps not used".into()] }).unwrap();
    let text = String::from_utf8(again).unwrap();
    assert!(text.contains("\"v\":3") && text.contains("\"notices\":[\"Keymaps not used\"]"), "{text}");
}

/// Version 3 carries the extension keymaps (`filter`); v1 and v2 events, written before they
/// existed, read with the defaults.
#[test]
fn keymap_extensions_round_trip_and_older_events_get_their_defaults() {
    let line = std::fs::read_to_string("tests/fixtures/logs-v1/settings-changed.jsonl").unwrap();
    let v1 = line.lines().find(|l| l.contains("SettingsChanged")).unwrap();
    for old in [v1.to_owned(), v1.replace("\"v\":1", "\"v\":2")] {
        let Event::SettingsChanged { settings, .. } = decode(old.as_bytes()).unwrap() else {
            panic!("variant")
        };
        assert_eq!(settings.keymaps.filter.to_string(), "/", "{old}");
    }
    let Event::SettingsChanged { mut settings, .. } = decode(v1.as_bytes()).unwrap() else {
        panic!("variant")
    };
    settings.keymaps.filter = ask_engine::KeyPress::parse("ctrl+f").unwrap();
    let event = Event::SettingsChanged { settings, notices: vec![] };
    let text = String::from_utf8(encode(&event).unwrap()).unwrap();
    assert!(
        text.contains("\"keymapExtensions\":{\"filter\":\"ctrl+f\",\"redo\":\"ctrl+y\",\"undo\":\"ctrl+z\"}")
            && text.ends_with("\"v\":3}"),
        "{text}"
    );
    assert_eq!(decode(text.as_bytes()).unwrap(), event);
}

#[test]
fn the_store_written_by_the_previous_build_opens_and_replays_byte_identically() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.redb");
    std::fs::copy("tests/fixtures/store-v1.redb", &path).unwrap();
    let store = Store::open(&path).expect("an old store opens (and gains version rows)");
    let ids: Vec<String> = store.flows().unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), 4);
    for id in ["done-1", "cancelled-4", "done-2", "open-3"] {
        assert!(ids.contains(&id.to_owned()), "{id} listed");
        assert_eq!(store.flow(id).unwrap().unwrap().version, 1, "old records read as version 1");
    }
    for (id, file) in [("done-1", "store-v1.done-1.json"), ("done-2", "store-v1.done-2.json")] {
        let expected = std::fs::read_to_string(format!("tests/fixtures/{file}")).unwrap();
        assert_eq!(result_json(&FlowState::replay(&store.events(id).unwrap())), expected.trim_end(), "{id}");
    }
    let open = store.events("open-3").unwrap();
    assert_eq!(open.len(), 6);
    assert!(FlowState::replay(&open).outcome().is_none(), "the unfinished flow is still open");
    assert_eq!(store.payloads("s1").unwrap().len(), 2);
    assert_eq!(store.payloads("s2").unwrap().len(), 2);
    drop(store);
    let reopened = Store::open(&path).unwrap();
    assert_eq!(reopened.events("done-1").unwrap().len(), 30, "opening twice changes nothing");
}

#[test]
fn events_without_a_version_are_read_as_version_1() {
    assert!(decode(br#"{"type":"KeyPressed","key":"down"}"#).is_ok());
}

/// Version 4 adds `SummaryClamped` (the review summary drawn at one of its ends) and
/// `PreviewClamped` (the preview's last page drawn from above its scroll position). Only those
/// events are written as version 4: every other event is still version 3, so an older ask-user
/// reads every flow in which nothing was clamped. A version-4 line of an older kind (what a
/// later build might write) reads as that kind.
#[rstest]
#[case::summary_end(Event::SummaryClamped { edge: SummaryEdge::End }, r#"{"type":"SummaryClamped","edge":"end","v":4}"#)]
#[case::summary_top(Event::SummaryClamped { edge: SummaryEdge::Top }, r#"{"type":"SummaryClamped","edge":"top","v":4}"#)]
#[case::preview(Event::PreviewClamped { line: 37 }, r#"{"type":"PreviewClamped","line":37,"v":4}"#)]
fn version_4_is_written_only_for_the_events_it_adds(#[case] event: Event, #[case] line: &str) {
    assert_eq!(String::from_utf8(encode(&event).unwrap()).unwrap(), line);
    assert_eq!(decode(line.as_bytes()).unwrap(), event);
    let key = Event::key(ask_engine::KeyPress::parse("pageDown").unwrap());
    assert!(String::from_utf8(encode(&key).unwrap()).unwrap().ends_with(r#","v":3}"#));
    assert_eq!(decode(br#"{"type":"KeyPressed","key":"pageDown","v":4}"#).unwrap(), key);
    for bad in [
        r#"{"type":"SummaryClamped","edge":"middle","v":4}"#,
        r#"{"type":"SummaryClamped","v":4}"#,
        r#"{"type":"PreviewClamped","line":-1,"v":4}"#,
    ] {
        assert!(matches!(decode(bad.as_bytes()), Err(DecodeError::Malformed(_))), "{bad}");
    }
    assert!(
        matches!(
            decode(r#"{"type":"SummaryClamped","edge":"end","v":3}"#.as_bytes()),
            Err(DecodeError::Malformed(_))
        ),
        "version 3 has no such event"
    );
}

/// Version 5 adds `EditorWrapped` (an editor drawn at a width the flow had not recorded): only
/// it is written as version 5, clamps stay version 4 and everything else version 3, so a build
/// that reads version 4 reads every flow in which no editor was drawn. Version-5 lines of older
/// kinds read as those kinds.
#[test]
fn version_5_is_written_only_for_the_event_it_adds() {
    let wrapped = Event::EditorWrapped { width: 71, breaks: Breaks::Words };
    let line = r#"{"type":"EditorWrapped","width":71,"v":5}"#;
    assert_eq!(String::from_utf8(encode(&wrapped).unwrap()).unwrap(), line);
    assert_eq!(decode(line.as_bytes()).unwrap(), wrapped);
    let clamp = Event::PreviewClamped { line: 3 };
    assert!(String::from_utf8(encode(&clamp).unwrap()).unwrap().ends_with(r#","v":4}"#));
    assert_eq!(decode(br#"{"type":"PreviewClamped","line":3,"v":5}"#).unwrap(), clamp);
    let key = Event::key(ask_engine::KeyPress::parse("up").unwrap());
    assert_eq!(decode(br#"{"type":"KeyPressed","key":"up","v":5}"#).unwrap(), key);
    for bad in [
        r#"{"type":"EditorWrapped","width":70000,"v":5}"#,
        r#"{"type":"EditorWrapped","width":-1,"v":5}"#,
        r#"{"type":"EditorWrapped","v":5}"#,
        r#"{"type":"EditorWrapped","width":71,"v":4}"#,
    ] {
        assert!(matches!(decode(bad.as_bytes()), Err(DecodeError::Malformed(_))), "{bad}");
    }
}

/// Version 6 adds the rule an editor's rows broke by: only an editor drawn with rows broken at
/// spaces is written as version 6, so a build that reads version 5 reads every flow whose
/// editors were drawn by the older rule, and a version-5 `EditorWrapped` (which names no rule)
/// reads as rows broken at every word boundary: a stored log replays to the answers it was
/// typed as.
#[test]
fn version_6_is_written_only_for_an_editor_wrapped_at_spaces() {
    let spaced = Event::EditorWrapped { width: 71, breaks: Breaks::Spaces };
    let line = r#"{"type":"EditorWrapped","width":71,"breaks":"spaces","v":6}"#;
    assert_eq!(String::from_utf8(encode(&spaced).unwrap()).unwrap(), line);
    assert_eq!(decode(line.as_bytes()).unwrap(), spaced);
    let by_words = Event::EditorWrapped { width: 71, breaks: Breaks::Words };
    assert_eq!(decode(br#"{"type":"EditorWrapped","width":71,"breaks":"words","v":6}"#).unwrap(), by_words);
    assert_eq!(decode(br#"{"type":"EditorWrapped","width":71,"v":5}"#).unwrap(), by_words);
    let key = Event::key(ask_engine::KeyPress::parse("up").unwrap());
    assert_eq!(decode(br#"{"type":"KeyPressed","key":"up","v":6}"#).unwrap(), key);
    assert!(String::from_utf8(encode(&key).unwrap()).unwrap().ends_with(r#","v":3}"#));
    for bad in [
        r#"{"type":"EditorWrapped","breaks":"spaces","v":6}"#,
        r#"{"type":"EditorWrapped","width":70000,"breaks":"spaces","v":6}"#,
        // Version 6 names the rule: without one, or with one this build does not know, the
        // line is refused rather than read as the older rule.
        r#"{"type":"EditorWrapped","width":71,"v":6}"#,
        r#"{"type":"EditorWrapped","width":71,"breaks":"hyphens","v":6}"#,
    ] {
        assert!(matches!(decode(bad.as_bytes()), Err(DecodeError::Malformed(_))), "{bad}");
    }
}

#[rstest]
#[case::newer(br#"{"v":99,"type":"KeyPressed","key":"down"}"#.as_slice(), DecodeError::Newer(99))]
#[case::next(br#"{"v":7,"type":"KeyPressed","key":"down"}"#.as_slice(), DecodeError::Newer(7))]
fn newer_event_versions_are_refused_by_name(#[case] line: &[u8], #[case] expected: DecodeError) {
    let err = decode(line).unwrap_err();
    assert_eq!(err, expected);
    assert!(err.to_string().contains("upgrade ask-user"));
}

#[rstest]
#[case::empty("", LogFileError::NoHeader)]
#[case::not_a_log("{\"hello\":1}\n", LogFileError::NoHeader)]
#[case::newer(r#"{"format":"ask-user-log","version":7,"flowId":"f"}"#, LogFileError::Newer(7))]
#[case::no_opening(
    "{\"format\":\"ask-user-log\",\"version\":1,\"flowId\":\"f\"}\n{\"v\":1,\"type\":\"KeyPressed\",\"key\":\"down\"}\n",
    LogFileError::NotOpened
)]
fn bad_log_files_are_named_errors(#[case] text: &str, #[case] expected: LogFileError) {
    assert_eq!(import(text).unwrap_err(), expected);
}

#[test]
fn a_torn_event_line_names_its_line() {
    let text = std::fs::read_to_string("tests/fixtures/log-v1.jsonl").unwrap();
    let torn = &text[..text.len() - 10];
    assert!(matches!(import(torn), Err(LogFileError::BadLine { line, .. }) if line == text.lines().count()));
}

/// A flow resumed, replayed or exported keeps the keys and toggles its user had set: each one,
/// changed alone from its default, reads back as it was written (a reader that dropped one would
/// bring back its default, and the form would answer another key than the one it shows). Every
/// action and toggle there is, so one added later is covered too.
#[test]
fn every_keymap_and_toggle_a_flow_recorded_reads_back_as_it_was() {
    for action in Action::every() {
        let mut settings = Settings::default();
        settings.keymaps.set(action, KeyPress::parse("f7").unwrap());
        assert_settings_read_back(settings);
    }
    for toggle in Toggle::ALL {
        let mut settings = Settings::default();
        settings.behaviour.set(toggle, !settings.behaviour.get(toggle));
        assert_settings_read_back(settings);
    }
}

fn assert_settings_read_back(settings: Settings) {
    assert_ne!(settings, Settings::default());
    let event = Event::SettingsChanged { settings: Box::new(settings), notices: vec![] };
    assert_eq!(decode(&encode(&event).unwrap()).unwrap(), event);
}

/// A toggle an older build did not write reads as its default, not as off.
#[test]
fn toggles_absent_from_a_stored_event_read_as_their_defaults() {
    let keymaps = r#"{"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"enter","optionNote":"n","questionNote":"shift+n"}"#;
    let line =
        format!(r#"{{"type":"SettingsChanged","settings":{{"behaviour":{{}},"keymaps":{keymaps}}},"v":2}}"#);
    let Event::SettingsChanged { settings, .. } = decode(line.as_bytes()).unwrap() else { panic!("variant") };
    assert_eq!(*settings, Settings::default());
}
