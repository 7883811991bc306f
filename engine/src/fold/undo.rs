//! Undo and redo of answer-changing steps (issue 13.3). A step is what one key changed on one
//! question — a selection, a saved answer, a saved or deleted note — kept as deltas; cursor
//! moves, tabs and drafts are not steps. Undo and redo are keys in the log like any other, so a
//! replay folds them to the same answers.

use crate::key::{KeyPress, Modifiers};
use crate::state::{FlowState, UndoStep};

impl FlowState {
    /// After a key: what it changed on the question it was pressed on becomes one step.
    pub(super) fn journal(&mut self, tab: usize) {
        // Most keys move a cursor and change nothing: they cost this one check.
        let Some(qs) = self.questions.get_mut(tab).filter(|qs| qs.has_changes()) else { return };
        let changes = qs.take_changes();
        self.done.push(UndoStep { question: tab, changes });
        self.undone.clear();
    }

    /// Undo (`ctrl+z`) and redo (`ctrl+y`, or shift with the undo key); returns whether the
    /// key was one of them.
    pub(super) fn undo_key(&mut self, key: KeyPress) -> bool {
        let km = self.settings.keymaps;
        let shifted_undo = KeyPress::new(km.undo.code, km.undo.mods.union(Modifiers::SHIFT));
        if key == km.undo {
            if let Some(step) = self.done.pop() {
                if let Some(qs) = self.questions.get_mut(step.question) {
                    qs.undo(&step.changes);
                }
                self.show_step(step.question);
                self.undone.push(step);
            }
            return true;
        }
        if key == km.redo || key == shifted_undo {
            if let Some(step) = self.undone.pop() {
                if let Some(qs) = self.questions.get_mut(step.question) {
                    qs.redo(&step.changes);
                }
                self.show_step(step.question);
                self.done.push(step);
            }
            return true;
        }
        false
    }

    /// On a question tab, go to the question a step changed, so the change is seen; the review
    /// tab shows every question already.
    fn show_step(&mut self, question: usize) {
        if !self.on_review() && question != self.tab {
            self.enter_tab(question);
            // Not the editor landing on an empty custom row opens: the next undo key must
            // still reach the journal.
            self.editor = None;
        }
    }
}
