//! The tool result: `content` text plus the structured `details` the contract defines.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::input::{OptionItem, QuestionType};

/// What the tool returns: `{"content":[{"type":"text","text":…}],"details":{…}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ToolResult {
    /// One text block: what a transcript shows and what the agent reads.
    pub content: Vec<TextContent>,
    /// The structured result.
    pub details: Details,
}

impl ToolResult {
    /// Wraps `details` with its result text.
    pub fn new(text: String, details: Details) -> Self {
        ToolResult { content: vec![TextContent::text(text)], details }
    }

    /// The text of the first content block.
    pub fn text(&self) -> &str {
        self.content.first().map(|c| c.text.as_str()).unwrap_or("")
    }
}

/// A `{"type":"text","text":…}` content block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TextContent {
    /// Always `text`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The text.
    pub text: String,
}

impl TextContent {
    /// A text block.
    pub fn text(text: String) -> Self {
        TextContent { kind: "text".to_owned(), text }
    }
}

/// How the flow ended when it was not cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Normal completion (also the mode of cancelled and invalid results).
    Submit,
    /// The user asked the agent to clarify, based on their notes.
    Elaborate,
}

/// The structured half of the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Details {
    /// The form's title, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Dismissed, no UI, or invalid payload.
    pub cancelled: bool,
    /// Present only for invalid payloads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<InputError>,
    /// `submit` or `elaborate`.
    pub mode: Mode,
    /// Normalized question metadata, in order.
    pub questions: Vec<QuestionMeta>,
    /// Answers keyed by question id, in question order; unanswered questions are omitted.
    pub answers: IndexMap<String, Answer>,
    /// Only in `elaborate` mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continuation: Option<Continuation>,
    /// Only in `elaborate` mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elaboration: Option<Elaboration>,
    /// ask-user's extension of the contract: the form closed because its time ran out
    /// (`--timeout`, `ui.timeoutSeconds`). `cancelled` is true too; `answers` holds everything
    /// saved so far; the flow can be resumed. Absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not", rename = "timedOut")]
    pub timed_out: bool,
    /// ask-user's extension over MCP: the call returned before the user answered (the server's
    /// wait ended, or the client cancelled the call), and the form stays open for `ask-user
    /// attach`. `cancelled` is true too and `answers` is empty; calling `ask_user` again with the
    /// same payload returns the answers given meanwhile, never a second form. Absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not", rename = "stillOpen")]
    pub still_open: bool,
    /// With `timedOut`: the flow id that `ask-user resume` (or `ask --id`) reopens. With
    /// `stillOpen`: the flow id that `ask-user attach` opens.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "flowId")]
    pub flow_id: Option<String>,
    /// With `timedOut`: text the user was typing in an editor left open when the form closed.
    /// Not saved, so not in `answers`; resuming the flow reopens the editor with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<Draft>,
}

/// Text being typed when a form timed out (`details.draft`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Draft {
    /// The question it was typed on.
    #[serde(rename = "questionId")]
    pub question_id: String,
    /// What it was typed for.
    pub kind: DraftKind,
    /// With `optionNote`: the option's value.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "optionValue")]
    pub option_value: Option<String>,
    /// The text as typed.
    pub text: String,
}

/// What a [`Draft`] was typed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum DraftKind {
    /// The question's own (free-form) answer.
    Answer,
    /// The question's note.
    QuestionNote,
    /// A note on one of its options.
    OptionNote,
}

/// `{kind:"invalid_input", issues}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct InputError {
    /// `invalid_input` (the contract), or `id_conflict` (ask-user: a reused flow id).
    pub kind: String,
    /// Every problem found, in payload order.
    pub issues: Vec<Issue>,
}

/// One validation problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Issue {
    /// Where: `title`, `questions`, `questions[0].id`, `questions[1].options[2].preview`, or `""`.
    pub path: String,
    /// What is wrong, naming the question and option by 1-based number.
    pub message: String,
}

/// A question as `details.questions` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct QuestionMeta {
    /// Question id.
    pub id: String,
    /// Normalized label.
    pub label: String,
    /// The prompt.
    pub prompt: String,
    /// The kind.
    #[serde(rename = "type")]
    pub kind: QuestionType,
}

/// One question's answer.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// Selected option values in declared order, then the free-form text.
    pub values: Vec<String>,
    /// Labels matching `values`.
    pub labels: Vec<String>,
    /// 1-based positions of the selected declared options.
    pub indices: Vec<usize>,
    /// The free-form answer, when one is selected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_text: Option<String>,
    /// The question-level note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Notes on selected options, keyed by option value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option_notes: Option<IndexMap<String, String>>,
}

impl Answer {
    /// A committed answer has at least one value (option or free-form text).
    pub fn is_committed(&self) -> bool {
        !self.values.is_empty()
    }
}

/// How the agent should continue after an elaboration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Continuation {
    /// `refine_only` when some question is affected, else `resume`.
    pub strategy: Strategy,
    /// Questions with a question note or an option note, in question order.
    pub affected_question_ids: Vec<String>,
    /// Committed answers of the questions that are not affected.
    pub preserved_answers: IndexMap<String, Answer>,
    /// Every question's state.
    pub question_states: IndexMap<String, QuestionStateEntry>,
}

/// `continuation.strategy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Refine the current flow; do not restart it.
    RefineOnly,
    /// Nothing to refine: carry on.
    Resume,
}

/// `{status}` of one question in `continuation.questionStates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct QuestionStateEntry {
    /// The state.
    pub status: QuestionStatus,
}

/// The three question states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuestionStatus {
    /// Has a committed answer and no notes.
    Answered,
    /// Has a question note or an option note.
    NeedsClarification,
    /// Neither.
    Unanswered,
}

/// The notes the user wants the agent to address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Elaboration {
    /// What the agent should do with the items.
    pub instruction: String,
    /// `clarify_then_reask` when an affected question has no committed answer.
    pub next_action: NextAction,
    /// Question notes and option notes, in question then option order.
    pub items: Vec<ElaborationItem>,
}

/// `elaboration.nextAction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NextAction {
    /// Answer the notes; every affected question is answered.
    Clarify,
    /// Answer the notes, then ask the affected questions again.
    ClarifyThenReask,
}

/// The full normalized question an elaboration item refers to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ElaboratedQuestion {
    /// Question id.
    pub id: String,
    /// Label.
    pub label: String,
    /// Prompt.
    pub prompt: String,
    /// Kind.
    #[serde(rename = "type")]
    pub kind: QuestionType,
    /// Every declared option.
    pub options: Vec<OptionItem>,
}

/// What an elaboration item is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Target {
    /// A question note.
    Question,
    /// An option note.
    Option {
        /// The noted option's value.
        #[serde(rename = "optionValue")]
        option_value: String,
    },
}

/// One note to elaborate on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ElaborationItem {
    /// Question or option.
    pub target: Target,
    /// The whole question with all its options.
    pub question: ElaboratedQuestion,
    /// The noted option (option items only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<OptionItem>,
    /// Whether the noted option is selected (option items only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<bool>,
    /// Whether the question has a committed answer.
    pub answered: bool,
    /// The committed answer, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
    /// The note text.
    pub note: String,
}
