//! pi session files: branch selection, stored forms, the latest assistant message.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use ask_schema::FormSource;
use ask_storage::pi_session::{PiError, branch, entries, latest_assistant, stored_forms};
use rstest::rstest;

fn fixture() -> String {
    // A copy of the shared fixture, so the suite runs on any clone.
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/pi-session-two-branches.jsonl"
    ))
    .unwrap()
}

fn newest(text: &str, leaf: Option<&str>, source: FormSource) -> Option<String> {
    let e = entries(text);
    let b = branch(&e, leaf).unwrap();
    stored_forms(&b).into_iter().rev().find(|f| f.source == source).map(|f| f.entry_id)
}

#[rstest]
#[case::default_leaf_tool(None, FormSource::Tool, Some("c75ce694"))]
#[case::default_leaf_answer(None, FormSource::AnswerExtraction, Some("ad31b954"))]
#[case::branch_a_tool(Some("df580568"), FormSource::Tool, Some("0b03f325"))]
#[case::branch_a_has_no_answer_form(Some("df580568"), FormSource::AnswerExtraction, None)]
#[case::before_any_form(Some("0a685d49"), FormSource::Tool, None)]
#[case::leaf_in_middle_ignores_future(Some("893f0ea3"), FormSource::AnswerExtraction, None)]
fn contract_replay_scans_only_the_current_branch(
    #[case] leaf: Option<&str>,
    #[case] source: FormSource,
    #[case] expected: Option<&str>,
) {
    assert_eq!(newest(&fixture(), leaf, source).as_deref(), expected);
}

#[test]
fn unknown_leaf_is_an_error() {
    let e = entries(&fixture());
    assert_eq!(branch(&e, Some("nope")), Err(PiError::UnknownLeaf("nope".into())));
}

#[test]
fn malformed_lines_unknown_types_and_a_torn_last_line_are_skipped() {
    let mut text = fixture();
    text.insert_str(0, "not json at all\n");
    text.push_str("{\"type\":\"mystery\",\"id\":\"zz1\",\"parentId\":\"8298ab9e\"}\n");
    text.push_str("{\"type\":\"message\",\"id\":\"torn\",\"parentId\":\"zz1\",\"mess");
    assert_eq!(newest(&text, None, FormSource::Tool).as_deref(), Some("c75ce694"));
}

#[rstest]
#[case::default_branch(None, "f3bd0b1c", Some("stop"))]
#[case::branch_a(Some("44ce8db4"), "df580568", Some("stop"))]
#[case::tool_use_message_with_text(Some("0b03f325"), "451c3c90", Some("toolUse"))]
fn latest_assistant_message_on_branch(
    #[case] leaf: Option<&str>,
    #[case] id: &str,
    #[case] stop: Option<&str>,
) {
    let e = entries(&fixture());
    let m = latest_assistant(&branch(&e, leaf).unwrap()).unwrap();
    assert_eq!((m.entry_id.as_str(), m.stop_reason.as_deref()), (id, stop));
}

/// Issue 12.5: an `ask:payload` entry of another version (a newer extension's) is never picked;
/// the older version-1 form is, and the skipped one is counted for the notice.
#[test]
fn a_payload_entry_of_an_unknown_version_is_skipped_and_counted() {
    let mut text = fixture();
    let newer = serde_json::json!({"type": "custom", "customType": "ask:payload", "id": "v2form", "parentId": "8298ab9e",
        "data": {"version": 2, "timestamp": 1, "source": "tool", "params": {"questions": "a new shape"}}});
    text.push_str(&format!("{newer}\n"));
    assert_eq!(newest(&text, None, FormSource::Tool).as_deref(), Some("c75ce694"));
    let e = entries(&text);
    let b = branch(&e, None).unwrap();
    assert_eq!(ask_storage::pi_session::unknown_version_forms(&b), 1);
    assert_eq!(
        ask_storage::pi_session::unknown_version_forms(&branch(&entries(&fixture()), None).unwrap()),
        0
    );
}
