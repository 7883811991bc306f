//! The dirty-dismiss warning and the key hints, wrapped at separators.

use ask_engine::ViewModel;
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::ratatui::text::{Line, Span};

use crate::style;
use crate::text::{width, wrap};

/// The footer's lines for a terminal `max` cells wide.
pub fn lines(view: &ViewModel, max: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    if let Some(n) = &view.notice {
        // One line: the overlay has the whole story.
        out.push(Line::styled(
            crate::text::truncate(&crate::text::sanitize(n, false), max),
            style::warning(),
        ));
    }
    if let Some(w) = &view.warning {
        out.extend(wrap(w, max).into_iter().map(|l| Line::styled(l, style::warning())));
    }
    let Some(hints) = &view.footer else { return out };
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for h in hints {
        let w = width(&h.key) + 1 + width(&h.action);
        let sep = if line.is_empty() { 0 } else { 3 };
        if used + sep + w > max && !line.is_empty() {
            out.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        if !line.is_empty() {
            line.push(Span::styled(" · ", style::dim()));
            used += 3;
        }
        line.push(Span::styled(h.key.clone(), style::accent()));
        line.push(Span::styled(format!(" {}", h.action), style::dim()));
        used += w;
    }
    if !line.is_empty() {
        out.push(Line::from(line));
    }
    out
}

pub fn render(frame: &mut Frame, area: Rect, lines: Vec<Line<'static>>) {
    super::put_lines(frame, area, &lines);
}
