//! The `ask_user` flow as a pure, event-sourced engine: no IO, no clock, no terminal.
//!
//! A host (the `ask-user` binary, a test, another Rust program) turns user input into
//! [`Event`]s, records them wherever it likes, and folds them with [`FlowState::apply`].
//! Everything else — the tool result, the result text, the review summary, the dirty check,
//! a view model for drawing — is a projection of the folded state. Folding the same events
//! always gives the same state, so a recorded log replays exactly.
//!
//! # Embedding
//!
//! ```
//! use ask_engine::{Event, FlowState, KeyPress};
//! use ask_schema::{validate, FormSource};
//!
//! // 1. Validate the agent's payload.
//! let raw = serde_json::json!({
//!     "questions": [{
//!         "id": "db", "prompt": "Which database?",
//!         "options": [{"value": "pg", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]
//!     }]
//! });
//! let form = validate(&raw, FormSource::Tool).expect("valid payload");
//!
//! // 2. Open a flow and feed it keys, as a frontend would.
//! let mut flow = FlowState::default();
//! flow.apply(&Event::opened(form));
//! for id in ["down", "enter", "1", "1"] {           // pick SQLite, then Submit (double press)
//!     let effects = flow.apply(&Event::key(KeyPress::parse(id).unwrap()));
//!     if effects.completed.is_some() { break; }
//! }
//!
//! // 3. Read the result.
//! let result = flow.result().expect("the flow completed");
//! assert_eq!(result.details.answers["db"].values, ["sqlite"]);
//! assert_eq!(result.text(), "Q1: SQLite");
//! ```
//!
//! # Design
//!
//! * [`Event`]s are facts in the past tense. Their stored wire form is frozen and versioned by
//!   the storage crate (`ask_storage::wire`), not by these types.
//! * [`FlowState::apply`] is total: it never panics and ignores events that mean nothing in the
//!   current state, so any log, old or odd, folds.
//! * Key meaning is decided in the fold from state alone: the settings in force are themselves
//!   events ([`Event::SettingsChanged`]).
//! * Effects that need IO (saving the settings file) are returned as [`Effects`]; their outcome
//!   comes back as another event, so replay never redoes IO.

#![warn(missing_docs)]

pub mod cells;
pub mod editor;
mod event;
mod fold;
mod key;
pub mod project;
mod script;
mod settings;
mod state;

pub use editor::TextBuffer;
pub use event::{Event, Origin, Size, SummaryEdge};
pub use fold::{Effects, PAGE};
pub use key::{KeyCode, KeyParseError, KeyPress, Modifiers};
pub use project::outcomes::{fallback_result, id_conflict_result, invalid_result};
pub use project::review::ReviewEntry;
pub use project::view::ViewModel;
pub use script::{ScriptError, Step, parse_script, script_steps};
pub use settings::{
    Action, Behaviour, KeymapError, Keymaps, SettingChangeError, Settings, Toggle, is_reserved,
    keymaps_from_ids,
};
pub use state::{
    Change, Editor, EditorTarget, ExitAction, Filter, FlowState, Outcome, Overlay, QuestionState,
    ReviewAction, SummaryScroll, UndoStep,
};
