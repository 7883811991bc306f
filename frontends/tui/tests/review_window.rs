//! The review summary of a form of a thousand questions: the view carries only the entries a
//! screen of the terminal's height can show from the scroll position, and the frames drawn
//! from it are the frames drawn from the whole summary — but for the `↓ N more` count beyond
//! what it left out, which it gives as a floor (`↓ N+ more`). Before, every key on the review
//! tab built an entry for each question: 48 ms a key at 100 000 questions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use ask_engine::ViewModel;
use ask_engine::project::view::Body;
use ask_schema::FormSource;
use ask_tui::MemoryTerminal;
use rstest::rstest;
use serde_json::{Value, json};

/// 1 000 questions; every third one's answer is long enough to wrap to several lines.
fn long_form() -> Value {
    let questions: Vec<Value> = (1..=1000)
        .map(|i| {
            let answer = if i % 3 == 0 {
                format!("Answer {i} {}", "and more words ".repeat(8))
            } else {
                format!("A{i}")
            };
            json!({"id": format!("q{i}"), "label": format!("Question {i}"), "prompt": "?",
                   "options": [{"value": "a", "label": answer}, {"value": "b", "label": "Other"}]})
        })
        .collect();
    json!({"questions": questions})
}

/// The first 600 questions answered, the rest tabbed past, then `keys` on the review tab.
fn view_of(raw: &Value, keys: &str, width: u16, height: u16) -> ViewModel {
    let mut state = common::opened(raw, FormSource::Tool, width, height, vec![]);
    common::press(&mut state, &format!("{}{}{keys}", "1\n".repeat(600), "tab\n".repeat(400)));
    state.view()
}

fn draw(view: ViewModel, width: u16, height: u16) -> Vec<String> {
    let frame = MemoryTerminal::new(width, height, None).draw(&Arc::new(view));
    frame.lines().map(str::to_owned).collect()
}

/// The lines a `↑ N` / `↓ N more` marker row says are hidden, and whether each is a floor.
fn counts(row: &str) -> Vec<(usize, bool)> {
    row.split(['↑', '↓'])
        .skip(1)
        .filter_map(|s| {
            let n = s.split_whitespace().next()?;
            Some((n.trim_end_matches('+').parse().ok()?, n.ends_with('+')))
        })
        .collect()
}

#[rstest]
fn the_summary_a_view_leaves_out_is_none_the_screen_shows(
    #[values(
        "",
        "pageDown",
        "pageDown\npageDown\npageDown",
        "end",
        "end\npageUp",
        "end\npageUp\npageUp\npageUp\nhome"
    )]
    keys: &str,
    #[values((40, 8), (40, 24), (100, 24), (100, 60))] size: (u16, u16),
) {
    let raw = long_form();
    let (width, height) = size;
    let sized = view_of(&raw, keys, width, height);
    let whole = view_of(&raw, keys, 0, 0);
    let (Body::Review(part), Body::Review(all)) = (&sized.body, &whole.body) else {
        panic!("not on the review")
    };
    assert_eq!((all.summary_first, all.summary.len(), part.summary_total), (0, 1000, 1000));
    assert!(part.summary.len() <= 128 + 30, "{keys}: {} entries", part.summary.len());
    let first = part.summary_first;
    assert_eq!(part.summary, all.summary[first..first + part.summary.len()], "{keys}");
    let (cut, exact) = (draw(sized, width, height), draw(whole, width, height));
    let mut floors = 0;
    for (row, (c, e)) in cut.iter().zip(&exact).enumerate() {
        if !e.contains(" more · Pg") {
            assert_eq!(c, e, "{keys} {width}×{height}, row {row}:\n{}", cut.join("\n"));
            continue;
        }
        let (c, e) = (counts(c), counts(e));
        assert_eq!(c.len(), e.len(), "{keys}: {c:?} {e:?}");
        for ((shown, floor), (hidden, _)) in c.into_iter().zip(e) {
            assert!(if floor { shown <= hidden } else { shown == hidden }, "{keys}: {shown} of {hidden}");
            floors += usize::from(floor);
        }
    }
    assert_eq!(
        floors,
        1,
        "{keys} {width}×{height}: one side of the summary is left out:\n{}",
        cut.join("\n")
    );
}
