//! Text as a terminal shows it: control characters made inert, widths in cells, and where a row
//! may break. The engine needs all three to move an editor's cursor by the rows the person sees
//! ([`crate::editor::layout_near`]); the terminal frontend draws with the same three.

use std::borrow::Cow;

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Shows control characters inert: C0 controls as their Unicode control pictures (`␛`), DEL as
/// `␡`, C1 controls as `�`, a tab as four spaces. `\n` is kept only when `keep_newlines`.
pub fn sanitize(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    // Printable ASCII is the common case: a byte scan (no early exit, so it vectorizes) finds
    // it without decoding up to 64 Ki characters per text per frame.
    let printable = |b: u8| (0x20..0x7f).contains(&b) || (keep_newlines && b == b'\n');
    if s.bytes().fold(true, |all, b| all & printable(b)) {
        return Cow::Borrowed(s);
    }
    let clean = |c: char| !c.is_control() || (keep_newlines && c == '\n');
    if s.chars().all(clean) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\t' => out.push_str("    "),
            c if (c as u32) < 0x20 => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('�')),
            '\u{7f}' => out.push('␡'),
            c if c.is_control() => out.push('�'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Display width in terminal cells.
pub fn width(s: &str) -> usize {
    if s.is_ascii() { s.len() } else { UnicodeWidthStr::width(s) }
}

/// The pieces a line of text may break between when it wraps in rows of `max` cells: runs of
/// whitespace, and runs of everything else, so a token such as `Ctrl+C`, `24×7` or `f(x)` is
/// never split across rows when it fits on one. A token wider than a whole row (a path, a URL)
/// comes in its words instead, so it breaks at a `/` or `-` before it breaks inside a word.
/// Words in wide characters (CJK text, which runs without spaces) stand alone: a row may break
/// between them.
pub fn breakable(line: &str, max: usize) -> impl Iterator<Item = &str> {
    pieces(line, max, line.is_ascii())
}

/// [`breakable`]'s pieces, found by bytes when `ascii` (which the text must then be), else by
/// word segmentation.
fn pieces(line: &str, max: usize, ascii: bool) -> impl Iterator<Item = &str> {
    let mut at = 0; // how far the ASCII scan has read
    let mut words = line.split_word_bound_indices().peekable();
    let alone = |w: &str| w.trim().is_empty() || has_wide(w);
    let mut inside: Option<unicode_segmentation::UWordBounds<'_>> = None; // a token too wide
    std::iter::from_fn(move || {
        if let Some(word) = inside.as_mut().and_then(Iterator::next) {
            return Some(word);
        }
        let token = if ascii {
            // Most text: the pieces found by bytes, with the breaks word segmentation would give
            // (a run of spaces is one piece, any other blank one of its own), at a fraction of
            // its cost.
            let rest = &line.as_bytes()[at..];
            let first = *rest.first()?;
            let blank = |b: u8| char::from(b).is_whitespace();
            let n = if first == b' ' {
                rest.iter().take_while(|&&b| b == b' ').count()
            } else if blank(first) {
                1
            } else {
                rest.iter().take_while(|&&b| !blank(b)).count()
            };
            at += n;
            &line[at - n..at]
        } else {
            let (start, first) = words.next()?;
            let mut end = start + first.len();
            if !alone(first) {
                while let Some(&(at, next)) = words.peek().filter(|(_, w)| !alone(w)) {
                    end = at + next.len();
                    words.next();
                }
            }
            &line[start..end]
        };
        // A text is never wider than its length in bytes (a wide character takes three or four).
        if token.len() > max && !token.trim().is_empty() && width(&sanitize(token, false)) > max {
            // Its edges are word boundaries of the line, so its own words are the line's.
            let mut each = token.split_word_bounds();
            let first = each.next();
            inside = Some(each);
            return first;
        }
        Some(token)
    })
}

/// Whether `s` holds a character two cells wide.
fn has_wide(s: &str) -> bool {
    !s.is_ascii() && s.chars().any(|c| c.width() == Some(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_shown_inert() {
        assert_eq!(sanitize("a\u{1b}[31mred\u{7}", false), "a␛[31mred␇");
        assert_eq!(sanitize("x\ny\tz\u{9b}", true), "x\ny    z�");
        assert_eq!(sanitize("x\ny", false), "x␊y");
    }

    #[rstest::rstest]
    #[case::printable_ascii("plain text", false, "plain text")]
    #[case::newline_dropped_unless_kept("a\nb", false, "a␊b")]
    #[case::newline_kept("a\nb", true, "a\nb")]
    #[case::escape("\u{1b}[2J", true, "␛[2J")]
    #[case::delete("a\u{7f}", false, "a␡")]
    #[case::tab("a\tb", false, "a    b")]
    #[case::c1_control("a\u{9b}b", false, "a�b")]
    #[case::non_ascii_printable("héllo 世界", false, "héllo 世界")]
    #[case::spaces_beside_a_control("a b\u{7}", false, "a b␇")]
    fn sanitize_shows_control_characters_inert(#[case] text: &str, #[case] keep: bool, #[case] shown: &str) {
        assert_eq!(sanitize(text, keep), shown);
    }

    /// Text with nothing to make inert is borrowed, not copied: every label, preview line and
    /// editor row goes through here on every frame.
    #[rstest::rstest]
    #[case::kept_newlines("a\nb", true)]
    #[case::non_ascii("héllo 世界", false)]
    #[case::non_ascii_with_kept_newlines("世\n界", true)]
    fn clean_text_is_not_copied(#[case] text: &str, #[case] keep: bool) {
        assert!(matches!(sanitize(text, keep), Cow::Borrowed(_)));
    }

    /// Rows break at whitespace and between wide-character words, never inside a token.
    #[rstest::rstest]
    #[case::spaces("the quick  fox", &["the", " ", "quick", "  ", "fox"])]
    #[case::key_names("Esc or Ctrl+C", &["Esc", " ", "or", " ", "Ctrl+C"])]
    #[case::punctuation("needs 24×7; it is f(x).", &["needs", " ", "24×7;", " ", "it", " ", "is", " ", "f(x)."])]
    #[case::tab("a\tb", &["a", "\t", "b"])]
    #[case::wide_words("数据库，选择 ok", &["数", "据", "库", "，", "选", "择", " ", "ok"])]
    #[case::empty("", &[])]
    #[case::a_token_wider_than_a_row("see /home/ada/a-b.json now", &["see", " ", "/", "home", "/", "ada", "/", "a", "-", "b.json", " ", "now"])]
    #[case::exactly_a_row_wide("/home/ada/x", &["/home/ada/x"])]
    #[case::wide_long_token("см. /home/ада/a-b.json", &["см.", " ", "/", "home", "/", "ада", "/", "a", "-", "b.json"])]
    #[case::blanks("a \t\u{b}  b", &["a", " ", "\t", "\u{b}", "  ", "b"])]
    fn text_breaks_only_between_tokens(#[case] line: &str, #[case] pieces: &[&str]) {
        assert_eq!(breakable(line, 11).collect::<Vec<_>>(), pieces);
    }

    proptest::proptest! {
        /// Finding the pieces by bytes gives what word segmentation gives, on any ASCII text.
        #[test]
        fn ascii_text_breaks_where_word_segmentation_would(
            line in "([a-z]{1,6}|[ \t\x0b\x0c\r]{1,3}|[-+/.,:;()'\"_=@#!?\x01\x7f]|[0-9]{1,4}){0,30}",
            max in 1usize..16,
        ) {
            let by_bytes: Vec<&str> = pieces(&line, max, true).collect();
            let by_words: Vec<&str> = pieces(&line, max, false).collect();
            proptest::prop_assert_eq!(by_bytes, by_words);
        }
    }
}
