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
    /// would pass the far end lands on it: [`Self::review_lines`] is at least the summary's
    /// length, so the frontend would have drawn that end anyway. Only a page away from the end
    /// it is counted from measures the summary (that lays out every line).
    fn page_summary(&self, down: bool) -> SummaryScroll {
        let passes_far_end = |n: usize| n.saturating_add(PAGE) >= self.review_lines();
        match (self.summary_scroll, down) {
            (SummaryScroll::Top(n), false) => SummaryScroll::Top(n.saturating_sub(PAGE)),
            (SummaryScroll::End(k), true) => SummaryScroll::End(k.saturating_sub(PAGE)),
            (SummaryScroll::Top(n), true) if passes_far_end(n) => SummaryScroll::End(0),
            (SummaryScroll::Top(n), true) => SummaryScroll::Top(n + PAGE),
            (SummaryScroll::End(k), false) if passes_far_end(k) => SummaryScroll::Top(0),
            (SummaryScroll::End(k), false) => SummaryScroll::End(k + PAGE),
        }
    }

    /// At least as many lines as the summary takes at any width of 16 cells or more, so a page
    /// can always tell when it reaches the far end; the frontend clamps to what it drew.
    fn review_lines(&self) -> usize {
        self.review_summary(self.review_cursor)
            .iter()
            .map(|e| {
                let text = |s: &str| 1 + s.chars().count() / 16 + s.matches('\n').count();
                text(&e.label)
                    + e.answer.as_deref().map_or(0, text)
                    + e.notes.iter().map(|n| text(n)).sum::<usize>()
            })
            .sum()
    }

    fn shortcut(&mut self, action: ReviewAction) {
        if !self.settings.behaviour.double_press_review_shortcuts || self.armed == Some(action) {
            return self.complete(action);
        }
        self.armed = Some(action);
        self.review_cursor = action;
    }
}
