//! Drawing the view model: one module per region of the screen.

pub mod editor;
pub mod footer;
pub mod header;
pub mod lines;
pub mod overlay;
pub mod question;
pub mod review;

use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::ratatui::widgets::Paragraph;

/// Smaller than this, the screen shows a short message instead of a broken layout.
pub const MIN_WIDTH: u16 = 24;
pub const MIN_HEIGHT: u16 = 7;

/// The message shown on a terminal too small to draw the form.
pub fn too_small(frame: &mut Frame, area: Rect) {
    let text = if area.width >= 18 { "Enlarge the terminal" } else { "Too small" };
    frame.render_widget(Paragraph::new(text), area);
}
