//! Environment overrides (`ASK_USER__BEHAVIOUR__SHOW_FOOTER_HINTS=false`), read with the
//! `config` crate's environment source and laid over the file. They are read on every load and
//! never written to the file. Every setting can be overridden (an MCP client's server entry sets
//! `ASK_USER__MCP__WAIT_SECONDS` in its `env`); each override is held to the checks the file is
//! held to, one at a time, so one that does not fit is named and left out while the file's other
//! values and the overrides that fit stay in force.

use std::collections::{BTreeMap, HashMap};

use ask_engine::{Action, Toggle, keymaps_from_ids};
use config::{Config, Environment};
use serde_json::{Map, Value};

use super::file_layer::check_value;

/// `show_footer_hints` → `showFooterHints`.
fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn environment(env: Option<HashMap<String, String>>) -> Environment {
    Environment::with_prefix("ASK_USER").prefix_separator("__").separator("__").try_parsing(true).source(env)
}

/// The file layer with the environment's overrides on top. An override that does not fit
/// (wrong type, unknown key, a value the file could not hold either) is reported and left out;
/// the file layer is never changed.
pub fn apply_env(file: &Value, env: Option<HashMap<String, String>>, notices: &mut Vec<String>) -> Value {
    let Ok(env_only) = Config::builder().add_source(environment(env)).build() else { return file.clone() };
    // Sorted maps, so the notices (and which of two clashing overrides wins) do not depend on
    // the order the environment lists them in.
    let Ok(vars) = env_only.try_deserialize::<BTreeMap<String, BTreeMap<String, Value>>>() else {
        notices.push("Environment overrides (ASK_USER__SECTION__KEY) could not be read; ignored.".into());
        return file.clone();
    };
    let mut merged = file.clone();
    for (section, keys) in vars {
        for (key, value) in keys {
            let key = camel(&key);
            let shown = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
            match with_override(&merged, &section, &key, value) {
                Ok(next) => merged = next,
                Err(why) => {
                    notices.push(format!("Environment override {section}.{key} = {shown} ignored: {why}."))
                }
            }
        }
    }
    merged
}

/// `config` with `section.key` set to the environment's `value`, or why it does not fit.
fn with_override(config: &Value, section: &str, key: &str, value: Value) -> Result<Value, String> {
    let known = match section {
        "behaviour" => Toggle::ALL.iter().any(|t| t.key() == key),
        "keymaps" => Action::from_key(key).is_some(),
        "answer" | "store" | "mcp" | "ui" => true, // their sections refuse unknown fields
        _ => false,
    };
    if !known {
        return Err("not a setting".into());
    }
    let value = match (section, value) {
        // A key id is text even when it reads as a number (`1` on the review tab).
        ("keymaps", Value::Number(n)) => Value::String(n.to_string()),
        // A list (a command's argv, the MCP presentation order) is given as a JSON array.
        (_, Value::String(s)) if s.trim_start().starts_with('[') => {
            serde_json::from_str(&s).map_err(|e| format!("not a JSON array ({e})"))?
        }
        (_, value) => value,
    };
    let mut next = config.clone();
    let Some(obj) = next.as_object_mut() else { return Err("the config is not an object".into()) };
    if section == "keymaps" && !obj.contains_key("keymaps") {
        // One overridden key binds over the defaults when the file has no keymaps of its own.
        obj.insert("keymaps".into(), super::save::default_keymaps());
    }
    let slot = obj.entry(section).or_insert_with(|| Value::Object(Map::new()));
    let Some(fields) = slot.as_object_mut() else {
        return Err(format!("the file's {section} is not an object"));
    };
    fields.insert(key.to_owned(), value);
    if section == "keymaps" {
        // Keymaps are used as a whole or not at all: a key the keymaps cannot take (reserved,
        // bound twice) must not throw out the file's own bindings with it — but is not blamed
        // for bindings the file already got wrong.
        let were_usable = config.get("keymaps").is_none_or(|k| keymaps_from_ids(k).is_ok());
        return match keymaps_from_ids(&next["keymaps"]) {
            Err(errors) if were_usable => Err(super::keymap_errors(&errors)),
            _ => Ok(next),
        };
    }
    check_value(&next)?;
    Ok(next)
}

#[cfg(test)]
mod tests {
    #[test]
    fn snake_keys_become_camel_case() {
        assert_eq!(super::camel("show_footer_hints"), "showFooterHints");
        assert_eq!(super::camel("confirm"), "confirm");
        assert_eq!(super::camel("option_note"), "optionNote");
    }
}
