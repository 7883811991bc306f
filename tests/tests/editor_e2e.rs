//! An open editor in the real binary in a pseudo-terminal: a tall one keeps its cursor on
//! screen, and Up and Down move between the rows long text is wrapped into.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::Sandbox;
use common::pty::Pty;

const CTRL_C: &str = "\x03";
const UP: &str = "\x1b[A";
const DOWN: &str = "\x1b[B";

const PROJECT_SETUP: &str = include_str!("../../examples/project-setup.json");

/// The real binary on `examples/project-setup.json` at `cols`×`rows`, its result to out.json.
fn project_setup(sb: &Sandbox, cols: u16, rows: u16) -> Pty {
    Pty::ask(sb, PROJECT_SETUP, cols, rows, &[], "Which language")
}

/// Fifteen lines typed into the answer editor of a 60×16 terminal: the terminal's cursor shows
/// on the last of them, at its end, and the text typed there is on screen (before, the editor
/// was drawn from its top and the cursor hidden below it).
#[test]
fn the_cursor_of_a_tall_editor_stays_on_screen() {
    let sb = Sandbox::new();
    let mut pty = project_setup(&sb, 60, 16);
    pty.send("4");
    pty.send("\r");
    for i in 1..=14 {
        pty.send(&format!("row {i:02}\x1b\r")); // Alt+Enter: a newline
    }
    pty.send("last");
    let screen = pty.wait_for("last");
    let ((row, col), shown) = pty.cursor();
    assert!(shown, "the cursor shows:\n{screen}");
    let line = screen.lines().nth(row as usize).unwrap_or_default();
    assert_eq!(line.trim_end(), "     last", "the cursor is on the line being typed:\n{screen}");
    assert_eq!(col, 9, "at its end");
    pty.send(CTRL_C);
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
}

/// D28: a long answer wrapped into rows at 80×24; Up from its end goes to the row above at the
/// same column, where a typed letter lands; Down goes back to the end. The submitted answer
/// holds the letters there, and the log holds the width the editor was drawn at (a version-5
/// line), so a replay of the exported log gives the same answer.
#[test]
fn up_and_down_move_between_the_rows_of_a_wrapped_answer() {
    let sb = Sandbox::new();
    let mut pty = project_setup(&sb, 80, 24);
    let long = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho";
    pty.send("4");
    pty.send("\r");
    pty.send(long);
    pty.wait_for("omicron pi rho");
    pty.send(UP);
    pty.send("X");
    pty.send(DOWN);
    pty.send("Y");
    pty.wait_for("rhoY");
    pty.send("\r"); // the answer, and on to the next question
    pty.wait_for("cross-cutting");
    pty.send(CTRL_C);
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
    // "omicron pi rho" is the second row: 14 cells, so X lands after "alpha beta gam".
    let answer = "alpha beta gamXma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rhoY";
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    let exported = sb.path("flow.jsonl");
    assert_eq!(sb.run(&["log", "export", &id, "-o", exported.to_str().unwrap()]).code, 0);
    let log = std::fs::read_to_string(&exported).unwrap();
    assert!(log.contains(r#"{"type":"EditorWrapped","width":75,"breaks":"spaces","v":6}"#), "{log}");
    let shown = sb.run(&["log", "show", &id]).stdout;
    assert!(shown.contains("editor drawn 75 cells wide, rows broken at spaces"), "{shown}");
    let replayed = sb.run(&["log", "replay", exported.to_str().unwrap()]);
    assert!(replayed.stdout.contains(answer), "{}{}", replayed.stdout, replayed.stderr);
}

/// The same keys in a headless `--script` at the same size give the same answer: the script's
/// keys are typed into a terminal drawn in memory, whose frames record the editor's width as a
/// live terminal's do.
#[test]
fn a_headless_script_moves_between_rows_as_the_terminal_does() {
    let sb = Sandbox::new();
    let example = sb.file("p.json", PROJECT_SETUP);
    let long = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho";
    let keys = sb.file(
        "keys",
        &format!("4\nenter\ntype \"{long}\"\nup\ntype \"X\"\ndown\ntype \"Y\"\nenter\nesc\nesc\n"),
    );
    let r =
        sb.run(&["ask", example.to_str().unwrap(), "--size", "80x24", "--script", keys.to_str().unwrap()]);
    assert_eq!(r.code, 1, "cancelled at the end: {}", r.stderr);
    let answer = "alpha beta gamXma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rhoY";
    assert_eq!(r.json()["details"]["answers"]["language"]["customText"], answer, "{}", r.stdout);
}

/// Spaces no key id names, typed in a terminal — an IME's ideographic space, macOS's
/// Option+Space (a no-break space) — are kept in the answer and read back from the log: such a
/// key made the flow's log unreadable, so `log list` failed for the whole store and the form
/// could not be resumed.
#[test]
fn an_answer_with_an_ideographic_or_no_break_space_reads_back() {
    let sb = Sandbox::new();
    let mut pty = project_setup(&sb, 80, 24);
    pty.send("4");
    pty.send("\r");
    pty.send("Rust\u{3000}or\u{a0}Go");
    pty.wait_for("Go");
    // Killed with the answer in its editor: every key is on disk, and `resume` goes on.
    pty.child.kill().unwrap();
    pty.child.wait().unwrap();
    let listed = sb.run(&["log", "list"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let id = listed.stdout.split_whitespace().next().unwrap().to_owned();
    let keys = sb.file("keys", "enter\ntab\ntab\n1\n1\n");
    let resumed = sb.run(&["resume", &id, "--script", keys.to_str().unwrap()]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(resumed.json()["details"]["answers"]["language"]["customText"], "Rust\u{3000}or\u{a0}Go");
}
