//! A long text line laid out near the cursor only. The rows of one unbroken paste of megabytes
//! (minified JSON, a base64 blob, a log line without newlines) depend on all of the line before
//! the cursor, so laying the line out whole cost every key time in proportion to it (25 ms a key
//! at 1 MB). The rows found are remembered instead ([`RowStarts`]), and a key lays out from the
//! last row start that its change cannot have moved (issue 15.3: per-key cost independent of
//! text size).

use std::cell::Cell;
use std::ops::Range;

use super::layout::{Breaks, Walk, lay_out, lines_near, row_move, walk};
use super::simple_text::{BYTES_PER_CELL, is_simple};

/// Lines at least this long, of simple text (`editor/simple_text.rs`), are laid out from
/// remembered row starts. Shorter ones cost a key no more laid out whole (a 2 KB paragraph of
/// French about what a pane's rows near the cursor cost); other text keeps the one path every
/// stored log was folded by.
pub const LONG_LINE: usize = 4 * 1024;

/// How far past a row start, beyond a row's width, laying out may have read to place it, in
/// characters: the piece that starts there (one longer than a row is split, so it only had to
/// be seen to be longer) and word segmentation's look-ahead of two characters, with room to
/// spare.
const READ_PAST: usize = 8;

/// Where the rows of one long line of simple text begin, as far as they have been laid out:
/// the places laying out can start again from as if the line began there (a row that begins at
/// a piece's start). Derived from the text alone, so it is never part of what a buffer or a
/// view is.
#[derive(Debug, Clone, Default)]
pub struct RowStarts {
    /// The line's start and the width its rows were found at.
    key: Option<(usize, usize)>,
    /// (offset, row of the line), ascending, each row start from the line's start on up to the
    /// last one found: (line start, 0) first.
    starts: Vec<(usize, usize)>,
    /// A line start and how far from it the text was last seen to be simple, unchanged since:
    /// a key looks again only from where it changed, not at the whole line.
    simple: Option<(usize, usize)>,
}

/// What [`RowStarts::walk_near`] laid out: rows of the line from row `first` on.
struct Near {
    rows: Vec<String>,
    first: usize,
    /// The cursor's row among `rows`.
    cursor_row: usize,
    /// Whether `rows` go on to the line's last row.
    to_the_end: bool,
}

/// The text line holding `cursor`, as a range of `text` without its newline.
fn line_of(text: &str, cursor: usize) -> Range<usize> {
    lines_near(text, cursor, 0)
}

impl RowStarts {
    /// Whether the line is laid out from remembered row starts: a long one of simple text,
    /// broken at spaces (the rule every editor is drawn with now; logs folded by the older rule
    /// keep it).
    fn applies(&mut self, text: &str, line: &Range<usize>, breaks: Breaks, long: usize) -> bool {
        if breaks != Breaks::Spaces || line.len() < long {
            return false;
        }
        let known = match self.simple {
            Some((start, through)) if start == line.start => through.clamp(line.start, line.end),
            _ => line.start,
        };
        // A change can begin inside a character (two texts compared byte by byte).
        let simple = is_simple(&text[super::floor_boundary(text, known)..line.end]);
        self.simple = simple.then_some((line.start, line.end));
        simple
    }

    /// Forgets every row start that a change of the text from byte `at` on can have moved: a
    /// row start depends on the text before it and at most a row and `READ_PAST` characters
    /// after, which in simple text is at most `BYTES_PER_CELL` bytes a cell or character.
    pub fn changed_at(&mut self, at: usize) {
        if let Some((_, through)) = self.simple.as_mut() {
            *through = (*through).min(at);
        }
        let Some((_, max)) = self.key else { return };
        let reach = (max.max(2) + READ_PAST) * BYTES_PER_CELL;
        let keep = self.starts.partition_point(|&(offset, _)| offset + reach <= at);
        self.starts.truncate(keep);
        if keep == 0 {
            self.key = None;
        }
    }

    /// Lays out the rows of `line` (long, simple text) within `above` rows before the cursor's and
    /// `below` after it, telling `at` each position's cell with rows counted from the first laid
    /// out, and notes the row starts it passes.
    fn walk_near(
        &mut self,
        text: &str,
        line: &Range<usize>,
        cursor: usize,
        max: usize,
        (above, below): (usize, usize),
        mut at: impl FnMut(usize, (usize, usize)),
    ) -> Near {
        if self.key != Some((line.start, max)) {
            self.key = Some((line.start, max));
            self.starts = vec![(line.start, 0)];
        }
        let known = self.starts.partition_point(|&(offset, _)| offset <= cursor);
        let from_row = self.starts[known - 1].1.saturating_sub(above);
        let (start, first) = self.starts[self.starts.partition_point(|&(_, row)| row <= from_row) - 1];
        let limit = Cell::new(usize::MAX);
        let mut cursor_row = None;
        let walked = walk(
            text,
            start..line.end,
            max,
            Breaks::Spaces,
            |offset, cell| {
                if offset == cursor && cursor_row.is_none() {
                    cursor_row = Some(cell.0);
                    limit.set(cell.0 + below + 1);
                }
                at(offset, cell);
            },
            Walk { starts: true, limit: Some(&limit), simple: true },
        );
        let last = self.starts.last().map_or(0, |&(offset, _)| offset);
        let found = walked.starts.iter().filter(|&&(offset, _)| offset > last);
        self.starts.extend(found.map(|&(offset, row)| (offset, first + row)));
        let mut rows = walked.rows;
        // Every position of the line from `start` to the cursor is told (in simple text every
        // character is a grapheme), so the cursor was seen.
        let cursor_row = cursor_row.unwrap_or(rows.len() - 1);
        if cursor_row == rows.len() {
            rows.push(String::new()); // after a full last row: the row drawn only for the cursor
        }
        let to_the_end = !walked.stopped && rows.len() <= cursor_row + below + 1;
        rows.truncate(cursor_row + below + 1);
        Near { rows, first, cursor_row, to_the_end }
    }
}

/// [`super::layout_near`] remembering row starts in `memo` (which must have heard of every
/// change of `text` since it last saw it): the same rows near the cursor and its cell, except
/// that a long line of simple text gives only its own rows within `rows` of the cursor's, and the lines
/// beside it only when those reach its edge.
pub fn layout_near_remembering(
    text: &str,
    cursor: usize,
    max: usize,
    breaks: Breaks,
    rows: usize,
    memo: &mut RowStarts,
) -> (Vec<String>, (usize, usize)) {
    layout_near_from(text, cursor, (max, breaks, rows), memo, LONG_LINE)
}

/// [`layout_near_remembering`] for lines at least `long` bytes long (tests use short ones).
fn layout_near_from(
    text: &str,
    cursor: usize,
    (max, breaks, rows): (usize, Breaks, usize),
    memo: &mut RowStarts,
    long: usize,
) -> (Vec<String>, (usize, usize)) {
    let line = line_of(text, cursor);
    if !memo.applies(text, &line, breaks, long) {
        return super::layout_near(text, cursor, max, breaks, rows);
    }
    let mut col = 0;
    let near = memo.walk_near(text, &line, cursor, max, (rows, rows), |offset, cell| {
        if offset == cursor {
            col = cell.1;
        }
    });
    let skip = near.cursor_row.saturating_sub(rows);
    let window = lines_near(text, cursor, rows);
    let mut out = Vec::new();
    if near.first + skip == 0 && window.start < line.start {
        out = lay_out(text, window.start..line.start - 1, max, breaks, |_, _| {});
    }
    let row = out.len() + near.cursor_row - skip;
    out.extend(near.rows.into_iter().skip(skip));
    if near.to_the_end && line.end < window.end {
        out.extend(lay_out(text, line.end + 1..window.end, max, breaks, |_, _| {}));
    }
    (out, (row, col))
}

/// [`row_move`] remembering row starts in `memo` (see [`layout_near_remembering`]). A move
/// off a long line's first or last row into the line beside it lays both out whole.
pub fn row_move_remembering(
    text: &str,
    cursor: usize,
    (max, breaks): (usize, Breaks),
    up: bool,
    memo: &mut RowStarts,
) -> Option<usize> {
    row_move_from(text, cursor, (max, breaks), up, memo, LONG_LINE)
}

/// [`row_move_remembering`] for lines at least `long` bytes long (tests use short ones).
fn row_move_from(
    text: &str,
    cursor: usize,
    (max, breaks): (usize, Breaks),
    up: bool,
    memo: &mut RowStarts,
    long: usize,
) -> Option<usize> {
    let line = line_of(text, cursor);
    if !memo.applies(text, &line, breaks, long) {
        return row_move(text, cursor, max, breaks, up);
    }
    let mut cells = Vec::new();
    let near = memo.walk_near(text, &line, cursor, max, (1, 1), |offset, cell| cells.push((offset, cell)));
    let (row, col) = cells.iter().find(|(offset, _)| *offset == cursor)?.1;
    // As `row_move`: the last position on the target row at or left of the column.
    let mut best = None;
    let target = if up { row.checked_sub(1) } else { Some(row + 1) };
    for &(offset, (_, c)) in cells.iter().filter(|(_, (r, _))| Some(*r) == target) {
        if best.is_none() || c <= col {
            best = Some(offset);
        }
    }
    if best.is_some() || !(if up { near.first + row == 0 } else { near.to_the_end }) {
        return best;
    }
    // The target row is in the line above or below, if there is one.
    let edge = if up { line.start == 0 } else { line.end == text.len() };
    if edge { None } else { row_move(text, cursor, max, breaks, up) }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Breaks, RowStarts, lay_out, layout_near_from, row_move, row_move_from};

    /// The whole text laid out, and the cursor's cell: what the remembered layout is held to.
    fn whole(text: &str, cursor: usize, max: usize) -> (Vec<String>, (usize, usize)) {
        let mut cell = (0, 0);
        let mut rows = lay_out(text, 0..text.len(), max, Breaks::Spaces, |offset, at| {
            if offset == cursor {
                cell = at;
            }
        });
        if cell.0 == rows.len() {
            rows.push(String::new());
        }
        (rows, cell)
    }

    /// Simple text with what changes where rows break: runs of spaces, words longer than a row,
    /// the punctuation word segmentation joins words across (`a:b`, `1.5`), newlines, accented
    /// and Cyrillic letters (two bytes, one cell), CJK (three bytes, two cells, a word each),
    /// Katakana (joined into words), typographic punctuation, an ideographic space, and emoji
    /// (four bytes, two cells; a few text-style ones one cell).
    fn simple_text() -> impl Strategy<Value = String> {
        "([a-z]{1,4}|[a-z]{8,20}| |   |:|\\.|/|[0-9]{1,3}|'|\\n|\t|é|[à-ö]{2,9}|[а-я]{1,12}|[一-十]{1,6}|[ア-ン]{1,5}|—|“|…|\u{3000}|[😀-😏]{1,4}|🌡|🚀){0,80}"
    }

    /// A change: replace `len` bytes at a fraction of the text with `with`, then put the cursor
    /// at another fraction. Now and then it puts in a combining accent or a skin tone, which no
    /// longer makes simple text (the line is then laid out whole), or takes it out again.
    fn change() -> impl Strategy<Value = (f64, usize, String, f64)> {
        (
            0.0..=1.0f64,
            0usize..6,
            "([a-z]{0,3}| |:|\\n|[a-z]{9,14}|ж|中文|e\u{301}|👍|\u{1F3FD}){0,2}",
            0.0..=1.0f64,
        )
    }

    /// The grapheme boundary at or before a fraction of the text: where a cursor can be.
    fn at(text: &str, fraction: f64) -> usize {
        use unicode_segmentation::UnicodeSegmentation;
        let byte = (text.len() as f64 * fraction) as usize;
        let before = text.grapheme_indices(true).map(|(i, _)| i).take_while(|&i| i <= byte).last();
        if byte >= text.len() { text.len() } else { before.unwrap_or(0) }
    }

    /// A key typed at the end of a 1 MB line gives the rows a pane can show, not the line's
    /// thirteen thousand, and they are the whole line's last rows.
    #[test]
    fn a_long_line_gives_only_the_rows_near_the_cursor() {
        let mut text: String = (0..20_000).map(|i| format!("word{i} is {} ms; ", i % 97)).collect();
        let mut memo = super::RowStarts::default();
        let (all, _) = whole(&text, text.len(), 78);
        let (near, (row, _)) =
            super::layout_near_remembering(&text, text.len(), 78, Breaks::Spaces, 20, &mut memo);
        assert_eq!((near.len(), row), (21, 20), "{} rows in the line", all.len());
        assert_eq!(&near[..], &all[all.len() - 21..]);
        memo.changed_at(text.len());
        text.push('x');
        let (all, _) = whole(&text, text.len(), 78);
        let (near, _) = super::layout_near_remembering(&text, text.len(), 78, Breaks::Spaces, 20, &mut memo);
        assert_eq!(&near[..], &all[all.len() - 21..]);
    }

    /// Whether a line is simple text is remembered up to where it last changed: a change that
    /// puts in a combining accent is seen wherever it is, one that takes it out again too, and a
    /// change reported inside a character (two texts compared byte by byte) is read from that
    /// character's start.
    #[test]
    fn a_line_is_looked_at_again_from_where_it_changed() {
        let long = super::LONG_LINE;
        let mut text = "word é ".repeat(long / 4);
        let mut memo = RowStarts::default();
        let simple =
            |text: &str, memo: &mut RowStarts| memo.applies(text, &(0..text.len()), Breaks::Spaces, long);
        assert!(simple(&text, &mut memo));
        for at in [long, 3] {
            memo.changed_at(at);
            text.insert(at, '\u{301}');
            assert!(!simple(&text, &mut memo), "an accent put in at {at}");
            memo.changed_at(at);
            text.remove(at);
            assert!(simple(&text, &mut memo), "and taken out");
        }
        memo.changed_at(6); // inside the first `é`
        text.replace_range(5..7, "è");
        assert!(simple(&text, &mut memo));
    }

    proptest! {
        /// Through any edits, the rows near the cursor laid out from remembered row starts are
        /// the whole text's rows there, with the cursor on the same one, as many rows above and
        /// below as asked for or up to the text's edge; and Up and Down land where they would
        /// in the whole text.
        #[test]
        fn remembered_row_starts_lay_out_as_the_whole_text(
            start in simple_text(), changes in prop::collection::vec(change(), 1..12),
            max in 2usize..12, rows in 0usize..4,
        ) {
            let mut text = start;
            let mut memo = RowStarts::default();
            for (where_, len, with, cursor) in changes {
                let from = at(&text, where_);
                let mut to = (from + len).min(text.len());
                while !text.is_char_boundary(to) {
                    to += 1;
                }
                memo.changed_at(from);
                text.replace_range(from..to, &with);
                let cursor = at(&text, cursor);
                let (all, (row, col)) = whole(&text, cursor, max);
                let (near, (near_row, near_col)) =
                    layout_near_from(&text, cursor, (max, Breaks::Spaces, rows), &mut memo, 0);
                prop_assert_eq!(near_col, col);
                let first = row - near_row;
                prop_assert_eq!(&near[..], &all[first..first + near.len()]);
                prop_assert!(near_row >= rows || first == 0);
                prop_assert!(near.len() - near_row > rows || first + near.len() == all.len());
                for up in [true, false] {
                    let whole_move = row_move(&text, cursor, max, Breaks::Spaces, up);
                    prop_assert_eq!(row_move_from(&text, cursor, (max, Breaks::Spaces), up, &mut memo, 0), whole_move);
                }
            }
        }
    }
}
