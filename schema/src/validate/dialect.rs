//! Other ask tools' payload shapes, accepted as documented dialects (issue 12.21): an agent
//! trained on Claude Code's `AskUserQuestion` or Codex's `request_user_input` sends
//! `{"question", "header", "multiSelect", "options": [{"label", "description"}]}`. A question in
//! that shape (it has `question` and no `prompt`) is rewritten into ours before validation:
//! `question` → `prompt`, `header` → `label`, `multiSelect: true` → `type: "multi"`, an option
//! without `value` takes its label as value, a plain-string option is both, and a missing `id`
//! comes from the header (`Auth method` → `auth_method`) or the position (`q2`).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

/// The payload with every foreign-shaped question rewritten into ours; borrowed when none is.
pub fn normalize(raw: &Value) -> Cow<'_, Value> {
    let Some(questions) = raw.get("questions").and_then(Value::as_array) else { return Cow::Borrowed(raw) };
    if !questions.iter().any(is_foreign) {
        return Cow::Borrowed(raw);
    }
    let mut out = raw.clone();
    if let Some(items) = out.get_mut("questions").and_then(Value::as_array_mut) {
        for (i, q) in items.iter_mut().enumerate() {
            if is_foreign(q)
                && let Some(obj) = q.as_object()
            {
                *q = Value::Object(rewrite(obj, i + 1));
            }
        }
    }
    Cow::Owned(out)
}

fn is_foreign(q: &Value) -> bool {
    q.get("question").is_some_and(Value::is_string) && q.get("prompt").is_none()
}

fn rewrite(q: &Map<String, Value>, n: usize) -> Map<String, Value> {
    let mut out = Map::new();
    let header = q.get("header").and_then(Value::as_str);
    let id = match q.get("id") {
        Some(id) => id.clone(),
        None => json!(header.map(slug).filter(|s| !s.is_empty()).unwrap_or_else(|| format!("q{n}"))),
    };
    out.insert("id".into(), id);
    if let Some(label) = q.get("label").or_else(|| q.get("header")) {
        out.insert("label".into(), label.clone());
    }
    out.insert("prompt".into(), q["question"].clone());
    match (q.get("type"), q.get("multiSelect")) {
        (Some(t), _) => {
            out.insert("type".into(), t.clone());
        }
        (None, Some(Value::Bool(true))) => {
            out.insert("type".into(), json!("multi"));
        }
        _ => {}
    }
    if let Some(r) = q.get("required") {
        out.insert("required".into(), r.clone());
    }
    let options = match q.get("options") {
        Some(Value::Array(items)) => Value::Array(items.iter().map(option).collect()),
        Some(other) => other.clone(),
        None => Value::Null,
    };
    if !options.is_null() {
        out.insert("options".into(), options);
    }
    out
}

fn option(o: &Value) -> Value {
    match o {
        Value::String(s) => json!({"value": s, "label": s}),
        Value::Object(obj) if !obj.contains_key("value") => {
            let mut obj = obj.clone();
            if let Some(label) = obj.get("label").cloned() {
                obj.insert("value".into(), label);
            }
            Value::Object(obj)
        }
        other => other.clone(),
    }
}

/// `Auth method` → `auth_method`: lowercase ASCII letters and digits, runs of anything else as `_`.
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// Fields of other tools' shapes found on a question in ours, with the fix to suggest.
pub const NEAR_MISSES: &[(&str, &str)] = &[
    ("multiSelect", "use `\"type\": \"multi\"`"),
    ("multi_select", "use `\"type\": \"multi\"`"),
    ("question", "the question text goes in `prompt`"),
    ("header", "did you mean `label`?"),
    ("choices", "did you mean `options`?"),
];
