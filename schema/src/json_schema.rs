//! JSON Schema documents of the tool input and result, for registering the tool with any agent.

use schemars::{JsonSchema, schema_for};
use serde::Deserialize;

use crate::input::QuestionType;
use crate::output::ToolResult;

/// The input as an agent writes it (optional fields really optional).
#[derive(Deserialize, JsonSchema)]
#[schemars(
    title = "ask_user input",
    description = "Questions for the user; every question also gets a free-form 'Type your own' answer."
)]
#[allow(dead_code)] // Only its schema is used.
struct AskParams {
    /// Optional heading shown above the tabs.
    title: Option<String>,
    /// At least one question; ids unique.
    #[schemars(length(min = 1))]
    questions: Vec<AskQuestion>,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct AskQuestion {
    /// Unique, non-blank id; keys the answers record.
    #[schemars(length(min = 1))]
    id: String,
    /// Short tab name; defaults to Q1, Q2, …
    label: Option<String>,
    /// The question itself.
    #[schemars(length(min = 1))]
    prompt: String,
    /// single (default), multi or preview.
    #[serde(rename = "type")]
    kind: Option<QuestionType>,
    /// Metadata only; never blocks submission.
    required: Option<bool>,
    /// At least one option; values unique within the question.
    #[schemars(length(min = 1))]
    options: Vec<AskOption>,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct AskOption {
    /// Machine value returned in `values`.
    #[schemars(length(min = 1))]
    value: String,
    /// Text shown to the user.
    #[schemars(length(min = 1))]
    label: String,
    /// Extra line under the option.
    description: Option<String>,
    /// Preview pane text; required on every option of a preview question.
    preview: Option<String>,
}

/// The JSON Schema of the tool input.
pub fn input_schema() -> serde_json::Value {
    serde_json::to_value(schema_for!(AskParams)).unwrap_or_default()
}

/// The JSON Schema of the tool result.
pub fn result_schema() -> serde_json::Value {
    serde_json::to_value(schema_for!(ToolResult)).unwrap_or_default()
}

/// The input schema with nothing required and no length limits: what a host registers so that
/// a malformed call still reaches the tool, whose own validation then answers with every issue
/// in the structured `invalid_input` result (as the contract asks) instead of a protocol error.
pub fn lenient_input_schema() -> serde_json::Value {
    let mut schema = input_schema();
    loosen(&mut schema);
    schema
}

fn loosen(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(obj) => {
            for key in ["required", "minLength", "minItems"] {
                obj.remove(key);
            }
            obj.values_mut().for_each(loosen);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(loosen),
        _ => {}
    }
}

/// The JSON Schema of a result's `details` alone: an MCP tool's `outputSchema`, since the MCP
/// server returns `details` as `structuredContent`.
pub fn details_schema() -> serde_json::Value {
    serde_json::to_value(schema_for!(crate::output::Details)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_lenient_schema_requires_nothing_and_keeps_every_property() {
        let strict = super::input_schema().to_string();
        let lenient = super::lenient_input_schema().to_string();
        assert!(strict.contains("\"required\""));
        assert!(!lenient.contains("\"required\"") && !lenient.contains("minLength"));
        for property in ["questions", "prompt", "options", "preview", "description"] {
            assert!(lenient.contains(&format!("\"{property}\"")), "{property}");
        }
    }
}
