//! The pi package (`frontends/pi`) inside real pi, offline, on both pi lines: every case is
//! checked in pi's session JSONL file, not on the screen.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod pi_host;

use common::Sandbox;
use pi_host::{PATIENCE, PiLine, messages, only_session, sessions, stored_payloads, text};
use rstest::rstest;
use serde_json::{Value, json};

const PROMPT: &str = "Set up the project";

/// Answers a form the way a person does: for each question, waits until its text shows and
/// types the key; then submits on the review tab with Enter.
fn answer(pty: &mut common::pty::Pty, steps: &[(&str, &str)]) {
    for (shown, key) in steps {
        pty.wait_for_within(shown, PATIENCE);
        pty.send(key);
    }
    pty.wait_for_within("Submit", PATIENCE);
    pty.send("\r");
}

/// A pi run whose model asks the lab's database form, answered with PostgreSQL; pi exits.
fn first_run_answered(pi: &PiLine, sb: &Sandbox) {
    let mut pty = pi.tui(sb, &[PROMPT], &[("PILAB_SHUTDOWN_AFTER", "1")]);
    answer_postgres(&mut pty);
    pty.wait_exit_within(PATIENCE);
}

/// Answers the lab's database form with PostgreSQL and submits it.
fn answer_postgres(pty: &mut common::pty::Pty) {
    answer(pty, &[("PostgreSQL", "1")]);
}

#[rstest]
fn a_tool_call_answered_with_keys_returns_the_details_and_stores_the_payload_first(
    #[values("0.73.1", "1.6.0")] version: &'static str,
) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    let mut pty = pi.tui(&sb, &[PROMPT], &[("PILAB_SHUTDOWN_AFTER", "1")]);
    answer_postgres(&mut pty);
    pty.wait_exit_within(PATIENCE);
    // pi's transcript shows ask-user's own rows for the call and the result.
    let screen = pty.screen();
    assert!(screen.contains(r#"ask_user "Project setup" · 1 question: Database"#), "{screen}");
    assert!(screen.contains("✓ Database: PostgreSQL"), "{screen}");

    let entries = only_session(&sb);
    let results = messages(&entries, "toolResult");
    assert_eq!(results.len(), 1, "one ask_user result");
    let details = &results[0]["details"];
    assert_eq!(details["cancelled"], false);
    assert_eq!(details["mode"], "submit");
    assert_eq!(details["answers"]["db"]["values"], json!(["postgres"]));
    assert_eq!(details["answers"]["db"]["labels"], json!(["PostgreSQL"]));
    assert_eq!(text(results[0]), "Database: PostgreSQL");

    // The reference's exact entry shape, written before the form opened.
    let payloads = stored_payloads(&entries);
    assert_eq!(payloads.len(), 1);
    let call = &messages(&entries, "assistant")[0]["content"][1];
    assert_eq!(payloads[0]["version"], 1);
    assert_eq!(payloads[0]["source"], "tool");
    assert_eq!(payloads[0]["sourceEntryId"], call["id"]);
    assert_eq!(payloads[0]["params"], call["arguments"]);
    assert!(payloads[0]["timestamp"].as_u64().is_some());
    let position = |pred: &dyn Fn(&Value) -> bool| entries.iter().position(pred).unwrap();
    assert!(
        position(&|e| e["type"] == "custom") < position(&|e| e["message"]["role"] == "toolResult"),
        "ask:payload precedes the result"
    );
}

#[rstest]
fn an_invalid_payload_returns_every_issue_in_one_result_and_stores_nothing(
    #[values("0.73.1", "1.6.0")] version: &'static str,
) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    // Three issues, one of which (an unknown type) a strict schema would have refused before
    // the tool ran.
    let payload = sb.file(
        "bad.json",
        r#"{"questions":[{"id":"a","prompt":"","type":"dropdown","options":[{"value":"x","label":"X"}]},{"id":"a","prompt":"B?","options":[]}]}"#,
    );
    let env = [("PILAB_SHUTDOWN_AFTER", "1"), ("PILAB_PAYLOAD", payload.to_str().unwrap())];
    let mut pty = pi.tui(&sb, &[PROMPT], &env);
    pty.wait_exit_within(PATIENCE);

    let entries = only_session(&sb);
    let results = messages(&entries, "toolResult");
    assert_eq!(results.len(), 1);
    let error = &results[0]["details"]["error"];
    assert_eq!(error["kind"], "invalid_input");
    let paths: Vec<&str> =
        error["issues"].as_array().unwrap().iter().map(|i| i["path"].as_str().unwrap()).collect();
    for path in ["questions[0].prompt", "questions[0].type", "questions[1].id", "questions[1].options"] {
        assert!(paths.contains(&path), "{path} missing from {paths:?}");
    }
    assert!(text(results[0]).starts_with("Invalid ask_user payload:"));
    assert!(stored_payloads(&entries).is_empty(), "no ask:payload for an invalid call");
}

fn assert_needs_user_input(sb: &Sandbox) {
    let entries = only_session(sb);
    let results = messages(&entries, "toolResult");
    assert_eq!(results.len(), 1);
    assert!(text(results[0]).starts_with("Needs user input"), "{}", text(results[0]));
    assert_eq!(results[0]["details"]["cancelled"], true);
    assert_eq!(results[0]["details"]["questions"][0]["id"], "db");
    assert_eq!(stored_payloads(&entries).len(), 1, "a valid payload is stored even without a terminal");
}

#[rstest]
fn print_mode_gives_needs_user_input(#[values("0.73.1", "1.6.0")] version: &'static str) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    let out = pi.headless(&sb, &["-p", PROMPT], &[], None);
    assert!(out.contains("Needs user input"), "pi printed: {out}");
    assert_needs_user_input(&sb);
}

#[rstest]
fn rpc_mode_gives_needs_user_input(#[values("0.73.1", "1.6.0")] version: &'static str) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    let prompt = format!("{}\n", json!({"type": "prompt", "message": PROMPT}));
    pi.headless(&sb, &["--mode", "rpc"], &[], Some(&prompt));
    assert_needs_user_input(&sb);
}

#[rstest]
fn two_calls_in_one_message_are_answered_in_turn(#[values("0.73.1", "1.6.0")] version: &'static str) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    let mut pty = pi.tui(&sb, &[PROMPT], &[("PILAB_SHUTDOWN_AFTER", "1"), ("PILAB_TWO", "1")]);
    // pi starts both calls at once; whichever takes the terminal first, the other waits for it.
    let start = std::time::Instant::now();
    let first = loop {
        let screen = pty.screen();
        if let Some(p) = ["Which database", "Which CI?"].into_iter().find(|p| screen.contains(p)) {
            break p;
        }
        assert!(start.elapsed() < PATIENCE, "no form opened:\n{screen}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let second = if first == "Which CI?" { "Which database" } else { "Which CI?" };
    for prompt in [first, second] {
        answer(&mut pty, &[(prompt, "1")]);
    }
    pty.wait_exit_within(PATIENCE);

    let entries = only_session(&sb);
    let results = messages(&entries, "toolResult");
    assert_eq!(results.len(), 2, "both calls answered");
    let mut answered: Vec<String> = results
        .iter()
        .map(|r| {
            assert_eq!(r["details"]["cancelled"], false, "{r}");
            text(r)
        })
        .collect();
    answered.sort();
    assert_eq!(answered, ["CI: GitHub Actions", "Database: PostgreSQL"]);
    assert_eq!(stored_payloads(&entries).len(), 2);
}

/// Waits until pi's editor is ready for a command (its footer names the scripted model).
fn wait_ready(pty: &common::pty::Pty) {
    pty.wait_for_within("scripted-1", PATIENCE);
    std::thread::sleep(std::time::Duration::from_millis(500));
}

/// Types a slash command the way a person does: the text, then Enter.
fn command(pty: &mut common::pty::Pty, line: &str) {
    pty.send(line);
    std::thread::sleep(std::time::Duration::from_millis(300));
    pty.send("\r");
}

#[rstest]
fn ask_replay_in_a_later_run_reopens_the_form_and_sends_the_answer_as_a_user_message(
    #[values("0.73.1", "1.6.0")] version: &'static str,
) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    first_run_answered(&pi, &sb);

    let mut later = pi.tui(&sb, &["--continue"], &[("PILAB_SHUTDOWN_AFTER", "1"), ("PILAB_ECHO", "1")]);
    wait_ready(&later);
    // A cancelled command form is a notice; nothing is sent.
    command(&mut later, "/ask:replay");
    later.wait_for_within("Which database", PATIENCE);
    later.send("\x1b");
    later.wait_for_within("Form cancelled; nothing was sent.", PATIENCE);
    wait_ready(&later);
    command(&mut later, "/ask:replay");
    answer(&mut later, &[("Which database", "2")]);
    later.wait_exit_within(PATIENCE);

    let entries = only_session(&sb);
    let users = messages(&entries, "user");
    assert_eq!(
        users.len(),
        2,
        "the prompt, then the replayed form's answer (the cancelled one sent nothing)"
    );
    assert_eq!(text(users[1]), "Database: SQLite");
    assert_eq!(stored_payloads(&entries).len(), 1, "a replay stores no new payload");
    let last = messages(&entries, "assistant").pop().unwrap();
    assert_eq!(text(last), "echo: Database: SQLite", "the model got it as a user message");
}

#[rstest]
fn answer_turns_an_assistant_message_into_a_form_on_pis_own_model(
    #[values("0.73.1", "1.6.0")] version: &'static str,
) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    let form = json!({"questions": [
        {"id": "db", "label": "Database", "prompt": "Which database do you want?",
         "options": [{"value": "postgres", "label": "PostgreSQL"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "ci", "label": "CI", "prompt": "Should I add a CI workflow?",
         "options": [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]}
    ]});
    let extract = sb.file("extract.json", &form.to_string());
    let env = [
        ("PILAB_QUESTIONS", "1"),
        ("PILAB_EXTRACT", extract.to_str().unwrap()),
        // The model's first reply is prose: ask-user's retry rules get a usable form anyway.
        ("PILAB_EXTRACT_BAD_FIRST", "1"),
        ("PILAB_SHUTDOWN_AFTER", "3"),
    ];
    let mut pty = pi.tui(&sb, &[PROMPT], &env);
    pty.wait_for_within("Before I start", PATIENCE);
    wait_ready(&pty);
    command(&mut pty, "/answer");
    answer(&mut pty, &[("Which database do you want?", "2"), ("Should I add a CI workflow?", "1")]);
    // /answer:again reopens the same form without asking the model.
    pty.wait_for_within("Database: SQLite", PATIENCE);
    wait_ready(&pty);
    command(&mut pty, "/answer:again");
    answer(&mut pty, &[("Which database do you want?", "1"), ("Should I add a CI workflow?", "2")]);
    pty.wait_exit_within(PATIENCE);

    let entries = only_session(&sb);
    let payloads = stored_payloads(&entries);
    assert_eq!(payloads.len(), 1, "/answer:again stores no new form");
    assert_eq!(payloads[0]["source"], "answer-extraction");
    assert_eq!(payloads[0]["params"], form);
    let asked = entries.iter().find(|e| e["message"]["role"] == "assistant").unwrap();
    assert_eq!(payloads[0]["sourceEntryId"], asked["id"], "the entry the questions came from");
    let users = messages(&entries, "user");
    assert_eq!(users.len(), 3);
    let sent = text(users[1]);
    assert!(sent.contains("Database: SQLite") && sent.contains("CI: Yes"), "{sent}");
    let again = text(users[2]);
    assert!(again.contains("Database: PostgreSQL") && again.contains("CI: No"), "{again}");
}

#[rstest]
fn ask_settings_opens_the_overlay_and_saves_a_toggle_to_ask_users_config(
    #[values("0.73.1", "1.6.0")] version: &'static str,
) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    let config = sb.file(
        "config.json",
        r#"{"schemaVersion":2,"behaviour":{"autoSubmitWhenAnsweredWithoutNotes":false}}"#,
    );
    let mut pty = pi.tui(&sb, &[], &[("PILAB_SHUTDOWN_AFTER", "1")]);
    wait_ready(&pty);
    command(&mut pty, "/ask-settings");
    pty.wait_for_within("Ask settings", PATIENCE);
    pty.send(" ");
    pty.wait_for_within("[on]  Auto-submit", PATIENCE);
    pty.send("\x1b");
    wait_ready(&pty);
    command(&mut pty, "ping");
    pty.wait_exit_within(PATIENCE);

    let saved: Value = serde_json::from_str(&std::fs::read_to_string(config).unwrap()).unwrap();
    assert_eq!(saved["behaviour"]["autoSubmitWhenAnsweredWithoutNotes"], true);
    let replies: Vec<String> = messages(&only_session(&sb), "assistant").iter().map(|m| text(m)).collect();
    assert_eq!(replies, ["pong"], "pi took its terminal back");
}

#[rstest]
fn an_abort_while_a_form_is_open_leaves_pi_usable_and_the_flow_resumable(
    #[values("0.73.1", "1.6.0")] version: &'static str,
) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    let env = [("PILAB_ABORT_MS", "3000"), ("PILAB_SHUTDOWN_AFTER", "2")];
    let mut pty = pi.tui(&sb, &[PROMPT], &env);
    pty.wait_for_within("Which database", PATIENCE);
    pty.send("\x1b[B"); // Down: the cursor on SQLite, a committed event
    let start = std::time::Instant::now();
    while pty.screen().contains("Which database") {
        assert!(start.elapsed() < PATIENCE, "the form did not close on abort");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    wait_ready(&pty);
    command(&mut pty, "ping");
    pty.wait_exit_within(PATIENCE);
    assert!(!pty.modes().0, "pi left the alternate screen of the form");

    let entries = only_session(&sb);
    let replies: Vec<String> = messages(&entries, "assistant").iter().map(|m| text(m)).collect();
    assert_eq!(replies.last().map(String::as_str), Some("pong"), "pi answered after the abort: {replies:?}");

    // The flow is kept: the same call id resumes it where the user left it.
    let session_id = entries[0]["id"].as_str().unwrap();
    let call = &messages(&entries, "assistant")[0]["content"][1]["id"];
    let flow = format!("{session_id}:{}", call.as_str().unwrap());
    let list = sb.run(&["log", "list"]);
    assert!(list.stdout.lines().any(|l| l.contains(&flow)), "{}", list.stdout);
    let keys = sb.file("keys.txt", "enter\nenter\n");
    let payload = entries.iter().find(|e| e["type"] == "custom").unwrap()["data"]["params"].to_string();
    let file = sb.file("payload.json", &payload);
    let resumed = sb.run(&[
        "ask",
        file.to_str().unwrap(),
        "--id",
        &flow,
        "--session",
        session_id,
        "--script",
        keys.to_str().unwrap(),
    ]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(resumed.json()["details"]["answers"]["db"]["values"], json!(["sqlite"]));
}

#[rstest]
fn the_same_tool_call_id_in_a_new_session_with_another_payload_asks_again(
    #[values("0.73.1", "1.6.0")] version: &'static str,
) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    first_run_answered(&pi, &sb);

    let other = sb.file(
        "lang.json",
        r#"{"questions":[{"id":"lang","label":"Language","prompt":"Which language?","options":[{"value":"rust","label":"Rust"},{"value":"go","label":"Go"}]}]}"#,
    );
    let env = [("PILAB_SHUTDOWN_AFTER", "1"), ("PILAB_PAYLOAD", other.to_str().unwrap())];
    let mut second = pi.tui(&sb, &[PROMPT], &env);
    answer(&mut second, &[("Which language?", "2")]);
    second.wait_exit_within(PATIENCE);

    let all = sessions(&sb);
    assert_eq!(all.len(), 2);
    let call_id = |entries: &[Value]| messages(entries, "toolResult")[0]["toolCallId"].clone();
    assert_eq!(call_id(&all[0]), call_id(&all[1]), "the model reused the call id");
    let result = &messages(&all[1], "toolResult")[0]["details"];
    assert_eq!(result["answers"]["lang"]["values"], json!(["go"]));
    assert!(result.get("error").is_none(), "no id conflict: {result}");
}

#[rstest]
fn a_missing_binary_is_named_in_the_tool_result(#[values("0.73.1", "1.6.0")] version: &'static str) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    let missing = sb.path("no-such-ask-user");
    pi.headless(&sb, &["-p", PROMPT], &[("ASK_USER_BIN", missing.to_str().unwrap())], None);
    let entries = only_session(&sb);
    let results = messages(&entries, "toolResult");
    assert_eq!(results[0]["isError"], true);
    let said = text(results[0]);
    assert!(said.contains("ASK_USER_BIN is set to") && said.contains("not an executable file"), "{said}");
}

#[rstest]
fn pi_install_of_the_package_folder_gives_pi_the_tool(#[values("0.73.1", "1.6.0")] version: &'static str) {
    let pi = PiLine::get(version);
    let sb = Sandbox::new();
    pi.install_package(&sb);
    let mut pty = pi.tui_installed(&sb, &[PROMPT], &[("PILAB_SHUTDOWN_AFTER", "1")]);
    answer_postgres(&mut pty);
    pty.wait_exit_within(PATIENCE);
    let entries = only_session(&sb);
    assert_eq!(
        messages(&entries, "toolResult")[0]["details"]["answers"]["db"]["values"],
        json!(["postgres"])
    );
}
