//! The normalized form an agent asks: questions, their kinds and options.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::option_list::OptionList;

/// The kind of a question: how many options it takes and whether it shows a preview pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum QuestionType {
    /// Exactly one answer: an option or free-form text.
    #[default]
    Single,
    /// Any number of options, plus optional free-form text appended last.
    Multi,
    /// Like `single`, with a pane showing the highlighted option's preview text.
    Preview,
}

impl QuestionType {
    /// The wire name (`single`, `multi`, `preview`).
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionType::Single => "single",
            QuestionType::Multi => "multi",
            QuestionType::Preview => "preview",
        }
    }

    /// The kind a wire name (`single`, `multi`, `preview`) names, if any.
    pub fn from_name(name: &str) -> Option<QuestionType> {
        match name {
            "single" => Some(QuestionType::Single),
            "multi" => Some(QuestionType::Multi),
            "preview" => Some(QuestionType::Preview),
            _ => None,
        }
    }

    /// Multi-select questions toggle; the other two kinds select one option.
    pub fn is_multi(self) -> bool {
        matches!(self, QuestionType::Multi)
    }
}

/// An option's text: up to 24 bytes inline, longer on the heap; reads as `&str`.
pub type Text = compact_str::CompactString;

/// One declared option of a question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OptionItem {
    /// Stable machine value returned in `values`.
    #[schemars(with = "String")]
    pub value: Text,
    /// Text shown to the user and returned in `labels`.
    #[schemars(with = "String")]
    pub label: Text,
    /// Extra line shown under the option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub description: Option<Text>,
    /// Text shown in the preview pane (required on `preview` questions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub preview: Option<Text>,
    /// Internal `/answer` marker: the question takes typed input only. Never on tool payloads.
    #[serde(default, skip_serializing_if = "is_false")]
    #[schemars(skip)]
    pub freeform: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// One normalized question: trimmed text, a label (`Q1`, `Q2`, … when absent) and a type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Question {
    /// Unique id within the call; keys the `answers` record.
    pub id: String,
    /// Short tab name; falls back to `Q1`, `Q2`, …
    pub label: String,
    /// The full question.
    pub prompt: String,
    /// `single` (default), `multi` or `preview`.
    #[serde(rename = "type", default)]
    pub kind: QuestionType,
    /// Metadata only: never blocks submission.
    #[serde(default)]
    pub required: bool,
    /// Declared options, in order; a `Type your own` row is always added after them.
    #[schemars(with = "Vec<OptionItem>")]
    pub options: OptionList,
}

impl Question {
    /// An `/answer` free-form question: its only option is the free-form marker.
    pub fn is_freeform(&self) -> bool {
        self.options.len() == 1 && self.options[0].freeform
    }

    /// How many declared options get a numbered row (free-form questions have none).
    pub fn declared_rows(&self) -> usize {
        if self.is_freeform() { 0 } else { self.options.len() }
    }
}

/// A validated and normalized `ask_user` payload.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Form {
    /// Optional heading shown above the tabs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// At least one question.
    pub questions: Vec<Question>,
}

/// Where a form came from; `/answer` forms may use the free-form marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FormSource {
    /// A real `ask_user` tool call.
    Tool,
    /// Questions extracted from an assistant message by `/answer`.
    AnswerExtraction,
}
