//! Flow-level behaviour: tabs, cursor, editors, review shortcuts, the dirty guard, settings.
//! Each case names the contract line or SPEC decision it proves.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::{EditorTarget, Event, ExitAction, Outcome, ReviewAction, Settings};
use common::*;
use rstest::rstest;

fn script(steps: &str) -> String {
    steps.split(';').map(str::trim).collect::<Vec<_>>().join("\n")
}

fn go(steps: &str, settings: Settings) -> ask_engine::FlowState {
    run3(&script(steps), settings)
}

#[rstest]
#[case::d14_tab_moves_right("tab", 1)]
#[case::d14_right_moves_right("right", 1)]
#[case::d14_shift_tab_wraps_to_review("shift+tab", 3)]
#[case::d14_left_wraps_to_review("left", 3)]
#[case::d14_tab_wraps_from_review_to_first("tab; tab; tab; tab", 0)]
#[case::d15_enter_after_last_question_goes_to_review("tab; tab; enter", 3)]
#[case::d15_multi_digit_does_not_advance("tab; 2", 1)]
#[case::a_typed_tab_is_the_tab_key("type \"\\t\"", 1)]
fn contract_tabs_move_between_tabs(#[case] steps: &str, #[case] tab: usize) {
    assert_eq!(go(steps, Settings::default()).tab(), tab);
}

#[rstest]
#[case::d14_up_clamps_at_first_row("up", 0, false)]
#[case::d14_down_moves("down", 1, false)]
#[case::d11_landing_on_custom_row_opens_editor("down; down; down", 3, true)]
#[case::d11_down_on_custom_row_keeps_editor_open("down; down; down; down", 3, true)]
#[case::d11_cancel_closes_editor_and_cursor_stays("down; down; down; esc", 3, false)]
#[case::d11_editor_stays_closed_until_confirmed("down; down; down; esc; down", 3, false)]
#[case::d11_enter_reopens_custom_editor("down; down; down; esc; enter", 3, true)]
#[case::contract_empty_editor_up_moves_options("down; down; down; up", 2, false)]
#[case::d14_tab_change_resets_cursor("down; tab; shift+tab", 0, false)]
#[case::d20_home_and_end_jump_rows("end; esc; home", 0, false)]
fn contract_up_down_move_between_options(
    #[case] steps: &str,
    #[case] cursor: usize,
    #[case] editor_open: bool,
) {
    let s = go(steps, Settings::default());
    assert_eq!(s.cursor(), cursor);
    assert_eq!(s.editor().is_some(), editor_open);
}

#[test]
fn contract_empty_editor_tab_moves_between_tabs() {
    let s = go("down; down; down; tab", Settings::default());
    assert_eq!((s.tab(), s.editor().is_some()), (1, false));
}

#[test]
fn contract_editor_with_text_keeps_arrows_and_tab() {
    // Left moves the text cursor, Tab stays in the editor, Up on the only line goes to its start.
    let s = go("down; down; down; type \"ab\"; left; tab; shift+tab; right; left", Settings::default());
    assert_eq!(s.tab(), 0);
    let e = s.editor().expect("editor still open");
    assert_eq!((e.buffer.text(), e.buffer.cursor()), ("ab", 1));
    let s = go("down; down; down; type \"ab\"; up", Settings::default());
    assert_eq!(s.editor().map(|e| e.buffer.cursor()), Some(0));
}

#[test]
fn d4_question_mark_in_empty_editor_opens_settings_and_editor_survives() {
    let s = go("down; down; down; ?", Settings::default());
    assert!(s.overlay().is_some());
    let s = go("down; down; down; ?; esc", Settings::default());
    assert!(s.overlay().is_none());
    assert_eq!(s.editor().map(|e| e.buffer.text()), Some(""));
}

#[test]
fn d4_question_mark_in_non_empty_editor_is_typed() {
    let s = go("down; down; down; type \"why?\"", Settings::default());
    assert!(s.overlay().is_none());
    assert_eq!(s.editor().map(|e| e.buffer.text()), Some("why?"));
}

#[test]
fn d4_printable_bound_keys_are_typed_in_editors() {
    let s = go("shift+n; type \"n N 1\"", Settings::default());
    assert_eq!(s.editor().map(|e| (e.target, e.buffer.text())), Some((EditorTarget::QuestionNote, "n N 1")));
}

#[test]
fn d17_option_note_on_custom_row_does_nothing() {
    let s = go("down; down; down; esc; n", Settings::default());
    assert!(s.editor().is_none());
}

#[test]
fn contract_note_editor_confirm_keeps_flow_open() {
    let s = go("shift+n; type \"x\"; enter", Settings::default());
    assert_eq!((s.tab(), s.outcome(), s.editor().is_none()), (0, None, true));
    assert_eq!(s.questions()[0].note(), "x");
}

#[test]
fn d28_opening_an_editor_prefills_saved_text_with_cursor_at_end() {
    let s = go("shift+n; type \"abc\"; enter; shift+n", Settings::default());
    let e = s.editor().expect("note editor");
    assert_eq!((e.buffer.text(), e.buffer.cursor()), ("abc", 3));
}

/// D28: long text wraps inside the editor, so Up and Down move by the rows it wraps into once
/// a frame has recorded the editor's width (`EditorWrapped`); before any frame (a headless
/// script) they move by the text's lines. Either way the first (last) row goes to the start
/// (end).
#[rstest]
#[case::drawn_rows_up(Some(10), "up", 15)]
#[case::drawn_rows_up_twice(Some(10), "up; up", 5)]
#[case::drawn_rows_past_the_top(Some(10), "up; up; up", 0)]
#[case::drawn_rows_down_from_the_start(Some(10), "up; up; up; down", 10)]
#[case::text_lines_without_a_frame(None, "up", 0)]
fn d28_up_and_down_move_by_the_rows_the_editor_was_drawn_in(
    #[case] width: Option<u16>,
    #[case] keys: &str,
    #[case] cursor: usize,
) {
    // "the quick " / "brown fox " / "jumps" at 10 cells; one line of text.
    let mut s = go("shift+n; type \"the quick brown fox jumps\"", Settings::default());
    if let Some(width) = width {
        s.apply(&Event::EditorWrapped { width, breaks: ask_engine::editor::Breaks::Words });
    }
    for step in ask_engine::parse_script(&script(keys)).unwrap() {
        for e in step.events(s.settings()).unwrap() {
            s.apply(&e);
        }
    }
    assert_eq!(s.editor().expect("still editing").buffer.cursor(), cursor);
}

#[test]
fn d21_blank_confirm_reopens_and_never_advances() {
    let s = go("4; type \"x\"; enter; shift+tab; 4; backspace; enter", Settings::default());
    assert_eq!(s.tab(), 0);
    assert_eq!(s.questions()[0].custom_text(), "");
    assert_eq!(s.editor().map(|e| e.target), Some(EditorTarget::Answer));
}

#[rstest]
#[case::d2_first_press_arms_and_moves_cursor("shift+tab; 2", None, Some(ReviewAction::Elaborate))]
#[case::d2_same_key_again_completes("shift+tab; 1; 1", Some(Outcome::Submitted), None)]
#[case::d2_elaborate_twice("shift+tab; 2; 2", Some(Outcome::Elaborated), None)]
#[case::d2_cancel_twice("shift+tab; 3; 3", Some(Outcome::Cancelled), None)]
#[case::d2_other_shortcut_rearms("shift+tab; 1; 2", None, Some(ReviewAction::Elaborate))]
#[case::d23_digit_4_disarms("shift+tab; 1; 4; 1", None, Some(ReviewAction::Submit))]
#[case::d23_n_disarms("shift+tab; 1; n", None, None)]
#[case::d23_shift_n_disarms("shift+tab; 2; shift+n", None, None)]
#[case::d2_enter_confirms_highlighted_after_disarm("shift+tab; 2; enter", Some(Outcome::Elaborated), None)]
#[case::d2_down_disarms_then_enter_confirms_moved_cursor(
    "shift+tab; 1; down; enter",
    Some(Outcome::Elaborated),
    None
)]
#[case::d2_up_moves_the_review_cursor_back(
    "shift+tab; down; down; up; enter",
    Some(Outcome::Elaborated),
    None
)]
#[case::d2_up_stops_at_submit("shift+tab; down; up; up; enter", Some(Outcome::Submitted), None)]
#[case::d2_review_cursor_starts_on_submit(
    "shift+tab; down; down; tab; shift+tab; enter",
    Some(Outcome::Submitted),
    None
)]
fn d2_double_press_review_shortcuts(
    #[case] steps: &str,
    #[case] outcome: Option<Outcome>,
    #[case] armed: Option<ReviewAction>,
) {
    let s = go(steps, Settings::default());
    assert_eq!(s.outcome(), outcome);
    if outcome.is_none() {
        assert_eq!(s.armed(), armed);
    }
}

#[rstest]
#[case::submit("shift+tab; 1", Outcome::Submitted)]
#[case::elaborate("shift+tab; 2", Outcome::Elaborated)]
#[case::cancel("shift+tab; 3", Outcome::Cancelled)]
fn d2_single_press_completes_at_once(#[case] steps: &str, #[case] outcome: Outcome) {
    assert_eq!(go(steps, single_press()).outcome(), Some(outcome));
}

#[test]
fn d2_review_hint_names_the_key_to_press_again() {
    let s = go("shift+tab; 2", Settings::default());
    let ask_engine::project::view::Body::Review(r) = s.view().body else { panic!("review body") };
    assert_eq!(r.hint.as_deref(), Some("Press 2 again to Elaborate"));
}

#[rstest]
#[case::d13_clean_flow_esc_leaves_at_once("esc", Some(Outcome::Cancelled), None)]
#[case::d13_clean_flow_ctrl_c_leaves_at_once("ctrl+c", Some(Outcome::Cancelled), None)]
#[case::d12_dirty_first_esc_warns("space; esc", None, Some(ExitAction::Cancel))]
#[case::d12_dirty_second_esc_leaves("space; esc; esc", Some(Outcome::Cancelled), None)]
#[case::d12_dirty_ctrl_c_twice_leaves("space; ctrl+c; ctrl+c", Some(Outcome::Cancelled), None)]
#[case::d12_other_action_rearms_for_itself("space; esc; ctrl+c", None, Some(ExitAction::Dismiss))]
#[case::d12_esc_ctrl_c_ctrl_c_leaves("space; esc; ctrl+c; ctrl+c", Some(Outcome::Cancelled), None)]
#[case::d12_warning_stays_until_tab_changes("space; esc; down; up; esc", Some(Outcome::Cancelled), None)]
#[case::d12_tab_change_clears_warning("space; esc; tab; esc", None, Some(ExitAction::Cancel))]
#[case::d12_open_editor_with_text_is_dirty("4; type \"x\"; ctrl+c", None, Some(ExitAction::Dismiss))]
#[case::d12_open_blank_editor_is_not_dirty("4; ctrl+c", Some(Outcome::Cancelled), None)]
#[case::d12_note_makes_flow_dirty("n; type \"x\"; enter; esc", None, Some(ExitAction::Cancel))]
#[case::d12_review_cancel_is_never_guarded("space; shift+tab; 3; 3", Some(Outcome::Cancelled), None)]
#[case::d13_clean_flow_esc_on_the_review_leaves_at_once("shift+tab; esc", Some(Outcome::Cancelled), None)]
#[case::d12_dirty_esc_on_the_review_warns("space; shift+tab; esc", None, Some(ExitAction::Cancel))]
#[case::d12_dirty_second_esc_on_the_review_leaves(
    "space; shift+tab; esc; esc",
    Some(Outcome::Cancelled),
    None
)]
#[case::d24_cancel_in_editor_never_counts_as_second_press(
    "space; esc; 4; type \"x\"; esc",
    None,
    Some(ExitAction::Cancel)
)]
#[case::d24_second_dismiss_leaves_even_from_editor(
    "4; type \"x\"; ctrl+c; ctrl+c",
    Some(Outcome::Cancelled),
    None
)]
fn d12_dirty_dismiss_confirmation(
    #[case] steps: &str,
    #[case] outcome: Option<Outcome>,
    #[case] warning: Option<ExitAction>,
) {
    let s = go(steps, Settings::default());
    assert_eq!(s.outcome(), outcome);
    if outcome.is_none() {
        assert_eq!(s.warning(), warning);
    }
}

#[test]
fn d12_guarded_dismiss_in_editor_keeps_draft() {
    let s = go("4; type \"draft\"; ctrl+c", Settings::default());
    assert_eq!(s.editor().map(|e| e.buffer.text()), Some("draft"));
    assert!(s.view().warning.is_some_and(|w| w.contains("Ctrl+C")));
}

#[test]
fn contract_guard_off_leaves_dirty_flow_at_once() {
    let s = go("space; esc", with(|s| s.behaviour.confirm_dismiss_when_dirty = false));
    assert_eq!(s.outcome(), Some(Outcome::Cancelled));
}

#[rstest]
#[case::d3_reaching_review_fully_answered_submits("1; 1; tab; 1", Some(Outcome::Submitted))]
#[case::d3_not_while_a_question_is_unanswered("1; tab; 1", None)]
#[case::d3_not_when_a_question_note_exists("shift+n; type \"q\"; enter; 1; 1; tab; 1", None)]
#[case::d3_not_when_an_unselected_option_note_exists("n; type \"q\"; enter; 2; 1; tab; 1", None)]
#[case::d3_via_shift_tab(
    "1; 1; tab; down; space; shift+tab; shift+tab; shift+tab; shift+tab; tab; tab; tab",
    Some(Outcome::Submitted)
)]
fn d3_auto_submit(#[case] steps: &str, #[case] outcome: Option<Outcome>) {
    let s = go(steps, with(|s| s.behaviour.auto_submit_when_answered_without_notes = true));
    assert_eq!(s.outcome(), outcome);
}

#[test]
fn d3_switching_auto_submit_on_while_on_review_completes() {
    let steps = "1; 1; tab; 1; set behaviour.autoSubmitWhenAnsweredWithoutNotes true";
    assert_eq!(go(steps, Settings::default()).outcome(), Some(Outcome::Submitted));
}

#[test]
fn d29_overlay_toggle_that_enables_auto_submit_completes_at_once() {
    let s = go("1; 1; tab; 1; ?; space", Settings::default());
    assert_eq!(s.outcome(), Some(Outcome::Submitted));
}

#[rstest]
#[case::contract_esc_closes_settings("?; esc")]
#[case::contract_ctrl_c_closes_settings("?; ctrl+c")]
#[case::contract_question_mark_closes_settings("?; ?")]
fn contract_inside_settings_esc_ctrl_c_and_question_close(#[case] steps: &str) {
    let s = go(steps, Settings::default());
    assert!(s.overlay().is_none());
    assert_eq!(s.outcome(), None);
}

#[test]
fn d29_overlay_keys_are_fixed_and_toggle_in_contract_order() {
    let remapped = with(|s| s.keymaps.toggle = ask_engine::KeyPress::parse("x").unwrap());
    let s = go("?; down; space; down; enter; up; up; up; enter", remapped);
    let b = s.settings().behaviour;
    assert!(!b.confirm_dismiss_when_dirty);
    assert!(!b.double_press_review_shortcuts);
    assert!(!b.show_footer_hints);
    assert!(s.overlay().is_some_and(|o| o.focus == 3));
}

#[rstest]
#[case::down_goes_round_to_the_first("?; down; down; down; down", 0)]
#[case::modified_arrows_do_nothing("?; alt+down; shift+down; ctrl+up", 0)]
fn d29_the_overlay_focus_goes_round_and_ignores_modified_keys(#[case] steps: &str, #[case] focus: usize) {
    let s = go(steps, Settings::default());
    assert!(s.overlay().is_some_and(|o| o.focus == focus), "{:?}", s.overlay());
}

#[test]
fn d29_toggle_in_overlay_reports_a_save_effect() {
    let mut state = run3("?", Settings::default());
    let fx = state.apply(&ask_engine::Event::key(ask_engine::KeyPress::parse("space").unwrap()));
    assert_eq!(fx.save_toggle, Some((ask_engine::Toggle::AutoSubmitWhenAnsweredWithoutNotes, true)));
}

#[test]
fn spec6_failed_save_reverts_and_shows_the_error() {
    let mut state = run3("?\ndown", Settings::default());
    state.apply(&ask_engine::Event::key(ask_engine::KeyPress::parse("space").unwrap()));
    state.apply(&ask_engine::Event::SettingsSaveFailed {
        settings: Settings::default().into(),
        message: "read-only".into(),
    });
    assert!(state.settings().behaviour.confirm_dismiss_when_dirty);
    assert!(state.view().overlay.is_some_and(|o| o.notices.iter().any(|n| n == "read-only")));
}

#[test]
fn contract_live_settings_change_affects_next_key() {
    let s = go("space; set behaviour.confirmDismissWhenDirty false; esc", Settings::default());
    assert_eq!(s.outcome(), Some(Outcome::Cancelled));
    let s = go("shift+tab; set behaviour.doublePressReviewShortcuts false; 2", Settings::default());
    assert_eq!(s.outcome(), Some(Outcome::Elaborated));
}

#[rstest]
#[case::d22_enter_no_longer_confirms_in_navigation("enter", 0, None)]
#[case::d22_bound_key_confirms("ctrl+k", 1, None)]
#[case::d22_enter_does_nothing_in_editor("4; type \"x\"; enter", 0, Some("x"))]
#[case::d22_bound_key_saves_editor("4; type \"x\"; ctrl+k", 1, None)]
fn d22_only_bound_keys_act(#[case] steps: &str, #[case] tab: usize, #[case] draft: Option<&str>) {
    let s = go(steps, with(|s| s.keymaps.confirm = ask_engine::KeyPress::parse("ctrl+k").unwrap()));
    assert_eq!(s.tab(), tab);
    assert_eq!(s.editor().map(|e| e.buffer.text()), draft);
}

#[test]
fn contract_keymaps_are_configurable_for_all_six_actions() {
    let custom = with(|s| {
        let k = |id| ask_engine::KeyPress::parse(id).unwrap();
        s.keymaps.cancel = k("ctrl+g");
        s.keymaps.dismiss = k("ctrl+q");
        s.keymaps.toggle = k("x");
        s.keymaps.option_note = k("o");
        s.keymaps.question_note = k("shift+q");
    });
    let s = go("tab; x; o; type \"on a\"; ctrl+k; ctrl+g; shift+q; type \"q\"; ctrl+g; esc", custom);
    let q = &s.questions()[1];
    assert_eq!((q.selected_count(), q.option_note(0), q.note()), (1, "on a", "q"));
    assert_eq!(s.outcome(), None, "esc is no longer cancel");
    let s = go("ctrl+q", custom);
    assert_eq!(s.outcome(), Some(Outcome::Cancelled));
}

#[test]
fn events_after_completion_change_nothing() {
    let s = go("esc; 1; tab; space", Settings::default());
    assert_eq!((s.outcome(), s.tab()), (Some(Outcome::Cancelled), 0));
}

#[test]
fn contract_settings_command_is_the_overlay_alone_and_closing_ends_it() {
    let form = ask_schema::Form { title: None, questions: vec![] };
    let mut s = ask_engine::FlowState::default();
    s.apply(&opened(form, with(|s| s.behaviour.auto_submit_when_answered_without_notes = true)));
    assert!(
        s.is_settings_only() && s.overlay().is_some() && s.outcome().is_none(),
        "auto-submit never fires"
    );
    let fx = s.apply(&ask_engine::Event::key(ask_engine::KeyPress::parse("down").unwrap()));
    assert!(fx.completed.is_none());
    let fx = s.apply(&ask_engine::Event::key(ask_engine::KeyPress::parse("space").unwrap()));
    assert_eq!(fx.save_toggle, Some((ask_engine::Toggle::ConfirmDismissWhenDirty, false)));
    let fx = s.apply(&ask_engine::Event::key(ask_engine::KeyPress::parse("esc").unwrap()));
    assert!(fx.completed.is_some());
}

#[test]
fn the_opening_event_gives_the_state_its_size_and_notices() {
    let size = ask_engine::Size { width: 100, height: 30 };
    let mut s = ask_engine::FlowState::default();
    assert!(!s.is_opened(), "a log without its opening event is not a form to resume");
    s.apply(&ask_engine::Event::FlowOpened {
        form: common::form_of(&common::form3()).into(),
        settings: Box::default(),
        origin: ask_engine::Origin::tool(),
        size,
        notices: vec!["config.json: ui.theme is not a theme".to_owned()],
    });
    assert!(s.is_opened());
    assert_eq!(s.size(), size);
    assert_eq!(s.notices(), ["config.json: ui.theme is not a theme"]);
}

/// Problems with the config file show as one line over the form, counting the others; `?`
/// shows them all.
#[rstest]
#[case::one(&["ui.theme is not a theme"], "Config: ui.theme is not a theme · ? shows details")]
#[case::three(&["a", "b", "c"], "Config: a (+2 more) · ? shows details")]
fn config_notices_show_as_one_line(#[case] notices: &[&str], #[case] line: &str) {
    let mut s = ask_engine::FlowState::default();
    s.apply(&ask_engine::Event::FlowOpened {
        form: common::form_of(&common::form3()).into(),
        settings: Box::default(),
        origin: ask_engine::Origin::tool(),
        size: ask_engine::Size::default(),
        notices: notices.iter().map(|n| (*n).to_owned()).collect(),
    });
    assert_eq!(s.view().notice.as_deref(), Some(line));
}

#[rstest]
#[case::on_the_review("1; tab; tab")]
#[case::in_the_settings_overlay("1; ?")]
fn a_paste_where_nothing_takes_text_changes_nothing(#[case] steps: &str) {
    let mut s = go(steps, Settings::default());
    assert!(s.on_review() || s.overlay().is_some());
    let before = s.clone();
    s.apply(&ask_engine::Event::TextPasted { text: "pasted".into() });
    assert_eq!(s, before);
}
