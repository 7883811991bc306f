//! Validation of a question's option list, including the `/answer` free-form marker rules.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::Validator;
use crate::input::{FormSource, OptionItem, QuestionType};

impl Validator {
    pub(super) fn options(
        &mut self,
        obj: &Map<String, Value>,
        base: &str,
        n: usize,
        kind: QuestionType,
    ) -> Option<Vec<OptionItem>> {
        let path = format!("{base}.options");
        let items = match obj.get("options") {
            Some(Value::Array(items)) if items.is_empty() => {
                self.issue(path, format!("Question {n}: at least one option is required"));
                return None;
            }
            Some(Value::Array(items)) => items,
            None => {
                self.issue(path, format!("Question {n}: at least one option is required"));
                return None;
            }
            Some(_) => {
                self.issue(path, format!("Question {n}: options must be an array"));
                return None;
            }
        };
        let marker_ok = self.freeform_rules(items, &path, n);
        // Sized once, with a fast hasher: the payload's values are not attacker-chosen keys
        // into a long-lived table, just a duplicate check over one list.
        let mut seen = HashMap::with_capacity_and_hasher(items.len(), foldhash::fast::RandomState::default());
        let mut out = Vec::with_capacity(items.len());
        let mut all_ok = marker_ok;
        for (j, raw) in items.iter().enumerate() {
            match self.option(raw, &path, n, j + 1, kind, &mut seen) {
                Some(opt) => out.push(opt),
                None => all_ok = false,
            }
        }
        all_ok.then_some(out)
    }

    /// The free-form marker is refused on tool payloads and must stand alone in `/answer` forms.
    fn freeform_rules(&mut self, items: &[Value], path: &str, n: usize) -> bool {
        let mut ok = true;
        for (j, raw) in items.iter().enumerate() {
            let Some(flag) = raw.as_object().and_then(|o| super::field(o, "freeform")) else { continue };
            let at = format!("{path}[{j}].freeform");
            let m = j + 1;
            match (flag, self.source) {
                (Value::Bool(false), _) => {}
                (Value::Bool(true), FormSource::Tool) => {
                    self.issue(at, format!(
                        "Question {n}: option {m} uses the internal freeform marker, which only /answer forms may use"
                    ));
                    ok = false;
                }
                (Value::Bool(true), FormSource::AnswerExtraction) if items.len() > 1 => {
                    self.issue(at, format!(
                        "Question {n}: option {m} is a freeform marker, which must be the only option of its question"
                    ));
                    ok = false;
                }
                (Value::Bool(true), FormSource::AnswerExtraction) => {}
                _ => {
                    self.issue(at, format!("Question {n}: option {m} freeform must be a boolean"));
                    ok = false;
                }
            }
        }
        ok
    }

    /// Option `m` (1-based) of question `n`, at `{list}[m-1]`. Paths and messages are built only
    /// for an issue, and duplicate values are found by the payload's own strings: a valid option
    /// costs its normalized strings and one hash insert.
    fn option<'v>(
        &mut self,
        raw: &'v Value,
        list: &str,
        n: usize,
        m: usize,
        kind: QuestionType,
        seen: &mut HashMap<&'v str, usize, foldhash::fast::RandomState>,
    ) -> Option<OptionItem> {
        let j = m - 1;
        let Some(obj) = raw.as_object() else {
            self.issue(format!("{list}[{j}]"), format!("Question {n}: option {m} must be an object"));
            return None;
        };
        let at = |field: &str| format!("{list}[{j}].{field}");
        let who = |field: &str| format!("Question {n}: option {m} {field}");
        let value = self.required_text(obj, "value", || at("value"), || who("value"));
        if value.is_some()
            && let Some(key) = super::field(obj, "value").and_then(Value::as_str).map(str::trim)
            && let Some(first) = super::first_seen(seen, key, m)
        {
            let message = format!("Question {n}: option {m} repeats the value \"{key}\" of option {first}");
            self.issue(at("value"), message);
        }
        let label = self.required_text(obj, "label", || at("label"), || who("label"));
        let description = self.optional_text(obj, "description", || at("description"), || who("description"));
        let preview = self.preview(obj, &at, &who, kind);
        let freeform = matches!(super::field(obj, "freeform"), Some(Value::Bool(true)));
        Some(OptionItem {
            value: value?.into(),
            label: label?.into(),
            description: description.map(Into::into),
            preview: preview.map(Into::into),
            freeform,
        })
    }

    /// The option's preview, if it has one; a bad or missing one is recorded as an issue (which
    /// refuses the form, so what the option is built with then does not matter).
    fn preview(
        &mut self,
        obj: &Map<String, Value>,
        at: &dyn Fn(&str) -> String,
        who: &dyn Fn(&str) -> String,
        kind: QuestionType,
    ) -> Option<String> {
        if kind != QuestionType::Preview {
            return self.optional_text(obj, "preview", || at("preview"), || who("preview"));
        }
        match super::text_field(obj, "preview") {
            super::Text::Present(s) => Some(s),
            _ => {
                let message = format!(
                    "{} needs preview text on a preview question; add preview text to every option or use type: \"single\"",
                    who("").trim_end()
                );
                self.issue(at("preview"), message);
                None
            }
        }
    }
}
