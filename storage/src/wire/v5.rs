//! Event encoding version 5, frozen: version 4 plus `EditorWrapped` (an open editor drawn at a
//! width the flow had not recorded). Never edit these types; add a new version instead.
//!
//! Every event an older version can hold is still written in that version (see
//! [`super::encode`]), so only a line of the new kind carries `"v":5`; a version-5 line of an
//! older kind reads as its version-4 shape.

use serde::{Deserialize, Serialize};

use super::v4::EventV4;

/// A flow event as version 5 writes it.
#[allow(clippy::large_enum_variant)] // a DTO lives for one encode or decode, never in a collection
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum EventV5 {
    EditorWrapped {
        width: u16,
    },
    /// Any version-4 event, unchanged.
    #[serde(untagged)]
    Earlier(EventV4),
}

impl From<EventV4> for EventV5 {
    fn from(e: EventV4) -> EventV5 {
        EventV5::Earlier(e)
    }
}

impl From<super::v3::EventV3> for EventV5 {
    fn from(e: super::v3::EventV3) -> EventV5 {
        EventV5::Earlier(e.into())
    }
}
