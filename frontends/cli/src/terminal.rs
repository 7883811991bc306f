//! Whether an interactive terminal is there to draw on.

use std::io::IsTerminal;

/// True when stdin is a terminal or `/dev/tty` can be opened.
pub fn available() -> bool {
    std::io::stdin().is_terminal()
        || std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").is_ok()
}

/// Whether a flow must give the "Needs user input" result: `--no-ui`, or no script and no
/// terminal to draw on.
pub fn no_ui(flow: &crate::cli::FlowArgs) -> bool {
    flow.no_ui || (flow.script.is_none() && !available())
}
