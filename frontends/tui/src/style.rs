//! The few styles the screens use, in one place.

use tuirealm::ratatui::style::{Color, Modifier, Style};

pub fn bold() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}
pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}
pub fn accent() -> Style {
    Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
}
pub fn selected() -> Style {
    Style::new().fg(Color::Green)
}
pub fn note() -> Style {
    Style::new().fg(Color::Yellow)
}
pub fn warning() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}
pub fn error() -> Style {
    Style::new().fg(Color::Red)
}
pub fn active_tab() -> Style {
    Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
}
