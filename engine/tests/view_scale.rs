//! The view model costs what a screen shows, not what the form holds (issue 15.3): a question
//! of 100 000 options gives a window of rows around the cursor, with where it is among them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_engine::Settings;
use ask_engine::project::view::Body;
use serde_json::json;

fn many(n: usize) -> serde_json::Value {
    let options: Vec<_> =
        (1..=n).map(|i| json!({"value": format!("v{i}"), "label": format!("Option {i}")})).collect();
    json!({"questions":[{"id":"a","prompt":"Pick","options":options}]})
}

fn question(script: &str) -> ask_engine::project::view::QuestionView {
    let (state, _) = common::run_with(&many(100_000), script, Settings::default());
    let Body::Question(q) = state.view().body else { panic!("a question") };
    *q
}

#[test]
fn spec15_3_a_long_list_gives_a_window_around_the_cursor() {
    let top = question("");
    assert_eq!((top.first, top.cursor, top.total), (0, 0, 100_001));
    assert!(top.rows.len() <= 2 * 25 + 1, "{} rows built", top.rows.len());
    assert_eq!(top.rows[0].label, "Option 1");

    let middle = question(&"pageDown\n".repeat(5_000));
    assert_eq!(middle.first + middle.cursor, 50_000, "the cursor's place among all rows");
    assert_eq!(middle.rows[middle.cursor].label, "Option 50001");
    assert!(middle.first > 0 && middle.rows.len() <= 51);

    let end = question("end");
    assert_eq!(end.first + end.cursor, 100_000);
    assert!(end.rows[end.cursor].custom, "the custom row is last");
}

#[test]
fn spec15_3_a_filtered_long_list_counts_the_rows_it_shows() {
    let q = question("/\ntype \"Option 9999\"");
    // Every label holding both words: Option 9999, 19999 … 99999 and 99990 … 99998, then the
    // custom row.
    assert_eq!(q.total, 20);
    assert_eq!(q.filter.as_ref().unwrap().matches, 19);
    assert_eq!(q.rows[0].number, 9_999);
    assert_eq!(q.rows.last().unwrap().number, 100_001);
}

/// The cut that bounds every text on screen (`first_chars`) counts characters, not bytes, and
/// never splits one — on the ASCII fast path and off it alike.
#[rstest::rstest]
#[case::shorter_than_n("abc", 5, "abc")]
#[case::exactly_n_bytes("abcde", 5, "abcde")]
#[case::ascii_cut("abcdefgh", 3, "abc")]
#[case::multibyte_after_the_cut("abcé", 3, "abc")]
#[case::multibyte_before_the_cut("éabcdef", 3, "éab")]
#[case::all_multibyte("世界世界世", 2, "世界")]
#[case::emoji("🙂🙂🙂x", 3, "🙂🙂🙂")]
#[case::zero(" x", 0, "")]
fn spec15_3_text_is_cut_after_n_characters(#[case] text: &str, #[case] n: usize, #[case] cut: &str) {
    assert_eq!(ask_engine::project::view::first_chars(text, n), cut);
}

/// The review tab of 20 000 questions: the view carries the entries a screen of the terminal's
/// height can show from the scroll position (two screens' worth, at least 128), not one for
/// each question — and says where they sit in the whole summary.
#[rstest::rstest]
#[case::at_the_top("", 0, 128, "Question 1")]
#[case::a_page_down("pageDown", 0, 138, "Question 1")]
#[case::at_the_end("end", 20_000 - 128, 128, "Question 19873")]
#[case::a_page_up_from_the_end("end\npageUp", 20_000 - 138, 138, "Question 19863")]
fn spec15_3_a_long_review_gives_the_entries_near_its_scroll(
    #[case] keys: &str,
    #[case] first: usize,
    #[case] carried: usize,
    #[case] label: &str,
) {
    let questions: Vec<_> = (1..=20_000)
        .map(|i| {
            json!({"id": format!("q{i}"), "label": format!("Question {i}"), "prompt": "?",
                        "options": [{"value": "a", "label": "A"}]})
        })
        .collect();
    // Shift+Tab from the first question wraps to the review tab.
    let (mut state, _) =
        common::run_with(&json!({ "questions": questions }), "shift+tab", Settings::default());
    state.apply(&ask_engine::Event::TerminalResized { size: ask_engine::Size { width: 80, height: 24 } });
    for step in ask_engine::parse_script(keys).unwrap() {
        step.events(state.settings()).unwrap().iter().for_each(|e| drop(state.apply(e)));
    }
    let Body::Review(review) = state.view().body else { panic!("the review tab") };
    assert_eq!((review.summary_first, review.summary.len(), review.summary_total), (first, carried, 20_000));
    assert_eq!(review.summary[0].label, label);
    let whole = state.review_summary(review.highlighted);
    assert_eq!(review.summary, whole[first..first + carried], "{keys}");
}
