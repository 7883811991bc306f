//! Settings in force for a flow: the four behaviour toggles and the six configurable keymaps.

use serde::{Deserialize, Serialize};

use crate::key::{KeyCode, KeyPress, Modifiers};

/// The contract's four binary behaviour toggles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Behaviour {
    /// Complete the flow as soon as the review tab shows a fully answered form without notes.
    pub auto_submit_when_answered_without_notes: bool,
    /// Cancelling or dismissing a dirty flow needs the same action twice.
    pub confirm_dismiss_when_dirty: bool,
    /// Review-tab `1`/`2`/`3` need the same key twice.
    pub double_press_review_shortcuts: bool,
    /// Show key hints in the footer.
    pub show_footer_hints: bool,
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour {
            auto_submit_when_answered_without_notes: false,
            confirm_dismiss_when_dirty: true,
            double_press_review_shortcuts: true,
            show_footer_hints: true,
        }
    }
}

/// One of the four toggles, in the contract's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Toggle {
    /// Auto-submit when answered without notes.
    AutoSubmitWhenAnsweredWithoutNotes,
    /// Confirm dismiss when dirty.
    ConfirmDismissWhenDirty,
    /// Double-press review shortcuts.
    DoublePressReviewShortcuts,
    /// Show footer hints.
    ShowFooterHints,
}

impl Toggle {
    /// All toggles in the order the settings overlay lists them.
    pub const ALL: [Toggle; 4] = [
        Toggle::AutoSubmitWhenAnsweredWithoutNotes,
        Toggle::ConfirmDismissWhenDirty,
        Toggle::DoublePressReviewShortcuts,
        Toggle::ShowFooterHints,
    ];

    /// The config key, e.g. `autoSubmitWhenAnsweredWithoutNotes`.
    pub fn key(self) -> &'static str {
        match self {
            Toggle::AutoSubmitWhenAnsweredWithoutNotes => "autoSubmitWhenAnsweredWithoutNotes",
            Toggle::ConfirmDismissWhenDirty => "confirmDismissWhenDirty",
            Toggle::DoublePressReviewShortcuts => "doublePressReviewShortcuts",
            Toggle::ShowFooterHints => "showFooterHints",
        }
    }

    /// The name the settings list shows.
    pub fn title(self) -> &'static str {
        match self {
            Toggle::AutoSubmitWhenAnsweredWithoutNotes => "Auto-submit when answered without notes",
            Toggle::ConfirmDismissWhenDirty => "Confirm dismiss when dirty",
            Toggle::DoublePressReviewShortcuts => "Double-press review shortcuts",
            Toggle::ShowFooterHints => "Show footer hints",
        }
    }

    /// A one-line description of the focused toggle.
    pub fn description(self) -> &'static str {
        match self {
            Toggle::AutoSubmitWhenAnsweredWithoutNotes => {
                "Submit as soon as the review tab shows every question answered and no notes."
            }
            Toggle::ConfirmDismissWhenDirty => {
                "Ask for the same key again before leaving a flow that holds answers or notes."
            }
            Toggle::DoublePressReviewShortcuts => {
                "Review-tab 1, 2 and 3 act only when the same key is pressed twice."
            }
            Toggle::ShowFooterHints => "Show the key hints at the bottom of the screen.",
        }
    }

    /// Parses a config key.
    pub fn from_key(key: &str) -> Option<Toggle> {
        Toggle::ALL.into_iter().find(|t| t.key() == key)
    }
}

impl Behaviour {
    /// The value of one toggle.
    pub fn get(&self, t: Toggle) -> bool {
        match t {
            Toggle::AutoSubmitWhenAnsweredWithoutNotes => self.auto_submit_when_answered_without_notes,
            Toggle::ConfirmDismissWhenDirty => self.confirm_dismiss_when_dirty,
            Toggle::DoublePressReviewShortcuts => self.double_press_review_shortcuts,
            Toggle::ShowFooterHints => self.show_footer_hints,
        }
    }

    /// Sets one toggle.
    pub fn set(&mut self, t: Toggle, value: bool) {
        let slot = match t {
            Toggle::AutoSubmitWhenAnsweredWithoutNotes => &mut self.auto_submit_when_answered_without_notes,
            Toggle::ConfirmDismissWhenDirty => &mut self.confirm_dismiss_when_dirty,
            Toggle::DoublePressReviewShortcuts => &mut self.double_press_review_shortcuts,
            Toggle::ShowFooterHints => &mut self.show_footer_hints,
        };
        *slot = value;
    }
}

/// The configurable actions: the contract's six, then our extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    /// Leave an editor saving its draft; in navigation, cancel the flow (Esc).
    Cancel,
    /// Leave the flow at once (Ctrl+C).
    Dismiss,
    /// Select or toggle the highlighted row (Space).
    Toggle,
    /// Select and advance; save an editor (Enter).
    Confirm,
    /// Edit the highlighted option's note (n).
    OptionNote,
    /// Edit the question note (Shift+N).
    QuestionNote,
    /// Filter the option rows by typed text (`/`; issue 12.7, an extension).
    Filter,
    /// Take back the last answer-changing step (`ctrl+z`; issue 13.3, an extension).
    Undo,
    /// Do an undone step again (`ctrl+y`; issue 13.3, an extension).
    Redo,
}

impl Action {
    /// All actions, in the config file's order.
    pub const ALL: [Action; 6] = [
        Action::Cancel,
        Action::Dismiss,
        Action::Toggle,
        Action::Confirm,
        Action::OptionNote,
        Action::QuestionNote,
    ];

    /// The config key, e.g. `optionNote`.
    pub fn key(self) -> &'static str {
        match self {
            Action::Cancel => "cancel",
            Action::Dismiss => "dismiss",
            Action::Toggle => "toggle",
            Action::Confirm => "confirm",
            Action::OptionNote => "optionNote",
            Action::QuestionNote => "questionNote",
            Action::Filter => "filter",
            Action::Undo => "undo",
            Action::Redo => "redo",
        }
    }

    /// Actions beyond the contract's six: optional in a `keymaps` section (a section written
    /// for the contract stays complete), their defaults used when absent.
    pub const EXTENSIONS: [Action; 3] = [Action::Filter, Action::Undo, Action::Redo];

    /// The contract's actions, then the extensions.
    pub fn every() -> impl Iterator<Item = Action> {
        Action::ALL.into_iter().chain(Action::EXTENSIONS)
    }

    /// Parses a config key.
    pub fn from_key(key: &str) -> Option<Action> {
        Action::every().find(|a| a.key() == key)
    }
}

/// The key bound to each configurable action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Keymaps {
    /// Default `esc`.
    pub cancel: KeyPress,
    /// Default `ctrl+c`.
    pub dismiss: KeyPress,
    /// Default `space`.
    pub toggle: KeyPress,
    /// Default `enter`.
    pub confirm: KeyPress,
    /// Default `n`.
    pub option_note: KeyPress,
    /// Default `shift+n`.
    pub question_note: KeyPress,
    /// Default `/`. Absent from logs written before it existed: those get the default.
    #[serde(default = "default_filter")]
    pub filter: KeyPress,
    /// Default `ctrl+z`.
    #[serde(default = "default_undo")]
    pub undo: KeyPress,
    /// Default `ctrl+y` (shift with the undo key redoes too).
    #[serde(default = "default_redo")]
    pub redo: KeyPress,
}

fn default_filter() -> KeyPress {
    KeyPress::plain(KeyCode::Char('/'))
}

fn default_undo() -> KeyPress {
    KeyPress::new(KeyCode::Char('z'), Modifiers::CTRL)
}

fn default_redo() -> KeyPress {
    KeyPress::new(KeyCode::Char('y'), Modifiers::CTRL)
}

impl Default for Keymaps {
    fn default() -> Self {
        Keymaps {
            cancel: KeyPress::plain(KeyCode::Esc),
            dismiss: KeyPress::new(KeyCode::Char('c'), Modifiers::CTRL),
            toggle: KeyPress::plain(KeyCode::Char(' ')),
            confirm: KeyPress::plain(KeyCode::Enter),
            option_note: KeyPress::plain(KeyCode::Char('n')),
            question_note: KeyPress::new(KeyCode::Char('n'), Modifiers::SHIFT),
            filter: default_filter(),
            undo: default_undo(),
            redo: default_redo(),
        }
    }
}

impl Keymaps {
    /// The key bound to `action`.
    pub fn get(&self, action: Action) -> KeyPress {
        match action {
            Action::Cancel => self.cancel,
            Action::Dismiss => self.dismiss,
            Action::Toggle => self.toggle,
            Action::Confirm => self.confirm,
            Action::OptionNote => self.option_note,
            Action::QuestionNote => self.question_note,
            Action::Filter => self.filter,
            Action::Undo => self.undo,
            Action::Redo => self.redo,
        }
    }

    /// Binds `action` to `key`.
    pub fn set(&mut self, action: Action, key: KeyPress) {
        let slot = match action {
            Action::Cancel => &mut self.cancel,
            Action::Dismiss => &mut self.dismiss,
            Action::Toggle => &mut self.toggle,
            Action::Confirm => &mut self.confirm,
            Action::OptionNote => &mut self.option_note,
            Action::QuestionNote => &mut self.question_note,
            Action::Filter => &mut self.filter,
            Action::Undo => &mut self.undo,
            Action::Redo => &mut self.redo,
        };
        *slot = key;
    }

    /// The action `key` is bound to, if any.
    pub fn action_of(&self, key: KeyPress) -> Option<Action> {
        Action::every().find(|a| self.get(*a) == key)
    }
}

/// Everything the fold needs to know about configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// The four toggles.
    pub behaviour: Behaviour,
    /// The six bindings.
    pub keymaps: Keymaps,
}

mod change;
mod keymap_check;
pub use change::SettingChangeError;
pub use keymap_check::{KeymapError, is_reserved, keymaps_from_ids};
