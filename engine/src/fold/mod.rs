//! The fold: `FlowState::apply(&Event)`, the one place a flow's state changes.
//!
//! The fold is total: any event in any state is accepted (events after completion, or before
//! the flow opened, change nothing), so old or odd logs always replay.

mod completion;
mod editing;
mod filter;
mod navigation;
mod overlay;
mod review;
mod undo;

/// How many options PageUp and PageDown move the cursor on a question without previews (and
/// how many lines they scroll a preview or the review's summary).
pub const PAGE: usize = 10;

use crate::event::Event;
use crate::key::KeyPress;
use crate::settings::Toggle;
use crate::state::{ExitAction, FlowState, Outcome, QuestionState, ReviewAction, SummaryScroll};

/// What the runtime must do after an event was applied.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Effects {
    /// Persist this toggle's new value to the config file (an overlay toggle). A failure comes
    /// back as [`Event::SettingsSaveFailed`].
    pub save_toggle: Option<(Toggle, bool)>,
    /// The flow has just completed.
    pub completed: Option<Outcome>,
    /// Offer paths for this `@` query: answer with [`Event::CompletionsOffered`].
    pub complete_query: Option<String>,
}

impl FlowState {
    /// Folds a whole log from the initial state.
    pub fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> FlowState {
        let mut state = FlowState::default();
        for event in events {
            state.apply(event);
        }
        state
    }

    /// Applies one event and reports the effects the runtime must carry out.
    pub fn apply(&mut self, event: &Event) -> Effects {
        let mut fx = Effects::default();
        if let Event::FlowOpened { form, settings, origin: _, size, notices } = event {
            if !self.opened {
                *self = FlowState {
                    questions: form.questions.iter().map(|q| QuestionState::new(q.options.len())).collect(),
                    form: form.clone(),
                    settings: **settings,
                    notices: notices.clone(),
                    size: *size,
                    opened: true,
                    ..FlowState::default()
                };
                self.enter_tab(0);
                if self.is_settings_only() {
                    self.overlay = Some(crate::state::Overlay::default());
                }
            }
        } else if matches!(event, Event::FlowResumed) {
            if self.outcome == Some(Outcome::TimedOut) {
                self.outcome = None;
                self.warning = None;
            }
        } else if self.opened && self.outcome.is_none() {
            match event {
                Event::KeyPressed { key } => {
                    let tab = self.tab;
                    self.key(*key, &mut fx);
                    self.journal(tab);
                }
                Event::TextPasted { text } => self.paste(text),
                Event::TerminalResized { size } => self.size = *size,
                Event::SettingsChanged { settings, notices } => {
                    self.settings = **settings;
                    self.notices.clone_from(notices);
                }
                Event::SettingsSaveFailed { settings, message } => {
                    self.settings = **settings;
                    self.save_error = Some(message.clone());
                }
                Event::CompletionsOffered { query, items } => self.offered(query, items),
                Event::SummaryClamped { edge } => self.summary_scroll = SummaryScroll::at(*edge),
                // Only ever back: a clamp never scrolls further than the keys did.
                Event::PreviewClamped { line } => self.preview_scroll = self.preview_scroll.min(*line),
                Event::EditorWrapped { width, breaks } => self.editor_wrap = Some((*width, *breaks)),
                // The settings-only flow has nothing to time out.
                Event::TimedOut { .. } if self.is_settings_only() => {}
                Event::TimedOut { .. } => self.outcome = Some(Outcome::TimedOut),
                Event::FlowOpened { .. } | Event::FlowResumed => {}
            }
        }
        self.auto_submit();
        if self.outcome.is_some() && !matches!(event, Event::FlowOpened { .. } | Event::FlowResumed) {
            fx.completed = self.outcome;
        }
        fx
    }

    fn key(&mut self, key: KeyPress, fx: &mut Effects) {
        if self.overlay.is_some() {
            return self.overlay_key(key, fx);
        }
        if self.on_review() && !matches!(key.digit(), Some(1..=3)) {
            self.armed = None; // D23: any other key disarms, then does its own job
        }
        if key == self.settings.keymaps.dismiss {
            return self.exit(ExitAction::Dismiss);
        }
        if self.editor.is_none() && self.undo_key(key) {
            return;
        }
        if self.editor.is_some() {
            return self.editor_key(key, fx);
        }
        if self.on_review() { self.review_key(key) } else { self.question_key(key) }
    }

    /// Leaves the flow, or (guard on, flow dirty) shows the warning first (D12, D13, D24).
    fn exit(&mut self, action: ExitAction) {
        if self.warning == Some(action)
            || !self.settings.behaviour.confirm_dismiss_when_dirty
            || !self.is_dirty()
        {
            self.outcome = Some(Outcome::Cancelled);
        } else {
            self.warning = Some(action);
        }
    }

    /// Whether `event` is a key that leaves the form (its cancel or dismiss binding) — once
    /// more than a warning stands between it and the end. A runtime whose store refuses writes
    /// lets such a key, refused again, end the run.
    pub fn leaves(&self, event: &Event) -> bool {
        let keys = &self.settings.keymaps;
        matches!(event, Event::KeyPressed { key } if *key == keys.cancel || *key == keys.dismiss)
    }

    /// Any saved selection, free-form text or note, or an open editor holding non-blank text.
    pub fn is_dirty(&self) -> bool {
        self.questions.iter().any(QuestionState::has_anything)
            || self.editor.as_ref().is_some_and(|e| !e.buffer.is_blank())
    }

    /// D3: on the review tab, everything answered and no note anywhere completes the flow.
    fn auto_submit(&mut self) {
        if self.outcome.is_none()
            && self.opened
            && !self.is_settings_only()
            && self.settings.behaviour.auto_submit_when_answered_without_notes
            && self.on_review()
            && self.questions.iter().all(|q| q.is_committed() && !q.has_notes())
        {
            self.outcome = Some(Outcome::Submitted);
        }
    }

    fn complete(&mut self, action: ReviewAction) {
        self.outcome = Some(match action {
            ReviewAction::Submit => Outcome::Submitted,
            ReviewAction::Elaborate => Outcome::Elaborated,
            ReviewAction::Cancel => Outcome::Cancelled,
        });
    }

    /// A paste goes into the open editor; on a question tab it opens the answer editor.
    fn paste(&mut self, text: &str) {
        if self.overlay.is_some() || self.on_review() {
            return;
        }
        if let Some(filter) = self.filter.as_mut().filter(|f| f.editing) {
            // Pasted while the query is typed: more query, on its one line.
            filter.query.extend(text.chars().map(|c| if c.is_control() { ' ' } else { c }));
            return self.query_changed();
        }
        if self.editor.is_none() {
            let Some((q, _)) = self.current() else { return };
            self.cursor = q.declared_rows();
            self.open_editor(crate::state::EditorTarget::Answer);
        }
        if let Some(editor) = self.editor.as_mut() {
            editor.buffer.insert(text);
        }
    }
}
