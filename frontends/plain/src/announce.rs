//! What the plain frontend says: a question as numbered lines, the review as one line, and
//! after each command one line per change — the lines a screen reader speaks as they are
//! appended. Everything comes from the engine's state and projections; payload text is made
//! inert (no control characters reach the terminal).

use ask_engine::{FlowState, Outcome, ReviewAction};
use ask_schema::QuestionType;

/// Payload or typed text as it may be printed: controls become spaces, one line.
pub fn inert(text: &str) -> String {
    preview_line(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Preview lines said with the question; `p` and the number says the rest.
const PREVIEW_LINES: usize = 10;

/// Option `n`'s preview, a line for each of its lines (code and config keep their shape when
/// spoken line by line), at most `most` of them and then how many more there are.
fn preview(lines: &mut Vec<String>, n: usize, text: &str, most: usize) {
    let total = text.split('\n').count();
    lines.push(format!("   Preview of {n}, {total} {}:", if total == 1 { "line" } else { "lines" }));
    lines.extend(text.split('\n').take(most).map(|l| format!("     {}", preview_line(l))));
    if total > most {
        lines.push(format!("   {} more lines of preview {n}: p {n} reads it all.", total - most));
    }
}

/// A preview line as it may be printed: its indentation and inner spacing kept (Python's
/// blocks, a YAML file's nesting, an aligned mock-up), a tab as four spaces as the form shows
/// it, other controls as spaces. [`inert`] is this with the spacing collapsed.
fn preview_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' => out.push_str("    "),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// The whole preview of option `n` of the question showing (the `p` command).
pub fn whole_preview(state: &FlowState, n: usize) -> Result<Vec<String>, String> {
    let Some((q, _)) = state.current().filter(|_| !state.on_review()) else {
        return Err("Previews are on the questions: b goes back.".to_owned());
    };
    let Some(text) = q
        .options
        .get(n.wrapping_sub(1))
        .filter(|_| n <= q.declared_rows())
        .and_then(|o| o.preview.as_deref())
    else {
        return Err(format!("Option {n} has no preview."));
    };
    let mut lines = Vec::new();
    preview(&mut lines, n, text, usize::MAX);
    Ok(lines)
}

/// The commands, said once at the start and on `h`.
pub const HELP: &str = "Commands: a number chooses an option (numbers like 1,3 on a choose-any question); \
t and text gives your own answer; n, a number and text notes an option; N and text notes the question; \
p and a number reads a whole preview; s skips, b goes back, r goes to the review, q cancels, h repeats this.";

/// The lines that show where the form is now: the active question with its options, or the
/// review; or how it ended.
pub fn screen(state: &FlowState) -> Vec<String> {
    if let Some(outcome) = state.outcome() {
        return vec![ending(outcome).to_owned()];
    }
    if state.on_review() {
        return review(state);
    }
    let Some((q, qs)) = state.current() else { return Vec::new() };
    let n = state.form().questions.len();
    let how = match q.kind {
        _ if q.is_freeform() => "type your answer",
        QuestionType::Single => "choose one",
        QuestionType::Multi => "choose any",
        QuestionType::Preview => "choose one, each with a preview",
    };
    let mut lines = vec![format!(
        "Question {} of {n}, {}, {how}: {}",
        state.tab() + 1,
        inert(&q.label),
        inert(&q.prompt)
    )];
    if !qs.note().is_empty() {
        lines.push(format!("Your note: {}", inert(qs.note())));
    }
    for (i, o) in q.options.iter().enumerate().take(q.declared_rows()) {
        let mut line = format!("{}. {}", i + 1, inert(&o.label));
        if let Some(d) = &o.description {
            line.push_str(&format!(", {}", inert(d)));
        }
        if qs.is_selected(i) {
            line.push_str(", selected");
        }
        if !qs.option_note(i).is_empty() {
            line.push_str(&format!(", your note: {}", inert(qs.option_note(i))));
        }
        lines.push(line);
        if let Some(p) = &o.preview {
            preview(&mut lines, i + 1, p, PREVIEW_LINES);
        }
    }
    let own = if qs.custom_text().is_empty() {
        "your own answer: t and your text".to_owned()
    } else {
        let selected = if qs.custom_selected() { ", selected" } else { "" };
        format!("your own answer: {}{selected}", inert(qs.custom_text()))
    };
    lines.push(if q.is_freeform() {
        format!("Type {own}")
    } else {
        format!("{}. Type {own}", q.declared_rows() + 1)
    });
    lines
}

fn ending(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Submitted => "Submitted.",
        Outcome::Elaborated => "Sent: the agent is asked to elaborate.",
        Outcome::Cancelled => "Cancelled: nothing was sent.",
        Outcome::TimedOut => "Time ran out: what was answered is kept.",
    }
}

fn review(state: &FlowState) -> Vec<String> {
    let parts: Vec<String> = state
        .review_summary(ReviewAction::Submit)
        .iter()
        .map(|e| {
            let mut part = match &e.answer {
                Some(a) => format!("{}: {}", inert(&e.label), inert(a)),
                None => format!("{}: no answer", inert(&e.label)),
            };
            // The notes Submit sends with the answer, as the terminal's summary shows them.
            for note in &e.notes {
                part.push_str(&format!("; {}", inert(note)));
            }
            part
        })
        .collect();
    vec![
        format!("Review. {}.", parts.join(". ")),
        "1 submits, 2 asks the agent to elaborate on your notes, 3 cancels, b goes back.".to_owned(),
    ]
}

/// What changed between two states, one line each: answers and notes that changed, a warning
/// that appeared, then where the form is now if that moved.
pub fn changes(before: &FlowState, after: &FlowState) -> Vec<String> {
    let mut lines = Vec::new();
    let was = before.review_summary(ReviewAction::Elaborate);
    let now = after.review_summary(ReviewAction::Elaborate);
    for (b, a) in was.iter().zip(&now) {
        if b.answer != a.answer {
            match &a.answer {
                Some(answer) => lines.push(format!("{}: {}.", inert(&a.label), inert(answer))),
                None => lines.push(format!("{}: no answer.", inert(&a.label))),
            }
        }
        for note in a.notes.iter().filter(|n| !b.notes.contains(n)) {
            lines.push(format!("{}: {}.", inert(&a.label), inert(note)));
        }
        if a.notes.len() < b.notes.len() {
            lines.push(format!("{}: a note was removed.", inert(&a.label)));
        }
    }
    if after.warning().is_some() && before.warning() != after.warning() {
        lines.push(
            "You have answers or notes that would be lost. Type q again to cancel the form.".to_owned(),
        );
    }
    let moved = before.tab() != after.tab() || before.outcome() != after.outcome();
    if moved {
        lines.extend(screen(after));
    }
    lines
}
