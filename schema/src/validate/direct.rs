//! The fast path of validation (issue 15.2): payload text parsed straight into the normalized
//! form, with no JSON tree in between.
//!
//! A payload of a million options is 90 MB of JSON; building a `serde_json::Value` for it (an
//! allocation per string and per object, a hash map per option) and then walking it costs more
//! than everything else before the first frame. Here each string is read once, trimmed, and
//! owned by the form.
//!
//! This path only ever says yes. At the first thing it does not accept exactly as
//! [`super::validate`] would — an issue, a type it does not expect, a duplicate key, another
//! tool's shape — it gives up, and the caller runs the tree validator, which finds every issue
//! with its path. So it needs no messages, and its one duty is never to accept a payload the tree
//! validator refuses, nor to accept one differently (a property test in
//! `schema/tests/direct_parse.rs` holds it to that).

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::input::{Form, FormSource, OptionItem, Question, QuestionType, Text};
use crate::option_list::OptionList;

use super::gathered::{Facts, Run, TextHasher, distinct};

/// The normalized form of `text`, or `None` when the tree validator must decide.
pub fn form(text: &str, source: FormSource) -> Option<Form> {
    // Unknown fields are parsed in full, as the tree validator's parse does (`strict_json`).
    finish(crate::strict_json::from_str::<Object<RawForm>>(text).ok()?.0, source)
}

/// The form of a payload's fields as read (here, or by [`super::strict`]), or `None` at the
/// first thing that is not exactly valid.
pub(super) fn finish(raw: RawForm, source: FormSource) -> Option<Form> {
    let title = optional(raw.title)?.map(|t| t.0.into());
    let questions = raw.questions.filter(|q| !q.is_empty())?;
    let questions: Vec<Question> = questions
        .into_iter()
        .enumerate()
        .map(|(i, Object(q))| question(q, i + 1, source))
        .collect::<Option<_>>()?;
    distinct(&TextHasher::default(), questions.iter().map(|q| q.id.as_str()))
        .then_some(Form { title, questions })
}

fn question(q: RawQuestion, n: usize, source: FormSource) -> Option<Question> {
    // Another tool's field (its shape is rewritten, or its near miss explained, by the tree path).
    if q.multi_select.0 || q.multi_select_snake.0 || q.question.0 || q.header.0 || q.choices.0 {
        return None;
    }
    let kind = match q.kind {
        None => QuestionType::Single,
        Some(Trimmed(name)) => QuestionType::from_name(&name)?,
    };
    let Options(options, gathered) = q.options.filter(|o| !o.0.is_empty())?;
    // The free-form marker stands alone, on `/answer` forms only.
    let marker_ok = gathered.freeform == 0 || (source == FormSource::AnswerExtraction && options.len() == 1);
    if !marker_ok || (kind == QuestionType::Preview && gathered.without_preview > 0) || gathered.repeated {
        return None;
    }
    Some(Question {
        id: required(q.id)?.0.into(),
        label: match optional(q.label)? {
            Some(label) => label.0.into(),
            None => format!("Q{n}"),
        },
        prompt: required(q.prompt)?.0.into(),
        kind,
        required: q.required.unwrap_or(false),
        options,
    })
}

/// A required text (trimmed): present (not null) and not blank. Both fast readers check their
/// texts with this and [`optional`].
pub(super) fn required<T: AsRef<str>>(text: Option<T>) -> Option<T> {
    text.filter(|t| !t.as_ref().is_empty())
}

/// An optional text (trimmed): `Some(None)` when absent or null, `None` (give up) when blank.
pub(super) fn optional<T: AsRef<str>>(text: Option<T>) -> Option<Option<T>> {
    match text {
        Some(t) if t.as_ref().is_empty() => None,
        text => Some(text),
    }
}

#[derive(Deserialize)]
pub(super) struct RawForm {
    pub(super) title: Option<Trimmed>,
    pub(super) questions: Option<Vec<Object<RawQuestion>>>,
}

#[derive(Deserialize)]
pub(super) struct RawQuestion {
    pub(super) id: Option<Trimmed>,
    pub(super) label: Option<Trimmed>,
    pub(super) prompt: Option<Trimmed>,
    #[serde(rename = "type")]
    pub(super) kind: Option<Trimmed>,
    pub(super) required: Option<bool>,
    pub(super) options: Option<Options>,
    #[serde(default, rename = "multiSelect")]
    pub(super) multi_select: Present,
    #[serde(default, rename = "multi_select")]
    pub(super) multi_select_snake: Present,
    #[serde(default)]
    pub(super) question: Present,
    #[serde(default)]
    pub(super) header: Present,
    #[serde(default)]
    pub(super) choices: Present,
}

#[derive(Deserialize)]
pub(super) struct RawOption {
    pub(super) value: Option<Trimmed>,
    pub(super) label: Option<Trimmed>,
    pub(super) description: Option<Trimmed>,
    pub(super) preview: Option<Trimmed>,
    /// `null` is an issue here (the marker must be a boolean), not an absent field.
    #[serde(default, deserialize_with = "some_bool")]
    pub(super) freeform: Option<bool>,
}

/// A question's options, each checked as it is read (what can be checked without the question's
/// type and source), so the list is built once, in its final shape; and what the question's
/// checks need from them.
pub(super) struct Options(pub(super) OptionList, pub(super) Facts);

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Options;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of options")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Options, A::Error> {
                let (mut run, hasher) = (Run::default(), TextHasher::default());
                while let Some(Object(o)) = seq.next_element::<Object<RawOption>>()? {
                    // The error only stops the parse: the tree validator says what is wrong.
                    run.push(option(o).ok_or_else(|| de::Error::custom("not on the fast path"))?, &hasher);
                }
                Ok(run.into_options())
            }
        }
        d.deserialize_seq(V)
    }
}

pub(super) fn option(o: RawOption) -> Option<OptionItem> {
    let preview = optional(o.preview)?.map(|t| t.0);
    Some(OptionItem {
        value: required(o.value)?.0,
        label: required(o.label)?.0,
        description: optional(o.description)?.map(|t| t.0),
        preview,
        freeform: o.freeform == Some(true),
    })
}

fn some_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    bool::deserialize(d).map(Some)
}

/// A JSON string, trimmed and owned: inline up to 24 bytes, else the one allocation the form
/// keeps.
pub(super) struct Trimmed(pub(super) Text);

impl AsRef<str> for Trimmed {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Trimmed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Trimmed;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Trimmed, E> {
                Ok(Trimmed(Text::from(s.trim())))
            }
        }
        d.deserialize_str(V)
    }
}

/// Whether a field is there at all, whatever its value (`null` included).
#[derive(Default)]
pub(super) struct Present(pub(super) bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d).map(|_| Present(true))
    }
}

/// A struct read from a JSON object only: a derived `Deserialize` also takes an array of the
/// fields in order, which the tree validator refuses ("must be an object").
pub(super) struct Object<T>(pub(super) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Object<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(Object)
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::form;
    use crate::input::FormSource;

    /// The fast path names the near-miss fields one by one (serde ignores unknown fields); this
    /// keeps it in step with the list the tree validator explains, so a field added there is
    /// never accepted here.
    #[test]
    fn every_near_miss_field_sends_the_payload_to_the_tree_validator() {
        let with = |extra: &str| {
            format!(
                r#"{{"questions":[{{"id":"a","prompt":"P",{extra}"options":[{{"value":"x","label":"L"}}]}}]}}"#
            )
        };
        assert!(form(&with(""), FormSource::Tool).is_some());
        for (field, _) in super::super::dialect::NEAR_MISSES {
            for value in ["null", "true", "\"x\""] {
                let text = with(&format!(r#""{field}":{value},"#));
                assert!(form(&text, FormSource::Tool).is_none(), "{text}");
            }
        }
    }
}
