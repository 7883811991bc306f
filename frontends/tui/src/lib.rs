//! The terminal frontend of ask-user, on tui-realm.
//!
//! Components draw the engine's [`ask_engine::ViewModel`] and hold no answers of their own;
//! [`input`] turns terminal input into engine events; [`terminal`] owns the real terminal
//! (`/dev/tty`, so stdout stays free for the result) and always restores it; [`MemoryTerminal`]
//! draws the same components into memory for headless runs and snapshots.

pub mod components;
pub mod draw;
mod frame_text;
mod frame_writer;
pub mod input;
pub mod layout;
mod screen;
mod style;
pub mod terminal;
pub mod text;
mod wait;

pub use frame_text::{MemoryTerminal, buffer_text};
pub use screen::Screen;

/// The largest area drawn, in columns and rows. A terminal (or a logged `resize`) may report up
/// to 65535×65535; the drawn buffers would then need hundreds of gigabytes. The logged size is
/// kept as it was; only drawing stops at this edge.
pub const MAX_DRAWN: u16 = 1000;

/// `width`×`height` as drawn: each at least 1 and at most [`MAX_DRAWN`].
pub fn drawn_size(width: u16, height: u16) -> (u16, u16) {
    (width.clamp(1, MAX_DRAWN), height.clamp(1, MAX_DRAWN))
}
