//! Durable state of ask-user outside the pure engine: the redb event log shared by any number
//! of processes, the payload store, portable log files, pi session files, the config file, and
//! [`DurableFlow`], the one loop every frontend drives a flow through. The engine never sees
//! any of it.

mod config_file;
mod durable_flow;
pub mod faults;
pub mod files;
mod follow;
pub mod log_file;
pub mod pi_session;
mod store;
pub mod wire;

pub use config_file::{
    AnswerSettings, ConfigError, LoadedConfig, McpSettings, SCHEMA_VERSION, StoreSettings, UiSettings,
    load_settings, load_settings_with_env, reload_config, save_toggle,
};
pub use durable_flow::{DurableFlow, FileOffers, FlowHost, MakePayload, StoreOpening};
pub use follow::FlowFollower;
pub use store::{
    Claim, FLOW_RECORD_VERSION, FlowRecord, Lease, Owed, PACKED_STORE_VERSION, PayloadEntry, PruneReport,
    PruneRule, STORE_VERSION, Store, StoreError, form_hash, panic_is_contained, panic_is_contained_at,
    raw_params,
};

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A fresh flow id, `<prefix><ms>-<pid>-<n>`: unique across processes (pid) and within one
/// (a counter), and sorting roughly by time.
pub fn new_flow_id(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("{prefix}{}-{}-{}", now_ms(), std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The message a panic was raised with (`panic!`'s text), or a stand-in when it carried none.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("unknown failure")
}

/// An error and its causes on one line, each cause once: a layer often repeats the cause it
/// wraps ("Permission denied: Permission denied"). Shown in the overlay and on stderr.
pub fn error_line(e: &(dyn std::error::Error + 'static)) -> String {
    let mut line = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        source = cause.source();
    }
    line
}
