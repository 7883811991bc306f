//! Validation of a keymaps section: the contract's six actions (extensions optional), supported
//! syntax, not reserved, no duplicates.

use std::collections::BTreeMap;

use super::{Action, Keymaps};
use crate::key::{KeyCode, KeyPress};

/// Why a keymaps section cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeymapError {
    /// An action has no binding.
    #[error("keymaps.{0} is missing")]
    Missing(&'static str),
    /// The binding is not a string.
    #[error("keymaps.{0} must be a key id string")]
    NotAString(String),
    /// The key id does not parse.
    #[error("keymaps.{action}: unsupported key id \"{id}\"")]
    Unsupported {
        /// The action's config key.
        action: String,
        /// The key id as written.
        id: String,
    },
    /// The key is used by fixed navigation.
    #[error("keymaps.{action}: \"{id}\" is reserved for navigation")]
    Reserved {
        /// The action's config key.
        action: String,
        /// The key id as written.
        id: String,
    },
    /// Two actions share one key.
    #[error("keymaps.{first} and keymaps.{second} are both bound to \"{id}\"")]
    Duplicate {
        /// The action bound first.
        first: &'static str,
        /// The action bound again.
        second: &'static str,
        /// The shared key, canonical.
        id: String,
    },
    /// A key that names no action.
    #[error("keymaps.{0} is not a known action")]
    Unknown(String),
    /// The section is not an object.
    #[error("keymaps must be an object")]
    NotAnObject,
}

/// Keys the flow uses for fixed navigation: `?`, tab, shift+tab, arrows, `1`–`9`, and the
/// scroll keys Home, End, PageUp and PageDown (issue 12.27: bound to an action they could never
/// fire, since the lists and panes take them first).
pub fn is_reserved(key: KeyPress) -> bool {
    if !key.mods.is_empty() {
        return key.code == KeyCode::Tab && key.mods == crate::key::Modifiers::SHIFT;
    }
    matches!(
        key.code,
        KeyCode::Char('?')
            | KeyCode::Tab
            | KeyCode::Up
            | KeyCode::Down
            | KeyCode::Left
            | KeyCode::Right
            | KeyCode::Home
            | KeyCode::End
            | KeyCode::PageUp
            | KeyCode::PageDown
    ) || matches!(key.code, KeyCode::Char('1'..='9'))
}

/// Builds keymaps from a JSON `keymaps` section, or lists every reason it cannot be used.
pub fn keymaps_from_ids(section: &serde_json::Value) -> Result<Keymaps, Vec<KeymapError>> {
    let Some(obj) = section.as_object() else { return Err(vec![KeymapError::NotAnObject]) };
    let mut errors = Vec::new();
    for key in obj.keys() {
        if Action::from_key(key).is_none() {
            errors.push(KeymapError::Unknown(key.clone()));
        }
    }
    let mut keymaps = Keymaps::default();
    let mut used: BTreeMap<String, &'static str> = BTreeMap::new();
    for action in Action::every() {
        let name = action.key();
        let Some(raw) = obj.get(name) else {
            if Action::ALL.contains(&action) {
                errors.push(KeymapError::Missing(name));
            } else {
                // An extension left out keeps its default, unless a listed action took its key.
                let default = Keymaps::default().get(action);
                if let Some(first) = used.get(&default.to_string()) {
                    errors.push(KeymapError::Duplicate { first, second: name, id: default.to_string() });
                }
            }
            continue;
        };
        let Some(id) = raw.as_str() else {
            errors.push(KeymapError::NotAString(name.to_owned()));
            continue;
        };
        let Ok(key) = KeyPress::parse(id) else {
            errors.push(KeymapError::Unsupported { action: name.to_owned(), id: id.to_owned() });
            continue;
        };
        if is_reserved(key) {
            errors.push(KeymapError::Reserved { action: name.to_owned(), id: id.to_owned() });
            continue;
        }
        let canonical = key.to_string();
        if let Some(first) = used.get(&canonical) {
            errors.push(KeymapError::Duplicate { first, second: name, id: canonical });
            continue;
        }
        used.insert(canonical, name);
        keymaps.set(action, key);
    }
    if errors.is_empty() { Ok(keymaps) } else { Err(errors) }
}
