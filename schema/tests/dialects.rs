//! Issue 12.21: other tools' payload shapes are accepted as dialects, and their fields on a
//! payload in our shape get a fix hint instead of being dropped silently.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use ask_schema::{FormSource, QuestionType, validate};
use serde_json::json;

#[test]
fn claude_codes_ask_user_question_shape_is_accepted() {
    let raw = json!({"questions": [
        {"question": "Which auth method?", "header": "Auth method", "multiSelect": false,
         "options": [{"label": "OAuth", "description": "via the identity service"}, {"label": "API key"}]},
        {"question": "Which extras?", "header": "Extras", "multiSelect": true,
         "options": [{"label": "CI"}, {"label": "Docker"}]}
    ]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    let (a, b) = (&form.questions[0], &form.questions[1]);
    assert_eq!(
        (a.id.as_str(), a.label.as_str(), a.prompt.as_str()),
        ("auth_method", "Auth method", "Which auth method?")
    );
    assert_eq!(a.kind, QuestionType::Single);
    assert_eq!((a.options[0].value.as_str(), a.options[0].label.as_str()), ("OAuth", "OAuth"));
    assert_eq!(a.options[0].description.as_deref(), Some("via the identity service"));
    assert_eq!((b.id.as_str(), b.kind), ("extras", QuestionType::Multi));
}

#[test]
fn codexs_request_user_input_shape_is_accepted() {
    let raw = json!({"questions": [
        {"id": "scope", "header": "Scope", "question": "How wide should the change be?",
         "options": [{"label": "Minimal", "description": "only the bug"}, {"label": "Refactor"}]}
    ]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    let q = &form.questions[0];
    assert_eq!((q.id.as_str(), q.label.as_str()), ("scope", "Scope"));
    assert_eq!(q.options.iter().map(|o| o.value.as_str()).collect::<Vec<_>>(), ["Minimal", "Refactor"]);
}

/// What a dialect payload says in our words is kept: its `type`, an option's own `value` beside
/// its label; and a header starting with punctuation still gives a plain id.
#[test]
fn a_dialect_question_keeps_our_fields_it_carries() {
    let raw = json!({"questions": [
        {"question": "Which layout?", "header": "(New) layout", "type": "preview",
         "options": [{"value": "grid", "label": "Grid", "preview": "[][]"}, {"label": "List", "preview": "-"}]}
    ]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    let q = &form.questions[0];
    assert_eq!((q.id.as_str(), q.kind), ("new_layout", QuestionType::Preview));
    assert_eq!(q.options.iter().map(|o| o.value.as_str()).collect::<Vec<_>>(), ["grid", "List"]);
}

#[test]
fn plain_string_options_and_missing_headers_still_give_a_form() {
    let raw = json!({"questions": [{"question": "Tabs or spaces?", "options": ["Tabs", "Spaces"]}]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    assert_eq!(form.questions[0].id, "q1");
    assert_eq!(form.questions[0].options[1].value, "Spaces");
}

#[test]
fn a_dialect_question_still_gets_every_rule_checked() {
    let raw = json!({"questions": [
        {"question": "A?", "header": "Same", "options": [{"label": "x"}]},
        {"question": "B?", "header": "Same", "options": []}
    ]});
    let issues = validate(&raw, FormSource::Tool).unwrap_err();
    let paths: Vec<&str> = issues.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, ["questions[1].id", "questions[1].options"], "{issues:?}");
}

#[test]
fn another_tools_field_on_our_shape_gets_a_fix_hint() {
    let raw = json!({"questions": [
        {"id": "db", "prompt": "Which database?", "multiSelect": true, "header": "DB",
         "options": [{"value": "pg", "label": "Postgres"}]},
        {"id": "ci", "prompt": "Which CI?", "choices": ["GitHub"], "options": [{"value": "gh", "label": "GitHub"}]}
    ]});
    let issues = validate(&raw, FormSource::Tool).unwrap_err();
    let said: Vec<String> = issues.iter().map(|i| format!("{}: {}", i.path, i.message)).collect();
    assert_eq!(
        said,
        [
            "questions[0].multiSelect: Question 1: unknown field \"multiSelect\"; use `\"type\": \"multi\"`",
            "questions[0].header: Question 1: unknown field \"header\"; did you mean `label`?",
            "questions[1].choices: Question 2: unknown field \"choices\"; did you mean `options`?",
        ]
    );
}
