//! Payload → exact issues (path, message), in payload order (SPEC §3, D25), and normalization.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use ask_schema::{FormSource, QuestionType, validate, validate_text};
use proptest::prelude::*;
use rstest::rstest;
use serde_json::{Value, json};

fn opt(v: &str) -> Value {
    json!({"value": v, "label": v.to_uppercase()})
}

fn q(id: &str) -> Value {
    json!({"id": id, "prompt": "Pick?", "options": [opt("a")]})
}

fn paths(raw: Value, source: FormSource) -> Vec<(String, String)> {
    validate(&raw, source).expect_err("invalid").into_iter().map(|i| (i.path, i.message)).collect()
}

fn p(path: &str, message: &str) -> (String, String) {
    (path.to_owned(), message.to_owned())
}

#[rstest]
#[case::d25_not_an_object(json!([1]), vec![p("", "payload must be a JSON object")])]
#[case::contract_at_least_one_question(json!({"questions": []}), vec![p("questions", "at least one question is required")])]
#[case::questions_missing(json!({}), vec![p("questions", "questions is required")])]
#[case::questions_wrong_type(json!({"questions": {}}), vec![p("questions", "questions must be an array")])]
#[case::d25_title_blank_is_first(json!({"title": " ", "questions": []}), vec![p("title", "title must not be blank"), p("questions", "at least one question is required")])]
#[case::title_wrong_type(json!({"title": 3, "questions": [q("a")]}), vec![p("title", "title must be a string")])]
#[case::question_not_object(json!({"questions": ["x"]}), vec![p("questions[0]", "Question 1: must be an object")])]
#[case::contract_non_empty_trimmed_id(json!({"questions": [{"id": "  ", "prompt": "P", "options": [opt("a")]}]}), vec![p("questions[0].id", "Question 1: id is required")])]
#[case::id_wrong_type(json!({"questions": [{"id": 7, "prompt": "P", "options": [opt("a")]}]}), vec![p("questions[0].id", "Question 1: id must be a string")])]
#[case::contract_non_empty_trimmed_prompt(json!({"questions": [{"id": "a", "prompt": "\n", "options": [opt("a")]}]}), vec![p("questions[0].prompt", "Question 1: prompt is required")])]
#[case::contract_unique_question_ids_after_trim(json!({"questions": [q("scope"), q(" scope ")]}), vec![p("questions[1].id", "Question 2: duplicate question id \"scope\" (question 1 has it too)")])]
#[case::contract_at_least_one_option(json!({"questions": [{"id": "a", "prompt": "P", "options": []}]}), vec![p("questions[0].options", "Question 1: at least one option is required")])]
#[case::options_wrong_type(json!({"questions": [{"id": "a", "prompt": "P", "options": "x"}]}), vec![p("questions[0].options", "Question 1: options must be an array")])]
#[case::contract_unique_option_values(json!({"questions": [{"id": "a", "prompt": "P", "options": [opt("x"), opt("x ")]}]}), vec![p("questions[0].options[1].value", "Question 1: option 2 repeats the value \"x\" of option 1")])]
#[case::option_label_required(json!({"questions": [{"id": "a", "prompt": "P", "options": [{"value": "x"}]}]}), vec![p("questions[0].options[0].label", "Question 1: option 1 label is required")])]
#[case::contract_blank_label(json!({"questions": [{"id": "a", "label": "", "prompt": "P", "options": [opt("a")]}]}), vec![p("questions[0].label", "Question 1: label must not be blank")])]
#[case::contract_blank_description(json!({"questions": [{"id": "a", "prompt": "P", "options": [{"value": "x", "label": "X", "description": " "}]}]}), vec![p("questions[0].options[0].description", "Question 1: option 1 description must not be blank")])]
#[case::contract_blank_preview_on_single(json!({"questions": [{"id": "a", "prompt": "P", "options": [{"value": "x", "label": "X", "preview": ""}]}]}), vec![p("questions[0].options[0].preview", "Question 1: option 1 preview must not be blank")])]
#[case::spec3_type_must_be_a_kind(json!({"questions": [{"id": "a", "type": "radio", "prompt": "P", "options": [opt("a")]}]}), vec![p("questions[0].type", "Question 1: type must be \"single\", \"multi\" or \"preview\"")])]
#[case::contract_preview_requires_preview_text_with_fix_hint(json!({"questions": [{"id": "a", "type": "preview", "prompt": "P", "options": [{"value": "x", "label": "X", "description": "not enough"}]}]}), vec![p("questions[0].options[0].preview", "Question 1: option 1 needs preview text on a preview question; add preview text to every option or use type: \"single\"")])]
#[case::d25_blank_preview_on_preview_gives_one_issue(json!({"questions": [{"id": "a", "type": "preview", "prompt": "P", "options": [{"value": "x", "label": "X", "preview": " "}]}]}), vec![p("questions[0].options[0].preview", "Question 1: option 1 needs preview text on a preview question; add preview text to every option or use type: \"single\"")])]
#[case::spec3_freeform_marker_rejected_on_tool_payloads(json!({"questions": [{"id": "a", "prompt": "P", "options": [{"value": "freeform", "label": "Type answer", "freeform": true}]}]}), vec![p("questions[0].options[0].freeform", "Question 1: option 1 uses the internal freeform marker, which only /answer forms may use")])]
#[case::required_must_be_bool(json!({"questions": [{"id": "a", "prompt": "P", "required": "yes", "options": [opt("a")]}]}), vec![p("questions[0].required", "Question 1: required must be a boolean")])]
#[case::d25_order_within_a_question(
    json!({"questions": [q("dup"), {"id": "dup", "type": "x", "label": " ", "prompt": "", "options": [{"value": ""}, {"value": "v", "label": "V", "description": ""}]}]}),
    vec![
        p("questions[1].type", "Question 2: type must be \"single\", \"multi\" or \"preview\""),
        p("questions[1].id", "Question 2: duplicate question id \"dup\" (question 1 has it too)"),
        p("questions[1].label", "Question 2: label must not be blank"),
        p("questions[1].prompt", "Question 2: prompt is required"),
        p("questions[1].options[0].value", "Question 2: option 1 value is required"),
        p("questions[1].options[0].label", "Question 2: option 1 label is required"),
        p("questions[1].options[1].description", "Question 2: option 2 description must not be blank"),
    ]
)]
fn spec3_validation_issues(#[case] raw: Value, #[case] expected: Vec<(String, String)>) {
    assert_eq!(paths(raw, FormSource::Tool), expected);
}

#[test]
fn spec3_freeform_marker_must_be_the_only_option_in_answer_forms() {
    let marker = json!({"value": "freeform", "label": "Type answer", "freeform": true});
    let ok = json!({"questions": [{"id": "a", "prompt": "P", "options": [marker.clone()]}]});
    let form = validate(&ok, FormSource::AnswerExtraction).expect("valid /answer form");
    assert!(form.questions[0].is_freeform());
    let bad = json!({"questions": [{"id": "a", "prompt": "P", "options": [opt("x"), marker]}]});
    assert_eq!(
        paths(bad, FormSource::AnswerExtraction),
        vec![p(
            "questions[0].options[1].freeform",
            "Question 1: option 2 is a freeform marker, which must be the only option of its question",
        )]
    );
}

#[test]
fn d25_text_that_is_not_json_gives_one_root_issue() {
    let issues = validate_text("{nope", FormSource::Tool).expect_err("invalid");
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].path, "");
    assert!(issues[0].message.starts_with("payload is not valid JSON"));
}

#[test]
fn contract_normalization_trims_and_fills_defaults() {
    let raw = json!({"title": "  T ", "questions": [
        {"id": " a ", "prompt": " P? ", "options": [{"value": " v ", "label": " L ", "description": " d ", "preview": " p "}]},
        {"id": "b", "label": " Scope ", "type": "multi", "required": true, "prompt": "Q", "options": [opt("x")]}
    ]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    assert_eq!(form.title.as_deref(), Some("T"));
    let (a, b) = (&form.questions[0], &form.questions[1]);
    assert_eq!((a.id.as_str(), a.label.as_str(), a.prompt.as_str()), ("a", "Q1", "P?"));
    assert_eq!((a.kind, a.required), (QuestionType::Single, false));
    let o = &a.options[0];
    assert_eq!(
        (o.value.as_str(), o.label.as_str(), o.description.as_deref(), o.preview.as_deref()),
        ("v", "L", Some("d"), Some("p"))
    );
    assert_eq!((b.label.as_str(), b.kind, b.required), ("Scope", QuestionType::Multi, true));
}

#[test]
fn schemas_describe_input_and_result() {
    let input = ask_schema::input_schema();
    assert_eq!(input["properties"]["questions"]["type"], "array");
    assert_eq!(input["required"], json!(["questions"]));
    let result = ask_schema::result_schema();
    assert!(result["properties"]["details"].is_object());
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        prop::sample::select(vec!["", " ", "a", "id", "single", "multi", "preview", "x"])
            .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let keys = prop::sample::select(vec![
            "title",
            "questions",
            "id",
            "label",
            "prompt",
            "type",
            "required",
            "options",
            "value",
            "description",
            "preview",
            "freeform",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(keys, inner, 0..7)
                .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    // Fuzz targets run on every test run (issue 14.10).
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    #[test]
    fn validation_never_panics_and_invalid_means_issues(raw in arbitrary_json()) {
        for source in [FormSource::Tool, FormSource::AnswerExtraction] {
            match validate(&raw, source) {
                Ok(form) => prop_assert!(!form.questions.is_empty()),
                Err(issues) => prop_assert!(!issues.is_empty()),
            }
        }
    }

    #[test]
    fn arbitrary_bytes_as_a_payload_never_panic_and_are_explained(
        bytes in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..512),
            // Mostly JSON, cut and spliced: the inputs that reach deep into the validator.
            (arbitrary_json(), any::<usize>(), prop::collection::vec(any::<u8>(), 0..4)).prop_map(|(v, cut, junk)| {
                let mut b = v.to_string().into_bytes();
                let at = if b.is_empty() { 0 } else { cut % b.len() };
                b.splice(at..at, junk);
                b
            }),
        ]
    ) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(issues) = ask_schema::validate_text(&text, FormSource::Tool) {
            prop_assert!(!issues.is_empty());
            for issue in &issues {
                prop_assert!(!issue.message.is_empty() && !issue.message.contains('\n'), "{}", issue.message);
            }
        }
    }
}

#[rstest::rstest]
#[case::word("not json", "payload is not valid JSON: unexpected text at line 1, column 2")]
#[case::empty("", "payload is empty: expected a JSON object with \"questions\"")]
#[case::only_blank_lines("\n \n", "payload is empty: expected a JSON object with \"questions\"")]
#[case::cut_short(
    "{\"questions\": [",
    "payload is not valid JSON: it ends too early (line 1, column 15); is a bracket or quote missing?"
)]
#[case::second_line(
    "{\n  \"title\": 'x'\n}",
    "payload is not valid JSON: unexpected text at line 2, column 12"
)]
#[case::nested_too_deep(
    &format!("{}{}", "[".repeat(200), "]".repeat(200)),
    "payload is nested too deeply: more than 128 levels of arrays and objects (line 1, column 128)"
)]
#[case::nested_too_deep_in_a_question(
    &format!(r#"{{"questions":[{{"id":"a","prompt":"P","options":{}{}}}]}}"#, "[".repeat(200), "]".repeat(200)),
    "payload is nested too deeply: more than 128 levels of arrays and objects (line 1, column 172)"
)]
fn spec3_text_that_is_not_json_is_explained_in_plain_words(#[case] text: &str, #[case] expected: &str) {
    let issues = ask_schema::validate_text(text, ask_schema::FormSource::Tool).unwrap_err();
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].path, "");
    assert_eq!(issues[0].message, expected);
}
