//! The layout policy at tight heights (issue 12.24): footer hints give way first, then the
//! spacer rows (the blank under the prompt is one), then option descriptions; the prompt and the
//! cursor's row never do, hidden rows are always announced, and a list that scrolls keeps at
//! least half the screen.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use ask_engine::ViewModel;
use ask_schema::FormSource;
use ask_tui::layout::Areas;
use rstest::rstest;
use serde_json::{Value, json};

/// One question: a one-line prompt, four rows (two with descriptions); at 80 columns its hints
/// take two lines.
fn form() -> Value {
    json!({"title":"New service setup","questions":[
        {"id":"lang","label":"Language","prompt":"Which language should the new service be written in?","options":[
            {"value":"rust","label":"Rust","description":"Fast, memory safe, single static binary"},
            {"value":"go","label":"Go","description":"Simple concurrency, quick builds"},
            {"value":"ts","label":"TypeScript"}]}]})
}

fn laid_out(raw: &Value, width: u16, height: u16, script: &str) -> (Areas, String) {
    let (areas, frame, _) = laid_out_noticed(raw, width, height, script, false);
    (areas, frame)
}

/// As [`laid_out`], opened with a config notice when `notice` is set; also gives the view.
fn laid_out_noticed(
    raw: &Value,
    width: u16,
    height: u16,
    script: &str,
    notice: bool,
) -> (Areas, String, Arc<ViewModel>) {
    let notices = if notice { vec!["config: ui.theme is not a theme".to_owned()] } else { vec![] };
    common::laid_out(raw, width, height, script, notices)
}

/// Height → hint lines kept, blank row under the header, blank row under the prompt, descriptions
/// drawn. A config notice is one more line the footer always keeps: with one, each step of the
/// policy comes one row taller.
#[rstest]
#[case::everything_fits(14, 2, true, true, true)]
#[case::one_hint_line_goes_first(13, 1, true, true, true)]
#[case::then_the_other(12, 0, true, true, true)]
#[case::then_the_spacers(10, 0, false, true, true)]
#[case::the_blank_under_the_prompt_too(9, 0, false, false, true)]
#[case::then_the_descriptions_at_the_smallest_screen(7, 0, false, false, false)]
fn rows_give_way_in_the_policys_order(
    #[case] height: u16,
    #[case] hints: u16,
    #[case] spacer: bool,
    #[case] blank_under_prompt: bool,
    #[case] descriptions: bool,
    #[values(false, true)] notice: bool,
) {
    let (areas, frame, _) = laid_out_noticed(&form(), 80, height + u16::from(notice), "", notice);
    let q = areas.question.unwrap();
    assert_eq!(areas.footer.height, hints + u16::from(notice), "{frame}");
    assert_eq!(frame.contains("ui.theme is not a theme"), notice, "a notice is never dropped: {frame}");
    assert_eq!(areas.body.y > areas.header.height, spacer, "{frame}");
    assert_eq!(q.head.height, 1 + u16::from(blank_under_prompt), "{frame}");
    assert_eq!(q.descriptions, descriptions, "{frame}");
    assert_eq!(frame.contains("Fast, memory safe"), descriptions, "{frame}");
    assert!(frame.contains("Which language should"), "the prompt never goes: {frame}");
    assert!(frame.contains("❯ 1. Rust"), "the cursor's row never goes: {frame}");
    let all_rows =
        ["1. Rust", "2. Go", "3. TypeScript", "4. Type your own"].iter().all(|r| frame.contains(r));
    assert!(all_rows || frame.contains("more") || frame.contains("/4"), "hidden rows are announced: {frame}");
}

/// A prompt the head has no room for is cut with `…` on its last shown line, so it does not read
/// as the whole question; one that fits is not marked.
#[rstest]
#[case::cut_on_the_smallest_screen(24, 7, true)]
#[case::whole_on_a_short_one_once_its_blanks_give_way(24, 9, false)]
#[case::whole_when_it_fits(24, 14, false)]
#[case::whole_on_one_line(80, 7, false)]
fn a_cut_prompt_ends_with_an_ellipsis(#[case] width: u16, #[case] height: u16, #[case] cut: bool) {
    let (_, frame) = laid_out(&form(), width, height, "");
    let prompt: Vec<&str> = frame.lines().skip(2).take_while(|l| !l.contains("1. Rust")).collect();
    let shown = prompt.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
    assert!(shown.starts_with("Which language"), "{frame}");
    assert_eq!(shown.trim_end().ends_with('…'), cut, "{frame}");
    assert_eq!(shown.contains("written in?"), !cut, "{frame}");
    assert!(frame.lines().all(|l| l.chars().count() <= usize::from(width)), "{frame}");
}

/// On the shortest screen (7 rows and a config notice: four body rows) a long prompt keeps its
/// first line, cut with `…`, and the list its three rows: the cursor's row between its two
/// markers. Only a question note being typed takes one of them (see `cursor.rs`).
#[rstest]
#[case::at_the_top("", &["❯  1. Opt 1", "   2. Opt 2", "  ↓ 9 more · PgDn"])]
#[case::in_the_middle("down\ndown\ndown", &["  ↑ 3 more", "❯  4. Opt 4", "  ↓ 7 more · PgDn"])]
fn on_the_shortest_screen_a_long_prompt_leaves_the_list_three_rows(
    #[case] script: &str,
    #[case] list: &[&str],
) {
    let options = common::options(10, "Opt");
    let prompt = "Which of these options should we take, given everything the team has said so far?";
    let raw = json!({"title":"Pick","questions":[{"id":"a","label":"A","prompt":prompt,"options":options}]});
    let (areas, frame, _) = laid_out_noticed(&raw, 30, 7, script, true);
    let q = areas.question.unwrap();
    assert_eq!((q.head.height, q.list.height), (1, 3), "{frame}");
    let rows: Vec<&str> = frame.lines().map(str::trim_end).collect();
    let first = usize::from(q.head.y);
    assert!(rows[first].starts_with("Which of these") && rows[first].ends_with('…'), "{frame}");
    assert_eq!(&rows[first + 1..first + 4], list, "{frame}");
}

/// Dropping the descriptions frees more rows than they needed on a narrow screen (each wraps):
/// those rows go back to the spacer, then to the hints, instead of staying blank at the bottom.
#[rstest]
#[case::the_spacer(10, 0)]
#[case::the_spacer_and_a_hint_line(12, 1)]
fn rows_the_descriptions_freed_go_back_to_the_hints(#[case] height: u16, #[case] hints: u16) {
    let mut raw = form();
    raw["questions"][0]["options"][0]["description"] =
        json!("Fast, memory safe, one static binary, no garbage collector pauses, checked at compile time");
    let (areas, frame) = laid_out(&raw, 30, height, "");
    let q = areas.question.unwrap();
    assert!(!q.descriptions, "the descriptions need more rows than there are: {frame}");
    assert!(areas.body.y > areas.header.height, "the spacer is back: {frame}");
    assert_eq!(areas.footer.height, hints, "{frame}");
    assert_eq!(frame.contains("↑↓ move"), hints > 0, "{frame}");
    let last = frame.lines().nth(usize::from(height) - 1).unwrap_or("");
    assert!(!last.trim().is_empty(), "no blank rows left at the bottom: {frame}");
}

#[rstest]
#[case(7)]
#[case(8)]
#[case(9)]
#[case(12)]
fn every_row_is_shown_or_announced_whatever_the_cursor(#[case] height: u16) {
    for down in 0..4 {
        let (_, frame) = laid_out(&form(), 40, height, &"down\n".repeat(down));
        let label = ["Rust", "Go", "TypeScript", "Type your own"][down];
        assert!(frame.contains(&format!("❯ {}. {label}", down + 1)), "cursor row at {height}: {frame}");
        let hidden =
            ["1. Rust", "2. Go", "3. TypeScript", "4. Type your own"].iter().any(|r| !frame.contains(r));
        assert!(!hidden || frame.contains("more") || frame.contains("/4"), "{frame}");
    }
}

#[test]
fn a_long_list_scrolls_and_keeps_its_hints() {
    let options = common::options(60, "Option");
    let raw = json!({"questions":[{"id":"a","prompt":"Pick one","options":options}]});
    let (areas, frame) = laid_out(&raw, 80, 24, "");
    assert!(areas.footer.height >= 2, "scrolling anyway, the hints stay: {frame}");
    assert!(areas.question.unwrap().descriptions);
    assert!(frame.contains("↓ ") && frame.contains(" more"), "{frame}");
}

/// A prompt longer than the screen leaves a short list all its rows, and shares the body half
/// and half with a list that scrolls anyway.
#[rstest]
#[case::a_short_list_keeps_its_three_rows(2)]
#[case::a_long_one_half_the_body(30)]
fn a_long_prompt_leaves_the_list_its_rows(#[case] options: usize) {
    let prompt = "Why is this prompt so long? ".repeat(40);
    let options = common::options(options, "Option");
    let raw = json!({"questions":[{"id":"a","prompt":prompt,"options":options}]});
    let (areas, frame) = laid_out(&raw, 40, 16, "");
    let q = areas.question.unwrap();
    let body = areas.body.height;
    if options.len() == 2 {
        assert_eq!(q.list.height, 3, "{q:?}\n{frame}");
    } else {
        assert_eq!(q.head.height, body / 2, "the prompt takes half the body: {q:?}\n{frame}");
        assert_eq!(q.list.height, body - body / 2, "{q:?}\n{frame}");
        assert!(frame.contains("↓ "), "{frame}");
    }
    assert!(frame.contains("Why is this prompt"), "{frame}");
    let first = if options.len() < 10 { "❯ 1. Option 1" } else { "❯  1. Option 1" };
    assert!(frame.contains(first), "{frame}");
}

/// However the rows go, while the list scrolls the key hints keep at most a third of the screen
/// (what the notice and the unsaved-answers warning leave of it), and the list at least half.
#[rstest]
fn a_scrolling_lists_hints_keep_at_most_a_third_of_the_screen(
    #[values(24, 30, 80)] width: u16,
    #[values(false, true)] notice: bool,
) {
    let options = common::options(60, "Option");
    let raw = json!({"questions":[{"id":"a","prompt":"Which one?","type":"multi","options":options}]});
    for height in 14..=64 {
        // An answer, then the warning Esc gives.
        let (areas, _, view) = laid_out_noticed(&raw, width, height, "space\nesc", notice);
        let fixed = ask_tui::draw::footer::warning_lines(&view, usize::from(width)) as u16;
        assert!(fixed > u16::from(notice), "the warning is shown besides any notice: {fixed}");
        let hints = areas.footer.height - fixed;
        assert!(
            hints <= (height / 3).saturating_sub(fixed),
            "{width}×{height}, notice {notice}: {hints} hint lines"
        );
        assert!(areas.question.unwrap().list.height >= height.div_ceil(2), "{width}×{height}");
    }
}

/// A list that scrolls anyway keeps at least half the screen: the hints give way first, then the
/// spacers. On a tall screen it has that with every hint line (see above).
#[rstest]
#[case::seven_rows(7, 0, false)]
#[case::nine(9, 0, false)]
#[case::twelve(12, 0, true)]
#[case::sixteen(16, 2, true)]
fn a_scrolling_list_keeps_half_the_screen(#[case] height: u16, #[case] hints: u16, #[case] spacer: bool) {
    let options: Vec<Value> = (1..=30)
        .map(|i| json!({"value": format!("v{i}"), "label": format!("Option {i}"), "description": format!("What option {i} does")}))
        .collect();
    let raw = json!({"title":"Long list","questions":[{"id":"a","prompt":"Which one?","type":"multi","options":options}]});
    let (areas, frame) = laid_out(&raw, 70, height, "");
    let q = areas.question.unwrap();
    assert!(q.list.height >= height.div_ceil(2), "{q:?}\n{frame}");
    assert_eq!(areas.footer.height, hints, "{frame}");
    assert_eq!(areas.body.y > areas.header.height, spacer, "{frame}");
    assert!(frame.contains("Which one?") && frame.contains("↓ "), "{frame}");
}

/// Under a list too long for the screen, the pane shares what the head leaves: half each.
#[test]
fn a_preview_under_a_long_list_shares_the_rows_half_and_half() {
    let options: Vec<Value> = (1..=12)
        .map(|i| json!({"value": format!("v{i}"), "label": format!("Style {i}"), "preview": format!("style {i}\nline 2")}))
        .collect();
    let raw = json!({"questions":[{"id":"e","prompt":"Which style?","type":"preview","options":options}]});
    let (areas, frame) = laid_out(&raw, 70, 24, "");
    let q = areas.question.unwrap();
    let pane = q.preview.expect("a pane under the list");
    let rest = areas.body.height - q.head.height;
    assert_eq!(q.list.height, rest / 2, "{q:?}\n{frame}");
    assert_eq!((pane.y, pane.height), (q.list.y + q.list.height, rest - rest / 2), "{q:?}\n{frame}");
    assert!(frame.contains("┌ Style 1") && frame.contains("↓ "), "{frame}");
}

/// Where the preview pane goes under the options (a narrow screen), a whole list leaves it every
/// row under it — down to a pane of its borders and three lines; shorter than that, the list
/// scrolls without one.
#[rstest]
#[case::eleven_rows(11, Some(5))]
#[case::fourteen(14, Some(6))]
#[case::ten_has_no_room(10, None)]
fn a_preview_under_a_short_list_takes_every_row_under_it(#[case] height: u16, #[case] pane: Option<u16>) {
    let option = |v: &str, l: &str| json!({"value": v, "label": l, "description": "What it does", "preview": "line 1\nline 2\nline 3\nline 4\nline 5\nline 6"});
    let raw = json!({"questions":[{"id":"e","label":"Errors","prompt":"How should errors look?","type":"preview",
        "options":[option("a","Problem JSON"), option("b","Field list"), option("c","Plain text")]}]});
    let (areas, frame) = laid_out(&raw, 70, height, "");
    let q = areas.question.unwrap();
    assert_eq!(q.preview.map(|p| p.height), pane, "{q:?}\n{frame}");
    assert_eq!(frame.contains("┌ Problem JSON"), pane.is_some(), "{frame}");
    if let Some(p) = q.preview {
        assert_eq!(p.y, q.list.y + 4, "the pane starts right under the four rows: {frame}");
        assert_eq!(p.y + p.height, height, "and takes every row under them: {frame}");
    } else {
        assert!(frame.contains("↓ "), "the list scrolls instead: {frame}");
    }
}

/// From 90 columns the pane goes beside the options, so the rows the options ask for are only
/// the list's: nothing gives way for a pane under them that is not there.
#[rstest]
#[case::beside_at_ninety(90, true)]
#[case::under_at_eighty_nine(89, false)]
fn a_preview_beside_the_list_asks_no_rows_under_it(#[case] width: u16, #[case] beside: bool) {
    let option = |v: &str, l: &str| json!({"value": v, "label": l, "preview": "line 1\nline 2\nline 3\nline 4\nline 5\nline 6"});
    let raw = json!({"title":"Errors","questions":[{"id":"e","prompt":"How should errors look?","type":"preview",
        "options":[option("a","Problem JSON"), option("b","Field list"), option("c","Plain text")]}]});
    let (areas, frame) = laid_out(&raw, width, 12, "");
    let q = areas.question.unwrap();
    let pane = q.preview.expect("a pane");
    assert_eq!(pane.x > q.list.x, beside, "{q:?}\n{frame}");
    assert_eq!(areas.body.y > areas.header.height, beside, "the spacers stay only beside: {frame}");
}

/// The key hints fill each footer line before starting the next: a hint goes on a line if it
/// fits there exactly, at every width from the smallest screen up.
#[test]
fn each_hint_line_takes_every_hint_that_fits() {
    let state = common::opened(&common::form(), FormSource::Tool, 80, 24, vec![]);
    let view = state.view();
    let cells = ask_tui::text::width;
    for width in 24..=160 {
        let lines: Vec<String> =
            ask_tui::draw::footer::lines(&view, width).iter().map(ToString::to_string).collect();
        assert!(!lines.is_empty(), "{width}");
        for pair in lines.windows(2) {
            let next_hint = pair[1].split(" · ").next().unwrap();
            assert!(cells(&pair[0]) <= width, "{width}: {lines:#?}");
            assert!(
                cells(&pair[0]) + 3 + cells(next_hint) > width,
                "{next_hint:?} fits at {width}: {lines:#?}"
            );
        }
    }
}
