//! The `ask-user` binary: parses the command line, runs a command, maps the outcome to an exit
//! status. Errors become one line on stderr; stdout carries only results.

/// `println!` that never panics: a reader that went away (`ask-user log list | head -1`) is no
/// error — everything printed is also in the store. Any other failure (a full disk) is noted
/// for `main`, which then ends with the error status instead of a silent success.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        $crate::note_stdout(writeln!(stdout, $($t)*).and_then(|()| stdout.flush()));
    }};
}

/// `print!` that never panics (see `outln!`).
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        $crate::note_stdout(write!(stdout, $($t)*).and_then(|()| stdout.flush()));
    }};
}

/// `eprintln!` that never panics on a closed stderr.
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}

mod cli;
mod clock;
mod commands;
mod exit;
mod extractor;
mod file_refs;
mod headless;
mod host_link;
mod inert;
mod input;
mod live;
mod logging;
mod nudge;
mod panics;
mod paths;
mod runtime;
mod terminal;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { exit::USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let _guard = logging::init();
    panics::install(matches!(
        cli.command,
        Command::Ask(_) | Command::Replay(_) | Command::Resume(_) | Command::Attach(_) | Command::Answer(_)
    ));
    // A panic has been reported in one line by the hook (and the terminal put back): the run
    // ends as any other error does.
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        paths::refuse_store_as_output(&cli.command).and_then(|()| dispatch(&cli.command))
    }));
    panics::report_late();
    let Ok(outcome) = run else {
        return ExitCode::from(exit::ERROR);
    };
    match outcome {
        Ok(_) if let Some(e) = STDOUT_FAILED.get() => {
            tracing::error!(error = %e, "stdout could not be written");
            errln!("ask-user: cannot write to stdout: {e}");
            ExitCode::from(exit::ERROR)
        }
        Ok(status) => status.into(),
        Err(e) => {
            tracing::error!(error = format!("{e:#}"), "command failed");
            errln!("ask-user: {}", one_line(&e));
            ExitCode::from(exit::ERROR)
        }
    }
}

/// Runs the command.
fn dispatch(command: &Command) -> anyhow::Result<exit::Status> {
    match command {
        Command::Ask(args) => commands::ask::run_ask(args),
        Command::Replay(args) => commands::reopen::run_replay(args),
        Command::Resume(args) => commands::reopen::run_resume(args),
        Command::Wait(args) => commands::wait::run_wait(args),
        Command::Attach(args) => commands::reopen::run_attach(args),
        Command::Mcp(args) => commands::mcp::run_mcp(args),
        Command::Settings(args) => commands::reopen::run_settings(args),
        Command::Answer(args) => commands::answer::run_answer(args),
        Command::Log { command } => commands::log::run_log(command),
        Command::Schema { kind, lenient, .. } => commands::info::schema(*kind, *lenient),
        Command::Validate { file, .. } => commands::ask::run_validate(file.as_deref()),
        Command::Transcript { kind, file, json, .. } => commands::info::transcript(*kind, file, *json),
    }
}

/// The first failure to write stdout that `outln!` or `out!` met, other than its reader going
/// away.
static STDOUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Notes a failed write to stdout (see [`STDOUT_FAILED`]).
pub(crate) fn note_stdout(written: std::io::Result<()>) {
    if let Some(e) = stdout_failure(written) {
        let _ = STDOUT_FAILED.set(e.to_string());
    }
}

/// What went wrong writing stdout, if it is an error at all: a reader that went away
/// (`| head -0`) chose not to read, and stays quiet.
pub(crate) fn stdout_failure(written: std::io::Result<()>) -> Option<std::io::Error> {
    written.err().filter(|e| e.kind() != std::io::ErrorKind::BrokenPipe)
}

/// The error and its causes on one line: each cause once (an I/O error is often repeated by the
/// layer above it), control characters from files or payloads shown inert, as the form shows
/// them (`␛`, `␇`, `␡`).
pub(crate) fn one_line(e: &anyhow::Error) -> String {
    ask_tui::text::sanitize(&ask_storage::error_line(e.as_ref()), false).into_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_error_line_names_each_cause_once_and_shows_controls_inert() {
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "Permission denied (os error 13)");
        let e = anyhow::Error::new(io)
            .context("Permission denied (os error 13)")
            .context("cannot read k\x1b]0;x\x07");
        let line = super::one_line(&e);
        assert_eq!(line.matches("Permission denied").count(), 1, "{line}");
        assert!(line.starts_with("cannot read k␛]0;x␇"), "{line:?}");
        let e = anyhow::anyhow!("a\tb\u{7f}c\u{9b}d");
        assert_eq!(super::one_line(&e), "a    b␡c�d");
    }
}
