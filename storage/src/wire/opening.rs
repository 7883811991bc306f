//! The opening event written without copying its form (issue 15.2).
//!
//! Encoding goes through the frozen DTOs, which own their strings: for a `FlowOpened` event that
//! meant cloning every question and option of the form (300 000 strings for 100 000 options)
//! only to serialize and drop them. This writes the same bytes from the form itself. The DTOs
//! stay the one definition of the format; a test holds these bytes equal to theirs.

use ask_engine::{Origin, Settings, Size};
use ask_schema::{Form, OptionItem, Question};
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeStruct, Serializer};

use super::EVENT_VERSION;
use super::convert::{origin_to_wire, settings_to_wire, size_to_wire};

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
        map.serialize_entry("v", &EVENT_VERSION)?;
        map.end()
    }
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

    use super::super::{decode, encode, encode_through_dtos};

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
            prop_assert_eq!(encode(&event).unwrap(), encode_through_dtos(&event).unwrap());
        }
    }
}
