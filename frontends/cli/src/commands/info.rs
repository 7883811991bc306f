//! `ask-user schema` and `ask-user transcript`: output that needs no flow.

use std::path::Path;

use anyhow::Context;
use ask_engine::project::transcript::{RowKind, call_row, result_rows_with_kinds};
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

pub fn transcript(kind: TranscriptKind, file: &Path, json: bool) -> anyhow::Result<Status> {
    let text = crate::input::read_text(file).with_context(|| format!("cannot read {}", file.display()))?;
    let (rows, status) = match kind {
        TranscriptKind::Call => match validate_text(&text, FormSource::Tool) {
            Ok(form) => (vec![(RowKind::Call, call_row(&form))], Status::Done),
            Err(issues) => {
                let n = issues.len();
                let row = format!("ask_user · invalid payload ({n} issue{})", if n == 1 { "" } else { "s" });
                (vec![(RowKind::Invalid, row)], Status::Invalid)
            }
        },
        TranscriptKind::Result => {
            let result: ToolResult = serde_json::from_str(&text)
                .with_context(|| format!("{} is not an ask_user tool result", file.display()))?;
            (result_rows_with_kinds(&result), Status::Done)
        }
    };
    if json {
        let rows: Vec<_> =
            rows.iter().map(|(kind, text)| serde_json::json!({"kind": kind, "text": text})).collect();
        outln!("{}", serde_json::Value::Array(rows));
    } else {
        for (_, row) in rows {
            outln!("{}", crate::inert::for_stdout(&row, true));
        }
    }
    Ok(status)
}
