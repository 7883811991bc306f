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
    // Home, one pass of 1 999 Downs at most, 1 002 toggles and Tab. Before, each toggled row was
    // reached from the top: about 1.5 million keys.
    assert!(keys.len() < 3_100, "{} keys", keys.len());
    for e in &keys {
        state.apply(e);
    }
    let qs = &state.questions()[0];
    let selected: Vec<usize> = (0..2000).filter(|&i| qs.is_selected(i)).collect();
    assert_eq!(selected, (1000..2000).collect::<Vec<_>>());
}
