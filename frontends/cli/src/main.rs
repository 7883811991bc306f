//! The `ask-user` binary: parses the command line, runs a command, maps the outcome to an exit
//! status. Errors become one line on stderr; stdout carries only results.

mod cli;
mod clock;
mod commands;
mod exit;
mod extractor;
mod file_refs;
mod headless;
mod input;
mod logging;
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
    // A panic inside the storage layer (a damaged file) is caught and reported in one line;
    // the default hook would print it first and break the one-line promise.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if ask_storage::panic_is_contained() {
            tracing::error!(panic = %info, "storage panic caught");
        } else {
            default_hook(info);
        }
    }));
    ask_tui::terminal::LiveTerminal::panics_caught_when(ask_storage::panic_is_contained);
    let outcome = match &cli.command {
        Command::Ask(args) => commands::ask::run_ask(args),
        Command::Replay(args) => commands::reopen::run_replay(args),
        Command::Resume(args) => commands::reopen::run_resume(args),
        Command::Wait(args) => commands::wait::run_wait(args),
        Command::Attach(args) => commands::reopen::run_attach(args),
        Command::Mcp(args) => commands::mcp::run_mcp(args),
        Command::Settings(args) => commands::reopen::run_settings(args),
        Command::Answer(args) => commands::answer::run_answer(args),
        Command::Log { command } => commands::log::run_log(command),
        Command::Schema { kind, lenient } => commands::info::schema(*kind, *lenient),
        Command::Transcript { kind, file } => commands::info::transcript(*kind, file),
    };
    match outcome {
        Ok(status) => status.into(),
        Err(e) => {
            tracing::error!(error = format!("{e:#}"), "command failed");
            eprintln!("ask-user: {e:#}");
            ExitCode::from(exit::ERROR)
        }
    }
}
