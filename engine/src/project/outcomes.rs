//! Results that need no flow: invalid payloads and the non-interactive fallback.

use ask_schema::{Details, Form, IndexMap, InputError, Issue, Mode, QuestionMeta, ToolResult};

use super::result::question_metas;
use super::text::{fallback_text, invalid_text};

/// The result for a payload that failed validation (SPEC §3).
pub fn invalid_result(issues: Vec<Issue>) -> ToolResult {
    let text = invalid_text(&issues);
    let error = InputError { kind: "invalid_input".to_owned(), issues };
    ToolResult::new(text, unasked(None, Some(error), Vec::new()))
}

/// The "Needs user input" result: cancelled, normalized questions, no answers.
pub fn fallback_result(form: &Form) -> ToolResult {
    let details = unasked(form.title.clone(), None, question_metas(&form.questions));
    ToolResult::new(fallback_text(form), details)
}

/// The result for a call whose flow id was already used for a different form: nothing is
/// asked and no recorded answer is handed out for the wrong question.
pub fn id_conflict_result(id: &str) -> ToolResult {
    let message = format!(
        "flow id \"{id}\" was already used for a different form; its answers belong to that form. Ask again with a new id."
    );
    let issues = vec![Issue { path: "id".to_owned(), message: message.clone() }];
    let error = InputError { kind: "id_conflict".to_owned(), issues };
    ToolResult::new(format!("ask_user was not shown: {message}"), unasked(None, Some(error), Vec::new()))
}

/// The details of a call that asked nothing: cancelled, in submit mode, with no answers.
fn unasked(title: Option<String>, error: Option<InputError>, questions: Vec<QuestionMeta>) -> Details {
    Details {
        title,
        cancelled: true,
        error,
        mode: Mode::Submit,
        questions,
        answers: IndexMap::new(),
        continuation: None,
        elaboration: None,
        timed_out: false,
        still_open: false,
        flow_id: None,
        draft: None,
    }
}
