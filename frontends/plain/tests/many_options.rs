//! A line on a question of many options: the keys it becomes grow with the list, not with the
//! list times the rows it changes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_plain::commands::{Command, events, parse};
use common::opened_on;
use serde_json::json;

#[test]
fn choosing_many_rows_of_a_long_multi_question_is_one_pass_down_the_list() {
    let options: Vec<_> =
        (1..=2000).map(|i| json!({"value": format!("v{i}"), "label": format!("L{i}")})).collect();
    let mut state =
        opened_on(&json!({"questions":[{"id":"m","type":"multi","prompt":"Which?","options":options}]}));
    // Rows 3 and 1500 are selected first, so the line below both clears and sets rows.
    for e in events(&parse("3,1500").unwrap(), &state).unwrap() {
        state.apply(&e);
    }
    assert!(state.questions()[0].is_selected(2) && state.questions()[0].is_selected(1499));
    state.apply(&ask_engine::Event::key(ask_engine::KeyPress::parse("shift+tab").unwrap()));
    let command = parse(&(1001..=2000).map(|n| n.to_string()).collect::<Vec<_>>().join(",")).unwrap();
    assert!(matches!(&command, Command::Choose(n) if n.len() == 1000));
    let keys = events(&command, &state).unwrap();
    // Home, one pass down the list (a page at a time across the 998 rows to the first of the
    // thousand: 99 PageDowns and 8 Downs), one Down between neighbours, 1 000 toggles and Tab.
    // Before, each toggled row was reached from the top: about 1.5 million keys.
    assert!(keys.len() < 2_150, "{} keys", keys.len());
    for e in &keys {
        state.apply(e);
    }
    let qs = &state.questions()[0];
    let selected: Vec<usize> = (0..2000).filter(|&i| qs.is_selected(i)).collect();
    assert_eq!(selected, (1000..2000).collect::<Vec<_>>());
}

/// A choice far down a list goes there a page at a time; on a question with previews, where
/// PageDown scrolls the preview instead, a row at a time.
#[rstest::rstest]
#[case::single_without_previews("single", 2000, 210)]
#[case::near_a_page_boundary("single", 1991, 210)]
#[case::with_previews("preview", 30, 32)]
fn choosing_a_row_far_down_the_list(#[case] kind: &str, #[case] n: usize, #[case] most_keys: usize) {
    let options: Vec<_> = (1..=n.max(30))
        .map(|i| json!({"value": format!("v{i}"), "label": format!("L{i}"), "preview": format!("P{i}")}))
        .collect();
    let mut state =
        opened_on(&json!({"questions":[{"id":"q","type":kind,"prompt":"Which?","options":options}]}));
    let keys = events(&parse(&n.to_string()).unwrap(), &state).unwrap();
    assert!(keys.len() <= most_keys, "{} keys", keys.len());
    for e in &keys {
        state.apply(e);
    }
    let chosen: Vec<usize> = state.questions()[0].selected_indices().collect();
    assert_eq!(chosen, [n - 1]);
}
