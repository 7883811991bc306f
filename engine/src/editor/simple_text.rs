//! Which text a long line's rows can be found in near the cursor only ([`super::long_line`]):
//! text in which where a row begins depends on the text near it, and in which a row's cells
//! bound its bytes.
//!
//! Word and grapheme segmentation look past any number of combining marks, format characters
//! and joiners (UAX #29, WB4 and GB9), and a zero-width character takes no cell, so a row can
//! hold any number of bytes of either. Text without them — ASCII, and the characters of
//! [`SIMPLE`]: most European and East Asian text as typed, and emoji standing alone — breaks
//! into rows of at most four bytes a cell, each character a grapheme of its own, with word
//! boundaries decided by at most the next two characters.

/// The most bytes a character of simple text takes (an emoji), and so the most a cell holds.
pub const BYTES_PER_CELL: usize = 4;

/// Non-ASCII characters one or two cells wide, none a mark, format character, joiner, emoji
/// modifier, regional indicator, prepended or conjoining character: each is a grapheme of its
/// own, and word segmentation never skips it.
const SIMPLE: &[(char, char)] = &[
    ('\u{A0}', '\u{AC}'), // Latin-1 punctuation and signs, before the soft hyphen (a format character)
    ('\u{AE}', '\u{2FF}'), // Latin-1 letters, Latin Extended-A and -B, IPA, spacing modifiers
    ('\u{370}', '\u{482}'), // Greek and Coptic, Cyrillic up to its combining marks
    ('\u{48A}', '\u{52F}'), // the rest of Cyrillic and its supplement
    ('\u{531}', '\u{58A}'), // Armenian
    ('\u{5D0}', '\u{5EA}'), // Hebrew letters (no points)
    ('\u{620}', '\u{64A}'), // Arabic letters (no harakat)
    ('\u{660}', '\u{669}'), // Arabic-Indic digits
    ('\u{10A0}', '\u{10FF}'), // Georgian
    ('\u{1E00}', '\u{1FFF}'), // Latin Extended Additional (Vietnamese), Greek Extended
    ('\u{2010}', '\u{2027}'), // dashes, quotes, bullets, ellipsis
    ('\u{2030}', '\u{205E}'), // per mille, primes, more punctuation
    ('\u{20A0}', '\u{20C0}'), // currency signs
    ('\u{2100}', '\u{214F}'), // letterlike symbols
    ('\u{2150}', '\u{23FF}'), // number forms, arrows, mathematical operators, technical symbols
    ('\u{2500}', '\u{27BF}'), // box drawing, blocks, shapes, symbols, dingbats
    ('\u{3000}', '\u{3029}'), // CJK punctuation, before its combining tone marks
    ('\u{3030}', '\u{303F}'), // more CJK punctuation
    ('\u{3041}', '\u{3096}'), // Hiragana
    ('\u{309B}', '\u{30FF}'), // spacing sound marks, Katakana
    ('\u{3100}', '\u{3163}'), // Bopomofo, Hangul compatibility jamo (which do not conjoin)
    ('\u{3165}', '\u{318F}'), // the rest of them, after the Hangul filler (no width)
    ('\u{3200}', '\u{4DBF}'), // enclosed CJK letters, CJK compatibility, CJK Extension A
    ('\u{4E00}', '\u{9FFF}'), // CJK Unified Ideographs
    ('\u{AC00}', '\u{D7A3}'), // Hangul syllables (not the conjoining jamo)
    ('\u{F900}', '\u{FAFF}'), // CJK compatibility ideographs
    ('\u{FF01}', '\u{FF60}'), // fullwidth forms
    ('\u{FF61}', '\u{FF9D}'), // halfwidth Katakana, before its voiced sound marks (extending)
    ('\u{FFE0}', '\u{FFE6}'), // fullwidth signs
    ('\u{FFE8}', '\u{FFEE}'), // halfwidth forms
    ('\u{1F300}', '\u{1F3FA}'), // emoji: pictographs, before the skin-tone modifiers (extending)
    ('\u{1F400}', '\u{1F64F}'), // more pictographs, emoticons
    ('\u{1F680}', '\u{1F6FF}'), // transport and map symbols
    ('\u{1F7E0}', '\u{1F7EB}'), // coloured circles and squares
    ('\u{1F90C}', '\u{1F9FF}'), // supplemental pictographs
    ('\u{1FA70}', '\u{1FAFF}'), // pictographs extended
];

/// Whether `c` is one of [`SIMPLE`]'s characters.
fn simple(c: char) -> bool {
    let i = SIMPLE.partition_point(|&(_, last)| last < c);
    SIMPLE.get(i).is_some_and(|&(first, _)| first <= c)
}

/// Whether `line` is simple text: ASCII, or ASCII and [`SIMPLE`]'s characters.
pub fn is_simple(line: &str) -> bool {
    line.is_ascii() || line.chars().all(|c| c.is_ascii() || simple(c))
}

#[cfg(test)]
mod tests {
    use unicode_segmentation::UnicodeSegmentation;

    use super::{SIMPLE, is_simple, simple};
    use crate::cells::{sanitize, width};

    fn every_simple_char() -> impl Iterator<Item = char> {
        SIMPLE.iter().flat_map(|&(first, last)| first..=last)
    }

    /// What the long-line layout relies on, checked for every character the list admits:
    /// at most four bytes and one cell or more; a grapheme of its own beside letters, itself
    /// and a wide character; and a word boundary after a Han character (a mark, format
    /// character or joiner would be joined to it, WB4).
    #[test]
    fn every_simple_character_is_a_grapheme_and_a_cell_of_its_own() {
        assert!(SIMPLE.windows(2).all(|w| w[0].1 < w[1].0), "sorted, apart");
        for c in every_simple_char() {
            assert!(c.len_utf8() <= super::BYTES_PER_CELL, "{c:?}");
            assert!((1..=2).contains(&width(&sanitize(&c.to_string(), false))), "{c:?} width");
            for text in [format!("a{c}b"), format!("{c}{c}{c}"), format!("中{c}中")] {
                assert_eq!(text.graphemes(true).count(), 3, "{c:?} joins in {text:?}");
            }
            assert_eq!(format!("中{c}").split_word_bounds().count(), 2, "{c:?} is skipped by words");
        }
    }

    #[rstest::rstest]
    #[case::ascii("plain text, tabs\tand all", true)]
    #[case::french("Le café déjà très élevé — « à côté »", true)]
    #[case::chinese("这是一个很长的句子，没有换行。", true)]
    #[case::japanese("ひらがなとカタカナ、漢字。", true)]
    #[case::korean("한국어 문장입니다.", true)]
    #[case::russian("Съешь же ещё этих мягких французских булок", true)]
    #[case::armenian("Բարեւ ձեզ", true)]
    #[case::georgian("გამარჯობა", true)]
    #[case::hangul_filler("ㅤ", false)]
    #[case::a_combining_accent("cafe\u{301}", false)]
    #[case::emoji_standing_alone("shipped 🚀 thanks 👍😀🎉", true)]
    #[case::an_emoji_with_a_skin_tone("👍🏽", false)]
    #[case::an_emoji_joined_to_another("👩\u{200D}💻", false)]
    #[case::an_emoji_in_colour("❤\u{FE0F}", false)]
    #[case::a_flag("🇫🇷", false)]
    #[case::a_zero_width_space("a\u{200B}b", false)]
    #[case::a_soft_hyphen("hy\u{AD}phen", false)]
    #[case::devanagari("नमस्ते", false)]
    #[case::thai("ภาษาไทย", false)]
    #[case::a_c1_control("a\u{85}b", false)]
    fn simple_text_is_what_the_list_admits(#[case] text: &str, #[case] expected: bool) {
        assert_eq!(is_simple(text), expected);
    }

    #[test]
    fn the_list_is_looked_up_at_its_edges() {
        for &(first, last) in SIMPLE {
            assert!(simple(first) && simple(last), "{first:?}..={last:?}");
            let before = char::from_u32(first as u32 - 1).unwrap();
            let after = char::from_u32(last as u32 + 1).unwrap();
            assert!(!simple(before) || SIMPLE.iter().any(|r| r.1 == before), "{before:?}");
            assert!(!simple(after) || SIMPLE.iter().any(|r| r.0 == after), "{after:?}");
        }
    }
}
