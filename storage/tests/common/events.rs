//! Events the storage tests write: keys by their ids, and real opening events.

use ask_engine::{Event, KeyPress};

/// A key press by its id (`down`, `shift+n`).
pub fn key(id: &str) -> Event {
    Event::key(KeyPress::parse(id).unwrap())
}

/// The opening event of a form given as the tool's payload.
pub fn opened(payload: serde_json::Value) -> Event {
    Event::opened(ask_schema::validate(&payload, ask_schema::FormSource::Tool).unwrap())
}
