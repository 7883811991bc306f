//! Any key sequence on any of the example forms: the fold never panics, its invariants hold after
//! every event (`engine/tests/common`), and folding the log again gives the state held live.
//! The first byte picks the form; each later byte is a key, or starts an event of another kind
//! (a paste, a resize, offered paths, a timeout, a setting, what a frame records) that reads its
//! arguments from the bytes after it.
#![no_main]

#[path = "../../../engine/tests/common/mod.rs"]
mod common;

use std::sync::OnceLock;

use ask_engine::editor::Breaks;
use ask_engine::{Event, FlowState, KeyPress, Settings, Size, SummaryEdge};
use ask_schema::Form;

const EXAMPLES: &[&str] = &[
    include_str!("../../../examples/project-setup.json"),
    include_str!("../../../examples/preview-layout.json"),
    include_str!("../../../examples/multi-targets.json"),
    include_str!("../../../examples/single-database.json"),
];

fn forms() -> &'static [Form] {
    static FORMS: OnceLock<Vec<Form>> = OnceLock::new();
    FORMS.get_or_init(|| {
        let mut forms: Vec<Form> =
            EXAMPLES.iter().map(|text| common::form_of(&serde_json::from_str(text).unwrap())).collect();
        forms.push(common::form_of(&common::form3()));
        forms
    })
}

/// At most this many events per input, so that one input stays fast.
const MOST: usize = 400;

fn events(data: &[u8]) -> Vec<Event> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() && out.len() < MOST {
        let b = data[i];
        i += 1;
        let args = &data[i..];
        let arg = |k: usize| args.get(k).copied().unwrap_or(0);
        let text = |from: usize, n: usize| {
            String::from_utf8_lossy(args.get(from..(from + n).min(args.len())).unwrap_or_default())
                .into_owned()
        };
        let event = match b {
            0..=199 => Event::key(KeyPress::parse(common::KEYS[b as usize % common::KEYS.len()]).unwrap()),
            200..=207 => {
                let n = arg(0) as usize % 12;
                let pasted = text(1, n);
                i += 1 + n;
                Event::TextPasted { text: pasted }
            }
            208..=211 => {
                let size = Size { width: u16::from(arg(0)) + 1, height: u16::from(arg(1)) % 70 + 1 };
                i += 2;
                Event::TerminalResized { size }
            }
            212..=215 => {
                let n = arg(0) as usize % 6;
                let query = text(1, n % 3);
                let items = (0..n).map(|k| format!("src/{k}/{query}.rs")).collect();
                i += 1 + n % 3;
                Event::CompletionsOffered { query, items }
            }
            216 => {
                i += 1;
                Event::TimedOut { seconds: u64::from(arg(0)) + 1 }
            }
            217 => Event::FlowResumed,
            218 => {
                i += 1;
                Event::SummaryClamped {
                    edge: if arg(0).is_multiple_of(2) { SummaryEdge::Top } else { SummaryEdge::End },
                }
            }
            219 => {
                i += 1;
                Event::PreviewClamped { line: arg(0) as usize }
            }
            220..=223 => {
                i += 1;
                let breaks = if b.is_multiple_of(2) { Breaks::Spaces } else { Breaks::Words };
                Event::EditorWrapped { width: u16::from(arg(0)), breaks }
            }
            224..=227 => {
                let bits = arg(0);
                i += 1;
                let mut settings = Settings::default();
                settings.behaviour.auto_submit_when_answered_without_notes = bits & 1 != 0;
                settings.behaviour.confirm_dismiss_when_dirty = bits & 2 != 0;
                settings.behaviour.double_press_review_shortcuts = bits & 4 != 0;
                let notices = if bits & 8 != 0 { vec!["keymaps: unusable".to_owned()] } else { vec![] };
                Event::SettingsChanged { settings: Box::new(settings), notices }
            }
            _ => {
                i += 1;
                Event::key(KeyPress::parse(common::KEYS[arg(0) as usize % common::KEYS.len()]).unwrap())
            }
        };
        out.push(event);
    }
    out
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let forms = forms();
    let opened = common::opened(forms[pick as usize % forms.len()].clone(), Settings::default());
    let events = events(rest);
    let mut state = FlowState::default();
    state.apply(&opened);
    for event in &events {
        state.apply(event);
        common::check_invariants(&state);
    }
    assert_eq!(FlowState::replay(std::iter::once(&opened).chain(&events)), state);
});
