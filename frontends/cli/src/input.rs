//! Reading files or stdin given on the command line.

use std::io::Read;
use std::path::Path;

/// Reads raw bytes from a path, or stdin for `-`. A UTF-8 byte-order mark (editors on Windows
/// write one) is dropped.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if path.as_os_str() == "-" {
        use std::io::IsTerminal;
        // `ask-user ask` typed with nothing piped in would otherwise sit silent.
        if std::io::stdin().is_terminal() {
            errln!(
                "ask-user: reading the payload JSON from stdin; paste it, then press Ctrl+D (or pass a file)"
            );
        }
        std::io::stdin().read_to_end(&mut buf)?;
    } else {
        buf = std::fs::read(path)?;
    }
    if buf.starts_with(b"\xEF\xBB\xBF") {
        buf.drain(..3);
    }
    Ok(buf)
}

/// Reads UTF-8 text from a path, or stdin for `-`.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The entries of a pi session file (`--pi-session`), for branch scans.
pub fn pi_entries(file: &Path) -> anyhow::Result<Vec<ask_storage::pi_session::PiEntry>> {
    use anyhow::Context;
    let text = read_text(file).with_context(|| format!("cannot read pi session {}", file.display()))?;
    Ok(ask_storage::pi_session::entries(&text))
}
