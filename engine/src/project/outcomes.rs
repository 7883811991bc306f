//! Results that need no flow: invalid payloads and the non-interactive fallback.

use ask_schema::{Details, Form, IndexMap, InputError, Issue, Mode, ToolResult};

use super::result::question_metas;
use super::text::{fallback_text, invalid_text};

/// The result for a payload that failed validation (SPEC §3).
pub fn invalid_result(issues: Vec<Issue>) -> ToolResult {
    let text = invalid_text(&issues);
    let details = Details {
        title: None,
        cancelled: true,
        error: Some(InputError { kind: "invalid_input".to_owned(), issues }),
        mode: Mode::Submit,
        questions: Vec::new(),
        answers: IndexMap::new(),
        continuation: None,
        elaboration: None,
    };
    ToolResult::new(text, details)
}

/// The "Needs user input" result: cancelled, normalized questions, no answers.
pub fn fallback_result(form: &Form) -> ToolResult {
    let details = Details {
        title: form.title.clone(),
        cancelled: true,
        error: None,
        mode: Mode::Submit,
        questions: question_metas(&form.questions),
        answers: IndexMap::new(),
        continuation: None,
        elaboration: None,
    };
    ToolResult::new(fallback_text(form), details)
}
