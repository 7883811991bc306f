//! Scrolling in the real binary in a pseudo-terminal: paging the review summary and a preview
//! past their ends and back, and what the log records about where they were drawn.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::Sandbox;
use common::pty::Pty;
use serde_json::json;

const CTRL_C: &str = "\x03";
const PAGE_DOWN: &str = "\x1b[6~";
const PAGE_UP: &str = "\x1b[5~";

/// Eight questions with answers long enough to wrap (shared with the screen tests).
const LONG_ANSWERS: &str = include_str!("../fixtures/payloads/long-answers.json");
/// A 45-line preview, every seventh line long enough to wrap (shared with the screen tests).
const WRAPPING_PREVIEW: &str = include_str!("../fixtures/payloads/wrapping-preview.json");

/// PageDown pressed past the end of the review summary, then PageUp: the first PageUp moves the
/// summary. The frame that drew the summary at its end recorded so in the log (the engine
/// cannot know how many lines the summary takes at the terminal's width), and the flow's
/// result is unchanged by it.
#[test]
fn paging_up_after_paging_down_past_the_summary_end_moves_at_once() {
    let sb = Sandbox::new();
    let mut pty = Pty::ask(&sb, LONG_ANSWERS, 100, 12, &[], "Pick 1?");
    for i in 1..=8 {
        pty.wait_for(&format!("Pick {i}?"));
        pty.send("1");
    }
    pty.wait_for("Ready to send?");
    for _ in 0..6 {
        pty.send(PAGE_DOWN);
    }
    let end = pty.wait_for("more · PgUp");
    assert!(!end.contains("more · PgDn"), "six pages down is past the end:\n{end}");
    pty.send(PAGE_UP);
    let up = pty.wait_for_within("more · PgDn", std::time::Duration::from_secs(3));
    assert_ne!(up, end);
    pty.send("1");
    pty.send("1");
    assert_eq!(pty.wait_exit(), 0);
    assert_eq!(sb.out()["details"]["answers"]["q8"]["values"], json!(["a"]));
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    let log = sb.run(&["log", "show", &id]).stdout;
    assert!(log.contains("review summary drawn at its end"), "{log}");
    let exported = sb.path("flow.jsonl");
    assert_eq!(sb.run(&["log", "export", &id, "-o", exported.to_str().unwrap()]).code, 0);
    assert!(
        std::fs::read_to_string(&exported)
            .unwrap()
            .contains(r#"{"type":"SummaryClamped","edge":"end","v":4}"#)
    );
    let replayed = sb.run(&["log", "replay", exported.to_str().unwrap()]);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    assert_eq!(replayed.json(), sb.out(), "the replayed result is the live one");
}

/// A preview whose lines wrap, paged down past its end in the real binary: its last line is
/// reached (the scroll position counts the preview's lines, not rows), and the first PageUp
/// after the extra PageDowns moves the pane, because the frame that filled the last page from
/// above recorded the line it was drawn from.
#[test]
fn a_wrapped_preview_pages_to_its_end_and_back_at_once() {
    let sb = Sandbox::new();
    // A pane of about forty rows: its last page starts more than a PageUp above the end.
    let mut pty = Pty::ask(&sb, WRAPPING_PREVIEW, 80, 50, &[], "Which?");
    for _ in 0..8 {
        pty.send(PAGE_DOWN);
    }
    let end = pty.wait_for("end45");
    assert!(!end.contains("PgDn"), "the last page:\n{end}");
    pty.send(PAGE_UP);
    let up = pty.wait_for_within("PgUp/PgDn", std::time::Duration::from_secs(3));
    assert!(!up.contains("end45"), "{up}");
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    let log = sb.run(&["log", "show", &id]).stdout;
    assert!(log.contains("preview drawn at its last page: scrolled back to line"), "{log}");
}
