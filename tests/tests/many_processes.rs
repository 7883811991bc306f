//! One store, many processes: forms driven at once, listed while live, waited on from another
//! process, one UI per flow, and one form per flow id.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::{Duration, Instant};

use common::{PAYLOAD, Sandbox};

fn s(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

/// Picks SQLite, then the n-th extra, then submits: each process gets its own answer.
fn keys(n: usize) -> String {
    format!("down\nenter\n{}\nenter\n1\n1\n", n % 3 + 1)
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn spec8_eight_forms_at_once_while_a_ninth_lists_and_a_tenth_waits() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    // Create the store first, so the ten processes race on it rather than on its creation.
    assert_eq!(sb.run(&["log", "list"]).code, 0);
    let children: Vec<_> = (0..8)
        .map(|n| {
            let k = sb.file(&format!("k{n}"), &keys(n));
            sb.spawn(&["ask", s(&p), "--id", &format!("form-{n}"), "--script", s(&k), "--pace", "40"])
        })
        .collect();
    wait_until("form-3 to exist", Duration::from_secs(20), || sb.run(&["log", "show", "form-3"]).code == 0);
    let waiter = sb.spawn(&["wait", "form-3"]);
    let mut listed = String::new();
    wait_until("all eight flows to be listed", Duration::from_secs(20), || {
        let r = sb.run(&["log", "list"]);
        assert_eq!(r.code, 0, "log list never waits on the writers: {}", r.stderr);
        listed = r.stdout;
        (0..8).all(|n| listed.contains(&format!("form-{n}")))
    });
    assert!(listed.contains("open"), "live flows show as open while they run:\n{listed}");
    let results: Vec<_> = children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
    for (n, out) in results.iter().enumerate() {
        assert_eq!(out.status.code(), Some(0), "form-{n}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "form-{n}: no errors");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let extras = ["CI", "Docker", "Lint"][n % 3];
        assert_eq!(json["details"]["answers"]["db"]["labels"], serde_json::json!(["SQLite"]), "form-{n}");
        assert_eq!(json["details"]["answers"]["extras"]["labels"], serde_json::json!([extras]), "form-{n}");
    }
    let waited = waiter.wait_with_output().unwrap();
    assert_eq!(waited.status.code(), Some(0));
    assert_eq!(waited.stdout, results[3].stdout, "wait prints exactly what ask printed");
    let listed = sb.run(&["log", "list"]).stdout;
    assert_eq!(listed.matches("submitted").count(), 8, "{listed}");
}

#[test]
fn spec8_wait_times_out_with_its_own_status_and_sees_a_result_driven_elsewhere() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    // A flow left open by a script that ends early.
    let r = sb.run(&["ask", s(&p), "--id", "w", "--script", s(&sb.file("k1", "down\n"))]);
    assert_eq!(r.code, 4);
    let start = Instant::now();
    let timed_out = sb.run(&["wait", "w", "--timeout", "0.3"]);
    assert_eq!(timed_out.code, 6, "{}", timed_out.stderr);
    assert!(start.elapsed() >= Duration::from_millis(300));
    assert!(timed_out.stdout.is_empty() && timed_out.stderr.contains("still open"), "{}", timed_out.stderr);
    assert_eq!(
        timed_out.stderr.matches("no process shows it; `ask-user attach w` opens it").count(),
        1,
        "a flow nobody shows is named as such, once however often it is looked at: {}",
        timed_out.stderr
    );
    let waiter = sb.spawn(&["wait", "w", "--timeout", "30"]);
    std::thread::sleep(Duration::from_millis(200));
    let done = sb.run(&["resume", "w", "--script", s(&sb.file("k2", "enter\ntab\n1\n1\n"))]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let waited = waiter.wait_with_output().unwrap();
    assert_eq!(waited.status.code(), Some(0));
    assert_eq!(String::from_utf8(waited.stdout).unwrap(), done.stdout);
    let unknown = sb.run(&["wait", "nope"]);
    assert_eq!((unknown.code, unknown.stderr.lines().count()), (5, 1), "{}", unknown.stderr);
}

#[test]
fn spec8_ask_with_the_id_of_a_flow_shown_elsewhere_waits_or_says_so() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let slow = sb.file("slow", &format!("{}down\nenter\n1\nenter\n1\n1\n", "down\nup\n".repeat(20)));
    let holder = sb.spawn(&["ask", s(&p), "--id", "busy", "--script", s(&slow), "--pace", "25"]);
    wait_until("the holder to start", Duration::from_secs(10), || sb.run(&["log", "show", "busy"]).code == 0);
    let refused = sb.run(&["ask", s(&p), "--id", "busy", "--no-wait"]);
    assert_eq!(refused.code, 6, "{}", refused.stderr);
    assert!(refused.stdout.is_empty());
    assert!(refused.stderr.contains("open in another ask-user process"), "{}", refused.stderr);
    let resumed = sb.run(&["resume", "busy", "--script", s(&sb.file("k", "down\n"))]);
    assert_eq!(resumed.code, 5, "no second UI on the same log: {}", resumed.stderr);
    let waited = sb.run(&["ask", s(&p), "--id", "busy"]);
    let held = holder.wait_with_output().unwrap();
    assert_eq!(held.status.code(), Some(0));
    assert_eq!(waited.code, 0, "{}", waited.stderr);
    assert!(waited.stderr.contains("waiting"), "says why it waits: {}", waited.stderr);
    assert!(!waited.stderr.contains("no process shows it"), "it is shown: {}", waited.stderr);
    assert_eq!(waited.stdout.as_bytes(), held.stdout, "the answer given in the other process");
}

#[test]
fn a_flow_whose_process_died_is_resumable_by_any_process() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let slow = sb.file("slow", &"down\nup\n".repeat(100));
    let mut holder = sb.spawn(&["ask", s(&p), "--id", "dead", "--script", s(&slow), "--pace", "10"]);
    wait_until("a few keys", Duration::from_secs(10), || {
        sb.run(&["log", "show", "dead"]).stdout.lines().count() > 5
    });
    let listed = sb.run(&["log", "list"]).stdout;
    assert!(listed.contains(" open "), "shown by a live process: {listed}");
    holder.kill().unwrap();
    holder.wait().unwrap();
    let listed = sb.run(&["log", "list"]).stdout;
    assert!(listed.contains(" resumable "), "its process is gone: {listed}");
    assert!(sb.run(&["log", "show", "dead"]).stdout.ends_with("status: resumable\n"));
    let r =
        sb.run(&["ask", s(&p), "--id", "dead", "--no-wait", "--script", s(&sb.file("k", "2\ntab\n1\n1\n"))]);
    assert_eq!(r.code, 0, "the dead holder's lease is stale: {}", r.stderr);
}

#[test]
fn spec8_the_same_id_with_another_payload_is_refused_not_answered_with_the_old_result() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let first = sb.run(&["ask", s(&p), "--id", "call-1", "--script", s(&sb.file("k", "1\n1\ntab\n1\n1\n"))]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let other = sb.file("q.json", &PAYLOAD.replace("Which database?", "Which cache?"));
    let r = sb.run(&["ask", s(&other), "--id", "call-1", "--no-ui"]);
    assert_eq!(r.code, 7, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1);
    let json = r.json();
    assert_eq!(json["details"]["error"]["kind"], "id_conflict");
    assert_eq!(json["details"]["cancelled"], true);
    assert_eq!(json["details"]["answers"], serde_json::json!({}), "no answer of the old form leaks out");
    assert!(json["content"][0]["text"].as_str().unwrap().contains("call-1"));
    // Whitespace that normalizes away is the same question.
    let same = sb.file("same.json", &PAYLOAD.replace("\"Which database?\"", "\"  Which database?  \""));
    let again = sb.run(&["ask", s(&same), "--id", "call-1", "--no-ui"]);
    assert_eq!(again.stdout, first.stdout, "the recorded result, exactly once");
}

#[test]
fn no_ui_schema_and_transcript_never_wait_on_a_busy_store() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let slow = sb.file("slow", &"down\nup\n".repeat(100));
    let mut holder = sb.spawn(&["ask", s(&p), "--id", "h", "--script", s(&slow), "--pace", "10"]);
    wait_until("the holder to start", Duration::from_secs(10), || sb.run(&["log", "show", "h"]).code == 0);
    for args in [vec!["ask", s(&p), "--no-ui"], vec!["schema", "result"], vec!["transcript", "call", s(&p)]] {
        let start = Instant::now();
        let r = sb.run(&args);
        assert!(r.code == 0 || r.code == 3, "{args:?}: {}", r.stderr);
        assert!(start.elapsed() < Duration::from_millis(1500), "{args:?} took {:?}", start.elapsed());
    }
    holder.kill().unwrap();
    holder.wait().unwrap();
}

/// `ask-user attach` at a terminal answers a form another process waits on: the person is told
/// in one line where the answers went, not shown the tool's JSON (the waiter prints that); with
/// its output piped (a script, the MCP popup) it prints the result as `resume` does.
#[test]
fn attach_at_a_terminal_says_where_the_answers_went() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let left = sb.run(&["ask", s(&p), "--id", "a1", "--script", s(&sb.file("k", "down\n"))]);
    assert_eq!(left.code, 4, "left open: {}", left.stderr);
    let waiter = sb.spawn(&["wait", "a1", "--timeout", "30"]);
    let script = format!("exec '{}' attach", common::bin().display());
    let mut pty = common::pty::Pty::spawn(&sb, &script, 80, 24);
    pty.wait_for("Which database?");
    pty.send("\r"); // SQLite, where the script left the cursor
    pty.wait_for("Which extras?");
    pty.send("\t");
    pty.send("1");
    pty.send("1");
    assert_eq!(pty.wait_exit(), 0);
    let screen = pty.screen();
    assert!(screen.contains("ask-user: your answers went to the waiting agent"), "{screen}");
    assert!(!screen.contains("\"content\""), "no JSON for the person:\n{screen}");
    let waited = waiter.wait_with_output().unwrap();
    assert_eq!(waited.status.code(), Some(0));
    let result: serde_json::Value = serde_json::from_slice(&waited.stdout).unwrap();
    assert_eq!(result["details"]["answers"]["db"]["values"], serde_json::json!(["sqlite"]));
}

/// A form that ended before `attach` opened it (cancelled in its own terminal, say) went to
/// nobody from here: a person attaching at a terminal is shown its result, not told "your
/// answers went to the waiting agent".
#[test]
fn attach_at_a_terminal_shows_the_result_of_a_form_that_already_ended() {
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let cancelled = sb.run(&["ask", s(&p), "--id", "c1", "--script", s(&sb.file("k", "down\nesc\n"))]);
    assert_ne!(cancelled.code, 4, "it ended: {}", cancelled.stderr);
    let script = format!("exec '{}' attach c1", common::bin().display());
    let mut pty = common::pty::Pty::spawn(&sb, &script, 100, 24);
    assert_eq!(pty.wait_exit(), cancelled.code as u32, "the same ending");
    let screen = pty.screen();
    assert!(screen.contains("\"cancelled\":true"), "the result, as resume prints it:\n{screen}");
    assert!(!screen.contains("answers went"), "{screen}");
}

/// `attach` with no form waiting says so once and keeps looking (four times a second), then
/// opens the first form that no process shows as soon as one is left open.
#[test]
fn attach_with_nothing_waiting_says_so_once_and_opens_the_next_form() {
    use std::io::Read;
    use std::sync::{Arc, Mutex};

    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let k = sb.file("k", "enter\ntab\n1\n1\n");
    let mut attach = sb.spawn(&["attach", "--script", s(&k)]);
    let mut stderr = attach.stderr.take().unwrap();
    let said = Arc::new(Mutex::new(String::new()));
    let reader = {
        let said = Arc::clone(&said);
        std::thread::spawn(move || {
            let mut buf = [0u8; 256];
            while let Ok(n @ 1..) = stderr.read(&mut buf) {
                said.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    let waiting = "ask-user: no form is waiting";
    wait_until("attach to say it waits", Duration::from_secs(20), || said.lock().unwrap().contains(waiting));
    // Several more looks find nothing before the form arrives.
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(attach.try_wait().unwrap(), None, "still waiting");
    let left = sb.run(&["ask", s(&p), "--id", "late", "--script", s(&sb.file("k2", "down\n"))]);
    assert_eq!(left.code, 4, "left open: {}", left.stderr);
    let start = Instant::now();
    while attach.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = attach.kill(); // ended already, unless the form was never picked up
    let out = attach.wait_with_output().unwrap();
    reader.join().unwrap();
    let said = said.lock().unwrap().clone();
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert_eq!(said.matches(waiting).count(), 1, "{said}");
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["details"]["answers"]["db"]["values"], serde_json::json!(["sqlite"]));
}
