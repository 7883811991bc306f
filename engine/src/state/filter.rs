//! The row filter's state: its query, and the rows each query on the way to it showed.

use std::fmt;
use std::sync::Arc;

/// Rows of the active question narrowed by typed text (issue 12.7). The result's indices stay
/// the declared positions: the filter only hides rows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filter {
    /// The typed text; a row matches when its label or description holds each of its words,
    /// case ignored.
    pub query: String,
    /// Keys go to the query (true) or to the filtered rows (false).
    pub editing: bool,
    /// The rows shown for the queries typed on the way to this one, the last for `query`
    /// itself; empty while the query has no words (every row shown). A key that adds to the
    /// query tests only the rows the last one showed, one that takes back finds its rows here,
    /// and the view and the cursor read them without testing a row: a list of a million
    /// options is tested once per query, not once per frame (issue 15.3). Derived, and kept in
    /// the fold on purpose: the rows are a function of the form, the tab and the query alone,
    /// so a replay folds the same trail; the fold's cursor moves need them as the view does;
    /// and a property test holds them to that function.
    pub(crate) trail: Vec<Narrowed>,
}

/// The declared rows one query shows, in declared order (as `u32`: half the room, and a form
/// cannot hold 4 G options, each taking more than 48 bytes).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Narrowed {
    pub(crate) query: String,
    /// `None` when it hides none; shared with the query before it when the new word hid
    /// nothing more.
    pub(crate) rows: Option<Arc<Vec<u32>>>,
}

/// Not the rows themselves: a state's debug print would list a million numbers.
impl fmt::Debug for Narrowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.rows.as_ref().map(|r| r.len());
        f.debug_struct("Narrowed").field("query", &self.query).field("rows", &rows).finish()
    }
}

/// The rows a question shows, the custom row last: every row, or the declared rows a filter
/// left and then the custom row.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Shown<'a> {
    /// Rows `0..=custom`.
    All { custom: usize },
    /// These declared rows, then `custom`.
    Some { rows: &'a [u32], custom: usize },
}

impl Filter {
    /// The query's words, lowered: what a row must hold, and what a frontend marks.
    pub(crate) fn words(&self) -> Vec<String> {
        words_of(&self.query)
    }
}

/// A query's words, lowered.
pub(crate) fn words_of(query: &str) -> Vec<String> {
    query.split_whitespace().map(str::to_lowercase).collect()
}

impl Shown<'_> {
    /// How many rows are shown, the custom row included.
    pub(crate) fn len(self) -> usize {
        match self {
            Shown::All { custom } => custom + 1,
            Shown::Some { rows, .. } => rows.len() + 1,
        }
    }

    /// The `k`-th row shown (the custom row past the end).
    pub(crate) fn row(self, k: usize) -> usize {
        match self {
            Shown::All { custom } => k.min(custom),
            Shown::Some { rows, custom } => rows.get(k).map_or(custom, |&r| r as usize),
        }
    }

    /// How many rows shown come before `row`.
    pub(crate) fn before(self, row: usize) -> usize {
        match self {
            Shown::All { custom } => row.min(custom + 1),
            Shown::Some { rows, custom } => {
                rows.partition_point(|&r| (r as usize) < row) + usize::from(row > custom)
            }
        }
    }

    /// Whether `row` is shown (past the custom row, `before` is the length, where `row` gives
    /// the custom row back).
    pub(crate) fn holds(self, row: usize) -> bool {
        self.row(self.before(row)) == row
    }
}
