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
            return vec![hint("↑↓", "move"), hint("Enter/Space", "toggle"), hint("Esc", "close")];
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
        if self.on_review() {
            return vec![
                hint("↑↓", "move"),
                hint(km.confirm.label(), "choose"),
                hint("1-3", "shortcut"),
                hint("Tab", "questions"),
                hint(km.cancel.label(), "cancel"),
                hint("?", "settings"),
            ];
        }
        let multi = self.current().is_some_and(|(q, _)| q.kind.is_multi());
        let mut hints = vec![hint("↑↓", "move")];
        if multi {
            hints.push(hint(km.toggle.label(), "toggle"));
            hints.push(hint(km.confirm.label(), "next"));
        } else {
            hints.push(hint(km.confirm.label(), "select"));
        }
        hints.extend([
            hint(km.option_note.label(), "option note"),
            hint(km.question_note.label(), "question note"),
            hint("Tab", "next tab"),
            hint(km.cancel.label(), "cancel"),
            hint("?", "settings"),
        ]);
        hints
    }
}
