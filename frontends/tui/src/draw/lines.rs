//! A list of styled lines that remembers where things are (rows to keep visible, the cursor).

use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use tuirealm::ratatui::style::Style;
use tuirealm::ratatui::text::{Line, Span};

use crate::text::{MAX_LINES, sanitize, shown, wrap, wrap_hanging};

/// Lines being built for one pane.
#[derive(Default)]
pub struct Lines {
    pub lines: Vec<Line<'static>>,
    /// First and last line of the row that must stay visible.
    pub focus: Option<(usize, usize)>,
    /// Where the terminal cursor goes: (line, column).
    pub cursor: Option<(usize, usize)>,
    /// The width an open editor here was drawn at, when the flow has not recorded it (or not
    /// with [`BREAKS`]) yet.
    pub editor_width: Option<u16>,
    /// How many lines are built; the rest are only counted (see [`Lines::counting_after`]).
    keep: Option<usize>,
    /// Lines counted past `keep`, not built.
    beyond: usize,
}

impl From<Vec<Line<'static>>> for Lines {
    fn from(lines: Vec<Line<'static>>) -> Lines {
        Lines { lines, ..Lines::default() }
    }
}

impl Lines {
    /// Lines of which only the first `keep` are built and the rest counted: for a pane that
    /// shows its top `keep` lines at most but says how many more there are (the review
    /// summary of a long answer costs the lines on screen, not the thousand under them).
    pub fn counting_after(keep: usize) -> Lines {
        Lines { keep: Some(keep), ..Lines::default() }
    }

    /// All the lines, built or only counted.
    pub(crate) fn len(&self) -> usize {
        self.lines.len() + self.beyond
    }

    /// Whether every line from here on is only counted.
    pub(crate) fn full(&self) -> bool {
        !self.room()
    }

    fn room(&self) -> bool {
        self.keep.is_none_or(|keep| self.lines.len() < keep)
    }

    pub fn push(&mut self, spans: Vec<Span<'static>>) {
        if self.room() {
            self.lines.push(Line::from(spans));
        } else {
            self.beyond += 1;
        }
    }

    pub fn blank(&mut self) {
        self.lines.push(Line::default());
    }

    /// Payload text, sanitized and wrapped to `max - indent` cells, each line indented.
    pub fn wrapped(&mut self, text: &str, indent: usize, max: usize, style: Style) {
        self.wrapped_marked(text, indent, max, style, &[]);
    }

    /// Like [`Lines::wrapped`], with a filter's `words` marked where they lie.
    pub fn wrapped_marked(&mut self, text: &str, indent: usize, max: usize, style: Style, words: &[String]) {
        let pad = " ".repeat(indent);
        let width = max.saturating_sub(indent);
        let text = sanitize(shown(text, width, MAX_LINES), true);
        let lines = wrap(&text, width);
        for spans in marked_lines(&text, &lines, style, words) {
            let mut line = vec![Span::raw(pad.clone())];
            line.extend(spans);
            self.push(line);
        }
    }

    /// Like [`Lines::wrapped`], with every line after the first indented two more cells, so a
    /// multi-line answer or a wrapped note hangs under its label (issue 12.19).
    pub fn hanging(&mut self, text: &str, indent: usize, max: usize, style: Style) {
        let width = max.saturating_sub(indent + 2);
        let pad = " ".repeat(indent);
        // The first line starts at `indent`, the rest two cells further in.
        let lines = wrap_hanging(&sanitize(shown(text, width, MAX_LINES), true), width + 2, width);
        for (n, l) in lines.iter().enumerate() {
            if !self.room() {
                self.beyond += lines.len() - n;
                break;
            }
            let pad = if n == 0 { pad.clone() } else { format!("{pad}  ") };
            self.push(vec![Span::raw(pad), Span::styled(l.clone(), style)]);
        }
    }

    /// An open editor and, under it, the paths offered for an `@` reference. Only the text
    /// lines within `rows` lines of the cursor's are laid out: a pane `rows` tall, scrolled to
    /// the cursor, shows no other (a pasted log of thousands of lines costs what is on screen).
    pub fn editor_view(
        &mut self,
        e: &ask_engine::project::view::EditorView,
        indent: usize,
        max: usize,
        rows: usize,
        placeholder: &str,
    ) {
        let width = self.editor(&e.text, e.cursor, indent, max, rows, placeholder);
        let width = u16::try_from(width).unwrap_or(u16::MAX);
        self.editor_width = (e.recorded_wrap != Some((width, BREAKS))).then_some(width);
        for (i, path) in e.completions.iter().enumerate() {
            let here = i == e.selected;
            let mark = if here { "▸ " } else { "  " };
            let style = if here { crate::style::accent() } else { crate::style::dim() };
            // After the indent, the mark and the `@`.
            let shown = crate::text::truncate_start(&sanitize(path, false), max.saturating_sub(indent + 3));
            self.push(vec![Span::raw(" ".repeat(indent)), Span::styled(format!("{mark}@{shown}"), style)]);
        }
    }

    /// An open editor at `indent`, with the terminal cursor placed in it; returns the width its
    /// text wraps at.
    fn editor(
        &mut self,
        text: &str,
        cursor: usize,
        indent: usize,
        max: usize,
        rows: usize,
        placeholder: &str,
    ) -> usize {
        let pad = " ".repeat(indent);
        let avail = max.saturating_sub(indent).max(2);
        if text.is_empty() {
            self.cursor = Some((self.len(), indent));
            self.push(vec![Span::raw(pad), Span::styled(placeholder.to_owned(), crate::style::dim())]);
            return avail;
        }
        let laid_out = editor_layout(text, cursor, avail, rows);
        let (row, col) = laid_out.1;
        self.cursor = Some((self.len() + row, indent + col));
        for r in laid_out.0.iter() {
            self.push(vec![Span::raw(pad.clone()), Span::raw(r.clone())]);
        }
        avail
    }

    /// The first line to show so that the focus row (and the cursor) fit in `height` lines.
    /// An editor taller than `height` gives way to its cursor: the line being typed on always
    /// shows, even when the focus row's first line then cannot.
    pub fn scroll_for(&self, height: usize) -> usize {
        let cursor = self.cursor.map(|(l, _)| l);
        let top = self.focus.map_or(0, |(start, end)| {
            let end = cursor.map_or(end, |l| end.max(l));
            if end < height { 0 } else { (end + 1 - height).min(start) }
        });
        match cursor {
            Some(l) if l >= top + height.max(1) => l + 1 - height.max(1),
            _ => top,
        }
    }
}

/// `line` ending in `…` within `width` cells: the mark of a line whose text goes on below it,
/// out of sight. Its last characters give way to the mark when the line is full.
pub fn cut(line: &Line<'static>, width: usize) -> Line<'static> {
    let room = width.saturating_sub(1);
    let mut spans = Vec::with_capacity(line.spans.len() + 1);
    let mut used = 0;
    let mut style = line.style;
    for span in &line.spans {
        style = line.style.patch(span.style);
        let w = crate::text::width(&span.content);
        if used + w <= room {
            used += w;
            spans.push(span.clone());
            continue;
        }
        let mut kept = String::new();
        for g in unicode_segmentation::UnicodeSegmentation::graphemes(span.content.as_ref(), true) {
            let gw = crate::text::width(g);
            if used + gw > room {
                break;
            }
            kept.push_str(g);
            used += gw;
        }
        spans.push(Span::styled(kept, span.style));
        break;
    }
    spans.push(Span::styled("…", style));
    Line::from(spans).style(line.style)
}

/// Where an open editor's rows break: at spaces, as all other text wraps. A frame records it
/// with the width ([`ask_engine::Event::EditorWrapped`]), so the fold moves Up and Down by the
/// rows drawn; a flow whose log recorded the older rule records this one at its next frame.
pub const BREAKS: ask_engine::editor::Breaks = ask_engine::editor::Breaks::Spaces;

/// An editor's rows and cursor cell, as [`ask_engine::editor::layout_near`] gives them.
type EditorRows = Rc<(Vec<String>, (usize, usize))>;

/// What the last editor laid out was: the cursor's offset, the width and the rows asked for
/// (with the text, what the layout reads); and the result.
type EditorKey = (usize, usize, usize);

/// The text the last editor held, the row starts of its long line, and the last layout.
#[derive(Default)]
struct Kept {
    text: String,
    rows: ask_engine::editor::RowStarts,
    laid_out: Option<(EditorKey, EditorRows)>,
}

thread_local! {
    static EDITOR_LAID_OUT: RefCell<Kept> = RefCell::new(Kept::default());
}

/// [`ask_engine::editor::layout_near`], kept for the next call, with a long line's row starts
/// remembered ([`ask_engine::editor::layout_near_remembering`]): a frame lays the open editor
/// out to measure the list (with descriptions and without) and again to draw it, and a key in a
/// line of megabytes then lays out only the rows near the cursor. The text is compared with the
/// last one to find where it changed, so what is remembered always matches it.
fn editor_layout(text: &str, cursor: usize, max: usize, rows: usize) -> EditorRows {
    EDITOR_LAID_OUT.with_borrow_mut(|kept| {
        let same = common_prefix(&kept.text, text);
        if same < kept.text.len() || same < text.len() {
            kept.rows.changed_at(same);
            kept.laid_out = None;
            kept.text.truncate(same);
            kept.text.push_str(&text[same..]);
        }
        let key = (cursor, max, rows);
        if let Some((k, laid_out)) = &kept.laid_out
            && *k == key
        {
            return laid_out.clone();
        }
        let laid_out =
            ask_engine::editor::layout_near_remembering(text, cursor, max, BREAKS, rows, &mut kept.rows);
        let laid_out = Rc::new(laid_out);
        kept.laid_out = Some((key, laid_out.clone()));
        laid_out
    })
}

/// How many leading bytes `a` and `b` share (a char boundary of both: they agree up to it).
fn common_prefix(a: &str, b: &str) -> usize {
    // Compared a block at a time: the slice comparison is a `memcmp`.
    const BLOCK: usize = 4096;
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut at = 0;
    let len = a.len().min(b.len());
    while at + BLOCK <= len && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    while at < len && a[at] == b[at] {
        at += 1;
    }
    // Back to a char boundary of both: a char that differs in a later byte changed too.
    while at > 0 && (!is_boundary(a, at) || !is_boundary(b, at)) {
        at -= 1;
    }
    at
}

fn is_boundary(s: &[u8], at: usize) -> bool {
    at >= s.len() || (s[at] as i8) >= -0x40
}

/// Each of `lines` (`text` wrapped, in order) as spans in `style`, with the places holding one
/// of a filter's `words` (lowered) marked (issue 12.7): the rows a filter shows say why they are
/// shown. The marks are found in the whole text, so a word the wrap broke across two lines
/// is marked on both.
pub fn marked_lines(
    text: &str,
    lines: &[String],
    style: Style,
    words: &[String],
) -> impl Iterator<Item = Vec<Span<'static>>> {
    let marks = if words.is_empty() { Vec::new() } else { ask_engine::project::view::marks(text, words) };
    let mut at = 0; // where in `text` the next line is looked for
    lines.iter().map(move |line| {
        if marks.is_empty() {
            return spans(line, style, &[]); // most text: no filter, or no word in it
        }
        // A wrapped line is a piece of the text; only the blanks a break dropped lie between two.
        let start = text[at..]
            .find(line.as_str())
            .map(|p| at + p)
            .filter(|&p| text[at..p].chars().all(char::is_whitespace));
        let Some(start) = start else {
            // Not where a wrap would have put it: marked on its own rather than misplaced.
            return spans(line, style, &ask_engine::project::view::marks(line, words));
        };
        at = start + line.len();
        let end = at;
        let inside: Vec<Range<usize>> = marks
            .iter()
            .filter(|r| r.start < end && r.end > start)
            .map(|r| r.start.max(start) - start..r.end.min(end) - start)
            .collect();
        spans(line, style, &inside)
    })
}

/// `part` as spans in `style`, the byte ranges `marks` (sorted, apart) in the matched style.
fn spans(part: &str, style: Style, marks: &[Range<usize>]) -> Vec<Span<'static>> {
    let mut spans = Vec::with_capacity(2 * marks.len() + 1);
    let mut at = 0;
    for r in marks {
        if r.start > at {
            spans.push(Span::styled(part[at..r.start].to_owned(), style));
        }
        spans.push(Span::styled(part[r.clone()].to_owned(), crate::style::matched(style)));
        at = r.end;
    }
    if at < part.len() || spans.is_empty() {
        spans.push(Span::styled(part[at..].to_owned(), style));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cut mark fits the width whatever fills the line after its indent: room to spare, a
    /// full line of narrow characters, a full line of wide ones (a wide character is never split).
    #[rstest::rstest]
    #[case::room_to_spare("Which language", 24, "  Which language…")]
    #[case::full_of_narrow("abcdef", 6, "  abc…")]
    #[case::full_of_wide("数据库选择", 10, "  数据库…")]
    #[case::wide_one_cell_short("数据库选择", 9, "  数据库…")]
    fn a_cut_line_ends_with_the_mark_within_its_width(
        #[case] text: &str,
        #[case] width: usize,
        #[case] shown: &str,
    ) {
        let line = Line::from(vec![Span::raw("  "), Span::styled(text.to_owned(), crate::style::bold())]);
        let cut = cut(&line, width);
        assert_eq!(cut.to_string(), shown);
        assert!(cut.width() <= width);
        assert_eq!(
            cut.spans.last().map(|s| s.style),
            Some(crate::style::bold()),
            "the mark is styled like the text"
        );
    }

    /// Issue 12.7: a filter's word is marked wherever the wrap put it, also where a long token
    /// was broken inside it or at a `-`, or across a blank the break dropped; text without the
    /// word, or no words, marks nothing. `[…]` stands for the matched style.
    #[rstest::rstest]
    #[case::broken_inside_a_token("abcdefghij", 4, &["def"], "abc[d]|[ef]gh|ij")]
    #[case::broken_at_a_hyphen("a read-only-replica set", 8, &["only-rep"], "a read-|[only-]|[rep]lica|set")]
    #[case::case_ignored_on_both_lines("WWWWABCDYYYY", 6, &["wabcdy"], "WWW[WAB]|[CDY]YYY")]
    #[case::whole_words_on_lines_apart("one two one", 4, &["one"], "[one]|two|[one]")]
    #[case::a_wide_word_broken("数据库选择", 6, &["库选"], "数据[库]|[选]择")]
    #[case::no_words("abcdefghij", 4, &[], "abcd|efgh|ij")]
    #[case::not_there("abcdefghij", 4, &["zz"], "abcd|efgh|ij")]
    fn a_word_is_marked_on_every_line_it_reaches(
        #[case] text: &str,
        #[case] width: usize,
        #[case] words: &[&str],
        #[case] shown: &str,
    ) {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let lines = wrap(text, width);
        let plain = Style::default();
        let drawn: Vec<String> =
            marked_lines(text, &lines, plain, &words)
                .map(|spans| {
                    spans
                        .iter()
                        .map(|s| {
                            if s.style == plain { s.content.to_string() } else { format!("[{}]", s.content) }
                        })
                        .collect()
                })
                .collect();
        assert_eq!(drawn.join("|"), shown);
    }

    /// Lines that are not the text's pieces in order (a wrap that changed the text) are marked
    /// on their own, never with marks found elsewhere in the text.
    #[test]
    fn a_line_not_where_the_wrap_would_put_it_is_marked_on_its_own() {
        let lines = ["bb".to_owned(), "cc".to_owned()];
        let drawn: Vec<usize> = marked_lines("aa bbcc aa", &lines, Style::default(), &["bbc".to_owned()])
            .map(|spans| spans.iter().filter(|s| s.style != Style::default()).count())
            .collect();
        assert_eq!(drawn, [0, 0], "`bb` lies after `aa `, not after blanks only");
    }
}
