//! One module per command family.

pub mod answer;
pub mod ask;
pub mod info;
pub mod log;
pub mod mcp;
pub mod reopen;
pub mod wait;
