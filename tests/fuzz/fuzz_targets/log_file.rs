//! Any text as a log file (`ask-user log replay`): imported or refused, never a panic, and what
//! is imported is exported and imported again unchanged.
#![no_main]

use ask_storage::log_file::{export, import};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok((header, events)) = import(&text) {
        let again = export(&header.flow_id, &header.command, &events).unwrap();
        assert_eq!(import(&again).unwrap().1, events);
    }
});
