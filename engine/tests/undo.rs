//! Undo and redo inside a form (issue 13.3): `ctrl+z` takes back the last answer-changing step
//! (a selection, a saved answer, a saved or deleted note), never a cursor move; `ctrl+y` or
//! `ctrl+shift+z` does it again; the review tab says what undo would take back; a log with
//! undos replays to the same state.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_engine::{FlowState, Settings};
use rstest::rstest;

/// `(lang selected values, feat selected values, lang custom text, lang note, feat note on Alpha)`
fn answers(state: &FlowState) -> (Vec<usize>, Vec<usize>, String, String, String) {
    let q = state.questions();
    (
        q[0].selected_indices().collect(),
        q[1].selected_indices().collect(),
        q[0].custom_text().to_owned(),
        q[0].note().to_owned(),
        q[1].option_note(0).to_owned(),
    )
}

fn run(script: &str) -> FlowState {
    common::run3(script, Settings::default())
}

#[rstest]
#[case::a_selection("1\nshift+tab\nctrl+z", vec![], vec![])]
#[case::a_changed_selection_gets_the_old_one_back("1\nshift+tab\n2\nshift+tab\nctrl+z", vec![0], vec![])]
#[case::a_toggle_on_a_multi_question("tab\nspace\ndown\nspace\nctrl+z", vec![], vec![0])]
#[case::cursor_moves_are_not_steps("tab\nspace\ndown\ndown\nup\nctrl+z", vec![], vec![])]
#[case::two_undos_two_steps("tab\nspace\ndown\nspace\nctrl+z\nctrl+z", vec![], vec![])]
#[case::redo_does_it_again("tab\nspace\ndown\nspace\nctrl+z\nctrl+y", vec![], vec![0, 1])]
#[case::shift_with_the_undo_key_redoes("tab\nspace\ndown\nspace\nctrl+z\nctrl+shift+z", vec![], vec![0, 1])]
#[case::a_new_step_clears_redo("tab\nspace\ndown\nspace\nctrl+z\ndown\nspace\nctrl+y", vec![], vec![0, 2])]
#[case::nothing_to_undo_is_harmless("ctrl+z\nctrl+y", vec![], vec![])]
fn spec13_3_undo_selections(#[case] script: &str, #[case] lang: Vec<usize>, #[case] feat: Vec<usize>) {
    let state = run(script);
    let (l, f, ..) = answers(&state);
    assert_eq!((l, f), (lang, feat), "{script}");
}

#[rstest]
#[case::a_saved_custom_answer("4\ntype \"Zig\"\nenter\nshift+tab\nctrl+z", "", "")]
#[case::a_saved_question_note("shift+n\ntype \"why\"\nenter\nctrl+z", "", "")]
#[case::a_deleted_question_note_comes_back(
    "shift+n\ntype \"why\"\nenter\nshift+n\nctrl+u\nenter\nctrl+z",
    "",
    "why"
)]
#[case::a_note_edit_goes_back_one_version(
    "shift+n\ntype \"why\"\nenter\nshift+n\ntype \" not\"\nenter\nctrl+z",
    "",
    "why"
)]
fn spec13_3_undo_texts(#[case] script: &str, #[case] custom: &str, #[case] note: &str) {
    let state = run(script);
    let (_, _, c, n, _) = answers(&state);
    assert_eq!((c.as_str(), n.as_str()), (custom, note), "{script}");
}

/// Saving what was already saved is not a step: undo then takes back the step before it.
#[rstest]
#[case::an_option_note_saved_unchanged("tab\nn\ntype \"fast\"\nenter\nn\nenter\nctrl+z", vec![], "")]
#[case::a_single_choice_confirmed_again("1\nshift+tab\nenter\nshift+tab\nctrl+z", vec![], "")]
fn spec13_3_saving_the_same_again_is_not_a_step(
    #[case] script: &str,
    #[case] lang: Vec<usize>,
    #[case] alpha_note: &str,
) {
    let state = run(script);
    let (l, _, _, _, n) = answers(&state);
    assert_eq!((l, n.as_str()), (lang, alpha_note), "{script}");
}

#[test]
fn spec13_3_undo_inside_an_editor_is_left_to_the_editor() {
    // ctrl+z while typing changes nothing saved and is not an undo of the last step.
    let state = run("1\nshift+tab\nshift+n\nctrl+z");
    assert_eq!(answers(&state).0, vec![0], "the selection stays");
    assert!(state.editor().is_some());
}

#[test]
fn spec13_3_undo_on_a_question_tab_shows_the_question_it_changed() {
    let state = run("1\nctrl+z");
    assert_eq!(state.tab(), 0, "back on Lang, where the selection was taken back");
    assert!(answers(&state).0.is_empty());
}

#[rstest]
#[case::selection("1\ntab\ntab", "Ctrl+Z takes back: Lang: selected “Rust”")]
#[case::changed_single_selection("1\nshift+tab\n2\ntab\ntab", "Ctrl+Z takes back: Lang: selected “Go”")]
#[case::option_note(
    "tab\nn\ntype \"fast\"\nenter\ntab\ntab",
    "Ctrl+Z takes back: Feat: note on “Alpha”: “fast”"
)]
#[case::deselected("tab\nspace\nspace\ntab\ntab", "Ctrl+Z takes back: Feat: deselected “Alpha”")]
#[case::own_answer("4\ntype \"Zig\"\nenter\ntab\ntab", "Ctrl+Z takes back: Lang: your own answer “Zig”")]
#[case::own_answer_cleared(
    "4\ntype \"Zig\"\nenter\nshift+tab\n4\nctrl+u\nenter\nshift+tab",
    "Ctrl+Z takes back: Lang: cleared your own answer"
)]
#[case::own_answer_deselected(
    "tab\ndown\ndown\ndown\ntype \"Zig\"\nenter\nspace\ntab\ntab",
    "Ctrl+Z takes back: Feat: deselected your own answer"
)]
#[case::question_note(
    "shift+n\ntype \"why\"\nenter\nshift+tab",
    "Ctrl+Z takes back: Lang: question note “why”"
)]
#[case::question_note_deleted(
    "shift+n\ntype \"why\"\nenter\nshift+n\nctrl+u\nenter\nshift+tab",
    "Ctrl+Z takes back: Lang: deleted the question note"
)]
#[case::option_note_deleted(
    "tab\nn\ntype \"fast\"\nenter\nn\nctrl+u\nenter\ntab\ntab",
    "Ctrl+Z takes back: Feat: deleted the note on “Alpha”"
)]
fn spec13_3_the_review_tab_says_what_undo_takes_back(#[case] script: &str, #[case] said: &str) {
    let state = run(script);
    assert!(state.on_review(), "{script}");
    assert_eq!(state.undo_preview().as_deref(), Some(said));
    let ask_engine::project::view::Body::Review(r) = state.view().body else { panic!("review") };
    assert_eq!(r.undo.as_deref(), Some(said));
}

#[test]
fn spec13_3_a_log_with_undos_replays_to_the_same_state_and_result() {
    let script = "1\ntab\nspace\ndown\nspace\nctrl+z\nn\ntype \"b note\"\nenter\nctrl+z\nctrl+y\ntab\n2\nctrl+z\nctrl+z\nctrl+shift+z\nenter";
    let (state, log) = common::run_with(&common::form3(), script, Settings::default());
    let replayed = FlowState::replay(&log);
    assert_eq!(replayed, state);
    let result = |s: &FlowState| serde_json::to_string(&s.result().map(|r| r.details)).unwrap();
    assert_eq!(result(&replayed), result(&state));
}

#[test]
fn spec13_3_the_undo_keys_are_configurable() {
    let settings = common::with(|s| {
        s.keymaps.undo = ask_engine::KeyPress::parse("alt+u").unwrap();
        s.keymaps.redo = ask_engine::KeyPress::parse("alt+r").unwrap();
    });
    let state = common::run3("tab\nspace\nalt+u", settings);
    assert!(answers(&state).1.is_empty());
    let state = common::run3("tab\nspace\nalt+u\nalt+r", settings);
    assert_eq!(answers(&state).1, vec![0]);
    let state = common::run3("tab\nspace\nctrl+z", settings);
    assert_eq!(answers(&state).1, vec![0], "ctrl+z is not bound any more");
}
