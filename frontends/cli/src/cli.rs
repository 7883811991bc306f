//! The command line (SPEC §7), declared with clap.

use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

/// ask-user: let an agent stop and ask its user structured questions.
#[derive(Debug, Parser)]
#[command(
    name = "ask-user",
    version,
    about = "Let a coding agent stop and ask its user structured questions, in a keyboard-first terminal form.",
    after_help = "Exit status: 0 submitted or elaborated, 1 cancelled or timed out, 2 invalid input, 3 no terminal \
(\"Needs user input\"), 4 a --script ended with the form open, 5 any other error (one line on stderr), \
6 the flow is still open in another process (ask --no-wait, wait --timeout), 7 the flow id was used \
for a different form, 64 a command line that does not parse.",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The ask_user tool: validate a payload, run the flow, print the tool result JSON.
    Ask(AskArgs),
    /// /ask:replay: reopen the newest stored tool form of the session (or pi branch).
    Replay(ReplayArgs),
    /// /answer: extract questions from the latest assistant message and open them as a form.
    Answer(AnswerArgs),
    /// /ask-settings: the settings overlay alone; toggles are saved at once.
    Settings(SettingsArgs),
    /// Reopen an interrupted flow exactly where it stopped (default: the newest unfinished).
    Resume(ResumeArgs),
    /// Wait for a flow another process is driving to complete; print its result as `ask` would.
    Wait(WaitArgs),
    /// Open a form that is waiting for an answer (e.g. one an MCP call opened) in this terminal;
    /// without FLOW, the newest one, or wait for one to arrive.
    Attach(AttachArgs),
    /// Serve the ask_user tool to MCP clients over stdio (Claude Code, Codex, Gemini CLI, …).
    Mcp(McpArgs),
    /// The event log: list flows, show one, export it for a bug report, replay a log file.
    Log {
        #[command(subcommand)]
        command: LogCommand,
    },
    /// Print the JSON Schema of the tool input or result.
    Schema {
        /// Which schema.
        #[arg(value_enum, default_value_t = SchemaKind::Input)]
        kind: SchemaKind,
        /// The input schema with nothing required, for hosts that must let malformed calls
        /// reach the tool (its validation answers them with every issue).
        #[arg(long)]
        lenient: bool,
        #[command(flatten)]
        unused: UnusedCommon,
    },
    /// Validate a payload without storing or showing anything: the normalized form (exit 0) or
    /// the invalid_input result with every issue (exit 2).
    Validate {
        /// The payload file; `-` or nothing reads stdin.
        file: Option<PathBuf>,
        #[command(flatten)]
        unused: UnusedCommon,
    },
    /// Render a payload (call) or a tool result (result) as transcript rows.
    Transcript {
        /// `call` for a payload file, `result` for a result file.
        #[arg(value_enum)]
        kind: TranscriptKind,
        /// The file to render (`-` for stdin).
        file: PathBuf,
        /// Print `[{"kind": …, "text": …}]` (kinds: call, invalid, cancelled, answer, note,
        /// elaborate, empty) for a host that styles the rows itself.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        unused: UnusedCommon,
    },
}

impl Command {
    /// The file this command writes besides stdout (`--frame-out`, `log export -o`) and the
    /// `--store` it names, so the two can be told apart before anything runs.
    pub fn output_beside_store(&self) -> Option<(&Path, Option<&Path>)> {
        let flow = match self {
            Command::Ask(a) => &a.flow,
            Command::Replay(a) => &a.flow,
            Command::Answer(a) => &a.flow,
            Command::Settings(a) => &a.flow,
            Command::Resume(a) => &a.flow,
            Command::Attach(a) => &a.flow,
            Command::Log { command: LogCommand::Export { output, store, .. } } => {
                return Some((output.as_deref()?, store.store.as_deref()));
            }
            _ => return None,
        };
        Some((flow.frame_out.as_deref()?, flow.store.as_deref()))
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SchemaKind {
    Input,
    Result,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TranscriptKind {
    Call,
    Result,
}

/// Options of every command that opens a flow.
#[derive(Debug, Clone, Args)]
pub struct FlowArgs {
    /// The config file (default: $ASK_USER_CONFIG, else the platform config dir).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The event store (default: $ASK_USER_STORE, else the platform data dir).
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    /// The session whose payloads are stored and replayed.
    #[arg(long, value_name = "NAME", default_value = "default")]
    pub session: String,
    /// Behave as if no terminal were available (prints the "Needs user input" result).
    #[arg(long)]
    pub no_ui: bool,
    /// Run headless: read key steps from this file (`-` for stdin) instead of a terminal.
    #[arg(long, value_name = "KEYS")]
    pub script: Option<PathBuf>,
    /// Wait this many milliseconds before each scripted event (demos, crash tests).
    #[arg(long, value_name = "MS", requires = "script")]
    pub pace: Option<u64>,
    /// Headless terminal size, e.g. 100x30 (default 80x24).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<ask_engine::Size>,
    /// Headless: write the last frame drawn, as plain text, to this file.
    #[arg(long, value_name = "FRAME")]
    pub frame_out: Option<PathBuf>,
    /// Close the form after this many seconds with what was saved so far (it stays resumable);
    /// 0 never. Default: the config's ui.timeoutSeconds.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = parse_whole_seconds)]
    pub timeout: Option<u64>,
    /// The plain-line frontend: numbered lines, answers typed as lines, every change said as
    /// one line (screen readers, dumb terminals). Also chosen by TERM=dumb and ui.plain.
    #[arg(long)]
    pub plain: bool,
}

fn parse_flow_id(s: &str) -> Result<String, String> {
    if s.trim().is_empty() {
        return Err("a flow id cannot be blank".into());
    }
    if s.chars().any(char::is_control) {
        return Err("a flow id cannot hold control characters (newlines, escapes, …)".into());
    }
    if s.len() > 512 {
        return Err("a flow id is at most 512 bytes".into());
    }
    Ok(s.to_owned())
}

fn parse_size(s: &str) -> Result<ask_engine::Size, String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or("expected WIDTHxHEIGHT, e.g. 80x24")?;
    let width: u16 = w.trim().parse().map_err(|_| format!("bad width {w:?}"))?;
    let height: u16 = h.trim().parse().map_err(|_| format!("bad height {h:?}"))?;
    if width == 0 || height == 0 {
        return Err("width and height must be at least 1".into());
    }
    Ok(ask_engine::Size { width, height })
}

/// Options that read a pi session file instead of the store.
#[derive(Debug, Args)]
pub struct PiArgs {
    /// Read forms from this pi session JSONL file instead of the store.
    #[arg(long, value_name = "FILE")]
    pub pi_session: Option<PathBuf>,
    /// The branch's leaf entry (default: the file's last entry).
    #[arg(long, value_name = "ID", requires = "pi_session")]
    pub leaf: Option<String>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub pi: PiArgs,
    #[command(flatten)]
    pub flow: FlowArgs,
}

#[derive(Debug, Args)]
pub struct AnswerArgs {
    /// The assistant message to extract from (`-` for stdin); else the pi session's branch.
    #[arg(long, value_name = "FILE", conflicts_with = "again")]
    pub text: Option<PathBuf>,
    /// The extractor, run with `sh -c` (default: answer.extractionCommand from the config);
    /// `host` asks the program that started ask-user, over stdin/stdout (docs/pi.md).
    #[arg(long, value_name = "CMD")]
    pub extractor: Option<String>,
    /// /answer:again: reopen the newest extracted form instead of extracting.
    #[arg(long, conflicts_with_all = ["form", "extract_only"])]
    pub again: bool,
    /// Open this already extracted form (`-` for stdin) instead of extracting one.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["text", "extract_only"])]
    pub form: Option<PathBuf>,
    /// Only extract: print `{"form": …, "sourceEntryId": …}` as the last stdout line and open
    /// nothing (a host stores the form, then opens it with --form).
    #[arg(long)]
    pub extract_only: bool,
    #[command(flatten)]
    pub pi: PiArgs,
    #[command(flatten)]
    pub flow: FlowArgs,
}

#[derive(Debug, Args)]
pub struct SettingsArgs {
    #[command(flatten)]
    pub flow: FlowArgs,
    #[command(flatten)]
    pub unused_pi: UnusedPi,
}

#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// The flow id (default: the newest unfinished flow).
    pub flow_id: Option<String>,
    #[command(flatten)]
    pub flow: FlowArgs,
    #[command(flatten)]
    pub unused_pi: UnusedPi,
}

#[derive(Debug, Subcommand)]
pub enum LogCommand {
    /// List flows: id, start time, command, status, events.
    List(StoreArgs),
    /// Show a flow's events, one line each.
    Show {
        /// The flow id (default: the newest flow).
        flow_id: Option<String>,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Export a flow as a self-contained JSONL log file for a bug report.
    ///
    /// The file holds every keystroke of the flow, drafts and pasted text included: read it
    /// before you share it.
    Export {
        /// The flow id (default: the newest flow).
        flow_id: Option<String>,
        /// Write here instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Fold a log file and print its result (deterministic: same file, same output).
    Replay {
        /// The log file (`-` for stdin).
        file: PathBuf,
        /// Also print every frame, as the screen looked after each event.
        #[arg(long)]
        frames: bool,
        #[command(flatten)]
        unused: UnusedCommon,
    },
    /// Delete finished flows by age or count (never one open elsewhere; unfinished ones with --unfinished).
    Prune(PruneArgs),
}

/// `ask-user log prune`: which flows to delete.
#[derive(Debug, Args)]
pub struct PruneArgs {
    /// Delete flows older than this: `30d`, `12h`, `90m` or seconds (default: the config's
    /// store.retentionDays, 90 days).
    #[arg(long, value_name = "AGE", value_parser = parse_age)]
    pub older_than: Option<std::time::Duration>,
    /// Keep only the newest N finished flows (with --unfinished: of the flows it may delete).
    #[arg(long, value_name = "N")]
    pub keep: Option<usize>,
    /// Also delete unfinished flows no process shows (`resumable` or `waiting` in `log list`):
    /// abandoned forms. A `waiting` one is a form an MCP call left open for `attach`.
    #[arg(long)]
    pub unfinished: bool,
    /// The config file (for store.retentionDays).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The event store (default: $ASK_USER_STORE, else the platform data dir).
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    #[command(flatten)]
    pub unused_session: UnusedSession,
    #[command(flatten)]
    pub unused_pi: UnusedPi,
}

// Negative numbers reach these parsers (`allow_negative_numbers`) so that `--timeout -3` is
// told what a timeout is, not that `-3` looks like an option.
fn parse_whole_seconds(s: &str) -> Result<u64, String> {
    s.trim().parse().map_err(|_| format!("expected a whole number of seconds, 0 or more, not {s:?}"))
}

/// Seconds, fractions allowed, as a `Duration`: NaN, infinity, negatives and spans longer than a
/// `Duration` holds are refused here rather than panicking where the wait begins.
fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .and_then(|secs| std::time::Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| format!("expected a number of seconds, 0 or more (without --timeout it waits until the flow completes), not {s:?}"))
}

fn parse_age(s: &str) -> Result<std::time::Duration, String> {
    let s = s.trim();
    let (number, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = number.parse().map_err(|_| format!("expected an age like 30d, 12h or 90m, not {s:?}"))?;
    let secs = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("unknown unit {unit:?}: use d, h, m or s")),
    };
    Ok(std::time::Duration::from_secs(n.saturating_mul(secs)))
}

#[derive(Debug, Args)]
pub struct WaitArgs {
    /// The flow id.
    pub flow_id: String,
    /// Give up after this many seconds (exit 6); default: wait until the flow completes.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = parse_seconds)]
    pub timeout: Option<std::time::Duration>,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Debug, Args)]
pub struct AttachArgs {
    /// The flow id (default: the newest form an MCP call waits on, else the newest unfinished
    /// one; waits for one if there is none).
    pub flow_id: Option<String>,
    #[command(flatten)]
    pub flow: FlowArgs,
    #[command(flatten)]
    pub unused_pi: UnusedPi,
}

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Seconds one tool call waits for the answer before returning "still open" (default:
    /// mcp.waitSeconds in the config, 240). Keep it below the client's tool timeout.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = parse_whole_seconds)]
    pub wait: Option<u64>,
    #[command(flatten)]
    pub flow: FlowArgs,
    #[command(flatten)]
    pub unused_pi: UnusedPi,
}

// SPEC §7's common options are accepted by every command, so a host can pass the same ones to
// every call (issue 12.5); where one means nothing for a command it is accepted, hidden from
// `--help`, and ignored. Each group below adds those a command lacks.

/// `--pi-session` and `--leaf`, for commands that never read a pi session.
#[derive(Debug, Clone, Args)]
pub struct UnusedPi {
    #[arg(long = "pi-session", value_name = "FILE", hide = true)]
    pub unused_pi_session: Option<PathBuf>,
    #[arg(long = "leaf", value_name = "ID", hide = true)]
    pub unused_leaf: Option<String>,
}

/// `--session` and `--no-ui`, for commands that open no flow.
#[derive(Debug, Clone, Args)]
pub struct UnusedSession {
    #[arg(long = "session", value_name = "NAME", hide = true)]
    pub unused_session: Option<String>,
    #[arg(long = "no-ui", hide = true)]
    pub unused_no_ui: bool,
}

/// `--config`, for commands that read no settings.
#[derive(Debug, Clone, Args)]
pub struct UnusedConfig {
    #[arg(long = "config", value_name = "FILE", hide = true)]
    pub unused_config: Option<PathBuf>,
}

/// `--store`, for commands that touch no store.
#[derive(Debug, Clone, Args)]
pub struct UnusedStore {
    #[arg(long = "store", value_name = "FILE", hide = true)]
    pub unused_store: Option<PathBuf>,
}

/// Every common option, for commands that use none of them.
#[derive(Debug, Clone, Args)]
pub struct UnusedCommon {
    #[command(flatten)]
    pub config: UnusedConfig,
    #[command(flatten)]
    pub store: UnusedStore,
    #[command(flatten)]
    pub session: UnusedSession,
    #[command(flatten)]
    pub pi: UnusedPi,
}

/// Just the store location.
#[derive(Debug, Args)]
pub struct StoreArgs {
    /// The event store (default: $ASK_USER_STORE, else the platform data dir).
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    #[command(flatten)]
    pub unused_config: UnusedConfig,
    #[command(flatten)]
    pub unused_session: UnusedSession,
    #[command(flatten)]
    pub unused_pi: UnusedPi,
}

#[derive(Debug, Args)]
pub struct AskArgs {
    /// The payload file; `-` or nothing reads stdin.
    pub file: Option<PathBuf>,
    /// A flow id (e.g. the agent's tool-call id): non-blank, no control characters.
    #[arg(long, value_name = "ID", value_parser = parse_flow_id)]
    pub id: Option<String>,
    /// If another process is showing the flow with this --id, exit 6 at once instead of
    /// waiting for its answer.
    #[arg(long, requires = "id")]
    pub no_wait: bool,
    #[command(flatten)]
    pub flow: FlowArgs,
    #[command(flatten)]
    pub unused_pi: UnusedPi,
}
