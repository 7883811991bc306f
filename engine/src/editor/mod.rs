//! A small multi-line text buffer with a grapheme-aware cursor, owned by the fold, and how its
//! text wraps into the rows a terminal shows.

mod layout;
mod long_line;
mod simple_text;

pub use layout::{Breaks, layout_near, lines_near};
pub use long_line::{LONG_LINE, RowStarts, layout_near_remembering};

use serde::{Deserialize, Serialize};
use unicode_segmentation::{GraphemeCursor, UnicodeSegmentation};

/// Longer than any path an `@` reference completes (Linux's `PATH_MAX` is 4 096 bytes).
const MAX_WORD: usize = 4096;

/// The character boundary of `text` at or before byte `at` (`str::floor_char_boundary`, which
/// needs Rust 1.91).
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Editor text and the cursor as a byte offset that always sits on a grapheme boundary.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TextBuffer {
    text: String,
    cursor: usize,
    /// Where a long line's rows begin, for Up and Down ([`long_line`]); told of every change.
    #[serde(skip)]
    rows: Remembered,
}

/// Row starts kept beside a buffer's text to save work: derived from the text, so never part
/// of what the buffer is (two buffers with the same text and cursor are equal) or of the log.
#[derive(Clone, Default)]
struct Remembered(RowStarts);

impl PartialEq for Remembered {
    fn eq(&self, _: &Remembered) -> bool {
        true
    }
}

impl Eq for Remembered {}

impl std::fmt::Debug for Remembered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Remembered")
    }
}

impl TextBuffer {
    /// A buffer holding `text` with the cursor at its end.
    pub fn with_text(text: &str) -> TextBuffer {
        TextBuffer { text: text.to_owned(), cursor: text.len(), rows: Remembered::default() }
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor's byte offset.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// True when the text is empty after trimming ("empty" for navigation and `?`).
    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// Inserts text at the cursor; CRLF and lone CR become LF.
    pub fn insert(&mut self, s: &str) {
        if s.contains('\r') {
            let clean = s.replace("\r\n", "\n").replace('\r', "\n");
            self.insert_clean(&clean);
        } else {
            self.insert_clean(s);
        }
    }

    fn insert_clean(&mut self, s: &str) {
        self.rows.0.changed_at(self.cursor);
        self.text.insert_str(self.cursor, s);
        self.cursor += s.len();
    }

    /// Replaces the `len` bytes before the cursor with `text` (the cursor ends after it).
    pub fn replace_before_cursor(&mut self, len: usize, text: &str) {
        let start = self.cursor.saturating_sub(len);
        if self.text.is_char_boundary(start) {
            self.rows.0.changed_at(start);
            self.text.replace_range(start..self.cursor, text);
            self.cursor = start + text.len();
        }
    }

    /// The word before the cursor (back to the last whitespace), or nothing when it is longer
    /// than `MAX_WORD` bytes. Asked after every edit (is an `@` path being typed?), so a key
    /// typed after a long unbroken paste must not read back through all of it.
    pub fn word_before_cursor(&self) -> &str {
        let from = floor_boundary(&self.text, self.cursor.saturating_sub(MAX_WORD));
        let before = &self.text[from..self.cursor];
        let word = before.rsplit(char::is_whitespace).next().unwrap_or("");
        if from > 0 && word.len() == before.len() { "" } else { word }
    }

    /// Inserts one character at the cursor.
    pub fn insert_char(&mut self, c: char) {
        self.rows.0.changed_at(self.cursor);
        self.text.insert(self.cursor, c);
        self.cursor += c.len_utf8();
    }

    fn prev_boundary(&self, at: usize) -> Option<usize> {
        GraphemeCursor::new(at, self.text.len(), true).prev_boundary(&self.text, 0).ok().flatten()
    }

    fn next_boundary(&self, at: usize) -> Option<usize> {
        GraphemeCursor::new(at, self.text.len(), true).next_boundary(&self.text, 0).ok().flatten()
    }

    /// Deletes the grapheme before the cursor.
    pub fn backspace(&mut self) {
        if let Some(start) = self.prev_boundary(self.cursor) {
            self.rows.0.changed_at(start);
            self.text.replace_range(start..self.cursor, "");
            self.cursor = start;
        }
    }

    /// Deletes the grapheme after the cursor.
    pub fn delete(&mut self) {
        if let Some(end) = self.next_boundary(self.cursor) {
            self.rows.0.changed_at(self.cursor);
            self.text.replace_range(self.cursor..end, "");
        }
    }

    /// Moves one grapheme left.
    pub fn left(&mut self) {
        if let Some(p) = self.prev_boundary(self.cursor) {
            self.cursor = p;
        }
    }

    /// Moves one grapheme right.
    pub fn right(&mut self) {
        if let Some(n) = self.next_boundary(self.cursor) {
            self.cursor = n;
        }
    }

    fn line_start(&self) -> usize {
        self.text[..self.cursor].rfind('\n').map_or(0, |i| i + 1)
    }

    fn line_end(&self) -> usize {
        self.text[self.cursor..].find('\n').map_or(self.text.len(), |i| self.cursor + i)
    }

    /// Moves to the start of the line.
    pub fn home(&mut self) {
        self.cursor = self.line_start();
    }

    /// Moves to the end of the line.
    pub fn end(&mut self) {
        self.cursor = self.line_end();
    }

    /// Moves to the previous word start.
    pub fn word_left(&mut self) {
        let before = &self.text[..self.cursor];
        self.cursor =
            before.split_word_bound_indices().rev().find(|(_, w)| !w.trim().is_empty()).map_or(0, |(i, _)| i);
    }

    /// Moves past the next word.
    pub fn word_right(&mut self) {
        let after = &self.text[self.cursor..];
        let skip = after
            .split_word_bound_indices()
            .find(|(_, w)| !w.trim().is_empty())
            .map_or(after.len(), |(i, w)| i + w.len());
        self.cursor += skip;
    }

    /// Deletes from the previous word start to the cursor.
    pub fn delete_word_back(&mut self) {
        let end = self.cursor;
        self.word_left();
        self.rows.0.changed_at(self.cursor);
        self.text.replace_range(self.cursor..end, "");
    }

    /// Deletes from the line start to the cursor.
    pub fn delete_to_line_start(&mut self) {
        let start = self.line_start();
        self.rows.0.changed_at(start);
        self.text.replace_range(start..self.cursor, "");
        self.cursor = start;
    }

    /// Moves one row up (`up`) or down; from the first (last) row, to the text's start (end).
    /// With `wrap`, the rows are the ones the editor was last drawn with, that many cells wide
    /// and broken by that rule ([`layout_near`]), and the cursor keeps its cell column; without
    /// it (no frame has said yet how wide the editor is), the rows are the text's lines and the
    /// cursor keeps its grapheme column.
    pub fn vertical(&mut self, up: bool, wrap: Option<(usize, Breaks)>) {
        if let Some((max, breaks)) = wrap {
            let edge = if up { 0 } else { self.text.len() };
            let moved =
                long_line::row_move_remembering(&self.text, self.cursor, (max, breaks), up, &mut self.rows.0);
            self.cursor = moved.unwrap_or(edge);
            return;
        }
        let start = self.line_start();
        let column = self.text[start..self.cursor].graphemes(true).count();
        let target_start = if up {
            if start == 0 {
                self.cursor = 0;
                return;
            }
            self.text[..start - 1].rfind('\n').map_or(0, |i| i + 1)
        } else {
            let end = self.line_end();
            if end == self.text.len() {
                self.cursor = end;
                return;
            }
            end + 1
        };
        let line_end = self.text[target_start..].find('\n').map_or(self.text.len(), |i| target_start + i);
        let line = &self.text[target_start..line_end];
        let offset = line.grapheme_indices(true).nth(column).map_or(line.len(), |(i, _)| i);
        self.cursor = target_start + offset;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// An edit the buffer can make, by name, then Up or Down.
    fn edit_then_move() -> impl Strategy<Value = (u8, bool)> {
        (0u8..8, any::<bool>())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Every edit tells the row starts a long line remembers: after any edits, Up and Down
        /// land where they do in a buffer that remembers nothing.
        #[test]
        fn up_and_down_in_a_long_line_land_as_in_a_fresh_buffer(
            steps in prop::collection::vec(edit_then_move(), 1..40),
        ) {
            // Simple text: ASCII, accented letters and CJK, all laid out from remembered rows.
            let text: String = (0..LONG_LINE / 12 + 400).map(|i| format!("w{i}:{} é中 ", i % 9)).collect();
            let mut b = TextBuffer::with_text(&text);
            b.home();
            let wrap = Some((23, Breaks::Spaces));
            for (edit, up) in steps {
                match edit {
                    0 => b.insert_char('x'),
                    1 => b.insert("ab 中d é"),
                    2 => b.backspace(),
                    3 => b.delete(),
                    4 => b.delete_word_back(),
                    5 => b.replace_before_cursor(2, "yz "),
                    6 => b.word_right(),
                    _ => b.vertical(false, wrap),
                }
                let mut fresh = TextBuffer { text: b.text.clone(), cursor: b.cursor, rows: Remembered::default() };
                b.vertical(up, wrap);
                fresh.vertical(up, wrap);
                prop_assert_eq!(b.cursor, fresh.cursor);
            }
        }
    }

    /// The word an `@` query is read from: back to the last whitespace, but not past
    /// [`MAX_WORD`] bytes, where no path reaches.
    #[rstest::rstest]
    #[case::after_a_long_paste(format!("{} @src/ma", "x".repeat(3 * MAX_WORD)), "@src/ma")]
    #[case::the_whole_short_text("@src".to_owned(), "@src")]
    #[case::longer_than_any_path(format!("@{}", "a".repeat(MAX_WORD)), "")]
    #[case::cut_inside_a_character(format!("{}@a", "é".repeat(MAX_WORD)), "")]
    fn the_word_before_the_cursor_is_bounded(#[case] text: String, #[case] word: &str) {
        assert_eq!(TextBuffer::with_text(&text).word_before_cursor(), word);
        let longest = format!("@{}", "a".repeat(MAX_WORD - 2));
        assert_eq!(
            TextBuffer::with_text(&longest).word_before_cursor(),
            longest,
            "shorter than MAX_WORD: whole"
        );
    }

    #[test]
    fn backspace_removes_a_whole_grapheme_cluster() {
        let mut b = TextBuffer::with_text("ae\u{301}👨‍👩‍👧");
        b.backspace();
        assert_eq!(b.text(), "ae\u{301}");
        b.backspace();
        assert_eq!(b.text(), "a");
    }

    #[test]
    fn cursor_moves_by_grapheme_and_inserts_in_the_middle() {
        let mut b = TextBuffer::with_text("世界");
        b.left();
        b.insert_char('x');
        assert_eq!(b.text(), "世x界");
        b.home();
        b.delete();
        assert_eq!(b.text(), "x界");
    }

    #[test]
    fn paste_normalizes_line_endings() {
        let mut b = TextBuffer::default();
        b.insert("a\r\nb\rc");
        assert_eq!(b.text(), "a\nb\nc");
    }

    #[test]
    fn vertical_moves_keep_the_column() {
        let mut b = TextBuffer::with_text("abcd\nxy");
        b.vertical(true, None);
        assert_eq!(b.cursor(), 2);
        b.vertical(false, None);
        assert_eq!(b.cursor(), 7);
        // Between middle lines: onto a shorter line, its end (not into the next line); from
        // the third line up, the second line's column.
        let mut b = TextBuffer::with_text("abc\nde\nfgh");
        b.cursor = 3;
        b.vertical(false, None);
        assert_eq!(b.cursor(), 6, "abc| → de|");
        b.cursor = 8;
        b.vertical(true, None);
        assert_eq!(b.cursor(), 5, "f|gh → d|e");
    }

    /// With the width the editor was drawn at, Up and Down move by the rows on screen: a long
    /// line wrapped into three rows is three steps, not one jump to the text's start.
    #[test]
    fn vertical_moves_follow_the_drawn_rows() {
        let mut b = TextBuffer::with_text("the quick brown fox jumps"); // "the quick " / "brown fox " / "jumps"
        b.vertical(true, Some((10, Breaks::Words)));
        assert_eq!(b.cursor(), 15, "jumps| → brown|");
        b.vertical(true, Some((10, Breaks::Words)));
        assert_eq!(b.cursor(), 5);
        b.vertical(true, Some((10, Breaks::Words)));
        assert_eq!(b.cursor(), 0, "from the first row: the start");
        b.vertical(false, Some((10, Breaks::Words)));
        b.vertical(false, Some((10, Breaks::Words)));
        assert_eq!(b.cursor(), 20);
        b.vertical(false, Some((10, Breaks::Words)));
        assert_eq!(b.cursor(), 25, "from the last row: the end");
    }

    #[test]
    fn word_motions_and_kills() {
        let mut b = TextBuffer::with_text("hello big world");
        b.delete_word_back();
        assert_eq!(b.text(), "hello big ");
        b.word_left();
        assert_eq!(b.cursor(), 6);
        b.delete_to_line_start();
        assert_eq!(b.text(), "big ");
    }
}
