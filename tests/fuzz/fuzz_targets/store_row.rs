//! Any bytes as a store row (a line, or a packed one): decoded or refused, never a panic, and
//! an event read back is the one written again.
#![no_main]

use ask_storage::wire::{decode, decode_row, encode};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(event) = decode_row(data) {
        assert_eq!(decode(&encode(&event).unwrap()).unwrap(), event);
    }
});
