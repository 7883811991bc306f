//! Type-to-filter on long option lists (issue 12.7): the filter key opens a query line, rows
//! that do not hold the text are hidden, the cursor moves among the rows shown, Esc clears,
//! and the result's indices stay the declared positions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_engine::Settings;
use ask_engine::project::view::Body;
use rstest::rstest;
use serde_json::{Value, json};

/// One single question with twelve fruits (declared order) and one multi question.
fn fruits() -> Value {
    let names = [
        "Apple",
        "Apricot",
        "Banana",
        "Blackberry",
        "Blueberry",
        "Cherry",
        "Date",
        "Fig",
        "Grape",
        "Kiwi",
        "Lemon",
        "Lime",
    ];
    let options: Vec<Value> = names.iter().map(|n| json!({"value": n.to_lowercase(), "label": n})).collect();
    json!({"questions":[
        {"id":"fruit","prompt":"Which fruit?","options":options},
        {"id":"many","prompt":"Which ones?","type":"multi","options":options}]})
}

/// The labels of the rows shown on the active question, the highlighted one marked `>`.
fn shown(script: &str) -> Vec<String> {
    shown_in(&fruits(), script)
}

fn shown_in(raw: &Value, script: &str) -> Vec<String> {
    let (state, _) = common::run_with(raw, script, Settings::default());
    let Body::Question(q) = state.view().body else { panic!("on a question") };
    q.rows
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{}{}", if i == q.cursor { ">" } else { "" }, r.label))
        .collect()
}

#[rstest]
#[case::typing_hides_rows_that_do_not_match("/\ntype \"berry\"", &[">Blackberry", "Blueberry", "Type your own"])]
#[case::case_is_ignored("/\ntype \"AP\"", &[">Apple", "Apricot", "Grape", "Type your own"])]
#[case::down_moves_among_the_rows_shown("/\ntype \"berry\"\ndown", &["Blackberry", ">Blueberry", "Type your own"])]
#[case::backspace_widens_again_and_the_cursor_stays("/\ntype \"lemo\"\nbackspace\nbackspace", &["Apple", ">Lemon", "Type your own"])]
#[case::a_paste_while_typing_the_query_is_query("/\npaste \"rry\\nbl\"", &[">Blackberry", "Blueberry", "Type your own"])]
#[case::every_word_in_any_order("/\ntype \"rry bl\"", &[">Blackberry", "Blueberry", "Type your own"])]
#[case::every_word_must_be_held("/\ntype \"berry ch\"", &[">Type your own"])]
#[case::spaces_alone_hide_nothing("/\ntype \"  \"", &[">Apple", "Apricot", "Banana", "Blackberry", "Blueberry", "Cherry", "Date", "Fig", "Grape", "Kiwi", "Lemon", "Lime", "Type your own"])]
#[case::no_match_leaves_the_custom_row_without_opening_it("/\ntype \"zzz\"", &[">Type your own"])]
#[case::escape_clears_the_filter("/\ntype \"berry\"\nesc", &["Apple", "Apricot", "Banana", ">Blackberry", "Blueberry", "Cherry", "Date", "Fig", "Grape", "Kiwi", "Lemon", "Lime", "Type your own"])]
#[case::enter_keeps_the_filter_and_arrows_still_skip("/\ntype \"rr\"\nenter\ndown", &["Blackberry", ">Blueberry", "Cherry", "Type your own"])]
#[case::up_moves_back_among_the_rows_shown("/\ntype \"berry\"\ndown\nup", &[">Blackberry", "Blueberry", "Type your own"])]
#[case::page_down_moves_ten_rows_shown("/\npageDown", &["Apple", "Apricot", "Banana", "Blackberry", "Blueberry", "Cherry", "Date", "Fig", "Grape", "Kiwi", ">Lemon", "Lime", "Type your own"])]
#[case::page_up_moves_back_ten("/\npageDown\ndown\npageUp", &["Apple", ">Apricot", "Banana", "Blackberry", "Blueberry", "Cherry", "Date", "Fig", "Grape", "Kiwi", "Lemon", "Lime", "Type your own"])]
#[case::page_down_counts_only_rows_shown("/\ntype \"a\"\npageDown", &["Apple", "Apricot", "Banana", "Blackberry", "Date", "Grape", ">Type your own"])]
#[case::ctrl_letters_are_not_query("/\nctrl+b\nalt+b", &[">Apple", "Apricot", "Banana", "Blackberry", "Blueberry", "Cherry", "Date", "Fig", "Grape", "Kiwi", "Lemon", "Lime", "Type your own"])]
fn spec12_7_filter_rows(#[case] script: &str, #[case] rows: &[&str]) {
    assert_eq!(shown(script), rows);
}

#[test]
fn spec12_7_the_result_keeps_declared_indices() {
    let (state, _) =
        common::run_with(&fruits(), "/\ntype \"berry\"\ndown\nenter\nenter", Settings::default());
    assert!(state.filter().is_none(), "the filter goes with the tab");
    let (state, _) = common::run_with(
        &fruits(),
        "/\ntype \"berry\"\ndown\nenter\nenter\n/\ntype \"rr\"\nenter\nspace\ndown\nspace\ntab\nenter",
        Settings::default(),
    );
    let details = common::details(&state);
    assert_eq!(details["answers"]["fruit"]["values"], json!(["blueberry"]), "{details}");
    assert_eq!(details["answers"]["fruit"]["indices"], json!([5]), "Blueberry is declared fifth");
    assert_eq!(details["answers"]["many"]["indices"], json!([4, 5]), "Blackberry and Blueberry: {details}");
}

#[test]
fn spec12_7_escape_after_keeping_clears_before_it_cancels() {
    let (state, _) = common::run_with(&fruits(), "/\ntype \"li\"\nenter\nesc", Settings::default());
    assert!(state.outcome().is_none() && state.filter().is_none());
    let (state, _) = common::run_with(&fruits(), "/\ntype \"li\"\nenter\nesc\nesc", Settings::default());
    assert!(state.outcome().is_some(), "the next Esc cancels as always");
}

#[test]
fn spec12_7_digits_and_letters_go_to_the_query_while_typing() {
    // `n` would open an option note and `2` would select row 2 without the query line.
    assert_eq!(shown("/\ntype \"n\""), [">Banana", "Lemon", "Type your own"]);
    let (state, _) = common::run_with(&fruits(), "/\n2", Settings::default());
    assert_eq!(state.filter().unwrap().query, "2");
    assert!(state.editor().is_none());
}

#[test]
fn spec12_7_the_query_line_shows_the_letters_as_typed() {
    let (state, _) = common::run_with(&fruits(), "/\ntype \"AP\"", Settings::default());
    assert_eq!(state.filter().unwrap().query, "AP", "shift+a is an `A`, as an editor takes it");
    assert_eq!(shown("/\ntype \"AP\""), [">Apple", "Apricot", "Grape", "Type your own"]);
}

#[test]
fn spec12_7_the_filter_key_is_configurable() {
    let settings = common::with(|s| s.keymaps.filter = ask_engine::KeyPress::parse("ctrl+f").unwrap());
    let (state, _) = common::run_with(&fruits(), "ctrl+f\ntype \"kiw\"", settings);
    assert_eq!(state.filter().unwrap().query, "kiw");
    let (state, _) = common::run_with(&fruits(), "/", settings);
    assert!(state.filter().is_none());
}

#[test]
fn spec12_7_the_footer_offers_the_filter_on_a_long_list() {
    let (state, _) = common::run_with(&fruits(), "", Settings::default());
    let hints: Vec<String> =
        state.view().footer.unwrap().iter().map(|h| format!("{} {}", h.key, h.action)).collect();
    assert!(hints.contains(&"/ filter".to_owned()), "{hints:?}");
    let (state, _) = common::run_with(&fruits(), "/", Settings::default());
    let hints: Vec<String> =
        state.view().footer.unwrap().iter().map(|h| format!("{} {}", h.key, h.action)).collect();
    assert_eq!(hints, ["type filter", "↑↓ move", "Enter keep filter", "Esc clear filter"]);
}

/// The filter is offered where the rows are many: past the nine digit keys, or more than the
/// terminal shows with the form around them.
#[rstest]
#[case::nine_in_a_tall_terminal(9, 40, false)]
#[case::ten_in_a_tall_terminal(10, 40, true)]
#[case::five_that_fit(5, 15, false)]
#[case::five_in_a_short_terminal(5, 14, true)]
fn spec12_7_the_filter_is_offered_where_the_rows_are_many(
    #[case] options: usize,
    #[case] height: u16,
    #[case] offered: bool,
) {
    let options: Vec<Value> =
        (0..options).map(|i| json!({"value": format!("v{i}"), "label": format!("Option {i}")})).collect();
    let raw = json!({"questions":[{"id":"q","prompt":"Which?","options":options}]});
    let (state, _) = common::run_with(&raw, &format!("resize 80 {height}"), Settings::default());
    let hints: Vec<String> =
        state.view().footer.unwrap().iter().map(|h| format!("{} {}", h.key, h.action)).collect();
    assert_eq!(hints.contains(&"/ filter".to_owned()), offered, "{hints:?}");
}

/// A word the label lacks may be in the description; every word must be in one or the other.
#[rstest]
#[case::a_word_in_the_description("sql", &[">Postgres", "SQLite", "Type your own"])]
#[case::one_word_in_each("postgres relational", &[">Postgres", "Type your own"])]
#[case::a_word_in_neither("postgres cache", &[">Type your own"])]
fn spec12_7_the_filter_reads_descriptions_too(#[case] query: &str, #[case] rows: &[&str]) {
    let raw = json!({"questions": [{"id": "db", "prompt": "Which store?", "options": [
        {"value": "pg", "label": "Postgres", "description": "Relational, SQL"},
        {"value": "sqlite", "label": "SQLite", "description": "A file"},
        {"value": "redis", "label": "Redis", "description": "Key-value cache"}]}]});
    assert_eq!(shown_in(&raw, &format!("/\ntype \"{query}\"")), rows);
}

/// One edit of the filter in [`the_rows_shown_are_every_row_holding_each_word`].
#[derive(Debug, Clone)]
enum Edit {
    Type(char),
    Backspace,
    Paste(String),
    Down,
    Up,
}

fn edit() -> impl proptest::strategy::Strategy<Value = Edit> {
    use proptest::prelude::*;
    prop_oneof![
        // Letters whose lowering crosses between ASCII and the rest (the Kelvin sign, `ẞ`) or
        // depends on what follows (a capital sigma lowers to `ς` at a word's end and to `σ`
        // within one), so a longer query need not hide more rows by mere extension.
        4 => "[abkKÉéKßẞΣσς ]".prop_map(|s| Edit::Type(s.chars().next().unwrap_or(' '))),
        2 => Just(Edit::Backspace),
        1 => "[abkKÉΣσς \n]{0,3}".prop_map(Edit::Paste),
        1 => Just(Edit::Down),
        1 => Just(Edit::Up),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Issue 12.7 and 15.3: however the query was reached (typed on, taken back, pasted), the
    /// rows shown are exactly those whose label or description holds each of its words, case
    /// ignored (lowered here by `str::to_lowercase` on both sides), and Up and Down move to the
    /// next row shown. The filter keeps the rows of earlier queries so that a key need not test
    /// the whole list; this holds it to the plain definition.
    #[test]
    fn the_rows_shown_are_every_row_holding_each_word(
        options in proptest::collection::vec(("[abkKÉéKßẞΣσς ]{1,6}", proptest::option::of("[abkKÉéKßẞΣσς ]{1,4}")), 1..12),
        edits in proptest::collection::vec(edit(), 1..40),
    ) {
        use ask_engine::{Event, KeyCode, KeyPress};
        let items: Vec<Value> = options
            .iter()
            .enumerate()
            .map(|(i, (label, description))| match description {
                Some(d) if !d.trim().is_empty() => json!({"value": format!("v{i}"), "label": format!("{i}{label}"), "description": d}),
                _ => json!({"value": format!("v{i}"), "label": format!("{i}{label}")}),
            })
            .collect();
        let raw = json!({"questions": [{"id": "q", "prompt": "Which?", "options": items}]});
        let (mut state, _) = common::run_with(&raw, "/", Settings::default());
        let form = common::form_of(&raw);
        let options = &form.questions[0].options;
        for edit in edits {
            let query = state.filter().map(|f| f.query.clone()).unwrap_or_default();
            let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
            let shows = |o: &ask_schema::OptionItem| {
                let description = o.description.as_deref().unwrap_or_default().to_lowercase();
                words.iter().all(|w| o.label.to_lowercase().contains(w) || description.contains(w))
            };
            let expected: Vec<usize> =
                (0..options.len()).filter(|&i| shows(&options[i])).chain([options.len()]).collect();
            let view = state.view();
            let Body::Question(q) = &view.body else { panic!("on the question") };
            let rows: Vec<usize> = q.rows.iter().map(|r| r.number - 1).collect();
            proptest::prop_assert_eq!(&rows, &expected, "query {:?}", query);
            let cursor = rows[q.cursor];
            let event = match &edit {
                Edit::Type(c) => Event::key(KeyPress::plain(KeyCode::Char(*c))),
                Edit::Backspace => Event::key(KeyPress::plain(KeyCode::Backspace)),
                Edit::Paste(text) => Event::TextPasted { text: text.clone() },
                Edit::Down => Event::key(KeyPress::plain(KeyCode::Down)),
                Edit::Up => Event::key(KeyPress::plain(KeyCode::Up)),
            };
            state.apply(&event);
            let at = expected.iter().position(|&r| r == cursor).unwrap_or_default();
            let moved_to = match edit {
                Edit::Down => Some(expected[(at + 1).min(expected.len() - 1)]),
                Edit::Up => Some(expected[at.saturating_sub(1)]),
                _ => None,
            };
            if let Some(row) = moved_to {
                let view = state.view();
                let Body::Question(q) = &view.body else { panic!("on the question") };
                proptest::prop_assert_eq!(q.rows[q.cursor].number - 1, row, "{:?} from row {}", edit, cursor);
            }
        }
    }
}

/// A longer query can show a row a shorter one hid: a capital sigma lowers to `ς` at a word's
/// end and to `σ` within one, so `aΣ` looks for `aς` and `aΣb` for `aσb`. The rows kept for the
/// shorter query are not where the longer one looks.
#[rstest]
#[case::the_shorter_query("aΣ", &[">Aς", "Type your own"])]
#[case::the_longer_one_finds_what_the_shorter_hid("aΣ\"\ntype \"b", &[">Aσb", "Type your own"])]
#[case::and_back_again("aΣ\"\ntype \"b\"\nbackspace\ntype \"", &[">Aς", "Type your own"])]
fn spec12_7_a_longer_query_is_tested_afresh_where_lowering_changes(
    #[case] typed: &str,
    #[case] rows: &[&str],
) {
    let raw = json!({"questions": [{"id": "q", "prompt": "Which?", "options": [
        {"value": "a", "label": "Aσb"}, {"value": "b", "label": "Aς"}]}]});
    assert_eq!(shown_in(&raw, &format!("/\ntype \"{typed}\"")), rows);
}
