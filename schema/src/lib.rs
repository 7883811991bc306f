//! Wire types of the `ask_user` tool contract, validation of raw payloads, and JSON Schema export.
//!
//! This crate holds no flow logic: it says what a valid form is and what a result looks like.
//!
//! ```
//! use ask_schema::{validate, FormSource};
//! let raw = serde_json::json!({"questions":[{"id":" db ","prompt":"Which database?",
//!     "options":[{"value":"pg","label":"Postgres"}]}]});
//! let form = validate(&raw, FormSource::Tool).unwrap();
//! assert_eq!(form.questions[0].id, "db");
//! assert_eq!(form.questions[0].label, "Q1");
//! ```

mod input;
mod json_schema;
mod option_list;
mod output;
pub mod sample;
pub mod strict_json;
mod validate;

pub use input::{Form, FormSource, OptionItem, Question, QuestionType, Text};
pub use json_schema::{details_schema, input_schema, lenient_input_schema, result_schema};
pub use option_list::{Iter as OptionIter, OptionList};
pub use output::{
    Answer, Continuation, Details, Draft, DraftKind, ElaboratedQuestion, Elaboration, ElaborationItem,
    InputError, Issue, Mode, NextAction, QuestionMeta, QuestionStateEntry, QuestionStatus, Strategy, Target,
    TextContent, ToolResult,
};
pub use validate::{direct_form, parse_json, strict_form, validate, validate_text};

/// Re-exported so hosts can build `answers` maps in question order.
pub use indexmap::IndexMap;
