//! A key line read without serde: nearly every event of a flow is a key, and serde's tagged
//! enum buffers each line's fields before it reads them (0.7 µs of a resume's 1 µs a key).

/// The key id of a key line exactly as this build writes it, `{"type":"KeyPressed","key":"…",
/// "v":3}`, when the id needs no unescaping. Anything else (an escape, another field, bytes
/// that are not UTF-8) is left to serde.
pub(super) fn plain_key(bytes: &[u8]) -> Option<&str> {
    let id = bytes.strip_prefix(br#"{"type":"KeyPressed","key":""#)?.strip_suffix(br#"","v":3}"#)?;
    if id.iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20) {
        return None;
    }
    std::str::from_utf8(id).ok()
}

#[cfg(test)]
mod tests {
    use ask_engine::{Event, KeyPress};
    use proptest::prelude::*;
    use rstest::rstest;

    use super::super::{DecodeError, convert, decode, decode_through_dtos, encode, v3};

    /// What this build read a version-3 line as before key lines skipped serde: serde's tagged
    /// enum of version 3, whose errors the fast path must give word for word.
    fn through_serde(line: &[u8]) -> Result<Event, DecodeError> {
        let event: v3::EventV3 =
            serde_json::from_slice(line).map_err(|e| DecodeError::Malformed(e.to_string()))?;
        convert::from_wire(event.into())
    }

    /// A key line holding `key` as JSON writes it.
    fn line(key: &str) -> Vec<u8> {
        format!(r#"{{"type":"KeyPressed","key":{},"v":3}}"#, serde_json::to_string(key).unwrap()).into_bytes()
    }

    /// Key lines read without serde answer as serde's reading of version 3 did: the same key, or
    /// the same error; lines only serde can read take serde's path. The newest DTOs agree on
    /// which lines are valid and what they hold.
    #[rstest]
    #[case::as_written(encode(&Event::key(KeyPress::parse("shift+n").unwrap())).unwrap(), true)]
    #[case::a_space(line(" "), true)]
    #[case::a_letter_not_ascii(line("é"), true)]
    #[case::an_escaped_letter(br#"{"type":"KeyPressed","key":"\u0041","v":3}"#.to_vec(), true)]
    #[case::an_escaped_quote(line("\""), true)]
    #[case::a_tab_escaped(line("\t"), true)]
    #[case::a_tab_raw(b"{\"type\":\"KeyPressed\",\"key\":\"\t\",\"v\":3}".to_vec(), false)]
    #[case::another_field(br#"{"type":"KeyPressed","key":"a","later":"b","v":3}"#.to_vec(), true)]
    #[case::the_key_twice(br#"{"type":"KeyPressed","key":"a","key":"b","v":3}"#.to_vec(), false)]
    #[case::not_utf8(b"{\"type\":\"KeyPressed\",\"key\":\"\xff\",\"v\":3}".to_vec(), false)]
    #[case::an_unknown_key(line("shift+"), false)]
    #[case::an_empty_key(line(""), false)]
    #[case::an_unknown_key_name(line("ctrl+alt+nosuchkey"), false)]
    fn a_key_line_reads_as_the_tagged_enum_reads_it(#[case] line: Vec<u8>, #[case] valid: bool) {
        let own = decode(&line);
        assert_eq!(own.is_ok(), valid, "{own:?}");
        assert_eq!(own, through_serde(&line));
        assert_eq!(own.ok(), decode_through_dtos(&line).ok());
    }

    #[test]
    fn the_line_this_build_writes_for_a_key_is_read_without_serde() {
        let line = encode(&Event::key(KeyPress::parse("ctrl+k").unwrap())).unwrap();
        assert_eq!(super::plain_key(&line), Some("ctrl+k"));
        assert_eq!(super::plain_key(br#"{"type":"KeyPressed","key":"\u0041","v":3}"#), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// Any text as a key id, escapes and all: the same event or error as before.
        #[test]
        fn any_key_line_reads_as_the_tagged_enum_reads_it(key in "(shift\\+|ctrl\\+|alt\\+)?(.|[\"\\\\\u{0}-\u{1f}]|[a-z]{2,9}){0,3}") {
            let line = line(&key);
            let own = decode(&line);
            prop_assert_eq!(&own, &through_serde(&line));
            prop_assert_eq!(own.ok(), decode_through_dtos(&line).ok());
        }

        /// Every key the engine knows is written as a line the fast path reads back to itself.
        #[test]
        fn any_key_round_trips(id in "(shift\\+|ctrl\\+|alt\\+){0,2}([a-zA-Z0-9 ?/]|up|down|enter|tab|backspace|esc|f[1-9]|pageup)") {
            if let Ok(key) = KeyPress::parse(&id) {
                let event = Event::key(key);
                prop_assert_eq!(decode(&encode(&event).unwrap()).unwrap(), event);
            }
        }
    }
}
