//! Key ids, keymap validation and the script format (SPEC §6, §7).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::{KeyCode, KeyPress, KeymapError, Modifiers, Step, keymaps_from_ids, parse_script};
use rstest::rstest;
use serde_json::json;

#[rstest]
#[case("esc", "esc")]
#[case::alias_escape("escape", "esc")]
#[case::alias_return("return", "enter")]
#[case::alias_control("control+c", "ctrl+c")]
#[case::alias_shift_n_capitalized("Shift+N", "shift+n")]
#[case::legacy_uppercase_is_shift("N", "shift+n")]
#[case::ctrl_with_capital_letter("ctrl+C", "ctrl+c")]
#[case("space", "space")]
#[case("pageUp", "pageUp")]
#[case::alias_pgdn("pgdn", "pageDown")]
#[case::alias_backtab("backtab", "shift+tab")]
#[case("alt+enter", "alt+enter")]
#[case::modifier_order_is_canonical("super+alt+shift+ctrl+x", "ctrl+shift+alt+super+x")]
#[case("f12", "f12")]
#[case("insert", "insert")]
#[case::alias_ins("ins", "insert")]
#[case::plus_key("+", "+")]
#[case::ctrl_plus("ctrl++", "ctrl++")]
#[case("?", "?")]
#[case("1", "1")]
fn spec7_key_ids_normalize(#[case] id: &str, #[case] canonical: &str) {
    let key = KeyPress::parse(id).expect("parses");
    assert_eq!(key.to_string(), canonical);
    assert_eq!(KeyPress::parse(canonical), Ok(key), "canonical id round-trips");
}

#[rstest]
#[case("")]
#[case("f13")]
#[case("ctrl+")]
#[case("hyper+x")]
#[case("enterr")]
#[case::a_bare_space(" ")]
#[case::a_control_character("\u{7}")]
fn spec7_unsupported_key_ids_are_errors(#[case] id: &str) {
    assert!(KeyPress::parse(id).is_err());
}

/// Every key a terminal can type reads back from the log as itself, also characters no key id a
/// person writes is: such a key in a flow made its whole log unreadable, `log list` with it.
#[rstest]
#[case::ideographic_space('\u{3000}', Modifiers::NONE)]
#[case::no_break_space('\u{a0}', Modifiers::NONE)]
#[case::em_space('\u{2003}', Modifiers::NONE)]
#[case::nul('\0', Modifiers::NONE)]
#[case::a_c0_control('\u{1}', Modifiers::NONE)]
#[case::del('\u{7f}', Modifiers::NONE)]
#[case::a_c1_control('\u{85}', Modifiers::NONE)]
#[case::with_a_modifier('\u{3000}', Modifiers::ALT)]
#[case::a_letter('é', Modifiers::NONE)]
#[case::plus_with_ctrl('+', Modifiers::CTRL)]
fn every_typed_key_reads_back_from_the_log(#[case] c: char, #[case] mods: Modifiers) {
    let key = KeyPress::new(KeyCode::Char(c), mods);
    assert_eq!(KeyPress::from_logged(&key.to_string()), Ok(key));
    let json = serde_json::to_string(&key).unwrap();
    assert_eq!(serde_json::from_str::<KeyPress>(&json).unwrap(), key, "{json}");
}

proptest::proptest! {
    /// The same for any character and any modifiers (a key holds a capital as shift and the
    /// small letter, so that is what its id says).
    #[test]
    fn any_character_key_reads_back_from_the_log(c in proptest::char::any(), bits in 0u8..16) {
        let key = KeyPress::new(KeyCode::Char(c), common::modifiers(bits));
        proptest::prop_assert_eq!(KeyPress::from_logged(&key.to_string()), Ok(key));
    }
}

#[test]
fn legacy_and_kitty_shift_n_are_the_same_key() {
    let legacy = KeyPress::new(KeyCode::Char('N'), Modifiers::NONE);
    let kitty = KeyPress::new(KeyCode::Char('n'), Modifiers::SHIFT);
    assert_eq!(legacy, kitty);
    assert_eq!(legacy.typed_char(), Some('N'));
    // Legacy terminals also report Shift alongside the capital letter.
    let both = KeyPress::new(KeyCode::Char('N'), Modifiers::SHIFT);
    assert_eq!(both, kitty);
    assert_eq!(both.typed_char(), Some('N'));
}

#[test]
fn labels_read_like_footer_hints() {
    let labels: Vec<String> = ["enter", "ctrl+k", "shift+n", "n", "space", "esc", "pageUp"]
        .iter()
        .map(|id| KeyPress::parse(id).unwrap().label())
        .collect();
    assert_eq!(labels, ["Enter", "Ctrl+K", "Shift+N", "n", "Space", "Esc", "PageUp"]);
}

fn full(over: serde_json::Value) -> serde_json::Value {
    let mut base = json!({"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"enter","optionNote":"n","questionNote":"shift+n"});
    for (k, v) in over.as_object().unwrap() {
        if v.is_null() {
            base.as_object_mut().unwrap().remove(k);
        } else {
            base[k] = v.clone();
        }
    }
    base
}

#[rstest]
#[case::missing_action(json!({"dismiss": null}), KeymapError::Missing("dismiss"))]
#[case::not_a_string(json!({"toggle": 3}), KeymapError::NotAString("toggle".into()))]
#[case::unsupported_syntax(json!({"confirm": "hyper+k"}), KeymapError::Unsupported{action:"confirm".into(), id:"hyper+k".into()})]
#[case::reserved_question_mark(json!({"optionNote": "?"}), KeymapError::Reserved{action:"optionNote".into(), id:"?".into()})]
#[case::reserved_tab(json!({"confirm": "tab"}), KeymapError::Reserved{action:"confirm".into(), id:"tab".into()})]
#[case::reserved_shift_tab(json!({"confirm": "shift+tab"}), KeymapError::Reserved{action:"confirm".into(), id:"shift+tab".into()})]
#[case::reserved_arrow(json!({"confirm": "down"}), KeymapError::Reserved{action:"confirm".into(), id:"down".into()})]
#[case::reserved_digit(json!({"toggle": "5"}), KeymapError::Reserved{action:"toggle".into(), id:"5".into()})]
#[case::reserved_end_could_never_fire(json!({"confirm": "end"}), KeymapError::Reserved{action:"confirm".into(), id:"end".into()})]
#[case::reserved_home(json!({"cancel": "home"}), KeymapError::Reserved{action:"cancel".into(), id:"home".into()})]
#[case::reserved_page_up(json!({"optionNote": "pageUp"}), KeymapError::Reserved{action:"optionNote".into(), id:"pageUp".into()})]
#[case::reserved_page_down(json!({"toggle": "pageDown"}), KeymapError::Reserved{action:"toggle".into(), id:"pageDown".into()})]
#[case::duplicate_through_alias(json!({"cancel": "escape", "dismiss": "Esc"}), KeymapError::Duplicate{first:"cancel", second:"dismiss", id:"esc".into()})]
#[case::unknown_action(json!({"submit": "x"}), KeymapError::Unknown("submit".into()))]
fn spec6_keymap_errors(#[case] over: serde_json::Value, #[case] expected: KeymapError) {
    let errors = keymaps_from_ids(&full(over)).expect_err("invalid keymaps");
    assert_eq!(errors, vec![expected]);
}

#[test]
fn spec6_valid_keymaps_with_aliases_load() {
    let k = keymaps_from_ids(&full(json!({"cancel":"Escape","confirm":"ctrl+k","questionNote":"Shift+N"})))
        .unwrap();
    assert_eq!(k.confirm.to_string(), "ctrl+k");
    assert_eq!(k.question_note.to_string(), "shift+n");
}

#[test]
fn spec7_script_format() {
    let steps = parse_script(
        "# comment\n\ndown   # a key id\nshift+n\ntype \"  my # answer \"  # note\npaste \"a\\nb\"\nresize 100 30\nset behaviour.autoSubmitWhenAnsweredWithoutNotes true\n",
    )
    .unwrap();
    assert_eq!(
        steps,
        vec![
            Step::Key(KeyPress::parse("down").unwrap()),
            Step::Key(KeyPress::parse("shift+n").unwrap()),
            Step::Type("  my # answer ".into()),
            Step::Paste("a\nb".into()),
            Step::Resize(ask_engine::Size { width: 100, height: 30 }),
            Step::Set { path: "behaviour.autoSubmitWhenAnsweredWithoutNotes".into(), value: "true".into() },
        ]
    );
}

#[rstest]
#[case("type my answer", 1)]
#[case("down\nfoo+bar", 2)]
#[case("resize 10", 1)]
#[case("down up", 1)]
#[case("set x", 1)]
fn spec7_bad_script_lines_name_their_line(#[case] text: &str, #[case] line: usize) {
    assert_eq!(parse_script(text).unwrap_err().line, line);
}

#[test]
fn spec7_type_makes_one_key_per_character_and_newline_is_enter() {
    let events = Step::Type("aB\n".into()).events(&Default::default()).unwrap();
    let keys: Vec<String> = events
        .iter()
        .map(|e| match e {
            ask_engine::Event::KeyPressed { key } => key.to_string(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(keys, ["a", "shift+b", "enter"]);
}

#[rstest]
#[case("behaviour.nope true")]
#[case("behaviour.showFooterHints yes")]
#[case("keymaps.confirm tab")]
#[case("colour.x 1")]
fn spec7_bad_set_steps_are_errors(#[case] line: &str) {
    let steps = parse_script(&format!("set {line}")).unwrap();
    assert!(steps[0].events(&Default::default()).is_err());
}

/// The footer says what the keys do in the state the user is in (issue 12.27).
#[rstest]
#[case::settings_overlay_lists_every_closing_key("?", &["↑↓ move", "Enter/Space toggle", "Esc/?/Ctrl+C close"])]
#[case::file_menu_says_insert_and_close("4\ntype \"see @sr\"", &["↑↓ choose", "Enter/Tab insert", "Esc close list"])]
#[case::editor_without_offers("4\ntype \"see\"", &["Enter submit", "Esc close", "Alt+Enter newline", "Ctrl+C dismiss"])]
#[case::single_question("", &["↑↓ move", "Enter select", "n option note", "Shift+N question note", "Tab next tab", "Esc cancel", "? settings"])]
#[case::single_custom_row_takes_no_option_note("4\ntype \"x\"\nesc", &["↑↓ move", "Enter edit answer", "Shift+N question note", "Tab next tab", "Esc cancel", "? settings"])]
#[case::multi_custom_row_takes_no_option_note("tab\nend\ntype \"x\"\nesc", &["↑↓ move", "Space toggle", "Enter next", "Shift+N question note", "Tab next tab", "Esc cancel", "? settings"])]
fn footer_hints_know_the_state(#[case] script: &str, #[case] hints: &[&str]) {
    let (mut state, _) = common::run_with(&common::form3(), script, ask_engine::Settings::default());
    if state.completion().is_some() {
        state
            .apply(&ask_engine::Event::CompletionsOffered { query: "sr".into(), items: vec!["src/".into()] });
    }
    let shown: Vec<String> =
        state.view().footer.unwrap().iter().map(|h| format!("{} {}", h.key, h.action)).collect();
    assert_eq!(shown, hints);
}

/// Three questions answered with answers long enough to wrap, then `keys` on the review tab.
fn on_a_long_review(keys: &str) -> ask_engine::FlowState {
    let long = "a long answer that wraps over several lines of the summary ".repeat(3);
    let questions: Vec<_> = (1..=3)
        .map(|i| {
            json!({"id": format!("q{i}"), "label": format!("Q{i}"), "prompt": "Pick?",
            "options": [{"value": "a", "label": long}, {"value": "b", "label": "Short"}]})
        })
        .collect();
    let script = format!("1\n1\n1\n{keys}");
    common::run_with(&json!({"questions": questions}), &script, ask_engine::Settings::default()).0
}

/// How far the review summary is scrolled.
fn summary_scroll(state: &ask_engine::FlowState) -> ask_engine::SummaryScroll {
    match state.view().body {
        ask_engine::project::view::Body::Review(review) => review.scroll,
        _ => panic!("the review tab is shown"),
    }
}

/// Issue 12.1: the review summary pages from the end it was last sent to. End is kept as "at
/// the end" (only the frontend knows how long the summary is drawn), so the first PageUp after
/// End shows the page above the end at any width; a page that would pass the far end lands on
/// it; and a new visit to the review tab starts at the top.
#[rstest]
#[case::end("end", ask_engine::SummaryScroll::End(0))]
#[case::page_up_after_end("end\npageUp", ask_engine::SummaryScroll::End(10))]
#[case::and_back_down("end\npageUp\npageDown", ask_engine::SummaryScroll::End(0))]
#[case::down_at_the_end_stays("end\npageDown", ask_engine::SummaryScroll::End(0))]
#[case::page_down_from_the_top("pageDown", ask_engine::SummaryScroll::Top(10))]
#[case::page_up_at_the_top_stays("pageUp", ask_engine::SummaryScroll::Top(0))]
#[case::home_after_end("end\nhome", ask_engine::SummaryScroll::Top(0))]
#[case::paging_up_past_the_top_lands_on_it(&format!("end{}", "\npageUp".repeat(30)), ask_engine::SummaryScroll::Top(0))]
#[case::paging_down_past_the_end_lands_on_it(&"pageDown\n".repeat(30), ask_engine::SummaryScroll::End(0))]
#[case::a_new_visit_starts_at_the_top("end\nshift+tab\ntab", ask_engine::SummaryScroll::Top(0))]
fn issue12_1_the_summary_pages_from_the_end_it_was_sent_to(
    #[case] keys: &str,
    #[case] expected: ask_engine::SummaryScroll,
) {
    assert_eq!(summary_scroll(&on_a_long_review(keys)), expected);
}

/// `questions` questions answered with option 1, whose label is `answer`, each option 1 also
/// noted `notes` times over (a note of several lines when `notes` > 1); then `keys` on the
/// review tab.
fn on_a_review_of(questions: usize, answer: &str, notes: usize, keys: &str) -> ask_engine::FlowState {
    let qs: Vec<_> = (1..=questions)
        .map(|i| {
            json!({"id": format!("q{i}"), "label": format!("Q{i}"), "prompt": "Pick?",
            "options": [{"value": "a", "label": answer}, {"value": "b", "label": "B"}]})
        })
        .collect();
    // Alt+Enter starts a new line in a note; Enter saves it.
    let note = match notes {
        0 => String::new(),
        n => format!("n\ntype \"note\"\n{}enter\n", "alt+enter\ntype \"note\"\n".repeat(n - 1)),
    };
    let script = format!("{}{keys}", format!("{note}1\n").repeat(questions));
    let state = common::run_with(&json!({"questions": qs}), &script, ask_engine::Settings::default()).0;
    assert!(state.on_review() && state.outcome().is_none(), "on the open review");
    state
}

/// Issue 12.1: a PageDown lands on the end only when that end is within the next page. The
/// summary's length is estimated without a width (each entry at least its label, answer and
/// notes, at 16 cells a line): an estimate short of what is drawn would jump to the end past
/// lines the person never saw. Each summary here is drawn on 40 lines or more at 16 cells.
#[rstest]
#[case::forty_short_answers(40, "Short", 0)]
#[case::four_answers_of_160_characters(4, &"x".repeat(160), 0)]
#[case::fourteen_answers_each_noted(14, "Short", 1)]
#[case::five_answers_with_notes_of_eight_lines(5, "Short", 8)]
fn issue12_1_a_page_down_never_skips_what_the_summary_draws(
    #[case] questions: usize,
    #[case] answer: &str,
    #[case] notes: usize,
) {
    let state = on_a_review_of(questions, answer, notes, "pageDown\npageDown\npageDown");
    assert_eq!(summary_scroll(&state), ask_engine::SummaryScroll::Top(30));
}

/// A page counts the summary only as far as it goes (a review of 100 000 answers measures a
/// page's worth), and still lands on the end when the end is exactly a page away: twenty short
/// answers count 40 lines (label and answer, one each), so the fourth PageDown, from line 30,
/// reaches line 40, the end.
#[rstest]
#[case::three_pages_stop_short(3, ask_engine::SummaryScroll::Top(30))]
#[case::the_fourth_reaches_the_end(4, ask_engine::SummaryScroll::End(0))]
fn issue12_1_a_page_exactly_to_the_end_lands_on_it(
    #[case] pages: usize,
    #[case] expected: ask_engine::SummaryScroll,
) {
    let state = on_a_review_of(20, "Short", 0, &"pageDown\n".repeat(pages));
    assert_eq!(summary_scroll(&state), expected);
}

/// The frontend records where it drew a summary whose position lay past an end
/// (`SummaryClamped`): from there the position counts from that end, so the next page key moves
/// it. PageDowns past the drawn end then PageUp: without the record, the PageUp would only use
/// up one of the extra pages nobody saw.
#[rstest]
#[case::drawn_at_the_end(&"pageDown\n".repeat(3), ask_engine::SummaryEdge::End, "pageUp", ask_engine::SummaryScroll::End(10))]
#[case::drawn_at_the_top(
    "end\npageUp\npageUp\npageUp",
    ask_engine::SummaryEdge::Top,
    "pageDown",
    ask_engine::SummaryScroll::Top(10)
)]
fn a_summary_drawn_at_an_end_pages_from_that_end(
    #[case] before: &str,
    #[case] edge: ask_engine::SummaryEdge,
    #[case] key: &str,
    #[case] expected: ask_engine::SummaryScroll,
) {
    let mut state = on_a_long_review(before);
    let unclamped = summary_scroll(&state);
    state.apply(&ask_engine::Event::SummaryClamped { edge });
    assert_eq!(summary_scroll(&state), ask_engine::SummaryScroll::at(edge));
    state.apply(&ask_engine::Event::key(ask_engine::KeyPress::parse(key).unwrap()));
    assert_eq!(summary_scroll(&state), expected, "from {unclamped:?}");
}

/// The frontend records the line its preview pane was drawn from when the scroll position lay
/// past the last page (`PreviewClamped`): the position moves back to it, so the next PageUp
/// moves the pane; a record never moves the position further down than the keys did.
#[rstest]
#[case::back_to_the_drawn_line(25, 25, 15)]
#[case::never_further_down(50, 30, 20)]
fn a_preview_drawn_from_above_pages_from_the_line_drawn(
    #[case] drawn: usize,
    #[case] then: usize,
    #[case] after_page_up: usize,
) {
    let text: String = (1..=100).map(|i| format!("line {i}\n")).collect();
    let raw = json!({"questions": [{"id": "a", "type": "preview", "prompt": "Which?",
        "options": [{"value": "x", "label": "X", "preview": text}]}]});
    let (mut state, _) =
        common::run_with(&raw, "pageDown\npageDown\npageDown", ask_engine::Settings::default());
    let scroll = |state: &ask_engine::FlowState| match state.view().body {
        ask_engine::project::view::Body::Question(q) => q.preview_scroll,
        _ => panic!("the question is shown"),
    };
    assert_eq!(scroll(&state), 30);
    state.apply(&ask_engine::Event::PreviewClamped { line: drawn });
    assert_eq!(scroll(&state), then);
    state.apply(&ask_engine::Event::key(ask_engine::KeyPress::parse("pageUp").unwrap()));
    assert_eq!(scroll(&state), after_page_up);
}

/// Issue 12.6: on a question without previews PageUp/PageDown move the cursor ten options at a
/// time, Home and End to the first option and the custom row.
#[rstest]
#[case::page_down("pageDown", 10)]
#[case::page_down_twice_then_up("pageDown\npageDown\npageUp", 10)]
#[case::page_up_at_the_top("pageUp", 0)]
#[case::page_up_short_of_a_page("down\ndown\ndown\npageUp", 0)]
#[case::home("pageDown\npageDown\nhome", 0)]
#[case::end_is_the_custom_row("end", 25)]
fn issue12_6_page_keys_move_through_a_long_option_list(#[case] keys: &str, #[case] cursor: usize) {
    let options: Vec<_> =
        (1..=25).map(|i| json!({"value": format!("o{i}"), "label": format!("Option {i}")})).collect();
    let raw = json!({"questions": [{"id": "a", "prompt": "Which?", "options": options}]});
    let (state, _) = common::run_with(&raw, keys, ask_engine::Settings::default());
    assert_eq!(state.cursor(), cursor);
}

/// The keys that leave a form are its cancel and dismiss bindings, as remapped: what a runtime
/// whose store refuses writes lets end the run.
#[rstest]
#[case::cancel("esc", None, true)]
#[case::dismiss("ctrl+c", None, true)]
#[case::another_key("q", None, false)]
#[case::remapped_cancel("q", Some("q"), true)]
#[case::esc_once_cancel_moved("esc", Some("q"), false)]
fn the_keys_that_leave_follow_the_keymap(
    #[case] key: &str,
    #[case] cancel: Option<&str>,
    #[case] leaves: bool,
) {
    let settings = common::with(|s| {
        if let Some(id) = cancel {
            s.keymaps.cancel = KeyPress::parse(id).unwrap();
        }
    });
    let (state, _) = common::run_with(&common::form3(), "", settings);
    assert_eq!(state.leaves(&ask_engine::Event::key(KeyPress::parse(key).unwrap())), leaves);
    assert!(!state.leaves(&ask_engine::Event::TextPasted { text: "esc".into() }));
}
