//! Keys on the review tab: the action cursor and the (double-press) 1/2/3 shortcuts (D2, D17, D23).

use super::PAGE;
use super::navigation::{is_question_mark, nav_of};
use crate::key::{KeyCode, KeyPress};
use crate::settings::Action;
use crate::state::{ExitAction, FlowState, Overlay, ReviewAction, SummaryScroll};

impl FlowState {
    pub(super) fn review_key(&mut self, key: KeyPress) {
        if let Some(nav) = nav_of(key) {
            return self.navigate(nav);
        }
        if is_question_mark(key) {
            self.overlay = Some(Overlay::default());
            return;
        }
        if let Some(d @ 1..=3) = key.digit() {
            return self.shortcut(ReviewAction::at(d as usize - 1));
        }
        // The summary scrolls by itself (issue 12.1): ↑/↓ belong to the actions.
        if key.mods.is_empty() {
            match key.code {
                KeyCode::PageUp => return self.summary_scroll = self.page_summary(false),
                KeyCode::PageDown => return self.summary_scroll = self.page_summary(true),
                KeyCode::Home => return self.summary_scroll = SummaryScroll::Top(0),
                KeyCode::End => return self.summary_scroll = SummaryScroll::End(0),
                _ => {}
            }
        }
        match self.settings.keymaps.action_of(key) {
            Some(Action::Confirm) => self.complete(self.review_cursor),
            Some(Action::Cancel) => self.exit(ExitAction::Cancel),
            _ => {}
        }
    }

    /// A page (ten lines) down or up, counted from the end the summary is nearer. A page that
    /// would pass the far end lands on it: [`Self::review_lines_over`] counts at least the lines
    /// the summary takes, so the frontend would have drawn that end anyway. Only a page away
    /// from the end it is counted from measures the summary, and only as far as the page goes.
    fn page_summary(&self, down: bool) -> SummaryScroll {
        let passes_far_end = |n: usize| !self.review_lines_over(n.saturating_add(PAGE));
        match (self.summary_scroll, down) {
            (SummaryScroll::Top(n), false) => SummaryScroll::Top(n.saturating_sub(PAGE)),
            (SummaryScroll::End(k), true) => SummaryScroll::End(k.saturating_sub(PAGE)),
            (SummaryScroll::Top(n), true) if passes_far_end(n) => SummaryScroll::End(0),
            (SummaryScroll::Top(n), true) => SummaryScroll::Top(n + PAGE),
            (SummaryScroll::End(k), false) if passes_far_end(k) => SummaryScroll::Top(0),
            (SummaryScroll::End(k), false) => SummaryScroll::End(k + PAGE),
        }
    }

    /// Whether the summary takes more than `bound` lines, counting at least as many as it takes
    /// at any width of 16 cells or more. Its entries are measured only until the count passes
    /// `bound`: a page near the top of 100 000 answers lays out a page's worth, not all of them.
    fn review_lines_over(&self, bound: usize) -> bool {
        let text = |s: &str| 1 + s.chars().count() / 16 + s.matches('\n').count();
        let mut lines = 0usize;
        self.review_entries(self.review_cursor).any(|e| {
            lines += text(&e.label)
                + e.answer.as_deref().map_or(0, text)
                + e.notes.iter().map(|n| text(n)).sum::<usize>();
            lines > bound
        })
    }

    fn shortcut(&mut self, action: ReviewAction) {
        if !self.settings.behaviour.double_press_review_shortcuts || self.armed == Some(action) {
            return self.complete(action);
        }
        self.armed = Some(action);
        self.review_cursor = action;
    }
}
