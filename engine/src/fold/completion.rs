//! `@` file references in editors: the query being typed, the offered paths, accepting one.
//!
//! The fold never reads the file system: it asks for paths with an effect, and the host answers
//! with a `CompletionsOffered` event that is logged like any other.

use super::Effects;
use super::navigation::{Nav, nav_of};
use crate::key::{KeyCode, KeyPress};
use crate::state::{Completion, FlowState};

/// At most this many offered paths are kept.
const MAX_ITEMS: usize = 8;

impl FlowState {
    /// After an edit: track the `@word` before the cursor and ask for paths when it changed.
    pub(super) fn after_edit(&mut self, fx: &mut Effects) {
        let word = self.editor.as_ref().map(|e| e.buffer.word_before_cursor()).unwrap_or("");
        let Some(query) = word.strip_prefix('@') else {
            self.completion = None;
            return;
        };
        if self.completion.as_ref().is_some_and(|c| c.query == query) {
            return;
        }
        let query = query.to_owned();
        fx.complete_query = Some(query.clone());
        self.completion = Some(Completion { query, items: Vec::new(), selected: 0 });
    }

    /// Paths arrived: kept only if they answer the query still being typed.
    pub(super) fn offered(&mut self, query: &str, items: &[String]) {
        if let Some(c) = self.completion.as_mut().filter(|c| c.query == query) {
            c.items = items.iter().take(MAX_ITEMS).cloned().collect();
            c.selected = 0;
        }
    }

    /// Keys while paths are offered: Up/Down choose, Tab or confirm inserts, cancel closes the
    /// list (the editor stays open). Returns whether the key was used.
    pub(super) fn completion_key(&mut self, key: KeyPress) -> bool {
        let Some(c) = self.completion.as_mut().filter(|c| !c.items.is_empty()) else { return false };
        let n = c.items.len();
        match nav_of(key) {
            Some(Nav::Up) => c.selected = (c.selected + n - 1) % n,
            Some(Nav::Down) => c.selected = (c.selected + 1) % n,
            _ if key == KeyPress::plain(KeyCode::Tab) || key == self.settings.keymaps.confirm => {
                self.accept()
            }
            _ if key == self.settings.keymaps.cancel => self.completion = None,
            _ => return false,
        }
        true
    }

    /// Replaces `@query` before the cursor with `@path ` and closes the list.
    fn accept(&mut self) {
        let Some(c) = self.completion.take() else { return };
        let Some(path) = c.items.get(c.selected) else { return };
        if let Some(editor) = self.editor.as_mut() {
            editor.buffer.replace_before_cursor(c.query.len() + 1, &format!("@{path} "));
        }
    }
}
