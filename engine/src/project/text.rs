//! Result text: what the agent reads in `content` (SPEC §4). No trailing newline (D27).

use ask_schema::{
    Answer, Details, Draft, DraftKind, ElaborationItem, Form, Issue, Mode, Question, QuestionType, Target,
};

/// The text of a cancelled result.
pub const CANCELLED_TEXT: &str = "User cancelled the ask_user flow without submitting answers.";
/// The text of a submit with nothing to report.
pub const EMPTY_SUBMIT_TEXT: &str = "User submitted the form without answering any question.";
/// The text of an elaborate with neither notes nor answers.
pub const EMPTY_ELABORATE_TEXT: &str =
    "User asked to elaborate without adding notes or answering any question.";
/// The first line of an invalid-payload result.
pub const INVALID_HEADER: &str = "Invalid ask_user payload:";

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// The first line of a timed-out result; what was saved follows, then how to resume.
pub const TIMED_OUT_TEXT: &str =
    "The user did not finish the ask_user form in time: it closed when its timeout ran out.";

/// The result text for completed `details`.
pub fn result_text(questions: &[Question], details: &Details) -> String {
    if details.timed_out {
        // What was saved so far, so the agent can go on with it or ask again (issue 13.1).
        let lines = submit_lines(questions, details);
        let mut text = TIMED_OUT_TEXT.to_owned();
        if lines.is_empty() {
            text.push_str("\nNothing was answered.");
        } else {
            text.push_str("\nAnswered so far:\n");
            text.push_str(&lines.join("\n"));
        }
        if let Some(draft) = &details.draft {
            text.push_str(&format!(
                "\nBeing typed when it closed, not saved: {}",
                draft_line(questions, draft)
            ));
        }
        text.push_str("\nEvery keystroke is kept: ");
        match &details.flow_id {
            Some(id) => text.push_str(&format!("`ask-user resume {id}` reopens the form where it stopped.")),
            None => text.push_str("resuming the flow reopens the form where it stopped."),
        }
        return text;
    }
    if details.cancelled {
        return CANCELLED_TEXT.to_owned();
    }
    let lines = match details.mode {
        Mode::Submit => submit_lines(questions, details),
        Mode::Elaborate => elaborate_lines(questions, details),
    };
    if lines.is_empty() {
        let empty = if details.mode == Mode::Submit { EMPTY_SUBMIT_TEXT } else { EMPTY_ELABORATE_TEXT };
        return empty.to_owned();
    }
    lines.join("\n")
}

/// `Database: "use postgres because"`, or what the draft was a note on.
fn draft_line(questions: &[Question], draft: &Draft) -> String {
    let Some(q) = questions.iter().find(|q| q.id == draft.question_id) else {
        return quoted(&draft.text);
    };
    let what = match (draft.kind, &draft.option_value) {
        (DraftKind::Answer, _) => String::new(),
        (DraftKind::QuestionNote, _) => " note".to_owned(),
        (DraftKind::OptionNote, Some(value)) => {
            let label =
                q.options.iter().find(|o| o.value.as_str() == value).map_or(value.as_str(), |o| &o.label);
            format!(" note on {}", quoted(label))
        }
        (DraftKind::OptionNote, None) => " option note".to_owned(),
    };
    format!("{}{what}: {}", q.label, quoted(&draft.text))
}

fn submit_lines(questions: &[Question], details: &Details) -> Vec<String> {
    let mut lines = Vec::new();
    for q in questions {
        let Some(a) = details.answers.get(&q.id) else { continue };
        if !a.labels.is_empty() {
            lines.push(format!("{}: {}", q.label, a.labels.join(", ")));
        }
        lines.extend(note_lines(q, a, ""));
    }
    lines
}

/// `<Label> note: …` and `<Label> / <Option> note: …` lines, each prefixed by `indent`.
pub(crate) fn note_lines(q: &Question, a: &Answer, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(note) = &a.note {
        lines.push(format!("{indent}{} note: {note}", q.label));
    }
    for (value, note) in a.option_notes.iter().flatten() {
        let label = q.options.iter().find(|o| o.value == value).map_or(value.as_str(), |o| &o.label);
        lines.push(format!("{indent}{} / {label} note: {note}", q.label));
    }
    lines
}

fn after_answer(answer: Option<&Answer>) -> String {
    match answer {
        Some(a) => format!(" after current answer {}", quoted(&a.labels.join(", "))),
        None => String::new(),
    }
}

/// One direct instruction per elaboration item, e.g.
/// `User asked to elaborate on question "…" option "…" with note "…"`.
pub fn elaboration_line(item: &ElaborationItem) -> String {
    let option = match (&item.target, &item.option) {
        (Target::Option { .. }, Some(o)) => format!(" option {}", quoted(&o.label)),
        _ => String::new(),
    };
    format!(
        "User asked to elaborate on question {}{option}{} with note {}",
        quoted(&item.question.prompt),
        after_answer(item.answer.as_ref()),
        quoted(&item.note)
    )
}

fn elaborate_lines(questions: &[Question], details: &Details) -> Vec<String> {
    let items = details.elaboration.as_ref().map_or(&[][..], |e| &e.items[..]);
    if !items.is_empty() {
        return items.iter().map(elaboration_line).collect();
    }
    questions
        .iter()
        .filter_map(|q| {
            let a = details.answers.get(&q.id)?;
            Some(format!(
                "User asked to elaborate on question {}{}",
                quoted(&q.prompt),
                after_answer(Some(a))
            ))
        })
        .collect()
}

/// `Invalid ask_user payload:` then one `- <path>: <message>` line per issue.
pub fn invalid_text(issues: &[Issue]) -> String {
    let mut out = INVALID_HEADER.to_owned();
    for issue in issues {
        out.push('\n');
        if issue.path.is_empty() {
            out.push_str(&format!("- {}", issue.message));
        } else {
            out.push_str(&format!("- {}: {}", issue.path, issue.message));
        }
    }
    out
}

/// The "Needs user input" text for hosts without an interactive terminal.
pub fn fallback_text(form: &Form) -> String {
    let mut out = String::from(
        "Needs user input: ask_user needs an interactive terminal and none is available.\n\
         Ask the user these questions yourself:",
    );
    if let Some(title) = &form.title {
        out.push_str(&format!("\n{title}"));
    }
    for (i, q) in form.questions.iter().enumerate() {
        // The kind and the descriptions too: an agent asking by hand needs both.
        let kind = match q.kind {
            QuestionType::Single => "choose one",
            QuestionType::Multi => "choose any",
            QuestionType::Preview => "choose one; each option has a preview",
        };
        out.push_str(&format!("\n{}. {}: {} ({kind})", i + 1, q.label, q.prompt));
        for o in q.options.iter().filter(|o| !o.freeform) {
            out.push_str(&format!("\n   - {} [{}]", o.label, o.value));
            if let Some(d) = &o.description {
                out.push_str(&format!(" — {d}"));
            }
        }
        out.push_str("\n   - Type your own");
    }
    out.push_str("\ndetails.questions holds the pending questions.");
    out
}
