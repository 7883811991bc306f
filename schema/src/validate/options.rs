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
        let mut seen = HashMap::new();
        let mut out = Vec::with_capacity(items.len());
        let mut all_ok = marker_ok;
        for (j, raw) in items.iter().enumerate() {
            match self.option(raw, &format!("{path}[{j}]"), n, j + 1, kind, &mut seen) {
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
            let Some(flag) = raw.as_object().and_then(|o| o.get("freeform")) else { continue };
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

    fn option(
        &mut self,
        raw: &Value,
        base: &str,
        n: usize,
        m: usize,
        kind: QuestionType,
        seen: &mut HashMap<String, usize>,
    ) -> Option<OptionItem> {
        let Some(obj) = raw.as_object() else {
            self.issue(base.to_owned(), format!("Question {n}: option {m} must be an object"));
            return None;
        };
        let who = format!("Question {n}: option {m}");
        let value = self.required_text(obj, "value", format!("{base}.value"), &format!("{who} value"));
        if let Some(value) = &value
            && let Some(first) = super::first_seen(seen, value, m)
        {
            let message = format!("Question {n}: option {m} repeats the value \"{value}\" of option {first}");
            self.issue(format!("{base}.value"), message);
        }
        let label = self.required_text(obj, "label", format!("{base}.label"), &format!("{who} label"));
        let description = self.optional_text(
            obj,
            "description",
            format!("{base}.description"),
            &format!("{who} description"),
        );
        let preview = self.preview(obj, base, &who, kind);
        let freeform = matches!(obj.get("freeform"), Some(Value::Bool(true)));
        Some(OptionItem { value: value?, label: label?, description, preview: preview.ok()?, freeform })
    }

    /// `Err` when the option is invalid; `Ok(None)` when it simply has no preview.
    fn preview(
        &mut self,
        obj: &Map<String, Value>,
        base: &str,
        who: &str,
        kind: QuestionType,
    ) -> Result<Option<String>, ()> {
        let path = format!("{base}.preview");
        if kind != QuestionType::Preview {
            let before = self.issues.len();
            let p = self.optional_text(obj, "preview", path, &format!("{who} preview"));
            return if self.issues.len() > before { Err(()) } else { Ok(p) };
        }
        match super::text_field(obj, "preview") {
            super::Text::Present(s) => Ok(Some(s)),
            _ => {
                self.issue(path, format!(
                    "{who} needs preview text on a preview question; add preview text to every option or use type: \"single\""
                ));
                Err(())
            }
        }
    }
}
