//! One module per command family.

pub mod ask;
pub mod info;
