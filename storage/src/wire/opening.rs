//! The opening event written without copying its form (issue 15.2), and read without
//! buffering it (issue 15.4).
//!
//! Encoding goes through the frozen DTOs, which own their strings: for a `FlowOpened` event that
//! meant cloning every question and option of the form (300 000 strings for 100 000 options)
//! only to serialize and drop them. This writes the same bytes from the form itself. The DTOs
//! stay the one definition of the format; a test holds these bytes equal to theirs.
//!
//! Decoding through the DTOs' enum, tagged by its `"type"` field, makes serde copy the whole
//! object into a buffer of its own first (it cannot know the tag comes first), then read the
//! variant out of that buffer: for a large form, most of the decode. Every opening event this
//! build writes starts with its tag, so its own lines are read as a plain struct of the same
//! fields instead; tests hold the two readers to the same answer.

use ask_engine::{Event, Origin, Settings, Size};
use ask_schema::{Form, OptionItem, Question};
use serde::de::IgnoredAny;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

use super::convert::{from_wire, origin_to_wire, settings_to_wire, size_to_wire};
use super::v1::{FormV1, OriginV1, SizeV1};
use super::v3::{EventV3, SettingsV3};
use super::{BASE_VERSION, DecodeError};

/// How every opening event this build writes begins.
pub(super) const PREFIX: &[u8] = br#"{"type":"FlowOpened","#;

/// The fields of [`EventV3::FlowOpened`], with its defaults; the tag is read as a field (so a
/// second one is refused, as the enum refuses it) and other fields (`"v"`) are ignored, as there.
#[derive(Deserialize)]
struct OpenedLine {
    #[serde(rename = "type")]
    _tag: IgnoredAny,
    form: FormV1,
    settings: SettingsV3,
    origin: OriginV1,
    size: SizeV1,
    #[serde(default)]
    notices: Vec<String>,
}

/// A current-version line that starts with [`PREFIX`].
pub(super) fn decode(bytes: &[u8]) -> Result<Event, DecodeError> {
    // Unknown fields are parsed in full, as the tagged enum's buffering parse does.
    let line: OpenedLine =
        ask_schema::strict_json::from_slice(bytes).map_err(|e| DecodeError::Malformed(e.to_string()))?;
    let OpenedLine { form, settings, origin, size, notices, .. } = line;
    from_wire(EventV3::FlowOpened { form, settings, origin, size, notices }.into())
}

/// A `FlowOpened` event, field for field as `{"type":"FlowOpened",…,"v":3}` through
/// [`super::v3::EventV3`].
pub struct Opened<'a> {
    pub form: &'a Form,
    pub settings: &'a Settings,
    pub origin: &'a Origin,
    pub size: Size,
    pub notices: &'a [String],
}

impl Serialize for Opened<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type", "FlowOpened")?;
        map.serialize_entry("form", &FormRef(self.form))?;
        map.serialize_entry("settings", &settings_to_wire(self.settings))?;
        map.serialize_entry("origin", &origin_to_wire(self.origin))?;
        map.serialize_entry("size", &size_to_wire(self.size))?;
        if !self.notices.is_empty() {
            map.serialize_entry("notices", self.notices)?;
        }
        map.serialize_entry("v", &BASE_VERSION)?;
        map.end()
    }
}

/// A form as the opening event writes it: the frozen `FormV1` layout, whatever `Form`'s own
/// serde becomes in a later build.
pub(crate) fn form_json(form: &Form) -> Vec<u8> {
    serde_json::to_vec(&FormRef(form)).unwrap_or_default()
}

struct FormRef<'a>(&'a Form);

impl Serialize for FormRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let form = self.0;
        let mut st = s.serialize_struct("FormV1", 2)?;
        // Absent fields are left out, as the DTOs' `skip_serializing_if` does.
        if let Some(title) = &form.title {
            st.serialize_field("title", title)?;
        }
        st.serialize_field("questions", &Seq(form.questions.iter(), QuestionRef))?;
        st.end()
    }
}

/// A list serialized element by element through a borrowing view.
struct Seq<I: Iterator, V>(I, fn(I::Item) -> V);

impl<I: Iterator + Clone, V: Serialize> Serialize for Seq<I, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone().map(self.1))
    }
}

struct QuestionRef<'a>(&'a Question);

impl Serialize for QuestionRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let q = self.0;
        let mut st = s.serialize_struct("QuestionV1", 6)?;
        st.serialize_field("id", &q.id)?;
        st.serialize_field("label", &q.label)?;
        st.serialize_field("prompt", &q.prompt)?;
        st.serialize_field("type", q.kind.as_str())?;
        st.serialize_field("required", &q.required)?;
        st.serialize_field("options", &Seq(q.options.iter(), OptionRef))?;
        st.end()
    }
}

struct OptionRef<'a>(&'a OptionItem);

impl Serialize for OptionRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let mut st = s.serialize_struct("OptionV1", 5)?;
        st.serialize_field("value", &o.value)?;
        st.serialize_field("label", &o.label)?;
        for (name, text) in [("description", &o.description), ("preview", &o.preview)] {
            if let Some(text) = text {
                st.serialize_field(name, text)?;
            }
        }
        if o.freeform {
            st.serialize_field("freeform", &true)?;
        }
        st.end()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

    use std::sync::Arc;

    use ask_engine::{Event, Origin, Settings, Size};
    use ask_schema::{Form, FormSource, OptionItem, OptionList, Question, QuestionType};
    use proptest::prelude::*;
    use rstest::rstest;

    use super::super::{decode, decode_through_dtos, encode, encode_through_dtos};

    fn option(value: &str, description: Option<&str>, preview: Option<&str>, freeform: bool) -> OptionItem {
        OptionItem {
            value: value.into(),
            label: format!("{value} \"label\"\n\u{e9}").into(),
            description: description.map(Into::into),
            preview: preview.map(Into::into),
            freeform,
        }
    }

    fn opened(
        title: Option<&str>,
        kind: QuestionType,
        options: impl Into<OptionList>,
        notices: Vec<String>,
    ) -> Event {
        let question = Question {
            id: "q\t1".to_owned(),
            label: "Q1".to_owned(),
            prompt: "Which one?\n\u{1f600}".to_owned(),
            kind,
            required: true,
            options: options.into(),
        };
        let form = Form {
            title: title.map(str::to_owned),
            questions: vec![question.clone(), Question { required: false, id: "q2".into(), ..question }],
        };
        Event::FlowOpened {
            form: Arc::new(form),
            settings: Box::new(Settings::default()),
            origin: Origin { source: FormSource::AnswerExtraction, command: "answer".to_owned() },
            size: Size { width: 80, height: 24 },
            notices,
        }
    }

    #[rstest]
    #[case::plain(opened(None, QuestionType::Single, vec![option("a", None, None, false)], vec![]))]
    #[case::title_and_notices(opened(Some("Set\u{0}up"), QuestionType::Multi, vec![option("a", None, None, false)], vec!["config: bad key".into()]))]
    #[case::description_and_preview(opened(None, QuestionType::Preview, vec![option("a", Some("why"), Some("fn main() {}\n"), false), option("b", None, Some("x"), false)], vec![]))]
    #[case::freeform_marker(opened(None, QuestionType::Single, vec![option("free", None, None, true)], vec![]))]
    // A large list read on two threads is held as two runs; it is written as one array.
    #[case::options_in_two_runs(opened(None, QuestionType::Multi, OptionList::joined(vec![option("a", None, None, false), option("b", Some("d"), None, false)], vec![option("c", None, None, false)]), vec![]))]
    fn the_opening_event_is_written_byte_for_byte_as_its_frozen_dto_writes_it(#[case] event: Event) {
        let bytes = encode(&event).unwrap();
        assert_eq!(
            String::from_utf8(bytes.clone()).unwrap(),
            String::from_utf8(encode_through_dtos(&event).unwrap()).unwrap()
        );
        assert_eq!(decode(&bytes).unwrap(), event);
        assert_eq!(decode_through_dtos(&bytes).unwrap(), event, "the tagged enum reads it the same");
    }

    /// A line as this build writes it, with `edit` applied to its text.
    fn edited(edit: impl Fn(&str) -> String) -> Vec<u8> {
        let event =
            opened(Some("T"), QuestionType::Single, vec![option("a", Some("d"), None, false)], vec![]);
        let line = String::from_utf8(encode(&event).unwrap()).unwrap();
        let line = edit(&line);
        assert!(line.as_bytes().starts_with(super::PREFIX) && line.ends_with(r#","v":3}"#), "{line}");
        line.into_bytes()
    }

    /// Lines that take the opening event's own reader (its tag first, the version last), valid or
    /// not: it answers as the DTOs' tagged enum does — the same event, or an error for both.
    #[rstest]
    #[case::as_written(edited(str::to_owned), true)]
    #[case::an_unknown_field(edited(|l| l.replacen(r#""form""#, r#""later":[1,{"x":null}],"form""#, 1)), true)]
    #[case::the_version_twice(edited(|l| l.replace(r#","v":3}"#, r#","v":2,"v":3}"#)), true)]
    #[case::size_as_an_array(edited(|l| l.replace(r#""size":{"width":80,"height":24}"#, r#""size":[80,24]"#)), true)]
    #[case::notices_absent_or_listed(edited(|l| l.replace(r#","v":3}"#, r#","notices":["n"],"v":3}"#)), true)]
    #[case::the_tag_twice(edited(|l| l.replacen(r#""form""#, r#""type":"FlowOpened","form""#, 1)), false)]
    #[case::another_tag_later(edited(|l| l.replacen(r#""form""#, r#""type":"KeyPressed","form""#, 1)), false)]
    #[case::a_field_twice(edited(|l| l.replace(r#","v":3}"#, r#","size":{"width":1,"height":1},"v":3}"#)), false)]
    #[case::no_settings(edited(|l| { let (a, b) = l.split_once(r#""settings""#).unwrap(); format!("{a}{}", &b[b.find(r#""origin""#).unwrap()..]) }), false)]
    #[case::notices_null(edited(|l| l.replace(r#","v":3}"#, r#","notices":null,"v":3}"#)), false)]
    #[case::a_width_out_of_range(edited(|l| l.replace(r#""width":80"#, r#""width":70000"#)), false)]
    #[case::a_fractional_width(edited(|l| l.replace(r#""width":80"#, r#""width":80.0"#)), false)]
    #[case::an_unknown_question_type(edited(|l| l.replace(r#""type":"single""#, r#""type":"ranked""#)), false)]
    #[case::an_unknown_source(edited(|l| l.replace(r#""source":"answer-extraction""#, r#""source":"mail""#)), false)]
    #[case::not_json_inside(edited(|l| l.replacen(r#""form""#, r#","form""#, 1)), false)]
    #[case::a_bad_escape(edited(|l| l.replacen(r#""T""#, r#""\q""#, 1)), false)]
    #[case::a_lone_surrogate_in_an_unknown_field(edited(|l| l.replacen(r#""form""#, r#""later":"\udc00","form""#, 1)), false)]
    #[case::a_number_out_of_range_in_an_unknown_field(edited(|l| l.replacen(r#""form""#, r#""later":[1e400],"form""#, 1)), false)]
    #[case::a_lone_surrogate_in_an_unknown_field_of_an_option(edited(|l| l.replacen(r#""value""#, r#""later":"\ud800","value""#, 1)), false)]
    fn the_opening_events_own_reader_answers_as_the_tagged_enum_does(
        #[case] line: Vec<u8>,
        #[case] valid: bool,
    ) {
        let (own, dtos) = (decode(&line), decode_through_dtos(&line));
        assert_eq!(own.is_ok(), valid, "{own:?}");
        assert_eq!(own.ok(), dtos.ok());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn any_opening_event_encodes_as_its_dto_does(
            title in proptest::option::of(".{0,8}"),
            texts in proptest::collection::vec((".{1,6}", proptest::option::of(".{0,6}"), proptest::option::of("(.|\n){0,12}"), any::<bool>()), 1..5),
            notices in proptest::collection::vec(".{0,10}", 0..3),
        ) {
            let options: Vec<_> = texts.iter().map(|(v, d, p, f)| option(v, d.as_deref(), p.as_deref(), *f)).collect();
            let event = opened(title.as_deref(), QuestionType::Single, options, notices);
            let bytes = encode(&event).unwrap();
            prop_assert_eq!(&bytes, &encode_through_dtos(&event).unwrap());
            prop_assert_eq!(decode(&bytes).unwrap(), event.clone());
            prop_assert_eq!(decode_through_dtos(&bytes).unwrap(), event);
        }
    }
}
