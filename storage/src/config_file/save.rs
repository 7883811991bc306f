//! Writing the config file: only the file layer, atomically (temp file + rename), pretty JSON
//! with a trailing newline, unknown fields and the user's keymaps kept as written (D29).

use std::fs;
use std::io::Write;
use std::path::Path;

use ask_engine::{Behaviour, Toggle};
use serde_json::{Map, Value, json};

use super::{AnswerSettings, SCHEMA_VERSION};

/// Why the config could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Writing the file or its temporary sibling failed.
    #[error("could not save settings to {path}")]
    Write {
        /// The config file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file exists but cannot be read as a JSON object: it is left untouched rather than
    /// rewritten (which would lose the user's keymaps and other fields).
    #[error("did not save settings: {path} cannot be read as a JSON object ({detail}); fix or remove it")]
    Unparseable {
        /// The config file.
        path: String,
        /// What is wrong with it.
        detail: String,
    },
}

/// Sets one toggle in the file and saves it. Only the file layer is read and written, so an
/// environment override in force never leaks into the file.
pub fn save_toggle(path: &Path, toggle: Toggle, on: bool) -> Result<(), ConfigError> {
    let shown = || path.display().to_string();
    let mut obj = match super::file_layer::read_bytes(path) {
        Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(obj)) => obj,
            Ok(_) => return Err(ConfigError::Unparseable { path: shown(), detail: "not an object".into() }),
            Err(e) => return Err(ConfigError::Unparseable { path: shown(), detail: e.to_string() }),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Map::new(),
        Err(source) => return Err(ConfigError::Write { path: shown(), source }),
    };
    let mut behaviour = Behaviour::default();
    if let Some(b) = obj.get("behaviour").and_then(Value::as_object) {
        for t in Toggle::ALL {
            if let Some(v) = b.get(t.key()).and_then(Value::as_bool) {
                behaviour.set(t, v);
            }
        }
    }
    behaviour.set(toggle, on);
    complete(&mut obj, &behaviour);
    write_json(path, &Value::Object(obj)).map_err(|source| ConfigError::Write { path: shown(), source })
}

/// `schemaVersion`, `answer` and `behaviour` in full; everything else kept.
fn complete(obj: &mut Map<String, Value>, behaviour: &Behaviour) {
    obj.insert("schemaVersion".into(), json!(SCHEMA_VERSION));
    let defaults = serde_json::to_value(AnswerSettings::default()).unwrap_or_default();
    let mut answer = obj.get("answer").and_then(Value::as_object).cloned().unwrap_or_default();
    for (k, v) in defaults.as_object().into_iter().flatten() {
        answer.entry(k.clone()).or_insert_with(|| v.clone());
    }
    obj.insert("answer".into(), Value::Object(answer));
    let b: Map<String, Value> =
        Toggle::ALL.iter().map(|t| (t.key().to_owned(), Value::Bool(behaviour.get(*t)))).collect();
    obj.insert("behaviour".into(), Value::Object(b));
}

/// Writes a fresh file with every default, keymaps included, and `store` as given: the default
/// for a new file, what an unusable file kept when one is moved aside.
pub fn write_defaults(path: &Path, store: &super::StoreSettings) -> std::io::Result<()> {
    let mut obj = Map::new();
    complete(&mut obj, &Behaviour::default());
    obj.insert("keymaps".into(), default_keymaps());
    let store = serde_json::to_value(store).map_err(std::io::Error::other)?;
    obj.insert("store".into(), store);
    write_json(path, &Value::Object(obj))
}

/// Every action bound to its default key, as a `keymaps` section.
pub fn default_keymaps() -> Value {
    let defaults = ask_engine::Keymaps::default();
    Value::Object(
        ask_engine::Action::every()
            .map(|a| (a.key().to_owned(), Value::String(defaults.get(a).to_string())))
            .collect(),
    )
}

/// Pretty JSON with a trailing newline, via a temporary file in the same directory and a rename.
pub fn write_json(path: &Path, value: &Value) -> std::io::Result<()> {
    // A config kept elsewhere and linked here (a dotfiles repository) is written where the link
    // points: renaming the new file over the link itself would replace the link with a copy.
    let target = fs::symlink_metadata(path)
        .is_ok_and(|m| m.file_type().is_symlink())
        .then(|| fs::canonicalize(path).ok())
        .flatten();
    let path = target.as_deref().unwrap_or(path);
    let mut text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    text.push('\n');
    let dir = crate::files::parent_dir(path);
    crate::files::create_private_dir(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
