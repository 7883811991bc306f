//! Keys inside an open editor, and saving what it holds (D4, D5, D6, D16, D21, D24, D28).

use super::navigation::{Nav, is_question_mark, nav_of};
use crate::key::{KeyCode, KeyPress, Modifiers};
use crate::state::{EditorTarget, FlowState, Overlay};

/// Why an editor is being closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Close {
    /// The confirm binding: an answer may advance.
    Confirm,
    /// The cancel binding, or navigating away from a blank editor.
    Keep,
}

impl FlowState {
    pub(super) fn editor_key(&mut self, key: KeyPress, fx: &mut super::Effects) {
        if self.completion_key(key) {
            return;
        }
        let keymaps = self.settings.keymaps;
        let blank = self.editor.as_ref().is_none_or(|e| e.buffer.is_blank());
        if key == keymaps.confirm {
            return self.close_editor(Close::Confirm);
        }
        if key == keymaps.cancel {
            return self.close_editor(Close::Keep);
        }
        if blank && is_question_mark(key) {
            self.overlay = Some(Overlay::default());
            return;
        }
        if blank && let Some(nav) = nav_of(key) {
            return self.leave_blank_editor(nav);
        }
        if let Some(editor) = self.editor.as_mut() {
            edit(&mut editor.buffer, key, self.editor_wrap.map(|(w, breaks)| (usize::from(w), breaks)));
        }
        self.after_edit(fx);
    }

    /// Navigation keys leave a blank editor (saving it, which clears) and then navigate.
    fn leave_blank_editor(&mut self, nav: Nav) {
        let stays = match nav {
            Nav::Up => self.cursor == 0,
            Nav::Down => self.cursor >= self.custom_row(),
            Nav::NextTab | Nav::PrevTab => false,
        };
        if stays {
            return;
        }
        self.close_editor(Close::Keep);
        self.navigate(nav);
    }

    fn close_editor(&mut self, how: Close) {
        self.completion = None;
        let Some(editor) = self.editor.take() else { return };
        let text = editor.buffer.text().trim();
        let tab = self.tab;
        let multi = self.current().is_some_and(|(q, _)| q.kind.is_multi());
        let Some(qs) = self.questions.get_mut(tab) else { return };
        match editor.target {
            EditorTarget::QuestionNote => qs.set_note(text),
            EditorTarget::OptionNote(i) => qs.set_option_note(i, text),
            EditorTarget::Answer if text.is_empty() => {
                qs.set_custom("", false);
                if how == Close::Confirm {
                    self.open_editor(EditorTarget::Answer); // D21: blank confirm re-opens, never advances
                }
            }
            EditorTarget::Answer => {
                if !multi {
                    qs.clear_selection(); // D6
                }
                qs.set_custom(text, true); // D16
                if how == Close::Confirm && !multi {
                    self.enter_tab(tab + 1); // D15
                }
            }
        }
    }
}

/// Applies an editing key to the buffer; keys that mean nothing here are ignored. Up and Down
/// move by the rows the editor was drawn in (`wrap`: how wide, and by which rule its rows
/// broke), when a frame has said so.
fn edit(buffer: &mut crate::editor::TextBuffer, key: KeyPress, wrap: Option<(usize, crate::editor::Breaks)>) {
    if let Some(c) = key.typed_char() {
        return buffer.insert_char(c);
    }
    let ctrl = key.mods == Modifiers::CTRL;
    let alt = key.mods == Modifiers::ALT;
    let shift = key.mods == Modifiers::SHIFT;
    // The editor has no selection, so Shift adds nothing to Backspace, Delete or a movement key:
    // under the kitty keyboard protocol a Shift held on from a capital would otherwise make
    // them do nothing. Shift+Enter is a newline, as in chat boxes.
    match (key.code, key.mods.is_empty() || shift) {
        (KeyCode::Enter, _) if alt || shift => buffer.insert_char('\n'),
        (KeyCode::Backspace, true) => buffer.backspace(),
        (KeyCode::Backspace, _) if alt || ctrl => buffer.delete_word_back(),
        (KeyCode::Delete, true) => buffer.delete(),
        (KeyCode::Left, true) => buffer.left(),
        (KeyCode::Right, true) => buffer.right(),
        (KeyCode::Left, _) if alt || ctrl => buffer.word_left(),
        (KeyCode::Right, _) if alt || ctrl => buffer.word_right(),
        (KeyCode::Up, true) => buffer.vertical(true, wrap),
        (KeyCode::Down, true) => buffer.vertical(false, wrap),
        (KeyCode::Home, true) => buffer.home(),
        (KeyCode::End, true) => buffer.end(),
        (KeyCode::Char('a'), _) if ctrl => buffer.home(),
        (KeyCode::Char('e'), _) if ctrl => buffer.end(),
        (KeyCode::Char('w'), _) if ctrl => buffer.delete_word_back(),
        (KeyCode::Char('u'), _) if ctrl => buffer.delete_to_line_start(),
        (KeyCode::Char('b'), _) if alt => buffer.word_left(),
        (KeyCode::Char('f'), _) if alt => buffer.word_right(),
        _ => {}
    }
}
