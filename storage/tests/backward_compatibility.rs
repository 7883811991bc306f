//! Logs written by every released event version must keep replaying to the same result.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use ask_engine::FlowState;
use ask_storage::log_file::{LogFileError, import};
use ask_storage::log_format::{DecodeError, decode};
use rstest::rstest;

#[rstest]
#[case::v1("tests/fixtures/log-v1.jsonl", "tests/fixtures/log-v1.result.json")]
fn checked_in_logs_replay_to_their_recorded_result(#[case] log: &str, #[case] result: &str) {
    let (header, events) = import(&std::fs::read_to_string(log).unwrap()).unwrap();
    assert_eq!(header.flow_id, "fixture-v1");
    let state = FlowState::replay(&events);
    let replayed = serde_json::to_value(state.result().expect("completed")).unwrap();
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(result).unwrap()).unwrap();
    assert_eq!(replayed, expected);
}

#[test]
fn events_without_a_version_are_read_as_version_1() {
    assert!(decode(br#"{"type":"KeyPressed","key":"down"}"#).is_ok());
}

#[test]
fn newer_event_versions_are_refused_not_misread() {
    assert_eq!(decode(br#"{"v":99,"type":"KeyPressed","key":"down"}"#), Err(DecodeError::Newer(99)));
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
