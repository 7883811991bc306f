//! The review tab: its view, and the answer summary (D19) — what Submit/Cancel or Elaborate would send.

use crate::project::view::{ReviewView, screenful};
use crate::state::{Change, FlowState, ReviewAction, SummaryScroll};

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
        self.review_entries(highlighted).collect()
    }

    /// [`Self::review_summary`]'s entries, one question at a time and from either end: a view
    /// or a page takes the few it needs, not one for each of 100 000 questions.
    pub fn review_entries(
        &self,
        highlighted: ReviewAction,
    ) -> impl DoubleEndedIterator<Item = ReviewEntry> + ExactSizeIterator + '_ {
        let all_notes = highlighted == ReviewAction::Elaborate;
        self.form.questions.iter().zip(&self.questions).map(move |(q, qs)| {
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
                        notes.push(format!("{} note: {}", screenful(&q.options[i].label), screenful(note)));
                    }
                }
            }
            ReviewEntry { label: screenful(&q.label).to_owned(), answer, notes, required: q.required }
        })
    }
}

/// The fewest summary entries a view carries past its scroll position: a form of up to this many
/// questions keeps exact counts in the summary's `↓ N more` markers at any terminal height.
const SUMMARY_REACH: usize = 128;

impl FlowState {
    pub(super) fn review_view(&self) -> ReviewView {
        let entries = self.review_entries(self.review_cursor);
        let total = entries.len();
        // Two screens' worth past the scroll position, so a frame drawn at a taller size before
        // its resize event is folded still finds the lines it shows.
        let reach = match self.size.height {
            0 => 0,
            h => (2 * usize::from(h)).max(SUMMARY_REACH),
        };
        let (summary, summary_first): (Vec<ReviewEntry>, usize) = match self.summary_scroll {
            _ if reach == 0 => (entries.collect(), 0),
            SummaryScroll::Top(n) => (entries.take(n.saturating_add(reach)).collect(), 0),
            SummaryScroll::End(k) => {
                let mut last: Vec<ReviewEntry> = entries.rev().take(k.saturating_add(reach)).collect();
                last.reverse();
                let first = total - last.len();
                (last, first)
            }
        };
        ReviewView {
            actions: ReviewAction::ALL,
            highlighted: self.review_cursor,
            summary_first,
            summary_total: total,
            summary,
            hint: self.armed.map(|a| format!("Press {} again to {}", a.index() + 1, a.title())),
            scroll: self.summary_scroll,
            undo: self.undo_preview(),
        }
    }
}

impl FlowState {
    /// What undo would take back, in words — `Lang: selected “Rust”` — for the review tab
    /// (issue 13.3). `None` when there is nothing to undo.
    pub fn undo_preview(&self) -> Option<String> {
        let step = self.done.last()?;
        let q = self.form.questions.get(step.question)?;
        let label = |i: usize| q.options.get(i).map_or("?", |o| screenful(&o.label));
        let said = |text: &str| crate::project::view::first_chars(text, 40).to_owned();
        // The change a person made; the bookkeeping around it (a single question's selection
        // cleared before a new one) is not named.
        let what = step.changes.iter().rev().find_map(|c| match c {
            Change::Selected { option, on: true } => Some(format!("selected “{}”", label(*option))),
            Change::Selected { option, on: false } => Some(format!("deselected “{}”", label(*option))),
            Change::Custom { after: (text, _), .. } if text.is_empty() => {
                Some("cleared your own answer".into())
            }
            Change::Custom { after: (text, _), .. } => Some(format!("your own answer “{}”", said(text))),
            Change::CustomSelected { on: true } => Some("selected your own answer".into()),
            Change::CustomSelected { on: false } => Some("deselected your own answer".into()),
            Change::Note { after, .. } if after.is_empty() => Some("deleted the question note".into()),
            Change::Note { after, .. } => Some(format!("question note “{}”", said(after))),
            Change::OptionNote { option, after, .. } if after.is_empty() => {
                Some(format!("deleted the note on “{}”", label(*option)))
            }
            Change::OptionNote { option, after, .. } => {
                Some(format!("note on “{}”: “{}”", label(*option), said(after)))
            }
            Change::Cleared { .. } => None,
        });
        let what = what.unwrap_or_else(|| "cleared the selection".into());
        let key = self.settings.keymaps.undo.label();
        Some(format!("{key} takes back: {}: {what}", screenful(&q.label)))
    }
}
