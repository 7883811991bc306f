//! Type-to-filter in the real binary in a pseudo-terminal (issue 12.7): a long list narrowed by
//! typed words, the words underlined where they lie, and the row chosen from the filtered list
//! answered by its declared index.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_schema::sample::{SampleText, options_payload};
use common::Sandbox;
use common::pty::Pty;
use serde_json::json;

const ENTER: &str = "\r";
const DOWN: &str = "\x1b[B";

#[test]
fn a_long_list_is_filtered_its_words_marked_and_the_chosen_row_keeps_its_index() {
    let sb = Sandbox::new();
    let mut pty = Pty::ask(&sb, &options_payload(15_000, SampleText::Repeated), 80, 24, &[], "Pick one");
    pty.send("/");
    pty.send("NUMBER 999");
    let screen = pty.wait_for("24 of 15000 options");
    assert!(screen.contains("/ NUMBER 999"), "the query as typed:\n{screen}");
    let marked = pty.underlined();
    assert!(
        marked.contains("1000. Option _number_ _999_\n"),
        "both words marked on the cursor row:\n{marked}"
    );
    assert!(marked.contains("2000. Option _number_ 1_999_\n"), "and on the rows under it:\n{marked}");
    pty.send(DOWN); // the row numbered 2000, the 2000th declared
    pty.send(ENTER); // keep the filter: keys go back to the rows
    pty.send(ENTER); // choose the row under the cursor
    pty.submit_on_the_review();
    assert_eq!(pty.wait_exit(), 0, "screen:\n{}", pty.screen());
    let answer = &sb.out()["details"]["answers"]["a"];
    assert_eq!((&answer["values"], &answer["indices"]), (&json!(["v1999"]), &json!([2000])), "{answer}");
}
