//! The engine's own key type and the key-id syntax shared by keymaps and scripts.
//!
//! A key is normalized so that the legacy `N` and the kitty `shift+n` are the same value:
//! letters are stored lowercase, with `shift` carrying the case.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A key without modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyCode {
    /// A printable character (letters lowercase; see [`KeyPress::new`]).
    Char(char),
    /// Enter (Return).
    Enter,
    /// Escape.
    Esc,
    /// Tab (with `shift`: Shift+Tab).
    Tab,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Insert.
    Insert,
    /// Home.
    Home,
    /// End.
    End,
    /// Page Up.
    PageUp,
    /// Page Down.
    PageDown,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// A function key, `f1`–`f12`.
    F(u8),
}

/// Modifier bits, in the id order `ctrl+shift+alt+super`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Modifiers(u8);

impl Modifiers {
    /// No modifier.
    pub const NONE: Modifiers = Modifiers(0);
    /// Control.
    pub const CTRL: Modifiers = Modifiers(1);
    /// Shift.
    pub const SHIFT: Modifiers = Modifiers(2);
    /// Alt (Option, Meta).
    pub const ALT: Modifiers = Modifiers(4);
    /// Super (Cmd, Win).
    pub const SUPER: Modifiers = Modifiers(8);

    /// Whether every bit of `other` is set.
    pub const fn contains(self, other: Modifiers) -> bool {
        self.0 & other.0 == other.0
    }
    /// Both sets of bits.
    pub const fn union(self, other: Modifiers) -> Modifiers {
        Modifiers(self.0 | other.0)
    }
    /// These bits without `other`'s.
    pub const fn without(self, other: Modifiers) -> Modifiers {
        Modifiers(self.0 & !other.0)
    }
    /// No modifier at all.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// One key press: a code and its modifiers, normalized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyPress {
    /// The key.
    pub code: KeyCode,
    /// Held modifiers.
    pub mods: Modifiers,
}

/// A key id that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsupported key id \"{0}\"")]
pub struct KeyParseError(pub String);

impl KeyPress {
    /// Builds a normalized key: an uppercase letter becomes its lowercase letter plus `shift`.
    pub fn new(code: KeyCode, mods: Modifiers) -> KeyPress {
        match code {
            KeyCode::Char(c) if c.is_uppercase() => {
                let lower = c.to_lowercase().next().unwrap_or(c);
                KeyPress { code: KeyCode::Char(lower), mods: mods.union(Modifiers::SHIFT) }
            }
            _ => KeyPress { code, mods },
        }
    }

    /// A key with no modifiers.
    pub fn plain(code: KeyCode) -> KeyPress {
        KeyPress::new(code, Modifiers::NONE)
    }

    /// The key a typed character produces (`\n` is Enter, `\t` Tab, `A` is `shift+a`).
    pub fn from_char(c: char) -> KeyPress {
        match c {
            '\n' | '\r' => KeyPress::plain(KeyCode::Enter),
            '\t' => KeyPress::plain(KeyCode::Tab),
            _ => KeyPress::plain(KeyCode::Char(c)),
        }
    }

    /// The character this key types in an editor, if it types one.
    pub fn typed_char(self) -> Option<char> {
        let KeyCode::Char(c) = self.code else { return None };
        if !self.mods.without(Modifiers::SHIFT).is_empty() || c.is_control() {
            return None;
        }
        if self.mods.contains(Modifiers::SHIFT) {
            return Some(c.to_uppercase().next().unwrap_or(c));
        }
        Some(c)
    }

    /// The digit 0–9 this key is, without modifiers.
    pub fn digit(self) -> Option<u32> {
        match (self.code, self.mods.is_empty()) {
            (KeyCode::Char(c), true) => c.to_digit(10),
            _ => None,
        }
    }

    /// Parses a key id such as `esc`, `ctrl+c`, `shift+n`, `N`, `pageUp`, `alt+enter`.
    pub fn parse(id: &str) -> Result<KeyPress, KeyParseError> {
        let err = || KeyParseError(id.to_owned());
        let mut rest = id.trim();
        let mut mods = Modifiers::NONE;
        while let Some((m, after)) = split_modifier(rest) {
            mods = mods.union(m);
            rest = after;
        }
        if rest.eq_ignore_ascii_case("backtab") {
            return Ok(KeyPress::new(KeyCode::Tab, mods.union(Modifiers::SHIFT)));
        }
        let code = match parse_code(rest).ok_or_else(err)? {
            // `ctrl+C` and `Shift+N` mean the letter key, not an extra shift.
            KeyCode::Char(c) if !mods.is_empty() && c.is_uppercase() => {
                KeyCode::Char(c.to_lowercase().next().unwrap_or(c))
            }
            code => code,
        };
        Ok(KeyPress::new(code, mods))
    }

    /// The key a log recorded as `id` (the inverse of this type's `Display`): what
    /// [`KeyPress::parse`] reads, and also any single whitespace or control character after
    /// the modifiers. A terminal can type characters that no key id a person writes is — an
    /// IME's ideographic space, macOS's Option+Space (a no-break space), a control character
    /// pasted without bracketed paste — and a flow that holds one must read back: `parse`
    /// trims and refuses them, which made such a flow's log unreadable (and `log list` with it).
    pub fn from_logged(id: &str) -> Result<KeyPress, KeyParseError> {
        // Nearly every logged key is an id `parse` reads; only what it refuses is looked at again.
        KeyPress::parse(id).or_else(|refused| {
            let mut rest = id;
            let mut mods = Modifiers::NONE;
            while let Some((m, after)) = split_modifier(rest) {
                mods = mods.union(m);
                rest = after;
            }
            let mut chars = rest.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_control() || c.is_whitespace() => {
                    Ok(KeyPress::new(KeyCode::Char(c), mods))
                }
                _ => Err(refused),
            }
        })
    }

    /// A short label for footer hints, e.g. `Enter`, `Ctrl+K`, `Shift+N`, `Space`.
    pub fn label(self) -> String {
        let mut out = String::new();
        for (bit, name) in MOD_LABELS {
            if self.mods.contains(bit) {
                out.push_str(name);
                out.push('+');
            }
        }
        let code = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            // `n` reads as itself; with a modifier the letter is capitalized (`Ctrl+K`, `Shift+N`).
            KeyCode::Char(c) if self.mods.is_empty() => c.to_string(),
            KeyCode::Char(c) => c.to_uppercase().collect(),
            other => {
                let id = code_id(other);
                let mut chars = id.chars();
                chars.next().map(|f| f.to_uppercase().chain(chars).collect()).unwrap_or_default()
            }
        };
        out.push_str(&code);
        out
    }
}

const MOD_LABELS: [(Modifiers, &str); 4] = [
    (Modifiers::CTRL, "Ctrl"),
    (Modifiers::SHIFT, "Shift"),
    (Modifiers::ALT, "Alt"),
    (Modifiers::SUPER, "Super"),
];

fn split_modifier(s: &str) -> Option<(Modifiers, &str)> {
    let (head, tail) = s.split_once('+')?;
    if tail.is_empty() {
        return None; // `+` itself, or `ctrl+` with no key
    }
    let m = match head.to_ascii_lowercase().as_str() {
        "ctrl" | "control" | "ctl" => Modifiers::CTRL,
        "shift" => Modifiers::SHIFT,
        "alt" | "option" | "opt" | "meta" => Modifiers::ALT,
        "super" | "cmd" | "command" | "win" => Modifiers::SUPER,
        _ => return None,
    };
    Some((m, tail))
}

fn parse_code(s: &str) -> Option<KeyCode> {
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return (!c.is_control() && !c.is_whitespace()).then_some(KeyCode::Char(c));
    }
    let lower = s.to_ascii_lowercase();
    let code = match lower.as_str() {
        "esc" | "escape" => KeyCode::Esc,
        "enter" | "return" | "cr" => KeyCode::Enter,
        "tab" => KeyCode::Tab,
        "space" | "spacebar" => KeyCode::Char(' '),
        "backspace" | "bs" => KeyCode::Backspace,
        "delete" | "del" => KeyCode::Delete,
        "insert" | "ins" => KeyCode::Insert,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "pageup" | "pgup" | "page_up" => KeyCode::PageUp,
        "pagedown" | "pgdn" | "pgdown" | "page_down" => KeyCode::PageDown,
        "up" | "arrowup" => KeyCode::Up,
        "down" | "arrowdown" => KeyCode::Down,
        "left" | "arrowleft" => KeyCode::Left,
        "right" | "arrowright" => KeyCode::Right,
        f if f.starts_with('f') => match f[1..].parse::<u8>() {
            Ok(n @ 1..=12) => KeyCode::F(n),
            _ => return None,
        },
        _ => return None,
    };
    Some(code)
}

fn code_id(code: KeyCode) -> String {
    match code {
        KeyCode::Char(' ') => "space".into(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "enter".into(),
        KeyCode::Esc => "esc".into(),
        KeyCode::Tab => "tab".into(),
        KeyCode::Backspace => "backspace".into(),
        KeyCode::Delete => "delete".into(),
        KeyCode::Insert => "insert".into(),
        KeyCode::Home => "home".into(),
        KeyCode::End => "end".into(),
        KeyCode::PageUp => "pageUp".into(),
        KeyCode::PageDown => "pageDown".into(),
        KeyCode::Up => "up".into(),
        KeyCode::Down => "down".into(),
        KeyCode::Left => "left".into(),
        KeyCode::Right => "right".into(),
        KeyCode::F(n) => format!("f{n}"),
    }
}

/// The canonical key id: `ctrl+shift+alt+super+<key>`, e.g. `shift+n`, `ctrl+c`, `pageUp`.
impl fmt::Display for KeyPress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (bit, name) in [
            (Modifiers::CTRL, "ctrl+"),
            (Modifiers::SHIFT, "shift+"),
            (Modifiers::ALT, "alt+"),
            (Modifiers::SUPER, "super+"),
        ] {
            if self.mods.contains(bit) {
                f.write_str(name)?;
            }
        }
        f.write_str(&code_id(self.code))
    }
}

impl Serialize for KeyPress {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for KeyPress {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        KeyPress::from_logged(&id).map_err(serde::de::Error::custom)
    }
}
