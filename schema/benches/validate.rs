//! Validation at scale (issue 15.2): a question of 10 000, 100 000 and 1 000 000 options, each
//! with a value, a label and a description. Times parsing the payload text into a JSON value
//! and validating that value into the normalized form, separately; median of the runs. Beside
//! them, the floor of any validator that reads the parsed value: visiting each option and
//! copying its three strings into owned ones (no checks at all). And what `validate_text` does
//! for a valid payload since the fast path: the text read straight into the form, no tree.
//!
//! Run: `cargo bench -p ask-schema --bench validate`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::time::{Duration, Instant};

use ask_schema::{FormSource, direct_form, parse_json, validate};

/// Visits every option of the first question and copies its strings: the least a validator
/// that builds an owned form from the parsed value does.
fn copy_floor(raw: &serde_json::Value) -> (Duration, usize) {
    let start = Instant::now();
    let options = raw["questions"][0]["options"].as_array().unwrap();
    let mut out = Vec::with_capacity(options.len());
    for option in options {
        let text = |key: &str| option.get(key).and_then(|v| v.as_str()).map(|s| s.trim().to_owned());
        out.push((text("value"), text("label"), text("description")));
    }
    let took = start.elapsed();
    (took, std::hint::black_box(out).len())
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn main() {
    for (n, runs) in [(10_000, 21), (100_000, 7), (1_000_000, 3)] {
        let text = ask_schema::sample::options_payload(n, ask_schema::sample::SampleText::Repeated);
        let (mut parse, mut check, mut floor, mut direct) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let start = Instant::now();
            let form = direct_form(&text, FormSource::Tool).unwrap();
            direct.push(start.elapsed());
            assert_eq!(form.questions[0].options.len(), n);
            drop(form);
            let start = Instant::now();
            let raw = parse_json(&text).unwrap();
            parse.push(start.elapsed());
            let start = Instant::now();
            let form = validate(&raw, FormSource::Tool).unwrap();
            check.push(start.elapsed());
            assert_eq!(form.questions[0].options.len(), n);
            drop(form);
            let (took, copied) = copy_floor(&raw);
            floor.push(took);
            assert_eq!(copied, n);
        }
        let (p, v, f, d) = (median(parse), median(check), median(floor), median(direct));
        let per = |d: Duration| d.as_nanos() as f64 / n as f64;
        println!(
            "{n:>9} options ({:>5.1} MB): parse {:>8.1} ms ({:>5.0} ns/option), validate {:>8.1} ms ({:>5.0} ns/option), copy floor {:>5.0} ns/option; text straight to form {:>8.1} ms ({:>5.0} ns/option)",
            text.len() as f64 / 1e6,
            p.as_secs_f64() * 1e3,
            per(p),
            v.as_secs_f64() * 1e3,
            per(v),
            per(f),
            d.as_secs_f64() * 1e3,
            per(d),
        );
    }
}
