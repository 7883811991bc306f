//! The few styles the screens use, in one place. Without colour (`NO_COLOR`, no-color.org,
//! in a live terminal) they keep their weight (bold, dim, italic, reversed) and drop their
//! colours.

use std::cell::Cell;

use tuirealm::ratatui::style::{Color, Modifier, Style};

thread_local! {
    static COLOURLESS: Cell<bool> = const { Cell::new(false) };
}

/// Draws this thread's frames without colour. The live terminal sets it from `NO_COLOR`; frames
/// drawn in memory (tests, `--frame-out`, replayed frames) keep their colours whatever the
/// environment says, so they are the same everywhere.
pub fn set_colourless(on: bool) {
    COLOURLESS.set(on);
}

/// Whether `NO_COLOR` asks for no colour: set, and not empty.
pub fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// `style` in `color`, or with `instead` where colour is off.
fn coloured(style: Style, color: Color, instead: Modifier) -> Style {
    if COLOURLESS.get() { style.add_modifier(instead) } else { style.fg(color) }
}

pub fn bold() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}
pub fn dim() -> Style {
    coloured(Style::new(), Color::DarkGray, Modifier::DIM)
}
pub fn accent() -> Style {
    coloured(Style::new(), Color::Cyan, Modifier::empty()).add_modifier(Modifier::BOLD)
}
pub fn selected() -> Style {
    coloured(Style::new(), Color::Green, Modifier::empty())
}
pub fn note() -> Style {
    coloured(Style::new(), Color::Yellow, Modifier::ITALIC)
}
pub fn warning() -> Style {
    coloured(Style::new(), Color::Yellow, Modifier::empty()).add_modifier(Modifier::BOLD)
}
pub fn error() -> Style {
    coloured(Style::new(), Color::Red, Modifier::BOLD)
}
pub fn active_tab() -> Style {
    Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
}
/// Text a filter's words matched, in the style of the text around it: bold and underlined, so
/// it shows with or without colour.
pub fn matched(base: Style) -> Style {
    base.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
}
