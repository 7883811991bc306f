//! The published input schema and the validator agree (issue 12.3): what the schema allows, the
//! validator accepts, `null` for an optional field included, and every example payload passes
//! both. Rules JSON Schema cannot state (unique ids, preview text on every option of a preview
//! question, non-blank after trimming) are the validator's alone: the schema accepts those
//! payloads and the validator explains them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use ask_schema::{FormSource, input_schema, validate};
use rstest::rstest;
use serde_json::{Value, json};

fn schema_accepts(payload: &Value) -> bool {
    jsonschema::validator_for(&input_schema()).unwrap().is_valid(payload)
}

fn validator_accepts(payload: &Value) -> bool {
    validate(payload, FormSource::Tool).is_ok()
}

fn q(extra: Value) -> Value {
    let mut q =
        json!({"id": "db", "prompt": "Which database?", "options": [{"value": "pg", "label": "Postgres"}]});
    for (k, v) in extra.as_object().unwrap() {
        q[k] = v.clone();
    }
    json!({"questions": [q]})
}

#[rstest]
#[case::minimal(q(json!({})), true)]
#[case::null_title(json!({"title": null, "questions": q(json!({}))["questions"]}), true)]
#[case::null_label(q(json!({"label": null})), true)]
#[case::null_type(q(json!({"type": null})), true)]
#[case::null_required(q(json!({"required": null})), true)]
#[case::null_description(q(json!({"options": [{"value": "pg", "label": "Postgres", "description": null}]})), true)]
#[case::null_preview(q(json!({"options": [{"value": "pg", "label": "Postgres", "preview": null}]})), true)]
#[case::multi(q(json!({"type": "multi"})), true)]
#[case::unknown_type(q(json!({"type": "dropdown"})), false)]
#[case::no_questions(json!({}), false)]
#[case::empty_questions(json!({"questions": []}), false)]
#[case::questions_not_array(json!({"questions": {}}), false)]
#[case::no_prompt(json!({"questions": [{"id": "a", "options": [{"value": "x", "label": "X"}]}]}), false)]
#[case::no_options(q(json!({"options": []})), false)]
#[case::option_without_label(q(json!({"options": [{"value": "pg"}]})), false)]
#[case::number_id(q(json!({"id": 7})), false)]
#[case::required_not_bool(q(json!({"required": "yes"})), false)]
#[case::not_an_object(json!([1, 2]), false)]
fn the_schema_and_the_validator_give_the_same_verdict(#[case] payload: Value, #[case] valid: bool) {
    assert_eq!(schema_accepts(&payload), valid, "schema on {payload}");
    assert_eq!(validator_accepts(&payload), valid, "validator on {payload}");
}

#[rstest]
#[case::duplicate_ids(json!({"questions": [
    {"id": "a", "prompt": "A?", "options": [{"value": "x", "label": "X"}]},
    {"id": "a", "prompt": "B?", "options": [{"value": "y", "label": "Y"}]}]}))]
#[case::preview_without_text(q(json!({"type": "preview"})))]
#[case::blank_prompt(q(json!({"prompt": "   "})))]
fn rules_only_the_validator_can_state_are_explained_by_it(#[case] payload: Value) {
    assert!(schema_accepts(&payload), "JSON Schema cannot state this rule: {payload}");
    assert!(!validator_accepts(&payload), "the validator explains it: {payload}");
}

#[test]
fn every_example_payload_passes_both() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let payload: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(schema_accepts(&payload), "{}", path.display());
        assert!(validator_accepts(&payload), "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 4);
}
