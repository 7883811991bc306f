//! The shared workload's key scripts as the bytes a terminal sends.

use std::path::Path;

/// The bytes a terminal sends for a key id of the script format.
fn encode(id: &str) -> Vec<Vec<u8>> {
    if let Some(text) = id.strip_prefix("type \"").and_then(|t| t.strip_suffix('"')) {
        return text.chars().map(|c| c.to_string().into_bytes()).collect();
    }
    let bytes: &[u8] = match id {
        "down" => b"\x1b[B",
        "up" => b"\x1b[A",
        "left" => b"\x1b[D",
        "right" => b"\x1b[C",
        "tab" => b"\t",
        "shift+tab" => b"\x1b[Z",
        "enter" => b"\r",
        "esc" => b"\x1b",
        "space" => b" ",
        "backspace" => b"\x7f",
        "shift+n" => b"N",
        other if other.chars().count() == 1 => other.as_bytes(),
        other => panic!("no bytes for key {other}"),
    };
    vec![bytes.to_vec()]
}

/// The keys of a script of the shared workload, the first `take` of its lines.
pub fn script_keys(bench: &Path, script: &str, take: usize) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(bench.join(script)).unwrap();
    text.lines().take(take).flat_map(encode).collect()
}
