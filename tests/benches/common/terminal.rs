//! What the terminal benchmarks share about the programs they run in a pseudo-terminal.

use std::path::Path;

use portable_pty::CommandBuilder;

/// Keeps an ask-user started by a benchmark to `dir` (its store, config file and log), with the
/// kitty keyboard probe off (the emulated terminal answers no query) and an xterm's `TERM`.
pub fn ask_user_env(cmd: &mut CommandBuilder, dir: &Path) {
    cmd.env("ASK_USER_STORE", dir.join("s.redb"));
    cmd.env("ASK_USER_CONFIG", dir.join("c.json"));
    cmd.env("ASK_LOG_DIR", dir.join("logs"));
    cmd.env("ASK_USER_KEYBOARD_PROBE", "0");
    cmd.env("TERM", "xterm-256color");
}

/// What a program writes as it leaves the alternate screen (ask-user does as its form ends).
const LEAVE_ALTERNATE_SCREEN: &[u8] = b"\x1b[?1049l";

/// Watches a program's output, read by read, for it leaving the alternate screen.
#[derive(Default)]
pub struct LeaveWatch {
    /// The end of the reads so far, in case the sequence is split between two reads.
    tail: Vec<u8>,
}

impl LeaveWatch {
    /// Whether the output so far, ending with `read`, left the alternate screen in this read.
    pub fn left_in(&mut self, read: &[u8]) -> bool {
        self.tail.extend_from_slice(read);
        let left = self.tail.windows(LEAVE_ALTERNATE_SCREEN.len()).any(|w| w == LEAVE_ALTERNATE_SCREEN);
        self.tail.drain(..self.tail.len().saturating_sub(LEAVE_ALTERNATE_SCREEN.len() - 1));
        left
    }
}
