//! The command line (SPEC §7), declared with clap.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// ask-user: let an agent stop and ask its user structured questions.
#[derive(Debug, Parser)]
#[command(name = "ask-user", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The ask_user tool: validate a payload, run the flow, print the tool result JSON.
    Ask(AskArgs),
    /// Print the JSON Schema of the tool input or result.
    Schema {
        /// Which schema.
        #[arg(value_enum, default_value_t = SchemaKind::Input)]
        kind: SchemaKind,
    },
    /// Render a payload (call) or a tool result (result) as transcript rows.
    Transcript {
        /// `call` for a payload file, `result` for a result file.
        #[arg(value_enum)]
        kind: TranscriptKind,
        /// The file to render (`-` for stdin).
        file: PathBuf,
    },
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
#[derive(Debug, Args)]
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
}

#[derive(Debug, Args)]
pub struct AskArgs {
    /// The payload file; `-` or nothing reads stdin.
    pub file: Option<PathBuf>,
    /// A flow id (e.g. the agent's tool-call id).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    #[command(flatten)]
    pub flow: FlowArgs,
}
