//! What a panic does to a run. A panic inside storage code is caught there and reported as a
//! damaged file, so it is only logged here. Any other panic is a bug: stderr gets one line
//! naming where it happened and where its backtrace was logged, after the terminal frontend's
//! hook (installed over this one while a form shows) has put the terminal back; `main` then
//! ends the run with the error status. Every key committed before it stays in the store. A
//! panic on another thread while a form shows (a worker the form can do without) is said once
//! the command is over, since the form has the screen until then.

use std::panic::PanicHookInfo;
use std::path::Path;

/// Installs the hook, and tells the terminal frontend's which panics are caught.
pub(crate) fn install() {
    std::panic::set_hook(Box::new(|info| {
        if ask_storage::panic_is_contained() {
            tracing::error!(panic = %info, "storage panic caught");
            return;
        }
        let backtrace = std::backtrace::Backtrace::force_capture();
        tracing::error!(panic = %info, %backtrace, "internal error");
        let line = line(info, crate::logging::file());
        if ask_tui::terminal::taken_elsewhere() {
            // A worker thread's panic while a form shows: said once the terminal is back.
            let _ = LATE.set(line);
        } else {
            errln!("ask-user: {line}");
        }
    }));
    ask_tui::terminal::LiveTerminal::panics_caught_when(ask_storage::panic_is_contained);
}

/// The line of a panic that came while another thread had the terminal.
static LATE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Prints the line of a panic that could not be printed when it happened; `main` calls it once
/// the command is over and the terminal is back.
pub(crate) fn report_late() {
    if let Some(line) = LATE.get() {
        errln!("ask-user: {line}");
    }
}

/// The one line a bug gets on stderr.
fn line(info: &PanicHookInfo, log: Option<&Path>) -> String {
    let what = ask_storage::panic_text(info.payload());
    let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
    let log = log.map_or_else(
        || "no log file could be written".to_owned(),
        |p| format!("its backtrace is in {}", p.display()),
    );
    let line = format!(
        "internal error{at}: {what}. This is a bug; {log}. Answers already saved are kept: `ask-user resume` continues a form."
    );
    ask_tui::text::sanitize(&line, false).into_owned()
}
