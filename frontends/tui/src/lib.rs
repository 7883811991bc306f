//! The terminal frontend of ask-user, on tui-realm.
//!
//! Components draw the engine's [`ask_engine::ViewModel`] and hold no answers of their own;
//! [`input`] turns terminal input into engine events; [`terminal`] owns the real terminal
//! (`/dev/tty`, so stdout stays free for the result) and always restores it; [`MemoryTerminal`]
//! draws the same components into memory for headless runs and snapshots.

pub mod components;
pub mod draw;
mod frame_text;
pub mod input;
mod screen;
mod style;
pub mod terminal;
pub mod text;

pub use frame_text::{MemoryTerminal, buffer_text};
pub use screen::Screen;
