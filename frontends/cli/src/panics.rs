//! What a panic does to a run. A panic inside storage code is caught there and reported as a
//! damaged file, so it is only logged here. Any other panic is a bug: stderr gets one line
//! naming where it happened and where its backtrace was logged, after the terminal frontend's
//! hook (installed over this one while a form shows) has put the terminal back; `main` then
//! ends the run with the error status. Every key committed before it stays in the store.

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
        errln!("ask-user: {}", line(info, crate::logging::file()));
    }));
    ask_tui::terminal::LiveTerminal::panics_caught_when(ask_storage::panic_is_contained);
}

/// The one line a bug gets on stderr.
fn line(info: &PanicHookInfo, log: Option<&Path>) -> String {
    let payload = info.payload();
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic");
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
