//! An option list drawn into fewer rows than its markers want. The layout keeps a list at least
//! three rows, but the list draws into whatever rectangle it is given: one row ends in `k/N`
//! (where the cursor is, of how many rows), two rows keep one marker — what is below first —
//! and the cursor's row is never covered (issue 12.24).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::project::view::Body;
use ask_schema::FormSource;
use ask_tui::layout::QuestionAreas;
use common::{opened, press};
use rstest::rstest;
use serde_json::json;
use tuirealm::ratatui::Terminal;
use tuirealm::ratatui::backend::TestBackend;
use tuirealm::ratatui::layout::Rect;

/// The rows of a 300-option question's list drawn alone into `rows` rows of 30 columns, after
/// `script`.
fn list_in(rows: u16, script: &str) -> Vec<String> {
    let options = common::options(300, "Option");
    let raw = json!({"questions": [{"id": "a", "label": "A", "prompt": "Pick one", "options": options}]});
    let mut state = opened(&raw, FormSource::Tool, 30, 24, vec![]);
    press(&mut state, script);
    let view = state.view();
    let Body::Question(q) = &view.body else { panic!("a question tab") };
    let list = Rect::new(0, 0, 30, rows);
    let areas = QuestionAreas { head: Rect::new(0, 0, 30, 0), list, preview: None, descriptions: true };
    let mut terminal = Terminal::new(TestBackend::new(30, rows)).unwrap();
    let done = terminal
        .draw(|f| {
            ask_tui::draw::question::render(f, &areas, q);
        })
        .unwrap();
    ask_tui::buffer_text(done.buffer).lines().map(str::to_owned).collect()
}

#[rstest]
#[case::one_row_at_the_top(1, "", &["❯   1. Option 1          1/301"])]
#[case::one_row_further_down(1, "down\ndown", &["❯   3. Option 3          3/301"])]
#[case::one_row_far_down(1, &"down\n".repeat(150), &["❯ 151. Option 151      151/301"])]
#[case::two_rows_at_the_top(2, "", &["❯   1. Option 1", "  ↓ 300 more · PgDn"])]
#[case::two_rows_in_the_middle(2, "down\ndown", &["❯   3. Option 3", "  ↓ 298 more · PgDn"])]
#[case::two_rows_next_to_the_end(2, "end\nup", &["❯ 300. Option 300", "  ↓ 1 more · PgDn"])]
#[case::two_rows_at_the_end(2, "end\nesc", &["  ↑ 300 more", "❯ 301. Type your own"])]
fn a_list_of_one_or_two_rows_keeps_the_cursor_and_says_where_it_is(
    #[case] rows: u16,
    #[case] script: &str,
    #[case] shown: &[&str],
) {
    let drawn = list_in(rows, script);
    assert_eq!(drawn, shown, "{drawn:#?}");
}

/// Five typed lines in the custom answer's editor.
const FIVE_LINES: &str = "end\ntype \"one\"\nalt+enter\ntype \"two\"\nalt+enter\ntype \"three\"\nalt+enter\n\
                          type \"four\"\nalt+enter\ntype \"five\"";

/// A row being typed into that is taller than the list keeps its label above the typed line,
/// so the text never shows under no label; on three rows the two markers share one row.
#[rstest]
#[case::option_note_on_the_first_option(3, "n\ntype \"abc\"", &["❯   1. Option 1", "         abc", "  ↓ 300 more · PgDn"])]
#[case::option_note_in_the_middle(3, "down\ndown\nn\ntype \"abc\"", &["❯   3. Option 3", "         abc", "  ↑ 2 ↓ 298 more · PgUp/PgDn"])]
#[case::option_note_in_four_rows(4, "down\ndown\nn\ntype \"abc\"", &["  ↑ 2 more", "❯   3. Option 3", "         abc", "  ↓ 298 more · PgDn"])]
#[case::option_note_in_five_rows(5, "down\ndown\nn\ntype \"abc\"", &["  ↑ 2 more", "❯   3. Option 3", "       Option note:", "         abc", "  ↓ 298 more · PgDn"])]
#[case::custom_answer_of_five_lines(4, FIVE_LINES, &["  ↑ 300 more", "❯ 301. Type your own", "       four", "       five"])]
fn a_row_typed_into_keeps_its_label_in_a_short_list(
    #[case] rows: u16,
    #[case] script: &str,
    #[case] shown: &[&str],
) {
    let drawn = list_in(rows, script);
    assert_eq!(drawn, shown, "{drawn:#?}");
}
