//! The folded state of one flow. Every field is derived from the log by [`FlowState::apply`].

mod filter;
mod question;

use std::sync::Arc;

use ask_schema::{Form, Question};

use crate::editor::TextBuffer;
use crate::event::{Size, SummaryEdge};
use crate::settings::Settings;

pub use filter::Filter;
pub(crate) use filter::{Narrowed, Shown, words_of};
pub use question::{Change, Changes, QuestionState};

/// One answer-changing key: the question it changed and what changed (issue 13.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoStep {
    /// The question's index.
    pub question: usize,
    /// The changes, in the order they were made.
    pub changes: Changes,
}

/// The three review-tab actions, in the order they are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReviewAction {
    #[default]
    /// Send the answers.
    Submit,
    /// Ask the agent to clarify first.
    Elaborate,
    /// Leave without answering.
    Cancel,
}

impl ReviewAction {
    /// All actions, top to bottom.
    pub const ALL: [ReviewAction; 3] = [ReviewAction::Submit, ReviewAction::Elaborate, ReviewAction::Cancel];

    /// 0-based position in the list.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The action at a 0-based position (clamped).
    pub fn at(i: usize) -> ReviewAction {
        ReviewAction::ALL[i.min(2)]
    }

    /// `Submit`, `Elaborate`, `Cancel`.
    pub fn title(self) -> &'static str {
        match self {
            ReviewAction::Submit => "Submit",
            ReviewAction::Elaborate => "Elaborate",
            ReviewAction::Cancel => "Cancel",
        }
    }
}

/// The two ways of leaving a flow that the dirty guard protects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitAction {
    /// The `cancel` binding (Esc) in navigation.
    Cancel,
    /// The `dismiss` binding (Ctrl+C), anywhere.
    Dismiss,
}

/// How a flow ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Submit chosen (or auto-submitted).
    Submitted,
    /// Elaborate chosen.
    Elaborated,
    /// Cancelled, dismissed, or the review tab's Cancel.
    Cancelled,
    /// The time ran out (issue 13.1): reported as cancelled with every answer so far, and the
    /// flow can be resumed.
    TimedOut,
}

/// What an open editor edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorTarget {
    /// The free-form answer of the current question.
    Answer,
    /// The current question's note.
    QuestionNote,
    /// The note on the declared option at this 0-based index.
    OptionNote(usize),
}

/// An open inline editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Editor {
    /// What is being edited.
    pub target: EditorTarget,
    /// The draft and its cursor.
    pub buffer: TextBuffer,
}

/// An `@` file reference being typed in an editor, and the paths offered for it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Completion {
    /// What follows the `@` up to the cursor.
    pub query: String,
    /// Paths offered for exactly this query (empty until the host offers some).
    pub items: Vec<String>,
    /// The highlighted item.
    pub selected: usize,
}

/// How far the review summary is scrolled, counted from the end it was last sent toward. Only
/// the frontend knows how many lines the summary takes at the width it draws it, so End is
/// kept as "at the end" rather than as a line number the frontend would clamp: the first
/// PageUp after End then shows the page above the end, whatever the summary's drawn length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryScroll {
    /// This many lines below the top (the frontend clamps it to the last page, and says so
    /// with [`crate::Event::SummaryClamped`]).
    Top(usize),
    /// This many lines above the last page.
    End(usize),
}

impl SummaryScroll {
    /// Right at `edge`.
    pub fn at(edge: SummaryEdge) -> SummaryScroll {
        match edge {
            SummaryEdge::Top => SummaryScroll::Top(0),
            SummaryEdge::End => SummaryScroll::End(0),
        }
    }

    /// The end this position lies past when the summary's drawn length puts its last page
    /// `last_top` lines below the top: what a frontend that drew it there reports with
    /// [`crate::Event::SummaryClamped`]. `None` when the position is within the summary.
    pub fn clamped(self, last_top: usize) -> Option<SummaryEdge> {
        match self {
            SummaryScroll::Top(n) if n > last_top => Some(SummaryEdge::End),
            SummaryScroll::End(k) if k > last_top => Some(SummaryEdge::Top),
            _ => None,
        }
    }
}

impl Default for SummaryScroll {
    fn default() -> Self {
        SummaryScroll::Top(0)
    }
}

/// The settings overlay, with the focused toggle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Overlay {
    /// The focused toggle (0–3).
    pub focus: usize,
}

/// The whole state of one flow.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FlowState {
    /// Shared, immutable for the flow's life: cloning a state or opening a flow never copies it.
    pub(crate) form: Arc<Form>,
    pub(crate) settings: Settings,
    pub(crate) notices: Vec<String>,
    pub(crate) size: Size,
    pub(crate) questions: Vec<QuestionState>,
    pub(crate) tab: usize,
    pub(crate) cursor: usize,
    /// How far the preview pane of a question is scrolled, in lines.
    pub(crate) preview_scroll: usize,
    /// How far the answer summary of the review tab is scrolled.
    pub(crate) summary_scroll: SummaryScroll,
    pub(crate) editor: Option<Editor>,
    /// The width in cells editors were last drawn wrapping at, and the rule their rows broke by
    /// ([`crate::Event::EditorWrapped`]).
    pub(crate) editor_wrap: Option<(u16, crate::editor::Breaks)>,
    pub(crate) completion: Option<Completion>,
    pub(crate) filter: Option<Filter>,
    /// Answer-changing steps that undo can take back, the last one last.
    pub(crate) done: Vec<UndoStep>,
    /// Steps taken back, which redo does again; any new step clears them.
    pub(crate) undone: Vec<UndoStep>,
    pub(crate) review_cursor: ReviewAction,
    pub(crate) armed: Option<ReviewAction>,
    pub(crate) warning: Option<ExitAction>,
    pub(crate) overlay: Option<Overlay>,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) save_error: Option<String>,
    pub(crate) opened: bool,
}

impl FlowState {
    /// The normalized form.
    pub fn form(&self) -> &Form {
        &self.form
    }
    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }
    /// Config notices recorded when the flow opened.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }
    /// The terminal size last recorded.
    pub fn size(&self) -> Size {
        self.size
    }
    /// Saved answers and notes, one per question.
    pub fn questions(&self) -> &[QuestionState] {
        &self.questions
    }
    /// The active tab: `0..n` are questions, `n` is the review tab.
    pub fn tab(&self) -> usize {
        self.tab
    }
    /// The option cursor (row index; the custom row is after the declared options).
    pub fn cursor(&self) -> usize {
        self.cursor
    }
    /// The open editor, if any.
    pub fn editor(&self) -> Option<&Editor> {
        self.editor.as_ref()
    }
    /// The `@` reference being completed in the open editor.
    pub fn completion(&self) -> Option<&Completion> {
        self.completion.as_ref()
    }
    /// The row filter on the active question, if any.
    pub fn filter(&self) -> Option<&Filter> {
        self.filter.as_ref()
    }
    /// The step undo would take back.
    pub fn last_step(&self) -> Option<&UndoStep> {
        self.done.last()
    }
    /// The review shortcut waiting for its second press.
    pub fn armed(&self) -> Option<ReviewAction> {
        self.armed
    }
    /// The exit action whose dirty warning is showing.
    pub fn warning(&self) -> Option<ExitAction> {
        self.warning
    }
    /// The settings overlay, when open.
    pub fn overlay(&self) -> Option<Overlay> {
        self.overlay
    }
    /// How the flow ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// Whether a `FlowOpened` event has been folded.
    pub fn is_opened(&self) -> bool {
        self.opened
    }
    /// A flow without questions: `ask-user settings`, the settings overlay alone.
    pub fn is_settings_only(&self) -> bool {
        self.opened && self.form.questions.is_empty()
    }
    /// Whether the review tab is active.
    pub fn on_review(&self) -> bool {
        self.tab >= self.form.questions.len()
    }
    /// Whether PageUp and PageDown move the cursor a page of options ([`crate::PAGE`]) on the
    /// active question: on one without previews (issue 12.6); on a preview question they scroll
    /// the preview instead.
    pub fn pages_options(&self) -> bool {
        self.current().is_some_and(|(q, _)| q.kind != ask_schema::QuestionType::Preview)
    }
    /// The active question and its saved state, unless the review tab is active.
    pub fn current(&self) -> Option<(&Question, &QuestionState)> {
        Some((self.form.questions.get(self.tab)?, self.questions.get(self.tab)?))
    }
}
