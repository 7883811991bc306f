//! The form as an MCP elicitation: the client shows it in its own UI, and the answers come back
//! as events of a headless flow, so the result has exactly the contract's shape.
//!
//! Property names follow the question's position (`q1`, `q1_own`, `q1_note`, …) and sort in
//! question order. Single and preview questions are a titled string enum; multi-select ones an
//! array of titled enums, or one boolean per option (`q2_opt1`, …) for clients that render no
//! arrays; "Type your own" and the question note are optional strings; `zz_finish` chooses
//! Submit or Elaborate. Option notes and previews have no place in such a form.

use ask_engine::{Event, KeyCode, KeyPress};
use ask_schema::{Form, QuestionType};
use serde_json::{Map, Value, json};

/// How multi-select questions are asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiStyle {
    /// An array of titled enums (2025-11-25 clients such as Claude Code, VS Code, Cursor).
    Array,
    /// One boolean per option (clients that render no arrays, such as Codex).
    Booleans,
}

/// The `requestedSchema` of the form.
pub fn schema(form: &Form, multi: MultiStyle) -> Value {
    let mut props = Map::new();
    for (i, q) in form.questions.iter().enumerate() {
        let n = i + 1;
        let titled: Vec<Value> =
            q.options.iter().map(|o| json!({"const": o.value, "title": o.label})).collect();
        let describe = |extra: &str| format!("{}{extra}", q.prompt);
        match (q.kind, multi) {
            (QuestionType::Multi, MultiStyle::Array) => {
                props.insert(
                    format!("q{n}"),
                    json!({"type": "array", "title": q.label, "description": describe(" (choose any)"),
                           "items": {"anyOf": titled}}),
                );
            }
            (QuestionType::Multi, MultiStyle::Booleans) => {
                for (j, o) in q.options.iter().enumerate() {
                    let title = format!("{}: {}", q.label, o.label);
                    let mut p = json!({"type": "boolean", "title": title, "default": false});
                    if let Some(d) = &o.description {
                        p["description"] = json!(d);
                    }
                    props.insert(format!("q{n}_opt{}", j + 1), p);
                }
            }
            _ => {
                props.insert(
                    format!("q{n}"),
                    json!({"type": "string", "title": q.label, "description": describe(""), "oneOf": titled}),
                );
            }
        }
        props.insert(
            format!("q{n}_own"),
            json!({"type": "string", "title": format!("{}: type your own", q.label),
                   "description": "Optional free-form answer (replaces the choice on single-choice questions)."}),
        );
        props.insert(
            format!("q{n}_note"),
            json!({"type": "string", "title": format!("{}: note", q.label),
                   "description": "Optional note for the agent about this question."}),
        );
    }
    props.insert(
        "zz_finish".to_owned(),
        json!({"type": "string", "title": "When done", "default": "submit", "oneOf": [
            {"const": "submit", "title": "Submit the answers"},
            {"const": "elaborate", "title": "Ask the agent to elaborate on my notes first"}]}),
    );
    json!({"type": "object", "properties": props})
}

/// What the client's form cannot offer for this form, said once in the result text.
pub fn limits(form: &Form) -> String {
    let previews = form.questions.iter().any(|q| q.kind == QuestionType::Preview);
    let mut missing = vec!["option notes"];
    if previews {
        missing.push("preview panes");
    }
    format!("(Answered in the client's own form, which has no {}.)", missing.join(" or "))
}

fn key(key: KeyPress) -> Event {
    Event::key(key)
}

fn nav(code: KeyCode) -> Event {
    Event::key(KeyPress::plain(code))
}

fn text_of(content: &Map<String, Value>, name: &str) -> Option<String> {
    content.get(name).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned)
}

/// The key events that give the flow the answers in `content`, for a flow opened with
/// double-press shortcuts and the dirty-dismiss guard off (see [`settings`]).
pub fn events(form: &Form, content: &Map<String, Value>) -> Vec<Event> {
    // The actions are pressed with the keys the flow's own settings bind them to.
    let keys = settings().keymaps;
    let mut out = Vec::new();
    for (i, q) in form.questions.iter().enumerate() {
        let n = i + 1;
        if let Some(note) = text_of(content, &format!("q{n}_note")) {
            out.extend([key(keys.question_note), Event::TextPasted { text: note }, key(keys.confirm)]);
        }
        let mut chosen: Vec<usize> = match content.get(&format!("q{n}")) {
            Some(Value::String(v)) => q.options.iter().position(|o| o.value == v).into_iter().collect(),
            Some(Value::Array(vs)) => q
                .options
                .iter()
                .enumerate()
                .filter(|(_, o)| vs.iter().any(|v| v.as_str() == Some(&o.value)))
                .map(|(j, _)| j)
                .collect(),
            _ => Vec::new(),
        };
        chosen.extend(
            (0..q.options.len()).filter(|j| content.get(&format!("q{n}_opt{}", j + 1)) == Some(&json!(true))),
        );
        chosen.sort_unstable();
        chosen.dedup();
        if !q.kind.is_multi() {
            chosen.truncate(1);
        }
        let mut cursor = 0;
        for j in chosen {
            out.extend(std::iter::repeat_n(nav(KeyCode::Down), j - cursor));
            out.push(key(keys.toggle));
            cursor = j;
        }
        if let Some(own) = text_of(content, &format!("q{n}_own")) {
            // Landing on the custom row opens its editor (D11); the cancel binding saves the
            // text and selects the row without advancing (D4, D16).
            out.extend(std::iter::repeat_n(nav(KeyCode::Down), q.declared_rows() - cursor));
            out.extend([Event::TextPasted { text: own }, key(keys.cancel)]);
        }
        out.push(nav(KeyCode::Tab));
    }
    let elaborate = content.get("zz_finish").and_then(Value::as_str) == Some("elaborate");
    out.push(key(KeyPress::from_char(if elaborate { '2' } else { '1' })));
    out
}

/// The event that leaves an elicited flow the user declined or cancelled.
pub fn declined() -> Vec<Event> {
    vec![key(settings().keymaps.dismiss)]
}

/// Settings for an elicited flow: review shortcuts act at once, dismissing needs no second key.
pub fn settings() -> ask_engine::Settings {
    let mut s = ask_engine::Settings::default();
    s.behaviour.double_press_review_shortcuts = false;
    s.behaviour.confirm_dismiss_when_dirty = false;
    s.behaviour.auto_submit_when_answered_without_notes = false;
    s
}
