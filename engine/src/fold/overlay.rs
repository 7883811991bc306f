//! Keys inside the settings overlay: fixed, whatever the keymaps say (D29).

use super::Effects;
use crate::key::{KeyCode, KeyPress, Modifiers};
use crate::settings::Toggle;
use crate::state::FlowState;

impl FlowState {
    pub(super) fn overlay_key(&mut self, key: KeyPress, fx: &mut Effects) {
        let Some(overlay) = self.overlay.as_mut() else { return };
        let n = Toggle::ALL.len();
        let ctrl_c = KeyPress::new(KeyCode::Char('c'), Modifiers::CTRL);
        match key.code {
            _ if key == ctrl_c => self.close_overlay(),
            _ if !key.mods.is_empty() => {}
            KeyCode::Esc | KeyCode::Char('?') => self.close_overlay(),
            KeyCode::Up => overlay.focus = (overlay.focus + n - 1) % n,
            KeyCode::Down => overlay.focus = (overlay.focus + 1) % n,
            KeyCode::Enter | KeyCode::Char(' ') => {
                let toggle = Toggle::ALL[overlay.focus % n];
                let on = !self.settings.behaviour.get(toggle);
                self.settings.behaviour.set(toggle, on);
                self.save_error = None;
                fx.save_toggle = Some((toggle, on));
            }
            _ => {}
        }
    }
}

impl FlowState {
    /// Closes the overlay; a settings-only flow (`ask-user settings`) ends with it.
    fn close_overlay(&mut self) {
        self.overlay = None;
        if self.is_settings_only() {
            self.outcome = Some(crate::state::Outcome::Cancelled);
        }
    }
}
