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
    #[schemars(
        description = "Preview pane text (code, config, a mock-up), shown as written in a pane about 45 columns wide beside the options (longer lines wrap); required on every option of a preview question."
    )]
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
///
/// It is also self-contained — no `$ref`, no `$defs` — and names the question types in words
/// rather than as constants, so that no host's validator (pi's TypeBox, a client's converter for
/// Gemini) can turn away `"type": "dropdown"` before the tool explains it.
pub fn lenient_input_schema() -> serde_json::Value {
    let mut schema = input_schema();
    let defs = schema.as_object_mut().and_then(|o| o.remove("$defs")).unwrap_or_default();
    inline_refs(&mut schema, &defs, 0);
    loosen(&mut schema);
    schema
}

/// Replaces each `{"$ref": "#/$defs/X"}` with X itself (the input types are not recursive; the
/// depth bound only guards against a future change making them so).
fn inline_refs(value: &mut serde_json::Value, defs: &serde_json::Value, depth: usize) {
    match value {
        serde_json::Value::Object(obj) => {
            let target = obj.get("$ref").and_then(|r| r.as_str()).and_then(|r| r.strip_prefix("#/$defs/"));
            if let Some(name) = target.map(str::to_owned)
                && depth < 8
            {
                obj.remove("$ref");
                if let Some(serde_json::Value::Object(def)) = defs.get(&name) {
                    for (k, v) in def {
                        obj.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
                inline_refs(value, defs, depth + 1);
                return;
            }
            // An optional enum is `anyOf: [{the enum}, {"type": "null"}]`; the lenient form
            // says the allowed words and accepts any string.
            if let Some(serde_json::Value::Array(any)) = obj.get("anyOf")
                && any.iter().any(|a| a.get("$ref").is_some())
            {
                obj.remove("anyOf");
                obj.insert("type".to_owned(), serde_json::json!(["string", "null"]));
            }
            obj.values_mut().for_each(|v| inline_refs(v, defs, depth));
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| inline_refs(v, defs, depth)),
        _ => {}
    }
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
        for strict in ["$ref", "$defs", "\"const\"", "\"enum\"", "oneOf"] {
            assert!(!lenient.contains(strict), "{strict} in {lenient}");
        }
        for property in ["questions", "prompt", "options", "preview", "description"] {
            assert!(lenient.contains(&format!("\"{property}\"")), "{property}");
        }
    }
}
