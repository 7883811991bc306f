//! What the user has saved on one question: selections, free-form text, notes.

use std::collections::BTreeMap;

/// What the user has saved on one question. Counters make dirty and notes checks O(questions).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QuestionState {
    selected: Vec<bool>,
    selected_count: usize,
    custom_text: String,
    custom_selected: bool,
    note: String,
    /// Sparse: a form may have thousands of options and few notes.
    option_notes: BTreeMap<usize, String>,
}

impl QuestionState {
    /// Nothing saved on a question with `options` declared options.
    pub fn new(options: usize) -> QuestionState {
        QuestionState { selected: vec![false; options], ..QuestionState::default() }
    }

    /// Whether the declared option at `i` is selected.
    pub fn is_selected(&self, i: usize) -> bool {
        self.selected.get(i).copied().unwrap_or(false)
    }

    /// Indices of selected declared options, in declared order.
    pub fn selected_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.selected.iter().enumerate().filter(|(_, s)| **s).map(|(i, _)| i)
    }

    /// How many declared options are selected.
    pub fn selected_count(&self) -> usize {
        self.selected_count
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
        self.selected_count > 0 || self.custom_selected()
    }

    /// A question note or a note on any option, selected or not.
    pub fn has_notes(&self) -> bool {
        !self.note.is_empty() || !self.option_notes.is_empty()
    }

    /// Anything saved at all (the dirty check).
    pub fn has_anything(&self) -> bool {
        self.selected_count > 0 || !self.custom_text.is_empty() || self.has_notes()
    }

    pub(crate) fn set_selected(&mut self, i: usize, on: bool) {
        if let Some(slot) = self.selected.get_mut(i)
            && *slot != on
        {
            *slot = on;
            if on { self.selected_count += 1 } else { self.selected_count -= 1 }
        }
    }

    pub(crate) fn clear_selection(&mut self) {
        if self.selected_count > 0 {
            self.selected.iter_mut().for_each(|s| *s = false);
            self.selected_count = 0;
        }
    }

    pub(crate) fn set_custom(&mut self, text: &str, selected: bool) {
        text.clone_into(&mut self.custom_text);
        self.custom_selected = selected && !text.is_empty();
    }

    pub(crate) fn set_custom_selected(&mut self, on: bool) {
        self.custom_selected = on;
    }

    pub(crate) fn set_note(&mut self, text: &str) {
        text.clone_into(&mut self.note);
    }

    pub(crate) fn set_option_note(&mut self, i: usize, text: &str) {
        if i >= self.selected.len() {
            return;
        }
        if text.is_empty() {
            self.option_notes.remove(&i);
        } else {
            text.clone_into(self.option_notes.entry(i).or_default());
        }
    }
}
