//! Mutation fuzzing of the validation fast path against the tree validator: the example payloads
//! and the test fixtures, each cut, spliced and salted with JSON tokens (a deterministic stream,
//! so a failure repeats), must get the same answer from every reader. Generated payloads
//! (`direct_parse.rs`) come from a grammar of what we expect; these come from what a text can
//! become, which is how a lone surrogate escape in an unknown field was found taking the fast
//! path while the tree refused it. `ASK_MUTATIONS=N` runs N texts instead of 4 000 (a release
//! build runs about 10 000 a second: `cargo test --release -p ask-schema --test mutations`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_schema::sample::Stream;
use ask_schema::{FormSource, parse_json, validate_text};
use common::agrees;

/// Pieces a JSON text is salted with: ours and other tools' field names, every kind of value,
/// escapes serde_json reads one way in a string it keeps and another in a string it skips.
#[rustfmt::skip]
const TOKENS: &[&str] = &[
    "\"", "\\", "\\\"", "\\u00e9", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\n", "\\/", "null", "true", "false",
    ",", "]", "}", "{", "[", ":", " ", "\n", "1", "-0", "1e5", "1e400", "-1e400", "123456789012345678901234567890",
    "\"options\"", "\"freeform\":true", "\"freeform\":null", "\"value\"", "\"label\"", "\"description\"",
    "\"preview\"", "\"type\"", "\"multi\"", "\"preview\"", "\"id\"", "\"prompt\"", "\"title\"", "\"required\"",
    "\"questions\"", "\"\"", "\"  \"", "é", "\u{0}", "\u{7f}", "\u{feff}", "\"type\":\"multi\"",
    "\"type\":\"preview\"", "\"label\":null", "{\"value\":\"a\",\"label\":\"A\"}", "\"extra\":1e400,",
    "\"extra\":\"\\udc00\",", "\"extra\":[{\"x\":\"\\ud800\"}],", "\"multiSelect\":true,", "\"question\":\"Q\",",
];

fn mutate(s: &mut Stream, text: &str) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..1 + s.below(3) {
        let at = s.below(b.len() + 1);
        let end = (at + 1 + s.below(40)).min(b.len());
        match s.below(6) {
            0 => drop(b.drain(at..end.min(at + 8))),
            1 | 2 => drop(b.splice(at..at, TOKENS[s.below(TOKENS.len())].bytes())),
            3 if at < b.len() => b[at] = b" \",:[]{}\\an0"[s.below(12)],
            4 => {
                let piece = b[at..end].to_vec();
                let to = s.below(b.len() + 1);
                drop(b.splice(to..to, piece));
            }
            _ => {
                let piece = b[at..end].to_vec();
                drop(b.splice(at..at, piece));
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mutated_payloads_get_one_answer_from_every_reader() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut seeds = Vec::new();
    for dir in ["examples", "tests/fixtures/payloads"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            // Pretty and compact: the strict reader scans each differently.
            seeds.push(parse_json(&text).unwrap().to_string());
            seeds.push(text);
        }
    }
    let runs: usize = std::env::var("ASK_MUTATIONS").ok().and_then(|n| n.parse().ok()).unwrap_or(4_000);
    let mut s = Stream::new(0x9E37_79B9_7F4A_7C15);
    let mut corpus = seeds.clone();
    let mut accepted = 0;
    for _ in 0..runs {
        let pick = s.below(corpus.len());
        let text = mutate(&mut s, &corpus[pick]);
        agrees(&text);
        // Texts still valid are mutated further: their second change reaches deeper.
        if validate_text(&text, FormSource::Tool).is_ok() {
            accepted += 1;
            if corpus.len() < 2_000 && s.below(4) == 0 {
                corpus.push(text);
            }
        }
    }
    // The stream must keep reaching valid payloads, or it only tests the readers' first refusals.
    assert!(accepted * 5 > runs, "only {accepted} of {runs} mutated payloads were valid");
}
