//! Flows for the store's unit tests.
#![allow(clippy::unwrap_used)]

use ask_engine::Event;
use ask_schema::{FormSource, validate_text};

use crate::{FlowRecord, Store};

/// Creates flow `id` in session `session` of `store`, opened on a form of one question.
pub(crate) fn one_question_flow(store: &Store, id: &str, session: &str) {
    let text = r#"{"questions":[{"id":"q","prompt":"P?","options":[{"value":"a","label":"A"}]}]}"#;
    let opened = Event::opened(validate_text(text, FormSource::Tool).unwrap());
    store.create_flow(&FlowRecord::new(id, "ask", session, 1), &opened).unwrap();
}
