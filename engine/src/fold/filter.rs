//! Type-to-filter on a question's rows (issue 12.7): the filter key opens a query line; typed
//! text hides the rows that do not hold it; the cursor moves only among the rows shown. The
//! custom row is always shown. Nothing is deselected and the result's indices stay the
//! declared positions: the filter only decides what is drawn and where the cursor may go.

use super::navigation::{Nav, nav_of};
use crate::key::{KeyCode, KeyPress, Modifiers};
use crate::state::{Filter, FlowState};

impl FlowState {
    /// Keys for the filter; returns whether the key was used.
    pub(super) fn filter_key(&mut self, key: KeyPress) -> bool {
        let km = self.settings.keymaps;
        let Some(filter) = self.filter.as_mut() else {
            let freeform = self.current().is_none_or(|(q, _)| q.is_freeform());
            if key == km.filter && !freeform {
                self.filter = Some(Filter { query: String::new(), editing: true });
                return true;
            }
            return false;
        };
        if !filter.editing {
            if key == km.cancel {
                self.filter = None; // Esc clears the filter before it would cancel the form
            } else if key == km.filter {
                filter.editing = true;
            } else {
                return false;
            }
            return true;
        }
        match nav_of(key) {
            Some(Nav::Up) => self.cursor_to(self.step(-1)),
            Some(Nav::Down) => self.cursor_to(self.step(1)),
            Some(Nav::NextTab | Nav::PrevTab) => return false,
            None if key == km.cancel => self.filter = None,
            None if key == km.confirm => filter.editing = false,
            None if key.mods.is_empty() && matches!(key.code, KeyCode::PageUp | KeyCode::PageDown) => {
                let delta = if key.code == KeyCode::PageUp { -10 } else { 10 };
                self.cursor_to(self.step(delta));
            }
            None if key == KeyPress::plain(KeyCode::Backspace) => {
                filter.query.pop();
                self.keep_cursor_shown();
            }
            None => match key.code {
                KeyCode::Char(c) if key.mods.without(Modifiers::SHIFT).is_empty() => {
                    filter.query.push(c);
                    self.keep_cursor_shown();
                }
                _ => {}
            },
        }
        true
    }

    /// Which rows of the active question the filter shows: a test of a row index, the query
    /// lowered once for all the rows it is asked about.
    pub(crate) fn row_shown(&self) -> impl Fn(usize) -> bool + '_ {
        let needle = self.filter.as_ref().filter(|f| !f.query.is_empty()).map(|f| f.query.to_lowercase());
        let question = self.current().map(|(q, _)| q);
        move |i| {
            let (Some(needle), Some(q)) = (&needle, question) else { return true };
            let Some(option) = q.options.get(i).filter(|_| i < q.declared_rows()) else { return true };
            let holds = |text: &str| text.to_lowercase().contains(needle.as_str());
            holds(&option.label) || option.description.as_deref().is_some_and(holds)
        }
    }

    /// The row `delta` shown rows away from the cursor (clamped to the first and last shown).
    pub(super) fn step(&self, delta: isize) -> usize {
        let last = self.custom_row();
        let shown = self.row_shown();
        let mut row = self.cursor.min(last);
        let mut left = delta.unsigned_abs();
        while left > 0 {
            let next = if delta < 0 {
                (0..row).rev().find(|&i| shown(i))
            } else {
                (row + 1..=last).find(|&i| shown(i))
            };
            let Some(next) = next else { break };
            row = next;
            left -= 1;
        }
        row
    }

    /// The first row shown (the custom row when nothing matches).
    pub(super) fn first_shown(&self) -> usize {
        let shown = self.row_shown();
        (0..self.custom_row()).find(|&i| shown(i)).unwrap_or(self.custom_row())
    }

    /// Moves the cursor without opening the answer editor: keys are going to the query.
    fn cursor_to(&mut self, row: usize) {
        if row != self.cursor {
            self.cursor = row;
            self.preview_scroll = 0;
        }
    }

    /// After the query changed: a cursor on a row now hidden goes to the first row shown.
    fn keep_cursor_shown(&mut self) {
        if !self.row_shown()(self.cursor) {
            self.cursor_to(self.first_shown());
        }
    }
}
