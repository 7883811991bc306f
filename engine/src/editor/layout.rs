//! Laying out an open editor: lines wrapped on words, as the saved text is (D28, issue 12.12),
//! and the cell each cursor position lands on. The terminal frontend draws with it, and the
//! fold moves the cursor up and down by the same rows ([`super::TextBuffer::vertical`]).

use std::ops::Range;

use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

use crate::cells::{sanitize, width};

/// Where an editor's rows may break. The fold moves the cursor for Up and Down by these rows,
/// so each flow's log says which rule its editor was drawn with
/// ([`crate::Event::EditorWrapped`]): a stored log replays to the answers it was typed as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Breaks {
    /// At every word boundary, punctuation too (`Ctrl+` / `C`): the rule of logs written
    /// before 2026-12-07, whose `EditorWrapped` events name none.
    #[default]
    Words,
    /// At spaces and between words of wide characters, as all other text wraps
    /// ([`crate::cells::breakable`]): a token such as `Ctrl+C` that fits on a row stays whole.
    Spaces,
}

/// Lines being filled; `at` hears of the cell each cursor position (a byte offset) lands on.
struct Layout<F> {
    lines: Vec<String>,
    col: usize,
    max: usize,
    at: F,
    /// Where rows began at a piece's start, (offset, row), when asked for ([`Walk::starts`]).
    starts: Option<Vec<(usize, usize)>>,
}

impl<F: FnMut(usize, (usize, usize))> Layout<F> {
    fn row(&self) -> usize {
        self.lines.len() - 1
    }

    fn new_line(&mut self) {
        self.lines.push(String::new());
        self.col = 0;
    }

    /// A new row that begins with the piece at `offset`: laying out can start again there.
    fn new_line_at_piece(&mut self, offset: usize) {
        self.new_line();
        let row = self.row();
        if let Some(starts) = self.starts.as_mut() {
            starts.push((offset, row));
        }
    }

    /// Places one grapheme, starting a new line when it does not fit.
    fn put(&mut self, g: &str, offset: usize) {
        let shown = sanitize(g, false);
        let w = width(&shown);
        if self.col + w > self.max && self.col > 0 {
            self.new_line();
        }
        let cell = (self.row(), self.col);
        (self.at)(offset, cell);
        if let Some(last) = self.lines.last_mut() {
            last.push_str(&shown);
        }
        self.col += w;
    }
}

/// Lays out the text lines of `text` in `lines` (a range from the start of one text line to
/// the end of another) in rows of at most `max` cells, telling `at` the (row, column) of every
/// cursor position in order, counting rows from the range's first, up to the newline after the
/// range or the text's end. Rows break at spaces where a word would not fit (a long word breaks
/// inside it); the space a row breaks at is not carried to the next row, so no row starts with
/// it. A text line's rows depend on nothing before it, so a range lays out exactly as it would
/// inside the whole text.
pub(super) fn lay_out(
    text: &str,
    lines: Range<usize>,
    max: usize,
    breaks: Breaks,
    at: impl FnMut(usize, (usize, usize)),
) -> Vec<String> {
    walk(text, lines, max, breaks, at, Walk::default()).rows
}

/// What [`walk`] does besides laying out: note where rows begin, stop early.
#[derive(Default)]
pub(super) struct Walk<'a> {
    /// Note each row that begins at a piece's start inside the range's first text line, as
    /// (offset, row): laying out from there as if a line began there gives the same rows on.
    pub starts: bool,
    /// Stop once more rows than this are laid out (read after each piece, so `at` may set it).
    pub limit: Option<&'a std::cell::Cell<usize>>,
    /// The range is simple text ([`super::simple_text`]), where every character is a grapheme:
    /// finding grapheme boundaries, a fifth of laying such text out, is left out.
    pub simple: bool,
}

/// What [`walk`] laid out.
pub(super) struct Walked {
    pub rows: Vec<String>,
    /// The row starts noted ([`Walk::starts`]).
    pub starts: Vec<(usize, usize)>,
    /// Whether it stopped at [`Walk::limit`] before the range's end.
    pub stopped: bool,
}

/// [`lay_out`], noting row starts and stopping as `walk` asks.
pub(super) fn walk(
    text: &str,
    lines: Range<usize>,
    max: usize,
    breaks: Breaks,
    at: impl FnMut(usize, (usize, usize)),
    walk: Walk<'_>,
) -> Walked {
    let starts = walk.starts.then(Vec::new);
    let mut l = Layout { lines: vec![String::new()], col: 0, max: max.max(2), at, starts };
    let over = |rows: usize| walk.limit.is_some_and(|limit| rows > limit.get());
    let mut stopped = false;
    let mut offset = lines.start;
    'lines: for (n, para) in text[lines.clone()].split('\n').enumerate() {
        if n > 0 {
            let cell = (l.row(), l.col);
            (l.at)(offset - 1, cell); // the newline: after the line it ends
            l.new_line();
            l.starts = None; // only the first text line's row starts are asked for
        }
        let mut base = offset;
        let mut words = (breaks == Breaks::Words).then(|| para.split_word_bounds());
        let mut spaced = (breaks == Breaks::Spaces).then(|| crate::cells::breakable(para, l.max));
        let pieces = std::iter::from_fn(|| match (&mut words, &mut spaced) {
            (Some(words), _) => words.next(),
            (_, Some(spaced)) => spaced.next(),
            (None, None) => None,
        });
        for word in pieces {
            if over(l.lines.len()) {
                stopped = true;
                break 'lines;
            }
            let w = width(&sanitize(word, false));
            let blank = word.trim().is_empty();
            if l.col + w > l.max && l.col > 0 {
                if blank {
                    // The break swallows this space: the cursor on it shows at the line's end.
                    let end = (l.row(), l.col.min(l.max - 1));
                    for (i, _) in word.grapheme_indices(true) {
                        (l.at)(base + i, end);
                    }
                    base += word.len();
                    l.new_line_at_piece(base);
                    continue;
                }
                l.new_line_at_piece(base); // the word starts a line (a longer one then breaks inside)
            }
            if word.bytes().all(|b| (0x20..0x7f).contains(&b)) {
                // Printable ASCII, the common case: each byte is a grapheme one cell wide, and
                // finding grapheme boundaries is most of the cost of laying out.
                for i in 0..word.len() {
                    l.put(&word[i..=i], base + i);
                }
            } else if walk.simple {
                for (i, c) in word.char_indices() {
                    l.put(&word[i..i + c.len_utf8()], base + i);
                }
            } else {
                for (i, g) in word.grapheme_indices(true) {
                    l.put(g, base + i);
                }
            }
            base += word.len();
        }
        offset += para.len() + 1;
    }
    let Layout { lines: rows, col, max, mut at, starts } = l;
    if stopped {
        // Stopped early: what lies past the last row laid out is not told.
    } else if lines.end < text.len() {
        at(lines.end, (rows.len() - 1, col)); // the newline after the range
    } else {
        // The end of the text: after the last grapheme, or first on the row under a full one
        // (a row drawn only while the cursor is there).
        at(text.len(), if col >= max { (rows.len(), 0) } else { (rows.len() - 1, col) });
    }
    Walked { rows, starts: starts.unwrap_or_default(), stopped }
}

/// The text lines within `n` lines of the one holding `cursor`, as a range of `text`: from
/// the start of the `n`-th text line above it to the end of the `n`-th below. What
/// [`layout_near`] lays out; a caller keeping its results can key them on this slice.
pub fn lines_near(text: &str, cursor: usize, n: usize) -> Range<usize> {
    let mut start = text[..cursor].rfind('\n').map_or(0, |i| i + 1);
    for _ in 0..n {
        if start == 0 {
            break;
        }
        start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
    }
    let mut end = text[cursor..].find('\n').map_or(text.len(), |i| cursor + i);
    for _ in 0..n {
        if end == text.len() {
            break;
        }
        end = text[end + 1..].find('\n').map_or(text.len(), |i| end + 1 + i);
    }
    start..end
}

/// Editor text as rows of at most `max` cells and the cursor's (row, column) among them, laying
/// out only the text lines within `rows` lines of the cursor's: every row a pane `rows` tall
/// scrolled to the cursor can show, as it would be laid out in the whole text. A pasted log of
/// thousands of lines then costs each frame what the screen shows (one text line far longer
/// than the screen is still laid out whole: its rows depend on all of it).
pub fn layout_near(
    text: &str,
    cursor: usize,
    max: usize,
    breaks: Breaks,
    rows: usize,
) -> (Vec<String>, (usize, usize)) {
    layout_range(text, lines_near(text, cursor, rows), cursor, max, breaks)
}

fn layout_range(
    text: &str,
    lines: Range<usize>,
    cursor: usize,
    max: usize,
    breaks: Breaks,
) -> (Vec<String>, (usize, usize)) {
    let mut cell = None;
    // Each position is told once; a cursor inside a grapheme (no buffer puts one there) is
    // never told, and shows at the start of the last row.
    let mut rows = lay_out(text, lines, max, breaks, |offset, at| {
        if offset == cursor {
            cell = Some(at);
        }
    });
    let cell = cell.unwrap_or((rows.len() - 1, 0));
    if cell.0 == rows.len() {
        rows.push(String::new());
    }
    (rows, cell)
}

/// The cursor position one row above (`up`) or below `cursor` in `text` laid out `max` cells
/// wide: the one nearest the cursor's column without passing it, as editors move. `None` on
/// the first (last) row. Only the cursor's text line and the ones next to it are laid out.
pub(super) fn row_move(text: &str, cursor: usize, max: usize, breaks: Breaks, up: bool) -> Option<usize> {
    row_move_in(text, lines_near(text, cursor, 1), cursor, max, breaks, up)
}

fn row_move_in(
    text: &str,
    lines: Range<usize>,
    cursor: usize,
    max: usize,
    breaks: Breaks,
    up: bool,
) -> Option<usize> {
    let mut cells = Vec::new();
    lay_out(text, lines, max, breaks, |offset, at| cells.push((offset, at)));
    let (row, col) = cells.iter().find(|(o, _)| *o == cursor)?.1;
    let target = if up { row.checked_sub(1)? } else { row + 1 };
    // The last position on the target row at or left of the column; a row's positions come in
    // order, so the first one is the fallback when every one lies right of it.
    let on_row = cells.iter().filter(|(_, (r, _))| *r == target);
    let mut best = None;
    for &(offset, (_, c)) in on_row {
        if best.is_none() || c <= col {
            best = Some(offset);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use unicode_segmentation::UnicodeSegmentation;

    use super::{Breaks, lay_out, layout_near, layout_range, lines_near, row_move, row_move_in};

    /// The whole text laid out: what the windowed layout and moves are held to.
    fn layout_with(text: &str, cursor: usize, max: usize, breaks: Breaks) -> (Vec<String>, (usize, usize)) {
        layout_range(text, 0..text.len(), cursor, max, breaks)
    }

    /// The whole text laid out with the rule of the oldest logs.
    fn layout(text: &str, cursor: usize, max: usize) -> (Vec<String>, (usize, usize)) {
        layout_with(text, cursor, max, Breaks::Words)
    }

    fn any_breaks() -> impl Strategy<Value = Breaks> {
        prop_oneof![Just(Breaks::Words), Just(Breaks::Spaces)]
    }

    /// Texts of short lines, long lines, blank lines, runs of spaces and wide characters, with a
    /// cursor on one of their grapheme boundaries.
    fn text_and_cursor() -> impl Strategy<Value = (String, usize)> {
        "([a-z]{1,7}|世界|  |\\n|\\n\\n| |[a-z]{1,3}[+/.(-][a-z]{1,9}){0,60}".prop_flat_map(|text| {
            let ends: Vec<usize> = text.grapheme_indices(true).map(|(i, _)| i).chain([text.len()]).collect();
            (Just(text), prop::sample::select(ends))
        })
    }

    proptest! {
        /// Every cursor position (each grapheme's start and the text's end) is told once, in
        /// order: a cursor has one cell, and a row's positions run left to right.
        #[test]
        fn every_cursor_position_is_told_once_in_order(
            (text, _) in text_and_cursor(), max in 2usize..12, breaks in any_breaks(),
        ) {
            let mut told = Vec::new();
            lay_out(&text, 0..text.len(), max, breaks, |offset, _| told.push(offset));
            let positions: Vec<usize> = text.grapheme_indices(true).map(|(i, _)| i).chain([text.len()]).collect();
            prop_assert_eq!(told, positions);
        }

        /// The rows around the cursor are the whole text's rows from the window's first line
        /// on, with the cursor on the same one; the window holds `rows` rows above and below
        /// the cursor's, or reaches the text's edge.
        #[test]
        fn the_rows_near_the_cursor_are_the_whole_texts_rows(
            (text, cursor) in text_and_cursor(), max in 2usize..12, rows in 0usize..4, breaks in any_breaks(),
        ) {
            let (all, (row, col)) = layout_with(&text, cursor, max, breaks);
            let window = lines_near(&text, cursor, rows);
            let first = layout_with(&text, window.start, max, breaks).1.0;
            let (near, (near_row, near_col)) = layout_near(&text, cursor, max, breaks, rows);
            prop_assert_eq!(&near[..], &all[first..first + near.len()]);
            prop_assert_eq!((near_row + first, near_col), (row, col));
            prop_assert!(near_row >= rows || first == 0);
            prop_assert!(near.len() - near_row > rows || first + near.len() == all.len());
        }

        /// A window of more lines around the cursor than a pane is tall (what an editor's view
        /// carries: `EDITOR_WINDOW_LINES`, more than any pane) lays out the pane's rows exactly
        /// as the whole text does: the view need not copy the whole text.
        #[test]
        fn a_wider_window_lays_out_as_the_whole_text(
            (text, cursor) in text_and_cursor(), max in 2usize..12, rows in 0usize..4, more in 1usize..4,
            breaks in any_breaks(),
        ) {
            let window = lines_near(&text, cursor, rows + more);
            let inside = layout_near(&text[window.clone()], cursor - window.start, max, breaks, rows);
            prop_assert_eq!(inside, layout_near(&text, cursor, max, breaks, rows));
        }

        /// Moving a row up or down looks at the cursor's line and its neighbours only, and
        /// lands where it would in the whole text.
        #[test]
        fn a_row_move_lands_where_it_would_in_the_whole_text(
            (text, cursor) in text_and_cursor(), max in 2usize..12, up in any::<bool>(), breaks in any_breaks(),
        ) {
            let whole = row_move_in(&text, 0..text.len(), cursor, max, breaks, up);
            prop_assert_eq!(row_move(&text, cursor, max, breaks, up), whole);
        }
    }

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn cursor_follows_wraps_and_newlines() {
        assert_eq!(layout("abcdef", 6, 4), (lines(&["abcd", "ef"]), (1, 2)));
        assert_eq!(layout("ab\ncd", 3, 10).1, (1, 0));
        assert_eq!(layout("ab\ncd", 2, 10).1, (0, 2));
        assert_eq!(layout("世界", 3, 10).1, (0, 2));
        assert_eq!(layout("abcd", 4, 4), (lines(&["abcd", ""]), (1, 0)));
    }

    /// Issue 12.12: words are not broken mid-word, and no line starts with a space.
    #[test]
    fn lines_break_on_words_with_no_leading_space() {
        // A space that fits stays at its line's end (it is where the cursor goes after typing it).
        let (rows, _) = layout("the quick brown fox jumps", 0, 10);
        assert_eq!(rows, lines(&["the quick ", "brown fox ", "jumps"]));
        let (rows, cursor) = layout("hello world", 11, 8);
        assert_eq!(rows, lines(&["hello ", "world"]));
        assert_eq!(cursor, (1, 5));
        assert_eq!(layout("hello world", 5, 8).1, (0, 5));
        assert_eq!(layout("hello world", 6, 8).1, (1, 0));
        // A space that does not fit is not carried over: the next line starts with the word.
        let (rows, cursor) = layout("abcd efgh", 4, 4);
        assert_eq!(rows, lines(&["abcd", "efgh"]));
        assert_eq!(cursor, (0, 3), "on the swallowed space: the line's last cell");
        assert_eq!(layout("abcd efgh", 5, 4).1, (1, 0));
        // A word longer than a line still breaks inside it.
        assert_eq!(layout("a abcdefghij", 0, 5).0, lines(&["a ", "abcde", "fghij"]));
        // A pasted tab is shown as four spaces; in a narrower editor it overflows its row
        // rather than leave an empty row above it.
        assert_eq!(layout("\tx", 0, 3).0, lines(&["    ", "x"]));
        // The oldest logs' rule breaks at every word boundary, punctuation too; the rule new
        // flows record breaks at spaces, as other text does, and a token wider than a row at its
        // punctuation first. Up and Down move by these rows in the fold, so each stays as it is.
        assert_eq!(layout("press Ctrl+C now", 0, 10).0, lines(&["press Ctrl", "+C now"]));
        let spaced = |text, max| layout_with(text, 0, max, Breaks::Spaces).0;
        assert_eq!(spaced("press Ctrl+C now", 10), lines(&["press ", "Ctrl+C now"]));
        assert_eq!(spaced("at ~/a/bcd/efg.rs", 8), lines(&["at ~/a/", "bcd/", "efg.rs"]));
    }

    #[test]
    fn rows_are_moved_between_as_they_are_drawn() {
        // "the quick " / "brown fox " / "jumps"
        let text = "the quick brown fox jumps";
        assert_eq!(row_move(text, 12, 10, Breaks::Words, true), Some(2), "br|own → th|e");
        assert_eq!(row_move(text, 2, 10, Breaks::Words, false), Some(12));
        assert_eq!(
            row_move(text, 19, 10, Breaks::Words, false),
            Some(text.len()),
            "past a short row: its end"
        );
        assert_eq!(row_move(text, 3, 10, Breaks::Words, true), None, "the first row");
        assert_eq!(row_move(text, 22, 10, Breaks::Words, false), None, "the last row");
        // Wide characters: the column in cells, never inside one.
        assert_eq!(
            row_move("世界世界\nabc", 14, 20, Breaks::Words, true),
            Some(0),
            "a|bc → |世: cell 1 lies inside 世"
        );
        assert_eq!(row_move("世界世界\nabc", 15, 20, Breaks::Words, true), Some(3), "ab|c → 世|界");
    }
}
