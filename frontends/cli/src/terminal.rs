//! Whether an interactive terminal is there to draw on.

use std::io::IsTerminal;

/// True when stdin is a terminal or `/dev/tty` can be opened.
pub fn available() -> bool {
    std::io::stdin().is_terminal()
        || std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").is_ok()
}
