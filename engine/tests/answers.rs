//! (payload, keys, settings) → submitted answers. Each case names the contract line or SPEC
//! decision it proves. Scripts use the `--script` format with `;` between steps.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::*;
use rstest::rstest;
use serde_json::{Value, json};

fn script(steps: &str) -> String {
    steps.split(';').map(str::trim).collect::<Vec<_>>().join("\n")
}

/// Runs `steps` on the three-question form with double-press off and returns `details.answers`.
fn answers(steps: &str) -> Value {
    let state = run3(&script(steps), single_press());
    assert!(state.outcome().is_some(), "flow did not complete: {steps}");
    details(&state)["answers"].clone()
}

#[rstest]
#[case::contract_number_key_quick_selection("2; shift+tab; shift+tab; 1", json!({"lang":{"values":["go"],"labels":["Go"],"indices":[2]}}))]
#[case::contract_single_select_answers_still_use_arrays("1; tab; tab; 1", json!({"lang":{"values":["rust"],"labels":["Rust"],"indices":[1]}}))]
#[case::contract_indices_are_1_based_rendered_positions("down; down; enter; tab; tab; 1", json!({"lang":{"values":["ts"],"labels":["TypeScript"],"indices":[3]}}))]
#[case::d15_enter_on_single_selects_and_advances("down; enter; tab; tab; 1", json!({"lang":{"values":["go"],"labels":["Go"],"indices":[2]}}))]
#[case::d15_space_on_single_selects_without_advancing("space; shift+tab; 1", json!({"lang":{"values":["rust"],"labels":["Rust"],"indices":[1]}}))]
#[case::d15_space_on_selected_single_deselects("space; space; shift+tab; 1", json!({}))]
#[case::d15_digit_on_multi_toggles_and_stays("tab; 1; 3; 1; tab; tab; 1", json!({"feat":{"values":["c"],"labels":["Gamma"],"indices":[3]}}))]
#[case::d1_multi_lists_selected_options_in_declared_order("tab; 3; 1; tab; tab; 1", json!({"feat":{"values":["a","c"],"labels":["Alpha","Gamma"],"indices":[1,3]}}))]
#[case::d15_enter_on_multi_advances_without_toggling("tab; enter; tab; 1", json!({}))]
#[case::d15_digits_0_and_beyond_rows_do_nothing("0; 5; 9; shift+tab; 1", json!({}))]
#[case::contract_custom_text_stores_free_form_answer("4; type \"Zig\"; enter; tab; tab; 1", json!({"lang":{"values":["Zig"],"labels":["Zig"],"indices":[],"customText":"Zig"}}))]
#[case::d5_free_form_text_is_trimmed("4; type \"  Zig  \"; enter; tab; tab; 1", json!({"lang":{"values":["Zig"],"labels":["Zig"],"indices":[],"customText":"Zig"}}))]
#[case::d6_saving_free_form_text_clears_single_selection("space; down; down; down; type \"Zig\"; enter; tab; tab; 1", json!({"lang":{"values":["Zig"],"labels":["Zig"],"indices":[],"customText":"Zig"}}))]
#[case::d6_saving_blank_text_never_clears_a_selection("space; 4; type \"  \"; enter; esc; shift+tab; 1", json!({"lang":{"values":["rust"],"labels":["Rust"],"indices":[1]}}))]
#[case::d16_selecting_an_option_deselects_custom_but_keeps_text("4; type \"Zig\"; enter; shift+tab; 2; shift+tab; shift+tab; 1", json!({"lang":{"values":["go"],"labels":["Go"],"indices":[2]}}))]
#[case::d16_cancel_binding_saves_free_form_text_and_selects_it("4; type \"Zig\"; esc; shift+tab; 1", json!({"lang":{"values":["Zig"],"labels":["Zig"],"indices":[],"customText":"Zig"}}))]
#[case::d16_leaving_blank_editor_by_navigation_clears_text("4; type \"Zig\"; enter; shift+tab; 4; backspace; backspace; backspace; up; shift+tab; 1", json!({}))]
#[case::contract_multi_submit_free_form_stays_on_tab_and_selects_custom_row("tab; 4; type \"Zeta\"; enter; 1; tab; tab; 1", json!({"feat":{"values":["a","Zeta"],"labels":["Alpha","Zeta"],"indices":[1],"customText":"Zeta"}}))]
#[case::contract_multi_custom_text_appended_last("tab; 3; 4; type \"Zeta\"; enter; 1; tab; tab; 1", json!({"feat":{"values":["a","c","Zeta"],"labels":["Alpha","Gamma","Zeta"],"indices":[1,3],"customText":"Zeta"}}))]
#[case::contract_multi_toggling_saved_custom_row_deselects_without_clearing("tab; 4; type \"Zeta\"; enter; space; tab; tab; 1", json!({}))]
#[case::contract_multi_toggling_saved_custom_row_reselects_kept_text("tab; 4; type \"Zeta\"; enter; space; space; tab; tab; 1", json!({"feat":{"values":["Zeta"],"labels":["Zeta"],"indices":[],"customText":"Zeta"}}))]
#[case::contract_multi_clearing_free_form_keeps_other_selections("tab; 1; 4; type \"Zeta\"; enter; enter; backspace; backspace; backspace; backspace; enter; esc; tab; tab; 1", json!({"feat":{"values":["a"],"labels":["Alpha"],"indices":[1]}}))]
#[case::contract_note_stores_question_level_note("shift+n; type \"depends on team\"; enter; shift+tab; 1", json!({"lang":{"values":[],"labels":[],"indices":[],"note":"depends on team"}}))]
#[case::contract_question_notes_may_exist_without_answer("tab; shift+n; type \"later\"; enter; tab; tab; 1", json!({"feat":{"values":[],"labels":[],"indices":[],"note":"later"}}))]
#[case::contract_option_notes_only_for_selected_options("tab; n; type \"on a\"; enter; down; n; type \"on b\"; enter; space; tab; tab; 1", json!({"feat":{"values":["b"],"labels":["Beta"],"indices":[2],"optionNotes":{"b":"on b"}}}))]
#[case::d10_notes_on_unselected_options_alone_give_no_entry("n; type \"hmm\"; enter; shift+tab; 1", json!({}))]
#[case::d18_option_notes_survive_deselection("tab; 1; n; type \"keep\"; enter; space; space; tab; tab; 1", json!({"feat":{"values":["a"],"labels":["Alpha"],"indices":[1],"optionNotes":{"a":"keep"}}}))]
#[case::d28_paste_keeps_newlines_and_crlf_becomes_lf("4; paste \"line one\\r\\nline two\"; enter; tab; tab; 1", json!({"lang":{"values":["line one\nline two"],"labels":["line one\nline two"],"indices":[],"customText":"line one\nline two"}}))]
#[case::d28_alt_enter_inserts_newline("4; type \"a\"; alt+enter; type \"b\"; enter; tab; tab; 1", json!({"lang":{"values":["a\nb"],"labels":["a\nb"],"indices":[],"customText":"a\nb"}}))]
#[case::contract_paste_outside_editor_becomes_free_form_answer("paste \"pasted\"; enter; tab; tab; 1", json!({"lang":{"values":["pasted"],"labels":["pasted"],"indices":[],"customText":"pasted"}}))]
#[case::d9_preview_enter_selects_and_advances("tab; tab; down; enter; 1", json!({"view":{"values":["y"],"labels":["Why"],"indices":[2]}}))]
#[case::d8_cancelled_result_keeps_committed_answers("1; esc; esc", json!({"lang":{"values":["rust"],"labels":["Rust"],"indices":[1]}}))]
#[case::d24_dismiss_does_not_save_the_open_draft("4; type \"draft\"; ctrl+c; ctrl+c", json!({}))]
#[case::editor_grapheme_backspace("4; type \"ae\\u0301\"; backspace; enter; tab; tab; 1", json!({"lang":{"values":["a"],"labels":["a"],"indices":[],"customText":"a"}}))]
#[case::editor_cursor_moves_and_inserts("4; type \"ac\"; left; type \"b\"; home; type \">\"; enter; tab; tab; 1", json!({"lang":{"values":[">abc"],"labels":[">abc"],"indices":[],"customText":">abc"}}))]
fn answers_table(#[case] steps: &str, #[case] expected: Value) {
    assert_eq!(answers(steps), expected, "steps: {steps}");
}
