//! What a panic does to a run. A panic inside storage code is caught there and reported in one
//! line (a damaged file, or a bug inside a transaction), so it is only logged here. Any other
//! panic is a bug: stderr gets one line naming where it happened and where its backtrace was
//! logged, after the terminal frontend's hook (installed over this one while a form shows) has
//! put the terminal back; `main` then ends the run with the error status. Every key committed
//! before it stays in the store. A panic on another thread while a form shows (a worker the
//! form can do without) is said once the command is over, since the form has the screen until
//! then.

use std::panic::PanicHookInfo;
use std::path::Path;

/// Installs the hook, and tells the terminal frontend's which panics are caught.
///
/// `forms`: whether this command shows forms, whose saved answers `ask-user resume` continues
/// after a bug (the line says so only then).
pub(crate) fn install(forms: bool) {
    std::panic::set_hook(Box::new(move |info| {
        let contained = contained(info);
        let backtrace = std::backtrace::Backtrace::force_capture();
        if contained {
            // The store reports it in one line of its own (damage, or a bug of ours inside a
            // transaction); the log keeps where it came from.
            tracing::error!(panic = %info, %backtrace, "storage panic caught");
            return;
        }
        tracing::error!(panic = %info, %backtrace, "internal error");
        let line = line(info, crate::logging::file(), forms);
        if ask_tui::terminal::taken_elsewhere() {
            // A worker thread's panic while a form shows: said once the terminal is back.
            let mut late = LATE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if !late.contains(&line) {
                late.push(line);
            }
        } else {
            errln!("ask-user: {line}");
        }
    }));
    ask_tui::terminal::LiveTerminal::panics_caught_when(contained);
}

/// Whether storage code catches this panic; the store is told where it was raised, which
/// tells a damaged file (redb's panic) from a bug of ours inside a transaction.
fn contained(info: &PanicHookInfo) -> bool {
    ask_storage::panic_is_contained_at(info.location())
}

/// The lines of panics that came while another thread had the terminal, each once (a worker
/// that goes on after a panic may hit the same bug again).
static LATE: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Prints the lines of panics that could not be printed when they happened; `main` calls it
/// once the command is over and the terminal is back.
pub(crate) fn report_late() {
    for line in LATE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
        errln!("ask-user: {line}");
    }
}

/// The one line a bug gets on stderr (`forms`: see [`install`]).
fn line(info: &PanicHookInfo, log: Option<&Path>, forms: bool) -> String {
    let what = ask_storage::panic_text(info.payload());
    let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
    let log = log.map_or_else(
        || "no log file could be written".to_owned(),
        |p| format!("its backtrace is in {}", p.display()),
    );
    let resume =
        if forms { " Answers already saved are kept: `ask-user resume` continues a form." } else { "" };
    let line = format!("internal error{at}: {what}. This is a bug; {log}.{resume}");
    ask_tui::text::sanitize(&line, false).into_owned()
}
