//! Drawing into memory: the frames of `--frame-out`, `log replay --frames` and snapshots.

use std::sync::Arc;

use ask_engine::ViewModel;
use tuirealm::ratatui::Terminal;
use tuirealm::ratatui::backend::TestBackend;
use tuirealm::ratatui::buffer::Buffer;

use crate::screen::Screen;
use crate::text::width;

/// An in-memory terminal of a fixed size.
pub struct MemoryTerminal {
    terminal: Terminal<TestBackend>,
    screen: Screen,
}

impl MemoryTerminal {
    /// A `width`×`height` terminal (each at least 1, at most [`crate::MAX_DRAWN`]).
    pub fn new(width: u16, height: u16, config_path: Option<&str>) -> MemoryTerminal {
        let (w, h) = crate::drawn_size(width, height);
        let Ok(terminal) = Terminal::new(TestBackend::new(w, h));
        MemoryTerminal { terminal, screen: Screen::new(config_path) }
    }

    /// Resizes the terminal (clamped like [`MemoryTerminal::new`]).
    pub fn resize(&mut self, width: u16, height: u16) {
        let (w, h) = crate::drawn_size(width, height);
        self.terminal.backend_mut().resize(w, h);
        let Ok(()) = self.terminal.autoresize();
    }

    /// Draws `view` and returns the frame as plain text.
    pub fn draw(&mut self, view: &Arc<ViewModel>) -> String {
        let _ = self.render(view);
        buffer_text(self.terminal.current_buffer_mut())
    }

    /// The last frame drawn, with its styles (for tests that check what is highlighted).
    pub fn buffer(&mut self) -> &Buffer {
        self.terminal.current_buffer_mut()
    }

    /// Draws `view` as a live terminal does, cells and then the cursor, and returns the frame as
    /// text and where the terminal cursor shows (`None`: hidden, as when no text is being typed).
    /// For a terminal used only this way: ratatui then swaps its buffers, so
    /// [`MemoryTerminal::buffer`] no longer holds the frame.
    pub fn draw_with_cursor(&mut self, view: &Arc<ViewModel>) -> (String, Option<(u16, u16)>) {
        let screen = &mut self.screen;
        let Ok(done) = self.terminal.draw(|f| {
            screen.draw(f, view);
        });
        let text = buffer_text(done.buffer);
        let backend = self.terminal.backend();
        let at = backend.cursor_visible().then(|| backend.cursor_position());
        (text, at.map(|p| (p.x, p.y)))
    }

    /// Draws `view` into the in-memory frame buffer; returns the events the frame asks the flow
    /// to record, as a live terminal's draw does. Nothing is written to a device, so the
    /// terminal's diff-and-flush step (which only saves bytes on a real terminal) is skipped.
    pub fn render(&mut self, view: &Arc<ViewModel>) -> Vec<ask_engine::Event> {
        self.terminal.current_buffer_mut().reset();
        let mut frame = self.terminal.get_frame();
        self.screen.draw(&mut frame, view)
    }
}

/// A buffer as text, one line per row, trailing spaces trimmed; the cell hidden behind a wide
/// character is skipped so CJK and emoji keep their columns.
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buf[(x, y)].symbol();
            line.push_str(symbol);
            skip = width(symbol).saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
