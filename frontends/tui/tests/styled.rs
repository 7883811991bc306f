//! Snapshots that see style (issue 12.25): the plain-text snapshots cannot tell the active tab,
//! the selected rows, the cursor row or a warning from ordinary text, so a highlighting
//! regression would pass them. Here each styled run of a row is written `⟨style|text⟩`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

mod common;

use ask_schema::FormSource;
use ask_tui::MemoryTerminal;
use serde_json::json;
use tuirealm::ratatui::buffer::Buffer;
use tuirealm::ratatui::style::{Color, Modifier, Style};

fn style_name(s: Style) -> String {
    let mut parts = Vec::new();
    if let Some(fg) = s.fg.filter(|c| *c != Color::Reset) {
        parts.push(format!("{fg:?}").to_lowercase());
    }
    for (m, name) in [(Modifier::BOLD, "bold"), (Modifier::REVERSED, "rev"), (Modifier::DIM, "dim")] {
        if s.add_modifier.contains(m) {
            parts.push(name.to_owned());
        }
    }
    parts.join("+")
}

/// Each row as text, with every run of non-default style marked `⟨style|text⟩`.
fn styled_text(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut run: Option<(String, String)> = None;
        for x in 0..buf.area.width {
            let cell = &buf[(x, y)];
            let name = style_name(cell.style());
            match &mut run {
                Some((style, text)) if *style == name => text.push_str(cell.symbol()),
                _ => {
                    if let Some((style, text)) = run.take() {
                        line.push_str(&if style.is_empty() { text } else { format!("⟨{style}|{text}⟩") });
                    }
                    run = Some((name, cell.symbol().to_owned()));
                }
            }
        }
        if let Some((style, text)) = run.take() {
            line.push_str(&if style.is_empty() { text } else { format!("⟨{style}|{text}⟩") });
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn frame(script: &str, width: u16, height: u16) -> String {
    let raw = json!({"title": "Setup", "questions": [
        {"id": "db", "label": "Database", "prompt": "Which database?", "options": [
            {"value": "pg", "label": "Postgres", "description": "managed"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "extras", "label": "Extras", "prompt": "Which extras?", "type": "multi", "options": [
            {"value": "ci", "label": "CI"}, {"value": "docker", "label": "Docker"}]}]});
    let mut state = common::opened(&raw, FormSource::Tool, width, height, vec![]);
    common::press(&mut state, script);
    let mut term = MemoryTerminal::new(width, height, None);
    term.render(&Arc::new(state.view()));
    styled_text(term.buffer())
}

#[test]
fn the_active_tab_the_cursor_row_and_selected_rows_are_highlighted() {
    let f = frame("1\nspace\ndown", 60, 14);
    assert!(f.contains("⟨bold+rev| ✓ Extras ⟩"), "the active tab is reversed: {f}");
    assert!(f.contains("⟨green|[x] CI⟩") || f.contains("[x] ⟨green|CI⟩"), "a selected row is green: {f}");
    assert!(f.contains("⟨cyan+bold|❯ ⟩"), "the cursor's pointer is the accent: {f}");
    insta::assert_snapshot!("styled_multi_question", f);
}

#[test]
fn the_dirty_dismiss_warning_and_the_review_cursor_are_styled() {
    let f = frame("1\nesc", 60, 14);
    assert!(f.contains("⟨yellow+bold|"), "the warning is yellow and bold: {f}");
    insta::assert_snapshot!("styled_dirty_warning", f);
    let review = frame("1\ntab\n2", 60, 14);
    assert!(
        review.contains("⟨cyan+bold|❯ 2. Elaborate⟩")
            && review.contains("⟨yellow+bold|Press 2 again to Elaborate⟩"),
        "the armed action is highlighted: {review}"
    );
    insta::assert_snapshot!("styled_review_armed", review);
}
