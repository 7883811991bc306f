//! Reading files or stdin given on the command line.

use std::io::Read;
use std::path::Path;

/// Reads raw bytes from a path, or stdin for `-`.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut buf)?;
    } else {
        buf = std::fs::read(path)?;
    }
    Ok(buf)
}

/// Reads UTF-8 text from a path, or stdin for `-`.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}
