//! Durable state of ask-user outside the pure engine: today the config file.
//!
//! The redb event log, payload store and pi session reader join this crate next; the engine
//! never sees any of it.

mod config_file;

pub use config_file::{ConfigError, LoadedConfig, SCHEMA_VERSION, load_settings, save_behaviour};
