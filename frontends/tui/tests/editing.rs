//! An open editor as a person uses it: text wrapped into rows, and Up and Down moving between
//! those rows, with the frames driven as the live terminal draws them (a frame records the
//! editor's width, which only the drawing knows).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::{drive_live, form};
use rstest::rstest;

const LONG: &str = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho";

/// The column (in characters) just past the text of the frame's row holding `needle`.
fn row_end(frame: &str, needle: &str) -> usize {
    frame.lines().find(|l| l.contains(needle)).unwrap().trim_end().chars().count()
}

/// D28: Up from the end of a wrapped answer goes to the row above at the same column, as
/// drawn; a letter typed there shows there. Down goes back to the last row. Before, Up went to
/// the start of the text, because the engine knew only the text's lines.
#[rstest]
fn up_and_down_move_between_the_rows_a_wrapped_answer_is_drawn_in(#[values(60, 80)] width: u16) {
    let typed = format!("4\ntype \"{LONG}\"");
    let (frames, recorded) = drive_live(&form(), &typed, width, 24);
    assert_eq!(recorded, 1, "the editor's width, once");
    let end = row_end(frames.last().unwrap(), "rho");
    let (frames, _) = drive_live(&form(), &format!("{typed}\nup\ntype \"X\""), width, 24);
    let up = frames.last().unwrap();
    let row = up.lines().find(|l| l.contains('X')).unwrap();
    assert!(row.contains("alpha"), "X is typed on the first row:\n{up}");
    assert_eq!(row.chars().position(|c| c == 'X').unwrap(), end, "at the column the cursor was in:\n{up}");
    let (frames, _) = drive_live(&form(), &format!("{typed}\nup\ndown\ntype \"Y\""), width, 24);
    assert!(
        frames.last().unwrap().contains("rhoY"),
        "Down goes back to the end:\n{}",
        frames.last().unwrap()
    );
}

/// A frame records the editor's width only when it differs from the one recorded: opening the
/// editor records it, typing records nothing more, and a note's editor (indented further)
/// records its own.
#[test]
fn an_editor_width_is_recorded_once_per_width() {
    let (_, recorded) = drive_live(&form(), &format!("4\ntype \"{LONG}\"\nbackspace\nleft"), 80, 24);
    assert_eq!(recorded, 1);
    let (_, recorded) =
        drive_live(&form(), &format!("4\ntype \"{LONG}\"\nenter\nshift+tab\nn\ntype \"x\""), 80, 24);
    assert_eq!(recorded, 2, "the answer's editor, then the option note's");
    let (_, recorded) = drive_live(&form(), "1\n1\n3\ntab\ntab", 80, 24);
    assert_eq!(recorded, 0, "no editor, nothing recorded");
}

/// A flow whose log recorded its editor's width with the older rule (rows broken at every word
/// boundary, as logs written before 2026-12-07 did) records the rule it is drawn with now at
/// its next frame, the width unchanged: from then on Up and Down move by the rows on screen.
#[test]
fn a_width_recorded_with_the_older_rule_is_recorded_again_with_the_rule_drawn() {
    use ask_engine::editor::Breaks;
    use std::sync::Arc;

    let mut state = common::opened(&form(), ask_schema::FormSource::Tool, 80, 24, vec![]);
    common::press(&mut state, "4\ntype \"x\"");
    let mut term = ask_tui::MemoryTerminal::new(80, 24, None);
    let drawn = term.render(&Arc::new(state.view()));
    let [ask_engine::Event::EditorWrapped { width, breaks: Breaks::Spaces }] = drawn[..] else {
        panic!("{drawn:?}")
    };
    state.apply(&ask_engine::Event::EditorWrapped { width, breaks: Breaks::Words });
    assert_eq!(
        term.render(&Arc::new(state.view())),
        [ask_engine::Event::EditorWrapped { width, breaks: Breaks::Spaces }]
    );
    state.apply(&ask_engine::Event::EditorWrapped { width, breaks: Breaks::Spaces });
    assert_eq!(term.render(&Arc::new(state.view())), []);
}

/// One frame can ask for more than one record: keys that page a preview past its end and open
/// a note's editor, read in one burst, are drawn once, and that frame returns both the
/// preview's clamp and the editor's width; once they are applied, drawing again asks for
/// nothing and shows the same screen.
#[test]
fn a_frame_returns_every_record_it_needs() {
    use std::sync::Arc;

    let raw: serde_json::Value =
        serde_json::from_str(include_str!("../../../tests/fixtures/payloads/wrapping-preview.json")).unwrap();
    let mut state = common::opened(&raw, ask_schema::FormSource::Tool, 80, 50, vec![]);
    common::press(&mut state, &format!("{}n", "pageDown\n".repeat(8)));
    let mut term = ask_tui::MemoryTerminal::new(80, 50, None);
    let drawn = term.render(&Arc::new(state.view()));
    let frame = ask_tui::buffer_text(term.buffer());
    assert!(
        matches!(
            drawn[..],
            [ask_engine::Event::EditorWrapped { .. }, ask_engine::Event::PreviewClamped { .. }]
        ),
        "{drawn:?}"
    );
    for event in &drawn {
        state.apply(event);
    }
    assert_eq!(term.render(&Arc::new(state.view())), []);
    assert_eq!(ask_tui::buffer_text(term.buffer()), frame);
}

/// A pasted log of 3 000 lines: a person moves to its middle and types there. The letter shows
/// where the cursor is, though the view carries only the lines near the cursor (not the whole
/// paste, on every key), and the saved answer still has every line.
#[test]
fn typing_in_the_middle_of_a_long_paste_shows_there_and_keeps_every_line() {
    use std::sync::Arc;

    use ask_engine::Event;
    use ask_engine::project::view::Body;

    let raw = serde_json::json!({"questions":[{"id":"log","label":"Log","prompt":"Paste the failing log",
        "options":[{"value":"none","label":"No log"}]}]});
    let mut state = common::opened(&raw, ask_schema::FormSource::Tool, 80, 24, vec![]);
    common::press(&mut state, "2");
    let paste: Vec<String> = (0..3000).map(|i| format!("line {i:05}")).collect();
    state.apply(&Event::TextPasted { text: paste.join("\n") });
    let mut term = ask_tui::MemoryTerminal::new(80, 24, None);
    for recorded in term.render(&Arc::new(state.view())) {
        state.apply(&recorded);
    }
    common::press(&mut state, &"up\n".repeat(1500));
    common::press(&mut state, "type \"X\"");
    let view = Arc::new(state.view());
    let frame = term.draw(&view);
    assert!(frame.contains("line 01499X"), "{frame}");
    assert!(frame.contains("line 01498\n"), "{frame}");
    let Body::Question(q) = &view.body else { panic!("{frame}") };
    let editor = q.rows.iter().find_map(|r| r.editor.as_ref()).expect("the answer's editor");
    assert!(editor.text.len() < paste.join("\n").len() * 3 / 4, "the view holds a window of the text");
    assert_eq!(&editor.text[editor.cursor - 11..editor.cursor], "line 01499X");
    common::press(&mut state, "enter\n1\n1");
    let result = state.result().expect("submitted");
    let text = result.text();
    for line in ["line 00000", "line 01499X", "line 02999"] {
        assert!(text.contains(line), "{line} is in the answer");
    }
    assert_eq!(text.matches("line ").count(), 3000);
}

/// The open editor's layout is kept from one frame to the next (laying it out is most of a
/// frame's cost). Every frame drawn with it kept equals the frame a fresh thread, where nothing
/// is kept, draws: as text is typed and deleted under a cursor that stays put, the cursor moves
/// back through a tall editor, and the terminal narrows and widens with the same text open.
#[test]
fn a_kept_editor_layout_never_shows_a_stale_frame() {
    let tall: Vec<String> = (1..=14).map(|i| format!("type \"row {i:02}\"\nalt+enter")).collect();
    let mut steps: Vec<(String, u16)> = vec![
        ("4".into(), 60),
        (format!("type \"{LONG}\""), 60),
        ("left\nleft\nleft".into(), 60),
        ("up".into(), 60),
        (String::new(), 40),
        ("type \"X\"".into(), 40),
        ("home".into(), 40),
        ("delete".into(), 40),
        ("delete".into(), 40),
        (String::new(), 60),
        ("end\nalt+enter".into(), 60),
    ];
    steps.extend(tall.into_iter().map(|s| (s, 60)));
    steps.extend((0..16).map(|_| ("up".to_owned(), 60)));
    steps.extend((0..16).map(|_| ("down".to_owned(), 60)));
    let mut script = String::new();
    for (step, width) in steps {
        script.push_str(&step);
        script.push('\n');
        let frame =
            move |script: &str| common::draw(&form(), ask_schema::FormSource::Tool, script, width, 16);
        let kept = frame(&script);
        let fresh = std::thread::scope(|s| s.spawn(|| frame(&script)).join().unwrap());
        assert_eq!(kept, fresh, "after {script:?} at {width} columns");
    }
}
