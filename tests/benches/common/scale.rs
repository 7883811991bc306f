//! The forms at the scale sizes of issue 15, written into a scratch directory.
//!
//! Written as text, piece by piece, never held as one JSON tree: a benchmark that spawns
//! processes must not hold a gigabyte of heap, freed or not (each spawn copies the page tables of
//! it all: 50 ms a start, which the reference benchmark would count as ours).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// 500 questions × 2 000 options (1 000 000 options, ≈ 100 MB of JSON), and the typical form
/// with previews of 1 000, 100 000 and 1 000 000 lines on every option of its preview question
/// (moved to the front): each a name, its file, and the key script of the shared workload that
/// drives it.
pub fn forms(bench: &Path, scratch: &Path) -> Vec<(String, PathBuf, &'static str)> {
    let big = scratch.join("scale-500x2000.json");
    write_options_form(&big);
    let mut out = vec![("500 × 2 000 options".to_owned(), big, "keys-stress-2000.txt")];
    let typical: serde_json::Value =
        serde_json::from_slice(&std::fs::read(bench.join("form-typical.json")).unwrap()).unwrap();
    for lines in [1_000, 100_000, 1_000_000] {
        let path = scratch.join(format!("scale-preview-{lines}.json"));
        write_preview_form(&typical, lines, &path);
        out.push((format!("previews of {lines} lines"), path, "keys-typical-2000.txt"));
    }
    out
}

/// 500 questions of 2 000 options each, single and multi in turn.
fn write_options_form(path: &Path) {
    let mut out = BufWriter::new(std::fs::File::create(path).unwrap());
    out.write_all(br#"{"questions":["#).unwrap();
    for q in 0..500 {
        let kind = if q % 2 == 0 { "single" } else { "multi" };
        let comma = if q > 0 { "," } else { "" };
        write!(out, r#"{comma}{{"id":"q{q}","prompt":"Question {q}?","type":"{kind}","options":["#).unwrap();
        for o in 0..2000 {
            let comma = if o > 0 { "," } else { "" };
            write!(
                out,
                r#"{comma}{{"value":"v{o}","label":"Option {o} of question {q}","description":"What option {o} means"}}"#
            )
            .unwrap();
        }
        out.write_all(b"]}").unwrap();
    }
    out.write_all(b"]}").unwrap();
    out.flush().unwrap();
}

/// `typical` with its preview question first and a preview of `lines` lines on each of its
/// options (`{i}: line {n} of the preview`).
fn write_preview_form(typical: &serde_json::Value, lines: usize, path: &Path) {
    let mut form = typical.clone();
    let qs = form["questions"].as_array_mut().unwrap();
    let at = qs.iter().position(|q| q["type"] == "preview").unwrap();
    let mut preview_q = qs.remove(at);
    let options = preview_q["options"].as_array_mut().unwrap();
    for (i, option) in options.iter_mut().enumerate() {
        option["preview"] = serde_json::Value::String(format!("@@preview {i}@@"));
    }
    let n = options.len();
    qs.insert(0, preview_q);
    // The form's text with each placeholder replaced by its preview, written line by line.
    let mut rest = serde_json::to_string(&form).unwrap();
    let mut out = BufWriter::new(std::fs::File::create(path).unwrap());
    for i in 0..n {
        let placeholder = format!("@@preview {i}@@");
        let (before, after) = rest.split_once(&placeholder).unwrap();
        out.write_all(before.as_bytes()).unwrap();
        for line in 0..lines {
            write!(out, r"{i}: line {line} of the preview\n").unwrap();
        }
        rest = after.to_owned();
    }
    out.write_all(rest.as_bytes()).unwrap();
    out.flush().unwrap();
}
