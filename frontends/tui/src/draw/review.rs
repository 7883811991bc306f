//! The review tab: Submit / Elaborate / Cancel beside (or above) the answer summary.

use ask_engine::project::view::ReviewView;
use ask_engine::{SummaryEdge, SummaryScroll};
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::ratatui::text::{Line, Span};

use super::lines::Lines;
use super::question::draw_lines;
use crate::style;
use crate::text::{MAX_LINES, sanitize, shown};

/// Wide enough for the summary beside the actions.
const SIDE_BY_SIDE: u16 = 64;
const ACTIONS_WIDTH: u16 = 24;

/// Rows the review tab cannot do without at `width`: the title and the three actions, the
/// double-press hint under them, and — where the summary goes under the actions — a blank row
/// and two rows of summary (one answer and the marker saying how many more there are). Without
/// them a short terminal showed "Press 1 again to Submit" over nothing to submit.
pub fn essential_rows(r: &ReviewView, width: u16) -> u16 {
    // Beside the actions, two summary rows take none of their own.
    content_rows(r, width, 2, false) as u16
}

/// Rows the whole tab takes at `width` — actions, double-press hint, every line of the summary —
/// with its blank rows and without them (`[kept, given up]`), the summary counted no further
/// than `limit` lines. The layout asks, once a frame, to give up footer hints and spacers before
/// the review's blank rows, and those before answers.
pub fn rows_needed(r: &ReviewView, width: u16, limit: usize) -> [usize; 2] {
    let rows = summary(r, summary_width(width), 0, limit).len();
    [content_rows(r, width, rows, false), content_rows(r, width, rows, true)]
}

/// Rows the whole tab takes with a summary of `summary_rows` lines.
fn content_rows(r: &ReviewView, width: u16, summary_rows: usize, compact: bool) -> usize {
    let gap = usize::from(!compact);
    let actions = actions(r, compact).len();
    if width >= SIDE_BY_SIDE {
        // The hint: one full-width line under both columns.
        return actions.max(summary_rows) + r.hint.as_ref().map_or(0, |_| 1 + gap);
    }
    let hint = r.hint.as_ref().map_or(0, |h| gap + crate::text::wrap(h, usize::from(width)).len());
    actions + hint + gap + summary_rows
}

/// The summary's width: beside the actions, or the whole width under them.
fn summary_width(width: u16) -> usize {
    usize::from(if width >= SIDE_BY_SIDE { width - ACTIONS_WIDTH - 1 } else { width })
}

/// "Ready to send?" and the three actions, the highlighted one marked; `compact`, without the
/// blank row between them (given up before an action, the double-press hint or a summary line:
/// see [`render`]).
fn actions(r: &ReviewView, compact: bool) -> Lines {
    let mut actions = Lines::default();
    actions.push(vec![Span::styled("Ready to send?", style::bold())]);
    if !compact {
        actions.blank();
    }
    for a in r.actions {
        let here = a == r.highlighted;
        let p = if here { Span::styled("❯ ", style::accent()) } else { Span::raw("  ") };
        let label_style = if here { style::accent() } else { Default::default() };
        actions.push(vec![p, Span::styled(format!("{}. {}", a.index() + 1, a.title()), label_style)]);
    }
    actions
}

/// The double-press hint under the actions, where the summary goes under them too. Where it
/// would not show whole in `rows` even once the title gives way (a narrow, very short screen), it
/// takes one row, cut with `…`: "Press 2 again to Elabor…" rather than "Press 2 again to" with
/// nothing saying the rest is missing.
fn hint_under(actions: &mut Lines, hint: &str, width: u16, compact: bool, rows: u16) {
    if !compact {
        actions.blank();
    }
    let wrapped = crate::text::wrap(hint, usize::from(width)).len();
    if actions.len() - 1 + wrapped > usize::from(rows) {
        let line = crate::text::truncate(hint, usize::from(width));
        actions.push(vec![Span::styled(line, style::warning())]);
    } else {
        actions.wrapped(hint, 0, width as usize, style::warning());
    }
}

/// Draws the review tab; returns the end the summary was drawn at when its scroll position lay
/// past it, for the runtime to record (see [`ask_engine::Event::SummaryClamped`]).
pub fn render(frame: &mut Frame, area: Rect, r: &ReviewView) -> Option<SummaryEdge> {
    let side_by_side = area.width >= SIDE_BY_SIDE;
    // Laid out once, at the width it is drawn at; from the top, no more lines are built than
    // the pane can show from the scroll position on (the rest are counted for the `↓ N more`
    // row); from the end, all of them.
    let keep = match r.scroll {
        SummaryScroll::Top(n) => n.saturating_add(usize::from(area.height)),
        SummaryScroll::End(_) => usize::MAX,
    };
    let lines = summary(r, summary_width(area.width), keep, usize::MAX);
    // The blank rows give way before answers do: on a screen shorter than the essential rows
    // with them, where everything fits only without them, and under the actions, where each
    // blank is a summary row lost (beside them the actions' blank costs the summary nothing, and
    // the column keeps still). A taller screen never shows less of the summary.
    let whole = |compact| content_rows(r, area.width, lines.len(), compact) <= usize::from(area.height);
    let compact =
        area.height < essential_rows(r, area.width) || (!whole(false) && (whole(true) || !side_by_side));
    let mut actions = actions(r, compact);
    // What the undo key would take back (issue 13.3): the body's last row, full width — only
    // where the actions, the double-press hint and the whole summary still fit above it.
    let gap = usize::from(!compact);
    let content = content_rows(r, area.width, lines.len(), compact);
    let area = match &r.undo {
        Some(undo) if usize::from(area.height) >= content + 2 => {
            let last = Rect { y: area.y + area.height - 1, height: 1, ..area };
            let text = crate::text::truncate(&sanitize(undo, false), area.width as usize);
            super::put_lines(frame, last, &[Line::styled(text, style::dim())]);
            Rect { height: area.height - 2, ..area }
        }
        _ => area,
    };
    // The double-press hint gets a full-width line under the actions and the summary, instead
    // of being squeezed into the action column (issue 12.11).
    let area = match &r.hint {
        Some(hint) if side_by_side => {
            let below = actions.len().max(lines.len()) + gap;
            let row = (below as u16).min(area.height - 1);
            let line = Line::styled(crate::text::truncate(hint, area.width as usize), style::warning());
            super::put_lines(frame, Rect { y: area.y + row, height: 1, ..area }, &[line]);
            Rect { height: row.saturating_sub(gap as u16).max(1), ..area }
        }
        Some(hint) => {
            hint_under(&mut actions, hint, area.width, compact, area.height);
            area
        }
        None => area,
    };
    // On the shortest screens (a config notice under a 7-row terminal) the title gives way
    // before an action or the hint saying the press needs another.
    if actions.len() > usize::from(area.height) {
        actions.lines.remove(0);
    }
    if side_by_side {
        let left = Rect { width: ACTIONS_WIDTH, ..area };
        let right = Rect { x: area.x + ACTIONS_WIDTH + 1, width: summary_width(area.width) as u16, ..area };
        draw_lines(frame, left, actions);
        draw_summary(frame, right, lines, r)
    } else {
        // The actions stay on top; the summary scrolls under them.
        let top = (actions.len() as u16 + gap as u16).min(area.height);
        draw_lines(frame, Rect { height: top, ..area }, actions);
        let below = Rect { y: area.y + top, height: area.height - top, ..area };
        draw_summary(frame, below, lines, r)
    }
}

/// The summary from the scroll position on (clamped so the last page is full), with `↑ N more`
/// and `↓ N more` rows saying what is clipped and which key shows it (issue 12.1). Returns the
/// end the position was clamped to, if it was. Where the view left entries out (a summary of
/// thousands of answers), the count beyond them is a floor — each takes a line or more — and
/// says so (`↓ 99976+ more`); the lines it has reach past the screen, so a clamp then is only
/// a frame drawn taller than the view was made for, and is not recorded.
fn draw_summary(frame: &mut Frame, area: Rect, lines: Lines, r: &ReviewView) -> Option<SummaryEdge> {
    let (scroll, before) = (r.scroll, r.summary_first);
    let after = r.summary_total.saturating_sub(before + r.summary.len());
    let cut = before + after > 0;
    let height = area.height as usize;
    let total = lines.len();
    // A summary that fits has nothing to scroll and nothing to record: a later, smaller
    // terminal still finds the position the keys left.
    if (total <= height && !cut) || height == 0 {
        super::put_lines(frame, area, &lines.lines);
        return None;
    }
    let last_top = total.saturating_sub(height - 1);
    let top = match scroll {
        SummaryScroll::Top(n) => n.min(last_top),
        SummaryScroll::End(k) => last_top.saturating_sub(k),
    };
    let clamped = if cut { None } else { scroll.clamped(last_top) };
    let marker = |text: String| Line::from(Span::styled(text, style::dim()));
    let count = |lines: usize, left_out: usize| match left_out {
        0 => lines.to_string(),
        n => format!("{}+", lines + n),
    };
    if height < 3 {
        // One or two rows (a short, narrow terminal with the double-press hint): one marker row
        // says what is clipped on both sides, so nothing is ever cut off silently.
        let rows = (height - 1).min(total - top);
        let below = total - top - rows;
        let shown = lines.lines[top..top + rows].iter().cloned();
        let out: Vec<Line> = match ((top, before), (below, after)) {
            ((0, 0), b) => shown.chain([marker(format!("↓ {} more · PgDn", count(b.0, b.1)))]).collect(),
            (t, (0, 0)) => {
                [marker(format!("↑ {} more · PgUp", count(t.0, t.1)))].into_iter().chain(shown).collect()
            }
            (t, b) => shown
                .chain([marker(format!("↑ {} ↓ {} more · PgUp/PgDn", count(t.0, t.1), count(b.0, b.1)))])
                .collect(),
        };
        super::put_lines(frame, area, &out);
        return clamped;
    }
    let mut out = Vec::with_capacity(height);
    let mut rows = height;
    if top + before > 0 {
        out.push(marker(format!("↑ {} more · PgUp", count(top, before))));
        rows -= 1;
    }
    let below = total.saturating_sub(top + rows);
    if below + after > 0 {
        rows -= 1;
    }
    let rows = rows.min(total - top);
    out.extend(lines.lines[top..top + rows].iter().cloned());
    if below + after > 0 {
        out.push(marker(format!("↓ {} more · PgDn", count(total - (top + rows), after))));
    }
    super::put_lines(frame, area, &out);
    clamped
}

/// The summary's lines at `max` cells, the first `keep` built and the rest counted; no entry is
/// laid out once `stop` lines are.
fn summary(r: &ReviewView, max: usize, keep: usize, stop: usize) -> Lines {
    let mut out = Lines::counting_after(keep);
    for entry in &r.summary {
        if out.len() >= stop {
            break;
        }
        if out.full() && entry.answer.is_none() && entry.notes.is_empty() {
            // Past the lines built, an unanswered question is one line to count, not to make
            // (a sixth of a key on the review tab of 100 000 questions).
            out.push(Vec::new());
            continue;
        }
        let label = format!("{}: ", sanitize(shown(&entry.label, MAX_LINES, 1), false));
        match &entry.answer {
            Some(a) => {
                out.hanging(&format!("{label}{a}"), 0, max, Default::default());
            }
            None if entry.required => {
                out.push(vec![Span::raw(label), Span::styled("required, unanswered", style::warning())]);
            }
            None => out.push(vec![Span::raw(label), Span::styled("(unanswered)", style::dim())]),
        }
        for n in &entry.notes {
            out.hanging(&format!("✎ {n}"), 2, max, style::note());
        }
    }
    out
}
