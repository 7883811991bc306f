//! Fuzz-style properties over what ask-user reads from disk (run in CI on stable, 2 000 cases
//! each): arbitrary bytes as an event, as a log file, and as a config file never panic, and
//! what is accepted round-trips.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use ask_storage::log_file::{export, import};
use ask_storage::wire::{decode, encode};
use proptest::prelude::*;

/// Bytes that look like our JSON often enough to reach deep into the decoders.
fn jsonish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(br#"{"type":"KeyPressed","key":"down","v":3}"#.to_vec()),
        Just(br#"{"type":"SummaryClamped","edge":"end","v":4}"#.to_vec()),
        Just(br#"{"type":"PreviewClamped","line":7,"v":4}"#.to_vec()),
        Just(br#"{"type":"EditorWrapped","width":7,"v":5}"#.to_vec()),
        Just(br#"{"type":"SettingsChanged","settings":{"behaviour":{},"keymaps":{"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"enter","optionNote":"n","questionNote":"shift+n"}},"v":1}"#.to_vec()),
        Just(br#"{"format":"ask-user-log","version":1,"flowId":"f"}"#.to_vec()),
        Just(b"\n".to_vec()),
        Just(br#""v":"#.to_vec()),
        prop::collection::vec(any::<u8>(), 0..12),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_as_an_event_decode_or_fail_cleanly(bytes in jsonish()) {
        if let Ok(event) = decode(&bytes) {
            prop_assert_eq!(decode(&encode(&event).unwrap()).unwrap(), event);
        }
    }

    #[test]
    fn any_text_as_a_log_file_imports_or_fails_cleanly(bytes in jsonish()) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok((header, events)) = import(&text) {
            let again = export(&header.flow_id, &header.command, &events).unwrap();
            prop_assert_eq!(import(&again).unwrap().1, events);
        }
    }

    #[test]
    fn any_bytes_as_a_config_file_load_to_usable_settings(bytes in jsonish()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        std::fs::write(&path, &bytes).unwrap();
        let loaded = ask_storage::load_settings_with_env(Some(&path), Some(Default::default()));
        prop_assert!(loaded.answer.extraction_retries <= 3);
        // Whatever was there is either used or kept aside, never lost.
        let kept = std::fs::read_dir(dir.path()).unwrap().count();
        prop_assert!(kept >= 1);
    }
}
