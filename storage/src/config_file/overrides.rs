//! Environment overrides (`ASK_USER__BEHAVIOUR__SHOW_FOOTER_HINTS=false`), layered over the file
//! with the `config` crate. They are read on every load and never written to the file.

use std::collections::HashMap;

use config::{Config, Environment, File, FileFormat};
use serde_json::Value;

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
/// (wrong type, unknown key) is reported and left out; the file layer is never changed.
pub fn apply_env(file: &Value, env: Option<HashMap<String, String>>, notices: &mut Vec<String>) -> Value {
    let Ok(env_only) = Config::builder().add_source(environment(env)).build() else { return file.clone() };
    let Ok(vars) = env_only.try_deserialize::<HashMap<String, HashMap<String, Value>>>() else {
        notices.push("Environment overrides (ASK_USER__SECTION__KEY) could not be read; ignored.".into());
        return file.clone();
    };
    // One overridden key binds over the file's keymaps, or over the defaults when it has none.
    let mut base = file.clone();
    if vars.contains_key("keymaps")
        && let Some(obj) = base.as_object_mut()
        && !obj.contains_key("keymaps")
    {
        let defaults = ask_engine::Keymaps::default();
        let map = ask_engine::Action::every()
            .map(|a| (a.key().to_owned(), Value::String(defaults.get(a).to_string())));
        obj.insert("keymaps".into(), Value::Object(map.collect()));
    }
    let mut builder = Config::builder().add_source(File::from_str(&base.to_string(), FileFormat::Json));
    let mut applied = Vec::new();
    for (section, keys) in vars {
        for (key, value) in keys {
            let path = format!("{section}.{}", camel(&key));
            let fits = matches!(
                (section.as_str(), &value),
                ("behaviour", Value::Bool(_))
                    | ("keymaps", Value::String(_))
                    | ("ui", Value::Number(_) | Value::String(_) | Value::Array(_))
                    | ("answer", Value::Number(_) | Value::Array(_))
            );
            if !fits {
                notices.push(format!("Environment override {path} = {value} ignored: not a valid setting."));
                continue;
            }
            if let Ok(b) = builder.clone().set_override(path.as_str(), json_to_config(&value)) {
                builder = b;
                applied.push(path);
            }
        }
    }
    if applied.is_empty() {
        return file.clone();
    }
    match builder.build().and_then(|c| c.try_deserialize::<Value>()) {
        Ok(v) => v,
        Err(e) => {
            notices.push(format!("Environment overrides ignored: {e}"));
            file.clone()
        }
    }
}

fn json_to_config(v: &Value) -> config::Value {
    match v {
        Value::Bool(b) => config::Value::from(*b),
        Value::Number(n) => {
            n.as_i64().map_or_else(|| config::Value::from(n.to_string()), config::Value::from)
        }
        Value::String(s) => config::Value::from(s.as_str()),
        Value::Array(items) => config::Value::from(items.iter().map(json_to_config).collect::<Vec<_>>()),
        _ => config::Value::from(v.to_string()),
    }
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
