//! A question tab: prompt, note, option rows and the custom row; the preview pane beside or
//! under them is drawn by [`super::preview`].

use ask_engine::Event;
use ask_engine::project::view::{QuestionView, RowView};
use ask_schema::QuestionType;
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::{Position, Rect};
use tuirealm::ratatui::text::{Line, Span};

use crate::layout::QuestionAreas;

use super::lines::{Lines, marked_lines};
use crate::style;
use crate::text::{MAX_LINES, sanitize, shown, wrap};

/// Draws a question into the areas [`crate::layout`] gave it. The prompt and the question note
/// stay put above the options, across the full width (also over a side-by-side preview):
/// scrolling a long list never hides what is being asked.
/// Returns what the flow is to record: the line the preview moves back to when its scroll
/// position lay past its last page, and the width an open editor was drawn at when it is not
/// the one recorded.
pub fn render(frame: &mut Frame, areas: &QuestionAreas, q: &QuestionView) -> Vec<Event> {
    let mut recorded = Vec::new();
    let head = head_lines(q, areas.head.width as usize);
    let preview = q.preview.as_ref();
    let (list_area, preview_area) = (areas.list, areas.preview);
    let list = question_lines(q, list_area.width as usize, list_area.height as usize, areas.descriptions);
    if let Some(width) = head.editor_width.or(list.lines.editor_width) {
        recorded.push(Event::EditorWrapped { width, breaks: super::lines::BREAKS });
    }
    draw_head(frame, areas.head, head);
    draw_list(frame, list_area, list, q.first + q.cursor, q.total);
    if let (Some(p), Some(pa)) = (preview, preview_area) {
        let clamped = super::preview::render(frame, pa, p, q.preview_scroll);
        recorded.extend(clamped.map(|line| Event::PreviewClamped { line }));
    }
    recorded
}

/// Draws a question's head. A question-note editor taller than the head scrolls to its cursor
/// under the prompt's first line, which stays (issue 12.24: it is never dropped).
/// A head cut short with no editor in it (a long prompt on a short screen) ends its last
/// shown line with `…`, so a cut prompt does not read as the whole question.
fn draw_head(frame: &mut Frame, area: Rect, mut lines: Lines) {
    let height = area.height as usize;
    if lines.cursor.is_none() && lines.lines.iter().skip(height).any(|l| l.width() > 0) {
        lines.lines.truncate(height);
        if let Some(last) = lines.lines.last_mut() {
            *last = super::lines::cut(last, area.width as usize);
        }
    }
    if height < 2 || lines.scroll_for(height) == 0 {
        return draw_lines(frame, area, lines);
    }
    super::put_lines(frame, Rect { height: 1, ..area }, &lines.lines[..1]);
    let top = lines.scroll_for(height - 1).max(1);
    draw_lines_from(frame, Rect { y: area.y + 1, height: area.height - 1, ..area }, lines, top);
}

/// Draws lines scrolled so the focus row and the cursor are visible; places the cursor.
pub fn draw_lines(frame: &mut Frame, area: Rect, lines: Lines) {
    let top = lines.scroll_for(area.height as usize);
    draw_lines_from(frame, area, lines, top);
}

/// Draws lines from line `top` on; places the cursor when it is among them.
fn draw_lines_from(frame: &mut Frame, area: Rect, lines: Lines, top: usize) {
    if let Some((l, c)) = lines.cursor
        && l >= top
        && l < top + area.height as usize
        && (c as u16) < area.width
    {
        frame.set_cursor_position(Position { x: area.x + c as u16, y: area.y + (l - top) as u16 });
    }
    // Hand ratatui only the visible lines: it would lay out the skipped ones too.
    let visible = lines.lines.get(top..).unwrap_or_default();
    super::put_lines(frame, area, visible);
}

/// Lines the pinned head takes at `width`.
pub fn head_height(q: &QuestionView, width: usize) -> usize {
    head_lines(q, width).len()
}

/// Lines the option list takes at `width`, laying out at most `cap` of them.
pub fn list_height(q: &QuestionView, width: usize, cap: usize, descriptions: bool) -> usize {
    if q.total > cap {
        return cap; // every row takes a line at least
    }
    question_lines(q, width, cap, descriptions).lines.len()
}

/// The pinned head of a question: its prompt, its note (or the note's editor), a blank line.
fn head_lines(q: &QuestionView, max: usize) -> Lines {
    let mut out = Lines::default();
    out.wrapped(&q.prompt, 0, max, style::bold());
    if let Some(e) = &q.note_editor {
        out.push(vec![Span::styled("Question note:", style::note())]);
        // The head is never taller than the screen.
        out.editor_view(e, 2, max, MAX_LINES, "Add a note for this question…");
        out.focus = Some((0, out.len().saturating_sub(1)));
    } else if !q.note.is_empty() {
        out.wrapped(&format!("✎ {}", q.note), 0, max, style::note());
    }
    if let Some(f) = &q.filter {
        filter_line(&mut out, f, max);
    }
    out.blank();
    out
}

/// `/ query   3 of 60` under the prompt; the terminal cursor at the query's end while typing.
/// A query longer than its room is cut at the start while it is typed (what is being typed
/// shows), at the end once applied.
fn filter_line(out: &mut Lines, f: &ask_engine::project::view::FilterView, max: usize) {
    let query = sanitize(&f.query, false);
    let count = format!("  {} of {} options", f.matches, f.options);
    let room = max.saturating_sub(2 + crate::text::width(&count)).max(1);
    let cut = if f.editing { crate::text::truncate_start } else { crate::text::truncate };
    let shown = cut(&query, room);
    if f.editing {
        out.cursor = Some((out.len(), 2 + crate::text::width(&shown)));
    }
    let query_style = if f.editing { style::accent() } else { style::bold() };
    out.push(vec![
        Span::styled("/ ", style::accent()),
        Span::styled(shown, query_style),
        Span::styled(count, style::dim()),
    ]);
}

/// The laid-out part of an option list.
struct ListLines {
    lines: Lines,
    /// The row the first laid-out line belongs to.
    first: usize,
    /// Where each laid-out row starts, in order from `first`.
    starts: Vec<usize>,
}

/// The option rows of a question. Only rows that can be on screen are laid out: every row
/// takes at least one line, so rows more than `height` away from the cursor row never show.
fn question_lines(q: &QuestionView, max: usize, height: usize, descriptions: bool) -> ListLines {
    let mut out = Lines::default();
    let first = q.cursor.saturating_sub(height);
    if q.freeform {
        custom_row(&mut out, q.rows.last(), CustomRow::FreeForm, max, height);
        out.focus = Some((0, out.len().saturating_sub(1)));
        return ListLines { lines: out, first: q.first, starts: vec![0] };
    }
    let mut starts = Vec::new();
    for (i, row) in q.rows.iter().enumerate().skip(first).take(q.cursor - first + height + 1) {
        let start = out.len();
        starts.push(start);
        if row.custom {
            let numbered = CustomRow::Numbered {
                here: i == q.cursor,
                digits: number_width(q),
                multi: q.kind == QuestionType::Multi,
            };
            custom_row(&mut out, Some(row), numbered, max, height)
        } else {
            option_row(&mut out, row, q, i, max, height, descriptions)
        }
        if i == q.cursor {
            out.focus = Some((start, out.len().saturating_sub(1)));
        }
    }
    // `first` among all the rows shown, for the "N more" markers.
    ListLines { lines: out, first: q.first + first, starts }
}

/// Draws an option list scrolled to its cursor, with `↑ N more` / `↓ N more · PgDn` rows when
/// options are out of sight (issue 12.6); the marker rows never cover the cursor's row. Two rows
/// keep one marker (what is below first); a single row ends in `k/N` (issue 12.24).
/// A row typed into (an option note, a long custom answer) that is taller than the list keeps
/// its first line above the lines being typed: text under no label would not say what it
/// belongs to. On three rows that first line takes the place of one marker, and the other
/// says both counts.
fn draw_list(frame: &mut Frame, area: Rect, list: ListLines, cursor_row: usize, total_rows: usize) {
    let height = area.height as usize;
    let focus = list.lines.focus.map_or(0, |(start, _)| start);
    let (mut above_row, mut below_row, mut merged) = (false, false, false);
    let (mut top, mut above, mut below) = (0, 0, 0);
    for _ in 0..4 {
        let markers = if merged { 1 } else { usize::from(above_row) + usize::from(below_row) };
        let room = height.saturating_sub(markers).max(1);
        top = list.lines.scroll_for(room);
        // A row cut at the top would show its description without its label: start at the
        // next whole row instead, as long as that is not past the focus row.
        if let Some(&next) = list.starts.iter().find(|&&s| s >= top)
            && next <= focus
        {
            top = next;
        }
        // The focus row is on screen even when its first line is scrolled past.
        above = list.first + list.starts.iter().filter(|&&s| s < top && s != focus).count();
        let shown = list.starts.iter().filter(|&&s| s < top + room).count();
        below = total_rows.saturating_sub(list.first + shown);
        let wanted = match height {
            0 | 1 => (false, false, false),
            2 => (above > 0 && below == 0, below > 0, false),
            _ => (above > 0, below > 0, above > 0 && below > 0 && (merged || room < 2 && top > focus)),
        };
        if wanted == (above_row, below_row, merged) {
            break;
        }
        (above_row, below_row, merged) = wanted;
    }
    let marker = |text: String| Line::from(Span::styled(text, style::dim()));
    let mut body = area;
    if above_row && !merged {
        super::put_lines(frame, Rect { height: 1, ..area }, &[marker(format!("  ↑ {above} more"))]);
        body = Rect { y: body.y + 1, height: body.height - 1, ..body };
    }
    if below_row {
        let last = Rect { y: body.y + body.height - 1, height: 1, ..body };
        let text = if merged {
            let both = format!("  ↑ {above} ↓ {below} more · PgUp/PgDn");
            if both.chars().count() <= area.width as usize {
                both
            } else {
                format!("  ↑ {above} ↓ {below} more")
            }
        } else {
            format!("  ↓ {below} more · PgDn")
        };
        super::put_lines(frame, last, &[marker(text)]);
        body = Rect { height: body.height - 1, ..body };
    }
    if top > focus && body.height >= 2 {
        // The row's first line over the last rows of the list, the line under it giving way.
        super::put_lines(
            frame,
            Rect { height: 1, ..body },
            list.lines.lines.get(focus..=focus).unwrap_or_default(),
        );
        body = Rect { y: body.y + 1, height: body.height - 1, ..body };
        top += 1;
    }
    let Lines { lines, cursor, .. } = list.lines;
    if let Some((l, c)) = cursor
        && l >= top
        && l < top + body.height as usize
        && (c as u16) < body.width
    {
        frame.set_cursor_position(Position { x: body.x + c as u16, y: body.y + (l - top) as u16 });
    }
    super::put_lines(frame, body, lines.get(top..).unwrap_or_default());
    if height == 1 && above + below > 0 {
        let text = format!(" {}/{total_rows}", cursor_row + 1);
        let w = (text.len() as u16).min(area.width);
        let at = Rect { x: area.x + area.width - w, width: w, height: 1, ..area };
        frame.buffer_mut().set_style(at, style::dim());
        super::put_lines(frame, at, &[marker(text)]);
    }
}

fn pointer(on: bool) -> Span<'static> {
    if on { Span::styled("❯ ", style::accent()) } else { Span::raw("  ") }
}

/// Row numbers are right-aligned in a column as wide as the largest (issue 12.9).
fn number_width(q: &QuestionView) -> usize {
    // The custom row has the largest number (options + 1), whether or not it is in the
    // window; a filter leaves fewer rows shown but the same numbers.
    let largest = q.filter.as_ref().map_or(q.total, |f| f.options + 1);
    largest.to_string().len()
}

/// `  12. [x] ` — pointer, right-aligned number, and on multi questions the box.
fn row_head(here: bool, number: usize, digits: usize, multi: Option<bool>) -> (Vec<Span<'static>>, usize) {
    let mut head = vec![pointer(here), Span::styled(format!("{number:>digits$}. "), style::dim())];
    if let Some(selected) = multi {
        head.push(Span::raw(if selected { "[x] " } else { "[ ] " }));
    }
    // Continuation lines and descriptions start under the label.
    (head, 2 + digits + 2 + if multi.is_some() { 4 } else { 0 })
}

fn option_row(
    out: &mut Lines,
    row: &RowView,
    q: &QuestionView,
    i: usize,
    max: usize,
    height: usize,
    descriptions: bool,
) {
    let here = i == q.cursor;
    let multi = (q.kind == QuestionType::Multi).then_some(row.selected);
    let (mut head, indent) = row_head(here, row.number, number_width(q), multi);
    let label_style = if row.selected {
        style::selected()
    } else if here {
        style::accent()
    } else {
        Default::default()
    };
    let width = max.saturating_sub(indent);
    // A label taller than the list shows its first screenful.
    let text = sanitize(shown(&row.label, width, height.max(1)), false);
    let label = wrap(&text, width);
    let words = q.filter.as_ref().map_or(&[][..], |f| f.words.as_slice());
    for (n, part) in marked_lines(&text, &label, label_style, words).take(height.max(1)).enumerate() {
        if n == 0 {
            head.extend(part);
            if row.selected && q.kind != QuestionType::Multi {
                head.push(Span::styled(" ✓", style::selected()));
            }
            out.push(std::mem::take(&mut head));
        } else {
            let mut line = vec![Span::raw(" ".repeat(indent))];
            line.extend(part);
            out.push(line);
        }
    }
    if let Some(d) = row.description.as_ref().filter(|_| descriptions) {
        out.wrapped_marked(d, indent, max, style::dim(), words);
    }
    if let Some(e) = &row.editor {
        out.push(vec![Span::raw(" ".repeat(indent)), Span::styled("Option note:", style::note())]);
        out.editor_view(e, indent + 2, max, height, "Add a note for this option…");
    } else if !row.text.is_empty() {
        out.wrapped(&format!("✎ {}", row.text), indent, max, style::note());
    }
}

/// How the `Type your own` row is drawn.
#[derive(Clone, Copy)]
enum CustomRow {
    /// An `/answer` free-form question: `Type your answer:`, no number, no pointer.
    FreeForm,
    /// The numbered last row of a question; `here` when the cursor is on it.
    Numbered { here: bool, digits: usize, multi: bool },
}

fn custom_row(out: &mut Lines, row: Option<&RowView>, kind: CustomRow, max: usize, height: usize) {
    let Some(row) = row else { return };
    let indent = match kind {
        CustomRow::FreeForm => {
            out.push(vec![Span::styled("Type your answer:", style::bold())]);
            2
        }
        CustomRow::Numbered { here, digits, multi } => {
            let label_style = if row.selected { style::selected() } else { Default::default() };
            // On a multi question the custom row has its box like the others (issue 12.8).
            let (mut head, indent) = row_head(here, row.number, digits, multi.then_some(row.selected));
            head.push(Span::styled(row.label.clone(), label_style));
            out.push(head);
            indent
        }
    };
    if let Some(e) = &row.editor {
        out.editor_view(e, indent, max, height, "Type your answer… (@ inserts a file path)");
    } else if !row.text.is_empty() {
        let mark = if row.selected { "✓ " } else { "" };
        out.wrapped(
            &format!("{mark}{}", row.text),
            indent,
            max,
            if row.selected { style::selected() } else { style::dim() },
        );
    }
}
