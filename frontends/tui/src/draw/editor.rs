//! Laying out an open editor: lines wrapped on words, as the saved text is (D28, issue 12.12),
//! and where its cursor lands.

use unicode_segmentation::UnicodeSegmentation;

use crate::text::{sanitize, width};

/// Lines being filled, and the cell each byte offset of the text was drawn at.
struct Layout {
    lines: Vec<String>,
    col: usize,
    max: usize,
    cursor: usize,
    at: Option<(usize, usize)>,
}

impl Layout {
    fn row(&self) -> usize {
        self.lines.len() - 1
    }

    fn new_line(&mut self) {
        self.lines.push(String::new());
        self.col = 0;
    }

    /// Notes the cursor's cell when the grapheme at `offset` is the one it stands before.
    fn mark(&mut self, offset: usize, cell: (usize, usize)) {
        if offset == self.cursor && self.at.is_none() {
            self.at = Some(cell);
        }
    }

    /// Places one grapheme, starting a new line when it does not fit.
    fn put(&mut self, g: &str, offset: usize) {
        let shown = sanitize(g, false);
        let w = width(&shown);
        if self.col + w > self.max && self.col > 0 {
            self.new_line();
        }
        self.mark(offset, (self.row(), self.col));
        if let Some(last) = self.lines.last_mut() {
            last.push_str(&shown);
        }
        self.col += w;
    }
}

/// Editor text as lines of at most `max` cells, and the cursor's (line, column). Lines break
/// at spaces where a word would not fit (a long word breaks inside it); the space a line
/// breaks at is not carried to the next line, so no line starts with it.
pub fn layout(text: &str, cursor: usize, max: usize) -> (Vec<String>, (usize, usize)) {
    let mut l = Layout { lines: vec![String::new()], col: 0, max: max.max(2), cursor, at: None };
    let mut offset = 0;
    for (n, para) in text.split('\n').enumerate() {
        if n > 0 {
            l.mark(offset - 1, (l.row(), l.col));
            l.new_line();
        }
        let mut base = offset;
        for word in para.split_word_bounds() {
            let w = width(&sanitize(word, false));
            let blank = word.trim().is_empty();
            if l.col + w > l.max && l.col > 0 {
                if blank {
                    // The break swallows this space: the cursor on it shows at the line's end.
                    let end = (l.row(), l.col.min(l.max - 1));
                    for (i, _) in word.grapheme_indices(true) {
                        l.mark(base + i, end);
                    }
                    l.new_line();
                    base += word.len();
                    continue;
                }
                l.new_line(); // the word starts a line (a longer one then breaks inside)
            }
            for (i, g) in word.grapheme_indices(true) {
                l.put(g, base + i);
            }
            base += word.len();
        }
        offset += para.len() + 1;
    }
    let Layout { mut lines, col, max, at, .. } = l;
    let cursor_at = at.unwrap_or_else(|| {
        if col >= max {
            lines.push(String::new());
            (lines.len() - 1, 0)
        } else {
            (lines.len() - 1, col)
        }
    });
    (lines, cursor_at)
}

#[cfg(test)]
mod tests {
    use super::layout;

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
    }
}
