//! Properties of the fold: no panic on any key sequence or payload, invariants hold after every event.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::editor::Breaks;
use ask_engine::{Event, FlowState, KeyPress, Settings, Size, SummaryEdge};
use proptest::prelude::*;
use serde_json::{Value, json};

fn payload() -> impl Strategy<Value = Value> {
    let question = (0..3u8, 1..7usize, any::<bool>()).prop_map(|(kind, n, described)| {
        let kind = ["single", "multi", "preview"][kind as usize];
        let options: Vec<Value> = (0..n)
            .map(|j| {
                let mut o = json!({"value": format!("v{j}"), "label": format!("Option {j}")});
                if described {
                    o["description"] = json!("d");
                }
                if kind == "preview" {
                    o["preview"] = json!(format!("line\n{j}"));
                }
                o
            })
            .collect();
        (kind, options)
    });
    prop::collection::vec(question, 1..5).prop_map(|qs| {
        let questions: Vec<Value> = qs
            .into_iter()
            .enumerate()
            .map(|(i, (kind, options))| json!({"id": format!("q{i}"), "prompt": format!("P{i}?"), "type": kind, "options": options}))
            .collect();
        json!({"questions": questions})
    })
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        20 => prop::sample::select(common::KEYS).prop_map(|id| Event::key(KeyPress::parse(id).expect("pool ids parse"))),
        // Any character a terminal can type, with any modifiers: controls, odd spaces, marks.
        2 => (any::<char>(), 0u8..16).prop_map(|(c, bits)| Event::key(KeyPress::new(ask_engine::KeyCode::Char(c), common::modifiers(bits)))),
        1 => "[a-z \\r\\n世]{0,6}".prop_map(|text| Event::TextPasted { text }),
        1 => ("[a-z]{0,2}", prop::collection::vec("[a-z/]{1,8}", 0..10))
            .prop_map(|(query, items)| Event::CompletionsOffered { query, items }),
        1 => (1..200u16, 1..60u16).prop_map(|(width, height)| Event::TerminalResized { size: Size { width, height } }),
        1 => (1..600u64).prop_map(|seconds| Event::TimedOut { seconds }),
        1 => Just(Event::FlowResumed),
        1 => prop::sample::select(vec![SummaryEdge::Top, SummaryEdge::End]).prop_map(|edge| Event::SummaryClamped { edge }),
        1 => (0..40usize).prop_map(|line| Event::PreviewClamped { line }),
        1 => (0..120u16, any::<bool>()).prop_map(|(width, spaces)| {
            Event::EditorWrapped { width, breaks: if spaces { Breaks::Spaces } else { Breaks::Words } }
        }),
        1 => (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(a, b, c)| {
            let mut settings = Settings::default();
            settings.behaviour.auto_submit_when_answered_without_notes = a;
            settings.behaviour.confirm_dismiss_when_dirty = b;
            settings.behaviour.double_press_review_shortcuts = c;
            Event::SettingsChanged { settings: Box::new(settings), notices: if a { vec!["keymaps: unusable".to_owned()] } else { vec![] } }
        }),
    ]
}

proptest! {
    // A fuzz target run on every test run (issue 14.10): 1 000 random forms × up to 160 events.
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn no_panic_and_invariants_hold_for_any_key_sequence(raw in payload(), events in prop::collection::vec(event(), 0..160)) {
        let mut state = FlowState::default();
        let opened = common::opened(common::form_of(&raw), Settings::default());
        state.apply(&opened);
        for e in &events {
            state.apply(e);
            common::check_invariants(&state);
        }
        // The log is the truth: folding it again gives the state held live.
        let replayed = FlowState::replay(std::iter::once(&opened).chain(&events));
        prop_assert_eq!(replayed, state);
    }

    /// Issue 13.3: undoing every step gives back a form with nothing saved, and redoing them
    /// all gives back the answers there were — whatever keys made them.
    #[test]
    fn undo_takes_every_step_back_and_redo_does_them_again(raw in payload(), events in prop::collection::vec(event(), 0..120)) {
        let mut state = FlowState::default();
        state.apply(&common::opened(common::form_of(&raw), Settings::default()));
        // The keys up to the one that would end the form.
        for e in &events {
            let mut next = state.clone();
            next.apply(e);
            if next.outcome().is_some() {
                break;
            }
            state = next;
        }
        // Close the overlay and any editor (Esc saves its draft: one more step).
        for _ in 0..2 {
            if state.overlay().is_some() || state.editor().is_some() {
                state.apply(&Event::key(KeyPress::parse("esc").unwrap()));
            }
        }
        // A finished form takes no keys; auto-submit may (rightly) send the form as soon as an
        // undo leaves it answered without notes.
        prop_assume!(state.outcome().is_none() && state.editor().is_none() && state.overlay().is_none());
        prop_assume!(!state.settings().behaviour.auto_submit_when_answered_without_notes);
        let answers: Vec<_> = state.questions().iter().map(|q| (q.selected_indices().collect::<Vec<_>>(), q.custom_text().to_owned(), q.note().to_owned())).collect();
        let mut steps = 0;
        while state.last_step().is_some() {
            state.apply(&Event::key(KeyPress::parse("ctrl+z").unwrap()));
            steps += 1;
            prop_assert!(steps <= events.len(), "undo ends");
        }
        prop_assert!(state.questions().iter().all(|q| !q.has_anything()), "{:?}", state.questions());
        for _ in 0..steps {
            state.apply(&Event::key(KeyPress::parse("ctrl+y").unwrap()));
        }
        let again: Vec<_> = state.questions().iter().map(|q| (q.selected_indices().collect::<Vec<_>>(), q.custom_text().to_owned(), q.note().to_owned())).collect();
        prop_assert_eq!(again, answers);
    }

    #[test]
    fn events_before_the_flow_opens_change_nothing(events in prop::collection::vec(event(), 0..40)) {
        let mut state = FlowState::default();
        for e in &events {
            state.apply(e);
        }
        prop_assert_eq!(state, FlowState::default());
    }
}
