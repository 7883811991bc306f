// Each test binary uses a part of these helpers.
#![allow(dead_code, clippy::unwrap_used)]

pub mod events;
pub mod sync_hook;
