//! Payload and typed text printed outside the form. On a terminal it is shown inert, exactly as
//! the form shows it (`ESC ] 0 ; … BEL` in a title must not rename the window, nor raw CSI
//! colour a command's answer); into a pipe or a file it passes unchanged, so a host reading
//! stdout gets the user's exact text.

use std::borrow::Cow;
use std::io::IsTerminal;

/// `text` as it may be written to stdout. `keep_newlines` false is for text that must stay on
/// one line (`log list`, `log show`): on a terminal a newline inside it is shown as `␊`.
pub fn for_stdout(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    if std::io::stdout().is_terminal() {
        ask_tui::text::sanitize(text, keep_newlines)
    } else {
        Cow::Borrowed(text)
    }
}
