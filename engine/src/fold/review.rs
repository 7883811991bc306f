//! Keys on the review tab: the action cursor and the (double-press) 1/2/3 shortcuts (D2, D17, D23).

use super::navigation::{is_question_mark, nav_of};
use crate::key::{KeyCode, KeyPress};
use crate::settings::Action;
use crate::state::{ExitAction, FlowState, Overlay, ReviewAction};

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
        // How far it can go is only measured for the keys that go down: measuring lays out the
        // whole summary, which every other key on this tab must not pay for.
        if key.mods.is_empty() {
            match key.code {
                KeyCode::PageUp => return self.preview_scroll = self.preview_scroll.saturating_sub(10),
                KeyCode::PageDown => {
                    return self.preview_scroll = (self.preview_scroll + 10).min(self.review_lines());
                }
                KeyCode::Home => return self.preview_scroll = 0,
                KeyCode::End => return self.preview_scroll = self.review_lines(),
                _ => {}
            }
        }
        match self.settings.keymaps.action_of(key) {
            Some(Action::Confirm) => self.complete(self.review_cursor),
            Some(Action::Cancel) => self.exit(ExitAction::Cancel),
            _ => {}
        }
    }

    /// At least as many lines as the summary takes at any width of 16 cells or more, so the
    /// scroll can always reach its end; the frontend clamps it to what it drew.
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
