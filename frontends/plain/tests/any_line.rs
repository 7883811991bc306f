//! Whatever a person types in the plain frontend — numbers out of range, commands without their
//! text, notes on options that do not exist, lines of nothing — it answers in words and goes on;
//! never a panic, and a form that ends gives a result like any other.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_plain::{Ended, run};
use ask_schema::sample::Stream;
use common::{Memory, opened};

#[rustfmt::skip]
const LINES: &[&str] = &[
    "1", "2", "3", "4", "5", "9", "0", "-1", "1,2", "2 3", "1,,3", "3,1", "1,1", "99999999999999999999999",
    "t", "t my own", "t  ", "n", "n 2", "n 2 a note", "n 0 x", "n 99 x", "n x y", "N", "N a question note",
    "b", "s", "r", "h", "?", "help", "p", "p 1", "p 3", "p 0", "p x", "", " ", "é", "\u{1b}[A", "q",
];

#[test]
fn any_lines_are_answered_without_a_panic() {
    let mut s = Stream::new(0x51_7CC1_B727_220A);
    for example in ["project-setup.json", "multi-targets.json", "preview-layout.json", "single-database.json"]
    {
        for _ in 0..150 {
            let lines: Vec<&str> = (0..1 + s.below(30)).map(|_| LINES[s.below(LINES.len())]).collect();
            let mut flow = Memory(opened(example));
            let mut said = Vec::new();
            let input = std::io::Cursor::new(lines.join("\n").into_bytes());
            let ended = run(input, &mut said, &mut flow, None).unwrap();
            let said = String::from_utf8(said).unwrap();
            match ended {
                Ended::Completed => {
                    let result = flow.0.result().expect("a completed flow has a result");
                    assert!(!result.content.is_empty(), "{lines:?}");
                }
                Ended::InputClosed => {
                    assert!(flow.0.outcome().is_none(), "{lines:?}");
                    // Every line was read and answered: a prompt came before each.
                    assert!(said.matches("> ").count() >= lines.len(), "{lines:?}\n{said}");
                }
            }
        }
    }
}

/// A line that is not UTF-8 is said to be so and dropped; the lines after it are read as usual
/// (it used to end the whole form with "stream did not contain valid UTF-8").
#[test]
fn a_line_that_is_not_utf8_is_dropped_and_the_form_goes_on() {
    let mut flow = Memory(opened("single-database.json"));
    let mut said = Vec::new();
    let input = std::io::Cursor::new(b"\xff\xfe caf\xe9\n2\nr\n1\n".to_vec());
    let ended = run(input, &mut said, &mut flow, None).unwrap();
    let said = String::from_utf8(said).unwrap();
    assert_eq!(ended, Ended::Completed, "{said}");
    assert!(
        said.contains("> That line is not UTF-8 text, so nothing was done; type it again.\n> "),
        "{said}"
    );
    let result = flow.0.result().expect("submitted");
    assert_eq!(result.details.answers["database"].values, ["sqlite"], "{said}");
}
