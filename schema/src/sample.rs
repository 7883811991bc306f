//! Generated payloads for benchmarks and tests at scale: one question of `n` options, each with
//! a value, a label and a description.

/// How the options' labels and descriptions read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SampleText {
    /// `Option number {i}` and one fixed description: the same line again and again (the shape
    /// the validation and start-up figures were first measured on; it compresses far better than
    /// real text).
    Repeated,
    /// Words from a small vocabulary in an order that does not repeat: text that compresses about
    /// 3×, like real text (the store packs large rows, so its figures depend on it).
    Varied,
}

/// Numbers from xorshift64: the same sequence from the same seed on every run, for generated
/// texts and for mutation tests whose failures must repeat.
pub struct Stream(u64);

impl Stream {
    /// A stream from `seed` (a zero seed, which xorshift would keep at zero, is replaced).
    pub fn new(seed: u64) -> Stream {
        Stream(if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed })
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        if n == 0 { 0 } else { (self.0 % n as u64) as usize }
    }
}

/// A payload of one question, `Pick one`, with `n` options, as compact JSON text.
pub fn options_payload(n: usize, text: SampleText) -> String {
    const WORDS: [&str; 16] = [
        "alpha", "build", "cache", "delta", "eager", "fault", "graph", "hover", "index", "joint", "kernel",
        "layer", "merge", "node", "order", "probe",
    ];
    let mut stream = Stream::new(0x2545_F491_4F6C_DD1D);
    let mut word = || WORDS[stream.below(WORDS.len())];
    // Written option by option, never as one JSON tree: a benchmark that spawns processes
    // should not hold a gigabyte of freed tree (a fork copies the page tables of it all). The
    // text is what the tree would write, byte for byte.
    let mut out = String::from(r#"{"questions":[{"id":"a","prompt":"Pick one","options":["#);
    for i in 0..n {
        let (label, description) = match text {
            SampleText::Varied => (
                format!("{} {} {i}", word(), word()),
                format!("{} the {} before {} {}", word(), word(), word(), word()),
            ),
            SampleText::Repeated => (format!("Option number {i}"), "a short description".to_owned()),
        };
        if i > 0 {
            out.push(',');
        }
        let option =
            serde_json::json!({"value": format!("v{i}"), "label": label, "description": description});
        out.push_str(&option.to_string());
    }
    out.push_str("]}]}");
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::{FormSource, validate_text};

    #[test]
    fn both_kinds_are_valid_forms_of_n_options_and_only_varied_text_varies() {
        for text in [SampleText::Repeated, SampleText::Varied] {
            let form = validate_text(&options_payload(300, text), FormSource::Tool).unwrap();
            assert_eq!(form.questions[0].options.len(), 300);
        }
        let form = validate_text(&options_payload(300, SampleText::Varied), FormSource::Tool).unwrap();
        let descriptions: std::collections::HashSet<_> =
            form.questions[0].options.iter().map(|o| o.description.clone()).collect();
        assert!(descriptions.len() > 100, "{} distinct descriptions", descriptions.len());
        assert_eq!(options_payload(50, SampleText::Varied), options_payload(50, SampleText::Varied));
    }

    /// The generated texts (and so the benchmark figures) and the mutation tests' cases stay the
    /// same from version to version only while the stream does: xorshift64 with shifts 13, 7,
    /// 17, whose first number from state 1 is the well-known 1 082 269 761.
    #[test]
    fn the_stream_is_xorshift64() {
        let mut s = Stream::new(1);
        let first: Vec<usize> = (0..3).map(|_| s.below(usize::MAX)).collect();
        assert_eq!(first, [1_082_269_761, 1_152_992_998_833_853_505, 11_177_516_664_432_764_457]);
    }
}
