//! Durable state of ask-user outside the pure engine: the redb event log and payload store,
//! portable log files, pi session files, and the config file. The engine never sees any of it.

mod config_file;
pub mod log_file;
pub mod log_format;
pub mod pi_session;
mod store;

pub use config_file::{
    AnswerSettings, ConfigError, LoadedConfig, SCHEMA_VERSION, load_settings, load_settings_with_env,
    reload_settings, save_toggle,
};
pub use store::{FlowRecord, PayloadEntry, Store, StoreError};
