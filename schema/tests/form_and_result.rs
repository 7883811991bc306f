//! What the engine and the frontends read off the normalized form and the result: a question
//! kind's wire name, what makes a question free-form, how the free-form marker is stored, the
//! result's text, which answers are sent, and the published schema of `details` (an MCP tool's
//! `outputSchema`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use ask_schema::{Answer, FormSource, QuestionType, ToolResult, details_schema, validate};
use rstest::rstest;
use serde_json::{Value, json};

#[rstest]
#[case::single("single", QuestionType::Single, false)]
#[case::multi("multi", QuestionType::Multi, true)]
#[case::preview("preview", QuestionType::Preview, false)]
fn spec3_a_question_kind_has_one_wire_name(
    #[case] name: &str,
    #[case] kind: QuestionType,
    #[case] toggles: bool,
) {
    let raw = json!({"questions": [{"id": "a", "type": name, "prompt": "P",
        "options": [{"value": "x", "label": "X", "preview": "p"}]}]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    assert_eq!(form.questions[0].kind, kind);
    assert_eq!(kind.as_str(), name, "the name the result's `questions[].type` says");
    assert_eq!(QuestionType::from_name(name), Some(kind));
    assert_eq!(kind.is_multi(), toggles, "multi questions toggle, the others select one");
}

/// A question is free-form (typed answer only, no numbered rows) when its one option is the
/// `/answer` marker; any other list gives a row per option.
#[rstest]
#[case::the_marker_alone(json!([{"value": "f", "label": "Type", "freeform": true}]), FormSource::AnswerExtraction, true, 0)]
#[case::one_plain_option(json!([{"value": "x", "label": "X"}]), FormSource::Tool, false, 1)]
#[case::three_options(json!([{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}, {"value": "z", "label": "Z"}]), FormSource::Tool, false, 3)]
fn spec3_what_makes_a_question_free_form(
    #[case] options: Value,
    #[case] source: FormSource,
    #[case] freeform: bool,
    #[case] rows: usize,
) {
    let form =
        validate(&json!({"questions": [{"id": "a", "prompt": "P", "options": options}]}), source).unwrap();
    assert_eq!(form.questions[0].is_freeform(), freeform);
    assert_eq!(form.questions[0].declared_rows(), rows);
}

/// The form is stored in the log's opening event: the marker is written where it is set, so a
/// resumed `/answer` form is still free-form, and nowhere else (a tool form's options stay as
/// the agent sent them).
#[rstest]
#[case::answer_form(json!({"value": "f", "label": "Type", "freeform": true}), FormSource::AnswerExtraction, Some(true))]
#[case::tool_form(json!({"value": "x", "label": "X"}), FormSource::Tool, None)]
fn the_free_form_marker_is_stored_only_where_it_is_set(
    #[case] option: Value,
    #[case] source: FormSource,
    #[case] stored: Option<bool>,
) {
    let form =
        validate(&json!({"questions": [{"id": "a", "prompt": "P", "options": [option]}]}), source).unwrap();
    let written = serde_json::to_value(&form).unwrap();
    assert_eq!(written["questions"][0]["options"][0].get("freeform").and_then(Value::as_bool), stored);
    assert_eq!(serde_json::from_value::<ask_schema::Form>(written).unwrap(), form);
}

fn submitted() -> Value {
    json!({"content": [{"type": "text", "text": "Database: SQLite\nDatabase note: why"}],
        "details": {"cancelled": false, "mode": "submit",
            "questions": [{"id": "db", "label": "Database", "prompt": "Which database?", "type": "single"}],
            "answers": {"db": {"values": ["lite"], "labels": ["SQLite"], "indices": [2], "note": "why"}}}})
}

#[test]
fn contract_the_result_text_is_its_first_content_block() {
    let result: ToolResult = serde_json::from_value(submitted()).unwrap();
    assert_eq!(result.text(), "Database: SQLite\nDatabase note: why");
    let mut empty = submitted();
    empty["content"] = json!([]);
    assert_eq!(serde_json::from_value::<ToolResult>(empty).unwrap().text(), "");
}

/// An answer is committed when it has a value, an option or typed text; a note alone is not an
/// answer.
#[rstest]
#[case::nothing(Answer::default(), false)]
#[case::a_note_only(Answer { note: Some("why".into()), ..Answer::default() }, false)]
#[case::an_option(Answer { values: vec!["lite".into()], ..Answer::default() }, true)]
fn contract_an_answer_is_committed_by_a_value(#[case] answer: Answer, #[case] committed: bool) {
    assert_eq!(answer.is_committed(), committed);
}

#[test]
fn the_details_schema_accepts_real_details_and_refuses_others() {
    let schema = jsonschema::validator_for(&details_schema()).unwrap();
    let details = submitted()["details"].clone();
    assert!(schema.is_valid(&details));
    for (field, wrong) in [("cancelled", json!("no")), ("answers", json!([])), ("mode", json!("later"))] {
        let mut bad = details.clone();
        bad[field] = wrong;
        assert!(!schema.is_valid(&bad), "{field}: {bad}");
    }
}
