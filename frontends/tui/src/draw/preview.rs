//! The preview pane of a preview question: the highlighted option's preview in a bordered box
//! whose border says where it is and which keys move it (issue 12.6).

use ask_engine::project::view::PreviewView;
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::ratatui::style::Style;
use tuirealm::ratatui::text::{Line, Span};
use tuirealm::ratatui::widgets::{Block, Padding};

use super::lines::Lines;
use crate::style;
use crate::text::{MAX_LINES, sanitize, shown, wrap_hanging};

/// Draws the pane into `area`; returns the line to record when `scroll` lay past the last page
/// (see `preview_window`).
pub fn render(frame: &mut Frame, area: Rect, p: &PreviewView, scroll: usize) -> Option<usize> {
    let title = format!(" {} ", sanitize(shown(&p.label, area.width as usize, 1), false));
    // A column of room on either side inside the border: code and mock-ups read as themselves,
    // not as part of the frame.
    let bordered = || Block::bordered().padding(Padding::horizontal(1));
    let inner = bordered().inner(area);
    let (body, position, clamped) = preview_window(p, inner.width as usize, inner.height as usize, scroll);
    let mut block = bordered().title(Span::styled(title, style::bold()));
    if let Some(position) = position {
        block = block.title_bottom(Line::from(Span::styled(position, style::dim())).right_aligned());
    }
    frame.render_widget(block, area);
    super::put_lines(frame, inner, &body.lines);
    clamped
}

/// The preview pane from text line `scroll` on (line 0 also shows the description above the
/// text), filled up from above when the preview ends before the pane does, so its last page is
/// always full. Only the lines on screen are wrapped: the lines above are skipped by a scan, so
/// a 1 000 000-line preview costs what its scroll position costs, not its length (issue 15.3).
///
/// Returns the rows, the border's position label, and — when `scroll` lay past the last page —
/// the line to record instead ([`ask_engine::Event::PreviewClamped`]): the first line from which
/// this same frame is drawn, so the next PageUp moves the pane at once.
fn preview_window(
    p: &PreviewView,
    width: usize,
    height: usize,
    scroll: usize,
) -> (Lines, Option<String>, Option<usize>) {
    /// A row and the text line it belongs to (`None`: the description above the text).
    type Row = (Option<usize>, Line<'static>);
    let tagged = |text: &str, line: Option<usize>, style: Style, rows: &mut Vec<Row>| {
        let mut l = Lines::default();
        l.wrapped(text, 0, width, style);
        rows.extend(l.lines.into_iter().map(|r| (line, r)));
    };
    let wrapped = |raw: &str, line: Option<usize>, rows: &mut Vec<Row>| {
        rows.extend(continued(raw, width).into_iter().map(|r| (line, r)));
    };
    let description = |rows: &mut Vec<Row>| {
        if let Some(d) = &p.description {
            tagged(d, None, style::dim(), rows);
            rows.push((None, Line::default()));
        }
    };
    if height == 0 {
        return (Lines::default(), None, None);
    }
    let mut lines = p.text().split('\n');
    // The last `height` lines before `scroll` (each takes a row at least): enough to fill the
    // pane from above.
    let mut above = std::collections::VecDeque::with_capacity(height.min(scroll));
    let mut first = 0;
    while first < scroll {
        let Some(raw) = lines.next() else { break };
        if above.len() == height {
            above.pop_front();
        }
        above.push_back(raw);
        first += 1;
    }
    let mut rows: Vec<Row> = Vec::with_capacity(height + 1);
    if first == 0 {
        description(&mut rows);
    }
    for (i, raw) in lines.by_ref().enumerate() {
        wrapped(raw, Some(first + i), &mut rows);
        if rows.len() > height {
            break;
        }
    }
    let more_below = rows.len() > height || lines.next().is_some();
    // Whether the pane starts in the middle of a wrapped line (only when filled from above).
    let mut mid_line = false;
    if rows.len() < height && first > 0 {
        // The preview ends inside the pane: lines from above fill it, then the description.
        // Blocks are gathered bottom up, one per line, and put back in order once.
        let mut blocks: Vec<Vec<Row>> = Vec::new();
        let mut count = rows.len();
        let mut line = first;
        for raw in above.iter().rev() {
            if count >= height {
                break;
            }
            line -= 1;
            let mut block = Vec::new();
            wrapped(raw, Some(line), &mut block);
            count += block.len();
            blocks.push(block);
        }
        if line == 0 && count < height {
            let mut block = Vec::new();
            description(&mut block);
            blocks.push(block);
        }
        let mut filled: Vec<Row> = blocks.into_iter().rev().flatten().collect();
        let cut = (filled.len() + rows.len()).saturating_sub(height).min(filled.len());
        // Blocks are added only while the pane is not full, so only the top one can overshoot:
        // any cut falls inside it, mid-line (or mid-description).
        mid_line = cut > 0;
        filled.drain(..cut);
        filled.append(&mut rows);
        rows = filled;
    }
    rows.truncate(height);
    let top = rows.first().and_then(|(line, _)| *line);
    // The first line from which this frame is drawn: the top row's own line if the pane starts
    // with its first row, else the next line (drawn from there, the pane fills up from above to
    // this same top).
    let recorded = match top {
        None => 0,
        Some(t) => t + usize::from(mid_line),
    };
    let at_top = top.is_none() || (top == Some(0) && p.description.is_none() && !mid_line);
    // Where the pane is and which keys move it, in its border (issue 12.6).
    let position = match (at_top, more_below) {
        (true, false) => None,
        (true, true) => Some(" more below · PgDn ".to_owned()),
        (false, false) => Some(format!(" from line {} · PgUp ", top.map_or(1, |t| t + 1))),
        (false, true) => Some(format!(" from line {} · PgUp/PgDn ", top.map_or(1, |t| t + 1))),
    };
    let rows = Lines::from(rows.into_iter().map(|(_, r)| r).collect::<Vec<_>>());
    // A preview that fits has nothing to scroll and nothing to record (as the summary).
    let fits = at_top && !more_below;
    (rows, position, (scroll > recorded && !fits).then_some(recorded))
}

/// What starts a row that a wrapped preview line continues on (two cells).
const CONTINUED: &str = "↪ ";

/// One line of preview text wrapped to `width` cells. A preview is mostly code or a mock-up, so
/// the rows a line wraps onto start under the line's own indentation with a dim `↪`: a wrapped
/// `}` at the margin would otherwise read as the next line of the code, closing a block.
fn continued(raw: &str, width: usize) -> Vec<Line<'static>> {
    let text = sanitize(shown(raw, width, MAX_LINES), true);
    let indent = (text.len() - text.trim_start_matches(' ').len()).min(width / 2);
    let rest = width.saturating_sub(indent + 2);
    // Too narrow for the marker and a few cells of text after it: wrapped as it is.
    let marked = rest >= 8;
    let rows = wrap_hanging(&text, width, if marked { rest } else { width });
    let mut out = Vec::with_capacity(rows.len());
    for (n, row) in rows.iter().enumerate() {
        out.push(if n > 0 && marked {
            Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::styled(CONTINUED, style::dim()),
                Span::raw(row.clone()),
            ])
        } else {
            Line::from(row.clone())
        });
    }
    out
}

#[cfg(test)]
mod tests {
    /// The rows `continued` gives, as text.
    fn rows(raw: &str, width: usize) -> Vec<String> {
        super::continued(raw, width)
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    /// A wrapped line goes on in rows as wide as the pane less its indentation and the marker;
    /// an indentation deeper than half the pane counts as half, so the rest keeps room; a pane
    /// too narrow for the marker and eight cells wraps at its margin.
    #[test]
    fn continued_rows_hang_under_the_indentation_within_the_pane() {
        let indented = format!("{}aaaa bbbb cccc dddd eeee ffff gggg", " ".repeat(8));
        assert_eq!(
            rows(&indented, 20),
            ["        aaaa bbbb", "        ↪ cccc dddd", "        ↪ eeee ffff", "        ↪ gggg"]
        );
        let deep = format!("{}aaaa bbbb cccc", " ".repeat(16));
        assert_eq!(rows(&deep, 20), ["                aaaa", "          ↪ bbbb", "          ↪ cccc"]);
        assert_eq!(rows("aaaa bbbb cccc", 9), ["aaaa bbbb", "cccc"]);
    }
}
