//! Transcript rows: a short call row for a payload and a result row for a result (SPEC §4).

use ask_schema::{Form, Mode, ToolResult};

use super::text::note_lines;

/// `ask_user · 2 questions: Language, Targets` (with the title when there is one).
pub fn call_row(form: &Form) -> String {
    let n = form.questions.len();
    let labels: Vec<&str> = form.questions.iter().map(|q| q.label.as_str()).collect();
    let noun = if n == 1 { "question" } else { "questions" };
    let title = form.title.as_deref().map(|t| format!(" \"{t}\"")).unwrap_or_default();
    format!("ask_user{title} · {n} {noun}: {}", labels.join(", "))
}

/// What a transcript row shows, so that a host can style it (pi colours answers as success,
/// cancellation as a warning, notes dimmed) without a second copy of the wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RowKind {
    /// The call row.
    Call,
    /// The payload was invalid.
    Invalid,
    /// The user cancelled.
    Cancelled,
    /// One answered question.
    Answer,
    /// A note under an answer.
    Note,
    /// A line of an elaborate result.
    Elaborate,
    /// Submitted with no answers.
    Empty,
}

/// `Invalid input`, `Cancelled`, `Not answered yet` (a form an MCP call left open), the
/// elaborate lines, or one `✓ <Label>: …` line per answer (after `Timed out` when the form's
/// time ran out, with what was being typed last).
pub fn result_rows(result: &ToolResult) -> Vec<String> {
    result_rows_with_kinds(result).into_iter().map(|(_, row)| row).collect()
}

/// [`result_rows`], each with what it shows.
pub fn result_rows_with_kinds(result: &ToolResult) -> Vec<(RowKind, String)> {
    let d = &result.details;
    if d.error.is_some() {
        return vec![(RowKind::Invalid, "Invalid input".to_owned())];
    }
    if d.still_open {
        let row = match &d.flow_id {
            Some(id) => format!("Not answered yet: `ask-user attach {id}` opens the form"),
            None => "Not answered yet".to_owned(),
        };
        return vec![(RowKind::Cancelled, row)];
    }
    if d.cancelled && !d.timed_out {
        return vec![(RowKind::Cancelled, "Cancelled".to_owned())];
    }
    if d.mode == Mode::Elaborate {
        return result.text().lines().map(|l| (RowKind::Elaborate, l.to_owned())).collect();
    }
    // A timed-out form says so, then what was saved and what was being typed.
    let mut rows = Vec::new();
    if d.timed_out {
        rows.push((RowKind::Cancelled, "Timed out".to_owned()));
    }
    for meta in &d.questions {
        let Some(a) = d.answers.get(&meta.id) else { continue };
        let shown = match (&a.custom_text, a.indices.is_empty()) {
            (Some(text), true) => format!("(wrote) {text}"),
            _ if a.labels.is_empty() => "(no answer)".to_owned(),
            _ => a.labels.join(", "),
        };
        // A multi-line answer keeps its lines under the label (issue 12.14).
        let shown = shown.replace('\n', "\n  ");
        if a.values.is_empty() {
            // Only a note was left: nothing was chosen, so no check mark (issue 12.14).
            rows.push((RowKind::Note, format!("○ {}: {shown}", meta.label)));
        } else {
            rows.push((RowKind::Answer, format!("✓ {}: {shown}", meta.label)));
        }
        let q = ask_schema::Question {
            id: meta.id.clone(),
            label: meta.label.clone(),
            prompt: meta.prompt.clone(),
            kind: meta.kind,
            required: false,
            options: option_labels(result, &meta.id).into(),
        };
        rows.extend(note_lines(&q, a, "  ").into_iter().map(|l| (RowKind::Note, l)));
    }
    if let Some(draft) = &d.draft {
        let label = d.questions.iter().find(|m| m.id == draft.question_id).map_or("", |m| m.label.as_str());
        let text = draft.text.replace('\n', "\n    ");
        rows.push((RowKind::Note, format!("… {label}, being typed, not saved: {text}")));
    }
    if rows.is_empty() {
        rows.push((RowKind::Empty, "Submitted without answers".to_owned()));
    }
    rows
}

/// Option labels are not in `details.questions`; recover them from the answer's own values.
fn option_labels(result: &ToolResult, id: &str) -> Vec<ask_schema::OptionItem> {
    let Some(a) = result.details.answers.get(id) else { return Vec::new() };
    a.values
        .iter()
        .zip(&a.labels)
        .map(|(v, l)| ask_schema::OptionItem {
            value: v.into(),
            label: l.into(),
            description: None,
            preview: None,
            freeform: false,
        })
        .collect()
}
