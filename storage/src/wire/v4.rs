//! Event encoding version 4, frozen: version 3 plus `SummaryClamped` (the review summary drawn
//! at one of its ends) and `PreviewClamped` (the preview pane's last page drawn from above its
//! scroll position). Never edit these types; add a new version instead.
//!
//! Every event version 3 can hold is still written as version 3 (see [`super::encode`]), so
//! only a line of a new kind carries `"v":4`; a version-4 line of an older kind reads as its
//! version-3 shape.

use serde::{Deserialize, Serialize};

use super::v3::EventV3;

/// An end of the review summary as version 4 writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeV4 {
    Top,
    End,
}

/// A flow event as version 4 writes it.
#[allow(clippy::large_enum_variant)] // a DTO lives for one encode or decode, never in a collection
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum EventV4 {
    SummaryClamped {
        edge: EdgeV4,
    },
    PreviewClamped {
        line: u64,
    },
    /// Any version-3 event, unchanged.
    #[serde(untagged)]
    Earlier(EventV3),
}

impl From<EventV3> for EventV4 {
    fn from(e: EventV3) -> EventV4 {
        EventV4::Earlier(e)
    }
}
