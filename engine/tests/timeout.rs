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
    state.apply(&Event::FlowResumed);
    assert_eq!(state, before);
    let (mut open, _) = common::run_with(&common::form3(), "1", Settings::default());
    let before = open.clone();
    open.apply(&Event::FlowResumed);
    assert_eq!(open, before);
}
