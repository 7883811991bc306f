//! The settings overlay: the four toggles, the focused one's description, the config path.

use ask_engine::project::view::OverlayView;
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::ratatui::text::Span;
use tuirealm::ratatui::widgets::{Block, Clear, Paragraph};

use super::lines::Lines;
use crate::style;

pub fn render(frame: &mut Frame, area: Rect, o: &OverlayView, config_path: Option<&str>) {
    let width = area.width.saturating_sub(4).clamp(10, 72);
    let inner_w = width.saturating_sub(4) as usize;
    let mut body = Lines::default();
    for (i, (title, on)) in o.toggles.iter().enumerate() {
        let here = i == o.focus;
        let p = if here { Span::styled("❯ ", style::accent()) } else { Span::raw("  ") };
        let state =
            if *on { Span::styled("[on] ", style::selected()) } else { Span::styled("[off]", style::dim()) };
        let title = crate::text::truncate(title, inner_w.saturating_sub(8));
        body.push(vec![
            p,
            state,
            Span::raw(" "),
            Span::styled(title, if here { style::accent() } else { Default::default() }),
        ]);
    }
    body.blank();
    body.wrapped(&o.description, 0, inner_w, style::dim());
    body.blank();
    match config_path {
        Some(p) => {
            body.wrapped(&format!("Config: {p}"), 0, inner_w, Default::default());
            body.wrapped("Keymaps are changed by editing this file.", 0, inner_w, style::dim());
        }
        None => body.wrapped("No config file: settings last for this flow only.", 0, inner_w, style::dim()),
    }
    for n in &o.notices {
        body.wrapped(n, 0, inner_w, style::error());
    }
    body.blank();
    body.wrapped("↑↓ move · Enter/Space toggle · Esc/?/Ctrl+C close", 0, inner_w, style::dim());
    let height = (body.len() as u16 + 2).min(area.height);
    let rect = Rect {
        x: area.x + (area.width.saturating_sub(width)) / 2,
        y: area.y + (area.height.saturating_sub(height)) / 2,
        width: width.min(area.width),
        height,
    };
    let block = Block::bordered().title(Span::styled(" Ask settings ", style::bold()));
    let inner = block.inner(rect);
    frame.render_widget(Clear, rect);
    frame.render_widget(block, rect);
    frame.render_widget(
        Paragraph::new(body.lines),
        Rect { x: inner.x + 1, width: inner.width.saturating_sub(1), ..inner },
    );
}
