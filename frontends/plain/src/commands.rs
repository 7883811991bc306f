//! A typed line → the engine events a person would make with keys. Nothing here decides what
//! an answer means: the line is turned into the same `KeyPressed` events the terminal frontend
//! sends (with the configured keymaps), and the engine folds them.

use ask_engine::{EditorTarget, Event, FlowState, KeyCode, KeyPress, Modifiers};
use ask_schema::QuestionType;

/// What a line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `2` or `1,3`: choose these rows (declared numbers).
    Choose(Vec<usize>),
    /// `t text`: your own answer.
    Own(String),
    /// `n 2 text`: a note on option 2 (empty text deletes it).
    OptionNote(usize, String),
    /// `N text`: the question note (empty text deletes it).
    QuestionNote(String),
    /// `b`: the previous tab.
    Back,
    /// `s`: the next tab, leaving this one as it is.
    Skip,
    /// `r`: the review tab.
    Review,
    /// `q`: cancel the form (twice when answers would be lost).
    Cancel,
    /// `h` or `?`: the commands.
    Help,
    /// `p 2`: option 2's whole preview, read out (changes nothing).
    Preview(usize),
}

/// Parses a line; `Err` says in words what is wrong.
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match head {
        "b" if rest.is_empty() => Ok(Command::Back),
        "s" if rest.is_empty() => Ok(Command::Skip),
        "r" if rest.is_empty() => Ok(Command::Review),
        "q" if rest.is_empty() => Ok(Command::Cancel),
        "h" | "?" | "help" if rest.is_empty() => Ok(Command::Help),
        "t" if !rest.is_empty() => Ok(Command::Own(rest.to_owned())),
        "t" => Err("t needs your answer after it: t, a space and your text.".to_owned()),
        "N" => Ok(Command::QuestionNote(rest.to_owned())),
        "p" => {
            rest.parse().map(Command::Preview).map_err(|_| "p needs an option number, as in p 2.".to_owned())
        }
        "n" => {
            let (number, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let n =
                number.parse().map_err(|_| format!("n needs an option number first, as in n 2 {text}"))?;
            Ok(Command::OptionNote(n, text.trim().to_owned()))
        }
        _ => {
            let numbers: Result<Vec<usize>, _> =
                line.split([',', ' ']).filter(|p| !p.is_empty()).map(str::parse).collect();
            match numbers {
                Ok(n) if !n.is_empty() => Ok(Command::Choose(n)),
                _ => Err(format!("Not understood: {line}. Type h for the commands.")),
            }
        }
    }
}

fn key(code: KeyCode) -> Event {
    Event::key(KeyPress::plain(code))
}

/// The events for `command` in `state`; `Err` says why it cannot be done there.
pub fn events(command: &Command, state: &FlowState) -> Result<Vec<Event>, String> {
    let km = state.settings().keymaps;
    let mut out = Vec::new();
    let typed = |out: &mut Vec<Event>, text: &str| {
        // Whatever the editor held goes first (ctrl+u clears to the start of its line).
        out.push(Event::key(KeyPress::new(KeyCode::Char('u'), Modifiers::CTRL)));
        out.extend(text.chars().map(|c| Event::key(KeyPress::plain(KeyCode::Char(c)))));
        out.push(Event::key(km.confirm));
    };
    if state.on_review() {
        return match command {
            Command::Choose(n) if n.len() == 1 && (1..=3).contains(&n[0]) => {
                // Up to Submit, down to the action, confirm: one line is already deliberate,
                // so the double-press guard of the digit shortcuts is not needed.
                out.extend([key(KeyCode::Up), key(KeyCode::Up)]);
                out.extend((1..n[0]).map(|_| key(KeyCode::Down)));
                out.push(Event::key(km.confirm));
                Ok(out)
            }
            Command::Back => Ok(vec![Event::key(KeyPress::new(KeyCode::Tab, Modifiers::SHIFT))]),
            Command::Cancel => Ok(vec![Event::key(km.cancel)]),
            Command::Help | Command::Preview(_) => Ok(out),
            _ => Err("On the review: 1 submit, 2 elaborate, 3 cancel, b back.".into()),
        };
    }
    let Some((q, qs)) = state.current() else { return Err("No question is showing.".into()) };
    // `n` rows down without selecting anything on the way: a page at a time where PageDown
    // pages the list (it scrolls a preview instead).
    let paged = state.pages_options();
    let down = |out: &mut Vec<Event>, n: usize| {
        let (pages, rest) = if paged { (n / ask_engine::PAGE, n % ask_engine::PAGE) } else { (0, n) };
        out.extend((0..pages).map(|_| key(KeyCode::PageDown)));
        out.extend((0..rest).map(|_| key(KeyCode::Down)));
    };
    // From any row to row `n` (0-based).
    let go_to = |out: &mut Vec<Event>, n: usize| {
        out.push(key(KeyCode::Home));
        down(out, n);
    };
    let rows = q.declared_rows();
    let check = |n: usize| {
        if (1..=rows).contains(&n) {
            Ok(())
        } else if rows == 0 {
            Err("This question takes your own answer only: t and your text.".to_owned())
        } else if n == rows + 1 {
            // The custom row is listed with this number: say how to use it.
            Err(format!("{n} is your own answer: type t, a space and your text."))
        } else {
            Err(format!("There is no option {n}; the options are 1 to {rows}."))
        }
    };
    // An open editor takes typed keys: leave it first (saving its draft, as Esc does), unless
    // the line is the answer that editor is for.
    let answering = matches!(command, Command::Own(_))
        && state.editor().is_some_and(|e| e.target == EditorTarget::Answer);
    if state.editor().is_some() && !answering {
        out.push(Event::key(km.cancel));
    }
    match command {
        Command::Choose(numbers) => {
            numbers.iter().try_for_each(|&n| check(n))?;
            if q.kind == QuestionType::Multi {
                // The selection becomes exactly these rows, then the next tab. The rows to
                // toggle are visited top to bottom, each from the last: one pass down the list,
                // however many change.
                let wanted: std::collections::HashSet<usize> = numbers.iter().map(|n| n - 1).collect();
                let mut at = None;
                for i in 0..rows {
                    if qs.is_selected(i) != wanted.contains(&i) {
                        match at {
                            None => go_to(&mut out, i),
                            Some(from) => down(&mut out, i - from),
                        }
                        at = Some(i);
                        out.push(Event::key(km.toggle));
                    }
                }
                out.push(key(KeyCode::Tab));
            } else {
                let [n] = numbers[..] else { return Err("Choose one option: a single number.".into()) };
                go_to(&mut out, n - 1);
                out.push(Event::key(km.confirm));
            }
        }
        Command::Own(text) => {
            // To the custom row: landing there opens its editor when it is empty; confirm opens
            // it when it holds text or the cursor is there already.
            if !answering {
                if state.cursor() == rows {
                    out.push(Event::key(km.confirm));
                } else {
                    out.push(key(KeyCode::End));
                    if !qs.custom_text().is_empty() {
                        out.push(Event::key(km.confirm));
                    }
                }
            }
            typed(&mut out, text);
            if q.kind == QuestionType::Multi {
                out.push(key(KeyCode::Tab));
            }
        }
        Command::OptionNote(n, text) => {
            check(*n)?;
            go_to(&mut out, n - 1);
            out.push(Event::key(km.option_note));
            typed(&mut out, text);
        }
        Command::QuestionNote(text) => {
            out.push(Event::key(km.question_note));
            typed(&mut out, text);
        }
        Command::Back => out.push(Event::key(KeyPress::new(KeyCode::Tab, Modifiers::SHIFT))),
        Command::Skip => out.push(key(KeyCode::Tab)),
        Command::Review => {
            let tabs = state.form().questions.len() - state.tab();
            out.extend((0..tabs).map(|_| key(KeyCode::Tab)));
        }
        Command::Cancel => out.push(Event::key(km.cancel)),
        Command::Help | Command::Preview(_) => {}
    }
    Ok(out)
}
