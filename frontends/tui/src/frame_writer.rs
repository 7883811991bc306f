//! The live terminal's writer: one write per frame.
//!
//! ratatui flushes twice per frame — once after the changed cells, once after placing (or
//! hiding) the cursor — so a buffered writer sends each frame in two writes, and a terminal can
//! show the cells before the cursor has moved. This writer holds every byte until the frame is
//! done ([`FrameWriter::send`]), so the terminal gets the frame in one write.

use std::io::{self, Write};

/// Holds what is written until [`FrameWriter::send`]; `flush` does nothing.
pub struct FrameWriter<W: Write> {
    out: W,
    held: Vec<u8>,
}

impl<W: Write> FrameWriter<W> {
    pub fn new(out: W) -> FrameWriter<W> {
        FrameWriter { out, held: Vec::with_capacity(16 * 1024) }
    }

    /// Writes everything held so far in one write and flushes it.
    pub fn send(&mut self) -> io::Result<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        let sent = self.out.write_all(&self.held).and_then(|()| self.out.flush());
        self.held.clear();
        sent
    }
}

impl<W: Write> Write for FrameWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.held.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use tuirealm::ratatui::layout::{Position, Rect};
    use tuirealm::ratatui::widgets::Paragraph;
    use tuirealm::ratatui::{Terminal, TerminalOptions, Viewport};

    use super::*;

    /// Records each write call the terminal would see.
    #[derive(Clone, Default)]
    struct Writes(Rc<RefCell<Vec<Vec<u8>>>>);

    impl Write for Writes {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().push(bytes.to_vec());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn draw<W: Write>(terminal: &mut Terminal<tuirealm::ratatui::backend::CrosstermBackend<W>>, text: &str) {
        terminal
            .draw(|f| {
                f.render_widget(Paragraph::new(text), f.area());
                f.set_cursor_position(Position { x: 3, y: 1 });
            })
            .unwrap();
    }

    fn terminal<W: Write>(out: W) -> Terminal<tuirealm::ratatui::backend::CrosstermBackend<W>> {
        let options = TerminalOptions { viewport: Viewport::Fixed(Rect::new(0, 0, 20, 3)) };
        Terminal::with_options(tuirealm::ratatui::backend::CrosstermBackend::new(out), options).unwrap()
    }

    #[test]
    fn a_frame_with_its_cursor_reaches_the_terminal_in_one_write() {
        let writes = Writes::default();
        let mut term = terminal(FrameWriter::new(writes.clone()));
        for text in ["first frame", "second frame"] {
            writes.0.borrow_mut().clear();
            draw(&mut term, text);
            assert!(writes.0.borrow().is_empty(), "nothing is sent before the frame is done");
            term.backend_mut().writer_mut().send().unwrap();
            let sent = writes.0.borrow();
            assert_eq!(sent.len(), 1, "one write per frame");
            let bytes = String::from_utf8_lossy(&sent[0]);
            assert!(bytes.contains("frame") && bytes.contains("\u{1b}[2;4H"), "cells and cursor: {bytes:?}");
        }
    }

    #[test]
    fn a_buffered_writer_would_send_a_frame_in_two_writes() {
        // Why this writer exists: ratatui flushes after the cells and again after the cursor.
        let writes = Writes::default();
        let mut term = terminal(io::BufWriter::new(writes.clone()));
        draw(&mut term, "a frame");
        assert_eq!(writes.0.borrow().len(), 2);
    }
}
