//! Result projections: elaborate continuation and items, result text, review summary, fallback,
//! invalid payloads and transcript rows.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::project::transcript::{call_row, result_rows};
use ask_engine::{ReviewAction, Settings, fallback_result, invalid_result};
use ask_schema::Issue;
use common::*;
use rstest::rstest;
use serde_json::json;

fn script(steps: &str) -> String {
    steps.split(';').map(str::trim).collect::<Vec<_>>().join("\n")
}

fn done(steps: &str) -> ask_engine::FlowState {
    let s = run3(&script(steps), single_press());
    assert!(s.outcome().is_some(), "not completed: {steps}");
    s
}

#[test]
fn d7_elaborate_without_notes_resumes_and_keeps_answers() {
    let s = done("1; tab; tab; 2");
    let d = details(&s);
    assert_eq!(d["mode"], "elaborate");
    assert_eq!(
        d["continuation"],
        json!({
            "strategy":"resume","affectedQuestionIds":[],
            "preservedAnswers":{"lang":{"values":["rust"],"labels":["Rust"],"indices":[1]}},
            "questionStates":{"lang":{"status":"answered"},"feat":{"status":"unanswered"},"view":{"status":"unanswered"}}
        })
    );
    assert_eq!(d["elaboration"]["nextAction"], "clarify");
    assert_eq!(d["elaboration"]["items"], json!([]));
    assert_eq!(
        d["elaboration"]["instruction"],
        "The user asked you to elaborate on their answers without writing a note: explain the consequences \
of each committed answer directly first. Then, only if a choice is still needed, re-ask just those questions \
with ask_user (prefer one structured follow-up over plain-text multiple choice).",
        "no talk of notes when there are none"
    );
    assert_eq!(
        text(&s),
        r#"User asked to elaborate on question "Which language?" after current answer "Rust""#
    );
}

#[test]
fn d7_affected_unanswered_question_needs_reask() {
    let s = done("1; shift+n; type \"depends\"; enter; tab; tab; 2");
    let d = details(&s);
    assert_eq!(d["continuation"]["strategy"], "refine_only");
    assert_eq!(d["continuation"]["affectedQuestionIds"], json!(["feat"]));
    assert_eq!(
        d["continuation"]["preservedAnswers"],
        json!({"lang":{"values":["rust"],"labels":["Rust"],"indices":[1]}})
    );
    assert_eq!(d["continuation"]["questionStates"]["feat"]["status"], "needs_clarification");
    assert_eq!(d["elaboration"]["nextAction"], "clarify_then_reask");
    assert_eq!(
        d["answers"],
        json!({"lang":{"values":["rust"],"labels":["Rust"],"indices":[1]}}),
        "note-only entries move to items"
    );
    let item = &d["elaboration"]["items"][0];
    assert_eq!(item["target"], json!({"kind":"question"}));
    assert_eq!(item["answered"], false);
    assert!(item.get("answer").is_none());
    assert_eq!(item["question"]["options"].as_array().map(Vec::len), Some(3), "full option list");
    assert_eq!(text(&s), r#"User asked to elaborate on question "Which features?" with note "depends""#);
}

#[test]
fn contract_elaboration_items_include_notes_on_unselected_options_in_d26_order() {
    let s = done(
        "tab; down; n; type \"why b\"; enter; up; n; type \"why a\"; enter; 3; shift+n; type \"overall\"; enter; tab; tab; 2",
    );
    let d = details(&s);
    let items = d["elaboration"]["items"].as_array().expect("items");
    let targets: Vec<_> = items.iter().map(|i| i["target"].clone()).collect();
    assert_eq!(
        targets,
        vec![
            json!({"kind":"question"}),
            json!({"kind":"option","optionValue":"a"}),
            json!({"kind":"option","optionValue":"b"}),
        ]
    );
    assert_eq!(items[1]["selected"], false);
    assert_eq!(items[1]["option"], json!({"value":"a","label":"Alpha"}));
    assert_eq!(items[1]["answer"]["values"], json!(["c"]));
    assert_eq!(d["elaboration"]["nextAction"], "clarify");
    assert_eq!(text(&s), [
        r#"User asked to elaborate on question "Which features?" after current answer "Gamma" with note "overall""#,
        r#"User asked to elaborate on question "Which features?" option "Alpha" after current answer "Gamma" with note "why a""#,
        r#"User asked to elaborate on question "Which features?" option "Beta" after current answer "Gamma" with note "why b""#,
    ].join("\n"));
}

#[test]
fn d7_submit_has_no_continuation_or_elaboration() {
    let d = details(&done("shift+n; type \"x\"; enter; shift+tab; 1"));
    assert!(d.get("continuation").is_none() && d.get("elaboration").is_none());
}

#[rstest]
#[case::spec4_submit_lines(
    "1; 1; 3; n; type \"if cheap\"; enter; shift+n; type \"more later\"; enter; tab; 3; type \"Grid\"; enter; 1",
    "Lang: Rust\nFeat: Alpha, Gamma\nFeat note: more later\nFeat / Gamma note: if cheap\nView: Grid"
)]
#[case::d27_note_only_question_prints_its_note_line(
    "shift+n; type \"ask ops\"; enter; shift+tab; 1",
    "Lang note: ask ops"
)]
// The sentences are written out here, not taken from the constants under test (issue 12.28).
#[case::spec4_submit_without_answers(
    "shift+tab; 1",
    "User submitted the form without answering any question."
)]
#[case::d27_elaborate_without_notes_or_answers(
    "shift+tab; 2",
    "User asked to elaborate without adding notes or answering any question."
)]
#[case::d8_cancel_text_says_user_cancelled(
    "1; tab; tab; 3",
    "User cancelled the ask_user flow without submitting answers."
)]
#[case::spec4_quoted_values_are_json_escaped(
    "shift+n; type \"say \\\"hi\\\"\"; enter; shift+tab; 2",
    r#"User asked to elaborate on question "Which language?" with note "say \"hi\"""#
)]
fn spec4_result_text(#[case] steps: &str, #[case] expected: &str) {
    let t = text(&done(steps));
    assert_eq!(t, expected);
    assert!(!t.ends_with('\n'), "D27: no trailing newline");
}

#[test]
fn d19_review_summary_depends_on_highlighted_action() {
    let s = run3(
        &script(
            "n; type \"on rust\"; enter; shift+n; type \"qn\"; enter; tab; 1; n; type \"on a\"; enter; tab; tab",
        ),
        Settings::default(),
    );
    let submit = s.review_summary(ReviewAction::Submit);
    assert_eq!(submit[0].answer, None, "note-only question reads as unanswered");
    assert!(submit[0].notes.is_empty());
    assert_eq!(submit[1].answer.as_deref(), Some("Alpha"));
    assert_eq!(submit[1].notes, vec!["Alpha note: on a"]);
    let elaborate = s.review_summary(ReviewAction::Elaborate);
    assert_eq!(elaborate[0].notes, vec!["Note: qn", "Rust note: on rust"]);
}

#[test]
fn spec4_fallback_lists_every_question_and_option() {
    let r = fallback_result(&form_of(&form3()));
    assert!(r.text().starts_with("Needs user input"));
    assert!(r.text().contains(
        "1. Lang: Which language? (choose one)\n   - Rust [rust]\n   - Go [go]\n   - TypeScript [ts]\n   - Type your own"
    ));
    assert!(r.text().contains("2. Feat: Which features? (choose any)"), "{}", r.text());
    assert!(r.text().contains("3. View: Which layout? (choose one; each option has a preview)"));
    let described = serde_json::json!({"questions": [{"id": "q", "prompt": "P?",
        "options": [{"value": "a", "label": "A", "description": "the safe choice"}]}]});
    assert!(fallback_result(&form_of(&described)).text().contains("   - A [a] — the safe choice"));
    assert!(r.text().contains("details.questions"));
    let d = serde_json::to_value(&r.details).unwrap();
    assert_eq!(
        (d["cancelled"].clone(), d["mode"].clone(), d["answers"].clone()),
        (json!(true), json!("submit"), json!({}))
    );
    assert_eq!(
        d["questions"][1],
        json!({"id":"feat","label":"Feat","prompt":"Which features?","type":"multi"})
    );
}

#[test]
fn spec3_invalid_result_shape() {
    let r = invalid_result(vec![Issue {
        path: "questions".into(),
        message: "at least one question is required".into(),
    }]);
    assert_eq!(r.text(), "Invalid ask_user payload:\n- questions: at least one question is required");
    let d = serde_json::to_value(&r.details).unwrap();
    assert_eq!(
        d,
        json!({"cancelled":true,"error":{"kind":"invalid_input","issues":[{"path":"questions","message":"at least one question is required"}]},"mode":"submit","questions":[],"answers":{}})
    );
}

#[test]
fn spec4_transcript_rows() {
    assert_eq!(call_row(&form_of(&form3())), "ask_user \"Setup\" · 3 questions: Lang, Feat, View");
    let s = done(
        "4; type \"Zig\"; enter; 1; n; type \"x\"; enter; tab; 1; shift+tab; shift+tab; shift+tab; shift+tab; 1",
    );
    let rows = result_rows(&s.result().unwrap());
    assert_eq!(rows, vec!["✓ Lang: (wrote) Zig", "✓ Feat: Alpha", "  Feat / Alpha note: x", "✓ View: Ex"]);
    assert_eq!(result_rows(&done("esc").result().unwrap()), vec!["Cancelled"]);
    assert_eq!(result_rows(&invalid_result(vec![])), vec!["Invalid input"]);
}

/// A form an MCP call left open reads as not answered yet, not as cancelled, in a transcript;
/// the result of a form with no UI at all still reads as cancelled.
#[test]
fn transcript_rows_tell_a_form_left_open_from_a_cancelled_one() {
    let form = form_of(&form3());
    assert_eq!(result_rows(&fallback_result(&form)), vec!["Cancelled"]);
    let mut open = fallback_result(&form);
    open.details.still_open = true;
    assert_eq!(result_rows(&open), vec!["Not answered yet"]);
    open.details.flow_id = Some("mcp-1".to_owned());
    assert_eq!(result_rows(&open), vec!["Not answered yet: `ask-user attach mcp-1` opens the form"]);
    let json = serde_json::to_value(&open.details).unwrap();
    assert_eq!((&json["stillOpen"], &json["flowId"]), (&json!(true), &json!("mcp-1")));
    let closed = serde_json::to_value(&fallback_result(&form).details).unwrap();
    assert!(closed.get("stillOpen").is_none() && closed.get("flowId").is_none(), "{closed}");
}

/// Issue 12.14: a multi-line answer keeps its lines under the label, and a question that got
/// only a note has no check mark.
#[test]
fn transcript_rows_indent_multi_line_answers_and_do_not_tick_a_note_only_question() {
    let s = done("4; paste \"one\\ntwo\"; enter; shift+n; type \"later\"; enter; tab; tab; 1; 1");
    let rows = result_rows(&s.result().unwrap());
    assert_eq!(rows[0], "✓ Lang: (wrote) one\n  two", "{rows:?}");
    assert!(rows.iter().any(|r| r.starts_with("○ Feat: (no answer)")), "{rows:?}");
    assert!(rows.iter().any(|r| r == "  Feat note: later"), "{rows:?}");
}

#[test]
fn d10_optional_fields_are_omitted_never_null_or_empty() {
    let json = serde_json::to_string(&done("1; tab; tab; 1").result().unwrap()).unwrap();
    for bad in ["null", "\"note\":\"\"", "\"optionNotes\":{}", "customText"] {
        assert!(!json.contains(bad), "{bad} in {json}");
    }
}

#[test]
fn contract_required_is_metadata_only_and_never_blocks_submission() {
    let raw =
        json!({"questions":[{"id":"a","prompt":"P?","required":true,"options":[{"value":"x","label":"X"}]}]});
    let (state, _) = run_with(&raw, "tab\n1\n1", Settings::default());
    assert_eq!(details(&state)["mode"], "submit");
    assert_eq!(details(&state)["cancelled"], false);
}

#[test]
fn contract_unanswered_questions_are_omitted_from_answers() {
    let d = details(&done("tab; 1; tab; tab; 1"));
    let keys: Vec<&String> = d["answers"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["feat"]);
    assert_eq!(d["questions"].as_array().map(Vec::len), Some(3), "questions still lists every question");
}

#[test]
fn contract_every_question_gets_a_type_your_own_row() {
    let s = run3("", Settings::default());
    let ask_engine::project::view::Body::Question(q) = s.view().body else { panic!("question") };
    let last = q.rows.last().unwrap();
    assert!(last.custom && last.label == "Type your own" && last.number == 4);
}
