//! Projections: everything computed from the folded state on demand.

pub mod outcomes;
pub mod result;
pub mod review;
pub mod text;
pub mod transcript;
pub mod view;
