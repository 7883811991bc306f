//! File references in editors: `@` asks for paths as the query grows, the offered paths are
//! chosen with the arrows and inserted with Tab or confirm (the contract's `@` completion).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::{Event, KeyPress, Settings};
use common::run3;
use rstest::rstest;

fn go(steps: &str) -> ask_engine::FlowState {
    run3(&steps.split(';').map(str::trim).collect::<Vec<_>>().join("\n"), Settings::default())
}

fn key(state: &mut ask_engine::FlowState, id: &str) -> ask_engine::Effects {
    state.apply(&Event::key(KeyPress::parse(id).unwrap()))
}

fn typed(state: &mut ask_engine::FlowState, text: &str) -> Vec<String> {
    text.chars().filter_map(|c| state.apply(&Event::key(KeyPress::from_char(c))).complete_query).collect()
}

fn offer(state: &mut ask_engine::FlowState, query: &str) {
    let items = vec!["src/main.rs".to_owned(), "src/lib.rs".to_owned()];
    state.apply(&Event::CompletionsOffered { query: query.into(), items });
}

#[test]
fn contract_at_in_an_editor_asks_for_paths_as_the_query_grows() {
    let mut s = go("4");
    assert_eq!(typed(&mut s, "see @sr"), ["", "s", "sr"]);
    assert_eq!(typed(&mut s, " "), Vec::<String>::new(), "a space ends the reference");
    assert!(s.completion().is_none());
}

#[test]
fn offered_paths_are_chosen_with_arrows_and_inserted_with_tab() {
    let mut s = go("4");
    typed(&mut s, "see @sr");
    offer(&mut s, "sr");
    assert_eq!(s.completion().map(|c| c.items.len()), Some(2));
    key(&mut s, "down");
    key(&mut s, "tab");
    assert_eq!(s.editor().map(|e| e.buffer.text()), Some("see @src/lib.rs "));
    assert!(s.completion().is_none());
    typed(&mut s, "and");
    assert_eq!(s.editor().map(|e| e.buffer.text()), Some("see @src/lib.rs and"), "typing goes on after it");
}

/// Up and Down go round the list: Up from the first path is the last one.
#[rstest]
#[case::down_then_up("down; up", "@a.rs ")]
#[case::up_from_the_first("up", "@c.rs ")]
#[case::down_round_to_the_first("down; down; down", "@a.rs ")]
#[case::up_round_twice("up; up", "@b.rs ")]
fn arrows_go_round_the_offered_paths(#[case] keys: &str, #[case] inserted: &str) {
    let mut s = go("4");
    typed(&mut s, "@");
    let items = ["a.rs", "b.rs", "c.rs"].map(str::to_owned).to_vec();
    s.apply(&Event::CompletionsOffered { query: String::new(), items });
    for k in keys.split("; ") {
        key(&mut s, k);
    }
    key(&mut s, "tab");
    assert_eq!(s.editor().map(|e| e.buffer.text()), Some(inserted));
}

#[test]
fn typing_on_while_paths_are_offered_goes_into_the_editor() {
    let mut s = go("4");
    typed(&mut s, "@sr");
    offer(&mut s, "sr");
    assert_eq!(typed(&mut s, "c"), ["src"], "the query grows");
    assert_eq!(s.editor().map(|e| e.buffer.text()), Some("@src"));
}

#[test]
fn confirm_inserts_the_path_instead_of_submitting() {
    let mut s = go("4");
    typed(&mut s, "@m");
    offer(&mut s, "m");
    key(&mut s, "enter");
    assert_eq!((s.tab(), s.editor().map(|e| e.buffer.text())), (0, Some("@src/main.rs ")));
    key(&mut s, "enter");
    assert_eq!(s.tab(), 1, "the next Enter submits");
    assert_eq!(s.questions()[0].custom_text(), "@src/main.rs");
}

#[test]
fn stale_offers_are_ignored_and_cancel_closes_only_the_list() {
    let mut s = go("shift+n");
    typed(&mut s, "@ab");
    offer(&mut s, "a");
    assert!(s.completion().is_some_and(|c| c.items.is_empty()), "offer for an older query");
    offer(&mut s, "ab");
    key(&mut s, "esc");
    assert!(s.completion().is_none());
    assert_eq!(s.editor().map(|e| e.buffer.text()), Some("@ab"), "the note editor stays open");
}
