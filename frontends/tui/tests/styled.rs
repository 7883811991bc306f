//! Snapshots that see style (issue 12.25): the plain-text snapshots cannot tell the active tab,
//! the selected rows, the cursor row or a warning from ordinary text, so a highlighting
//! regression would pass them. Here each styled run of a row is written `⟨style|text⟩`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

mod common;

use ask_engine::ViewModel;
use ask_schema::FormSource;
use ask_tui::MemoryTerminal;
use serde_json::{Value, json};
use tuirealm::ratatui::buffer::Buffer;
use tuirealm::ratatui::style::{Color, Modifier, Style};

fn style_name(s: Style) -> String {
    let mut parts = Vec::new();
    if let Some(fg) = s.fg.filter(|c| *c != Color::Reset) {
        parts.push(format!("{fg:?}").to_lowercase());
    }
    for (m, name) in [
        (Modifier::BOLD, "bold"),
        (Modifier::REVERSED, "rev"),
        (Modifier::DIM, "dim"),
        (Modifier::UNDERLINED, "under"),
    ] {
        if s.add_modifier.contains(m) {
            parts.push(name.to_owned());
        }
    }
    parts.join("+")
}

/// Each row as text, with every run of non-default style marked `⟨style|text⟩`.
fn styled_text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut run: Option<(String, String)> = None;
        for x in 0..buf.area.width {
            let cell = &buf[(x, y)];
            let name = style_name(cell.style());
            match &mut run {
                Some((style, text)) if *style == name => text.push_str(cell.symbol()),
                _ => {
                    if let Some((style, text)) = run.take() {
                        line.push_str(&if style.is_empty() { text } else { format!("⟨{style}|{text}⟩") });
                    }
                    run = Some((name, cell.symbol().to_owned()));
                }
            }
        }
        if let Some((style, text)) = run.take() {
            line.push_str(&if style.is_empty() { text } else { format!("⟨{style}|{text}⟩") });
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The view after `script` on `raw` opened at `width`×`height`.
fn view_of(raw: &Value, script: &str, width: u16, height: u16) -> ViewModel {
    let mut state = common::opened(raw, FormSource::Tool, width, height, vec![]);
    common::press(&mut state, script);
    state.view()
}

/// `view` drawn at `width`×`height`, its styles marked.
fn styled(view: ViewModel, width: u16, height: u16) -> String {
    let mut term = MemoryTerminal::new(width, height, None);
    term.render(&Arc::new(view));
    styled_text(term.buffer())
}

fn frame(script: &str, width: u16, height: u16) -> String {
    let raw = json!({"title": "Setup", "questions": [
        {"id": "db", "label": "Database", "prompt": "Which database?", "options": [
            {"value": "pg", "label": "Postgres", "description": "managed"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "extras", "label": "Extras", "prompt": "Which extras?", "type": "multi", "options": [
            {"value": "ci", "label": "CI"}, {"value": "docker", "label": "Docker"}]}]});
    styled(view_of(&raw, script, width, height), width, height)
}

#[test]
fn the_active_tab_the_cursor_row_and_selected_rows_are_highlighted() {
    let f = frame("1\nspace\ndown", 60, 14);
    assert!(f.contains("⟨bold+rev| ✓ Extras ⟩"), "the active tab is reversed: {f}");
    assert!(f.contains("⟨green|[x] CI⟩") || f.contains("[x] ⟨green|CI⟩"), "a selected row is green: {f}");
    assert!(f.contains("⟨cyan+bold|❯ ⟩"), "the cursor's pointer is the accent: {f}");
    insta::assert_snapshot!("styled_multi_question", f);
}

#[test]
fn the_dirty_dismiss_warning_and_the_review_cursor_are_styled() {
    let f = frame("1\nesc", 60, 14);
    assert!(f.contains("⟨yellow+bold|"), "the warning is yellow and bold: {f}");
    insta::assert_snapshot!("styled_dirty_warning", f);
    let review = frame("1\ntab\n2", 60, 14);
    assert!(
        review.contains("⟨cyan+bold|❯ 2. Elaborate⟩")
            && review.contains("⟨yellow+bold|Press 2 again to Elaborate⟩"),
        "the armed action is highlighted: {review}"
    );
    insta::assert_snapshot!("styled_review_armed", review);
}

/// Issue 12.7: the rows a filter shows mark where its words lie, in the label's and the
/// description's own style, so a person sees why each row is shown.
#[test]
fn a_filter_marks_its_words_in_the_rows_it_shows() {
    let raw = json!({"questions": [{"id": "db", "prompt": "Which store?", "options": [
        {"value": "pg", "label": "Postgres", "description": "Relational, speaks SQL"},
        {"value": "lite", "label": "SQLite", "description": "A file, no server"},
        {"value": "redis", "label": "Redis", "description": "Key-value cache"}]}]});
    let f = styled(view_of(&raw, "/\ntype \"sql post\"", 60, 14), 60, 14);
    assert!(f.contains("1. ⟩⟨cyan+bold+under|Post⟩⟨cyan+bold|gres⟩"), "the cursor row's label: {f}");
    assert!(f.contains("⟨darkgray|Relational, speaks ⟩⟨darkgray+bold+under|SQL⟩"), "the description: {f}");
    assert!(!f.contains("SQLite"), "a row holding one word of two is hidden: {f}");
    let f = styled(view_of(&raw, "/\ntype \"e\"\nenter\ndown", 60, 14), 60, 14);
    assert!(f.contains("1. ⟩Postgr⟨bold+under|e⟩s"), "a row off the cursor, every place: {f}");
    assert!(
        f.contains("⟨darkgray|A fil⟩⟨darkgray+bold+under|e⟩⟨darkgray|, no s⟩⟨darkgray+bold+under|e⟩"),
        "{f}"
    );
    insta::assert_snapshot!("styled_filter_marks", f);
}

/// Issue 12.7: a word the wrap broke across two lines (a path wider than the list, broken at a
/// `/`) is marked on both, in the label's style.
#[test]
fn a_filter_marks_a_word_on_both_lines_it_was_broken_across() {
    let raw = json!({"questions": [{"id": "cfg", "prompt": "Which file?", "options": [
        {"value": "a", "label": "services/billing/config/production.yaml"},
        {"value": "b", "label": "README.md"}]}]});
    let f = styled(view_of(&raw, "/\ntype \"config/prod\"", 30, 14), 30, 14);
    let rows: Vec<&str> = f.lines().filter(|l| l.contains("services") || l.contains("yaml")).collect();
    assert_eq!(rows.len(), 2, "the label takes two lines: {f}");
    assert!(rows[0].ends_with("⟨cyan+bold+under|config/⟩"), "the first line ends in the word: {f}");
    assert!(rows[1].contains("⟨cyan+bold+under|prod⟩⟨cyan+bold|uction.yaml⟩"), "the second starts it: {f}");
}

/// The countdown (issue 13.1) is a warning on the title's row, right-aligned; the tab strip under
/// it keeps its own styles.
#[test]
fn the_countdown_is_a_warning_on_the_title_row_only() {
    let raw = json!({"title": "Setup", "questions": [
        {"id": "db", "label": "Database", "prompt": "Which database?", "options": [{"value": "pg", "label": "Postgres"}]}]});
    let mut view = view_of(&raw, "", 40, 10);
    view.countdown = Some(20);
    let f = styled(view, 40, 10);
    let rows: Vec<&str> = f.lines().collect();
    assert_eq!(rows[0], "⟨bold|Setup⟩                      ⟨yellow+bold| ⏱ 20 s left ⟩", "{f}");
    assert_eq!(rows[1], "⟨bold+rev| Database ⟩│ Review │", "{f}");
}

/// On a screen narrower than the active tab's name, the tabs before it give way and it is still
/// the one shown, highlighted and cut at the edge.
#[test]
fn an_active_tab_wider_than_the_screen_is_still_shown() {
    let raw = json!({"questions": [
        {"id": "a", "label": "First", "prompt": "A?", "options": [{"value": "x", "label": "X"}]},
        {"id": "b", "label": "Deployment target region", "prompt": "B?", "options": [{"value": "y", "label": "Y"}]}]});
    let f = styled(view_of(&raw, "tab", 24, 10), 24, 10);
    assert_eq!(f.lines().next().unwrap(), "⟨darkgray|‹ ⟩⟨bold+rev| Deployment target reg⟩", "{f}");
}

/// Tabs give way on either side of the active one only while the strip does not fit: at every
/// width, each tab shown is whole, `‹ ` and `›` say exactly which sides hide tabs, and one more
/// hidden tab would not fit beside the ones shown and their markers.
#[test]
fn the_tab_strip_hides_no_more_tabs_than_it_must() {
    let labels = ["Alpha", "Bravo team", "Charlie", "Delta force", "Echo", "Foxtrot plan"];
    let questions: Vec<_> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| json!({"id": format!("q{i}"), "label": l, "prompt": "?", "options": [{"value": "x", "label": "X"}]}))
        .collect();
    let raw = json!({ "questions": questions });
    let strip = |width: u16, tabs: usize| {
        let frame = common::draw(&raw, FormSource::Tool, &"tab\n".repeat(tabs), width, 10);
        frame.lines().next().unwrap().to_owned()
    };
    let names = |row: &str| -> Vec<String> {
        let row = row.trim_start_matches("‹ ").trim_end_matches('›');
        row.split('│').filter(|n| !n.trim().is_empty()).map(str::to_owned).collect()
    };
    let all = names(&strip(200, 0));
    assert_eq!(all.len(), labels.len() + 1, "{all:?}");
    // Cells that tabs `from..to` take, with `‹ ` when tabs before them are hidden and `›` when
    // tabs after them are.
    let needs = |from: usize, to: usize| {
        let tabs: usize = all[from..to].iter().map(|n| ask_tui::text::width(n) + 1).sum();
        tabs + 2 * usize::from(from > 0) + usize::from(to < all.len())
    };
    // The fourth tab active (tabs after it may be cut off at the right, behind `›`), then the
    // review tab, the last (the ones before it give way from the left).
    for active in [3, labels.len()] {
        for width in 24..=110 {
            let row = strip(width, active);
            let shown = names(&row);
            let at = shown.iter().position(|n| *n == all[active]).expect("the active tab is shown");
            let (first, last) = (active - at, active - at + shown.len());
            assert_eq!(shown[..], all[first..last], "{width}: {row}");
            assert_eq!(row.starts_with("‹ "), first > 0, "{width}: {row}");
            assert_eq!(row.ends_with('›'), last < all.len(), "{width}: {row}");
            assert!(needs(first, last) <= usize::from(width), "{width}: {row}");
            if first > 0 {
                let one_more = needs(first - 1, active + 1);
                assert!(one_more > usize::from(width), "{:?} fits at {width}: {row}", all[first - 1]);
            }
            if last < all.len() {
                assert!(
                    needs(first, last + 1) > usize::from(width),
                    "{:?} fits at {width}: {row}",
                    all[last]
                );
            }
        }
    }
}

/// A form of 1 200 questions: the view carries only the tabs near the active one, and the strip
/// drawn from them is the one the whole list gives — the active tab with its neighbours in
/// order, `‹ ` and `›` where tabs are hidden — at the start, in the middle, and on the review tab.
#[test]
fn the_tab_strip_of_a_form_of_a_thousand_questions_shows_the_tabs_around_the_active_one() {
    let questions: Vec<_> = (0..1200)
        .map(|i| json!({"id": format!("q{i}"), "label": format!("Q{i}"), "prompt": "?", "options": [{"value": "x", "label": "X"}]}))
        .collect();
    let raw = json!({ "questions": questions });
    let strip = |script: &str| {
        let frame = common::draw(&raw, FormSource::Tool, script, 60, 10);
        frame.lines().next().unwrap().trim_end().to_owned()
    };
    let names = |row: &str| -> Vec<String> {
        let row = row.trim_start_matches("‹ ").trim_end_matches('›');
        row.split('│').map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned).collect()
    };
    let first = strip("");
    assert!(!first.starts_with("‹") && first.ends_with('›'), "{first}");
    assert_eq!(names(&first)[..3], ["Q0", "Q1", "Q2"], "{first}");
    let middle = strip(&"tab\n".repeat(700));
    assert!(middle.starts_with("‹ ") && middle.ends_with('›'), "{middle}");
    let shown = names(&middle);
    let at = shown.iter().position(|n| n == "Q700").expect("the active tab shows");
    let expected: Vec<String> = (700 - at..700 - at + shown.len()).map(|i| format!("Q{i}")).collect();
    assert_eq!(shown, expected, "{middle}");
    // `‹ `, eight tabs of seven cells and `›` take 59 of the 60 columns: no room for a ninth.
    assert_eq!(shown.len(), 8, "{middle}");
    let review = strip("shift+tab\n");
    assert!(review.starts_with("‹ ") && review.ends_with("Review │"), "{review}");
    assert_eq!(names(&review).iter().rev().nth(1).map(String::as_str), Some("Q1199"), "{review}");
}

/// A preview line too long for its pane goes on in rows that start under its own indentation
/// with a dim `↪`: in a preview of code, the rest of a wrapped line never reads as a line of its
/// own (a `}` at the margin would close a block that is still open).
#[test]
fn a_wrapped_preview_line_goes_on_under_its_indentation_after_a_dim_marker() {
    let code = "fn main() {\n    return compute(alpha, beta, gamma, delta);\n}";
    let raw = json!({"questions": [{"id": "q", "prompt": "Which?", "type": "preview", "options": [
        {"value": "a", "label": "A", "preview": code}, {"value": "b", "label": "B", "preview": "b"}]}]});
    let f = styled(view_of(&raw, "", 40, 20), 40, 20);
    let pane: Vec<&str> = f.lines().skip_while(|l| !l.starts_with('┌')).skip(1).take(4).collect();
    assert_eq!(
        pane,
        [
            "│ fn main() {                          │",
            "│     return compute(alpha, beta,      │",
            "│     ⟨darkgray|↪ ⟩gamma, delta);                 │",
            "│ }                                    │",
        ],
        "{f}"
    );
}

/// The view carries only the tabs and the part of each label a strip as wide as the terminal
/// can show (issue 15.3: a form of many questions or long labels costs a frame what a short
/// one does). At every width and active tab, the strip drawn from it is the strip drawn, at the
/// same width, from a view of a terminal of unknown width, which carries every tab whole:
/// labels of a zero-width space (a tab of three cells: the most tabs a width holds), of one
/// letter, long ones, and wide characters.
#[rstest::rstest]
#[case::zero_width(1, Some('\u{200b}'))]
#[case::one_letter(1, None)]
#[case::words(7, None)]
#[case::longer_than_any_strip(300, None)]
fn the_tabs_the_view_leaves_out_are_ones_the_strip_could_not_show(
    #[case] label_len: usize,
    #[case] only: Option<char>,
) {
    let questions: Vec<_> = (0..200)
        .map(|i| {
            let letter = |k: usize| if (i + k).is_multiple_of(5) { '数' } else { char::from(b'a' + (i % 26) as u8) };
            let label: String = (0..label_len).map(|k| only.unwrap_or_else(|| letter(k))).collect();
            json!({"id": format!("q{i}"), "label": label, "prompt": "?", "options": [{"value": "x", "label": "X"}]})
        })
        .collect();
    let raw = json!({ "questions": questions });
    for active in [0, 1, 57, 199, 200] {
        for width in [1, 2, 3, 5, 9, 20, 33, 80, 161, 400] {
            let keys = "tab\n".repeat(active);
            let sized = view_of(&raw, &keys, width, 8);
            let whole = view_of(&raw, &keys, 0, 8);
            assert!(sized.tabs.len() < whole.tabs.len(), "{width}: {}", sized.tabs.len());
            let first_row = |view| styled(view, width, 8).lines().next().unwrap().to_owned();
            assert_eq!(first_row(sized), first_row(whole), "active {active}, width {width}");
        }
    }
}
