//! Mutation fuzzing of `log replay --frames`: the repository's log files with lines dropped,
//! repeated and swapped, keys and resizes inserted, fields removed or given odd values (sizes of
//! 0 and 65 535, events before the opening), and forms no validated payload makes (no questions,
//! a question with no options, repeated ids and values, a preview question without previews,
//! freeform markers beside other options) are imported, folded and drawn as `log replay
//! --frames` does. Whatever imports must fold and draw without a panic, and folding it again
//! must give the state held live. A deterministic stream, so a failure repeats;
//! `ASK_MUTATIONS=N` runs N logs instead of 1 500.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::sync::Arc;

use ask_engine::FlowState;
use ask_schema::sample::Stream;
use serde_json::{Value, json};

fn odd_value(s: &mut Stream) -> Value {
    let pool = [
        json!(0),
        json!(1),
        json!(-1),
        json!(65535),
        json!(u64::MAX),
        json!(""),
        json!(" "),
        json!(null),
        json!(true),
        json!([]),
        json!({}),
        json!("preview"),
        json!("multi"),
        json!("x"),
        json!(100_000),
        json!("a\n\n\tb"),
        json!("中文中文中文"),
        json!("👨‍👩‍👧‍👦"),
        json!("\u{200b}\u{0}"),
    ];
    pool[s.below(pool.len())].clone()
}

fn mutate_value(s: &mut Stream, v: &mut Value, depth: usize) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            let key = m.keys().nth(s.below(m.len())).unwrap().clone();
            match s.below(5) {
                0 => drop(m.remove(&key)),
                1 => drop(m.insert(key, odd_value(s))),
                _ if depth < 8 => mutate_value(s, m.get_mut(&key).unwrap(), depth + 1),
                _ => {}
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = s.below(a.len());
            match s.below(6) {
                0 => drop(a.remove(i)),
                1 => {
                    let copy = a[i].clone();
                    let to = s.below(a.len() + 1);
                    a.insert(to, copy);
                }
                2 => a.clear(),
                3 => {
                    let j = s.below(a.len());
                    a.swap(i, j);
                }
                _ if depth < 8 => mutate_value(s, &mut a[i], depth + 1),
                _ => {}
            }
        }
        _ => *v = odd_value(s),
    }
}

#[rustfmt::skip]
const KEYS: &[&str] = &[
    "up", "down", "left", "right", "tab", "shift+tab", "enter", "esc", "space", "backspace", "n", "shift+n", "1",
    "2", "3", "9", "?", "ctrl+c", "alt+enter", "home", "end", "pageUp", "pageDown", "a", "/", "ctrl+z", "ctrl+y",
];

/// A change to the opening event's form that no validated payload makes: found seldom by
/// changing fields at random, so made on purpose.
fn mutate_form(s: &mut Stream, form: &mut Value) {
    let Some(questions) = form.get_mut("questions").and_then(Value::as_array_mut) else { return };
    if questions.is_empty() {
        return;
    }
    let i = s.below(questions.len());
    match s.below(8) {
        0 => questions.clear(),
        1 => {
            let copy = questions[i].clone();
            questions.push(copy);
        }
        2 => questions[i]["options"] = json!([]),
        3 => questions[i]["type"] = json!(["single", "multi", "preview"][s.below(3)]),
        _ => {
            let Some(options) = questions[i]["options"].as_array_mut() else { return };
            for option in options.iter_mut() {
                match s.below(4) {
                    0 => drop(option.as_object_mut().map(|o| o.remove("preview"))),
                    1 => option["freeform"] = json!(true),
                    2 => option["value"] = json!("same"),
                    _ => option["label"] = odd_value(s),
                }
            }
            if s.below(2) == 0 && !options.is_empty() {
                let copy = options[0].clone();
                options.push(copy);
            }
        }
    }
}

/// One to four changes to the events of a log (its header line is kept: without it nothing
/// imports).
fn mutate(s: &mut Stream, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for _ in 0..1 + s.below(4) {
        if lines.len() < 2 {
            break;
        }
        // Half the changes go to the opening event, where the form is.
        let i = if s.below(2) == 0 { 1 } else { 1 + s.below(lines.len() - 1) };
        match s.below(9) {
            0 => drop(lines.remove(i)),
            // Keys and resizes the log never had, so odd forms are also moved around in.
            8 => {
                for _ in 0..1 + s.below(8) {
                    let line = if s.below(6) == 0 {
                        let (w, h) = ([1, 2, 10, 24, 80, 300][s.below(6)], [1, 3, 7, 24, 100][s.below(5)]);
                        format!(r#"{{"type":"TerminalResized","size":{{"width":{w},"height":{h}}},"v":1}}"#)
                    } else {
                        format!(r#"{{"type":"KeyPressed","key":"{}","v":1}}"#, KEYS[s.below(KEYS.len())])
                    };
                    let to = 1 + s.below(lines.len());
                    lines.insert(to, line);
                }
            }
            1 => {
                let copy = lines[i].clone();
                let to = 1 + s.below(lines.len());
                lines.insert(to, copy);
            }
            2 => {
                let j = 1 + s.below(lines.len() - 1);
                lines.swap(i, j);
            }
            _ => {
                if let Ok(mut v) = serde_json::from_str::<Value>(&lines[i]) {
                    match v.get_mut("form") {
                        Some(form) if s.below(2) == 0 => mutate_form(s, form),
                        _ => mutate_value(s, &mut v, 0),
                    }
                    lines[i] = v.to_string();
                }
            }
        }
    }
    lines.join("\n") + "\n"
}

/// What `log replay --frames` does with a log file; whether it imported.
fn replay_with_frames(text: &str) -> bool {
    let Ok((_, events)) = ask_storage::log_file::import(text) else { return false };
    let mut state = FlowState::default();
    let mut screen: Option<ask_tui::MemoryTerminal> = None;
    for e in &events {
        state.apply(e);
        let size = state.size();
        let term = screen.get_or_insert_with(|| ask_tui::MemoryTerminal::new(size.width, size.height, None));
        term.resize(size.width, size.height);
        term.draw(&Arc::new(state.view()));
    }
    let _ = state.is_dirty();
    assert!(FlowState::replay(&events) == state, "folding the log again gives another state");
    true
}

#[test]
fn mutated_log_files_replay_as_frames_without_a_panic() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../storage/tests/fixtures");
    let mut seeds = vec![std::fs::read_to_string(format!("{fixtures}/log-v1.jsonl")).unwrap()];
    for entry in std::fs::read_dir(format!("{fixtures}/logs-v1")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            seeds.push(std::fs::read_to_string(path).unwrap());
        }
    }
    let runs: usize = std::env::var("ASK_MUTATIONS").ok().and_then(|n| n.parse().ok()).unwrap_or(1_500);
    let mut s = Stream::new(0x2545_F491_4F6C_DD1D);
    let mut imported = 0;
    for _ in 0..runs {
        let pick = s.below(seeds.len());
        let text = mutate(&mut s, &seeds[pick]);
        let outcome = std::panic::catch_unwind(|| replay_with_frames(&text));
        match outcome {
            Ok(true) => imported += 1,
            Ok(false) => {}
            Err(_) => panic!("replaying this log panicked (the message is above):\n{text}"),
        }
    }
    // Most changes make a line that no longer decodes; enough must still import to test the fold.
    assert!(imported * 20 > runs, "only {imported} of {runs} mutated logs imported");
}
