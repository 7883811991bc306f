//! The key edge (issue 12.26): what crossterm reports, legacy or kitty-encoded, becomes the
//! engine key a keymap and the script format name. Each row is a terminal event and the key id
//! it must give (`None`: not recorded). Events go in through the screen's focused tui-realm
//! component (issue 12.23), which emits the engine event the runtime commits.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use ask_tui::Screen;
use ask_tui::input::key_press;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
use rstest::rstest;

fn ev(code: KeyCode, mods: KeyModifiers, kind: KeyEventKind) -> KeyEvent {
    KeyEvent { code, modifiers: mods, kind, state: KeyEventState::NONE }
}

/// What the focused component emits for a terminal event.
fn emitted(event: Event) -> Option<ask_engine::Event> {
    Screen::new(None).on(event)
}

fn press(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
    ev(code, mods, KeyEventKind::Press)
}

#[rstest]
#[case::back_tab_is_shift_tab(press(KeyCode::BackTab, KeyModifiers::SHIFT), Some("shift+tab"))]
#[case::back_tab_without_the_shift_bit(press(KeyCode::BackTab, KeyModifiers::NONE), Some("shift+tab"))]
#[case::meta_is_alt(press(KeyCode::Enter, KeyModifiers::META), Some("alt+enter"))]
#[case::alt_enter(press(KeyCode::Enter, KeyModifiers::ALT), Some("alt+enter"))]
#[case::shifted_symbol_carries_no_shift(press(KeyCode::Char('?'), KeyModifiers::SHIFT), Some("?"))]
#[case::shifted_digit_symbol(press(KeyCode::Char('!'), KeyModifiers::SHIFT), Some("!"))]
#[case::kitty_shift_n(press(KeyCode::Char('n'), KeyModifiers::SHIFT), Some("shift+n"))]
#[case::legacy_capital_n(press(KeyCode::Char('N'), KeyModifiers::NONE), Some("shift+n"))]
#[case::legacy_capital_n_with_shift(press(KeyCode::Char('N'), KeyModifiers::SHIFT), Some("shift+n"))]
#[case::ctrl_c(press(KeyCode::Char('c'), KeyModifiers::CONTROL), Some("ctrl+c"))]
#[case::function_key(press(KeyCode::F(5), KeyModifiers::NONE), Some("f5"))]
#[case::page_down(press(KeyCode::PageDown, KeyModifiers::NONE), Some("pageDown"))]
#[case::release_is_dropped(ev(KeyCode::Char('a'), KeyModifiers::NONE, KeyEventKind::Release), None)]
#[case::repeat_is_kept(ev(KeyCode::Down, KeyModifiers::NONE, KeyEventKind::Repeat), Some("down"))]
#[case::unnamed_key_is_not_recorded(press(KeyCode::CapsLock, KeyModifiers::NONE), None)]
fn a_terminal_key_becomes_the_engine_key(#[case] key: KeyEvent, #[case] id: Option<&str>) {
    assert_eq!(key_press(&key).map(|k| k.to_string()).as_deref(), id);
    let key_id = |e: ask_engine::Event| match e {
        ask_engine::Event::KeyPressed { key } => key.to_string(),
        other => panic!("not a key: {other:?}"),
    };
    assert_eq!(emitted(Event::Key(key)).map(key_id).as_deref(), id);
}

/// Every key the engine has a name for arrives under that name (a key whose arm went missing
/// would be dropped: Esc would no longer cancel anything), and every modifier with it.
#[rstest]
fn every_named_terminal_key_arrives_under_its_engine_name(
    #[values(
        (KeyCode::Esc, "esc"), (KeyCode::Enter, "enter"), (KeyCode::Tab, "tab"),
        (KeyCode::Backspace, "backspace"), (KeyCode::Delete, "delete"), (KeyCode::Insert, "insert"),
        (KeyCode::Home, "home"), (KeyCode::End, "end"), (KeyCode::PageUp, "pageUp"),
        (KeyCode::PageDown, "pageDown"), (KeyCode::Up, "up"), (KeyCode::Down, "down"),
        (KeyCode::Left, "left"), (KeyCode::Right, "right"), (KeyCode::F(1), "f1"), (KeyCode::F(12), "f12"),
        (KeyCode::Char(' '), "space"), (KeyCode::Char('a'), "a")
    )]
    key: (KeyCode, &str),
) {
    assert_eq!(key_press(&press(key.0, KeyModifiers::NONE)).map(|k| k.to_string()).as_deref(), Some(key.1));
}

#[rstest]
#[case::ctrl(KeyModifiers::CONTROL, "ctrl+left")]
#[case::alt(KeyModifiers::ALT, "alt+left")]
#[case::shift(KeyModifiers::SHIFT, "shift+left")]
#[case::super_key(KeyModifiers::SUPER, "super+left")]
#[case::all_of_them(KeyModifiers::all(), "ctrl+shift+alt+super+left")]
fn every_modifier_arrives_with_the_key(#[case] mods: KeyModifiers, #[case] id: &str) {
    assert_eq!(key_press(&press(KeyCode::Left, mods)).map(|k| k.to_string()).as_deref(), Some(id));
}

#[rstest]
#[case::past_f12(KeyCode::F(13))]
#[case::a_media_key(KeyCode::Media(crossterm::event::MediaKeyCode::Play))]
#[case::a_lone_modifier(KeyCode::Modifier(crossterm::event::ModifierKeyCode::LeftShift))]
fn keys_the_engine_has_no_name_for_are_not_recorded(#[case] code: KeyCode) {
    assert_eq!(key_press(&press(code, KeyModifiers::NONE)), None);
}

#[test]
fn a_paste_is_one_event_a_resize_is_logged_and_focus_changes_are_not_recorded() {
    assert!(matches!(
        emitted(Event::Paste("a\nb".into())),
        Some(ask_engine::Event::TextPasted { text }) if text == "a\nb"
    ));
    assert!(matches!(
        emitted(Event::Resize(100, 30)),
        Some(ask_engine::Event::TerminalResized { size }) if (size.width, size.height) == (100, 30)
    ));
    assert!(emitted(Event::FocusGained).is_none());
    assert!(
        emitted(Event::Mouse(crossterm::event::MouseEvent {
            kind: crossterm::event::MouseEventKind::Moved,
            column: 1,
            row: 1,
            modifiers: KeyModifiers::NONE,
        }))
        .is_none()
    );
}
