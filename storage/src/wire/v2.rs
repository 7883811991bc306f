//! Event encoding version 2, frozen: version 1 plus the load notices carried by
//! `SettingsChanged`. Never edit these types; add a new version instead.

use serde::{Deserialize, Serialize};

use super::v1::{EventV1, FormV1, OriginV1, SettingsV1, SizeV1};

/// A flow event as version 2 writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum EventV2 {
    FlowOpened {
        form: FormV1,
        settings: SettingsV1,
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
        settings: SettingsV1,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notices: Vec<String>,
    },
    SettingsSaveFailed {
        settings: SettingsV1,
        message: String,
    },
    CompletionsOffered {
        query: String,
        items: Vec<String>,
    },
}

impl From<EventV1> for EventV2 {
    /// The upgrade step: a version-1 settings change carried no notices.
    fn from(e: EventV1) -> EventV2 {
        match e {
            EventV1::FlowOpened { form, settings, origin, size, notices } => {
                EventV2::FlowOpened { form, settings, origin, size, notices }
            }
            EventV1::KeyPressed { key } => EventV2::KeyPressed { key },
            EventV1::TextPasted { text } => EventV2::TextPasted { text },
            EventV1::TerminalResized { size } => EventV2::TerminalResized { size },
            EventV1::SettingsChanged { settings } => {
                EventV2::SettingsChanged { settings, notices: Vec::new() }
            }
            EventV1::SettingsSaveFailed { settings, message } => {
                EventV2::SettingsSaveFailed { settings, message }
            }
            EventV1::CompletionsOffered { query, items } => EventV2::CompletionsOffered { query, items },
        }
    }
}
