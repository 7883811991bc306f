//! Footer hints per context, built from the configured key labels.

use super::Hint;
use crate::state::{EditorTarget, FlowState};

fn hint(key: impl Into<String>, action: &str) -> Hint {
    Hint { key: key.into(), action: action.to_owned() }
}

impl FlowState {
    pub(super) fn hints(&self) -> Vec<Hint> {
        let km = &self.settings.keymaps;
        if self.overlay.is_some() {
            // Every key that closes it (issue 12.27); the overlay's keys are fixed (D29).
            return vec![hint("↑↓", "move"), hint("Enter/Space", "toggle"), hint("Esc/?/Ctrl+C", "close")];
        }
        if self.completion.as_ref().is_some_and(|c| !c.items.is_empty()) {
            // The `@` list takes these keys while it is open (issue 12.27).
            return vec![
                hint("↑↓", "choose"),
                hint(format!("{}/Tab", km.confirm.label()), "insert"),
                hint(km.cancel.label(), "close list"),
            ];
        }
        if let Some(editor) = &self.editor {
            let save = match editor.target {
                EditorTarget::Answer => "submit",
                _ => "save note",
            };
            return vec![
                hint(km.confirm.label(), save),
                hint(km.cancel.label(), "close"),
                hint("Alt+Enter", "newline"),
                hint(km.dismiss.label(), "dismiss"),
            ];
        }
        if let Some(filter) = &self.filter
            && filter.editing
        {
            return vec![
                hint("type", "filter"),
                hint("↑↓", "move"),
                hint(km.confirm.label(), "keep filter"),
                hint(km.cancel.label(), "clear filter"),
            ];
        }
        if self.on_review() {
            return vec![
                hint("↑↓", "move"),
                hint(km.confirm.label(), "choose"),
                hint("1-3", "shortcut"),
                hint("Tab", "questions"),
            ]
            .into_iter()
            .chain(self.done.last().map(|_| hint(km.undo.label(), "undo")))
            .chain([hint(km.cancel.label(), "cancel"), hint("?", "settings")])
            .collect();
        }
        let multi = self.current().is_some_and(|(q, _)| q.kind.is_multi());
        // The custom row's text is the user's own: it takes no option note, and Enter edits it.
        let on_custom = self.cursor >= self.custom_row();
        let mut hints = vec![hint("↑↓", "move")];
        if multi {
            hints.push(hint(km.toggle.label(), "toggle"));
            hints.push(hint(km.confirm.label(), "next"));
        } else {
            hints.push(hint(km.confirm.label(), if on_custom { "edit answer" } else { "select" }));
        }
        if !on_custom {
            hints.push(hint(km.option_note.label(), "option note"));
        }
        hints.extend([hint(km.question_note.label(), "question note"), hint("Tab", "next tab")]);
        if self.filter.is_some() {
            hints.push(hint(km.cancel.label(), "clear filter"));
        } else {
            // The filter is offered where the rows are many: past the digit keys, or more
            // than a screen holds (every question has at least one).
            let rows = self.custom_row();
            if rows > 9 || rows + 10 > usize::from(self.size.height) {
                hints.push(hint(km.filter.label(), "filter"));
            }
            hints.push(hint(km.cancel.label(), "cancel"));
        }
        hints.push(hint("?", "settings"));
        hints
    }
}
