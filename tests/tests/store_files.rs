//! What ask-user leaves on disk: owner-only files, prunable history, an honest export warning.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::{PAYLOAD, Sandbox};
use rstest::rstest;

fn s(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

#[cfg(unix)]
#[test]
fn store_config_log_and_exports_are_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let r = sb.run(&["ask", s(&p), "--id", "f", "--script", s(&sb.file("k", "1\ntab\n1\n1\n"))]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    sb.run(&["log", "export", "f", "-o", s(&sb.path("f.jsonl"))]);
    let mode = |name: &str| std::fs::metadata(sb.path(name)).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode("store.redb"), 0o600, "store");
    assert_eq!(mode("config.json"), 0o600, "config written with defaults");
    assert_eq!(mode("logs"), 0o700, "log directory");
    assert_eq!(mode("logs/ask-user.log"), 0o600, "log file");
    assert_eq!(mode("f.jsonl"), 0o600, "exported log");
}

/// `ASK_USER_STORE=`, `ASK_USER_CONFIG=` and `ASK_LOG_DIR=` set but empty read as unset: the
/// platform's directories are used. An empty store path used to end every command with
/// "cannot open the store : … No such file or directory".
#[test]
fn empty_path_variables_read_as_unset() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let keys = sb.file("k", "1\ntab\n1\n1\n");
    let out = sb
        .cmd(&["ask", s(&p), "--script", s(&keys)])
        .env("ASK_USER_STORE", "")
        .env("ASK_USER_CONFIG", "")
        .env("ASK_LOG_DIR", "")
        .env("XDG_DATA_HOME", sb.path("data"))
        .env("XDG_CONFIG_HOME", sb.path("config"))
        .env("XDG_STATE_HOME", sb.path("state"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    for made in ["data/ask-user/store.redb", "config/ask-user/config.json", "state/ask-user/ask-user.log"] {
        assert!(sb.path(made).is_file(), "{made}");
    }
}

#[test]
fn log_prune_deletes_finished_flows_and_keeps_open_ones_unless_asked() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    sb.run(&["ask", s(&p), "--id", "done", "--script", s(&sb.file("k1", "esc\n"))]);
    sb.run(&["ask", s(&p), "--id", "open", "--script", s(&sb.file("k2", "down\n"))]);
    let r = sb.run(&["log", "prune", "--older-than", "0s"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("pruned 1 finished flow(s)"), "{}", r.stderr);
    let listed = sb.run(&["log", "list"]).stdout;
    assert!(
        listed.contains("open  ") && listed.contains(" resumable ") && !listed.contains("done "),
        "{listed}"
    );
    let bad = sb.run(&["log", "prune", "--older-than", "3 weeks"]);
    assert_eq!(bad.code, 64, "a bad age is a usage error: {}", bad.stderr);
    // Asked for, the abandoned form goes too.
    let r = sb.run(&["log", "prune", "--older-than", "0s", "--unfinished"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("pruned 1 flow(s) (1 unfinished), 2 event(s)"), "{}", r.stderr);
    assert_eq!(sb.run(&["log", "list"]).stdout.trim(), "", "nothing left");
}

/// Every unit `--older-than` names is understood: a flow finished a moment ago is younger than
/// any of these ages and stays.
#[rstest]
#[case::seconds("90s")]
#[case::bare_seconds("90")]
#[case::minutes("2m")]
#[case::hours("12h")]
#[case::days("30d")]
fn log_prune_understands_each_age_unit(#[case] age: &str) {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    sb.run(&["ask", s(&p), "--id", "done", "--script", s(&sb.file("k", "esc\n"))]);
    let r = sb.run(&["log", "prune", "--older-than", age]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("pruned 0 finished flow(s)"), "{}", r.stderr);
    assert!(sb.run(&["log", "list"]).stdout.contains("done "), "kept");
}

/// `log list` ends each flow's line with what it asked: the form's title, else the first
/// question's prompt, on one line whatever the text holds and cut short.
#[test]
fn log_list_names_each_flow_by_its_title_or_first_prompt() {
    let sb = Sandbox::new();
    let titled = sb.file("p.json", PAYLOAD);
    let untitled = sb.file(
        "u.json",
        r#"{"questions":[{"id":"a","prompt":"Deploy where?\nIt is long: the line is cut short here","options":[{"value":"x","label":"X"}]}]}"#,
    );
    let esc = sb.file("k", "esc\n");
    sb.run(&["ask", s(&titled), "--id", "t", "--script", s(&esc)]);
    sb.run(&["ask", s(&untitled), "--id", "u", "--script", s(&esc)]);
    let listed = sb.run(&["log", "list"]).stdout;
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "one line per flow: {listed}");
    assert!(lines[0].starts_with("t  ") && lines[0].ends_with("session default  Setup"), "{listed}");
    assert!(lines[1].ends_with("session default  Deploy where?␊It is long: the line is c…"), "{listed}");
}

/// `log list` on a store with no flows lists nothing on stdout, as any empty list, and tells
/// the person which store it read, so an empty answer from the wrong store is not a mystery.
#[test]
fn log_list_of_an_empty_store_says_which_store_it_read() {
    let sb = Sandbox::new();
    let r = sb.run(&["log", "list"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert_eq!(r.stderr.trim(), format!("ask-user: the store holds no flows yet ({})", sb.store().display()));
    let p = sb.file("p.json", PAYLOAD);
    sb.run(&["ask", s(&p), "--id", "one", "--script", s(&sb.file("k", "esc\n"))]);
    let r = sb.run(&["log", "list"]);
    assert!(r.stdout.starts_with("one  ") && r.stderr.is_empty(), "{}\n{}", r.stdout, r.stderr);
}

/// `log show` and `log export` without an id take the newest flow: the one a bug report is
/// about, without a trip through `log list` first. An empty store says so in one line.
#[test]
fn log_show_and_export_default_to_the_newest_flow() {
    let sb = Sandbox::new();
    let empty = sb.run(&["log", "show"]);
    assert_eq!(empty.code, 5, "{}", empty.stderr);
    assert_eq!(empty.stderr.trim().lines().count(), 1, "{}", empty.stderr);
    assert!(empty.stderr.contains("no flows"), "{}", empty.stderr);
    let p = sb.file("p.json", PAYLOAD);
    sb.run(&["ask", s(&p), "--id", "older", "--script", s(&sb.file("k1", "esc\n"))]);
    sb.run(&["ask", s(&p), "--id", "newer", "--script", s(&sb.file("k2", "down\ndown\n"))]);
    let shown = sb.run(&["log", "show"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert_eq!(shown.stdout, sb.run(&["log", "show", "newer"]).stdout);
    assert!(shown.stdout.contains("key down") && !shown.stdout.contains("key esc"), "{}", shown.stdout);
    let exported = sb.run(&["log", "export"]).stdout;
    assert_eq!(exported, sb.run(&["log", "export", "newer"]).stdout);
    assert!(exported.contains("\"newer\""), "{exported}");
}

#[test]
fn log_export_help_warns_that_the_file_holds_every_keystroke() {
    let help = Sandbox::new().run(&["log", "export", "--help"]).stdout;
    assert!(help.contains("every keystroke"), "{help}");
}

/// An output file that is the store itself (by its path, a link to it, or a path through `..`)
/// is refused in one line before anything runs: writing the export or the frame there
/// truncated the store, and with it every flow it kept.
#[rstest]
#[case::export_to_the_store(&["log", "export", "-o", "store.redb"])]
#[case::export_through_a_link(&["log", "export", "-o", "link.redb"])]
#[case::a_frame_over_the_store(&["ask", "p.json", "--script", "k", "--frame-out", "logs/../store.redb"])]
#[case::a_replayed_frame_over_the_store(&["replay", "--script", "k", "--frame-out", "store.redb"])]
fn an_output_file_that_is_the_store_is_refused(#[case] args: &[&str]) {
    let sb = Sandbox::new();
    sb.file("p.json", PAYLOAD);
    sb.file("k", "esc\n");
    assert_eq!(sb.run(&["ask", "p.json", "--id", "kept", "--script", "k"]).code, 1);
    #[cfg(unix)]
    std::os::unix::fs::symlink(sb.store(), sb.path("link.redb")).unwrap();
    std::fs::create_dir_all(sb.path("logs")).unwrap();
    let r = sb.run(args); // run in the sandbox: the paths are relative to it
    assert_eq!(r.code, 5, "{}", r.stderr);
    assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("is the store itself"), "{}", r.stderr);
    let listed = sb.run(&["log", "list"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_eq!(listed.stdout.lines().count(), 1, "no flow was added and none lost: {}", listed.stdout);
    assert!(listed.stdout.starts_with("kept "), "{}", listed.stdout);
}

#[test]
fn spec7_validate_prints_the_normalized_form_or_every_issue_and_stores_nothing() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", &PAYLOAD.replace("\"Which database?\"", "\"  Which database?  \""));
    let ok = sb.run(&["validate", s(&p)]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let form = ok.json();
    assert_eq!(form["questions"][0]["prompt"], "Which database?", "normalized (trimmed)");
    assert_eq!(form["questions"][0]["type"], "single", "defaults filled in");
    let bad = sb.file("bad.json", r#"{"questions":[{"id":"","prompt":"","options":[]}]}"#);
    let invalid = sb.run(&["validate", s(&bad)]);
    assert_eq!(invalid.code, 2);
    assert_eq!(invalid.json()["details"]["error"]["kind"], "invalid_input");
    assert!(invalid.json()["details"]["error"]["issues"].as_array().unwrap().len() >= 3);
    assert!(!sb.store().exists(), "validate stores nothing");
}
