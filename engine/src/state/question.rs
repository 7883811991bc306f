//! What the user has saved on one question: selections, free-form text, notes.

use std::collections::BTreeMap;

/// What the user has saved on one question. Counters make dirty and notes checks O(questions).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QuestionState {
    /// How many options the question declares.
    options: usize,
    /// The selected declared options, sorted. Indices, not a flag per option: a question may
    /// declare 100 000 options and a person selects a few, so clearing, listing and copying the
    /// selection costs what is selected, not what is declared (and a few fit inline).
    selected: smallvec::SmallVec<[usize; 4]>,
    custom_text: String,
    custom_selected: bool,
    note: String,
    /// Sparse: a form may have thousands of options and few notes.
    option_notes: BTreeMap<usize, String>,
    /// What the key being folded has changed so far; the fold takes it as one undo step.
    changes: Changes,
}

/// The changes one key made. Most keys make one (a toggle, a saved text), so it is kept inline:
/// journaling a key allocates nothing.
pub type Changes = smallvec::SmallVec<[Change; 1]>;

/// One saved thing changed on a question, with what it was: the undo journal holds these
/// deltas, never a copy of the answers (issue 13.3). `before`/`after` are the values around
/// the change; `on` is the new value of a flag.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the fields are described above, once for all variants
pub enum Change {
    /// A declared option was selected (`on`) or deselected.
    Selected { option: usize, on: bool },
    /// The selection was cleared; `was` lists the options that had been selected.
    Cleared { was: Vec<usize> },
    /// The free-form text and whether it counted as selected.
    Custom { before: (String, bool), after: (String, bool) },
    /// The custom row was selected (`on`) or deselected, its text kept.
    CustomSelected { on: bool },
    /// The question note.
    Note { before: String, after: String },
    /// The note on a declared option.
    OptionNote { option: usize, before: String, after: String },
}

impl QuestionState {
    /// Nothing saved on a question with `options` declared options.
    pub fn new(options: usize) -> QuestionState {
        QuestionState { options, ..QuestionState::default() }
    }

    /// Whether the declared option at `i` is selected.
    pub fn is_selected(&self, i: usize) -> bool {
        self.selected.binary_search(&i).is_ok()
    }

    /// Indices of selected declared options, in declared order.
    pub fn selected_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.selected.iter().copied()
    }

    /// How many declared options are selected.
    pub fn selected_count(&self) -> usize {
        self.selected.len()
    }

    /// Saved free-form text ("" when none).
    pub fn custom_text(&self) -> &str {
        &self.custom_text
    }

    /// Whether the custom row counts as selected (it needs saved text to be reported).
    pub fn custom_selected(&self) -> bool {
        self.custom_selected && !self.custom_text.is_empty()
    }

    /// The question note ("" when none).
    pub fn note(&self) -> &str {
        &self.note
    }

    /// The note on option `i` ("" when none).
    pub fn option_note(&self, i: usize) -> &str {
        self.option_notes.get(&i).map_or("", String::as_str)
    }

    /// `(option index, note)` for every option that has a note, in declared order.
    pub fn option_notes(&self) -> impl Iterator<Item = (usize, &str)> + '_ {
        self.option_notes.iter().map(|(i, n)| (*i, n.as_str()))
    }

    /// A committed answer: a selected option or selected non-blank free-form text.
    pub fn is_committed(&self) -> bool {
        !self.selected.is_empty() || self.custom_selected()
    }

    /// A question note or a note on any option, selected or not.
    pub fn has_notes(&self) -> bool {
        !self.note.is_empty() || !self.option_notes.is_empty()
    }

    /// Anything saved at all (the dirty check).
    pub fn has_anything(&self) -> bool {
        !self.selected.is_empty() || !self.custom_text.is_empty() || self.has_notes()
    }

    pub(crate) fn set_selected(&mut self, i: usize, on: bool) {
        if i < self.options && self.is_selected(i) != on {
            self.put(Change::Selected { option: i, on }, true);
        }
    }

    /// Makes declared option `i` the one choice (no other option, not the custom row), as a
    /// single-select question holds it. Records nothing when that already holds: confirming the
    /// choice already made is no undo step that Ctrl+Z would "take back" in vain.
    pub(crate) fn choose(&mut self, i: usize) {
        if self.custom_selected || !self.selected_indices().eq([i]) {
            self.clear_selection();
            self.set_custom_selected(false);
            self.set_selected(i, true);
        }
    }

    pub(crate) fn clear_selection(&mut self) {
        if !self.selected.is_empty() {
            let was = self.selected_indices().collect();
            self.put(Change::Cleared { was }, true);
        }
    }

    pub(crate) fn set_custom(&mut self, text: &str, selected: bool) {
        let before = (self.custom_text.clone(), self.custom_selected);
        let after = (text.to_owned(), selected && !text.is_empty());
        if before != after {
            self.put(Change::Custom { before, after }, true);
        }
    }

    pub(crate) fn set_custom_selected(&mut self, on: bool) {
        if self.custom_selected != on {
            self.put(Change::CustomSelected { on }, true);
        }
    }

    pub(crate) fn set_note(&mut self, text: &str) {
        if self.note != text {
            self.put(Change::Note { before: self.note.clone(), after: text.to_owned() }, true);
        }
    }

    pub(crate) fn set_option_note(&mut self, i: usize, text: &str) {
        let before = self.option_note(i);
        if i < self.options && before != text {
            let change = Change::OptionNote { option: i, before: before.to_owned(), after: text.to_owned() };
            self.put(change, true);
        }
    }

    /// Whether the key being folded changed anything saved so far.
    pub(crate) fn has_changes(&self) -> bool {
        !self.changes.is_empty()
    }

    /// The changes the key being folded made, in order (the journal takes them).
    pub(crate) fn take_changes(&mut self) -> Changes {
        std::mem::take(&mut self.changes)
    }

    /// Takes a step back: its changes undone, last first.
    pub(crate) fn undo(&mut self, changes: &[Change]) {
        for c in changes.iter().rev() {
            let inverse = match c {
                Change::Selected { option, on } => Change::Selected { option: *option, on: !on },
                Change::Cleared { was } => {
                    was.iter().for_each(|&i| self.put(Change::Selected { option: i, on: true }, false));
                    continue;
                }
                Change::Custom { before, after } => {
                    Change::Custom { before: after.clone(), after: before.clone() }
                }
                Change::CustomSelected { on } => Change::CustomSelected { on: !on },
                Change::Note { before, after } => {
                    Change::Note { before: after.clone(), after: before.clone() }
                }
                Change::OptionNote { option, before, after } => {
                    Change::OptionNote { option: *option, before: after.clone(), after: before.clone() }
                }
            };
            self.put(inverse, false);
        }
    }

    /// Does a step again.
    pub(crate) fn redo(&mut self, changes: &[Change]) {
        for c in changes {
            self.put(c.clone(), false);
        }
    }

    /// Makes a change, noting it for the journal when `record`.
    fn put(&mut self, change: Change, record: bool) {
        match &change {
            Change::Selected { option, on } if *option < self.options => {
                match (self.selected.binary_search(option), on) {
                    (Err(at), true) => self.selected.insert(at, *option),
                    (Ok(at), false) => drop(self.selected.remove(at)),
                    _ => {}
                }
            }
            Change::Selected { .. } => {}
            Change::Cleared { .. } => self.selected.clear(),
            Change::Custom { after, .. } => {
                after.0.clone_into(&mut self.custom_text);
                self.custom_selected = after.1;
            }
            Change::CustomSelected { on } => self.custom_selected = *on,
            Change::Note { after, .. } => after.clone_into(&mut self.note),
            Change::OptionNote { option, after, .. } => {
                if after.is_empty() {
                    self.option_notes.remove(option);
                } else {
                    after.clone_into(self.option_notes.entry(*option).or_default());
                }
            }
        }
        if record {
            self.changes.push(change);
        }
    }
}
