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
    // Only the tabs that can show are named and measured: a frame of a form of 100 000
    // questions costs what one of 20 does.
    let tabs = &view.tabs;
    let name = |i: usize| {
        let t = &tabs[i];
        let mark = if t.answered { "✓ " } else { "" };
        // An unanswered required question is marked (issue 12.21); it never blocks.
        let required = if t.required && !t.answered { "*" } else { "" };
        format!(" {mark}{}{required} ", truncate(&sanitize(shown(&t.label, 24, 1), false), 24))
    };
    let Some(active) = tabs.iter().position(|t| t.active) else { return Line::default() };
    // Tabs before `tabs[i]` or after it, among all of them (not only the ones the view carries).
    let before = |i: usize| view.tabs_first + i > 0;
    let after = |i: usize| view.tabs_first + i + 1 < view.tabs_total;
    // Drop tabs from the left until the active one fits, marking what is hidden: `‹ ` on the
    // left, and on the right a `›` that needs its own cell when tabs follow the active one.
    // Going left from the active tab, a tab joins while the strip up to the active one fits.
    let left = |from: usize| if before(from) { 2 } else { 0 }; // `‹ `
    let right = usize::from(after(active));
    let mut names = vec![name(active)]; // from the active tab leftwards
    let mut widths = width(&names[0]) + 1;
    let mut first = active;
    while first > 0 {
        let candidate = name(first - 1);
        let w = width(&candidate) + 1;
        if left(first - 1) + widths + w + right > max {
            break;
        }
        widths += w;
        first -= 1;
        names.push(candidate);
    }
    names.reverse();
    let mut spans = Vec::new();
    if before(first) {
        spans.push(Span::styled("‹ ", style::dim()));
    }
    let mut used = left(first);
    // The tabs from `first` to the active one are named already; later ones as they come.
    for (i, name) in (first..).zip(names.into_iter().chain((active + 1..tabs.len()).map(name))) {
        let w = width(&name) + 1;
        let more = usize::from(after(i)); // a later tab left out needs the `›` cell
        if used + w + more > max && i > active {
            spans.push(Span::styled("›", style::dim()));
            return Line::from(spans);
        }
        let s = if i == active { style::active_tab() } else { tuirealm::ratatui::style::Style::new() };
        spans.push(Span::styled(name, s));
        spans.push(Span::raw("│"));
        used += w;
    }
    if after(tabs.len() - 1) {
        spans.push(Span::styled("›", style::dim())); // tabs past the ones the view carries
    }
    Line::from(spans)
}
