//! What the plain frontend says back to each line (issue 13.4): a screen reader speaks exactly
//! these lines, so each reply is checked whole — the answer or note that changed, a warning,
//! the next question or the review when the form moved, and a plain sentence for a line it
//! cannot take.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_engine::FlowState;
use ask_plain::commands::{Command, events};
use ask_plain::{Ended, run};
use ask_schema::FormSource;
use common::{Memory, opened_from};
use rstest::rstest;
use serde_json::json;
use std::io::{BufReader, Write};
use std::time::Duration;

/// A single-choice, a choose-any and a free-form question (free-form ones come from `/answer`).
fn opened() -> FlowState {
    let form = json!({"questions":[
        {"id":"db","label":"Database","prompt":"Which database?","options":[
            {"value":"pg","label":"Postgres","description":"managed"},{"value":"lite","label":"SQLite"}]},
        {"id":"extras","label":"Extras","type":"multi","prompt":"Which extras?","options":[
            {"value":"ci","label":"CI"},{"value":"docker","label":"Docker"},{"value":"lint","label":"Lint"}]},
        {"id":"name","label":"Name","prompt":"Package name?","options":[
            {"value":"freeform","label":"Type answer","freeform":true}]}]});
    opened_from(&form, FormSource::AnswerExtraction)
}

/// Says `lines` to the form; returns what was said before the first prompt, the reply to each
/// line, and the flow.
fn talk(lines: &[&str]) -> (String, Vec<String>, Memory) {
    let mut flow = Memory(opened());
    let mut said = Vec::new();
    let input = std::io::Cursor::new(lines.join("\n").into_bytes());
    let ended = run(input, &mut said, &mut flow, None).unwrap();
    assert_eq!(ended == Ended::Completed, flow.0.outcome().is_some());
    let said = String::from_utf8(said).unwrap();
    let mut parts = said.split("> ").map(str::to_owned);
    let opening = parts.next().unwrap();
    let mut replies: Vec<String> = parts.collect();
    if ended == Ended::InputClosed {
        assert_eq!(replies.pop().as_deref(), Some(""), "a prompt waits for the line that never came");
    }
    assert_eq!(replies.len(), lines.len(), "one reply per line:\n{said}");
    (opening, replies, flow)
}

const QUESTION_1: &str = "Question 1 of 3, Database, choose one: Which database?
1. Postgres, managed
2. SQLite
3. Type your own answer: t and your text
";
const QUESTION_2: &str = "Question 2 of 3, Extras, choose any: Which extras?
1. CI
2. Docker
3. Lint
4. Type your own answer: t and your text
";
const QUESTION_3: &str = "Question 3 of 3, Name, type your answer: Package name?
Type your own answer: t and your text
";
const REVIEW_ACTIONS: &str =
    "1 submits, 2 asks the agent to elaborate on your notes, 3 cancels, b goes back.\n";
const ON_REVIEW: &str = "On the review: 1 submit, 2 elaborate, 3 cancel, b back.\n";

#[test]
fn spec13_4_the_form_opens_with_the_commands_and_the_first_question() {
    let (opening, _, _) = talk(&[]);
    assert_eq!(opening, format!("{}\n{QUESTION_1}", ask_plain::announce::HELP));
}

#[rstest]
#[case::a_choice_says_the_answer_then_the_next_question(&["2"], format!("Database: SQLite.\n{QUESTION_2}"))]
#[case::several_rows_on_a_choose_any_question(&["2", "1,3"], format!("Extras: CI, Lint.\n{QUESTION_3}"))]
#[case::an_option_note(&["n 1 hi"], "Database: Postgres note: hi.\n".to_owned())]
#[case::an_option_note_removed(&["n 1 hi", "n 1"], "Database: a note was removed.\n".to_owned())]
#[case::the_question_note(&["N why"], "Database: Note: why.\n".to_owned())]
#[case::a_note_already_said_is_not_said_again(
    &["n 1 hi", "1", "b", "2"], format!("Database: SQLite.\n{QUESTION_2}"))]
#[case::a_line_that_changes_nothing(&["n 1"], "Nothing changed.\n".to_owned())]
#[case::skipping_says_only_where_the_form_is(&["s"], QUESTION_2.to_owned())]
#[case::back_shows_the_question_note(&["N why", "s", "b"],
    QUESTION_1.replace("\n1.", "\nYour note: why\n1."))]
#[case::cancelling_with_answers_warns(&["2", "b", "q"],
    "You have answers or notes that would be lost. Type q again to cancel the form.\n".to_owned())]
#[case::the_warning_is_not_said_again_as_it_goes(&["2", "b", "q", "1"], format!("Database: Postgres.\n{QUESTION_2}"))]
#[case::cancelling_without_answers(&["q"], "Cancelled: nothing was sent.\n".to_owned())]
#[case::the_custom_rows_number(&["2", "4"], "4 is your own answer: type t, a space and your text.\n".to_owned())]
#[case::a_number_past_the_rows(&["2", "5"], "There is no option 5; the options are 1 to 3.\n".to_owned())]
#[case::one_choice_only_on_a_single_question(&["1,2"], "Choose one option: a single number.\n".to_owned())]
#[case::a_free_form_question_takes_no_number(&["2", "s", "1"],
    "This question takes your own answer only: t and your text.\n".to_owned())]
#[case::an_own_answer_then_the_review(&["2", "s", "t pkg"], format!(
    "Name: pkg.\nReview. Database: SQLite. Extras: no answer. Name: pkg.\n{REVIEW_ACTIONS}"))]
#[case::the_review_with_notes(&["N why", "n 2 small", "2", "1", "r"], format!(
    "Review. Database: SQLite; Note: why; SQLite note: small. Extras: CI. Name: no answer.\n{REVIEW_ACTIONS}"))]
#[case::a_number_past_the_review_actions(&["r", "4"], ON_REVIEW.to_owned())]
#[case::several_numbers_on_the_review(&["r", "1,2"], ON_REVIEW.to_owned())]
#[case::an_option_note_on_the_review(&["r", "n 1 x"], ON_REVIEW.to_owned())]
#[case::submitted(&["2", "r", "1"], "Submitted.\n".to_owned())]
#[case::elaborated(&["n 1 why not", "r", "2"], "Sent: the agent is asked to elaborate.\n".to_owned())]
#[case::cancelled_on_the_review(&["r", "3"], "Cancelled: nothing was sent.\n".to_owned())]
#[case::help_repeats_the_commands_and_the_question(&["help"],
    format!("{}\n{QUESTION_1}", ask_plain::announce::HELP))]
#[case::a_question_mark_is_help(&["2", "?"], format!("{}\n{QUESTION_2}", ask_plain::announce::HELP))]
#[case::t_without_text(&["t"], "t needs your answer after it: t, a space and your text.\n".to_owned())]
#[case::commas_without_numbers(&[","], "Not understood: ,. Type h for the commands.\n".to_owned())]
#[case::back_with_text_after_it(&["b 2"], "Not understood: b 2. Type h for the commands.\n".to_owned())]
#[case::skip_with_text_after_it(&["s 2"], "Not understood: s 2. Type h for the commands.\n".to_owned())]
#[case::review_with_text_after_it(&["r x"], "Not understood: r x. Type h for the commands.\n".to_owned())]
#[case::cancel_with_text_after_it(&["q x"], "Not understood: q x. Type h for the commands.\n".to_owned())]
#[case::help_with_text_after_it(&["h x"], "Not understood: h x. Type h for the commands.\n".to_owned())]
fn spec13_4_each_line_gets_its_reply(#[case] lines: &[&str], #[case] reply: String) {
    let (_, replies, _) = talk(lines);
    assert_eq!(replies.last().unwrap(), &reply, "the replies were {replies:#?}");
}

/// `t` again after the cursor left the own answer's row: the row holds text, so landing on it
/// does not open its editor; the line opens it and replaces the text.
#[test]
fn spec13_4_an_own_answer_is_replaced_from_another_row() {
    let (_, replies, flow) = talk(&["t foo", "b", "n 1 x", "t bar", "r", "1"]);
    assert_eq!(replies[3], format!("Database: bar.\n{QUESTION_2}"));
    let result = serde_json::to_value(flow.0.result().unwrap()).unwrap();
    assert_eq!(result["details"]["answers"]["db"]["customText"], "bar");
}

/// Help and a preview read; they change nothing, on a question or on the review.
#[rstest]
#[case::help(Command::Help)]
#[case::preview(Command::Preview(1))]
fn spec13_4_reading_makes_no_events(#[case] command: Command) {
    let mut flow = Memory(opened());
    assert_eq!(events(&command, &flow.0), Ok(Vec::new()));
    let to_review = events(&Command::Review, &flow.0).unwrap();
    ask_plain::Flow::push(&mut flow, &to_review).unwrap();
    assert!(flow.0.on_review());
    assert_eq!(events(&command, &flow.0), Ok(Vec::new()));
}

/// With a timeout the form still takes every line before it runs out; when it runs out, what
/// was answered is kept and said (the reader is still waiting for a line).
#[test]
fn spec13_1_the_timeout_closes_the_form_only_when_it_runs_out() {
    let mut flow = Memory(opened());
    let mut said = Vec::new();
    let input = std::io::Cursor::new(b"2\nr\n1\n".to_vec());
    assert_eq!(run(input, &mut said, &mut flow, Some(Duration::from_secs(600))).unwrap(), Ended::Completed);
    assert!(String::from_utf8(said).unwrap().ends_with("> Submitted.\n"));

    let mut flow = Memory(opened());
    let mut said = Vec::new();
    let (reader, mut writer) = std::io::pipe().unwrap();
    writer.write_all(b"2\n").unwrap();
    let ended = run(BufReader::new(reader), &mut said, &mut flow, Some(Duration::from_millis(300))).unwrap();
    assert_eq!(ended, Ended::Completed);
    let said = String::from_utf8(said).unwrap();
    assert!(said.ends_with("> \nTime ran out: what was answered is kept.\n"), "{said}");
    let result = serde_json::to_value(flow.0.result().unwrap()).unwrap();
    assert_eq!(result["details"]["timedOut"], true);
    assert_eq!(result["details"]["answers"]["db"]["values"], json!(["lite"]));
    drop(writer);
}
