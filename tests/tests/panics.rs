//! SPEC §9: the terminal is restored on panic, and nothing committed is lost. A debug build of
//! the binary panics where a test asks it to (`ASK_USER_FAULT=<point>@<file>`: at `point`
//! whenever `file` exists, see `ask_storage::faults`), so these run the real binary in a
//! pseudo-terminal and make it panic mid-form: once as a bug would (after a key is committed),
//! once inside storage code, where redb panics on a damaged page and the store contains it;
//! then on a worker thread while a form shows, and in a tool call of the MCP server.
//! Release builds have no faults to inject, hence debug builds only.
#![cfg(debug_assertions)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::Duration;

use common::pty::Pty;
use common::raw_mcp::RawMcp;
use common::{PAYLOAD, Sandbox, bin};
use rstest::rstest;
use serde_json::{Value, json};

/// `ask-user ask p.json` in an 80×24 terminal, the fault `point` armed by the file `trigger`;
/// its exit status goes to `rc`, its stderr to the terminal unless `stderr` redirects it
/// (`2> err.txt`), and the shell writes `AFTER-THE-FORM` once it has ended.
fn spawn(sb: &Sandbox, point: &str, stderr: &str) -> Pty {
    sb.file("p.json", PAYLOAD);
    let script = format!(
        "'{}' ask p.json > out.json {stderr}; echo \"rc=$?\" > rc; stty -a > stty.txt; echo AFTER-THE-FORM; sleep 1",
        bin().display()
    );
    let fault = format!("{point}@{}", sb.path("trigger").display());
    Pty::spawn_with(sb, &script, 80, 24, &[("ASK_USER_FAULT", &fault)])
}

/// [`spawn`], once the form shows.
fn start(sb: &Sandbox, point: &str, stderr: &str) -> Pty {
    let pty = spawn(sb, point, stderr);
    pty.wait_for("Which database?");
    pty
}

/// A panic that nothing catches (a bug in drawing or folding) after a key was committed: the
/// terminal is put back before anything is printed and is not touched after it (a second "leave
/// the alternate screen" would send the cursor back up, so the shell wrote over the message);
/// stderr gets one line naming the bug and where its backtrace is; the run ends with the error
/// status; and every key committed, the one in hand too, is there for `ask-user resume`.
#[test]
fn spec9_a_bug_mid_form_restores_the_terminal_says_one_line_and_keeps_every_committed_key() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, "after-keys", "");
    pty.send("2");
    pty.wait_for("Which extras?");
    assert_eq!(pty.modes(), (true, true, true), "the form has the terminal");
    sb.file("trigger", "");
    pty.send(" ");
    pty.wait_exit();
    assert_eq!(pty.ended_restored(&sb), "rc=5");
    let screen = pty.screen();
    let said = screen.find("ask-user: internal error at frontends/cli/src/live.rs:").unwrap_or_else(|| {
        panic!("the panic's line names where it happened:\n{screen}");
    });
    let after = screen.find("AFTER-THE-FORM").unwrap();
    let message: String = screen[said..after].lines().collect();
    assert!(
        message.contains("fault injected at after-keys")
            && message.contains("This is a bug; its backtrace is in ")
            && message.ends_with("`ask-user resume` continues a form."),
        "one line, then the shell's next output below it:\n{screen}"
    );
    assert!(!screen.contains("panicked"), "no panic report besides the line:\n{screen}");
    let log = std::fs::read_to_string(sb.path("logs/ask-user.log")).unwrap();
    assert!(log.contains("internal error") && log.contains("ask_user::live::interactive"), "{log}");
    std::fs::remove_file(sb.path("trigger")).unwrap();
    let resumed = sb.run(&["resume", "--script", sb.file("k", "tab\n1\n1\n").to_str().unwrap()]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let answers = &resumed.json()["details"]["answers"];
    assert_eq!(answers["db"]["values"], json!(["sqlite"]));
    assert_eq!(answers["extras"]["values"], json!(["ci"]), "the key that was in hand is kept");
}

/// A panic inside storage code while a form shows is contained by the store and reported as a
/// failed write: the form keeps the terminal, says the key was not saved, prints nothing, and
/// once the store takes writes again the same key is saved and the form ends as usual. What the
/// line says depends on where the panic was raised: in redb (which panics on some damaged pages;
/// `store-write` stands in for it) the store is called damaged; in ask-user's own code inside the
/// transaction it is a bug, and the store is said not to be damaged (being told to move a good
/// store aside would be wrong).
#[rstest]
#[case::redb_on_a_damaged_page("store-write", &["is damaged (fault injected at store-write", "Fix it and type on"])]
#[case::a_bug_of_ours_inside_a_transaction("store-append", &[
    "internal error (fault injected at store-append (ASK_USER_FAULT), at storage/src/store/mod.rs:",
    "a bug in ask-user; nothing was recorded, and the store is not damaged. Type on to try again;",
])]
fn spec9_a_panic_the_store_contains_mid_form_keeps_the_form_and_typing_goes_on(
    #[case] point: &str,
    #[case] said: &[&str],
) {
    let sb = Sandbox::new();
    let mut pty = start(&sb, point, "2> err.txt");
    // The first frame is drawn before the form's opening commit; a key shown is past it (armed
    // earlier, the fault fails the opening commit, and the form ends before it began).
    pty.send("\x1b[B");
    pty.wait_until("the cursor on SQLite", |p| p.screen().contains("❯ 2. SQLite"));
    sb.file("trigger", "");
    pty.send("2");
    let screen = pty.wait_for("Not saved, so not applied").replace('\n', " ");
    assert!(said.iter().all(|s| screen.contains(s)) && screen.contains("Which database?"), "{screen}");
    assert_eq!(screen.contains("is damaged"), point == "store-write", "{screen}");
    assert_eq!(pty.modes(), (true, true, true), "the form still has the terminal");
    std::fs::remove_file(sb.path("trigger")).unwrap();
    pty.send("2");
    pty.wait_for("Which extras?");
    pty.send("\t");
    pty.submit_on_the_review();
    pty.wait_exit();
    assert_eq!(std::fs::read_to_string(sb.path("rc")).unwrap().trim(), "rc=0");
    assert_eq!(std::fs::read_to_string(sb.path("err.txt")).unwrap(), "", "nothing on stderr");
    assert_eq!(sb.out()["details"]["answers"]["db"]["values"], json!(["sqlite"]));
    let log = std::fs::read_to_string(sb.path("logs/ask-user.log")).unwrap();
    assert!(
        log.contains("storage panic caught") && log.contains(&format!("fault injected at {point}")),
        "the log keeps the panic and its backtrace, though a form had the terminal: {log}"
    );
}

/// The same panic in the form's opening commit (its flow, payload and lease: one transaction,
/// run beside the first frame): the form cannot go on without its flow recorded, so it ends at
/// once with the terminal restored and one line on stderr, the error status, nothing on stdout
/// and nothing recorded of it; what the store held before is all still there.
#[rstest]
#[case::redb_on_a_damaged_page("store-write", "is damaged (fault injected at store-write")]
#[case::a_bug_of_ours_inside_a_transaction(
    "store-append",
    "internal error (fault injected at store-append (ASK_USER_FAULT), at storage/src/store/mod.rs:"
)]
fn spec9_a_panic_in_the_opening_commit_ends_the_form_at_once_restored(
    #[case] point: &str,
    #[case] said: &str,
) {
    let sb = Sandbox::new();
    let (payload, keys) = (sb.file("p.json", PAYLOAD), sb.file("k", "2\ntab\n1\n1\n"));
    let earlier =
        sb.run(&["ask", payload.to_str().unwrap(), "--id", "earlier", "--script", keys.to_str().unwrap()]);
    assert_eq!(earlier.code, 0, "{}", earlier.stderr);
    sb.file("trigger", "");
    let mut pty = spawn(&sb, point, "2> err.txt");
    pty.wait_exit();
    assert_eq!(pty.ended_restored(&sb), "rc=5");
    let err = std::fs::read_to_string(sb.path("err.txt")).unwrap();
    assert!(err.lines().count() == 1 && err.starts_with("ask-user: ") && err.contains(said), "{err}");
    assert_eq!(std::fs::read_to_string(sb.path("out.json")).unwrap(), "", "no result");
    std::fs::remove_file(sb.path("trigger")).unwrap();
    let flows = sb.run(&["log", "list"]).stdout;
    assert!(
        flows.lines().count() == 1 && flows.starts_with("earlier ") && flows.contains(" submitted "),
        "the earlier flow, as it was, and nothing of the new one: {flows}"
    );
}

/// A panic on a worker thread while the form shows (the one looking up `@` paths): the form
/// keeps the terminal (restoring it from that thread left the form drawing on a cooked screen),
/// the query gets no paths but the next one does, and the bug's one line comes on stderr once
/// the form has ended and the terminal is back (said at once, the form's next frame drew over it).
#[test]
fn spec9_a_worker_thread_panic_leaves_the_form_working_and_is_said_after_it() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.path("src")).unwrap();
    std::fs::write(sb.path("src/main.rs"), "").unwrap();
    let mut pty = start(&sb, "file-offers", "");
    sb.file("trigger", "");
    pty.send("3");
    pty.send("see @src");
    let panics = || {
        std::fs::read_to_string(sb.path("logs/ask-user.log"))
            .map_or(0, |l| l.matches("at file-offers").count())
    };
    pty.wait_until("the lookup to panic", |_| panics() > 0);
    let first = panics();
    pty.send("/");
    pty.wait_until("the lookup to panic again (the same bug, said once below)", |_| panics() > first);
    let (alternate, paste, _) = pty.modes();
    assert!(alternate && paste && pty.stty().contains("-icanon"), "the form still has the terminal");
    assert!(!pty.screen().contains("@src/main.rs"), "no paths for the query that panicked");
    std::fs::remove_file(sb.path("trigger")).unwrap();
    pty.send("main");
    pty.wait_for("@src/main.rs");
    pty.send("\t\r");
    pty.wait_for("Which extras?");
    pty.send("\t");
    pty.submit_on_the_review();
    pty.wait_exit();
    assert_eq!(std::fs::read_to_string(sb.path("rc")).unwrap().trim(), "rc=0");
    assert_eq!(sb.out()["details"]["answers"]["db"]["customText"], "see @src/main.rs");
    let screen = pty.screen();
    let said = screen.find("ask-user: internal error at storage/src/durable_flow.rs:").unwrap_or_else(|| {
        panic!(
            "the line is on the screen the shell gets back (said on the form's, it was drawn over):\n{screen}"
        )
    });
    let message: String = screen[said..screen.find("AFTER-THE-FORM").unwrap()].lines().collect();
    assert!(
        message.contains("fault injected at file-offers") && message.ends_with("continues a form."),
        "one line:\n{screen}"
    );
    assert_eq!(screen.matches("ask-user: internal error").count(), 1, "the same bug said once:\n{screen}");
}

/// A tool call of `ask-user mcp` that panics (a bug in the call's own code, not on the blocking
/// threads whose panics tokio already turns into errors): the client gets an error reply naming
/// it, at once, instead of no reply at all (rmcp drops a call that panics, and the client would
/// wait until its own timeout, minutes in most); the server goes on, and answers the next call.
#[test]
fn spec9_an_mcp_tool_call_that_panics_gets_an_error_reply_and_the_server_goes_on() {
    let sb = Sandbox::new();
    sb.file("trigger", "");
    let fault = format!("mcp-call@{}", sb.path("trigger").display());
    let mut server = RawMcp::start(&sb, "1", "logs", &[("ASK_USER_FAULT", &fault)]);
    let args: Value = serde_json::from_str(PAYLOAD).unwrap();
    let call = |id: i32| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "ask_user", "arguments": args}})
    };
    server.send(&call(1));
    let replies = server.replies_to(&[json!(1)], Duration::from_secs(10));
    let reply = replies.iter().find(|r| r["id"] == 1).unwrap_or_else(|| panic!("no reply: {replies:?}"));
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(
            "internal error in ask-user (a bug, logged with its backtrace): fault injected at mcp-call"
        ),
        "{reply}"
    );
    std::fs::remove_file(sb.path("trigger")).unwrap();
    server.send(&call(2));
    let replies = server.replies_to(&[json!(2)], Duration::from_secs(10));
    let reply = replies.iter().find(|r| r["id"] == 2).unwrap_or_else(|| panic!("no reply: {replies:?}"));
    assert_eq!(reply["result"]["structuredContent"]["stillOpen"], json!(true), "{reply}");
    let (code, stderr) = server.finish();
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("ask-user: internal error at frontends/mcp/src/server.rs:"), "{stderr}");
    assert!(stderr.trim_end().ends_with("/logs/ask-user.log."), "no advice about forms: {stderr}");
}
