//! Type-to-filter on a question's rows (issue 12.7): the filter key opens a query line; typed
//! text hides the rows that do not hold it; the cursor moves only among the rows shown. The
//! custom row is always shown. Nothing is deselected and the result's indices stay the
//! declared positions: the filter only decides what is drawn and where the cursor may go.

use super::PAGE;
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
                self.cursor_to(self.page_step(key.code == KeyCode::PageUp));
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
    /// lowered and split once for all the rows it is asked about. A row is shown when its label
    /// or description holds every word of the query, in any order (`14 sql` finds
    /// "PostgreSQL 14"), case ignored.
    pub(crate) fn row_shown(&self) -> impl Fn(usize) -> bool + '_ {
        let words: Vec<String> = self
            .filter
            .as_ref()
            .map(|f| f.query.split_whitespace().map(str::to_lowercase).collect())
            .unwrap_or_default();
        let question = self.current().map(|(q, _)| q);
        move |i| {
            let Some(q) = question.filter(|_| !words.is_empty()) else { return true };
            let Some(option) = q.options.get(i).filter(|_| i < q.declared_rows()) else { return true };
            let description = option.description.as_deref();
            words.iter().all(|w| holds(&option.label, w) || description.is_some_and(|d| holds(d, w)))
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

    /// The row a page up or down from the cursor, among the rows shown.
    pub(super) fn page_step(&self, up: bool) -> usize {
        let page = PAGE as isize;
        self.step(if up { -page } else { page })
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
    pub(super) fn keep_cursor_shown(&mut self) {
        if !self.row_shown()(self.cursor) {
            self.cursor_to(self.first_shown());
        }
    }
}

/// Whether `text` holds `word` (already lowered by `str::to_lowercase`), case ignored. The view
/// tests every row of the question on each frame a filter shows, so ASCII text is compared in
/// place instead of lowering a copy of it per row: a million rows took about 30 ms a frame in
/// allocations alone. Other text is lowered as the query was.
pub(crate) fn holds(text: &str, word: &str) -> bool {
    if !text.is_ascii() {
        return text.to_lowercase().contains(word);
    }
    // Lowered ASCII holds only ASCII, so a word lowered to anything else is not in it.
    let (text, word) = (text.as_bytes(), word.as_bytes());
    word.is_ascii() && (word.is_empty() || text.windows(word.len()).any(|w| w.eq_ignore_ascii_case(word)))
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    /// `holds` answers as lowering both texts and searching does: ASCII in place, the rest lowered.
    #[rstest]
    #[case::same_case("Blackberry", "berry")]
    #[case::upper_in_the_text("BLACKBERRY", "kber")]
    #[case::at_the_start("Apple", "ap")]
    #[case::the_whole_text("Fig", "fig")]
    #[case::longer_than_the_text("Fig", "figs")]
    #[case::absent("Cherry", "zz")]
    #[case::digits_and_punctuation("PostgreSQL 14.2", "l 14.")]
    #[case::accented_text("CAFÉ crème", "é")]
    #[case::accented_word_in_ascii_text("Cafe", "é")]
    #[case::kelvin_sign_lowers_to_k("\u{212A}elvin", "kel")]
    #[case::sharp_s("STRAẞE", "straße")]
    #[case::empty_word("x", "")]
    fn holds_answers_as_lowering_both(#[case] text: &str, #[case] query: &str) {
        let word = query.to_lowercase();
        assert_eq!(super::holds(text, &word), text.to_lowercase().contains(&word), "{text:?} {word:?}");
    }

    proptest::proptest! {
        /// The same on any text of letters in both cases and the characters whose lowering
        /// crosses between ASCII and the rest.
        #[test]
        fn holds_answers_as_lowering_both_on_any_text(
            text in "[aAbBkK ÉéKßẞ1.]{0,12}",
            query in "[aAbBkK ÉéKßẞ1.]{0,3}",
        ) {
            let word = query.to_lowercase();
            proptest::prop_assert_eq!(super::holds(&text, &word), text.to_lowercase().contains(&word));
        }
    }
}
