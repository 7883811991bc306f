//! The file layer: reading, validating, migrating and backing up the config file.

use std::fs;
use std::path::{Path, PathBuf};

use ask_engine::Toggle;
use serde_json::{Map, Value};

use super::{AnswerSettings, SCHEMA_VERSION, StoreSettings};

/// Larger than any config file a person writes: a path this big is something else.
const MAX_BYTES: u64 = 1 << 20;

/// The config file's bytes, refusing what no config file is: a device (reading `/dev/zero`
/// would never end), a pipe (it would wait for a writer forever), a directory, or a file larger
/// than [`MAX_BYTES`].
pub(super) fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        let kind = crate::files::kind_of(&meta.file_type());
        return Err(Error::new(ErrorKind::InvalidInput, format!("it is {kind}, not a file")));
    }
    let too_big =
        || Error::new(ErrorKind::InvalidInput, format!("it is larger than {} MiB", MAX_BYTES >> 20));
    if meta.len() > MAX_BYTES {
        return Err(too_big());
    }
    // Read no further than the limit even if the file grew since its size was looked at.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    fs::File::open(path)?.take(MAX_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Whether `path` is a character device: `--config /dev/null` is the usual way to ask for no
/// settings at all, so it gives the defaults without a word (and is never written or moved).
fn is_char_device(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Whether `path` is named as a JSON file (`config.json`, `ask.JSON`).
fn is_json_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// The file layer as JSON (an object). Problems are reported in `notices`.
pub fn read(path: &Path, notices: &mut Vec<String>) -> Value {
    if is_char_device(path) {
        return Value::Object(Map::new());
    }
    let text = match read_bytes(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Err(e) = super::save::write_defaults(path, &StoreSettings::default()) {
                notices.push(format!("Could not create {}: {e}", path.display()));
            }
            return Value::Object(Map::new());
        }
        Err(e) => {
            notices.push(format!(
                "Could not read {}: {e}; using default settings, and keeping finished flows this time.",
                path.display()
            ));
            return store_layer(&UNKNOWN_RETENTION);
        }
    };
    let value = match parse(&text) {
        Ok(value) => value,
        // Not JSON and not named as JSON: another file given as `--config` by mistake (a shell
        // profile, a notes file), which is not moved aside and replaced by defaults.
        Err(why) if !is_json_file(path) => {
            notices.push(format!(
                "{} could not be used because {why}; it is no .json file, so it was left as it is and defaults are in use, keeping finished flows this time.",
                path.display()
            ));
            return store_layer(&UNKNOWN_RETENTION);
        }
        Err(why) => return back_up(path, &why, None, notices),
    };
    match check_value(&value) {
        Ok(version) if version < SCHEMA_VERSION => migrate(path, value, version, notices),
        Ok(_) => value,
        Err(why) => back_up(path, &why, kept_retention(&value), notices),
    }
}

/// What a file whose retention cannot be read stands for: keep every flow. Pruning deletes,
/// and a default put in place of the user's file must not decide that (they may have set 0).
const UNKNOWN_RETENTION: StoreSettings = StoreSettings { retention_days: 0 };

/// The retention an unusable file still states: its `store` section when that reads (the
/// default when it is an object without one), else `None` (unknown). A typo elsewhere must not
/// shorten how long the user's finished flows are kept.
fn kept_retention(value: &Value) -> Option<StoreSettings> {
    match value.as_object()?.get("store") {
        None => Some(StoreSettings::default()),
        Some(store) => serde_json::from_value(store.clone()).ok(),
    }
}

/// A file layer holding only `store`, for a run whose file could not be used.
fn store_layer(store: &StoreSettings) -> Value {
    serde_json::json!({ "store": store })
}

/// The file's JSON if it can be used as it is, without writing anything (live reloads).
pub fn peek(path: &Path) -> Option<Value> {
    let bytes = read_bytes(path).ok()?;
    check(&bytes).ok().map(|(value, _)| value)
}

/// The file's JSON and its version, or why it cannot be used.
fn check(bytes: &[u8]) -> Result<(Value, u64), String> {
    let value = parse(bytes)?;
    let version = check_value(&value)?;
    Ok((value, version))
}

/// The file's JSON, or why it is none.
fn parse(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|e| format!("it is not valid JSON ({e})"))
}

/// The version of a config value whose sections all read and hold allowed values, or why not
/// (environment overrides are held to the same checks as the file).
pub fn check_value(value: &Value) -> Result<u64, String> {
    let Some(obj) = value.as_object() else { return Err("it is not a JSON object".into()) };
    let version = match obj.get("schemaVersion") {
        None => SCHEMA_VERSION, // a hand-written partial file: read as current (D29)
        Some(v) => v.as_u64().filter(|v| *v >= 1).ok_or("schemaVersion is not a positive integer")?,
    };
    if version > SCHEMA_VERSION {
        return Err(format!("it was written by a newer ask-user (schemaVersion {version})"));
    }
    if let Some(b) = obj.get("behaviour") {
        let b = b.as_object().ok_or("behaviour is not an object")?;
        for toggle in Toggle::ALL {
            if b.get(toggle.key()).is_some_and(|v| !v.is_boolean()) {
                return Err(format!("behaviour.{} is not true or false", toggle.key()));
            }
        }
    }
    if let Some(a) = obj.get("answer") {
        let answer: AnswerSettings = serde_json::from_value(a.clone())
            .map_err(|e| format!("the answer section is ill-typed ({e})"))?;
        if answer.extraction_retries > 3 {
            return Err("answer.extractionRetries must be 0 to 3".into());
        }
    }
    if let Some(st) = obj.get("store") {
        serde_json::from_value::<super::StoreSettings>(st.clone())
            .map_err(|e| format!("the store section is ill-typed ({e})"))?;
    }
    if let Some(m) = obj.get("mcp") {
        let mcp = serde_json::from_value::<super::McpSettings>(m.clone())
            .map_err(|e| format!("the mcp section is ill-typed ({e})"))?;
        if let Some(bad) =
            mcp.presentation.iter().find(|r| !["tmux", "elicitation", "terminal"].contains(&r.as_str()))
        {
            return Err(format!("mcp.presentation names {bad:?}; use tmux, elicitation or terminal"));
        }
    }
    if let Some(u) = obj.get("ui") {
        let ui = serde_json::from_value::<super::UiSettings>(u.clone())
            .map_err(|e| format!("the ui section is ill-typed ({e})"))?;
        if !super::NOTIFY_KINDS.contains(&ui.notify.as_str()) {
            return Err(format!("ui.notify is {:?}; use {}", ui.notify, super::NOTIFY_KINDS.join(", ")));
        }
        if ui.remind_after_minutes.as_f64().is_none_or(|m| m < 0.0) {
            return Err("ui.remindAfterMinutes must be a number of minutes, 0 or more".into());
        }
        if !["unfocused", "always"].contains(&ui.notify_when.as_str()) {
            return Err(format!("ui.notifyWhen is {:?}; use unfocused or always", ui.notify_when));
        }
    }
    Ok(version)
}

/// Version 1 has the same sections as version 2: migrating raises the version and keeps every
/// value. Later migrations go here, oldest first.
fn migrate(path: &Path, mut value: Value, from: u64, notices: &mut Vec<String>) -> Value {
    if let Some(obj) = value.as_object_mut() {
        obj.insert("schemaVersion".into(), Value::from(SCHEMA_VERSION));
    }
    if let Err(e) = super::save::write_json(path, &value) {
        notices.push(format!("Could not save the migrated {}: {e}", path.display()));
    } else {
        notices.push(format!("Migrated {} from schemaVersion {from} to {SCHEMA_VERSION}.", path.display()));
    }
    value
}

/// Moves an unusable file aside and writes defaults in its place, but for the retention it
/// stated (`store`; `None`: it stated none that reads, so every finished flow is kept).
fn back_up(path: &Path, why: &str, store: Option<StoreSettings>, notices: &mut Vec<String>) -> Value {
    let backup = backup_path(path);
    let kept = match &store {
        Some(s) if *s == StoreSettings::default() => String::new(),
        Some(s) => format!(", keeping its store.retentionDays {}", s.retention_days),
        None => ", keeping every finished flow until store.retentionDays is set again".to_owned(),
    };
    let store = store.unwrap_or(UNKNOWN_RETENTION);
    match fs::rename(path, &backup) {
        Ok(()) => {
            notices.push(format!(
                "{} could not be used because {why}; it was moved to {} and defaults are in use{kept}.",
                path.display(),
                backup.display()
            ));
            let _ = super::save::write_defaults(path, &store);
        }
        Err(e) => notices.push(format!(
            "{} could not be used because {why}, and moving it aside failed ({e}); defaults are in use{kept}.",
            path.display()
        )),
    }
    store_layer(&store)
}

/// `config.json` → `config.20261202-101500.bak.json` (a counter is added if that exists).
pub fn backup_path(path: &Path) -> PathBuf {
    let stamp = crate::files::stamp();
    let stem = path.file_stem().map_or_else(|| "config".into(), |s| s.to_string_lossy().into_owned());
    crate::files::unused_path(|n| match n {
        None => path.with_file_name(format!("{stem}.{stamp}.bak.json")),
        Some(n) => path.with_file_name(format!("{stem}.{stamp}-{n}.bak.json")),
    })
}
