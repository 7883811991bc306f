//! One keypress end to end, in process: event → fold → view model → render of the 80×24 frame
//! into an in-memory backend. Run: `cargo bench -p ask-tui --bench render`.
//!
//! Prints p50/p99 per key over the 2 000-key scripts of the shared workload (typical and
//! stress forms) and over the typical script on a form whose previews are 20 000 lines long;
//! then keys in an answer editor holding a pasted log of 50 to 100 000 lines.
//! A flow that completes is reopened, so every key is measured. `RENDER_ONLY=text` times only
//! the rows whose label holds that text.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use ask_engine::{Event, FlowState, Settings, parse_script};
use ask_schema::{FormSource, validate};
use ask_tui::MemoryTerminal;
use serde_json::Value;

fn workload(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/workload").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// Whether the row `label` is timed in this run (`RENDER_ONLY`).
fn wanted(label: &str) -> bool {
    std::env::var("RENDER_ONLY").map_or(true, |only| label.contains(&only))
}

fn run(label: &str, form: &Value, keys: &str) {
    if !wanted(label) {
        return;
    }
    let form = validate(form, FormSource::Tool).unwrap();
    let opened = Event::opened(form);
    let start_state = FlowState::replay([&opened]);
    let events: Vec<Event> = parse_script(&workload(keys))
        .unwrap()
        .iter()
        .flat_map(|s| s.events(&Settings::default()).unwrap())
        .collect();
    let mut term = MemoryTerminal::new(80, 24, Some("/home/user/.config/ask-user/config.json"));
    let mut samples = Vec::with_capacity(events.len() * 5);
    for _round in 0..5 {
        let mut state = start_state.clone();
        term.draw(&Arc::new(state.view()));
        for e in &events {
            let t = Instant::now();
            let fx = state.apply(e);
            term.render(&Arc::new(state.view()));
            samples.push(t.elapsed().as_nanos() as u64);
            if fx.completed.is_some() {
                state = start_state.clone();
            }
        }
    }
    if std::env::var_os("RENDER_BREAKDOWN").is_some() {
        let mut state = start_state.clone();
        let (mut tv, mut tr) = (Vec::new(), Vec::new());
        for e in &events {
            if state.apply(e).completed.is_some() {
                state = start_state.clone();
            }
            let t = Instant::now();
            let v = Arc::new(state.view());
            tv.push(t.elapsed().as_nanos() as u64);
            let t = Instant::now();
            term.render(&v);
            tr.push(t.elapsed().as_nanos() as u64);
        }
        tv.sort_unstable();
        tr.sort_unstable();
        let p99 = |v: &[u64]| v[(v.len() - 1) * 99 / 100];
        println!(
            "  view p50 {} ns p99 {} ns, render p50 {} ns p99 {} ns",
            tv[tv.len() / 2],
            p99(&tv),
            tr[tr.len() / 2],
            p99(&tr)
        );
    }
    samples.sort_unstable();
    let pct = |p: f64| samples[((samples.len() - 1) as f64 * p) as usize] as f64 / 1000.0;
    println!(
        "{label:<28} {} keys: p50 {:7.1} µs  p99 {:7.1} µs  max {:8.1} µs",
        samples.len(),
        pct(0.5),
        pct(0.99),
        *samples.last().unwrap() as f64 / 1000.0
    );
}

fn key(id: &str) -> Event {
    Event::key(ask_engine::KeyPress::parse(id).unwrap())
}

fn keys(ids: &[&str]) -> Vec<Event> {
    ids.iter().map(|id| key(id)).collect()
}

/// A flow on `form` after the events of `setup`, drawn once at 80×24 with the facts that frame
/// asks to record folded in (the terminal's size, an editor's width), as the live terminal
/// does; then 2 000 keys round `cycle`, timed by [`time_keys`].
fn time_after(label: &str, form: &Value, setup: &[Event], cycle: &[Event]) {
    if !wanted(label) {
        return;
    }
    let form = validate(form, FormSource::Tool).unwrap();
    let mut state = FlowState::replay([&Event::opened(form)]);
    for e in setup {
        state.apply(e);
    }
    let mut term = MemoryTerminal::new(80, 24, None);
    for e in term.render(&Arc::new(state.view())) {
        state.apply(&e);
    }
    time_keys(label, &mut state, &mut term, cycle);
}

/// Keys in an answer editor holding `paste`: the custom row of the first question (four
/// options, so key 5) is opened and the text pasted, then 2 000 keys that move and type — Up
/// and Down between rows, a letter and its Backspace, Left and Right.
fn run_editor(label: &str, form: &Value, paste: &str) {
    let setup = [key("5"), Event::TextPasted { text: paste.to_owned() }];
    time_after(label, form, &setup, &keys(&["up", "up", "x", "backspace", "left", "right", "down", "down"]));
}

/// Keys typed into the filter of the first question (the filter key, then 2 000 keys typing
/// `option 9` and taking it back letter by letter): every frame tests each row of the list
/// against the query, so this is the one per-key cost that grows with the options.
fn run_filter(label: &str, form: &Value) {
    let typed = keys(&["o", "p", "t", "i", "o", "n", "space", "9"]);
    let cycle: Vec<Event> = typed.iter().cloned().chain(typed.iter().map(|_| key("backspace"))).collect();
    time_after(label, form, &[key("/")], &cycle);
}

/// Keys on the review tab (reached with Shift+Tab from the first question): the action cursor
/// down and up, a page of the summary down and up. The view carries the summary's entries near
/// its scroll position, so a form of 100 000 questions costs a key what a short one does.
fn run_review(label: &str, form: &Value) {
    time_after(label, form, &[key("shift+tab")], &keys(&["down", "down", "up", "up", "pagedown", "pageup"]));
}

/// Times 2 000 keys taken round `cycle`, each applied and drawn, and prints their p50 and p99.
fn time_keys(label: &str, state: &mut FlowState, term: &mut MemoryTerminal, cycle: &[Event]) {
    let mut samples: Vec<u64> = cycle
        .iter()
        .cycle()
        .take(2000)
        .map(|e| {
            let t = Instant::now();
            state.apply(e);
            term.render(&Arc::new(state.view()));
            t.elapsed().as_nanos() as u64
        })
        .collect();
    samples.sort_unstable();
    let pct = |p: f64| samples[((samples.len() - 1) as f64 * p) as usize] as f64 / 1000.0;
    println!("{label:<28} {} keys: p50 {:7.1} µs  p99 {:7.1} µs", samples.len(), pct(0.5), pct(0.99));
}

/// `form` with every preview replaced by `lines` numbered lines of code.
fn with_previews(form: &Value, lines: usize) -> Value {
    let long: String = (1..=lines).map(|i| format!("{i:>7} | fn line_{i}() {{ work(); }}\n")).collect();
    let mut form = form.clone();
    for q in form["questions"].as_array_mut().unwrap() {
        if q["type"] == "preview" {
            for o in q["options"].as_array_mut().unwrap() {
                o["preview"] = Value::String(long.clone());
            }
        }
    }
    form
}

fn main() {
    let typical: Value = serde_json::from_str(&workload("form-typical.json")).unwrap();
    let stress: Value = serde_json::from_str(&workload("form-stress.json")).unwrap();
    run("typical (5 × 4)", &typical, "keys-typical-2000.txt");
    run("stress (50 × 200)", &stress, "keys-stress-2000.txt");
    run("typical, 20 000-line previews", &with_previews(&typical, 20_000), "keys-typical-2000.txt");
    // Issue 15.3: per-key cost independent of the preview's size.
    run("typical, 1 000 000-line previews", &with_previews(&typical, 1_000_000), "keys-typical-2000.txt");
    // Issue 15.3: per-key cost independent of the number of options (the view is a window).
    let options: Vec<Value> = (0..100_000)
        .map(|i| serde_json::json!({"value": format!("v{i}"), "label": format!("Option {i}"), "description": "about it"}))
        .collect();
    let mut wide_list = typical.clone();
    wide_list["questions"][0]["options"] = Value::Array(options);
    run("typical, 100 000 options on Q1", &wide_list, "keys-typical-2000.txt");
    run_filter("filtering 100 000 options", &wide_list);
    // Per-key cost independent of the number of questions (the view carries the tabs near the
    // active one, and the strip names only those it shows).
    let mut many = typical.clone();
    let first = typical["questions"][0].clone();
    many["questions"] = Value::Array(
        (0..100_000)
            .map(|i| {
                let mut q = first.clone();
                q["id"] = Value::String(format!("q{i}"));
                q["label"] = Value::String(format!("Question {i}"));
                q
            })
            .collect(),
    );
    run("100 000 questions", &many, "keys-typical-2000.txt");
    run_review("100 000 questions, on the review tab", &many);
    // Per-key cost must not grow with text that is off screen (issue 14.4): one unbroken 10 MB
    // label on the first question.
    let mut wide = typical.clone();
    wide["questions"][0]["options"][0]["label"] = Value::String("x".repeat(10_000_000));
    run("typical, a 10 MB label", &wide, "keys-typical-2000.txt");
    // A pasted log in an answer: per-key cost bounded by the lines near the cursor.
    let log = |lines: usize| -> String {
        (0..lines)
            .map(|i| format!("{i:>6} INFO request served in {} ms by worker {}\n", i % 97, i % 8))
            .collect()
    };
    run_editor("answer editor, 50-line paste", &typical, &log(50));
    run_editor("answer editor, 5 000-line paste", &typical, &log(5_000));
    run_editor("answer editor, 100 000-line paste", &typical, &log(100_000));
    // One unbroken line (minified JSON, a base64 blob, a log line without newlines): its rows
    // depend on all of it, so the rows near the cursor are found from remembered row starts.
    let one_line = |bytes: usize| log(bytes / 50 + 1).replace('\n', " ");
    run_editor("answer editor, one 1 MB line", &typical, &one_line(1_000_000));
    // The same in other scripts: accented Latin (two bytes a letter) and Chinese (three bytes,
    // two cells, no spaces), and a base64 blob, one word of a megabyte.
    let repeated = |sentence: &str, bytes: usize| sentence.repeat(bytes / sentence.len() + 1);
    let (french, chinese) =
        ("Le café déjà très élevé à côté du théâtre ", "这是一个很长的句子，没有换行也没有空格。");
    run_editor("answer editor, one 200 KB line in French", &typical, &repeated(french, 200_000));
    run_editor("answer editor, one 200 KB line in Chinese", &typical, &repeated(chinese, 200_000));
    let blob = repeated("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo+/0123456789abcdefghijklmnop", 1_000_000);
    run_editor("answer editor, one 1 MB base64 blob", &typical, &blob);
    // A long paragraph, as pasted: under `LONG_LINE` a line is laid out whole on every frame.
    let english = repeated("The quick brown fox jumps over the lazy dog ", 8_000);
    run_editor("answer editor, one 8 KB line in English", &typical, &english);
    run_editor("answer editor, one 8 KB line in French", &typical, &repeated(french, 8_000));
    // A chat message or commit log pasted on one line, emoji standing alone among the words.
    let chat = "shipped the fix 🚀 thanks all 👍 see you at the demo 😀 ";
    run_editor("answer editor, one 200 KB line with emoji", &typical, &repeated(chat, 200_000));
    run_editor("answer editor, one 8 KB line with emoji", &typical, &repeated(chat, 8_000));
}
