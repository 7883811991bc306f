//! Text as a terminal shows it: control characters made inert, and widths in cells. The
//! engine needs both to move an editor's cursor by the rows the person sees
//! ([`crate::editor::layout_near`]); the terminal frontend draws with the same two.

use std::borrow::Cow;

use unicode_width::UnicodeWidthStr;

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
}
