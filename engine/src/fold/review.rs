//! Keys on the review tab: the action cursor and the (double-press) 1/2/3 shortcuts (D2, D17, D23).

use super::navigation::{is_question_mark, nav_of};
use crate::key::KeyPress;
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
        match self.settings.keymaps.action_of(key) {
            Some(Action::Confirm) => self.complete(self.review_cursor),
            Some(Action::Cancel) => self.exit(ExitAction::Cancel),
            _ => {}
        }
    }

    fn shortcut(&mut self, action: ReviewAction) {
        if !self.settings.behaviour.double_press_review_shortcuts || self.armed == Some(action) {
            return self.complete(action);
        }
        self.armed = Some(action);
        self.review_cursor = action;
    }
}
