//! The title and the tab strip, scrolled so the active tab is always visible.

use ask_engine::ViewModel;
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::ratatui::text::{Line, Span};

use crate::style;
use crate::text::{sanitize, shown, truncate, width};

/// Lines the header needs.
pub fn height(view: &ViewModel) -> u16 {
    if view.title.is_some() { 2 } else { 1 }
}

pub fn render(frame: &mut Frame, area: Rect, view: &ViewModel) {
    // The form's last 30 s (issue 13.1), at the top right; a title gives way to it, cut with
    // its `…` rather than overdrawn.
    let countdown = view.countdown.map(|left| format!(" ⏱ {left} s left "));
    let countdown_w = countdown.as_deref().map_or(0, |c| (width(c) as u16).min(area.width));
    let mut lines = Vec::new();
    if let Some(title) = &view.title {
        let room = area.width.saturating_sub(countdown_w) as usize;
        lines.push(Line::styled(truncate(&sanitize(shown(title, room, 1), false), room), style::bold()));
    }
    lines.push(tab_strip(view, area.width as usize));
    super::put_lines(frame, area, &lines);
    if let Some(text) = countdown {
        let at = Rect { x: area.x + area.width - countdown_w, width: countdown_w, height: 1, ..area };
        frame.buffer_mut().set_style(at, style::warning());
        super::put_lines(frame, at, &[Line::styled(text, style::warning())]);
    }
}

fn tab_strip(view: &ViewModel, max: usize) -> Line<'static> {
    let names: Vec<String> = view
        .tabs
        .iter()
        .map(|t| {
            let mark = if t.answered { "✓ " } else { "" };
            // An unanswered required question is marked (issue 12.21); it never blocks.
            let required = if t.required && !t.answered { "*" } else { "" };
            format!(" {mark}{}{required} ", truncate(&sanitize(shown(&t.label, 24, 1), false), 24))
        })
        .collect();
    let active = view.tabs.iter().position(|t| t.active).unwrap_or(0);
    // Drop tabs from the left until the active one fits, marking what is hidden: `‹ ` on the
    // left, and on the right a `›` that needs its own cell when tabs follow the active one.
    let mut first = 0;
    let left = |from: usize| if from > 0 { 2 } else { 0 }; // `‹ `
    let right = usize::from(active + 1 < names.len());
    let total =
        |from: usize| left(from) + names[from..=active].iter().map(|n| width(n) + 1).sum::<usize>() + right;
    while first < active && total(first) > max {
        first += 1;
    }
    let mut spans = Vec::new();
    if first > 0 {
        spans.push(Span::styled("‹ ", style::dim()));
    }
    let mut used = left(first);
    for (i, name) in names.iter().enumerate().skip(first) {
        let w = width(name) + 1;
        let more = usize::from(i + 1 < names.len()); // a later tab left out needs the `›` cell
        if used + w + more > max && i > active {
            spans.push(Span::styled("›", style::dim()));
            break;
        }
        let s = if i == active { style::active_tab() } else { tuirealm::ratatui::style::Style::new() };
        spans.push(Span::styled(name.clone(), s));
        spans.push(Span::raw("│"));
        used += w;
    }
    Line::from(spans)
}
