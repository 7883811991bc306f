//! Events: the facts a flow's log records, in the order they happened.

use std::sync::Arc;

use ask_schema::{Form, FormSource};
use serde::{Deserialize, Serialize};

use crate::key::KeyPress;
use crate::settings::Settings;

/// The terminal size in cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Size {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
}

impl Default for Size {
    fn default() -> Self {
        Size { width: 80, height: 24 }
    }
}

/// Where a flow came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// A tool call or an `/answer` extraction.
    pub source: FormSource,
    /// The command that opened it (`ask`, `replay`, `answer`, `settings`).
    #[serde(default)]
    pub command: String,
}

impl Origin {
    /// A flow opened by the `ask_user` tool.
    pub fn tool() -> Origin {
        Origin { source: FormSource::Tool, command: "ask".to_owned() }
    }
}

/// One fact in a flow's log. Anything from outside the fold (terminal, file system, settings
/// file) enters as an event field, so folding a log is deterministic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Event {
    /// The first event: the normalized form and everything in force when it opened.
    FlowOpened {
        /// The normalized form.
        form: Arc<Form>,
        /// Behaviour and keymaps in force (boxed, as in every variant that carries them: a key
        /// event is the common one, and an event is as large as its largest variant).
        settings: Box<Settings>,
        /// Where the form came from.
        origin: Origin,
        /// The terminal size.
        size: Size,
        /// Problems met while loading the config (e.g. unusable keymaps), shown in the overlay.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notices: Vec<String>,
    },
    /// A key was pressed.
    KeyPressed {
        /// The key, normalized.
        key: KeyPress,
    },
    /// Text arrived as one bracketed paste.
    TextPasted {
        /// The pasted text, as the terminal sent it.
        text: String,
    },
    /// The terminal was resized.
    TerminalResized {
        /// The new size.
        size: Size,
    },
    /// Settings changed while the flow was open (config reload or a script's `set`).
    SettingsChanged {
        /// The settings now in force.
        settings: Box<Settings>,
        /// Problems met while loading them (e.g. unusable keymaps), shown in the overlay.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notices: Vec<String>,
    },
    /// Saving a toggle from the overlay failed: these settings are back in force.
    SettingsSaveFailed {
        /// The settings back in force.
        settings: Box<Settings>,
        /// Why the save failed, shown in the overlay.
        message: String,
    },
    /// Paths offered for an `@` reference being typed (read from the file system by the host,
    /// so replay never reads it).
    CompletionsOffered {
        /// The text after `@` the paths were found for.
        query: String,
        /// The paths, best first.
        items: Vec<String>,
    },
    /// The form's time ran out (issue 13.1). The runtime's clock decides when; the log records
    /// it, so a replay never reads the clock. The flow closes with what was saved so far.
    TimedOut {
        /// The timeout that ran out, in seconds.
        seconds: u64,
    },
    /// A timed-out flow was opened again (`ask-user resume`, or `ask --id` with its id): it
    /// goes on where it stopped. Changes nothing on any other flow.
    FlowResumed,
    /// The review summary was drawn at one of its ends because its scroll position lay past
    /// that end. Only the frontend knows how many lines the summary takes at the width it is
    /// drawn at; from here on the position counts from that end, so the next PageUp or PageDown
    /// moves the summary at once instead of first using up lines nobody saw.
    SummaryClamped {
        /// The end the summary was drawn at.
        edge: SummaryEdge,
    },
    /// The preview pane was drawn with its last page filled up from above because its scroll
    /// position lay past that page. Only the frontend knows how many rows the preview's lines
    /// wrap into at the pane's width; from here on the position is this line, the first from
    /// which the same frame is drawn, so the next PageUp moves the pane at once.
    PreviewClamped {
        /// The text line (0-based) the scroll position moves back to.
        line: usize,
    },
    /// An open editor was drawn wrapping its text at a width, or by a rule, other than the one
    /// last recorded. Only the frontend knows how wide the editor is (the question's layout
    /// decides it); from here on Up and Down in an editor move by the rows drawn so.
    EditorWrapped {
        /// The editor's width in cells.
        width: u16,
        /// Where its rows break ([`crate::editor::Breaks::Words`] in logs older than the rule).
        #[serde(default)]
        breaks: crate::editor::Breaks,
    },
}

/// An end of the review summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SummaryEdge {
    /// Its first line.
    Top,
    /// Its last page.
    End,
}

impl Event {
    /// A key press event.
    pub fn key(key: KeyPress) -> Event {
        Event::KeyPressed { key }
    }

    /// The opening of a flow on `form` as the `ask_user` tool opens it, with the default
    /// settings and terminal size and no config notices: what a host that has no config file or
    /// terminal of its own (an embedding, a benchmark) starts a flow with.
    pub fn opened(form: impl Into<Arc<Form>>) -> Event {
        Event::FlowOpened {
            form: form.into(),
            settings: Box::default(),
            origin: Origin::tool(),
            size: Size::default(),
            notices: vec![],
        }
    }
}
