//! Event encoding version 6, frozen: version 5 plus the rule an editor's rows broke by, on
//! `EditorWrapped` (at spaces, as other text wraps). Never edit these types; add a new version
//! instead.
//!
//! An `EditorWrapped` whose rows broke at every word boundary is still written as version 5,
//! which names no rule (see [`super::encode`]), so only an editor drawn by the newer rule
//! carries `"v":6`; a version-6 line of an older kind reads as its version-5 shape, except an
//! `EditorWrapped` naming no rule this version knows, which is refused ([`super::decode`]).

use serde::{Deserialize, Serialize};

use super::v5::EventV5;

/// A flow event as version 6 writes it.
#[allow(clippy::large_enum_variant)] // a DTO lives for one encode or decode, never in a collection
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum EventV6 {
    EditorWrapped {
        width: u16,
        breaks: BreaksV6,
    },
    /// Any version-5 event, unchanged.
    #[serde(untagged)]
    Earlier(EventV5),
}

/// Where an editor's rows broke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BreaksV6 {
    /// At every word boundary (what version 5's `EditorWrapped` means).
    Words,
    /// At spaces and between words of wide characters.
    Spaces,
}

impl From<EventV5> for EventV6 {
    fn from(e: EventV5) -> EventV6 {
        EventV6::Earlier(e)
    }
}

impl From<super::v4::EventV4> for EventV6 {
    fn from(e: super::v4::EventV4) -> EventV6 {
        EventV6::Earlier(e.into())
    }
}

impl From<super::v3::EventV3> for EventV6 {
    fn from(e: super::v3::EventV3) -> EventV6 {
        EventV6::Earlier(e.into())
    }
}
