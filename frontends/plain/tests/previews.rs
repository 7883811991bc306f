//! Previews in the plain frontend: said line by line with the question (a config file or a code
//! sample keeps its shape when a screen reader speaks it line by line), the first ten lines
//! only, and `p` with the option's number reads one whole.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{answered, opened_on};
use serde_json::{Value, json};

fn form() -> Value {
    let long: Vec<String> = (1..=30).map(|i| format!("line {i}")).collect();
    json!({"questions":[
        {"id":"cfg","label":"Config","type":"preview","prompt":"How to configure?","options":[
            {"value":"env","label":"Env","preview":"A=1\n\nB=\u{1b}[31m2"},
            {"value":"big","label":"Big","preview":long.join("\n")}]},
        {"id":"d","label":"Plain","prompt":"Plain?","options":[{"value":"x","label":"X"}]}]})
}

#[test]
fn previews_are_said_line_by_line_up_to_ten_lines() {
    let (_, said) = answered(opened_on(&form()), &["q"]);
    // The blank line keeps its indent; the escape sequence is shown inert.
    let expected = "1. Env\n   Preview of 1, 3 lines:\n     A=1\n     \n     B= [31m2\n2. Big\n   Preview of 2, 30 lines:\n     line 1\n";
    assert!(said.contains(expected), "{said}");
    assert!(
        said.contains("     line 10\n   20 more lines of preview 2: p 2 reads it all.\n3. Type your own"),
        "{said}"
    );
    assert!(!said.contains("line 11"), "{said}");
}

/// Ten lines are said whole, with no line about more.
#[test]
fn a_preview_of_exactly_ten_lines_is_said_whole() {
    let ten: Vec<String> = (1..=10).map(|i| format!("line {i}")).collect();
    let form = json!({"questions":[{"id":"cfg","label":"Config","type":"preview","prompt":"How?","options":[
        {"value":"ten","label":"Ten","preview":ten.join("\n")}]}]});
    let (_, said) = answered(opened_on(&form), &["q"]);
    assert!(said.contains("   Preview of 1, 10 lines:\n"), "{said}");
    assert!(said.contains("     line 10\n2. Type your own"), "{said}");
    assert!(!said.contains("more lines"), "{said}");
}

#[test]
fn p_and_a_number_reads_a_whole_preview_and_changes_nothing() {
    let lines = ["p 2", "p 3", "p", "1", "p 1", "r", "p 1", "1"];
    let (result, said) = answered(opened_on(&form()), &lines);
    let whole: String = (1..=30).map(|i| format!("     line {i}\n")).collect();
    assert!(said.contains(&format!(">    Preview of 2, 30 lines:\n{whole}> ")), "{said}");
    for reply in [
        "> Option 3 has no preview.",
        "> p needs an option number, as in p 2.",
        "> Option 1 has no preview.",
        "> Previews are on the questions: b goes back.",
    ] {
        assert!(said.contains(reply), "{reply:?} in:\n{said}");
    }
    assert_eq!(result["details"]["answers"]["cfg"]["values"], json!(["env"]), "the reads chose nothing");
}

/// A preview of code keeps its indentation and inner spacing when said line by line (Python's
/// blocks mean something), a tab as four spaces; controls still come out as spaces.
#[test]
fn a_preview_keeps_its_indentation_and_spacing() {
    let code = "def f(x):\n    if x:\n\treturn  1\n  a\u{7}  b  ";
    let form = json!({"questions":[{"id":"c","label":"Code","type":"preview","prompt":"Which?","options":[
        {"value":"f","label":"F","preview":code}]}]});
    let (_, said) = answered(opened_on(&form), &["q"]);
    let expected =
        "   Preview of 1, 4 lines:\n     def f(x):\n         if x:\n         return  1\n       a   b\n";
    assert!(said.contains(expected), "{said}");
}
