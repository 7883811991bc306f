//! Diagnostics go to a log file, never to the terminal: stdout carries the result.

use std::path::PathBuf;

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;

/// Lines the log writer's queue holds before it drops new ones.
const LOG_QUEUE_LINES: usize = 1024;

fn log_dir() -> Option<PathBuf> {
    if let Some(dir) = crate::paths::env_path("ASK_LOG_DIR") {
        return Some(dir);
    }
    let dirs = directories::ProjectDirs::from("", "", "ask-user")?;
    Some(dirs.state_dir().unwrap_or_else(|| dirs.cache_dir()).to_path_buf())
}

/// The log file, once [`init`] has opened it.
static FILE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Where this run logs, if it does.
pub fn file() -> Option<&'static std::path::Path> {
    FILE.get().map(PathBuf::as_path)
}

/// Starts file logging; returns the guard that flushes it on drop (keep it alive in `main`).
/// Without a writable log directory the program runs without logs.
pub fn init() -> Option<WorkerGuard> {
    let dir = log_dir()?;
    ask_storage::files::create_private_dir(&dir).ok()?;
    let file = tracing_appender::rolling::RollingFileAppender::builder()
        .rotation(tracing_appender::rolling::Rotation::NEVER)
        .filename_prefix("ask-user.log")
        .build(&dir)
        .ok()?;
    // The log names flows and may quote answers: owner-only, like the store.
    let _ = ask_storage::files::make_private(&dir.join("ask-user.log"));
    // The default queue preallocates 128 000 line slots (≈ 5 MB, 1.8 ms of page faults before
    // the first frame); a run logs a handful of lines, and a full queue drops lines, never waits.
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_QUEUE_LINES)
        .lossy(true)
        .finish(file);
    let filter = EnvFilter::try_from_env("ASK_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt().with_writer(writer).with_ansi(false).with_env_filter(filter).try_init().ok()?;
    let _ = FILE.set(dir.join("ask-user.log"));
    Some(guard)
}
