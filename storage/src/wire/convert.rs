//! Between the current wire version and the engine's types: the only place that knows both.

use std::sync::Arc;

use ask_engine::editor::Breaks;
use ask_engine::{Action, Behaviour, Event, KeyPress, Keymaps, Origin, Settings, Size, SummaryEdge};
use ask_schema::{Form, FormSource, OptionItem, Question, QuestionType};

use super::DecodeError;
use super::v1::{BehaviourV1, FormV1, KeymapsV1, OptionV1, OriginV1, QuestionV1, SizeV1};
use super::v3::{EventV3, SettingsV3};
use super::v4::{EdgeV4, EventV4};
use super::v5::EventV5;
use super::v6::{BreaksV6, EventV6};

pub fn to_wire(event: &Event) -> EventV6 {
    let earlier = match event {
        Event::FlowOpened { form, settings, origin, size, notices } => EventV3::FlowOpened {
            form: form_to_wire(form),
            settings: settings_to_wire(settings),
            origin: origin_to_wire(origin),
            size: size_to_wire(*size),
            notices: notices.clone(),
        },
        Event::KeyPressed { key } => EventV3::KeyPressed { key: key.to_string() },
        Event::TextPasted { text } => EventV3::TextPasted { text: text.clone() },
        Event::TerminalResized { size } => EventV3::TerminalResized { size: size_to_wire(*size) },
        Event::SettingsChanged { settings, notices } => {
            EventV3::SettingsChanged { settings: settings_to_wire(settings), notices: notices.clone() }
        }
        Event::SettingsSaveFailed { settings, message } => {
            EventV3::SettingsSaveFailed { settings: settings_to_wire(settings), message: message.clone() }
        }
        Event::CompletionsOffered { query, items } => {
            EventV3::CompletionsOffered { query: query.clone(), items: items.clone() }
        }
        Event::TimedOut { seconds } => EventV3::TimedOut { seconds: *seconds },
        Event::FlowResumed => EventV3::FlowResumed,
        Event::SummaryClamped { edge } => {
            let edge = match edge {
                SummaryEdge::Top => EdgeV4::Top,
                SummaryEdge::End => EdgeV4::End,
            };
            return EventV4::SummaryClamped { edge }.into();
        }
        Event::PreviewClamped { line } => return EventV4::PreviewClamped { line: *line as u64 }.into(),
        Event::EditorWrapped { width, breaks: Breaks::Words } => {
            return EventV5::EditorWrapped { width: *width }.into();
        }
        Event::EditorWrapped { width, breaks: Breaks::Spaces } => {
            return EventV6::EditorWrapped { width: *width, breaks: BreaksV6::Spaces };
        }
    };
    EventV4::Earlier(earlier).into()
}

pub fn from_wire(event: EventV6) -> Result<Event, DecodeError> {
    let event = match event {
        EventV6::EditorWrapped { width, breaks } => {
            let breaks = match breaks {
                BreaksV6::Words => Breaks::Words,
                BreaksV6::Spaces => Breaks::Spaces,
            };
            return Ok(Event::EditorWrapped { width, breaks });
        }
        EventV6::Earlier(event) => event,
    };
    let event = match event {
        EventV5::EditorWrapped { width } => return Ok(Event::EditorWrapped { width, breaks: Breaks::Words }),
        EventV5::Earlier(event) => event,
    };
    let event = match event {
        EventV4::SummaryClamped { edge: EdgeV4::Top } => {
            return Ok(Event::SummaryClamped { edge: SummaryEdge::Top });
        }
        EventV4::SummaryClamped { edge: EdgeV4::End } => {
            return Ok(Event::SummaryClamped { edge: SummaryEdge::End });
        }
        EventV4::PreviewClamped { line } => {
            let line =
                usize::try_from(line).map_err(|_| malformed("a preview line past this machine's memory"))?;
            return Ok(Event::PreviewClamped { line });
        }
        EventV4::Earlier(event) => event,
    };
    Ok(match event {
        EventV3::FlowOpened { form, settings, origin, size, notices } => Event::FlowOpened {
            form: Arc::new(form_from_wire(form)?),
            settings: Box::new(settings_from_wire(&settings)?),
            origin: Origin { source: source_from_name(&origin.source)?, command: origin.command },
            size: size_from_wire(size),
            notices,
        },
        EventV3::KeyPressed { key } => Event::KeyPressed { key: key_from_wire(&key)? },
        EventV3::TextPasted { text } => Event::TextPasted { text },
        EventV3::TerminalResized { size } => Event::TerminalResized { size: size_from_wire(size) },
        EventV3::SettingsChanged { settings, notices } => {
            Event::SettingsChanged { settings: Box::new(settings_from_wire(&settings)?), notices }
        }
        EventV3::SettingsSaveFailed { settings, message } => {
            Event::SettingsSaveFailed { settings: Box::new(settings_from_wire(&settings)?), message }
        }
        EventV3::CompletionsOffered { query, items } => Event::CompletionsOffered { query, items },
        EventV3::TimedOut { seconds } => Event::TimedOut { seconds },
        EventV3::FlowResumed => Event::FlowResumed,
    })
}

fn malformed(what: impl std::fmt::Display) -> DecodeError {
    DecodeError::Malformed(what.to_string())
}

pub(super) fn origin_to_wire(origin: &Origin) -> OriginV1 {
    OriginV1 { source: source_name(origin.source).to_owned(), command: origin.command.clone() }
}

fn source_name(source: FormSource) -> &'static str {
    match source {
        FormSource::Tool => "tool",
        FormSource::AnswerExtraction => "answer-extraction",
    }
}

fn source_from_name(name: &str) -> Result<FormSource, DecodeError> {
    match name {
        "tool" => Ok(FormSource::Tool),
        "answer-extraction" => Ok(FormSource::AnswerExtraction),
        other => Err(malformed(format!("unknown form source {other:?}"))),
    }
}

pub(super) fn size_to_wire(size: Size) -> SizeV1 {
    SizeV1 { width: size.width, height: size.height }
}

fn size_from_wire(size: SizeV1) -> Size {
    Size { width: size.width, height: size.height }
}

pub(super) fn key_from_wire(id: &str) -> Result<KeyPress, DecodeError> {
    KeyPress::from_logged(id).map_err(|e| malformed(format!("key {id:?}: {e}")))
}

pub(super) fn settings_to_wire(s: &Settings) -> SettingsV3 {
    let b = &s.behaviour;
    let k = &s.keymaps;
    SettingsV3 {
        behaviour: BehaviourV1 {
            auto_submit_when_answered_without_notes: b.auto_submit_when_answered_without_notes,
            confirm_dismiss_when_dirty: b.confirm_dismiss_when_dirty,
            double_press_review_shortcuts: b.double_press_review_shortcuts,
            show_footer_hints: b.show_footer_hints,
        },
        keymaps: KeymapsV1 {
            cancel: k.cancel.to_string(),
            dismiss: k.dismiss.to_string(),
            toggle: k.toggle.to_string(),
            confirm: k.confirm.to_string(),
            option_note: k.option_note.to_string(),
            question_note: k.question_note.to_string(),
        },
        keymap_extensions: Action::EXTENSIONS
            .iter()
            .map(|a| (a.key().to_owned(), k.get(*a).to_string()))
            .collect(),
    }
}

fn settings_from_wire(s: &SettingsV3) -> Result<Settings, DecodeError> {
    let b = &s.behaviour;
    let k = &s.keymaps;
    let mut settings = Settings {
        behaviour: Behaviour {
            auto_submit_when_answered_without_notes: b.auto_submit_when_answered_without_notes,
            confirm_dismiss_when_dirty: b.confirm_dismiss_when_dirty,
            double_press_review_shortcuts: b.double_press_review_shortcuts,
            show_footer_hints: b.show_footer_hints,
        },
        keymaps: Keymaps {
            cancel: key_from_wire(&k.cancel)?,
            dismiss: key_from_wire(&k.dismiss)?,
            toggle: key_from_wire(&k.toggle)?,
            confirm: key_from_wire(&k.confirm)?,
            option_note: key_from_wire(&k.option_note)?,
            question_note: key_from_wire(&k.question_note)?,
            ..Keymaps::default()
        },
    };
    for (name, id) in &s.keymap_extensions {
        let action = Action::from_key(name).ok_or_else(|| malformed(format!("unknown keymap {name:?}")))?;
        settings.keymaps.set(action, key_from_wire(id)?);
    }
    Ok(settings)
}

fn form_to_wire(form: &Form) -> FormV1 {
    FormV1 {
        title: form.title.clone(),
        questions: form
            .questions
            .iter()
            .map(|q| QuestionV1 {
                id: q.id.clone(),
                label: q.label.clone(),
                prompt: q.prompt.clone(),
                kind: q.kind.as_str().to_owned(),
                required: q.required,
                options: q
                    .options
                    .iter()
                    .map(|o| OptionV1 {
                        value: o.value.clone(),
                        label: o.label.clone(),
                        description: o.description.clone(),
                        preview: o.preview.clone(),
                        freeform: o.freeform,
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn form_from_wire(form: FormV1) -> Result<Form, DecodeError> {
    let mut questions = Vec::with_capacity(form.questions.len());
    for q in form.questions {
        let Some(kind) = QuestionType::from_name(&q.kind) else {
            return Err(malformed(format!("question {:?}: unknown type {:?}", q.id, q.kind)));
        };
        let options = q
            .options
            .into_iter()
            .map(|o| OptionItem {
                value: o.value,
                label: o.label,
                description: o.description,
                preview: o.preview,
                freeform: o.freeform,
            })
            .collect();
        questions.push(Question {
            id: q.id,
            label: q.label,
            prompt: q.prompt,
            kind,
            required: q.required,
            options,
        });
    }
    Ok(Form { title: form.title, questions })
}
