//! The review tab when rows run short: the footer's hints, the spacers and then the tab's own
//! blank rows give way before any answer in the summary does — the policy every question tab
//! follows (issue 12.24) — and a taller terminal never shows less of the summary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_schema::FormSource;
use common::{draw, form, laid_out, numbered, reviewed};
use rstest::rstest;
use serde_json::Value;

/// Summary lines the `↑ N` / `↓ N more` markers say are off screen.
fn hidden(frame: &str) -> usize {
    let counts = |l: &str| -> Vec<usize> {
        l.split(['↑', '↓']).skip(1).filter_map(|s| s.split_whitespace().next()?.parse().ok()).collect()
    };
    frame.lines().filter(|l| l.contains(" more · Pg")).flat_map(counts).sum()
}

/// Walks every height from 8 rows (at 7 a pressed action's hint leaves the summary no row) to
/// 30, stacked and side by side, with and without the double-press hint: at each, the summary
/// shows a line or a marker, and it hides no more than one row shorter did. Before, at 40×12
/// the blank rows came back and took three answers that 40×11 showed.
#[rstest]
fn a_taller_review_never_shows_less_of_its_summary(
    #[values(24, 30, 40, 50, 63, 64, 80, 100)] width: u16,
    #[values(false, true)] press: bool,
) {
    let mut before = usize::MAX;
    for height in 8..=30 {
        let frame = draw(&form(), FormSource::Tool, &reviewed(press), width, height);
        let now = hidden(&frame);
        assert!(frame.contains("Language: Rust") || now > 0, "{width}×{height}:\n{frame}");
        assert!(now <= before, "{width}×{height} hides {now} lines, one row shorter {before}:\n{frame}");
        before = now;
    }
    assert_eq!(before, 0, "a tall terminal shows the whole summary");
}

/// Whether the summary shows whole and whether the footer keeps a hint line: a summary that
/// fits once the hints (then the blanks) give way shows whole, without hints; one too long to
/// fit anyway scrolls, and the hints keep their rows, as on a long option list.
#[rstest]
#[case::ten_answers_beside_the_actions(numbered(10), "1\n".repeat(10), 100, 12, "Answer 10", true, false)]
#[case::twelve_do_not_fit_anyway(numbered(12), "1\n".repeat(12), 100, 12, "Answer 12", false, true)]
#[case::stacked_under_the_actions(form(), reviewed(true), 40, 15, "why not toml?", true, false)]
#[case::with_room_for_both(form(), reviewed(true), 40, 30, "why not toml?", true, true)]
fn the_reviews_hints_give_way_before_its_answers(
    #[case] raw: Value,
    #[case] script: String,
    #[case] width: u16,
    #[case] height: u16,
    #[case] last: &str,
    #[case] whole: bool,
    #[case] hints: bool,
) {
    let frame = draw(&raw, FormSource::Tool, &script, width, height);
    assert_eq!(hidden(&frame) == 0 && frame.contains(last), whole, "{frame}");
    assert_eq!(frame.contains("Tab questions"), hints, "{frame}");
    for row in ["1. Submit", "2. Elaborate", "3. Cancel"] {
        assert!(frame.contains(row), "{row}:\n{frame}");
    }
}

/// The first press of a double-press action on the shortest screens, a config notice under a
/// 7-row terminal leaving the review four or five rows: "Ready to send?" gives way, and the
/// three actions and the whole hint saying the press needs another still show. Before, the hint
/// was nowhere, and the press looked ignored. At the narrowest width the hint would wrap to two
/// rows where there is one: it takes that row cut with `…`, not its first half with no mark.
#[rstest]
#[case::side_by_side(80, "Press 2 again to Elaborate")]
#[case::stacked(40, "Press 2 again to Elaborate")]
#[case::narrowest(24, "Press 2 again to Elabor…")]
fn on_the_shortest_screen_the_title_gives_way_to_the_hint(#[case] width: u16, #[case] hint: &str) {
    let notice = "Config file /home/ada/.config/ask-user/config.toml: unknown key \"foo\"".to_owned();
    let (_, frame, _) = laid_out(&form(), width, 7, "1\n1\n3\ntab\n1\n2", vec![notice]);
    for row in ["1. Submit", "2. Elaborate", "3. Cancel", "Config"] {
        assert!(frame.contains(row), "{row}:\n{frame}");
    }
    assert!(frame.lines().any(|row| row.trim_end() == hint), "{hint}:\n{frame}");
}

/// Beside the actions, a summary longer than the screen leaves the double-press hint the body's
/// last row, whole and alone: the summary stops (with its marker) above the blank row over it.
#[test]
fn beside_a_long_summary_the_hint_keeps_the_last_row() {
    let (width, height) = (100, 12);
    let (areas, frame, _) = laid_out(&numbered(12), width, height, &format!("{}1", "1\n".repeat(12)), vec![]);
    let rows: Vec<&str> = frame.lines().collect();
    let last = usize::from(areas.body.bottom() - 1);
    assert_eq!(rows[last].trim_end(), "Press 1 again to Submit", "{frame}");
    assert_eq!(rows[last - 1].trim_end(), "", "{frame}");
    assert!(rows[last - 2].ends_with("more · PgDn"), "{frame}");
}

/// A summary pane of two rows (thirty answers under the actions at 40×7) shows an answer and one
/// marker row that says what is clipped on each side; one of three rows (40×8) has a marker row
/// for each clipped side. At the top, in the middle and at the end.
#[rstest]
#[case::two_rows_top(7, "", &["Question 1: Answer 1", "↓ 29 more · PgDn"])]
#[case::two_rows_middle(7, "pageDown", &["Question 11: Answer 11", "↑ 10 ↓ 19 more · PgUp/PgDn"])]
#[case::two_rows_end(7, "end", &["↑ 29 more · PgUp", "Question 30: Answer 30"])]
#[case::three_rows_top(8, "", &["Question 1: Answer 1", "Question 2: Answer 2", "↓ 28 more · PgDn"])]
#[case::three_rows_middle(8, "pageDown", &["↑ 10 more · PgUp", "Question 11: Answer 11", "↓ 19 more · PgDn"])]
#[case::three_rows_end(8, "end", &["↑ 28 more · PgUp", "Question 29: Answer 29", "Question 30: Answer 30"])]
fn a_short_summary_says_what_is_clipped_on_both_sides(
    #[case] height: u16,
    #[case] keys: &str,
    #[case] shown: &[&str],
) {
    let frame = draw(&numbered(30), FormSource::Tool, &format!("{}{keys}", "1\n".repeat(30)), 40, height);
    let rows: Vec<&str> = frame.lines().map(str::trim_end).collect();
    assert_eq!(rows[rows.len() - shown.len()..], *shown, "{frame}");
    assert!(rows[rows.len() - shown.len() - 1].ends_with("3. Cancel"), "{frame}");
}

/// Questions left unanswered count in the summary's markers as answers do: only the lines on
/// screen are built, and the rest, one row each, are counted.
#[test]
fn unanswered_questions_count_in_the_markers() {
    let frame = draw(&numbered(30), FormSource::Tool, &"tab\n".repeat(30), 40, 8);
    let rows: Vec<&str> = frame.lines().map(str::trim_end).collect();
    let shown = ["Question 1: (unanswered)", "Question 2: (unanswered)", "↓ 28 more · PgDn"];
    assert_eq!(rows[rows.len() - 3..], shown, "{frame}");
}

/// A summary far too long for a 7-row terminal under a title and the tabs: the spacer under the
/// tabs gives way before "Ready to send?" does, and every action and the `↓ N more` marker
/// show, side by side and stacked. Beside the summary the actions' column keeps its blank row
/// at every height (it costs the summary nothing there), so it does not shift as the terminal
/// is resized.
#[rstest]
fn a_long_summary_on_the_smallest_screen_keeps_the_title_and_actions(#[values(40, 80)] width: u16) {
    let mut raw = numbered(12);
    raw["title"] = "Twelve questions".into();
    for height in 7..=12 {
        let frame = draw(&raw, FormSource::Tool, &"1\n".repeat(12), width, height);
        for row in ["Ready to send?", "1. Submit", "2. Elaborate", "3. Cancel", "more · PgDn"] {
            assert!(frame.contains(row), "{row} at {width}×{height}:\n{frame}");
        }
        let rows: Vec<&str> = frame.lines().collect();
        let title = rows.iter().position(|l| l.starts_with("Ready to send?")).unwrap();
        if width >= 64 {
            assert!(rows[title + 1].get(..24).unwrap_or(rows[title + 1]).trim().is_empty(), "{frame}");
        }
    }
}
