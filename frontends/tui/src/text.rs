//! Text made safe and laid out for cells: payload text never reaches the terminal raw.

use std::hash::BuildHasher;
use std::rc::Rc;

pub use ask_engine::cells::{sanitize, width};
use unicode_segmentation::UnicodeSegmentation;

/// The start of `s` that can reach the screen in `lines` lines of `max` cells: a character
/// takes at least one cell (or ends a line), so later ones are never drawn. Laying out only
/// this keeps the cost of a frame bounded by the screen, not by the text (a 10 MB label).
pub fn shown(s: &str, max: usize, lines: usize) -> &str {
    ask_engine::project::view::first_chars(s, lines.saturating_mul(max.max(1).saturating_add(1)))
}

/// No drawn area is taller than this many rows ([`crate::MAX_DRAWN`]).
pub const MAX_LINES: usize = crate::MAX_DRAWN as usize;

// An editor's view carries the lines near its cursor, enough for a pane this tall and one more.
const _: () = assert!(MAX_LINES < ask_engine::project::view::EDITOR_WINDOW_LINES);

/// Wraps text to `max` cells per line: at spaces where possible (a token such as `Ctrl+C` stays
/// whole, [`ask_engine::cells::breakable`]), inside long words by grapheme.
/// Explicit newlines start new lines. Always returns at least one line.
pub fn wrap(text: &str, max: usize) -> Rc<[String]> {
    wrap_hanging(text, max, max)
}

/// Like [`wrap`], with the first line `first` cells wide and the others `max`: a hanging
/// indent, whose first line starts further left than the lines under it.
/// The lines are shared with the cache: a hit costs no copy of them, so a caller that shows a
/// few lines of a long text copies only those.
pub fn wrap_hanging(text: &str, first: usize, max: usize) -> Rc<[String]> {
    let (first, max) = (first.max(1), max.max(1));
    // Most payload text is short ASCII: one line, no segmentation needed.
    if text.len() <= first && text.is_ascii() && !text.contains('\n') {
        return Rc::from([text.trim_end().to_owned()]);
    }
    // The same prompt and descriptions are wrapped on every key (and measured by the layout
    // before they are drawn): word segmentation is the costly part, so recent results are kept
    // per text and width. The text is kept beside its lines and compared on a hit, so two
    // texts with the same hash can never show each other's lines.
    let key = (WRAP_HASH.with(|h| h.hash_one(text)), text.len(), first, max);
    WRAPPED.with_borrow_mut(|cache| {
        if let Some((kept, lines)) = cache.get(&key)
            && **kept == *text
        {
            return lines.clone();
        }
        let lines: Rc<[String]> = wrap_uncached(text, first, max).into();
        if cache.len() >= WRAP_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, (text.into(), lines.clone()));
        lines
    })
}

/// Texts kept wrapped: a screen's worth of prompts, descriptions and notes, a few times over.
const WRAP_CACHE_ENTRIES: usize = 512;

/// A text's hash and length, and the first line's and the other lines' widths.
type WrapKey = (u64, usize, usize, usize);

/// Wrapped texts by key, each beside the text it was wrapped from.
type WrapCache = std::collections::HashMap<WrapKey, (Box<str>, Rc<[String]>)>;

thread_local! {
    /// A fast hash with a per-process seed (hashing a 64 KiB text costs microseconds, not tens).
    static WRAP_HASH: foldhash::quality::RandomState = foldhash::quality::RandomState::default();
    static WRAPPED: std::cell::RefCell<WrapCache> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

fn wrap_uncached(text: &str, first: usize, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    // The width of the line being filled: the first line's until one is done.
    let cap = |lines: &Vec<String>| if lines.is_empty() { first } else { max };
    for para in text.split('\n') {
        let mut line = String::new();
        let mut line_w = 0;
        for word in ask_engine::cells::breakable(para, max) {
            let w = width(word);
            if line_w + w <= cap(&lines) {
                line.push_str(word);
                line_w += w;
                continue;
            }
            if !line.trim().is_empty() {
                lines.push(line.trim_end().to_owned());
                line = String::new();
                line_w = 0;
                if word.trim().is_empty() {
                    continue; // a space that caused the break starts no line
                }
            }
            // Printable ASCII is one cell per byte: cut it in slices (a long unbroken word costs
            // a copy, not a grapheme walk). Same breaks as the walk below.
            if word.bytes().all(|b| (0x20..0x7f).contains(&b)) {
                let mut rest = word;
                while !rest.is_empty() {
                    if line_w >= cap(&lines) && !line.is_empty() {
                        lines.push(std::mem::take(&mut line));
                        line_w = 0;
                    }
                    let room = cap(&lines);
                    let n = (room - line_w.min(room)).max(1).min(rest.len());
                    line.push_str(&rest[..n]);
                    line_w += n;
                    rest = &rest[n..];
                }
                continue;
            }
            for g in word.graphemes(true) {
                let gw = width(g);
                if line_w + gw > cap(&lines) && !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                    line_w = 0;
                }
                line.push_str(g);
                line_w += gw;
            }
        }
        lines.push(line.trim_end().to_owned());
    }
    lines
}

/// Cuts text to at most `max` cells, ending with `…` when it was cut.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_owned();
    }
    let mut out = fitting(s.graphemes(true), max).concat();
    out.push('…');
    out
}

/// Cuts text to at most `max` cells from its start, beginning with `…` when it was cut: for a
/// path, whose end (the file's name) says the most.
pub fn truncate_start(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_owned();
    }
    let mut kept = fitting(s.graphemes(true).rev(), max);
    kept.reverse();
    std::iter::once("…").chain(kept).collect()
}

/// The graphemes `gs` gives, in its order, that fit in `max` cells with one cell left for `…`.
fn fitting<'a>(gs: impl Iterator<Item = &'a str>, max: usize) -> Vec<&'a str> {
    let mut w = 0;
    gs.take_while(|g| {
        w += width(g);
        w < max
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_text_that_can_reach_the_screen_is_laid_out() {
        let huge = "x".repeat(10_000_000);
        let cut = shown(&huge, 70, MAX_LINES);
        assert_eq!(cut.len(), MAX_LINES * 71, "a screenful, not 10 MB");
        assert!(wrap(cut, 70).len() >= MAX_LINES, "still more lines than any screen has");
        assert_eq!(shown("short", 70, 1), "short");
        assert_eq!(shown("héllo wörld", 2, 2), "héllo ", "cut on a character boundary");
    }

    #[test]
    fn wrap_breaks_at_spaces_and_inside_long_words() {
        assert_eq!(*wrap("the quick brown fox", 9), ["the quick", "brown fox"]);
        assert_eq!(*wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(*wrap("a\n\nb", 5), ["a", "", "b"]);
        // Long ASCII words are cut in slices: after a partial line, at exact widths, width 1.
        assert_eq!(*wrap("ab cdefghijkl", 5), ["ab", "cdefg", "hijkl"]);
        assert_eq!(*wrap("abcde", 5), ["abcde"]);
        assert_eq!(*wrap("abcdef", 5), ["abcde", "f"]);
        assert_eq!(*wrap("abc", 1), ["a", "b", "c"]);
        assert_eq!(*wrap("x".repeat(12).as_str(), 4), ["xxxx", "xxxx", "xxxx"]);
        // …and the same words with one non-ASCII letter take the grapheme walk, breaking alike.
        assert_eq!(*wrap("ab cdefghijké", 5), ["ab", "cdefg", "hijké"]);
        // Leading spaces stay on the line a long word starts on (an indented note or list).
        assert_eq!(*wrap("  abcdefgh", 5), ["  abc", "defgh"]);
        // A token with punctuation in it is not split where it fits on a line…
        assert_eq!(*wrap("Esc or Ctrl+C still leave", 12), ["Esc or", "Ctrl+C still", "leave"]);
        assert_eq!(*wrap("it needs 24×7", 11), ["it needs", "24×7"]);
        // …and one wider than a line (a path) breaks at its punctuation before inside a word.
        assert_eq!(
            *wrap("Config: /home/ada/ask-user/config.json", 20),
            ["Config: /home/ada/", "ask-user/config.json"]
        );
    }

    #[test]
    fn a_hanging_indent_gives_its_first_line_the_room_the_indent_leaves() {
        assert_eq!(*wrap_hanging("Database: SQLite for tests", 12, 10), ["Database:", "SQLite for", "tests"]);
        assert_eq!(
            *wrap_hanging("Extras: CI, Lint", 16, 14),
            ["Extras: CI, Lint"],
            "fits on its wider first line"
        );
        assert_eq!(*wrap_hanging("abcdefghijkl", 6, 4), ["abcdef", "ghij", "kl"]);
        assert_eq!(*wrap_hanging("世界世界世", 4, 2), ["世界", "世", "界", "世"]);
        assert_eq!(*wrap_hanging("a\nbcd", 3, 2), ["a", "bc", "d"], "only the very first line is wider");
    }

    #[test]
    fn wrapped_text_comes_from_the_cache_only_for_the_same_text() {
        let a = "the quick brown fox jumps";
        assert_eq!(*wrap(a, 9), ["the quick", "brown fox", "jumps"]);
        assert_eq!(*wrap(a, 9), ["the quick", "brown fox", "jumps"], "a hit gives the same lines");
        // A forged entry under the key another text would hash to is not taken for that text.
        let b = "lorem ipsum dolor sit";
        let key = (WRAP_HASH.with(|h| h.hash_one(b)), b.len(), 9, 9);
        WRAPPED.with_borrow_mut(|c| c.insert(key, (a.into(), Rc::from(["wrong".to_owned()]))));
        assert_eq!(*wrap(b, 9), ["lorem", "ipsum", "dolor sit"]);
    }

    #[test]
    fn wrap_counts_wide_characters_as_two_cells() {
        assert_eq!(*wrap("世界世界世", 4), ["世界", "世界", "世"]);
        // Text in wide characters runs without spaces: a row breaks between its words.
        assert_eq!(*wrap("ok 世界世", 7), ["ok 世界", "世"]);
        // A token exactly a row wide stays whole, though it takes more bytes than cells.
        assert_eq!(*wrap("x a-é", 3), ["x", "a-é"]);
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("Database", 5), "Data…");
        assert_eq!(truncate("DB", 5), "DB");
    }

    /// A path cut to its width keeps its end, the file's name, after the mark; a wide character
    /// is never split, and text that fits is left alone.
    #[rstest::rstest]
    #[case::a_path("src/a/b/main.rs", 10, "…b/main.rs")]
    #[case::wide_characters("数据库/选择", 6, "…/选择")]
    #[case::wide_one_cell_short("数据库选择", 6, "…选择")]
    #[case::fits("src/main.rs", 11, "src/main.rs")]
    fn truncate_start_keeps_the_end(#[case] text: &str, #[case] max: usize, #[case] cut: &str) {
        assert_eq!(truncate_start(text, max), cut);
        assert!(width(&truncate_start(text, max)) <= max);
    }
}
