//! Where a filter's words lie in a row's text, so a frontend can mark them as it draws.

use std::ops::Range;

/// The byte ranges of `text` holding one of `words` (lowered, as the filter holds them), case
/// ignored as the filter ignores it; sorted, overlapping and touching ranges joined. A frontend
/// asks this of each piece of text it draws, after wrapping: a word broken across two lines is
/// not marked, but every mark lies within the piece it is drawn in.
pub fn marks(text: &str, words: &[String]) -> Vec<Range<usize>> {
    let mut found: Vec<Range<usize>> = Vec::new();
    for word in words.iter().filter(|w| !w.is_empty()) {
        if text.is_ascii() {
            ascii_marks(text.as_bytes(), word.as_bytes(), &mut found);
            continue;
        }
        for (start, _) in text.char_indices() {
            if let Some(len) = lowered_prefix(&text[start..], word) {
                found.push(start..start + len);
            }
        }
    }
    found.sort_unstable_by_key(|r| (r.start, r.end));
    let mut joined: Vec<Range<usize>> = Vec::with_capacity(found.len());
    for r in found {
        match joined.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => joined.push(r),
        }
    }
    joined
}

/// [`marks`] of one word in ASCII text (every frame with a filter asks for each row it draws).
fn ascii_marks(text: &[u8], word: &[u8], found: &mut Vec<Range<usize>>) {
    found.extend(ascii_places(text, word).map(|at| at..at + word.len()));
}

/// Where a lowered `word` starts in ASCII `text`, case ignored: candidates found by the word's
/// first letter in either case, a vector search. Lowered ASCII is ASCII, so a word lowered to
/// anything else is nowhere; an empty word is nowhere too.
pub(crate) fn ascii_places<'a>(text: &'a [u8], word: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let (first, rest) = word.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
    let last_start = text.len().checked_sub(word.len()).filter(|_| word.is_ascii() && !word.is_empty());
    let candidates = last_start.map(|end| &text[..=end]).unwrap_or_default();
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), candidates)
        .filter(move |&at| text[at + 1..at + word.len()].eq_ignore_ascii_case(rest))
}

/// How many bytes at the start of `text` lower to `word`, if they do: whole characters, the
/// last one's lowering allowed to run past the word's end (`İ` lowers to two characters).
fn lowered_prefix(text: &str, word: &str) -> Option<usize> {
    let mut want = word.chars().map(final_sigma).peekable();
    for (at, c) in text.char_indices() {
        for lower in c.to_lowercase().map(final_sigma) {
            match want.next() {
                Some(w) if w == lower => {}
                Some(_) => return None,
                None => break, // the word ended within this character's lowering
            }
        }
        if want.peek().is_none() {
            return Some(at + c.len_utf8());
        }
    }
    None
}

/// A word-final sigma compared as the plain one: the filter lowers whole texts, where a capital
/// sigma ending a word becomes `ς`, and this compares character by character.
fn final_sigma(c: char) -> char {
    if c == 'ς' { 'σ' } else { c }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    fn marked(text: &str, query: &str) -> Vec<&'static str> {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        let text: &'static str = Box::leak(text.to_owned().into_boxed_str());
        super::marks(text, &words).into_iter().map(|r| &text[r]).collect()
    }

    /// Issue 12.7: what a filter's words mark in a row, case ignored as the filter ignores it.
    #[rstest]
    #[case::one_word_in_any_case("PostgreSQL 14", "sql", &["SQL"])]
    #[case::each_word("PostgreSQL 14", "14 postgres", &["PostgreS", "14"])]
    #[case::every_place_it_is("banana", "an", &["anan"])]
    #[case::overlapping_words_joined("Blackberry", "black kber", &["Blackber"])]
    #[case::absent("Cherry", "zz", &[])]
    #[case::accented("CAFÉ crème", "é", &["É"])]
    #[case::kelvin_sign_lowers_to_k("\u{212A}elvin", "kel", &["\u{212A}el"])]
    #[case::a_final_sigma_typed_matches_a_sigma_inside("ΟΔΟΣ ΣΟΦΙΑΣ", "ς", &["Σ", "Σ", "Σ"])]
    #[case::dotted_capital_i_lowers_to_two("İstanbul", "i", &["İ"])]
    #[case::no_words("Apple", "", &[])]
    fn spec12_7_filter_marks(#[case] text: &str, #[case] query: &str, #[case] expected: &[&str]) {
        assert_eq!(marked(text, query), expected);
    }

    proptest::proptest! {
        /// A text is marked exactly when the filter's rule (its lowered whole holds the word)
        /// says it holds the word, and each mark lowers to text holding it: letters in both
        /// cases, accents and the Kelvin sign (lowerings of one character each).
        #[test]
        fn spec12_7_a_text_is_marked_where_the_filter_finds_the_word(
            text in "[aAbBkK ÉéKß1.]{0,12}",
            query in "[aAbBkK ÉéKß1.]{1,3}",
        ) {
            let word = query.trim().to_lowercase();
            proptest::prop_assume!(!word.is_empty() && !word.contains(' '));
            let marks = super::marks(&text, std::slice::from_ref(&word));
            proptest::prop_assert_eq!(!marks.is_empty(), text.to_lowercase().contains(&word));
            for r in marks {
                proptest::prop_assert!(text[r].to_lowercase().contains(&word));
            }
        }
    }
}
