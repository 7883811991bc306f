//! `ask-user answer`: /answer and /answer:again.

use anyhow::{Context, bail};
use ask_engine::Origin;
use ask_schema::{FormSource, validate};
use ask_storage::{Store, pi_session};

use crate::cli::AnswerArgs;
use crate::exit::Status;
use crate::extractor::{ExtractorCommand, extract};
use crate::runtime::{Report, new_flow_id, open_form};

pub fn run_answer(args: &AnswerArgs) -> anyhow::Result<Status> {
    let store = crate::paths::open_store(args.flow.store.as_deref())?;
    let mut source_entry = None;
    let raw = if let Some(path) = &args.form {
        let text =
            crate::input::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
        match ask_schema::parse_json(&text) {
            Ok(raw) => raw,
            Err(issues) => {
                errln!("{}", ask_engine::project::text::invalid_text(&issues));
                return Ok(Status::Invalid);
            }
        }
    } else if args.again {
        match newest_extracted(args, &store)? {
            Some(raw) => raw,
            None => {
                errln!("ask-user: no /answer form found to reopen");
                return Ok(Status::NoForm);
            }
        }
    } else {
        let Some((message, entry)) = assistant_text(args)? else { return Ok(Status::NoForm) };
        source_entry = entry;
        let config = crate::paths::load_settings_saying_why(crate::paths::config_path(&args.flow).as_deref());
        let command = match &args.extractor {
            Some(line) => ExtractorCommand::from_flag(line),
            None if !config.answer.extraction_command.is_empty() => {
                ExtractorCommand::Argv(config.answer.extraction_command.clone())
            }
            None => bail!(
                "no extractor configured: set answer.extractionCommand in the config file or pass --extractor"
            ),
        };
        let timeout = std::time::Duration::from_millis(config.answer.extraction_timeout_ms);
        extract(&command, &message, timeout, config.answer.extraction_retries)?
    };
    if raw["questions"].as_array().is_some_and(Vec::is_empty) {
        errln!("ask-user: no questions found in the assistant message");
        return Ok(Status::NoForm);
    }
    let form = match validate(&raw, FormSource::AnswerExtraction) {
        Ok(form) => form,
        Err(issues) => {
            errln!("{}", ask_engine::project::text::invalid_text(&issues));
            return Ok(Status::Invalid);
        }
    };
    if args.extract_only {
        outln!("{}", serde_json::json!({"form": raw, "sourceEntryId": source_entry}));
        return Ok(Status::Done);
    }
    let origin = Origin { source: FormSource::AnswerExtraction, command: "answer".to_owned() };
    let new_payload = (!args.again).then(|| (new_flow_id(), raw.to_string()));
    open_form(&store, &args.flow, form, origin, new_payload, Report::CommandText)
}

/// The message to extract from, with its pi entry id: `--text`, or the newest assistant message
/// on the pi branch, which must have finished with `stop`. `None` after telling the user why
/// there is none.
fn assistant_text(args: &AnswerArgs) -> anyhow::Result<Option<(String, Option<String>)>> {
    if let Some(path) = &args.text {
        let text =
            crate::input::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
        return Ok(Some((text, None)));
    }
    let Some(file) = &args.pi.pi_session else {
        bail!("give the assistant message with --text FILE or --pi-session FILE");
    };
    let entries = crate::input::pi_entries(file)?;
    let branch = pi_session::branch(&entries, args.pi.leaf.as_deref())?;
    let Some(message) = pi_session::latest_assistant(&branch) else {
        errln!("ask-user: no assistant message with text on this branch");
        return Ok(None);
    };
    if message.stop_reason.as_deref() != Some("stop") {
        let why = message.stop_reason.as_deref().unwrap_or("none");
        errln!(
            "ask-user: the latest assistant message did not finish (stopReason: {why}); extraction refused"
        );
        return Ok(None);
    }
    Ok(Some((message.text, Some(message.entry_id))))
}

/// The newest `/answer` form of the session, or of the pi branch with `--pi-session`.
fn newest_extracted(args: &AnswerArgs, store: &Store) -> anyhow::Result<Option<serde_json::Value>> {
    if let Some(file) = &args.pi.pi_session {
        let entries = crate::input::pi_entries(file)?;
        let branch = pi_session::branch(&entries, args.pi.leaf.as_deref())?;
        crate::commands::reopen::skipped_notice(&branch);
        let forms = pi_session::stored_forms(&branch);
        return Ok(forms
            .into_iter()
            .rev()
            .find(|f| f.source == FormSource::AnswerExtraction)
            .map(|f| f.params));
    }
    let payloads = store.payloads(&args.flow.session)?;
    Ok(payloads
        .into_iter()
        .rev()
        .find(|p| p.source == FormSource::AnswerExtraction)
        .map(|p| p.params_value()))
}
