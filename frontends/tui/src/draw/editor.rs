//! Laying out an open editor: hard-wrapped lines and where its cursor lands.

use unicode_segmentation::UnicodeSegmentation;

use crate::text::{sanitize, width};

/// Editor text as lines of at most `max` cells, and the cursor's (line, column).
pub fn layout(text: &str, cursor: usize, max: usize) -> (Vec<String>, (usize, usize)) {
    let max = max.max(2);
    let mut lines = vec![String::new()];
    let (mut col, mut at) = (0usize, None);
    let mut offset = 0;
    for g in text.graphemes(true) {
        if offset == cursor {
            at = Some((lines.len() - 1, col));
        }
        offset += g.len();
        if g == "\n" || g == "\r\n" {
            lines.push(String::new());
            col = 0;
            continue;
        }
        let shown = sanitize(g, false);
        let w = width(&shown);
        if col + w > max {
            lines.push(String::new());
            col = 0;
        }
        if let Some(last) = lines.last_mut() {
            last.push_str(&shown);
        }
        col += w;
    }
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

    #[test]
    fn cursor_follows_wraps_and_newlines() {
        assert_eq!(layout("abcdef", 6, 4), (vec!["abcd".to_owned(), "ef".to_owned()], (1, 2)));
        assert_eq!(layout("ab\ncd", 3, 10).1, (1, 0));
        assert_eq!(layout("世界", 3, 10).1, (0, 2));
        assert_eq!(layout("abcd", 4, 4), (vec!["abcd".to_owned(), String::new()], (1, 0)));
    }
}
