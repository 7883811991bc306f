//! The review tab's answer summary (D19): what Submit/Cancel or Elaborate would send.

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
                let answer = crate::project::result::answer_of(q, qs).filter(|a| a.is_committed());
                let mut notes = Vec::new();
                if all_notes || answer.is_some() {
                    if !qs.note().is_empty() {
                        notes.push(format!("Note: {}", qs.note()));
                    }
                    for (i, note) in qs.option_notes() {
                        if all_notes || qs.is_selected(i) {
                            notes.push(format!("{} note: {note}", q.options[i].label));
                        }
                    }
                }
                ReviewEntry { label: q.label.clone(), answer: answer.map(|a| a.labels.join(", ")), notes }
            })
            .collect()
    }
}
