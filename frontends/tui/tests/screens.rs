//! Snapshots of every screen at 120, 80 and 40 columns, drawn by the real components.
//! Review changes with `cargo insta review` (or `INSTA_UPDATE=always cargo test -p ask-tui`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::sync::Arc;

mod common;

use ask_schema::FormSource;
use ask_tui::MemoryTerminal;
use common::{draw, form};
use rstest::rstest;
use serde_json::{Value, json};

#[rstest]
#[case::single("single", "")]
#[case::multi_with_selection("multi_with_selection", "1\n1\n3")]
#[case::preview("preview", "tab\ntab")]
#[case::custom_answer_editor("custom_answer_editor", "4\ntype \"Zig, because comptime\"")]
#[case::notes(
    "notes",
    "shift+n\ntype \"Team knows Go best\"\nenter\ndown\nn\ntype \"only if we hire\"\nenter\nspace"
)]
#[case::review_submit_highlighted("review_submit_highlighted", common::REVIEWED)]
#[case::review_elaborate_highlighted(
    "review_elaborate_highlighted",
    "1\nshift+n\ntype \"depends\"\nenter\ntab\ndown\nn\ntype \"on unselected\"\nenter\nup\n1\ndown"
)]
#[case::double_press_hint("double_press_hint", "1\n1\ntab\n1\n2")]
#[case::dirty_warning("dirty_warning", "space\nesc")]
#[case::settings_overlay("settings_overlay", "?\ndown")]
fn screens(#[case] name: &str, #[case] script: &str, #[values(120, 80, 40)] width: u16) {
    let frame = draw(&form(), FormSource::Tool, script, width, 24);
    insta::assert_snapshot!(format!("{name}_{width}"), frame);
}

#[rstest]
fn answer_free_form_question_shows_type_your_answer_without_number_or_pointer(
    #[values(120, 80, 40)] width: u16,
) {
    let raw = json!({"questions":[{"id":"name","label":"Package","prompt":"What package name do you want?",
        "options":[{"value":"freeform","label":"Type answer","freeform":true}]}]});
    let frame = draw(&raw, FormSource::AnswerExtraction, "type \"ask-user\"", width, 12);
    assert!(frame.contains("Type your answer:") && frame.contains("ask-user"));
    assert!(!frame.contains("❯") && !frame.contains("1."), "{frame}");
    insta::assert_snapshot!(format!("answer_free_form_{width}"), frame);
}

#[rstest]
fn too_small_terminal_snapshot(#[values(120, 80, 40)] width: u16) {
    let frame = draw(&form(), FormSource::Tool, "", width, 5);
    assert!(frame.starts_with("Enlarge the terminal"), "{frame}");
    insta::assert_snapshot!(format!("too_small_{width}x5"), frame);
}

#[rstest]
#[case::tiny(20, 5, "Enlargetheterminaltoatleast24×7;itis20×5.EscorCtrl+Cstillleave.")]
#[case::tinier(12, 5, "Toosmall:12×5,needs24×7.Escleaves.")]
#[case::tiniest(8, 2, "Needs24×7")]
#[case::one_by_one(1, 1, "N")]
#[case::short(80, 6, "Enlargetheterminaltoatleast24×7;itis80×6.EscorCtrl+Cstillleave.")]
fn too_small_terminal_shows_a_message(#[case] width: u16, #[case] height: u16, #[case] whole: &str) {
    let frame = draw(&form(), FormSource::Tool, "", width, height);
    // Issue 12.15: wrapped to the width; the size it needs and the way out are said whenever
    // there is room for them, in fewer words where the whole sentence would not fit.
    let said: String = frame.split_whitespace().collect();
    assert_eq!(said, whole, "{frame}");
}

#[test]
fn cjk_and_emoji_keep_alignment() {
    let raw = json!({"title":"日本語のタイトル","questions":[{"id":"a","label":"言語","prompt":"どの言語を使いますか？ 😀",
        "options":[{"value":"r","label":"ラスト 🦀","description":"速い"},{"value":"g","label":"ゴー"}]}]});
    insta::assert_snapshot!(draw(&raw, FormSource::Tool, "", 40, 12));
}

#[test]
fn escape_sequences_in_payload_are_drawn_inert() {
    let raw = json!({"questions":[{"id":"a","prompt":"Red \u{1b}[31mtext\u{7} here","options":[{"value":"x","label":"\u{1b}]0;title\u{7}X"}]}]});
    let frame = draw(&raw, FormSource::Tool, "", 60, 10);
    assert!(!frame.contains('\u{1b}') && !frame.contains('\u{7}'));
    assert!(frame.contains("Red ␛[31mtext␇ here"), "{frame}");
}

#[test]
fn long_option_list_scrolls_to_keep_the_cursor_visible() {
    let options = common::options(40, "Option number");
    let raw = json!({"questions":[{"id":"a","prompt":"Pick one of many","options":options}]});
    let frame = draw(&raw, FormSource::Tool, &"down\n".repeat(30), 60, 16);
    assert!(frame.contains("❯ 31. Option number 31"), "{frame}");
    assert!(!frame.contains(" 1. Option number 1\n"), "scrolled past the top");
    assert!(
        frame.contains("Pick one of many"),
        "issue 12.2: the prompt stays pinned above the list: {frame}"
    );
    insta::assert_snapshot!(frame);
}

/// Issue 12.2: `examples/project-setup.json` at 60×12 after two Downs still shows the question.
#[test]
fn the_prompt_stays_pinned_in_a_small_terminal() {
    let raw: Value = serde_json::from_str(include_str!("../../../examples/project-setup.json")).unwrap();
    let frame = draw(&raw, FormSource::Tool, "down\ndown", 60, 12);
    assert!(frame.contains("Which language should the new service be"), "{frame}");
    assert!(frame.contains("❯ 3."), "{frame}");
}

#[test]
fn long_prompts_and_labels_wrap() {
    let long =
        "This prompt is deliberately long so that it has to wrap across several lines of a narrow terminal";
    let raw = json!({"questions":[{"id":"a","prompt":long,"options":[{"value":"x","label":"A label that is also rather long for forty columns"}]}]});
    let frame = draw(&raw, FormSource::Tool, "", 40, 16);
    assert!(frame.lines().all(|l| ask_tui::text::width(l) <= 40));
    assert!(frame.contains("narrow terminal"), "{frame}");
    assert!(frame.contains("forty columns"), "{frame}");
}

#[test]
fn file_reference_menu_under_the_answer_editor() {
    let mut state = common::opened(&form(), FormSource::Tool, 80, 24, vec![]);
    common::press(&mut state, "4\ntype \"see @srm\"\ndown");
    let items = vec!["src/main.rs".to_owned(), "src/rmeta.rs".to_owned(), "scripts/run_me.sh".to_owned()];
    state.apply(&ask_engine::Event::CompletionsOffered { query: "srm".into(), items });
    common::press(&mut state, "down");
    let frame = MemoryTerminal::new(80, 24, None).draw(&Arc::new(state.view()));
    assert!(frame.contains("▸ @src/rmeta.rs"), "{frame}");
    insta::assert_snapshot!(frame);
}

/// A path longer than the pane is offered with its start cut, `…` inside the pane: the end of
/// a path, the file's name, is what tells two apart. Before, the name was cut off at the
/// screen's edge with no mark at all.
#[test]
fn a_long_file_reference_keeps_its_name_and_marks_the_cut() {
    let mut state = common::opened(&form(), FormSource::Tool, 40, 24, vec![]);
    common::press(&mut state, "4\ntype \"see @main\"\ndown");
    let long = "src/a/very/long/path/that/goes/on/and/on/and/on/until/the/end/main.rs";
    let items = vec![long.to_owned(), "src/main.rs".to_owned()];
    state.apply(&ask_engine::Event::CompletionsOffered { query: "main".into(), items });
    let frame = MemoryTerminal::new(40, 24, None).draw(&Arc::new(state.view()));
    let row = frame.lines().find(|l| l.contains("▸ @")).expect("the menu is open");
    assert!(row.trim_end().ends_with("/the/end/main.rs") && row.contains("▸ @…"), "{frame}");
    assert_eq!(ask_tui::text::width(row.trim_end()), 40, "the row fills the pane, no more:\n{frame}");
}

/// Issue 12.13: a config problem is said on the first frame, in one line, not only inside `?`.
#[test]
fn a_config_notice_shows_on_the_first_frame() {
    let notice = "config.json could not be read (line 3, column 5); it was moved to config.20261203-052900.bak.json and defaults are in use";
    let mut state = common::opened(&form(), FormSource::Tool, 80, 24, vec![notice.to_owned()]);
    let mut term = MemoryTerminal::new(80, 24, None);
    let frame = term.draw(&std::sync::Arc::new(state.view()));
    let line = frame.lines().find(|l| l.starts_with("Config: ")).unwrap_or_else(|| panic!("{frame}"));
    assert!(line.contains("config.json could not be read"), "one line: {line}");
    assert!(line.ends_with("… (? shows it all)"), "a cut notice says where the rest is: {line}");
    common::press(&mut state, "?");
    let overlay = term.draw(&std::sync::Arc::new(state.view()));
    assert!(
        !overlay.lines().any(|l| l.starts_with("Config: ")),
        "the overlay shows the whole notice instead"
    );
}

/// Issues 12.8 and 12.9: numbers right-aligned in a column sized for the list, descriptions
/// under their label; the multi-select custom row has its box like the other rows.
#[test]
fn row_numbers_align_and_the_multi_custom_row_has_a_box() {
    let options: Vec<Value> = (1..=10)
        .map(|i| json!({"value": format!("v{i}"), "label": format!("Opt {i}"), "description": "why"}))
        .collect();
    let raw = json!({"questions":[{"id":"a","prompt":"Pick","type":"multi","options":options}]});
    let frame = draw(&raw, FormSource::Tool, "end", 60, 40);
    assert!(frame.contains("   9. [ ] Opt 9\n          why"), "{frame}");
    assert!(frame.contains("  10. [ ] Opt 10\n          why"), "{frame}");
    assert!(frame.contains("❯ 11. [ ] Type your own"), "{frame}");
}

/// A filter shows fewer rows but the same numbers, so the column stays as wide as the largest
/// number, the custom row's: nine options keep a two-digit column for "10. Type your own" when
/// the filter leaves only "1." beside it.
#[test]
fn a_filter_keeps_the_number_column() {
    let options = common::options(9, "Opt");
    let raw = json!({"questions":[{"id":"a","prompt":"Pick","type":"multi","options":options}]});
    let frame = draw(&raw, FormSource::Tool, "/\ntype \"opt 1\"\nenter", 60, 20);
    assert!(frame.contains("❯  1. [ ] Opt 1\n  10. [ ] Type your own"), "{frame}");
}

/// Issue 12.21: a `required` question is marked on its tab while unanswered, and the review
/// says "required, unanswered" — advisory only: Submit still works.
#[test]
fn a_required_question_is_marked_until_answered() {
    let raw = json!({"questions":[
        {"id":"a","label":"Scope","prompt":"Which scope?","required":true,"options":[{"value":"x","label":"X"}]},
        {"id":"b","label":"Name","prompt":"Which name?","options":[{"value":"y","label":"Y"}]}]});
    let first = draw(&raw, FormSource::Tool, "", 80, 20);
    assert!(first.contains(" Scope* │"), "{first}");
    let review = draw(&raw, FormSource::Tool, "tab\ntab", 80, 20);
    assert!(
        review.contains("Scope: required, unanswered") && review.contains("Name: (unanswered)"),
        "{review}"
    );
    let answered = draw(&raw, FormSource::Tool, "1\ntab", 80, 20);
    assert!(answered.contains("✓ Scope │") && !answered.contains("Scope*"), "{answered}");
}

/// Issue 12.12: the answer editor wraps on words like the saved text, with no space starting a
/// continuation line.
#[test]
fn the_answer_editor_wraps_on_words() {
    let text = "Zig because comptime generics are lovely and the build system is in the language";
    let frame = draw(&form(), FormSource::Tool, &format!("4\ntype \"{text}\""), 40, 24);
    let rows: Vec<&str> = frame
        .lines()
        .skip_while(|l| !l.contains("4. Type your own"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    assert!(rows.len() >= 3, "the answer takes several lines: {frame}");
    let joined = rows.iter().map(|r| r.trim()).collect::<Vec<_>>().join(" ");
    assert_eq!(joined, text, "every word whole, in order: {frame}");
    assert!(
        rows.iter().all(|r| r.starts_with("     ") && !r[5..].starts_with(' ')),
        "no line starts with a space: {frame}"
    );
}

/// Issue 12.7: `/` filters a long list; the query line stays under the prompt with its count,
/// and the rows keep their declared numbers.
#[test]
fn filtered_long_list() {
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
    let raw = json!({"questions":[{"id":"f","label":"Fruit","prompt":"Which fruit?","options":options}]});
    let frame = draw(&raw, FormSource::Tool, "/\ntype \"rr\"", 60, 16);
    assert!(frame.contains("/ rr  3 of 12 options"), "{frame}");
    assert!(frame.contains("❯  4. Blackberry") && !frame.contains("Apple"), "{frame}");
    insta::assert_snapshot!(frame);
}

/// Issue 13.1's countdown at the top right takes its room from the title, which ends with `…`
/// where it is cut instead of running under the countdown.
#[rstest]
fn a_long_title_gives_way_to_the_countdown(#[values(40, 60, 80)] width: u16) {
    let mut raw = form();
    raw["title"] = json!("A very long title for the storage decision that goes on and on past the edge");
    let mut state = common::opened(&raw, FormSource::Tool, width, 16, vec![]);
    common::press(&mut state, "");
    let mut view = state.view();
    view.countdown = Some(20);
    let frame = MemoryTerminal::new(width, 16, None).draw(&Arc::new(view));
    let top = frame.lines().next().unwrap();
    assert!(top.ends_with("… ⏱ 20 s left"), "{top}");
    assert!(top.starts_with("A very long title"), "{top}");
}
