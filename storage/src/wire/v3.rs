//! Event encoding version 3, frozen: version 2 plus the keymap extensions (actions beyond the
//! contract's six, such as `filter`) beside the six bindings, and the `TimedOut` and
//! `FlowResumed` events. Never edit these types; add a new version instead.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::v1::{BehaviourV1, FormV1, KeymapsV1, OriginV1, SettingsV1, SizeV1};
use super::v2::EventV2;

/// Settings as version 3 writes them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingsV3 {
    pub behaviour: BehaviourV1,
    pub keymaps: KeymapsV1,
    /// Extension action → key id; an action missing here has its default.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub keymap_extensions: BTreeMap<String, String>,
}

/// A flow event as version 3 writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum EventV3 {
    FlowOpened {
        form: FormV1,
        settings: SettingsV3,
        origin: OriginV1,
        size: SizeV1,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notices: Vec<String>,
    },
    KeyPressed {
        key: String,
    },
    TextPasted {
        text: String,
    },
    TerminalResized {
        size: SizeV1,
    },
    SettingsChanged {
        settings: SettingsV3,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notices: Vec<String>,
    },
    SettingsSaveFailed {
        settings: SettingsV3,
        message: String,
    },
    CompletionsOffered {
        query: String,
        items: Vec<String>,
    },
    TimedOut {
        seconds: u64,
    },
    FlowResumed,
}

impl From<SettingsV1> for SettingsV3 {
    fn from(s: SettingsV1) -> SettingsV3 {
        SettingsV3 { behaviour: s.behaviour, keymaps: s.keymaps, keymap_extensions: BTreeMap::new() }
    }
}

impl From<EventV2> for EventV3 {
    /// The upgrade step: a version-2 flow had no extension bindings, so it gets the defaults.
    fn from(e: EventV2) -> EventV3 {
        match e {
            EventV2::FlowOpened { form, settings, origin, size, notices } => {
                EventV3::FlowOpened { form, settings: settings.into(), origin, size, notices }
            }
            EventV2::KeyPressed { key } => EventV3::KeyPressed { key },
            EventV2::TextPasted { text } => EventV3::TextPasted { text },
            EventV2::TerminalResized { size } => EventV3::TerminalResized { size },
            EventV2::SettingsChanged { settings, notices } => {
                EventV3::SettingsChanged { settings: settings.into(), notices }
            }
            EventV2::SettingsSaveFailed { settings, message } => {
                EventV3::SettingsSaveFailed { settings: settings.into(), message }
            }
            EventV2::CompletionsOffered { query, items } => EventV3::CompletionsOffered { query, items },
        }
    }
}
