//! The one property every reader of the validation fast path is held to, shared by the
//! generated payloads (`direct_parse.rs`) and the mutated ones (`mutations.rs`).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // shared helpers; tests fail loudly

use ask_schema::{Form, FormSource, Issue, direct_form, parse_json, strict_form, validate, validate_text};

/// What the tree validator answers: parse, then validate.
pub fn tree(text: &str, source: FormSource) -> Result<Form, Vec<Issue>> {
    parse_json(text).and_then(|raw| validate(&raw, source))
}

/// The fast path never accepts what the tree refuses, nor differently: serde's reader, the
/// strict reader alone (on one thread, with a second started at its guess, and at the middle),
/// and `validate_text`, for both sources.
pub fn agrees(text: &str) {
    for source in [FormSource::Tool, FormSource::AnswerExtraction] {
        let expected = tree(text, source);
        if let Some(fast) = direct_form(text, source) {
            assert_eq!(Ok(&fast), expected.as_ref(), "fast path accepted differently: {text:?}");
        }
        for split_from in [usize::MAX, 0, text.len() / 2] {
            if let Some(strict) = strict_form(text, source, split_from) {
                assert_eq!(Ok(&strict), expected.as_ref(), "strict reader accepted differently: {text:?}");
            }
        }
        assert_eq!(validate_text(text, source), expected, "validate_text differs: {text:?}");
    }
}
