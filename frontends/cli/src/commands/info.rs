//! `ask-user schema` and `ask-user transcript`: output that needs no flow.

use std::path::Path;

use anyhow::Context;
use ask_engine::project::transcript::{call_row, result_rows};
use ask_schema::{FormSource, ToolResult, input_schema, result_schema, validate_text};

use crate::cli::{SchemaKind, TranscriptKind};
use crate::exit::Status;

pub fn schema(kind: SchemaKind, lenient: bool) -> anyhow::Result<Status> {
    let schema = match kind {
        SchemaKind::Input if lenient => ask_schema::lenient_input_schema(),
        SchemaKind::Input => input_schema(),
        SchemaKind::Result => result_schema(),
    };
    outln!("{}", serde_json::to_string_pretty(&schema)?);
    Ok(Status::Done)
}

pub fn transcript(kind: TranscriptKind, file: &Path) -> anyhow::Result<Status> {
    let text = crate::input::read_text(file).with_context(|| format!("cannot read {}", file.display()))?;
    match kind {
        TranscriptKind::Call => match validate_text(&text, FormSource::Tool) {
            Ok(form) => outln!("{}", call_row(&form)),
            Err(issues) => {
                outln!(
                    "ask_user · invalid payload ({} issue{})",
                    issues.len(),
                    if issues.len() == 1 { "" } else { "s" }
                );
                return Ok(Status::Invalid);
            }
        },
        TranscriptKind::Result => {
            let result: ToolResult = serde_json::from_str(&text)
                .with_context(|| format!("{} is not an ask_user tool result", file.display()))?;
            for row in result_rows(&result) {
                outln!("{row}");
            }
        }
    }
    Ok(Status::Done)
}
