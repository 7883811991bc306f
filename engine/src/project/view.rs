//! A view model for frontends: everything a screen shows, computed from state alone.

use ask_schema::QuestionType;

use super::review::ReviewEntry;
use crate::settings::Toggle;
use crate::state::{EditorTarget, ExitAction, FlowState, ReviewAction, SummaryScroll};

/// The whole screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewModel {
    /// The form title.
    pub title: Option<String>,
    /// The tabs a strip as wide as the terminal can show on either side of the active one (at
    /// most [`TAB_WINDOW`]), of one tab per question and then the review tab: `tabs[0]` is tab
    /// `tabs_first` of `tabs_total`. Each label is cut to as many characters as the terminal
    /// has columns.
    pub tabs: Vec<TabView>,
    /// Which tab `tabs[0]` is.
    pub tabs_first: usize,
    /// How many tabs there are: the questions and the review tab.
    pub tabs_total: usize,
    /// What the active tab shows.
    pub body: Body,
    /// The settings overlay, when open.
    pub overlay: Option<OverlayView>,
    /// The dirty-dismiss warning, when showing.
    pub warning: Option<String>,
    /// A config problem (a broken file moved aside, keymaps not used), said from the first
    /// frame on while the settings overlay, which lists them all, is closed (issue 12.13).
    pub notice: Option<String>,
    /// Footer key hints; `None` when `Show footer hints` is off.
    pub footer: Option<Vec<Hint>>,
    /// `ask-user settings`: only the overlay is shown.
    pub settings_only: bool,
    /// Seconds left before the form times out, shown in its last 30 s. The runtime's clock
    /// sets it on the view it draws; the state never holds it.
    pub countdown: Option<u64>,
}

/// A tab in the strip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabView {
    /// Tab name.
    pub label: String,
    /// The question has a committed answer.
    pub answered: bool,
    /// The payload marked the question `required` (advisory: it never blocks submission).
    pub required: bool,
    /// The tab is showing.
    pub active: bool,
}

/// The active tab's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// A question tab.
    Question(Box<QuestionView>),
    /// The review tab.
    Review(ReviewView),
}

/// An open editor: its text, where the cursor is (byte offset), and the paths offered for an
/// `@` reference being typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorView {
    /// The editor's text lines within [`EDITOR_WINDOW_LINES`] lines of the cursor's: all of
    /// any text shorter than that, and every line a pane of fewer rows scrolled to the cursor
    /// can show, laid out as in the whole text. A pasted log of 100 000 lines is not copied
    /// into every frame's view.
    pub text: String,
    /// Cursor, as a byte offset into `text`.
    pub cursor: usize,
    /// Paths offered for an `@` reference.
    pub completions: Vec<String>,
    /// The highlighted offered path.
    pub selected: usize,
    /// The width the state last heard editors are drawn at, and the rule their rows broke by: a
    /// frame drawing this editor otherwise records its own ([`crate::Event::EditorWrapped`]).
    pub recorded_wrap: Option<(u16, crate::editor::Breaks)>,
}

/// A question tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionView {
    /// The full question.
    pub prompt: String,
    /// single, multi or preview.
    pub kind: QuestionType,
    /// An `/answer` free-form question: only `Type your answer:` and the editor.
    pub freeform: bool,
    /// The saved question note ("" when none).
    pub note: String,
    /// The question-note editor, when open.
    pub note_editor: Option<EditorView>,
    /// The rows around the cursor (declared options, then the custom row; a filter hides
    /// some): a window, not the whole list, so a view costs what a screen can show.
    pub rows: Vec<RowView>,
    /// The cursor's index in `rows`.
    pub cursor: usize,
    /// How many rows shown come before `rows[0]`.
    pub first: usize,
    /// How many rows are shown in all (the custom row included).
    pub total: usize,
    /// The highlighted option's preview (preview questions, not on the custom row).
    pub preview: Option<PreviewView>,
    /// The preview's first text line on screen (0: the top, with the description). A line can
    /// wrap into several rows; the frontend fills the last page from above when the preview
    /// ends before the pane does, and records that with [`crate::Event::PreviewClamped`].
    pub preview_scroll: usize,
    /// The row filter: `rows` then holds only the rows it shows (with their declared numbers).
    pub filter: Option<FilterView>,
}

/// The row filter's query line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterView {
    /// The typed text.
    pub query: String,
    /// Keys go to the query (the terminal cursor belongs at its end).
    pub editing: bool,
    /// The query's words, lowered: a frontend marks where they lie in the rows it draws
    /// ([`marks`]).
    pub words: Vec<String>,
    /// Options matching the query.
    pub matches: usize,
    /// Options on the question.
    pub options: usize,
}

/// One option row or the custom row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowView {
    /// 1-based number shown before the label (digits 1–9 select it).
    pub number: usize,
    /// Option label.
    pub label: String,
    /// Option description.
    pub description: Option<String>,
    /// Whether the row is selected.
    pub selected: bool,
    /// Whether this is the `Type your own` row.
    pub custom: bool,
    /// The option note (or, on the custom row, the saved free-form text).
    pub text: String,
    /// The editor open on this row (option note, or the answer on the custom row).
    pub editor: Option<EditorView>,
}

/// The preview pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewView {
    /// The highlighted option label.
    pub label: String,
    /// Its description.
    pub description: Option<String>,
    /// The form the preview text lives in, shared: a view built on every key must not copy a
    /// preview of a million lines (issue 15.3).
    form: std::sync::Arc<ask_schema::Form>,
    question: usize,
    option: usize,
}

impl PreviewView {
    /// The preview text.
    pub fn text(&self) -> &str {
        self.form.questions[self.question].options[self.option].preview.as_deref().unwrap_or("")
    }
}

/// The review tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewView {
    /// Submit, Elaborate, Cancel.
    pub actions: [ReviewAction; 3],
    /// The action under the cursor.
    pub highlighted: ReviewAction,
    /// The answer summary (D19), or the part of it a screen of the terminal's height can show
    /// from the scroll position (each entry takes a line or more): entries `summary_first..`
    /// of `summary_total`. A view for an unknown height carries all of them.
    pub summary: Vec<ReviewEntry>,
    /// How many entries come before `summary[0]` (left out: the summary is scrolled to its end).
    pub summary_first: usize,
    /// How many entries the whole summary has, one per question.
    pub summary_total: usize,
    /// The double-press hint, e.g. `Press 1 again to Submit`.
    pub hint: Option<String>,
    /// How far the summary is scrolled (PageUp/PageDown/Home/End), from its top or its end;
    /// the frontend resolves it against the lines it draws.
    pub scroll: SummaryScroll,
    /// What undo would take back (`Ctrl+Z takes back: Lang: selected “Rust”`).
    pub undo: Option<String>,
}

/// The settings overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverlayView {
    /// Each toggle's title and value, in the contract's order.
    pub toggles: Vec<(String, bool)>,
    /// The focused toggle.
    pub focus: usize,
    /// What the focused toggle does.
    pub description: String,
    /// Config notices and the last save error.
    pub notices: Vec<String>,
}

/// A footer hint: a key label and what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The key label, e.g. `Ctrl+K`.
    pub key: String,
    /// What it does.
    pub action: String,
}

fn editor_view(state: &FlowState, target: EditorTarget) -> Option<EditorView> {
    let e = state.editor.as_ref().filter(|e| e.target == target)?;
    let (completions, selected) =
        state.completion.as_ref().map_or((Vec::new(), 0), |c| (c.items.clone(), c.selected));
    let (text, cursor) = (e.buffer.text(), e.buffer.cursor());
    let window = crate::editor::lines_near(text, cursor, EDITOR_WINDOW_LINES);
    Some(EditorView {
        cursor: cursor - window.start,
        text: text[window].to_owned(),
        completions,
        selected,
        recorded_wrap: state.editor_wrap,
    })
}

/// How many tabs on either side of the active one a [`ViewModel`] carries at most: all a strip
/// of 768 columns can show (a tab takes three cells or more). A view for a known width carries
/// what a strip that wide can show.
pub const TAB_WINDOW: usize = 256;

/// How many text lines above and below the cursor's an [`EditorView`] carries: more than any
/// pane is tall (a frontend's panes must stay below it; the terminal frontend's are at most
/// 1 000 rows), so a pane's own window of lines near the cursor never reaches the edge of this
/// one unless that is the text's own edge.
pub const EDITOR_WINDOW_LINES: usize = 1024;

/// The most characters of one text (a label, a prompt, a note, an answer) a view carries: 64 full
/// rows of a 1000-column terminal, more than any screen shows of one item. A 10 MB label then
/// costs a frame what a screenful costs. The result always carries the whole text.
pub const MAX_SHOWN_CHARS: usize = 64 * 1024;

/// The start of `s` that any frame could show ([`MAX_SHOWN_CHARS`] characters at most).
pub fn screenful(s: &str) -> &str {
    first_chars(s, MAX_SHOWN_CHARS)
}

/// The first `n` characters of `s` (all of it when shorter), cut on a character boundary.
pub fn first_chars(s: &str, n: usize) -> &str {
    if s.len() <= n {
        return s;
    }
    // Payload text is mostly ASCII: when the first `n` bytes are, they are the first `n`
    // characters, and checking that is a fast byte scan instead of a walk decoding each one
    // (this runs on every key for every text on screen, up to 64 Ki characters each).
    if s.as_bytes()[..n].is_ascii() {
        return &s[..n];
    }
    s.char_indices().nth(n).map_or(s, |(end, _)| &s[..end])
}

impl FlowState {
    /// Everything a frontend needs to draw the current screen.
    pub fn view(&self) -> ViewModel {
        let n = self.form.questions.len();
        // A strip shows only the tabs its width holds on either side of the active one, and
        // of each label only as many characters as it has cells (a tab takes three cells or
        // more: its name between two spaces, and a separator): a form of 100 000 questions,
        // or of long labels, costs a frame what 20 short ones do.
        let cells = usize::from(self.size.width);
        let (window, label_chars) =
            if cells == 0 { (TAB_WINDOW, MAX_SHOWN_CHARS) } else { ((cells / 3 + 1).min(TAB_WINDOW), cells) };
        let tabs_first = self.tab.min(n).saturating_sub(window);
        let shown = tabs_first..(self.tab + window + 1).min(n);
        let mut tabs: Vec<TabView> = self.form.questions[shown.clone()]
            .iter()
            .zip(&self.questions[shown.clone()])
            .zip(shown)
            .map(|((q, qs), i)| TabView {
                label: first_chars(&q.label, label_chars).to_owned(),
                answered: qs.is_committed(),
                required: q.required,
                active: i == self.tab,
            })
            .collect();
        if self.tab + window >= n {
            tabs.push(TabView {
                label: "Review".to_owned(),
                answered: false,
                required: false,
                active: self.tab >= n,
            });
        }
        let body = match self.question_view() {
            Some(q) => Body::Question(Box::new(q)),
            None => Body::Review(self.review_view()),
        };
        ViewModel {
            title: self.form.title.as_deref().map(|t| screenful(t).to_owned()),
            tabs,
            tabs_first,
            tabs_total: n + 1,
            body,
            overlay: self.overlay.map(|o| self.overlay_view(o.focus)),
            warning: self.warning.map(|w| self.warning_text(w)),
            notice: (self.overlay.is_none() && !self.notices.is_empty()).then(|| {
                let more = if self.notices.len() > 1 {
                    format!(" (+{} more)", self.notices.len() - 1)
                } else {
                    String::new()
                };
                format!("Config: {}{more} · ? shows details", screenful(&self.notices[0]))
            }),
            footer: self.settings.behaviour.show_footer_hints.then(|| self.hints()),
            settings_only: self.is_settings_only(),
            countdown: None,
        }
    }

    fn question_view(&self) -> Option<QuestionView> {
        let (q, qs) = self.current()?;
        let declared = q.declared_rows();
        // The rows shown (a filter hides some), as declared indices; the custom row is `declared`.
        let shown = self.shown();
        let total = shown.len();
        let at = |k: usize| shown.row(k);
        // The cursor's place among the rows shown.
        let cursor = if shown.holds(self.cursor) { shown.before(self.cursor) } else { total - 1 };
        // Only a window of rows around the cursor: a screen never shows more than its height
        // above or below it, and a form may have a million options (issue 15.3).
        let reach = usize::from(self.size.height).max(24) + 1;
        let first = cursor.saturating_sub(reach);
        let end = (cursor + reach + 1).min(total);
        let row = |i: usize| {
            if i == declared {
                return RowView {
                    number: declared + 1,
                    label: if q.is_freeform() { "Type your answer:".into() } else { "Type your own".into() },
                    description: None,
                    selected: qs.custom_selected(),
                    custom: true,
                    text: screenful(qs.custom_text()).to_owned(),
                    editor: editor_view(self, EditorTarget::Answer),
                };
            }
            let o = &q.options[i];
            RowView {
                number: i + 1,
                label: screenful(&o.label).to_owned(),
                description: o.description.as_deref().map(|d| screenful(d).to_owned()),
                selected: qs.is_selected(i),
                custom: false,
                text: screenful(qs.option_note(i)).to_owned(),
                editor: editor_view(self, EditorTarget::OptionNote(i)),
            }
        };
        let rows: Vec<RowView> = (first..end).map(|k| row(at(k))).collect();
        let filter = self.filter.as_ref().map(|f| FilterView {
            query: f.query.clone(),
            editing: f.editing,
            words: f.words(),
            matches: total - 1,
            options: declared,
        });
        let preview = (q.kind == QuestionType::Preview)
            .then(|| q.options.get(self.cursor))
            .flatten()
            .filter(|_| self.cursor < declared)
            .map(|o| PreviewView {
                label: screenful(&o.label).to_owned(),
                description: o.description.as_deref().map(|d| screenful(d).to_owned()),
                form: std::sync::Arc::clone(&self.form),
                question: self.tab,
                option: self.cursor,
            });
        Some(QuestionView {
            prompt: screenful(&q.prompt).to_owned(),
            kind: q.kind,
            freeform: q.is_freeform(),
            note: screenful(qs.note()).to_owned(),
            note_editor: editor_view(self, EditorTarget::QuestionNote),
            cursor: cursor - first,
            first,
            total,
            rows,
            preview,
            preview_scroll: self.preview_scroll,
            filter,
        })
    }

    fn overlay_view(&self, focus: usize) -> OverlayView {
        let b = &self.settings.behaviour;
        let mut notices = self.notices.clone();
        notices.extend(self.save_error.clone());
        OverlayView {
            toggles: Toggle::ALL.iter().map(|t| (t.title().to_owned(), b.get(*t))).collect(),
            focus,
            description: Toggle::ALL[focus % Toggle::ALL.len()].description().to_owned(),
            notices,
        }
    }

    fn warning_text(&self, action: ExitAction) -> String {
        let km = &self.settings.keymaps;
        let (key, verb) = match action {
            ExitAction::Cancel => (km.cancel.label(), "cancel"),
            ExitAction::Dismiss => (km.dismiss.label(), "dismiss"),
        };
        format!("You have unsaved answers or notes. Press {key} again to {verb} the form.")
    }
}

mod hints;
mod marks;

pub(crate) use marks::ascii_places;
pub use marks::marks;
