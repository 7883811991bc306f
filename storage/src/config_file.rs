//! The config file: loading behaviour and keymaps, and saving toggles from the overlay.
//!
//! Loading is forgiving (SPEC §6, D29): missing sections and keys take defaults; a `keymaps`
//! section that is present must be complete and valid, or all keymaps fall back to defaults
//! for the session while behaviour still loads. Every problem becomes a notice.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use ask_engine::{Settings, Toggle, keymaps_from_ids};
use serde_json::{Map, Value, json};

/// The config version this build writes.
pub const SCHEMA_VERSION: u64 = 2;

/// Settings read from a config file, with what went wrong while reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedConfig {
    /// The settings to use.
    pub settings: Settings,
    /// Problems found, one line each (shown in the settings overlay).
    pub notices: Vec<String>,
    /// The file the settings came from (it may not exist yet).
    pub path: Option<PathBuf>,
}

/// Why the config could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Writing the file or its temporary sibling failed.
    #[error("could not save settings to {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

/// Reads settings from `path`; a missing file gives defaults without notices.
pub fn load_settings(path: Option<&Path>) -> LoadedConfig {
    let mut loaded = LoadedConfig {
        settings: Settings::default(),
        notices: Vec::new(),
        path: path.map(Path::to_path_buf),
    };
    let Some(path) = path else { return loaded };
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return loaded,
        Err(e) => {
            loaded.notices.push(format!("Could not read {}: {e}; using default settings.", path.display()));
            return loaded;
        }
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(obj)) => apply_file(&mut loaded, &obj),
        Ok(_) => {
            loaded.notices.push(format!("{} is not a JSON object; using default settings.", path.display()))
        }
        Err(e) => loaded
            .notices
            .push(format!("{} is not valid JSON ({e}); using default settings.", path.display())),
    }
    loaded
}

fn apply_file(loaded: &mut LoadedConfig, obj: &Map<String, Value>) {
    if let Some(behaviour) = obj.get("behaviour") {
        match behaviour.as_object() {
            Some(b) => {
                for toggle in Toggle::ALL {
                    match b.get(toggle.key()) {
                        None => {}
                        Some(Value::Bool(on)) => loaded.settings.behaviour.set(toggle, *on),
                        Some(_) => loaded.notices.push(format!(
                            "behaviour.{} must be true or false; using the default.",
                            toggle.key()
                        )),
                    }
                }
            }
            None => loaded.notices.push("behaviour must be an object; using defaults.".to_owned()),
        }
    }
    if let Some(keymaps) = obj.get("keymaps") {
        match keymaps_from_ids(keymaps) {
            Ok(k) => loaded.settings.keymaps = k,
            Err(errors) => {
                let why: Vec<String> = errors.iter().map(ToString::to_string).collect();
                loaded.notices.push(format!("Keymaps not used, defaults in force: {}.", why.join("; ")));
            }
        }
    }
}

/// Saves the behaviour toggles: writes `schemaVersion`, `answer` and `behaviour` in full, keeps
/// `keymaps` as the user wrote it and any unknown fields, atomically (temp file + rename).
pub fn save_behaviour(path: &Path, settings: &Settings) -> Result<(), ConfigError> {
    let err = |source| ConfigError::Write { path: path.display().to_string(), source };
    let mut obj = fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v.as_object().cloned())
        .unwrap_or_default();
    obj.insert("schemaVersion".into(), json!(SCHEMA_VERSION));
    let answer = obj.get("answer").and_then(Value::as_object).cloned().unwrap_or_default();
    obj.insert("answer".into(), Value::Object(with_answer_defaults(answer)));
    let behaviour: Map<String, Value> =
        Toggle::ALL.iter().map(|t| (t.key().to_owned(), Value::Bool(settings.behaviour.get(*t)))).collect();
    obj.insert("behaviour".into(), Value::Object(behaviour));
    let mut text = serde_json::to_string_pretty(&Value::Object(obj)).unwrap_or_default();
    text.push('\n');
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(err)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
    tmp.write_all(text.as_bytes()).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    Ok(())
}

fn with_answer_defaults(mut answer: Map<String, Value>) -> Map<String, Value> {
    answer.entry("extractionCommand").or_insert(json!([]));
    answer.entry("extractionTimeoutMs").or_insert(json!(30000));
    answer.entry("extractionRetries").or_insert(json!(1));
    answer
}

#[cfg(test)]
mod tests;
