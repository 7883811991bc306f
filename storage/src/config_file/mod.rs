//! The config file (SPEC §6): one JSON file plus `ASK_USER__SECTION__KEY` environment
//! overrides, layered with the `config` crate.
//!
//! Loading never fails: a missing file is written with defaults; a file that cannot be used
//! (not JSON, ill-typed, from a future version) is renamed to a timestamped `.bak.json` and
//! defaults are used; an older version is migrated forward keeping every value; unusable keymaps
//! fall back to defaults while behaviour still loads. Every such event becomes a notice the
//! settings overlay shows. Saving writes only the file layer, atomically.

mod file_layer;
mod overrides;
mod save;

use std::path::{Path, PathBuf};

use ask_engine::{Settings, Toggle, keymaps_from_ids};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use save::{ConfigError, save_toggle};

/// The config version this build writes.
pub const SCHEMA_VERSION: u64 = 2;

/// The `answer` section: how `/answer` runs its extractor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct AnswerSettings {
    /// The extractor command as an argv array; empty means none is configured.
    pub extraction_command: Vec<String>,
    /// Milliseconds one extraction attempt may take.
    pub extraction_timeout_ms: u64,
    /// Extra attempts after unusable output, 0–3.
    pub extraction_retries: u8,
}

impl Default for AnswerSettings {
    fn default() -> Self {
        AnswerSettings {
            extraction_command: Vec::new(),
            extraction_timeout_ms: 30_000,
            extraction_retries: 1,
        }
    }
}

/// The `store` section: how long finished flows are kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct StoreSettings {
    /// Finished flows older than this many days are pruned (at most daily, when a flow
    /// opens); 0 keeps them forever.
    pub retention_days: u64,
}

impl Default for StoreSettings {
    fn default() -> Self {
        StoreSettings { retention_days: 90 }
    }
}

/// The `mcp` section: how `ask-user mcp` shows a form and how long a call waits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct McpSettings {
    /// Ways of showing the form, first that applies: `tmux`, `elicitation`, `terminal`.
    pub presentation: Vec<String>,
    /// Seconds one tool call waits for the answer before returning "still open".
    pub wait_seconds: u64,
}

impl Default for McpSettings {
    fn default() -> Self {
        McpSettings {
            presentation: vec!["tmux".into(), "elicitation".into(), "terminal".into()],
            wait_seconds: 240,
        }
    }
}

/// The `ui` section: a form's timeout and how a waiting form gets the user's attention
/// (issue 13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct UiSettings {
    /// Seconds a form stays open before it closes with what was saved; 0 never.
    pub timeout_seconds: u64,
    /// How a waiting form nudges: `auto`, `bell`, `osc9`, `osc777`, `command` or `off`.
    pub notify: String,
    /// When: `unfocused` (the terminal does not have the focus) or `always`.
    pub notify_when: String,
    /// The argv run for `notify: "command"`; `{title}` and `{message}` are replaced.
    pub notify_command: Vec<String>,
    /// Nudge again after this many minutes without a key (fractions allowed); 0 never.
    pub remind_after_minutes: serde_json::Number,
    /// Use the plain-line frontend (numbered lines, typed answers) instead of the full screen.
    pub plain: bool,
}

impl Default for UiSettings {
    fn default() -> Self {
        UiSettings {
            timeout_seconds: 0,
            notify: "auto".into(),
            notify_when: "unfocused".into(),
            notify_command: Vec::new(),
            remind_after_minutes: 0.into(),
            plain: false,
        }
    }
}

/// The values `ui.notify` takes.
pub const NOTIFY_KINDS: [&str; 6] = ["auto", "bell", "osc9", "osc777", "command", "off"];

/// Settings read from the config file and the environment, with what went wrong on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedConfig {
    /// Behaviour and keymaps in force.
    pub settings: Settings,
    /// The `answer` section in force.
    pub answer: AnswerSettings,
    /// The `store` section in force.
    pub store: StoreSettings,
    /// The `mcp` section in force.
    pub mcp: McpSettings,
    /// The `ui` section in force.
    pub ui: UiSettings,
    /// Problems found, one line each.
    pub notices: Vec<String>,
    /// The file the settings came from.
    pub path: Option<PathBuf>,
}

impl LoadedConfig {
    /// Every section at its default, nothing noticed yet.
    fn defaults(path: Option<&Path>) -> LoadedConfig {
        LoadedConfig {
            settings: Settings::default(),
            answer: AnswerSettings::default(),
            store: StoreSettings::default(),
            mcp: McpSettings::default(),
            ui: UiSettings::default(),
            notices: Vec::new(),
            path: path.map(Path::to_path_buf),
        }
    }
}

/// Reads settings from `path` and the process environment.
pub fn load_settings(path: Option<&Path>) -> LoadedConfig {
    load_settings_with_env(path, None)
}

/// Reads settings from `path` and `env` (`None`: the process environment). Tests pass a map.
pub fn load_settings_with_env(
    path: Option<&Path>,
    env: Option<std::collections::HashMap<String, String>>,
) -> LoadedConfig {
    let mut loaded = LoadedConfig::defaults(path);
    let file = match path {
        Some(p) => file_layer::read(p, &mut loaded.notices),
        None => Value::Object(Default::default()),
    };
    let effective = overrides::apply_env(&file, env, &mut loaded.notices);
    apply(&effective, &mut loaded);
    loaded
}

/// The settings (and load notices, e.g. why keymaps were refused) a changed config file now
/// asks for, for a flow that is open: `None` when the file cannot be used as it is (nothing is
/// moved or written while a flow runs).
pub fn reload_config(path: &Path) -> Option<(Settings, Vec<String>)> {
    let file = file_layer::peek(path)?;
    let mut loaded = LoadedConfig::defaults(Some(path));
    let effective = overrides::apply_env(&file, None, &mut loaded.notices);
    apply(&effective, &mut loaded);
    Some((loaded.settings, loaded.notices))
}

/// The `key` section of a config value, when it reads as a `T`.
fn section<T: serde::de::DeserializeOwned>(config: &Value, key: &str) -> Option<T> {
    T::deserialize(config.get(key)?).ok()
}

/// Takes behaviour, answer and keymaps from a validated, layered config value.
fn apply(config: &Value, loaded: &mut LoadedConfig) {
    if let Some(b) = config.get("behaviour").and_then(Value::as_object) {
        for toggle in Toggle::ALL {
            if let Some(on) = b.get(toggle.key()).and_then(Value::as_bool) {
                loaded.settings.behaviour.set(toggle, on);
            }
        }
    }
    // The file layer has already refused ill-typed sections; a section that still does not
    // read keeps its defaults.
    if let Some(answer) = section(config, "answer") {
        loaded.answer = answer;
    }
    if let Some(store) = section(config, "store") {
        loaded.store = store;
    }
    if let Some(mcp) = section(config, "mcp") {
        loaded.mcp = mcp;
    }
    if let Some(ui) = section(config, "ui") {
        loaded.ui = ui;
    }
    if let Some(keymaps) = config.get("keymaps") {
        match keymaps_from_ids(keymaps) {
            Ok(k) => loaded.settings.keymaps = k,
            Err(errors) => {
                loaded
                    .notices
                    .push(format!("Keymaps not used, defaults in force: {}.", keymap_errors(&errors)));
            }
        }
    }
}

/// Every reason a `keymaps` section cannot be used, on one line.
fn keymap_errors(errors: &[ask_engine::KeymapError]) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests;
