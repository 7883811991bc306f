//! Where each part of the screen goes: a pure function of the area and the view model, and the
//! policy for what gives way when rows run out (issue 12.24). When everything does not fit,
//! footer hints go first (one line at a time), then the blank spacer rows, then option
//! descriptions, whose rows then go back to the spacers and hints where they fit. The blank row
//! under a question's prompt counts as a spacer. The prompt's first line and the cursor's row are
//! never dropped; an option list that still does not fit scrolls, with "↑ N more" / "↓ N more"
//! (or "k/N") markers, and keeps at least half the screen: hints, then spacers, give way to it.
//! The review tab's blank rows go where a question's descriptions do, before any summary line.

use ask_engine::ViewModel;
use ask_engine::project::view::{Body, QuestionView};
use tuirealm::ratatui::layout::{Constraint, Layout, Rect};

use crate::draw::{footer, header, question};

/// Wide enough for the preview pane beside the options.
const SIDE_BY_SIDE: u16 = 90;
/// Tall enough for the preview pane under a long option list when it cannot go beside it: each
/// takes half.
const STACKED: u16 = 12;
/// The fewest rows a preview pane under a whole option list takes: its borders and three lines.
const PREVIEW_MIN: u16 = 5;
/// Rows an option list keeps when the screen is short: the cursor's row and both markers.
const LIST_MIN: u16 = 3;

/// The laid-out screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    pub header: Rect,
    /// The question or the review tab.
    pub body: Rect,
    /// Notices and warnings first, then as many hint lines as the policy kept.
    pub footer: Rect,
    /// On a question tab: its parts.
    pub question: Option<QuestionAreas>,
}

/// The parts of a question tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QuestionAreas {
    /// The pinned prompt and question note.
    pub head: Rect,
    /// The option rows.
    pub list: Rect,
    pub preview: Option<Rect>,
    /// Whether option descriptions are drawn (the last thing given up before scrolling).
    pub descriptions: bool,
}

/// How a candidate arrangement spends the rows.
#[derive(Clone, Copy)]
struct Plan {
    hints: u16,
    spacers: bool,
    descriptions: bool,
}

/// Lays out `area` for `view` (which must be big enough to draw: see [`crate::draw::MIN_WIDTH`]).
pub fn layout(area: Rect, view: &ViewModel) -> Areas {
    let width = area.width as usize;
    let header_h = header::height(view).min(area.height);
    let fixed = footer::warning_lines(view, width) as u16;
    let all_hints = footer::hint_lines(view, width) as u16;
    let question = match &view.body {
        Body::Question(q) => Some(&**q),
        Body::Review(_) => None,
    };
    // Measured once per frame: the head, and the list with and (only if asked) without its
    // descriptions, each laid out no further than the screen is tall.
    let head = question.map_or(0, |q| question::head_height(q, width) as u16);
    let with_descriptions = question.map(|q| list_needs(q, area.width, area.height, true));
    let without = std::cell::OnceCell::new();
    // A summary longer than the screen fits no plan: it is counted no further.
    let review_needs = match &view.body {
        Body::Review(r) => {
            Some(crate::draw::review::rows_needed(r, area.width, usize::from(area.height) + 1))
        }
        Body::Question(_) => None,
    };
    // A plan whose chrome overflows leaves no rows, where no list fits (every list has a row).
    let body_rows =
        |plan: Plan| area.height.saturating_sub(header_h + fixed + plan.hints + spacer_rows(plan, fixed));
    let fits = |plan: Plan| {
        // The review's blank rows go where a question's descriptions do: after the hints and
        // the spacers, before anything the user wrote.
        let (Some(q), Some(with)) = (question, with_descriptions) else {
            let needs = review_needs.map_or(usize::MAX, |n| n[usize::from(!plan.descriptions)]);
            return needs <= usize::from(body_rows(plan));
        };
        let list = if plan.descriptions {
            with
        } else {
            *without.get_or_init(|| list_needs(q, area.width, area.height, false))
        };
        head_wants(head, plan.spacers) + asks(q, area.width, list) <= body_rows(plan)
    };
    // Give up rows in the policy's order until everything fits; if nothing does, the content
    // scrolls anyway, and the hints keep at most a third of the screen, as they always had.
    // Once the descriptions are gone, the rows they freed go back to the spacers and the hints
    // (in that order): dropping them did not make room for the descriptions, so they cost nothing.
    let hints_then =
        |spacers, descriptions| (0..=all_hints).rev().map(move |hints| Plan { hints, spacers, descriptions });
    let mut candidates = hints_then(true, true)
        .chain([Plan { hints: 0, spacers: false, descriptions: true }])
        .chain(hints_then(true, false))
        .chain([Plan { hints: 0, spacers: false, descriptions: false }]);
    let plan = candidates.find(|&p| fits(p)).unwrap_or_else(|| {
        // The content scrolls: what it keeps of the screen is the list's (or the review's) part
        // of the body; the hints keep at most a third of the screen, as they always had, but
        // give way (then the spacers) to keep the scrolling part at least half of it.
        let scrolled = |plan: Plan| {
            let body = body_rows(plan);
            let (Some(q), Some(list)) = (question, with_descriptions) else { return body };
            body - head_rows(body, head_wants(head, plan.spacers), asks(q, area.width, list), list_min(q))
        };
        let room = (area.height / 3).saturating_sub(fixed);
        let plan = Plan { hints: all_hints.min(room), spacers: true, descriptions: true };
        give_way(plan, |p| scrolled(p) >= area.height.div_ceil(2))
    });
    let essential = match &view.body {
        Body::Question(_) => 1 + LIST_MIN,
        Body::Review(r) => crate::draw::review::essential_rows(r, area.width),
    };
    let plan = keep_the_essentials(plan, |p| body_rows(p) >= essential);
    let footer_h = (fixed + plan.hints).min(area.height.saturating_sub(header_h));
    let spacer = u16::from(plan.spacers);
    let [header, _, body, _, footer] = Layout::vertical([
        Constraint::Length(header_h),
        Constraint::Length(spacer),
        Constraint::Fill(1),
        Constraint::Length(if footer_h > 0 { spacer } else { 0 }),
        Constraint::Length(footer_h),
    ])
    .areas(area);
    let question = question.map(|q| {
        let list = if plan.descriptions { with_descriptions } else { without.get().copied() };
        let list = list.unwrap_or_else(|| list_needs(q, area.width, area.height, plan.descriptions));
        question_areas(body, q, (head, head_wants(head, plan.spacers)), list, plan.descriptions)
    });
    Areas { header, body, footer, question }
}

/// Makes sure the essential rows of the body still fit after the plan (`fit`) — a question's
/// prompt's first line and a minimal list; the review tab's actions, its double-press hint and
/// a row of the summary with its marker: hints and spacers give way to them.
fn keep_the_essentials(mut plan: Plan, fit: impl Fn(Plan) -> bool) -> Plan {
    if fit(plan) {
        return plan;
    }
    // A screen this short shows the rows themselves, not what describes them.
    plan.descriptions = false;
    give_way(plan, fit)
}

/// Takes hint lines from `plan`, then its spacers, until it is `enough`.
fn give_way(mut plan: Plan, enough: impl Fn(Plan) -> bool) -> Plan {
    while !enough(plan) && plan.hints > 0 {
        plan.hints -= 1;
    }
    if !enough(plan) {
        plan.spacers = false;
    }
    plan
}

/// Blank rows a plan spends: under the header, and above the footer when it has lines.
fn spacer_rows(plan: Plan, fixed: u16) -> u16 {
    match (plan.spacers, fixed + plan.hints > 0) {
        (false, _) => 0,
        (true, footer) => 1 + u16::from(footer),
    }
}

/// Rows a question's head asks for: all of it, or — when the spacers gave way — all but the
/// blank row that ends it.
fn head_wants(head: u16, spacers: bool) -> u16 {
    if spacers { head } else { head.saturating_sub(1) }
}

/// Rows the head takes of a `body` that must also hold a list of `list` rows: what it `wants`,
/// up to what leaves the list its rows (or half the body when the list is long anyway, and at
/// least `list_min` rows), and never less than the prompt's first line.
fn head_rows(body: u16, wants: u16, list: u16, list_min: u16) -> u16 {
    let room = body.saturating_sub(list).max(body / 2);
    let most = body.saturating_sub(list_min.min(list)).max(1);
    wants.min(room).min(most).max(1).min(body)
}

/// Rows a scrolling option list keeps: [`LIST_MIN`]; two (the cursor's row and one marker) while
/// a question note is typed in the head, so that on the shortest screen the head keeps both the
/// prompt's first line and the line being typed.
fn list_min(q: &QuestionView) -> u16 {
    if q.note_editor.is_some() { 2 } else { LIST_MIN }
}

/// The parts of a question tab in `body`: the head takes all of itself (`whole`) where that
/// leaves the options what they ask for, else what [`head_rows`] gives it of what it `wants` in
/// this plan.
fn question_areas(
    body: Rect,
    q: &QuestionView,
    (whole, wants): (u16, u16),
    list_want: u16,
    descriptions: bool,
) -> QuestionAreas {
    let ask = asks(q, body.width, list_want);
    // The blank under the prompt comes back wherever a spare row allows it.
    let head_h =
        if whole + ask <= body.height { whole } else { head_rows(body.height, wants, ask, list_min(q)) };
    let [head, rest] = Layout::vertical([Constraint::Length(head_h), Constraint::Fill(1)]).areas(body);
    let whole_list = list_want + PREVIEW_MIN <= rest.height;
    let (list, preview) = match q.preview {
        Some(_) if rest.width >= SIDE_BY_SIDE => {
            let left = beside_width(rest.width);
            let [list, _, preview] =
                Layout::horizontal([Constraint::Length(left), Constraint::Length(1), Constraint::Fill(1)])
                    .areas(rest);
            (list, Some(preview))
        }
        // Under the list: a whole list leaves the pane every row under it; a long one shares.
        Some(_) if whole_list || rest.height >= STACKED => {
            let list_h = if whole_list { list_want } else { rest.height / 2 };
            let [list, preview] =
                Layout::vertical([Constraint::Length(list_h), Constraint::Fill(1)]).areas(rest);
            (list, Some(preview))
        }
        _ => (rest, None),
    };
    QuestionAreas { head, list, preview, descriptions }
}

/// Rows the whole option list needs in a body `width` columns wide, or more than `cap` when it
/// cannot fit in `cap` rows (only that much is laid out). A preview beside the list narrows it.
fn list_needs(q: &QuestionView, width: u16, cap: u16, descriptions: bool) -> u16 {
    let beside = q.preview.is_some() && !pane_under(q, width);
    let list_width = if beside { beside_width(width) } else { width };
    question::list_height(q, list_width as usize, cap as usize + 1, descriptions) as u16
}

/// Whether `q`'s preview pane goes under its options (the body is too narrow for beside them).
fn pane_under(q: &QuestionView, width: u16) -> bool {
    q.preview.is_some() && width < SIDE_BY_SIDE
}

/// Rows a question's options ask for: the list's, and a preview pane under them asks for as many
/// as the list has, and at least [`PREVIEW_MIN`].
fn asks(q: &QuestionView, width: u16, list: u16) -> u16 {
    if pane_under(q, width) { list.saturating_add(list.max(PREVIEW_MIN)) } else { list }
}

/// The option list's width when the preview is beside it.
fn beside_width(width: u16) -> u16 {
    width * 45 / 100
}
