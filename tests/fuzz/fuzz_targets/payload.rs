//! Any text as a payload: every reader of the validation fast path gives the tree validator's
//! answer (the property of `schema/tests/direct_parse.rs` and `mutations.rs`).
#![no_main]

#[path = "../../../schema/tests/common/mod.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::agrees(text);
    }
});
