//! Drawing the view model: one module per region of the screen.

pub mod footer;
pub mod header;
pub mod lines;
pub mod overlay;
pub mod preview;
pub mod question;
pub mod review;

use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::ratatui::text::Line;

/// Smaller than this, the screen shows a short message instead of a broken layout.
pub const MIN_WIDTH: u16 = 24;
pub const MIN_HEIGHT: u16 = 7;

/// Writes lines straight into the frame's buffer, one per row, clipped to `area`. Cheaper than a
/// `Paragraph`, which re-styles the whole area and re-flows lines we have already laid out;
/// ASCII spans (most of a screen) skip grapheme segmentation, one byte being one cell.
pub fn put_lines(frame: &mut Frame, area: Rect, lines: &[tuirealm::ratatui::text::Line<'_>]) {
    let buf = frame.buffer_mut();
    let right = area.x.saturating_add(area.width);
    for (row, line) in lines.iter().take(area.height as usize).enumerate() {
        let y = area.y + row as u16;
        let mut x = area.x;
        for span in &line.spans {
            if x >= right {
                break;
            }
            let style = line.style.patch(span.style);
            if span.content.is_ascii() {
                for b in span.content.bytes().take((right - x) as usize) {
                    buf[(x, y)].set_char(b as char).set_style(style);
                    x += 1;
                }
            } else {
                let (end, _) = buf.set_stringn(x, y, &span.content, (right - x) as usize, style);
                x = end;
            }
        }
    }
}

/// The message shown on a terminal too small to draw the form: the size it needs, and that the
/// keys that leave still work, wrapped to whatever width there is (issue 12.15). Where the whole
/// sentence would not fit, a shorter one that does says the same, down to the size it needs.
pub fn too_small(frame: &mut Frame, area: Rect) {
    let (w, h) = (area.width, area.height);
    let texts = [
        format!(
            "Enlarge the terminal to at least {MIN_WIDTH}×{MIN_HEIGHT}; it is {w}×{h}. Esc or Ctrl+C still leave."
        ),
        format!("Too small: {w}×{h}, needs {MIN_WIDTH}×{MIN_HEIGHT}. Esc leaves."),
        format!("Needs {MIN_WIDTH}×{MIN_HEIGHT}"),
    ];
    let wrapped = |text: &String| crate::text::wrap(text, usize::from(w));
    let rows = texts.iter().map(wrapped).find(|rows| rows.len() <= usize::from(h));
    let rows = rows.unwrap_or_else(|| wrapped(&texts[2]));
    let lines: Vec<Line> = rows.iter().cloned().map(Line::from).collect();
    put_lines(frame, area, &lines);
}
