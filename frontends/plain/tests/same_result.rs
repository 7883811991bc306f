//! Issue 13.4: the plain frontend gives the result a terminal run of the same answers gives, on
//! every example payload. Both sides fold the same engine: the plain side through its typed
//! lines, the terminal side through the keys of a `--script`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_engine::parse_script;
use common::{opened, plain};
use rstest::rstest;

fn terminal(example: &str, script: &str) -> serde_json::Value {
    let mut state = opened(example);
    for step in parse_script(script).unwrap() {
        for e in step.events(state.settings()).unwrap() {
            state.apply(&e);
        }
    }
    serde_json::to_value(state.result().expect("the script completes the form")).unwrap()
}

#[rstest]
#[case::project_setup_with_notes_and_own_answer(
    "project-setup.json",
    &["1", "n 1 needs a collector", "1,3", "t Zig", "1"],
    "1\nn\ntype \"needs a collector\"\nenter\n1\n3\nenter\n3\ntype \"Zig\"\nenter\nenter"
)]
#[case::project_setup_elaborated(
    "project-setup.json",
    &["2", "N why not rust?", "s", "2", "2"],
    "2\nshift+n\ntype \"why not rust?\"\nenter\ntab\n2\ndown\nenter"
)]
#[case::multi_targets("multi-targets.json", &["1,2,4", "1"], "1\n2\n4\nenter\nenter")]
#[case::multi_targets_own_answer("multi-targets.json", &["t FreeBSD", "1"], "5\ntype \"FreeBSD\"\nenter\ntab\nenter")]
#[case::preview_layout("preview-layout.json", &["2", "1"], "2\nenter")]
#[case::single_database_changed_mind("single-database.json", &["1", "b", "3", "1"], "1\nshift+tab\n3\nenter")]
#[case::single_database_cancelled("single-database.json", &["2", "q", "q"], "2\nesc\nesc")]
fn spec13_4_the_plain_result_equals_the_terminal_result(
    #[case] example: &str,
    #[case] lines: &[&str],
    #[case] script: &str,
) {
    let (result, said) = plain(example, lines);
    assert_eq!(result, terminal(example, script), "said:\n{said}");
}
