//! The versioned wire form of events, shared by the redb log and portable log files.
//!
//! Each event is stored as a JSON object: the frozen DTO of its version (`v1`, `v2`, …) plus a
//! `"v"` field naming that version (absent = 1). The DTOs are separate from the engine's and
//! the schema's types on purpose: changing those can never change what a stored event means.
//! A reader upgrades every older version step by step to the current one and refuses a newer
//! version by name.
//!
//! ```
//! use ask_engine::{Event, KeyPress};
//! use ask_storage::wire::{decode, encode};
//!
//! let key = Event::key(KeyPress::parse("shift+n").unwrap());
//! let bytes = encode(&key).unwrap();
//! assert_eq!(bytes, br#"{"type":"KeyPressed","key":"shift+n","v":3}"#);
//! assert_eq!(decode(&bytes).unwrap(), key);
//! // A version-1 line (no "v") still reads.
//! assert_eq!(decode(br#"{"type":"KeyPressed","key":"shift+n"}"#).unwrap(), key);
//! ```

mod convert;
mod key_line;
mod opening;
pub(crate) mod packed;
pub mod v1;
pub mod v2;
pub mod v3;
pub mod v4;
pub mod v5;
pub mod v6;

/// A form as the opening event writes it: what a hash that must stay the same across builds
/// is taken over.
pub(crate) use opening::form_json;

use ask_engine::Event;
use serde::{Deserialize, Serialize};

/// The newest event encoding version this build reads and writes.
pub const EVENT_VERSION: u32 = 6;

/// The version every event that version 3 can hold is still written in. Each event is written
/// in the oldest version that holds it, so an older ask-user reads every flow in which no
/// newer kind of event happened: a build that reads version 3 reads a flow in which no scroll
/// position was clamped and no editor was drawn, one that reads version 4 a flow in which no
/// editor was drawn.
pub(crate) const BASE_VERSION: u32 = 3;

/// The version the scroll clamps (`SummaryClamped`, `PreviewClamped`) are written in.
const CLAMP_VERSION: u32 = 4;

/// The version an editor drawn with rows broken at every word boundary is written in.
const WORDS_EDITOR_VERSION: u32 = 5;

/// The header line of an exported log file names this format.
pub const LOG_FORMAT: &str = "ask-user-log";

/// Why a stored event could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Not JSON, or not an event of a known shape.
    #[error("malformed event: {0}")]
    Malformed(String),
    /// Written by a newer ask-user.
    #[error(
        "event version {0} is newer than this ask-user understands (up to {EVENT_VERSION}); upgrade ask-user"
    )]
    Newer(u64),
}

/// Why an event could not be encoded (it never is in practice; an encode failure must fail the
/// append rather than commit an empty event).
#[derive(Debug, thiserror::Error)]
#[error("cannot encode the event")]
pub struct EncodeError(#[source] pub serde_json::Error);

#[derive(Serialize)]
struct Tagged<'a, T> {
    #[serde(flatten)]
    event: &'a T,
    v: u32,
}

#[derive(Deserialize)]
struct Version {
    #[serde(default)]
    v: Option<u64>,
}

/// Encodes one event in the current version.
pub fn encode(event: &Event) -> Result<Vec<u8>, EncodeError> {
    if let Event::FlowOpened { form, settings, origin, size, notices } = event {
        let opened = opening::Opened { form, settings, origin, size: *size, notices };
        return serde_json::to_vec(&opened).map_err(EncodeError);
    }
    encode_through_dtos(event)
}

/// Any event through its frozen DTO (the opening event's bytes are held equal to this).
fn encode_through_dtos(event: &Event) -> Result<Vec<u8>, EncodeError> {
    let bytes = match convert::to_wire(event) {
        v6::EventV6::Earlier(v5::EventV5::Earlier(v4::EventV4::Earlier(event))) => {
            serde_json::to_vec(&Tagged { event: &event, v: BASE_VERSION })
        }
        v6::EventV6::Earlier(v5::EventV5::Earlier(clamp)) => {
            serde_json::to_vec(&Tagged { event: &clamp, v: CLAMP_VERSION })
        }
        v6::EventV6::Earlier(editor) => {
            serde_json::to_vec(&Tagged { event: &editor, v: WORDS_EDITOR_VERSION })
        }
        newer => serde_json::to_vec(&Tagged { event: &newer, v: EVENT_VERSION }),
    };
    bytes.map_err(EncodeError)
}

/// A current-version line through the frozen DTO's tagged enum (the opening event's reader is
/// held equal to this).
#[cfg(test)]
fn decode_through_dtos(bytes: &[u8]) -> Result<Event, DecodeError> {
    convert::from_wire(serde_json::from_slice(bytes).map_err(|e| DecodeError::Malformed(e.to_string()))?)
}

/// An event as a store row: its line, packed when large ([`packed`]).
pub(crate) fn encode_row(event: &Event) -> Result<Vec<u8>, EncodeError> {
    encode(event).map(packed::pack)
}

/// A store row as an event: a line of [`decode`], or a packed one (LZ4) holding such a line.
pub fn decode_row(row: &[u8]) -> Result<Event, DecodeError> {
    decode(&packed::unpack(row).map_err(DecodeError::Malformed)?)
}

/// Decodes one event of any version up to [`EVENT_VERSION`].
pub fn decode(bytes: &[u8]) -> Result<Event, DecodeError> {
    let malformed = |e: serde_json::Error| DecodeError::Malformed(e.to_string());
    // Fast path: this build always writes the version last, so its own lines parse once.
    if bytes.ends_with(br#","v":3}"#) {
        if bytes.starts_with(opening::PREFIX) {
            return opening::decode(bytes);
        }
        if let Some(id) = key_line::plain_key(bytes) {
            return Ok(Event::KeyPressed { key: convert::key_from_wire(id)? });
        }
        let event: v3::EventV3 = serde_json::from_slice(bytes).map_err(malformed)?;
        return convert::from_wire(event.into());
    }
    let Version { v } = serde_json::from_slice(bytes).map_err(malformed)?;
    let wire: v6::EventV6 = match v.unwrap_or(1) {
        1 => v3::EventV3::from(v2::EventV2::from(
            serde_json::from_slice::<v1::EventV1>(bytes).map_err(malformed)?,
        ))
        .into(),
        2 => v3::EventV3::from(serde_json::from_slice::<v2::EventV2>(bytes).map_err(malformed)?).into(),
        3 => serde_json::from_slice::<v3::EventV3>(bytes).map_err(malformed)?.into(),
        4 => serde_json::from_slice::<v4::EventV4>(bytes).map_err(malformed)?.into(),
        5 => serde_json::from_slice::<v5::EventV5>(bytes).map_err(malformed)?.into(),
        6 => match serde_json::from_slice(bytes).map_err(malformed)? {
            // Version 6 exists to name the rule; a line without one (or with one it does not
            // know) would otherwise read through version 5 as the older rule.
            v6::EventV6::Earlier(v5::EventV5::EditorWrapped { .. }) => {
                return Err(DecodeError::Malformed(
                    "a version-6 EditorWrapped names no known rule".to_owned(),
                ));
            }
            wire => wire,
        },
        0 => return Err(DecodeError::Malformed("event version 0".to_owned())),
        newer => return Err(DecodeError::Newer(newer)),
    };
    convert::from_wire(wire)
}
