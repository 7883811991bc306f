//! The review tab's answer summary (D19): what Submit/Cancel or Elaborate would send.

use crate::project::view::screenful;
use crate::state::{FlowState, ReviewAction};

/// One question in the review summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewEntry {
    /// The question label.
    pub label: String,
    /// The committed answer's labels joined by `, `; `None` when unanswered.
    pub answer: Option<String>,
    /// Note lines to show under it (`Note: …`, `<Option> note: …`).
    pub notes: Vec<String>,
    /// The payload marked the question `required` (advisory).
    pub required: bool,
}

impl FlowState {
    /// The summary for the highlighted review action: Submit and Cancel show committed answers
    /// with their notes; Elaborate shows every question note and every option note.
    pub fn review_summary(&self, highlighted: ReviewAction) -> Vec<ReviewEntry> {
        let all_notes = highlighted == ReviewAction::Elaborate;
        self.form
            .questions
            .iter()
            .zip(&self.questions)
            .map(|(q, qs)| {
                // Built from what a screen can show, not from the answer's full text.
                let mut parts: Vec<&str> =
                    qs.selected_indices().map(|i| screenful(&q.options[i].label)).collect();
                if qs.custom_selected() {
                    parts.push(screenful(qs.custom_text()));
                }
                let answer = (!parts.is_empty()).then(|| parts.join(", "));
                let mut notes = Vec::new();
                if all_notes || answer.is_some() {
                    if !qs.note().is_empty() {
                        notes.push(format!("Note: {}", screenful(qs.note())));
                    }
                    for (i, note) in qs.option_notes() {
                        if all_notes || qs.is_selected(i) {
                            notes.push(format!(
                                "{} note: {}",
                                screenful(&q.options[i].label),
                                screenful(note)
                            ));
                        }
                    }
                }
                ReviewEntry { label: screenful(&q.label).to_owned(), answer, notes, required: q.required }
            })
            .collect()
    }
}
