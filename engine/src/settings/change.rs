//! A live settings change written as `section.key value` (the script's `set` step).

use super::{Action, Settings, Toggle};
use crate::key::KeyPress;

/// Why a `set` step cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingChangeError {
    /// The path names no setting.
    #[error("unknown setting \"{0}\" (use behaviour.<toggle> or keymaps.<action>)")]
    UnknownSetting(String),
    /// A toggle needs `true` or `false`.
    #[error("{0} takes true or false, not \"{1}\"")]
    NotABool(String, String),
    /// The key id does not parse or is reserved.
    #[error("{0}: {1}")]
    BadKey(String, String),
}

impl Settings {
    /// These settings with `path` (`behaviour.showFooterHints`, `keymaps.confirm`) set to `value`.
    pub fn with_change(&self, path: &str, value: &str) -> Result<Settings, SettingChangeError> {
        let mut next = *self;
        let unknown = || SettingChangeError::UnknownSetting(path.to_owned());
        let (section, key) = path.split_once('.').ok_or_else(unknown)?;
        match section {
            "behaviour" | "behavior" => {
                let toggle = Toggle::from_key(key).ok_or_else(unknown)?;
                let on = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(SettingChangeError::NotABool(path.to_owned(), value.to_owned())),
                };
                next.behaviour.set(toggle, on);
            }
            "keymaps" => {
                let action = Action::from_key(key).ok_or_else(unknown)?;
                let k = KeyPress::parse(value)
                    .map_err(|e| SettingChangeError::BadKey(path.to_owned(), e.to_string()))?;
                if super::is_reserved(k) {
                    return Err(SettingChangeError::BadKey(path.to_owned(), "reserved key".into()));
                }
                next.keymaps.set(action, k);
            }
            _ => return Err(unknown()),
        }
        Ok(next)
    }
}
