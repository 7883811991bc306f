//! Navigation on a question tab: tabs, the option cursor, selecting, toggling, opening editors.

use super::PAGE;
use crate::editor::TextBuffer;
use crate::key::{KeyCode, KeyPress, Modifiers};
use crate::settings::Action;
use crate::state::{Editor, EditorTarget, ExitAction, FlowState, Overlay, ReviewAction, SummaryScroll};

/// Fixed navigation keys (never configurable).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Nav {
    NextTab,
    PrevTab,
    Up,
    Down,
}

pub(super) fn nav_of(key: KeyPress) -> Option<Nav> {
    let shift_tab = KeyPress::new(KeyCode::Tab, Modifiers::SHIFT);
    if key == shift_tab {
        return Some(Nav::PrevTab);
    }
    if !key.mods.is_empty() {
        return None;
    }
    match key.code {
        KeyCode::Tab | KeyCode::Right => Some(Nav::NextTab),
        KeyCode::Left => Some(Nav::PrevTab),
        KeyCode::Up => Some(Nav::Up),
        KeyCode::Down => Some(Nav::Down),
        _ => None,
    }
}

pub(super) fn is_question_mark(key: KeyPress) -> bool {
    key == KeyPress::plain(KeyCode::Char('?'))
}

impl FlowState {
    pub(super) fn question_key(&mut self, key: KeyPress) {
        if self.filter_key(key) {
            return;
        }
        if let Some(nav) = nav_of(key) {
            return self.navigate(nav);
        }
        if is_question_mark(key) {
            self.overlay = Some(Overlay::default());
            return;
        }
        if let Some(d) = key.digit() {
            return self.digit(d as usize);
        }
        // PageUp/PageDown scroll the preview where there is one, else page the option list.
        let pages = self.pages_options();
        if key.mods.is_empty() {
            match key.code {
                KeyCode::PageUp | KeyCode::PageDown if pages => {
                    return self.move_cursor_to(self.page_step(key.code == KeyCode::PageUp));
                }
                KeyCode::PageUp => return self.preview_scroll = self.preview_scroll.saturating_sub(PAGE),
                KeyCode::PageDown => {
                    let next = self.preview_scroll + PAGE;
                    return self.preview_scroll = next.min(self.preview_lines_up_to(next));
                }
                KeyCode::Home => return self.move_cursor_to(self.first_shown()),
                KeyCode::End => return self.move_cursor_to(self.custom_row()),
                _ => {}
            }
        }
        match self.settings.keymaps.action_of(key) {
            Some(Action::Cancel) => self.exit(ExitAction::Cancel),
            Some(Action::Toggle) => self.toggle_row(),
            Some(Action::Confirm) => self.confirm_row(),
            Some(Action::OptionNote) if self.cursor < self.custom_row() => {
                self.open_editor(EditorTarget::OptionNote(self.cursor));
            }
            Some(Action::QuestionNote) => self.open_editor(EditorTarget::QuestionNote),
            Some(Action::OptionNote | Action::Dismiss | Action::Filter | Action::Undo | Action::Redo)
            | None => {}
        }
    }

    pub(super) fn navigate(&mut self, nav: Nav) {
        let tabs = self.form.questions.len() + 1;
        match nav {
            Nav::NextTab => self.enter_tab((self.tab + 1) % tabs),
            Nav::PrevTab => self.enter_tab((self.tab + tabs - 1) % tabs),
            Nav::Up if self.on_review() => {
                self.review_cursor = ReviewAction::at(self.review_cursor.index().saturating_sub(1));
            }
            Nav::Down if self.on_review() => {
                self.review_cursor = ReviewAction::at(self.review_cursor.index() + 1)
            }
            Nav::Up => self.move_cursor_to(self.step(-1)),
            Nav::Down => self.move_cursor_to(self.step(1)),
        }
    }

    /// Lines in the highlighted option's preview, counted no further than `limit`: how far
    /// PageDown may scroll, at a cost that grows with the scroll position, not with the
    /// preview (a million lines, issue 15.3).
    fn preview_lines_up_to(&self, limit: usize) -> usize {
        self.current()
            .and_then(|(q, _)| q.options.get(self.cursor))
            .and_then(|o| o.preview.as_deref())
            .map_or(0, |p| p.lines().take(limit).count())
    }

    /// The custom (`Type your own`) row's index on the active question.
    pub(crate) fn custom_row(&self) -> usize {
        self.current().map_or(0, |(q, _)| q.declared_rows())
    }

    /// Moves to a tab; the option cursor resets and the dirty warning goes (D12, D14).
    pub(crate) fn enter_tab(&mut self, tab: usize) {
        if tab != self.tab {
            self.warning = None;
        }
        self.tab = tab;
        self.cursor = 0;
        self.preview_scroll = 0;
        self.summary_scroll = SummaryScroll::default();
        self.editor = None;
        self.completion = None;
        self.filter = None;
        self.armed = None;
        self.review_cursor = ReviewAction::Submit;
        self.auto_open();
    }

    /// D11: landing on the custom row with no saved text opens the answer editor.
    fn auto_open(&mut self) {
        if let Some((_, qs)) = self.current()
            && self.cursor == self.custom_row()
            && qs.custom_text().is_empty()
        {
            self.open_editor(EditorTarget::Answer);
        }
    }

    pub(super) fn move_cursor_to(&mut self, row: usize) {
        let row = row.min(self.custom_row());
        if row != self.cursor {
            self.cursor = row;
            self.preview_scroll = 0;
            self.auto_open();
        }
    }

    pub(super) fn open_editor(&mut self, target: EditorTarget) {
        let Some((_, qs)) = self.current() else { return };
        let text = match target {
            EditorTarget::Answer => qs.custom_text(),
            EditorTarget::QuestionNote => qs.note(),
            EditorTarget::OptionNote(i) => qs.option_note(i),
        };
        self.editor = Some(Editor { target, buffer: TextBuffer::with_text(text) });
        self.completion = None;
    }

    fn is_multi(&self) -> bool {
        self.current().is_some_and(|(q, _)| q.kind.is_multi())
    }

    /// D15: digit k moves to row k and acts like Enter (single/preview) or Space (multi, custom row).
    fn digit(&mut self, k: usize) {
        if k == 0 || k > self.custom_row() + 1 {
            return;
        }
        self.cursor = k - 1;
        self.preview_scroll = 0;
        if self.is_multi() || self.cursor == self.custom_row() {
            self.toggle_row()
        } else {
            self.confirm_row()
        }
    }

    /// Space: select/deselect (single, preview), toggle (multi); on the custom row, D15/D16.
    fn toggle_row(&mut self) {
        let (row, custom, multi) = (self.cursor, self.custom_row(), self.is_multi());
        let tab = self.tab;
        let Some(qs) = self.questions.get_mut(tab) else { return };
        if row < custom {
            match (multi, qs.is_selected(row)) {
                (true, on) => qs.set_selected(row, !on),
                (false, false) => qs.choose(row),
                (false, true) => {
                    qs.clear_selection();
                    qs.set_custom_selected(false);
                }
            }
        } else if multi && !qs.custom_text().is_empty() {
            let on = !qs.custom_selected();
            qs.set_custom_selected(on);
        } else {
            self.open_editor(EditorTarget::Answer);
        }
    }

    /// Enter: select and advance (single, preview); advance (multi); the custom row opens its editor.
    fn confirm_row(&mut self) {
        let (row, custom, multi) = (self.cursor, self.custom_row(), self.is_multi());
        if row >= custom {
            return self.open_editor(EditorTarget::Answer);
        }
        if !multi && let Some(qs) = self.questions.get_mut(self.tab) {
            qs.choose(row);
        }
        self.enter_tab(self.tab + 1);
    }
}
