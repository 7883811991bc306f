//! The keys inside an editor (D28): characters, deletion, movement by character, word and line,
//! the readline bindings, and newlines. Each case starts from `alpha beta gamma` with the
//! cursor at its end, presses its keys, and types `|` to show where the cursor was left.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::editor::Breaks;
use ask_engine::{Event, Settings};
use common::run3;
use rstest::rstest;

fn edited(keys: &str) -> String {
    let keys: Vec<&str> = keys.split(';').map(str::trim).collect();
    let script = format!("4\ntype \"alpha beta gamma\"\n{}\ntype \"|\"", keys.join("\n"));
    let state = run3(&script, Settings::default());
    state.editor().expect("the answer editor is open").buffer.text().to_owned()
}

#[rstest]
#[case::backspace("backspace", "alpha beta gamm|")]
#[case::alt_backspace_deletes_a_word("alt+backspace", "alpha beta |")]
#[case::ctrl_backspace_deletes_a_word("ctrl+backspace", "alpha beta |")]
#[case::ctrl_w_deletes_a_word("ctrl+w", "alpha beta |")]
#[case::ctrl_u_deletes_to_the_line_start("ctrl+u", "|")]
#[case::delete_at_the_start("home; delete", "|lpha beta gamma")]
#[case::left("left", "alpha beta gamm|a")]
#[case::right("home; right", "a|lpha beta gamma")]
#[case::alt_left_a_word_back("alt+left", "alpha beta |gamma")]
#[case::ctrl_left_a_word_back("ctrl+left", "alpha beta |gamma")]
#[case::alt_b_a_word_back("alt+b", "alpha beta |gamma")]
#[case::alt_right_a_word_on("home; alt+right", "alpha| beta gamma")]
#[case::ctrl_right_a_word_on("home; ctrl+right", "alpha| beta gamma")]
#[case::alt_f_a_word_on("home; alt+f", "alpha| beta gamma")]
#[case::home_and_end("home; end", "alpha beta gamma|")]
#[case::ctrl_a_and_ctrl_e("ctrl+a; ctrl+e; left; ctrl+a", "|alpha beta gamma")]
#[case::ctrl_e("home; ctrl+e", "alpha beta gamma|")]
#[case::alt_enter_is_a_newline("alt+enter", "alpha beta gamma\n|")]
#[case::shift_enter_is_a_newline_too("shift+enter", "alpha beta gamma\n|")]
#[case::shift_adds_nothing_to_backspace("shift+backspace", "alpha beta gamm|")]
#[case::shift_adds_nothing_to_delete("home; shift+delete", "|lpha beta gamma")]
#[case::shift_adds_nothing_to_arrows("shift+left; shift+left; shift+right", "alpha beta gamm|a")]
#[case::shift_adds_nothing_to_home_and_end("shift+home; shift+end; shift+home", "|alpha beta gamma")]
#[case::other_modifiers_do_nothing(
    "alt+left; ctrl+alt+left; ctrl+alt+right; ctrl+alt+backspace; alt+home; ctrl+end; ctrl+delete; alt+x; \
     alt+a; alt+e; alt+w; alt+u; ctrl+b; ctrl+f",
    "alpha beta |gamma"
)]
fn d28_editing_keys(#[case] keys: &str, #[case] text: &str) {
    assert_eq!(edited(keys), text);
}

/// Up and Down move between the lines of a multi-line text, keeping the column.
#[rstest]
#[case::up("alt+enter; type \"one\"; up", "alp|ha beta gamma\none")]
#[case::up_then_down("alt+enter; type \"one two\"; up; left; down", "alpha beta gamma\none tw|o")]
#[case::shift_up("alt+enter; type \"one\"; shift+up", "alp|ha beta gamma\none")]
fn d28_up_and_down_move_between_lines(#[case] keys: &str, #[case] text: &str) {
    assert_eq!(edited(keys), text);
}

/// D28 and the log: Up moves by the rows as they were drawn, broken by the rule recorded with
/// the width, so a log written before the editor broke rows at spaces replays to the same
/// answer. "press Ctrl+C now to stop" at 10 cells: by words "press Ctrl" / "+C now to " /
/// "stop", at spaces "press " / "Ctrl+C now" / "to stop"; Up from the end keeps the column.
#[rstest]
#[case::by_words_as_older_logs(Breaks::Words, "press Ctrl+C n|ow to stop")]
#[case::at_spaces(Breaks::Spaces, "press Ctrl+C |now to stop")]
fn d28_up_moves_by_the_rows_of_the_rule_the_log_recorded(#[case] breaks: Breaks, #[case] text: &str) {
    let mut state = run3("4\ntype \"press Ctrl+C now to stop\"", Settings::default());
    state.apply(&Event::EditorWrapped { width: 10, breaks });
    for step in ask_engine::parse_script("up\ntype \"|\"").unwrap() {
        for e in step.events(state.settings()).unwrap() {
            state.apply(&e);
        }
    }
    assert_eq!(state.editor().expect("the answer editor is open").buffer.text(), text);
}
