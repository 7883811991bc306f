//! The event log through the binary: resume, exactly-once results, replay, log commands.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::{PAYLOAD, Sandbox};
use serde_json::json;

fn s(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn resume_reopens_the_exact_screen_with_the_open_editor_and_draft() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let part1 = sb.file("k1", "down\ndown\ntype \"draf\"\n");
    let r = sb.run(&["ask", s(&p), "--script", s(&part1)]);
    assert_eq!((r.code, r.stdout.as_str()), (4, ""));
    let part2 = sb.file("k2", "type \"t\"\nenter\nspace\ntab\n1\n1\n");
    let r = sb.run(&["resume", "--script", s(&part2)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.json()["details"]["answers"],
        json!({"db":{"values":["draft"],"labels":["draft"],"indices":[],"customText":"draft"},
               "extras":{"values":["ci"],"labels":["CI"],"indices":[1]}})
    );
}

#[test]
fn spec8_ask_with_the_id_of_a_finished_flow_returns_the_recorded_result() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let keys = sb.file("k", "2\ntab\n1\n1\n");
    let first = sb.run(&["ask", s(&p), "--id", "call_9", "--script", s(&keys)]);
    assert_eq!(first.code, 0);
    let esc = sb.file("esc", "esc\n");
    let again = sb.run(&["ask", s(&p), "--id", "call_9", "--script", s(&esc)]);
    assert_eq!(
        (again.code, again.stdout.as_str()),
        (0, first.stdout.as_str()),
        "same result, not asked again"
    );
    let again = sb.run(&["ask", s(&p), "--id", "call_9", "--no-ui"]);
    assert_eq!(again.stdout, first.stdout, "even without a terminal");
    let store = ask_storage::Store::open(&sb.store()).unwrap();
    assert_eq!(store.flows().unwrap().len(), 1);
    assert_eq!(store.payloads("default").unwrap().len(), 1, "a recorded answer stores no new payload");
}

#[test]
fn spec8_ask_with_the_id_of_an_unfinished_flow_continues_it() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    sb.run(&["ask", s(&p), "--id", "c1", "--script", s(&sb.file("a", "2\n"))]);
    let r = sb.run(&["ask", s(&p), "--id", "c1", "--script", s(&sb.file("b", "tab\n1\n1\n"))]);
    assert_eq!(r.json()["details"]["answers"]["db"]["values"], json!(["sqlite"]));
}

#[test]
fn contract_no_ui_payload_is_stored_and_ask_replay_reopens_it() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    assert_eq!(sb.run(&["ask", s(&p), "--no-ui"]).code, 3);
    let r = sb.run(&["replay", "--script", s(&sb.file("k", "1\ntab\n1\n1\n"))]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "Database: Postgres\n", "command flows print the result text");
    assert_eq!(r.stderr, "ask-user: replaying 2 questions\n");
    let store = ask_storage::Store::open(&sb.store()).unwrap();
    assert_eq!(store.payloads("default").unwrap().len(), 1, "replays append no payload");
}

#[test]
fn spec7_cancelled_command_flow_prints_a_notice_and_nothing_on_stdout() {
    let sb = Sandbox::new();
    sb.run(&["ask", s(&sb.file("p.json", PAYLOAD)), "--no-ui"]);
    let r = sb.run(&["replay", "--script", s(&sb.file("k", "esc\n"))]);
    assert_eq!((r.code, r.stdout.as_str()), (1, ""));
    assert!(r.stderr.ends_with("ask-user: cancelled; nothing was sent\n"), "{}", r.stderr);
}

#[test]
fn replay_with_nothing_stored_says_so() {
    let sb = Sandbox::new();
    let r = sb.run(&["replay", "--script", s(&sb.file("k", "1\n"))]);
    assert_eq!(r.code, 5);
    assert_eq!(r.stderr, "ask-user: no ask_user form found to replay\n");
}

#[test]
fn replay_sessions_are_separate() {
    let sb = Sandbox::new();
    sb.run(&["ask", s(&sb.file("p.json", PAYLOAD)), "--no-ui", "--session", "one"]);
    let r = sb.run(&["replay", "--session", "two", "--no-ui"]);
    assert_eq!(r.code, 5);
}

fn fixture() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../storage/tests/fixtures/pi-session-two-branches.jsonl"
    ))
    .unwrap()
}

#[rstest::rstest]
#[case::default_leaf_is_branch_b(None, "1\ntab\n1\n1\n", "replaying 2 questions", "Database: SQLite\n")]
#[case::explicit_leaf_on_branch_a(
    Some("44ce8db4"),
    "1\n1\n1\n",
    "replaying 1 question",
    "Database: PostgreSQL\n"
)]
fn spec7_replay_from_a_pi_session_branch(
    #[case] leaf: Option<&str>,
    #[case] keys: &str,
    #[case] notice: &str,
    #[case] text: &str,
) {
    let sb = Sandbox::new();
    let pi = sb.file("session.jsonl", &fixture());
    let k = sb.file("k", keys);
    let mut args = vec!["replay", "--pi-session", s(&pi), "--script", s(&k)];
    if let Some(leaf) = leaf {
        args.extend(["--leaf", leaf]);
    }
    let r = sb.run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains(notice), "{}", r.stderr);
    assert_eq!(r.stdout, text);
}

#[test]
fn spec7_replay_reports_a_stored_form_that_no_longer_validates() {
    let sb = Sandbox::new();
    let mut text = fixture();
    text.push_str(r#"{"type":"custom","customType":"ask:payload","id":"bad1","parentId":"8298ab9e","data":{"version":1,"source":"tool","params":{"questions":[{"id":"x","prompt":"P","options":[]}]}}}"#);
    text.push('\n');
    let pi = sb.file("session.jsonl", &text);
    let r = sb.run(&["replay", "--pi-session", s(&pi), "--no-ui"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("form incompatible"), "{}", r.stderr);
}

#[test]
fn log_list_show_export_and_deterministic_replay() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let done = sb.run(&["ask", s(&p), "--id", "f1", "--script", s(&sb.file("k", "2\npaste \"x\"\nesc\n"))]);
    assert_eq!(done.code, 4);
    let list = sb.run(&["log", "list"]);
    // Left open by a script that ended: no process shows it, `resume` takes it.
    assert!(list.stdout.starts_with("f1  ") && list.stdout.contains(" resumable "), "{}", list.stdout);
    let show = sb.run(&["log", "show", "f1"]);
    let lines: Vec<&str> = show.stdout.lines().collect();
    assert!(lines[0].contains("opened by ask: 2 question(s) [Database, Extras], 80x24"), "{}", show.stdout);
    // The paste opened the answer's editor: the frame after it records the editor's width, as
    // a live terminal at the flow's size does (80 columns, less the multi row's indent).
    assert_eq!(
        &lines[1..5],
        [
            "    1  key 2",
            "    2  paste \"x\"",
            "    3  editor drawn 71 cells wide, rows broken at spaces",
            "    4  key esc"
        ]
    );
    let out = sb.path("f1.jsonl");
    assert_eq!(sb.run(&["log", "export", "f1", "-o", s(&out)]).code, 0);
    let stdout_export = sb.run(&["log", "export", "f1"]).stdout;
    assert_eq!(std::fs::read_to_string(&out).unwrap(), stdout_export);
    let unfinished = sb.run(&["log", "replay", s(&out)]);
    assert_eq!(unfinished.code, 4, "{}", unfinished.stderr);
    assert!(unfinished.stdout.is_empty(), "no result for a form never finished: {}", unfinished.stdout);
    assert_eq!(unfinished.stderr, "ask-user: the logged flow did not complete (5 events folded)\n");
    sb.run(&["resume", "f1", "--script", s(&sb.file("k2", "tab\n1\n1\n"))]);
    sb.run(&["log", "export", "f1", "-o", s(&out)]);
    let a = sb.run(&["log", "replay", s(&out)]);
    let b = sb.run(&["log", "replay", s(&out)]);
    assert_eq!(a.code, 0);
    assert_eq!(a.stdout, b.stdout, "replay is deterministic");
    assert_eq!(a.json()["details"]["answers"]["extras"]["customText"], "x");
}

/// A store damaged past redb's first bytes (what the first bytes of every store are, then junk).
const DAMAGED_STORE: &[u8] = b"redb\x1a\x0a\xa9\x0d\x0agarbage garbage garbage";

#[test]
fn spec9_corrupt_store_gives_a_one_line_error_moves_it_aside_and_the_next_run_works() {
    let sb = Sandbox::new();
    std::fs::write(sb.store(), DAMAGED_STORE).unwrap();
    let r = sb.run(&["ask", s(&sb.file("p.json", PAYLOAD)), "--no-ui"]);
    assert_eq!(r.code, 5);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("store.redb") && r.stderr.contains("moved aside to"), "{}", r.stderr);
    let aside = r.stderr.split("moved aside to ").nth(1).unwrap().trim();
    assert_eq!(std::fs::read(std::path::Path::new(aside).join("store.redb")).unwrap(), DAMAGED_STORE);
    let again = sb.run(&["ask", s(&sb.file("p.json", PAYLOAD)), "--no-ui"]);
    assert_eq!(again.code, 3, "a new store: {}", again.stderr);
}

/// `--store` naming a file that is no store — the config file, given by mistake for `--config`
/// — is refused in one line and left as it was: it used to be moved aside and a store made in
/// its place, so the next load of that config found a store there and reset it to defaults.
#[test]
fn spec9_a_file_that_is_no_store_given_as_the_store_is_refused_and_kept() {
    let sb = Sandbox::new();
    let config = sb.file("config.json", r#"{"ui":{"notify":"bell"}}"#);
    let r = sb.run(&["ask", s(&sb.file("p.json", PAYLOAD)), "--no-ui", "--store", s(&config)]);
    assert_eq!(r.code, 5, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim_end(),
        format!(
            "ask-user: {} is not an ask-user store (not a redb file), so it was left as it is; move it away, or give another store path (--store, $ASK_USER_STORE)",
            config.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&config).unwrap(), r#"{"ui":{"notify":"bell"}}"#);
    let names: Vec<_> = std::fs::read_dir(sb.path(".")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(!names.iter().any(|n| n.to_string_lossy().contains("unreadable")), "{names:?}");
}

/// The store opens while the payload is read and validated: a payload that is invalid or cannot
/// be read still decides the answer, and a damaged store found meanwhile is still moved aside
/// out loud, not in silence.
#[rstest::rstest]
#[case::invalid_payload(Some(r#"{"questions":[]}"#), 2, 1)]
#[case::unreadable_payload(None, 5, 2)]
fn spec9_the_payload_decides_and_a_damaged_store_found_meanwhile_is_still_said(
    #[case] payload: Option<&str>,
    #[case] code: i32,
    #[case] stderr_lines: usize,
) {
    let sb = Sandbox::new();
    std::fs::write(sb.store(), DAMAGED_STORE).unwrap();
    let file = match payload {
        Some(text) => sb.file("bad.json", text),
        None => sb.path("missing.json"),
    };
    let r = sb.run(&["ask", s(&file), "--no-ui"]);
    assert_eq!(r.code, code, "{}", r.stderr);
    match payload {
        Some(_) => assert_eq!(r.json()["details"]["error"]["kind"], "invalid_input", "{}", r.stdout),
        None => assert!(r.stderr.contains("cannot read payload"), "{}", r.stderr),
    }
    assert_eq!(r.stderr.lines().count(), stderr_lines, "{}", r.stderr);
    assert!(r.stderr.contains("store.redb") && r.stderr.contains("moved aside to"), "{}", r.stderr);
    let again = sb.run(&["ask", s(&sb.file("p.json", PAYLOAD)), "--no-ui"]);
    assert_eq!(again.code, 3, "a new store: {}", again.stderr);
}

#[test]
fn log_replay_frames_prints_every_frame_deterministically() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    sb.run(&["ask", s(&p), "--id", "fr", "--size", "60x14", "--script", s(&sb.file("k", "2\ntab\n1\n1\n"))]);
    let out = sb.path("fr.jsonl");
    sb.run(&["log", "export", "fr", "-o", s(&out)]);
    let a = sb.run(&["log", "replay", s(&out), "--frames"]);
    let b = sb.run(&["log", "replay", s(&out), "--frames"]);
    assert_eq!(a.code, 0);
    assert_eq!(a.stdout, b.stdout, "byte-identical");
    assert_eq!(a.stdout.matches("── frame ").count(), 5, "one frame per event");
    assert!(a.stdout.contains("── frame 2: key tab ──"));
    assert!(a.stdout.contains("Press 1 again to Submit"));
    let last = a.stdout.lines().last().unwrap();
    assert!(last.starts_with("{\"content\""), "the result comes last: {last}");
}

#[test]
fn contract_at_file_references_are_offered_from_the_directory_and_replay_reads_no_files() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.path("src")).unwrap();
    std::fs::write(sb.path("src/main.rs"), "").unwrap();
    std::fs::write(sb.path("src/lib.rs"), "").unwrap();
    std::fs::write(sb.path(".gitignore"), "store.redb\nlogs/\n*.json\nk\n").unwrap();
    let p = sb.file("p.json", PAYLOAD);
    let keys = sb.file("k", "3\ntype \"see @srcmain\"\ntab\nenter\ntab\n1\n1\n");
    let r = sb.run(&["ask", s(&p), "--id", "refs", "--script", s(&keys)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["details"]["answers"]["db"]["customText"], "see @src/main.rs");
    let log = sb.run(&["log", "show", "refs"]).stdout;
    assert!(log.contains("paths offered for @srcmain: src/main.rs"), "{log}");
    let exported = sb.path("refs.jsonl");
    sb.run(&["log", "export", "refs", "-o", s(&exported)]);
    std::fs::remove_dir_all(sb.path("src")).unwrap();
    let replayed = sb.run(&["log", "replay", s(&exported)]);
    assert_eq!(replayed.stdout, r.stdout, "the offered paths come from the log, not the disk");
}

/// A stored form of an entry version this build does not know (a newer extension wrote it) is
/// passed over, and the person is told so rather than handed an older form without a word.
#[test]
fn spec7_replay_says_when_it_passed_over_forms_of_an_unknown_version() {
    let sb = Sandbox::new();
    let mut text = fixture();
    text.push_str(r#"{"type":"custom","customType":"ask:payload","id":"new1","parentId":"8298ab9e","data":{"version":99,"source":"tool","params":{"questions":[{"id":"x","prompt":"From the future?","options":[{"value":"a","label":"A"}]}]}}}"#);
    text.push('\n');
    let pi = sb.file("session.jsonl", &text);
    let r = sb.run(&["replay", "--pi-session", s(&pi), "--script", s(&sb.file("k", "1\ntab\n1\n1\n"))]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("skipped 1 stored form(s) of an ask:payload version other than 1"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stdout, "Database: SQLite\n", "the newest form it knows is replayed");
    let known = sb.run(&["replay", "--pi-session", s(&sb.file("s2.jsonl", &fixture())), "--no-ui"]);
    assert!(!known.stderr.contains("skipped"), "{}", known.stderr);
}

/// A flow this build cannot read (here one with an event of a newer ask-user) is listed as
/// unreadable and the others as usual: one such flow used to end `log list` with its error,
/// hiding every flow in the store.
#[test]
fn log_list_lists_the_flows_it_can_read_beside_one_it_cannot() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let keys = sb.file("k", "down\n");
    for id in ["a", "b"] {
        assert_eq!(sb.run(&["ask", s(&p), "--id", id, "--script", s(&keys)]).code, 4);
    }
    {
        let events: redb::TableDefinition<(&str, u64), &[u8]> = redb::TableDefinition::new("events");
        let db = redb::Builder::new()
            .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
            .open(sb.store())
            .unwrap();
        let tx = db.begin_write().unwrap();
        tx.open_table(events)
            .unwrap()
            .insert(("b", 1000), br#"{"v":99,"type":"KeyPressed","key":"down"}"#.as_slice())
            .unwrap();
        tx.commit().unwrap();
    }
    let r = sb.run(&["log", "list"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert!(lines.iter().any(|l| l.starts_with("a ") && l.contains("resumable")), "{}", r.stdout);
    assert!(
        lines.iter().any(|l| l.starts_with("b ")
            && l.contains("unreadable")
            && l.contains("`ask-user log show b` says why")),
        "{}",
        r.stdout
    );
    assert_eq!(r.stderr, "ask-user: 1 flow(s) could not be read; `ask-user log show ID` says why\n");
    let why = sb.run(&["log", "show", "b"]);
    assert!(why.stderr.contains("upgrade ask-user"), "{}", why.stderr);
}
