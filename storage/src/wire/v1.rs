//! Event encoding version 1, frozen: the exact JSON ask-user 0.1 wrote. These types mirror that
//! JSON and nothing else, so a change to the engine's or the schema's types can never change
//! what an old log means. Never edit their JSON; add a new version instead. (A field's Rust type
//! may change where its JSON cannot: option texts are `CompactString`, a JSON string like
//! `String`, so decoding hands them to the form without a copy; the byte-identical replay tests
//! guard it.)

use compact_str::CompactString as Text;
use serde::{Deserialize, Serialize};

/// A flow event as version 1 wrote it (`{"type":"KeyPressed","key":"down","v":1}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum EventV1 {
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

/// The normalized form inside `FlowOpened`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormV1 {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub questions: Vec<QuestionV1>,
}

/// One normalized question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionV1 {
    pub id: String,
    pub label: String,
    pub prompt: String,
    /// `single`, `multi` or `preview`.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub required: bool,
    pub options: Vec<OptionV1>,
}

/// One declared option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionV1 {
    // The form's own text type (the same JSON string), so decoding a flow of a million options
    // keeps the texts it reads instead of copying each.
    pub value: Text,
    pub label: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<Text>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub freeform: bool,
}

/// Settings: the four toggles (missing ones take their defaults) and six key ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsV1 {
    pub behaviour: BehaviourV1,
    pub keymaps: KeymapsV1,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BehaviourV1 {
    #[serde(default)]
    pub auto_submit_when_answered_without_notes: bool,
    #[serde(default = "yes")]
    pub confirm_dismiss_when_dirty: bool,
    #[serde(default = "yes")]
    pub double_press_review_shortcuts: bool,
    #[serde(default = "yes")]
    pub show_footer_hints: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeymapsV1 {
    pub cancel: String,
    pub dismiss: String,
    pub toggle: String,
    pub confirm: String,
    pub option_note: String,
    pub question_note: String,
}

/// Where the flow came from: `source` is `tool` or `answer-extraction`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OriginV1 {
    pub source: String,
    #[serde(default)]
    pub command: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SizeV1 {
    pub width: u16,
    pub height: u16,
}
