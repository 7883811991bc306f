//! The dirty-dismiss warning and the key hints, wrapped at separators.

use ask_engine::ViewModel;
use ask_engine::project::view::Hint;
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::ratatui::text::{Line, Span};

use crate::style;
use crate::text::{width, wrap};

/// The footer's lines for a terminal `max` cells wide.
pub fn lines(view: &ViewModel, max: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    if let Some(n) = &view.notice {
        // One line: the overlay has the whole story, and a cut notice says where it is.
        let n = crate::text::sanitize(n, false);
        let line = if width(&n) <= max {
            n.into_owned()
        } else {
            const MORE: &str = " (? shows it all)";
            format!("{}{MORE}", crate::text::truncate(&n, max.saturating_sub(width(MORE))))
        };
        out.push(Line::styled(crate::text::truncate(&line, max), style::warning()));
    }
    if let Some(w) = &view.warning {
        out.extend(wrap(w, max).iter().map(|l| Line::styled(l.clone(), style::warning())));
    }
    let Some(hints) = &view.footer else { return out };
    for row in hint_rows(hints, max) {
        let mut line: Vec<Span<'static>> = Vec::new();
        for h in row {
            if !line.is_empty() {
                line.push(Span::styled(" · ", style::dim()));
            }
            line.push(Span::styled(h.key.clone(), style::accent()));
            line.push(Span::styled(format!(" {}", h.action), style::dim()));
        }
        out.push(Line::from(line));
    }
    out
}

/// How many lines the key hints take at `max` cells (the layout asks before anything is built).
pub fn hint_lines(view: &ViewModel, max: usize) -> usize {
    view.footer.as_ref().map_or(0, |hints| hint_rows(hints, max).count())
}

/// The hints in rows of at most `max` cells, ` · ` between them.
fn hint_rows(hints: &[Hint], max: usize) -> impl Iterator<Item = &[Hint]> {
    let mut rest = hints;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut used = 0;
        let mut n = 0;
        for h in rest {
            let w = width(&h.key) + 1 + width(&h.action) + if n == 0 { 0 } else { 3 };
            if used + w > max && n > 0 {
                break;
            }
            used += w;
            n += 1;
        }
        let (row, tail) = rest.split_at(n);
        rest = tail;
        Some(row)
    })
}

/// How many of the footer's first lines are the notice and the warning (never dropped).
pub fn warning_lines(view: &ViewModel, max: usize) -> usize {
    usize::from(view.notice.is_some()) + view.warning.as_ref().map_or(0, |w| wrap(w, max).len())
}

pub fn render(frame: &mut Frame, area: Rect, lines: Vec<Line<'static>>) {
    super::put_lines(frame, area, &lines);
}
