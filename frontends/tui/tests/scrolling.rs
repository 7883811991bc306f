//! Scrolling, as a person pages: the review summary (PageUp/PageDown/Home/End) and the preview
//! pane, at every size from a squeezed two-row summary to a preview far longer than the screen,
//! with the frames driven as the live terminal draws them where a frame records where it drew.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_schema::FormSource;
use common::{draw, form, numbered, reviewed};
use rstest::rstest;
use serde_json::{Value, json};

#[test]
fn long_preview_scrolls_with_page_down() {
    let text: String = (1..=100).map(|i| format!("line {i}\n")).collect();
    let raw = json!({"questions":[{"id":"a","type":"preview","prompt":"Which?","options":[{"value":"x","label":"X","preview":text}]}]});
    let top = draw(&raw, FormSource::Tool, "", 100, 20);
    assert!(top.contains("line 1 ") || top.contains("line 1│") || top.contains("│line 1"), "{top}");
    let paged = draw(&raw, FormSource::Tool, "pageDown\npageDown", 100, 20);
    assert!(paged.contains("line 21") && !paged.contains("│line 1 "), "{paged}");
}

/// Issue 12.1: twelve answered questions at 100×12 — more than the screen holds even without
/// its hints — the review summary scrolls with PageDown/End and says how much is clipped,
/// instead of cutting the last questions off silently.
#[test]
fn the_review_summary_scrolls_and_says_what_is_clipped() {
    let raw = numbered(12);
    let answered = "1\n".repeat(12);
    let top = draw(&raw, FormSource::Tool, &answered, 100, 12);
    assert!(top.contains("Question 1: Answer 1") && top.contains("more · PgDn"), "{top}");
    assert!(!top.contains("Question 12: Answer 12"), "{top}");
    let end = draw(&raw, FormSource::Tool, &format!("{answered}end\n"), 100, 12);
    assert!(end.contains("Question 12: Answer 12") && end.contains("more · PgUp"), "{end}");
    assert!(!end.contains("more · PgDn"), "{end}");
    let paged = draw(&raw, FormSource::Tool, &format!("{answered}pageDown\npageUp\n"), 100, 12);
    assert_eq!(paged, top, "PageUp goes back to the top");
    insta::assert_snapshot!("review_summary_scrolled_to_the_end", end);
}

/// The summary's end is where End put it, whatever the terminal's width: the first PageUp after
/// End shows the page above it, and the first PageDown after that shows the end again — no
/// dead presses while a scroll the frontend clamped away is used up. Long answers make the
/// summary far shorter at 100 columns than at the narrowest width it could be drawn at.
#[rstest]
#[case::wide(100, 12)]
#[case::narrow(50, 20)]
fn paging_back_from_the_summary_end_moves_at_once(#[case] width: u16, #[case] height: u16) {
    let raw = long_answers();
    let answered = "1\n".repeat(8);
    let end = draw(&raw, FormSource::Tool, &format!("{answered}end"), width, height);
    assert!(end.contains("more · PgUp") && !end.contains("more · PgDn"), "{end}");
    let back = draw(&raw, FormSource::Tool, &format!("{answered}end\npageUp"), width, height);
    assert_ne!(back, end, "the first PageUp after End moves");
    assert!(back.contains("more · PgDn"), "{back}");
    let again = draw(&raw, FormSource::Tool, &format!("{answered}end\npageUp\npageDown"), width, height);
    assert_eq!(again, end, "PageDown goes back to the end");
    let home = draw(&raw, FormSource::Tool, &format!("{answered}end\nhome"), width, height);
    let top = draw(&raw, FormSource::Tool, &answered, width, height);
    assert_eq!(home, top, "Home goes back to the top");
}

/// Eight questions whose answers take two or three lines each at the widths the tests draw at,
/// but nine lines each at the narrowest width the engine allows for: the summary is far
/// shorter on screen than the engine's own estimate of it.
fn long_answers() -> Value {
    serde_json::from_str(include_str!("../../../tests/fixtures/payloads/long-answers.json")).unwrap()
}

/// PageDown pressed more times than the summary has pages (or PageUp, after End): the frame
/// that drew it at its edge records so (`SummaryClamped`), and the first press back after any
/// number of extra presses moves the summary — no dead presses while an overshoot nobody saw
/// is used up.
#[rstest]
fn paging_back_after_paging_past_an_edge_moves_at_once(
    #[values((100, 12), (50, 20))] size: (u16, u16),
    #[values(1, 3, 6)] extra: usize,
    #[values(false, true)] up: bool,
) {
    let (width, height) = size;
    let answered = "1\n".repeat(8);
    // Where the presses start, the frame at the edge they go past, the key pressed past it,
    // the key back, and what the page after one press back offers.
    let (start, at_edge, past, back, offers) = if up {
        (format!("{answered}end\n"), answered.clone(), "pageUp\n", "pageDown", "more · PgUp")
    } else {
        (answered.clone(), format!("{answered}end"), "pageDown\n", "pageUp", "more · PgDn")
    };
    let (frames, _) = common::drive_live(&long_answers(), &at_edge, width, height);
    let edge = frames.last().unwrap().clone();
    // How many presses reach the edge, then `extra` more.
    let (frames, _) =
        common::drive_live(&long_answers(), &format!("{start}{}", past.repeat(20)), width, height);
    let first = start.lines().count();
    let reach = frames[first..].iter().position(|f| *f == edge).expect("the presses reach the edge") + 1;
    let script = format!("{start}{}{back}", past.repeat(reach + extra));
    let (frames, recorded) = common::drive_live(&long_answers(), &script, width, height);
    assert!(recorded >= 1, "reaching the edge by paging past the drawn summary is recorded");
    let (before, after) = (&frames[frames.len() - 2], &frames[frames.len() - 1]);
    assert_eq!(before, &edge, "the extra presses stay at the edge");
    assert_ne!(after, before, "the first press back moves the summary\n{after}");
    assert!(after.contains(offers), "{after}");
}

/// A preview of 45 lines, every seventh of them long enough to wrap, with or without a
/// description above it.
fn wrapping_preview(described: bool) -> Value {
    let mut raw: Value =
        serde_json::from_str(include_str!("../../../tests/fixtures/payloads/wrapping-preview.json")).unwrap();
    if described {
        raw["questions"][0]["options"][0]["description"] = json!("What this layout is for");
    }
    raw
}

/// The rows inside the preview pane's border and the column of room on either side of it,
/// trailing spaces trimmed.
fn preview_pane(frame: &str) -> Vec<String> {
    frame
        .lines()
        .skip_while(|l| !l.starts_with('┌'))
        .skip(1)
        .take_while(|l| !l.starts_with('└'))
        .map(|l| {
            let inside = l.strip_prefix("│ ").expect("a column of room after the border");
            inside.trim_end().trim_end_matches('│').trim_end().to_owned()
        })
        .collect()
}

/// How many columns the preview's text has in a stacked pane: the frame's width less the two
/// borders and the column of room inside each.
fn text_width(frame: &str) -> usize {
    frame.lines().find(|l| l.starts_with('┌')).map_or(0, |l| l.chars().count() - 4)
}

/// The pane as laying out the whole preview would show it: every row of every line, then the
/// rows from the first row of line `scroll` (the description's first row at 0), moved up so
/// the last page is full.
fn preview_oracle(raw: &Value, width: usize, height: usize, scroll: usize) -> Vec<String> {
    let option = &raw["questions"][0]["options"][0];
    let mut rows: Vec<String> = Vec::new();
    if let Some(d) = option["description"].as_str() {
        rows.extend(ask_tui::text::wrap(d, width).iter().cloned());
        rows.push(String::new());
    }
    let mut first_row = vec![];
    for line in option["preview"].as_str().unwrap().split('\n') {
        first_row.push(rows.len());
        // A line's own first row, then the rows it continues on: each under its indentation,
        // after a `↪`.
        let indent = line.len() - line.trim_start().len();
        let rest = ask_tui::text::wrap_hanging(line, width, width.saturating_sub(indent + 2));
        rows.push(rest[0].clone());
        rows.extend(rest[1..].iter().map(|r| format!("{}↪ {r}", " ".repeat(indent))));
    }
    let from = if scroll == 0 { 0 } else { first_row.get(scroll).copied().unwrap_or(rows.len()) };
    let top = from.min(rows.len().saturating_sub(height));
    rows[top..rows.len().min(top + height)].iter().map(|r| r.trim_end().to_owned()).collect()
}

/// A preview whose lines wrap pages through to its very end, and at every position PageDown
/// reaches the pane shows what laying out the whole preview would: the rows from the scrolled-to
/// line, the last page full. (The scroll position counts the preview's lines, so lines that wrap
/// can no longer leave its end out of reach.)
#[rstest]
fn a_preview_whose_lines_wrap_pages_to_its_end(
    #[values(false, true)] described: bool,
    #[values((80, 24), (100, 30), (60, 40))] size: (u16, u16),
) {
    let (width, height) = size;
    let raw = wrapping_preview(described);
    for pages in 0..=6 {
        let frame = draw(&raw, FormSource::Tool, &"pageDown\n".repeat(pages), width, height);
        let pane = preview_pane(&frame);
        let inner = text_width(&frame);
        assert_eq!(
            pane,
            preview_oracle(&raw, inner, pane.len(), (10 * pages).min(45)),
            "{pages} pages:\n{frame}"
        );
        if pages >= 5 {
            assert!(frame.contains("end45") && !frame.contains("PgDn"), "the end is reached:\n{frame}");
        }
    }
}

/// PageDown pressed past a preview's last page, then PageUp: the frame that filled the last
/// page from above records the line it was drawn from (`PreviewClamped`), so the first PageUp
/// moves the pane — no dead presses while an overshoot nobody saw is used up.
#[rstest]
fn paging_back_after_paging_past_the_preview_end_moves_at_once(
    #[values(false, true)] described: bool,
    #[values((80, 24), (100, 30), (60, 40))] size: (u16, u16),
) {
    let (width, height) = size;
    let raw = wrapping_preview(described);
    let (frames, recorded) =
        common::drive_live(&raw, &format!("{}pageUp", "pageDown\n".repeat(8)), width, height);
    assert!(recorded >= 1, "paging past the last page is recorded");
    let (end, up) = (&frames[frames.len() - 2], &frames[frames.len() - 1]);
    assert!(end.contains("end45") && !end.contains("PgDn"), "{end}");
    assert_ne!(up, end, "the first PageUp moves the pane\n{up}");
    assert!(up.contains("PgUp/PgDn"), "{up}");
    // A whole page (10 lines) up from the first line the last page is drawn from: not one line
    // short of it, as when a page that starts on a line's first row is taken for a cut line.
    let (end_pane, up_pane) = (preview_pane(end), preview_pane(up));
    let inner = text_width(end);
    let oracle = |line| preview_oracle(&raw, inner, end_pane.len(), line);
    let first = (0..=45).find(|&line| oracle(line) == end_pane).expect("the last page is some line's");
    assert_eq!(up_pane, oracle(first.saturating_sub(10)), "{end}\n{up}");
}

/// A summary or preview that fits its pane has nothing to scroll: page keys there record
/// nothing, so a terminal made smaller later still finds the position the keys left.
#[rstest]
#[case::summary(long_answers(), format!("{}{}", "1\n".repeat(8), "pageDown\npageDown\npageUp"))]
#[case::preview(wrapping_preview(true), "pageDown\npageDown\npageDown\npageUp".to_owned())]
fn page_keys_on_a_pane_that_fits_record_nothing(#[case] raw: Value, #[case] script: String) {
    let (frames, recorded) = common::drive_live(&raw, &script, 200, 120);
    assert_eq!(recorded, 0, "{}", frames.last().unwrap());
    assert!(!frames.last().unwrap().contains("PgUp"), "{}", frames.last().unwrap());
}

/// Issue 12.1 in the smallest room: on a short, narrow terminal with the double-press hint,
/// the footer's hints, the spacers and then the review's blank rows give way until the summary
/// (stacked under the actions) shows whole, or has a row of its own and a marker saying how much
/// more there is — the hint never asks to submit answers that are nowhere on screen. (Before, at
/// 50×15 the summary got no row at all.)
#[rstest]
fn a_squeezed_summary_keeps_an_answer_and_says_what_is_clipped(
    #[values(9, 10, 11, 12, 13, 14, 15, 16, 17)] height: u16,
) {
    let frame = draw(&form(), FormSource::Tool, &reviewed(true), 50, height);
    assert!(frame.contains("Press 1 again to Submit"), "{frame}");
    let rows: Vec<&str> = frame.lines().skip_while(|l| !l.starts_with("Press 1 again")).collect();
    assert!(rows.iter().any(|l| l.starts_with("Language: Rust")), "{frame}");
    let marker = rows.iter().any(|l| l.starts_with("↓ ") && l.ends_with("more · PgDn"));
    let whole = rows.iter().any(|l| l.ends_with("✎ Environment only note: why not toml?"));
    assert!(marker != whole, "the summary ends on screen or a marker says it goes on:\n{frame}");
}

/// A review tab shorter than its blank rows need gives the blanks up first: every action, the
/// double-press hint and the summary's first row (or its marker) still show, stacked on a narrow
/// terminal and side by side on a wide one. Before, at 40×10 the summary had no row, and at
/// 80×8 the hint took the place of `3. Cancel`.
#[rstest]
#[case::stacked_10(40, 10)]
#[case::stacked_9(40, 9)]
#[case::stacked_8(40, 8)]
#[case::side_by_side_8(80, 8)]
#[case::side_by_side_7(80, 7)]
fn a_short_review_gives_up_its_blank_rows_first(#[case] width: u16, #[case] height: u16) {
    let frame = draw(&form(), FormSource::Tool, "1\n1\n3\ntab\n1\n1", width, height);
    for row in ["1. Submit", "2. Elaborate", "3. Cancel", "Press 1 again to Submit"] {
        assert!(frame.contains(row), "{row} at {width}×{height}:\n{frame}");
    }
    assert!(frame.contains("Language: Rust") || frame.contains("more · PgDn"), "{frame}");
}

/// Issue 15.3: only the summary lines the pane can show are built, the rest counted — paging
/// through a long answer still shows every word exactly where it belongs, and the `N more`
/// rows add up to the whole answer at every scroll position. (At 80×24 a page of the summary
/// is taller than PageDown's ten lines, so paging shows every line.)
#[test]
fn a_long_answer_in_the_summary_pages_through_every_word() {
    let words: Vec<String> = (1..=600).map(|i| format!("w{i:03}")).collect();
    let raw = json!({"questions": [{"id": "q", "label": "Long", "prompt": "Pick?",
        "options": [{"value": "a", "label": words.join(" ")}, {"value": "b", "label": "Short"}]}]});
    let more = |frame: &str, arrow: &str| -> usize {
        frame
            .lines()
            .find_map(|l| l.split(arrow).nth(1)?.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    let is_word = |w: &&str| w.len() == 4 && w.starts_with('w') && w[1..].bytes().all(|b| b.is_ascii_digit());
    let (mut seen, mut script, mut total) = (Vec::new(), "1\n".to_owned(), None);
    for _ in 0..100 {
        let frame = draw(&raw, FormSource::Tool, &script, 80, 24);
        let body: Vec<&str> = frame.lines().skip(2).take(20).collect();
        let shown = body.iter().filter(|l| l.split_whitespace().any(|w| is_word(&w))).count();
        let lines = more(&frame, "↑") + shown + more(&frame, "↓");
        assert_eq!(*total.get_or_insert(lines), lines, "the same total at every scroll position:\n{frame}");
        // Pages overlap; a word past the last one seen is new, and none may be skipped.
        for w in body.iter().flat_map(|l| l.split_whitespace()).filter(is_word) {
            if seen.last().is_none_or(|last: &String| w > last.as_str()) {
                seen.push(w.to_owned());
            }
        }
        if more(&frame, "↓") == 0 {
            break;
        }
        script.push_str("pageDown\n");
    }
    assert_eq!(seen, words, "every word, in order");
}

/// Issue 12.6: a long preview says where it is and which keys move it, in its border; a long
/// list pages with PageDown/PageUp and says how many options are out of sight.
#[test]
fn long_previews_and_lists_say_where_they_are_and_how_to_move() {
    let text: String = (1..=500).map(|i| format!("line {i}\n")).collect();
    let raw = json!({"questions":[{"id":"a","type":"preview","prompt":"Which?","options":[{"value":"x","label":"X","preview":text}]}]});
    let top = draw(&raw, FormSource::Tool, "", 100, 20);
    assert!(top.contains("more below · PgDn"), "{top}");
    let paged = draw(&raw, FormSource::Tool, "pageDown", 100, 20);
    assert!(paged.contains("from line 11 · PgUp/PgDn"), "{paged}");
    insta::assert_snapshot!("long_preview_paged", paged);

    let options = common::options(40, "Option number");
    let list = json!({"questions":[{"id":"a","prompt":"Pick one of many","options":options}]});
    let first = draw(&list, FormSource::Tool, "", 60, 16);
    assert!(first.contains("↓ 34 more · PgDn") && !first.contains("↑ "), "{first}");
    let paged = draw(&list, FormSource::Tool, "pageDown\npageDown", 60, 16);
    assert!(paged.contains("❯ 21. Option number 21") && paged.contains("↑ "), "{paged}");
    let back = draw(&list, FormSource::Tool, "pageDown\npageDown\npageUp", 60, 16);
    assert!(back.contains("❯ 11. Option number 11"), "{back}");
}

/// Issue 15.3: far into a long preview, lines above the pane are skipped, not laid out — and
/// the pane shows the right lines, at the end too (a wrapped line and a line with a tab among
/// them). The scroll position and the border's `from line N` count the preview's own lines,
/// however many rows the lines above wrap into.
#[test]
fn far_into_a_long_preview_the_pane_shows_the_right_lines() {
    let mut text: String = (1..=3000).map(|i| format!("line {i}\n")).collect();
    text.insert_str(0, &format!("{}\n\ttabbed\n", "w".repeat(150)));
    let raw = json!({"questions":[{"id":"a","type":"preview","prompt":"Which?","options":[{"value":"x","label":"X","description":"d","preview":text}]}]});
    let paged = draw(&raw, FormSource::Tool, &"pageDown\n".repeat(150), 100, 20);
    // 150 PageDowns: line 1501 of the text, which starts with the wide line and the tab line:
    // `line 1499`.
    assert!(paged.contains("from line 1501"), "{paged}");
    assert!(paged.contains("│ line 1499 "), "{paged}");
    assert!(!paged.contains("│ line 1498 "), "{paged}");
    let end = draw(&raw, FormSource::Tool, &"pageDown\n".repeat(400), 100, 20);
    assert!(end.contains("line 3000") && !end.contains("more below"), "{end}");
}

/// Fifteen lines typed into an editor on a 60×16 terminal, where far fewer rows are free.
fn tall_editor_script(open: &str) -> String {
    let lines: String = (1..=14).map(|i| format!("type \"row {i:02}\"\nalt+enter\n")).collect();
    format!("{open}\n{lines}type \"last\"")
}

/// An editor taller than the rows it has scrolls to its cursor: the line being typed on shows
/// (before, the editor was drawn from its top and the cursor fell below the pane, so typing was
/// blind). The question note's editor keeps the prompt's first line above it, and the answer
/// editor its row's label (`Question note:` and the first typed lines scroll away); moving the
/// cursor back to the first line scrolls back up.
#[rstest]
#[case::answer_editor("4", "Type your own", true)]
#[case::question_note("shift+n", "Question note:", false)]
fn a_tall_editor_scrolls_to_the_line_being_typed(
    #[case] open: &str,
    #[case] top_label: &str,
    #[case] label_kept: bool,
) {
    let typed = tall_editor_script(open);
    let end = draw(&form(), FormSource::Tool, &typed, 60, 16);
    assert!(end.contains("last") && end.contains("row 14"), "{end}");
    assert!(!end.contains("row 01") && end.contains(top_label) == label_kept, "{end}");
    assert!(end.contains("Which language should"), "the prompt's first line stays:\n{end}");
    let back = draw(&form(), FormSource::Tool, &format!("{typed}\n{}", "up\n".repeat(14)), 60, 16);
    assert!(back.contains("row 01") && back.contains(top_label) && !back.contains("last"), "{back}");
}

/// A scrolled option list keeps the cursor's row on screen and starts with a whole row: the
/// line under `↑ N more` is an option's numbered label, never the description of an option
/// whose label scrolled away — at every cursor position, going down and coming back up, with
/// descriptions and with one-line rows.
#[rstest]
fn a_scrolled_list_keeps_the_cursor_and_starts_with_a_whole_row(
    #[values(14, 17, 20)] height: u16,
    #[values(true, false)] described: bool,
) {
    let options: Vec<Value> = (1..=30)
        .map(|i| {
            let about = described.then(|| format!("about option {i}"));
            json!({"value": format!("v{i}"), "label": format!("Option {i}"), "description": about})
        })
        .collect();
    let raw = json!({"questions": [{"id": "q", "prompt": "Pick one", "options": options}]});
    let mut script = String::new();
    for step in (0..31).map(|_| "down").chain((0..31).map(|_| "up")) {
        script.push_str(step);
        script.push('\n');
        let frame = draw(&raw, FormSource::Tool, &script, 80, height);
        assert!(frame.contains("❯ "), "the cursor's row shows after {script:?}:\n{frame}");
        let lines: Vec<&str> = frame.lines().collect();
        let Some(marker) = lines.iter().position(|l| l.contains("↑") && l.contains("more")) else {
            continue;
        };
        let next = lines[marker + 1].trim_start_matches(['❯', ' ']);
        assert!(
            next.split('.').next().is_some_and(|n| n.parse::<usize>().is_ok()),
            "after {script:?}:\n{frame}"
        );
    }
}

/// A preview of one line too long for its pane (a minified JSON blob, say) wraps past the pane's
/// last row: the border says there is more below, though the text has no further line.
#[rstest]
#[case::its_only_line("")]
#[case::its_last_line("short first line\n")]
fn a_last_line_wrapping_past_the_pane_says_more_below(#[case] before: &str) {
    let text = format!("{before}{}", "{\"key\": \"value\"} ".repeat(200));
    let raw = json!({"questions":[{"id":"a","type":"preview","prompt":"Which?","options":[{"value":"x","label":"X","preview":text}]}]});
    let top = draw(&raw, FormSource::Tool, "", 100, 20);
    assert!(top.contains("more below · PgDn"), "{top}");
}
