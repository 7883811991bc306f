//! Terminal input → engine events, at the edge. Nothing here decides what a key means.

use ask_engine::{Event, KeyCode, KeyPress, Modifiers, Size};
use crossterm::event::{Event as TermEvent, KeyCode as TermKey, KeyEvent, KeyEventKind, KeyModifiers};

/// The engine event for a terminal event, if it is one the flow records.
pub fn convert(event: &TermEvent) -> Option<Event> {
    match event {
        TermEvent::Key(key) => key_press(key).map(Event::key),
        TermEvent::Paste(text) => Some(Event::TextPasted { text: text.clone() }),
        TermEvent::Resize(width, height) => {
            Some(Event::TerminalResized { size: Size { width: *width, height: *height } })
        }
        _ => None,
    }
}

/// The engine key for a crossterm key; releases and keys the engine has no name for are `None`.
/// Legacy `N` and kitty `shift+n` give the same key; a shifted symbol (`?`) carries no `shift`.
pub fn key_press(key: &KeyEvent) -> Option<KeyPress> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let mut mods = Modifiers::NONE;
    for (bit, m) in [
        (KeyModifiers::CONTROL, Modifiers::CTRL),
        (KeyModifiers::SHIFT, Modifiers::SHIFT),
        (KeyModifiers::ALT, Modifiers::ALT),
        (KeyModifiers::META, Modifiers::ALT),
        (KeyModifiers::SUPER, Modifiers::SUPER),
    ] {
        if key.modifiers.contains(bit) {
            mods = mods.union(m);
        }
    }
    let code = match key.code {
        TermKey::Char(c) => {
            if !c.is_alphabetic() {
                mods = mods.without(Modifiers::SHIFT); // the character already says it
            }
            KeyCode::Char(c)
        }
        TermKey::BackTab => {
            mods = mods.union(Modifiers::SHIFT);
            KeyCode::Tab
        }
        TermKey::Enter => KeyCode::Enter,
        TermKey::Esc => KeyCode::Esc,
        TermKey::Tab => KeyCode::Tab,
        TermKey::Backspace => KeyCode::Backspace,
        TermKey::Delete => KeyCode::Delete,
        TermKey::Insert => KeyCode::Insert,
        TermKey::Home => KeyCode::Home,
        TermKey::End => KeyCode::End,
        TermKey::PageUp => KeyCode::PageUp,
        TermKey::PageDown => KeyCode::PageDown,
        TermKey::Up => KeyCode::Up,
        TermKey::Down => KeyCode::Down,
        TermKey::Left => KeyCode::Left,
        TermKey::Right => KeyCode::Right,
        TermKey::F(n @ 1..=12) => KeyCode::F(n),
        _ => return None,
    };
    Some(KeyPress::new(code, mods))
}
