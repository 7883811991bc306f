//! Timeouts that keep partial answers (issue 13.1): the runtime's clock becomes a `TimedOut`
//! event; the fold closes the flow with what was saved, reported as cancelled and timed out;
//! `FlowResumed` opens it again where it stopped. Replay never reads a clock.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_engine::{Event, FlowState, Outcome, Settings};
use rstest::rstest;
use serde_json::json;

fn timed_out(script: &str) -> (FlowState, Vec<Event>) {
    let (mut state, mut log) = common::run_with(&common::form3(), script, Settings::default());
    let e = Event::TimedOut { seconds: 30 };
    state.apply(&e);
    log.push(e);
    (state, log)
}

#[test]
fn spec13_1_a_timeout_closes_the_form_with_every_saved_answer_and_note() {
    let (state, _) = timed_out("1\nshift+n\ntype \"later\"\nenter\nn\ntype \"beta?\"\nenter");
    assert_eq!(state.outcome(), Some(Outcome::TimedOut));
    let d = serde_json::to_value(state.result_of("f-1").unwrap().details).unwrap();
    assert_eq!(d["cancelled"], true);
    assert_eq!(d["timedOut"], true);
    assert_eq!(d["flowId"], "f-1");
    assert_eq!(d["answers"]["lang"]["values"], json!(["rust"]));
    assert_eq!(d["answers"]["feat"]["note"], "later", "a note alone is kept too: {d}");
}

#[test]
fn spec13_1_the_text_says_what_was_answered_and_how_to_resume() {
    let (state, _) = timed_out("1");
    assert_eq!(
        state.result_of("f-1").unwrap().text(),
        "The user did not finish the ask_user form in time: it closed when its timeout ran out.\n\
         Answered so far:\nLang: Rust\n\
         Every keystroke is kept: `ask-user resume f-1` reopens the form where it stopped."
    );
    let (state, _) = timed_out("");
    assert!(state.result().unwrap().text().contains("\nNothing was answered.\n"));
}

/// Text being typed in an editor left open when the form timed out is reported beside what was
/// saved (`details.draft`, and a line of the text) — not as an answer: it was never saved, and
/// resuming reopens the editor with it. Blanks are no draft.
#[rstest]
#[case::answer("4\ntype \"use zig because\"", json!({"questionId":"lang","kind":"answer","text":"use zig because"}),
    "Lang: \"use zig because\"")]
#[case::question_note("shift+n\ntype \"ask the team\"", json!({"questionId":"lang","kind":"questionNote","text":"ask the team"}),
    "Lang note: \"ask the team\"")]
#[case::option_note("1\ndown\nn\ntype \"only for CLIs\"",
    json!({"questionId":"feat","kind":"optionNote","optionValue":"b","text":"only for CLIs"}),
    "Feat note on \"Beta\": \"only for CLIs\"")]
fn spec13_1_a_draft_being_typed_is_reported_not_saved(
    #[case] script: &str,
    #[case] draft: serde_json::Value,
    #[case] line: &str,
) {
    let (state, _) = timed_out(script);
    let result = state.result_of("f-1").unwrap();
    let d = serde_json::to_value(&result.details).unwrap();
    assert_eq!(d["draft"], draft);
    assert!(
        result.text().contains(&format!("\nBeing typed when it closed, not saved: {line}\nEvery keystroke")),
        "{}",
        result.text()
    );
    let question = draft["questionId"].as_str().unwrap();
    assert!(!d["answers"][question].to_string().contains(draft["text"].as_str().unwrap()), "not saved: {d}");
}

/// A transcript (pi's tool row) shows a timed-out form as such, with what was saved and what
/// was being typed — not as a bare `Cancelled`.
#[test]
fn spec13_1_a_timed_out_transcript_shows_what_was_saved_and_typed() {
    use ask_engine::project::transcript::result_rows;
    let (state, _) = timed_out("1\n4\ntype \"gamma-ish\"");
    assert_eq!(
        result_rows(&state.result_of("f-1").unwrap()),
        ["Timed out", "✓ Lang: Rust", "… Feat, being typed, not saved: gamma-ish"]
    );
    let (state, _) = timed_out("");
    assert_eq!(result_rows(&state.result().unwrap()), ["Timed out"]);
}

#[test]
fn spec13_1_a_blank_draft_or_a_closed_editor_is_no_draft() {
    for script in ["4\ntype \"   \"", "4\ntype \"saved\"\nenter", ""] {
        let (state, _) = timed_out(script);
        let result = state.result_of("f-1").unwrap();
        assert!(result.details.draft.is_none(), "{script}");
        assert!(!result.text().contains("Being typed"), "{script}");
    }
}

#[rstest]
#[case::submitted("1\n1\nenter\n1\nenter")]
#[case::cancelled("esc")]
fn spec13_1_a_timeout_after_the_end_changes_nothing(#[case] script: &str) {
    let (before, _) = common::run_with(&common::form3(), script, Settings::default());
    let (after, _) = timed_out(script);
    assert_eq!(after, before);
    assert_ne!(after.outcome(), Some(Outcome::TimedOut));
}

#[test]
fn spec13_1_resumed_goes_on_where_it_stopped_and_replays_the_same() {
    let (mut state, mut log) = timed_out("1\ntab");
    state.apply(&Event::FlowResumed);
    log.push(Event::FlowResumed);
    assert_eq!(state.outcome(), None, "open again");
    assert_eq!(state.tab(), 2, "on View, where it stopped");
    for id in ["2", "enter"] {
        let e = Event::key(ask_engine::KeyPress::parse(id).unwrap());
        state.apply(&e);
        log.push(e);
    }
    let d = serde_json::to_value(state.result().unwrap().details).unwrap();
    assert_eq!(d["answers"]["lang"]["values"], json!(["rust"]), "the answer from before the timeout");
    assert_eq!(d["answers"]["view"]["values"], json!(["y"]));
    assert!(d.get("timedOut").is_none(), "a finished resumed flow is not timed out: {d}");
    assert_eq!(FlowState::replay(&log), state);
}

#[test]
fn spec13_1_resumed_on_a_flow_that_did_not_time_out_changes_nothing() {
    let (mut state, _) = common::run_with(&common::form3(), "esc", Settings::default());
    let before = state.clone();
    let fx = state.apply(&Event::FlowResumed);
    assert_eq!(state, before);
    assert_eq!(fx.completed, None, "a flow that ended before does not end again");
    let (mut open, _) = common::run_with(&common::form3(), "1", Settings::default());
    let before = open.clone();
    open.apply(&Event::FlowResumed);
    assert_eq!(open, before);
}

/// `ask-user settings` (the settings overlay alone) has no answers to time out: it stays open.
#[test]
fn spec13_1_the_settings_command_never_times_out() {
    let mut state = FlowState::default();
    state.apply(&common::opened(ask_schema::Form { title: None, questions: vec![] }, Settings::default()));
    let fx = state.apply(&Event::TimedOut { seconds: 30 });
    assert_eq!((state.outcome(), fx.completed), (None, None));
    assert!(state.overlay().is_some());
}
