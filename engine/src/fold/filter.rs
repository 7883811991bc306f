//! Type-to-filter on a question's rows (issue 12.7): the filter key opens a query line; typed
//! text hides the rows that do not hold it; the cursor moves only among the rows shown. The
//! custom row is always shown. Nothing is deselected and the result's indices stay the
//! declared positions: the filter only decides what is drawn and where the cursor may go.

use std::sync::Arc;

use ask_schema::Question;

use super::PAGE;
use super::navigation::{Nav, nav_of};
use crate::key::{KeyCode, KeyPress};
use crate::state::{Filter, FlowState, Narrowed, Shown, words_of};

impl FlowState {
    /// Keys for the filter; returns whether the key was used.
    pub(super) fn filter_key(&mut self, key: KeyPress) -> bool {
        let km = self.settings.keymaps;
        let Some(filter) = self.filter.as_mut() else {
            let freeform = self.current().is_none_or(|(q, _)| q.is_freeform());
            if key == km.filter && !freeform {
                self.filter = Some(Filter { editing: true, ..Filter::default() });
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
                self.query_changed();
            }
            // What the key types, as an editor would take it: `shift+a` is `A` in the query line.
            None => {
                if let Some(c) = key.typed_char() {
                    filter.query.push(c);
                    self.query_changed();
                }
            }
        }
        true
    }

    /// The rows the active question shows, the custom row last.
    pub(crate) fn shown(&self) -> Shown<'_> {
        let custom = self.custom_row();
        match self.filter.as_ref().and_then(|f| f.trail.last()).and_then(|n| n.rows.as_deref()) {
            Some(rows) => Shown::Some { rows, custom },
            None => Shown::All { custom },
        }
    }

    /// The row `delta` shown rows away from the cursor (clamped to the first and last shown).
    pub(super) fn step(&self, delta: isize) -> usize {
        let shown = self.shown();
        let row = self.cursor.min(self.custom_row());
        let k = if delta < 0 {
            let before = shown.before(row);
            if before == 0 {
                return row;
            }
            before - delta.unsigned_abs().min(before)
        } else {
            // The rows after the cursor start past it (and past itself when it is shown).
            let after = shown.before(row) + usize::from(shown.holds(row));
            if after >= shown.len() || delta == 0 {
                return row;
            }
            after + delta.unsigned_abs() - 1 // past the end is the custom row, the last
        };
        shown.row(k)
    }

    /// The row a page up or down from the cursor, among the rows shown.
    pub(super) fn page_step(&self, up: bool) -> usize {
        let page = PAGE as isize;
        self.step(if up { -page } else { page })
    }

    /// The first row shown (the custom row when nothing matches).
    pub(super) fn first_shown(&self) -> usize {
        self.shown().row(0)
    }

    /// Moves the cursor without opening the answer editor: keys are going to the query.
    fn cursor_to(&mut self, row: usize) {
        if row != self.cursor {
            self.cursor = row;
            self.preview_scroll = 0;
        }
    }

    /// After the query changed: the rows it shows are found, and a cursor on a row now hidden
    /// goes to the first row shown.
    pub(super) fn query_changed(&mut self) {
        let form = Arc::clone(&self.form);
        if let (Some(question), Some(filter)) = (form.questions.get(self.tab), self.filter.as_mut()) {
            narrow(&mut filter.trail, &filter.query, question);
        }
        if !self.shown().holds(self.cursor) {
            self.cursor_to(self.first_shown());
        }
    }
}

/// At most this many queries are kept on the trail (the oldest go first): taking back further
/// than that tests the list again.
const TRAIL: usize = 64;

/// Brings `trail` to `query`: back to a query typed on the way (its rows kept), or on from the
/// last query the new one narrows, testing only the rows that one showed. A query narrows
/// another when each of the other's words lies within one of its own: a row holding the longer
/// word holds the shorter. Those rows are tested only for the words the other did not already
/// hold them to.
fn narrow(trail: &mut Vec<Narrowed>, query: &str, question: &Question) {
    let within = |w: &String, words: &[String]| words.iter().any(|v| v.contains(w.as_str()));
    let words = words_of(query);
    if words.is_empty() {
        return trail.clear();
    }
    if let Some(at) = trail.iter().rposition(|n| n.query == query) {
        return trail.truncate(at + 1);
    }
    while trail.last().is_some_and(|n| !words_of(&n.query).iter().all(|w| within(w, &words))) {
        trail.pop();
    }
    let (base, held) = match trail.last() {
        Some(last) => (last.rows.clone(), words_of(&last.query)),
        None => (None, Vec::new()),
    };
    let new: Vec<String> = words.iter().filter(|w| !within(w, &held)).cloned().collect();
    let rows = if new.is_empty() { base } else { hide(base, question, &new) };
    if trail.len() == TRAIL {
        trail.remove(0);
    }
    trail.push(Narrowed { query: query.to_owned(), rows });
}

/// Of `base` (every declared row when `None`), the rows holding each of `words`; `base` itself
/// when they all do, so a word that hides nothing costs a pass and no list.
fn hide(base: Option<Arc<Vec<u32>>>, question: &Question, words: &[String]) -> Option<Arc<Vec<u32>>> {
    let all = || 0..question.declared_rows() as u32;
    let test = |&i: &u32| row_holds(question, i as usize, words);
    let first_hidden = match &base {
        Some(rows) => rows.iter().position(|i| !test(i)),
        None => all().position(|i| !test(&i)),
    };
    let Some(cut) = first_hidden else { return base };
    let rows: Vec<u32> = match &base {
        Some(rows) => rows[..cut].iter().copied().chain(rows[cut..].iter().copied().filter(test)).collect(),
        None => all().take(cut).chain(all().skip(cut).filter(test)).collect(),
    };
    Some(Arc::new(rows))
}

/// Whether declared row `i` holds every word (lowered): in its label or its description, in
/// any order (`14 sql` finds "PostgreSQL 14"), case ignored.
fn row_holds(question: &Question, i: usize, words: &[String]) -> bool {
    let Some(option) = question.options.get(i) else { return false };
    let description = option.description.as_deref();
    words.iter().all(|w| holds(&option.label, w) || description.is_some_and(|d| holds(d, w)))
}

/// Whether `text` holds `word` (already lowered by `str::to_lowercase`), case ignored. A letter
/// typed into the query may test every row of the question, so ASCII text is compared in place
/// instead of lowering a copy of it per row (a million rows took about 30 ms in allocations
/// alone). Other text is lowered as the query was.
pub(crate) fn holds(text: &str, word: &str) -> bool {
    if !text.is_ascii() {
        return text.to_lowercase().contains(word);
    }
    word.is_empty() || crate::project::view::ascii_places(text.as_bytes(), word.as_bytes()).next().is_some()
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
