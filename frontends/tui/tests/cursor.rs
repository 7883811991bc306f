//! Where the terminal cursor shows, drawn as a live terminal draws it (cells, then the cursor):
//! right after the text being typed, on the row it is on — in the question note pinned in the
//! head (scrolled under the prompt's first line when taller than the head), an option note, the
//! custom answer and the filter query — and nowhere when nothing is being typed. A cursor a row
//! off, or left at the top corner, is what a person notices first while typing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::sync::Arc;

use ask_schema::FormSource;
use ask_tui::MemoryTerminal;
use common::{form, opened, press};
use rstest::rstest;

/// A four-line question note whose second line is longer than the rest.
const FOUR_LINES: &str = "shift+n\ntype \"one\"\nalt+enter\ntype \"two is a much longer line of the note\"\n\
                          alt+enter\ntype \"three\"\nalt+enter\ntype \"four\"";

/// A filter query longer than the 22 cells left beside its count.
const LONG_QUERY: &str = "the words that a person types and then sees come in a long query";

/// The frame after `script` at `width`×`height` and where the cursor shows.
fn drawn(script: &str, width: u16, height: u16) -> (String, Option<(u16, u16)>) {
    drawn_on(&form(), vec![], script, width, height)
}

/// As [`drawn`], on `raw` opened with these config notices.
fn drawn_on(
    raw: &serde_json::Value,
    notices: Vec<String>,
    script: &str,
    width: u16,
    height: u16,
) -> (String, Option<(u16, u16)>) {
    let mut state = opened(raw, FormSource::Tool, width, height, notices);
    press(&mut state, script);
    MemoryTerminal::new(width, height, None).draw_with_cursor(&Arc::new(state.view()))
}

/// The text on the cursor's row before the cursor.
fn before_cursor(frame: &str, (x, y): (u16, u16)) -> String {
    frame.lines().nth(usize::from(y)).unwrap_or("").chars().take(usize::from(x)).collect()
}

#[rstest]
#[case::question_note(40, 10, "shift+n\ntype \"a question note\"", "  a question note")]
#[case::question_note_taller_than_the_head(40, 8, FOUR_LINES, "  four")]
#[case::question_note_back_on_its_first_line(40, 8, &format!("{FOUR_LINES}\nup\nup\nup"), "  one")]
#[case::two_row_head(40, 7, FOUR_LINES, "  four")]
#[case::two_row_head_back_on_the_first_line(40, 7, &format!("{FOUR_LINES}\nup\nup\nup"), "  one")]
#[case::option_note(40, 10, "n\ntype \"opt note\"", "       opt note")]
#[case::option_note_in_a_three_row_list(24, 7, "down\nn\ntype \"abc\"", "       abc")]
#[case::custom_answer(40, 12, "4\ntype \"Elixir\"", "     Elixir")]
#[case::filter_query(40, 10, "/\ntype \"ru\"", "/ ru")]
#[case::filter_query_that_just_fits(40, 10, "/\ntype \"a query of twenty-two\"", "/ a query of twenty-two")]
#[case::a_long_filter_query_shows_its_end(40, 10, &format!("/\ntype \"{LONG_QUERY}\""), "/ … come in a long query")]
#[case::answer_beside_a_preview(100, 20, "tab\ntab\n3\ntype \"YAML\"", "     YAML")]
fn the_cursor_sits_right_after_the_typed_text(
    #[case] width: u16,
    #[case] height: u16,
    #[case] script: &str,
    #[case] typed: &str,
) {
    let (frame, at) = drawn(script, width, height);
    let at = at.unwrap_or_else(|| panic!("no cursor while typing:\n{frame}"));
    assert_eq!(before_cursor(&frame, at), typed, "cursor at {at:?}:\n{frame}");
}

/// A question note taller than the head scrolls under the prompt's first line, which stays
/// (issue 12.24); the note's lines past the head's last row are not drawn over the options under
/// it (the long second line would show through behind "❯ 1. Rust").
#[rstest]
#[case::head_of_two_rows(7)]
#[case::head_of_three_rows(8)]
fn a_scrolled_question_note_keeps_the_prompt_and_stays_in_the_head(#[case] height: u16) {
    let (frame, at) = drawn(&format!("{FOUR_LINES}\nup\nup\nup"), 40, height);
    let rows: Vec<&str> = frame.lines().collect();
    assert!(rows[2].starts_with("Which language should"), "{frame}");
    let (_, y) = at.unwrap();
    assert_eq!(rows[usize::from(y)].trim_end(), "  one", "{frame}");
    assert_eq!(rows[usize::from(y) + 1].trim_end(), "❯ 1. Rust", "{frame}");
    assert!(!frame.contains("much longer"), "{frame}");
}

/// No text being typed, no cursor: it is hidden, not left where the last frame put it.
#[rstest]
#[case::a_question("")]
#[case::a_closed_note("shift+n\ntype \"saved\"\nenter")]
#[case::the_review("1\n1\n1\ntab\n1")]
#[case::a_filter_applied("/\ntype \"ru\"\nenter")]
fn no_cursor_when_nothing_is_typed(#[case] script: &str) {
    let (frame, at) = drawn(script, 60, 16);
    assert_eq!(at, None, "{frame}");
}

/// Once applied, a long filter query shows its start again, cut at the end, and no cursor.
#[test]
fn an_applied_long_filter_query_shows_its_start() {
    let (frame, at) = drawn(&format!("/\ntype \"{LONG_QUERY}\"\nenter"), 40, 10);
    assert!(frame.contains("/ the words that a pers…  0 of 3 options"), "{frame}");
    assert_eq!(at, None, "{frame}");
}

/// The shortest screen a question note is typed on (7 rows, a config notice): the head keeps
/// the prompt's first line and the line being typed, the cursor after it, and the option list
/// gives up its third row for it (the cursor's row and one marker stay). Before, the head had
/// one row and the prompt went while the note was typed (issue 12.24: it is never dropped).
#[rstest]
#[case::one_line("shift+n\ntype \"my note\"", "  my note")]
#[case::on_its_second_line("shift+n\ntype \"one\"\nalt+enter\ntype \"two\"", "  two")]
fn on_the_shortest_screen_a_typed_note_keeps_the_prompt(
    #[values(24, 40)] width: u16,
    #[case] script: &str,
    #[case] typed: &str,
) {
    let notice = vec!["config: ui.theme is not a theme".to_owned()];
    let (frame, at) = drawn_on(&form(), notice, script, width, 7);
    let rows: Vec<&str> = frame.lines().collect();
    assert!(rows[2].starts_with("Which language should"), "{frame}");
    assert_eq!(at.map(|at| before_cursor(&frame, at)).as_deref(), Some(typed), "{frame}");
    assert_eq!(rows[4].trim_end(), "❯ 1. Rust", "{frame}");
    assert!(rows[5].contains("↓ 3 more"), "{frame}");
}

/// In a list scrolled past its top, the cursor of an option note and of the custom answer is on
/// the row drawn, not counted from the list's first row.
#[rstest]
#[case::option_note(&format!("{}n\ntype \"note\"", "down\n".repeat(12)), "↑ 11 more", "        note")]
#[case::custom_answer("end\ntype \"mine\"", "↑ 27 more", "      mine")]
fn in_a_scrolled_list_the_cursor_is_on_the_row_drawn(
    #[case] script: &str,
    #[case] marker: &str,
    #[case] typed: &str,
) {
    let options = common::options(30, "Option");
    let raw = serde_json::json!({"questions": [{"id": "a", "label": "A", "prompt": "Pick one", "options": options}]});
    let (frame, at) = drawn_on(&raw, vec![], script, 40, 12);
    assert!(frame.contains(marker), "{frame}");
    assert_eq!(at.map(|at| before_cursor(&frame, at)).as_deref(), Some(typed), "{frame}");
}
