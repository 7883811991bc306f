//! The headless script format (SPEC §7): one step per line, turned into the events live keys make.

use crate::event::{Event, Size};
use crate::key::KeyPress;
use crate::settings::{SettingChangeError, Settings};

/// One script line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A key id: `down`, `shift+n`, `ctrl+c`, `?`.
    Key(KeyPress),
    /// `type "text"`: one key press per character (`\n` is Enter).
    Type(String),
    /// `paste "text"`: one bracketed-paste event.
    Paste(String),
    /// `resize W H`.
    Resize(Size),
    /// `set section.key value`: a live settings change.
    Set {
        /// `behaviour.<toggle>` or `keymaps.<action>`.
        path: String,
        /// `true`/`false`, or a key id.
        value: String,
    },
}

/// A script line that cannot be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("script line {line}: {message}")]
pub struct ScriptError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses a whole script; blank lines and `#` comments are skipped.
pub fn parse_script(text: &str) -> Result<Vec<Step>, ScriptError> {
    script_steps(text).collect()
}

/// Parses a script lazily, one step at a time, so that lines after the flow completed are
/// never looked at (SPEC §7: they are ignored).
pub fn script_steps(text: &str) -> impl Iterator<Item = Result<Step, ScriptError>> + '_ {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        Some(parse_line(line).map_err(|message| ScriptError { line: i + 1, message }))
    })
}

fn parse_line(line: &str) -> Result<Step, String> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim_start();
    match word {
        "type" => Ok(Step::Type(json_string(rest)?)),
        "paste" => Ok(Step::Paste(json_string(rest)?)),
        "resize" => {
            let mut it = rest.split_whitespace();
            let mut num = || -> Result<u16, String> {
                it.next().and_then(|n| n.parse().ok()).ok_or_else(|| "resize takes WIDTH HEIGHT".to_owned())
            };
            let (width, height) = (num()?, num()?);
            trailing_comment(it.collect::<Vec<_>>().join(" ").as_str())?;
            Ok(Step::Resize(Size { width, height }))
        }
        "set" => {
            let mut it = rest.split_whitespace();
            let (Some(path), Some(value)) = (it.next(), it.next()) else {
                return Err("set takes a setting and a value".to_owned());
            };
            trailing_comment(it.collect::<Vec<_>>().join(" ").as_str())?;
            Ok(Step::Set { path: path.to_owned(), value: value.to_owned() })
        }
        key => {
            trailing_comment(rest)?;
            KeyPress::parse(key).map(Step::Key).map_err(|e| e.to_string())
        }
    }
}

/// A JSON string literal, then nothing but an optional comment.
fn json_string(rest: &str) -> Result<String, String> {
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<String>();
    match stream.next() {
        Some(Ok(s)) => {
            trailing_comment(&rest[stream.byte_offset()..])?;
            Ok(s)
        }
        _ => Err("expected a JSON string in double quotes".to_owned()),
    }
}

fn trailing_comment(rest: &str) -> Result<(), String> {
    let rest = rest.trim();
    if rest.is_empty() || rest.starts_with('#') { Ok(()) } else { Err(format!("unexpected \"{rest}\"")) }
}

impl Step {
    /// The events this step makes, given the settings in force (for `set`).
    pub fn events(&self, settings: &Settings) -> Result<Vec<Event>, SettingChangeError> {
        Ok(match self {
            Step::Key(k) => vec![Event::key(*k)],
            Step::Type(text) => text.chars().map(|c| Event::key(KeyPress::from_char(c))).collect(),
            Step::Paste(text) => vec![Event::TextPasted { text: text.clone() }],
            Step::Resize(size) => vec![Event::TerminalResized { size: *size }],
            Step::Set { path, value } => {
                vec![Event::SettingsChanged {
                    settings: Box::new(settings.with_change(path, value)?),
                    notices: Vec::new(),
                }]
            }
        })
    }
}
