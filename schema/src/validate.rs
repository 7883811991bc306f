//! Validation and normalization of a raw payload, reporting every issue in payload order.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::input::{Form, FormSource, Question, QuestionType};
use crate::output::Issue;

/// Checks a raw JSON payload and returns the normalized form, or every issue found.
///
/// `source` decides whether the internal free-form marker is allowed (`/answer` forms only).
pub fn validate(raw: &Value, source: FormSource) -> Result<Form, Vec<Issue>> {
    let mut v = Validator { issues: Vec::new(), source };
    let raw = dialect::normalize(raw);
    let form = v.form(&raw);
    match form {
        Some(form) if v.issues.is_empty() => Ok(form),
        _ => Err(v.issues),
    }
}

/// Parses text as JSON and validates it; text that is not JSON gives one issue at path `""`.
///
/// Same answer as [`parse_json`] then [`validate`], faster: a valid payload in our shape is read
/// straight into the form, and only one that is not (or not JSON) is parsed into a tree for the
/// issue list.
pub fn validate_text(text: &str, source: FormSource) -> Result<Form, Vec<Issue>> {
    match direct_form(text, source) {
        Some(form) => Ok(form),
        None => validate(&parse_json(text)?, source),
    }
}

/// The fast path of [`validate_text`] on its own: the normalized form of a valid payload in our
/// shape, read straight from the text (by the strict reader, else by serde's); `None` for
/// anything else (invalid, another tool's shape, not JSON), which only the tree validator
/// answers. Public for its tests and benchmark.
pub fn direct_form(text: &str, source: FormSource) -> Option<Form> {
    strict::form(text, source, strict::SPLIT_FROM).or_else(|| direct::form(text, source))
}

/// The strict reader of the fast path on its own, reading options on a second thread in texts
/// of `split_from` bytes or more (0: always try). Public for its tests and benchmark.
pub fn strict_form(text: &str, source: FormSource, split_from: usize) -> Option<Form> {
    strict::form(text, source, split_from)
}

/// The raw JSON value of a payload's text, or the one issue saying in plain words why it is not
/// JSON (for callers that keep the raw value, e.g. to store it).
pub fn parse_json(text: &str) -> Result<Value, Vec<Issue>> {
    serde_json::from_str::<Value>(text)
        .map_err(|err| vec![Issue { path: String::new(), message: json_error_in_words(text, &err) }])
}

/// What is wrong with text that is not JSON, in plain words with its place (SPEC §3: never a
/// serde message).
fn json_error_in_words(text: &str, err: &serde_json::Error) -> String {
    let place = format!("line {}, column {}", err.line(), err.column());
    match err.classify() {
        // Most often nothing was piped in, or the wrong file was given.
        serde_json::error::Category::Eof if text.trim().is_empty() => {
            "payload is empty: expected a JSON object with \"questions\"".to_owned()
        }
        serde_json::error::Category::Eof => {
            format!("payload is not valid JSON: it ends too early ({place}); is a bracket or quote missing?")
        }
        // serde_json stops at 128 levels of arrays and objects, and says so only in its message.
        serde_json::error::Category::Syntax if err.to_string().starts_with("recursion limit exceeded") => {
            format!("payload is nested too deeply: more than 128 levels of arrays and objects ({place})")
        }
        serde_json::error::Category::Syntax => {
            format!("payload is not valid JSON: unexpected text at {place}")
        }
        serde_json::error::Category::Data | serde_json::error::Category::Io => {
            format!("payload is not valid JSON ({place})")
        }
    }
}

struct Validator {
    issues: Vec<Issue>,
    source: FormSource,
}

/// How a string field was found.
enum Text {
    Missing,
    NotString,
    Blank,
    Present(String),
}

/// `null` counts as absent everywhere: many tool-calling models send it for every optional
/// field they leave out, and the published schema allows it.
/// A field of a payload object. An option has three or four fields: comparing their names in
/// order beats hashing the key (a JSON map hashes with SipHash), and a million options ask
/// for six fields each.
fn field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if obj.len() <= 8 { obj.iter().find_map(|(k, v)| (k == key).then_some(v)) } else { obj.get(key) }
}

fn text_field(obj: &Map<String, Value>, key: &str) -> Text {
    match field(obj, key) {
        None | Some(Value::Null) => Text::Missing,
        Some(Value::String(s)) if s.trim().is_empty() => Text::Blank,
        Some(Value::String(s)) => Text::Present(s.trim().to_owned()),
        Some(_) => Text::NotString,
    }
}

impl Validator {
    fn issue(&mut self, path: String, message: String) {
        self.issues.push(Issue { path, message });
    }

    fn form(&mut self, raw: &Value) -> Option<Form> {
        let Some(obj) = raw.as_object() else {
            self.issue(String::new(), "payload must be a JSON object".to_owned());
            return None;
        };
        let title = self.optional_text(obj, "title", || "title".to_owned(), || "title".to_owned());
        let questions = match obj.get("questions") {
            None => {
                self.issue("questions".into(), "questions is required".into());
                return None;
            }
            Some(Value::Array(items)) if items.is_empty() => {
                self.issue("questions".into(), "at least one question is required".into());
                return None;
            }
            Some(Value::Array(items)) => items,
            Some(_) => {
                self.issue("questions".into(), "questions must be an array".into());
                return None;
            }
        };
        let mut seen_ids = HashMap::new();
        let mut out = Vec::with_capacity(questions.len());
        for (i, q) in questions.iter().enumerate() {
            if let Some(q) = self.question(q, i, &mut seen_ids) {
                out.push(q);
            }
        }
        Some(Form { title, questions: out })
    }

    /// An optional string that must not be blank when given. `path` and `what` (how a person
    /// names the field) are built only for an issue: a valid option costs no formatting.
    fn optional_text(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        path: impl FnOnce() -> String,
        what: impl FnOnce() -> String,
    ) -> Option<String> {
        match text_field(obj, key) {
            Text::Missing => None,
            Text::NotString => {
                self.issue(path(), format!("{} must be a string", what()));
                None
            }
            Text::Blank => {
                self.issue(path(), format!("{} must not be blank", what()));
                None
            }
            Text::Present(s) => Some(s),
        }
    }

    /// A required non-blank string (`path` and `what` as for [`Validator::optional_text`]).
    fn required_text(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        path: impl FnOnce() -> String,
        what: impl FnOnce() -> String,
    ) -> Option<String> {
        match text_field(obj, key) {
            Text::Missing | Text::Blank => {
                self.issue(path(), format!("{} is required", what()));
                None
            }
            Text::NotString => {
                self.issue(path(), format!("{} must be a string", what()));
                None
            }
            Text::Present(s) => Some(s),
        }
    }

    fn question(&mut self, raw: &Value, i: usize, seen_ids: &mut HashMap<String, usize>) -> Option<Question> {
        let base = format!("questions[{i}]");
        let n = i + 1;
        let Some(obj) = raw.as_object() else {
            self.issue(base, format!("Question {n}: must be an object"));
            return None;
        };
        let kind = self.question_type(obj, &base, n);
        let id = self.required_text(obj, "id", || format!("{base}.id"), || format!("Question {n}: id"));
        if let Some(id) = &id
            && let Some(first) = first_seen(seen_ids, id.clone(), n)
        {
            let message =
                format!("Question {n}: duplicate question id \"{id}\" (question {first} has it too)");
            self.issue(format!("{base}.id"), message);
        }
        let label =
            self.optional_text(obj, "label", || format!("{base}.label"), || format!("Question {n}: label"));
        let prompt = self.required_text(
            obj,
            "prompt",
            || format!("{base}.prompt"),
            || format!("Question {n}: prompt"),
        );
        let required = match obj.get("required") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                self.issue(format!("{base}.required"), format!("Question {n}: required must be a boolean"));
                false
            }
        };
        let options = self.options(obj, &base, n, kind.unwrap_or_default());
        // Another tool's field on a question in our shape is a mistake to explain, not to drop.
        for (field, fix) in dialect::NEAR_MISSES {
            if obj.contains_key(*field) {
                self.issue(
                    format!("{base}.{field}"),
                    format!("Question {n}: unknown field \"{field}\"; {fix}"),
                );
            }
        }
        Some(Question {
            id: id?,
            label: label.unwrap_or_else(|| format!("Q{n}")),
            prompt: prompt?,
            kind: kind?,
            required,
            options: options?.into(),
        })
    }

    fn question_type(&mut self, obj: &Map<String, Value>, base: &str, n: usize) -> Option<QuestionType> {
        let kind = match obj.get("type") {
            None | Some(Value::Null) => Some(QuestionType::Single),
            Some(Value::String(s)) => QuestionType::from_name(s.trim()),
            Some(_) => None,
        };
        if kind.is_none() {
            self.issue(
                format!("{base}.type"),
                format!("Question {n}: type must be \"single\", \"multi\" or \"preview\""),
            );
        }
        kind
    }
}

mod dialect;
mod direct;
mod gathered;
mod options;
mod strict;

/// Records `key` as seen at `position`; for a repeat, gives the position it was first seen at.
fn first_seen<K: Eq + std::hash::Hash, S: std::hash::BuildHasher>(
    seen: &mut HashMap<K, usize, S>,
    key: K,
    position: usize,
) -> Option<usize> {
    match seen.entry(key) {
        std::collections::hash_map::Entry::Occupied(first) => Some(*first.get()),
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(position);
            None
        }
    }
}
