//! The real binary in a pseudo-terminal, as a person uses it: keys, paste, resize, Ctrl+C,
//! config edits, kitty keys, large payloads, a busy store. Signals, suspension and terminals
//! that vanish or misreport their size are in `terminal_signals.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::pty::{Pty, kill, process_state};
use common::{PAYLOAD, Sandbox, bin};
use serde_json::json;

const DOWN: &str = "\x1b[B";
const TAB: &str = "\t";
const ENTER: &str = "\r";
const CTRL_C: &str = "\x03";

/// The shared two-question payload answered in a `cols`×`rows` terminal ([`Pty::ask`]).
fn start(sb: &Sandbox, cols: u16, rows: u16) -> Pty {
    Pty::ask(sb, PAYLOAD, cols, rows, &[], "Which database?")
}

#[test]
fn two_question_form_answered_by_keys_with_stdin_and_stdout_redirected() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    pty.send("2");
    pty.wait_for("Which extras?");
    pty.send("1");
    pty.send("3");
    pty.send(TAB);
    pty.submit_on_the_review();
    assert_eq!(pty.wait_exit(), 0);
    let r = sb.out();
    assert_eq!(r["content"][0]["text"], "Database: SQLite\nExtras: CI, Lint");
    assert_eq!(r["details"]["answers"]["extras"]["indices"], json!([1, 3]));
    assert_eq!(pty.modes(), (false, false, false), "terminal restored");
}

/// Group commit (issue 15.1): keys that reach the program together — here a whole answer in one
/// write, as a fast typist over ssh or key repeat delivers them — are committed together and
/// mean exactly what they mean typed one at a time; keys after the form completes are dropped.
#[test]
fn keys_arriving_together_answer_the_form_as_if_typed_one_at_a_time() {
    let sb = Sandbox::new();
    let mut pty = Pty::ask(&sb, PAYLOAD, 80, 24, &[("ASK_LOG", "ask_user=debug")], "Which database?");
    pty.send(&["2", "1", "3", TAB, "1", "1", "xyz"].concat());
    assert_eq!(pty.wait_exit(), 0);
    let diagnostics = std::fs::read_to_string(sb.path("logs/ask-user.log")).unwrap();
    assert!(diagnostics.contains("events committed together"), "one commit for the burst:\n{diagnostics}");
    let r = sb.out();
    assert_eq!(r["content"][0]["text"], "Database: SQLite\nExtras: CI, Lint");
    assert_eq!(r["details"]["answers"]["extras"]["indices"], json!([1, 3]));
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    let log = sb.run(&["log", "show", &id]).stdout;
    let keys: Vec<&str> = log.lines().filter_map(|l| l.split_once("  key ").map(|(_, k)| k)).collect();
    assert_eq!(keys, ["2", "1", "3", "tab", "1", "1"], "{log}");
    assert_eq!(pty.modes(), (false, false, false), "terminal restored");
}

#[test]
fn a_paste_arrives_as_one_event_with_its_newlines() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    pty.send("\x1b[200~Zig\r\nthen Rust\x1b[201~");
    pty.wait_for("then Rust");
    pty.send(ENTER);
    pty.wait_for("Which extras?");
    pty.send(TAB);
    pty.wait_for("Ready to send?");
    pty.send("1");
    pty.send("1");
    assert_eq!(pty.wait_exit(), 0);
    assert_eq!(sb.out()["details"]["answers"]["db"]["customText"], "Zig\nthen Rust");
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    let log = sb.run(&["log", "show", &id]);
    assert!(log.stdout.contains("paste \"Zig\\r\\nthen Rust\""), "{}", log.stdout);
}

#[test]
fn resize_redraws_and_is_recorded() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 120, 24);
    let wide = pty.screen();
    assert!(wide.contains("Shift+N question note · Tab next tab · Esc cancel · ? settings"), "{wide}");
    pty.resize(44, 20);
    let narrow = pty.wait_for("Shift+N question note · Tab next tab\n");
    assert!(!narrow.contains("next tab · Esc"), "footer rewrapped:\n{narrow}");
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    assert!(sb.run(&["log", "show", &id]).stdout.contains("resize 44x20"));
}

/// A form left open while the person reads sleeps between its ticks (four a second: the
/// settings file, the terminal, whether its starter is gone). crossterm truncates what is left
/// of a wait to whole milliseconds, so each 250 ms tick used to end spinning through its last
/// fraction of a millisecond: about 3 ms of CPU a second in this build, against about 0.7 now.
#[test]
fn an_idle_form_sleeps_between_its_ticks() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    // A key shown is a key committed: the start's work (the opening commit) is behind it.
    pty.send(DOWN);
    pty.wait_for("❯ 2. SQLite");
    let pid = pty.child.process_id().unwrap();
    // The main thread's time on a CPU, in nanoseconds (schedstat's first field).
    let on_cpu = || -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/schedstat")).unwrap();
        stat.split_whitespace().next().unwrap().parse().unwrap()
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (before, since) = (on_cpu(), std::time::Instant::now());
    std::thread::sleep(std::time::Duration::from_secs(3));
    let ms_a_second = (on_cpu() - before) as f64 / 1e6 / since.elapsed().as_secs_f64();
    assert!(ms_a_second < 2.0, "an idle form used {ms_a_second:.2} ms of CPU a second");
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
}

#[test]
fn ctrl_c_on_a_clean_flow_leaves_at_once() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
    assert_eq!(sb.out()["details"]["cancelled"], true);
}

#[test]
fn ctrl_c_on_a_dirty_flow_warns_then_leaves() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    pty.send(" ");
    pty.send(CTRL_C);
    pty.wait_for("Press Ctrl+C again to dismiss");
    pty.send(DOWN);
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
    let r = sb.out();
    assert_eq!(r["details"]["cancelled"], true);
    assert_eq!(r["details"]["answers"]["db"]["values"], json!(["pg"]), "committed answers are kept");
}

#[test]
fn editing_the_config_while_a_form_is_open_reaches_the_form() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    std::thread::sleep(std::time::Duration::from_millis(50));
    let keymaps = r#"{"keymaps":{"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"ctrl+k","optionNote":"n","questionNote":"shift+n"}}"#;
    std::fs::write(sb.path("config.json"), keymaps).unwrap();
    pty.wait_for("Ctrl+K select");
    pty.send(ENTER);
    assert!(pty.screen().contains("Which database?"), "Enter no longer selects");
    pty.send("\x0b"); // ctrl+k
    pty.wait_for("Which extras?");
    pty.send(CTRL_C);
    pty.wait_for("Press Ctrl+C again");
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    assert!(
        sb.run(&["log", "show", &id]).stdout.contains("settings changed"),
        "the change is an event in the log"
    );
}

#[test]
fn in_a_kitty_terminal_kitty_encoded_keys_mean_the_same_as_legacy_ones() {
    let sb = Sandbox::new();
    let env = [("TERM", "xterm-kitty"), ("ASK_USER_KEYBOARD_PROBE", "1")];
    let mut pty = Pty::ask(&sb, PAYLOAD, 80, 24, &env, "Which database?");
    pty.wait_until("kitty flags pushed for a kitty terminal", |p| p.wrote(b"\x1b[>1u"));
    // Suspended, the flags go with the rest of the terminal's state; continued, they come back.
    let pid = pty.child.process_id().unwrap();
    kill("TSTP", pid);
    pty.wait_until("the flags are popped while stopped", |p| p.count(b"\x1b[<1u") == 1);
    // The pop is written just before the process stops itself: a SIGCONT sent in between
    // would be spent on a running process and leave it stopped for good.
    pty.wait_until("the process stops", |_| process_state(pid) == 'T');
    kill("CONT", pid);
    // Continued, exactly one entry of ours is on the terminal's flag stack again, however many
    // times the form took the terminal over (it once pushed twice and popped once on exit).
    let ours = |p: &Pty| p.count(b"\x1b[>1u") as i64 - p.count(b"\x1b[<1u") as i64;
    pty.wait_until("and pushed again when continued", |p| p.count(b"\x1b[>1u") >= 2 && ours(p) == 1);
    // A SIGSTOP it cannot see leaves its flags on the stack: continued, it still holds one entry.
    kill("STOP", pid);
    pty.wait_until("the process stops", |_| process_state(pid) == 'T');
    kill("CONT", pid);
    pty.wait_until("taken over again after SIGSTOP", |p| p.count(b"\x1b[>1u") >= 3 && ours(p) == 1);
    pty.send("\x1b[110;2u"); // kitty shift+n: the question-note key, like a legacy "N"
    pty.wait_for("Question note:");
    pty.send("kitty");
    pty.send("\x1b[13;2u"); // kitty Shift+Enter: a newline, as Alt+Enter
    pty.send("twoo");
    pty.send("\x1b[127;2u"); // kitty Shift+Backspace: deletes, as Backspace
    pty.send("\x1b[13u"); // kitty Enter: saves the note
    pty.wait_for("✎ kitty");
    pty.send("\x1b[27u"); // kitty Esc: the flow is dirty, so it warns
    pty.wait_for("Press Esc again");
    pty.send("\x1b[27u");
    assert_eq!(pty.wait_exit(), 1);
    assert_eq!(ours(&pty), 0, "and popped on exit, none left on the stack");
    assert_eq!(sb.out()["details"]["answers"]["db"]["note"], "kitty\ntwo");
}

/// A terminal its environment does not name is asked (crossterm's kitty query, then DA1, which
/// every terminal answers): one that answers the kitty query gets the flags pushed, and popped
/// on exit; one that answers only DA1 is left as it is, and the form goes on at once. A key
/// typed while the question is out is an answer like any other.
#[rstest::rstest]
#[case::has_the_protocol("\x1b[?0u\x1b[?62c", true)]
#[case::has_not("\x1b[?62c", false)]
fn a_terminal_not_known_by_name_is_asked_for_the_kitty_protocol(#[case] reply: &str, #[case] kitty: bool) {
    let sb = Sandbox::new();
    let mut pty = probed(&sb, "");
    pty.wait_until("the terminal is asked", |p| p.wrote(b"\x1b[?u"));
    pty.send(&format!("{reply}2"));
    pty.wait_for("Which extras?");
    assert_eq!(pty.wrote(b"\x1b[>1u"), kitty, "kitty flags pushed only when the terminal said it has them");
    pty.send("1");
    pty.send(TAB);
    pty.submit_on_the_review();
    assert_eq!(pty.wait_exit(), 0);
    assert_eq!(pty.count(b"\x1b[<1u"), usize::from(kitty), "popped on exit when pushed");
    assert!(pty.wrote(b"Database: SQLite\\nExtras: CI"), "the result, on the terminal");
}

/// With the result redirected the terminal is never asked, even with the payload read from a
/// file and stdin the terminal: crossterm writes its query to stdout when it cannot write
/// `/dev/tty`, which would put it in the result.
#[test]
fn with_the_result_redirected_the_terminal_is_not_asked() {
    let sb = Sandbox::new();
    let mut pty = probed(&sb, " > out.json");
    pty.send("2");
    pty.wait_for("Which extras?");
    pty.send("1");
    pty.send(TAB);
    pty.submit_on_the_review();
    assert_eq!(pty.wait_exit(), 0);
    assert!(!pty.wrote(b"\x1b[?u") && !pty.wrote(b"\x1b[>1u"), "no kitty query, no flags");
    assert_eq!(sb.out()["details"]["answers"]["extras"]["indices"], json!([1]));
}

/// `ask-user ask p.json` (stdin the terminal, stdout too unless `redirect` says otherwise) with
/// the keyboard probe on, once the form shows.
fn probed(sb: &Sandbox, redirect: &str) -> Pty {
    sb.file("p.json", PAYLOAD);
    let script = format!("exec '{}' ask p.json{redirect}", bin().display());
    let pty = Pty::spawn_with(sb, &script, 80, 24, &[("ASK_USER_KEYBOARD_PROBE", "1")]);
    pty.wait_for("Which database?");
    pty
}

#[test]
fn a_config_edit_made_while_the_user_types_reaches_the_form_with_its_notices() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    pty.send("N"); // the question-note editor: every key below is typed text, an event each
    pty.wait_for("Question note:");
    pty.wait_for("Enter save note");
    // Keys keep arriving every 20 ms while the file changes: the edit must not be swallowed by
    // the keys' own events (it used to be, until the user paused).
    let refused = r#"{"behaviour":{"showFooterHints":false},"keymaps":{"cancel":"esc","dismiss":"ctrl+c","toggle":"space","confirm":"tab","optionNote":"n","questionNote":"shift+n"}}"#;
    for i in 0..40 {
        pty.send("a");
        if i == 5 {
            std::fs::write(sb.path("config.json"), refused).unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!pty.screen().contains("save note"), "footer hints went away while typing:\n{}", pty.screen());
    pty.send("\x1b"); // Esc saves the note and closes the editor
    pty.send("?");
    pty.wait_for("Keymaps not used");
    pty.send("?");
    pty.send(CTRL_C);
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), 1);
}

/// Issue 12.22: `ask-user ask` typed in a terminal with nothing piped in says it is waiting for
/// the payload on stdin instead of sitting silent.
#[test]
fn ask_with_a_terminal_on_stdin_says_it_waits_for_the_payload() {
    let sb = Sandbox::new();
    let mut pty = Pty::spawn(&sb, &format!("'{}' ask; echo \"rc=$?\"; sleep 0.3", bin().display()), 100, 20);
    pty.wait_for("reading the payload JSON from stdin; paste it, then press Ctrl+D");
    pty.send("\x04");
    pty.wait_for("rc=2");
}

/// A payload typed or pasted at the terminal ends at one Ctrl+D after it, as the hint says: a
/// terminal's end of input ends one read, not the terminal, so reading on would wait for a
/// second one.
#[test]
fn a_payload_typed_at_the_terminal_ends_at_one_ctrl_d() {
    let sb = Sandbox::new();
    let cmd = format!("'{}' ask --no-ui; echo \"rc=$?\"; sleep 0.3", bin().display());
    let mut pty = Pty::spawn(&sb, &cmd, 100, 20);
    pty.wait_for("paste it, then press Ctrl+D");
    pty.send(&format!("{}\n", common::PAYLOAD.replace('\n', " ")));
    pty.send("\x04");
    pty.wait_for("rc=3");
    assert!(pty.screen().contains("Needs user input"), "{}", pty.screen());
}

/// The form's first frame does not wait for the store to open (issue 15.2), so a store that
/// cannot be opened is found with the form already up: the run still ends in one line on
/// stderr, with the error exit status, the terminal put back and no result on stdout. A large
/// payload (read from a file on two threads) has its store opened only once its form is built.
#[rstest::rstest]
#[case::small_payload_on_stdin(false)]
#[case::large_payload_file(true)]
fn a_store_that_cannot_be_opened_ends_a_live_form_in_one_line(#[case] large: bool) {
    let sb = Sandbox::new();
    let payload = if large {
        format!("'{}'", large_payload(&sb).display())
    } else {
        sb.file("p.json", PAYLOAD);
        "< p.json".to_owned()
    };
    let blocked = sb.file("not-a-dir", "x").join("store.redb");
    let script = format!(
        "exec '{}' ask --store '{}' {payload} > out.json 2> err.txt",
        bin().display(),
        blocked.display()
    );
    let mut pty = Pty::spawn(&sb, &script, 80, 24);
    assert_eq!(pty.wait_exit(), 5, "screen:\n{}", pty.screen());
    let err = std::fs::read_to_string(sb.path("err.txt")).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("ask-user: ") && err.contains("not-a-dir"), "{err}");
    assert_eq!(std::fs::read_to_string(sb.path("out.json")).unwrap(), "", "no result");
    assert_eq!(pty.modes(), (false, false, false), "terminal restored");
}

/// A payload of 1 MiB or more is read, and built into its form, on two threads; in a terminal
/// the store then waits to be opened until the form is built (its check reads the whole file).
fn large_payload(sb: &Sandbox) -> std::path::PathBuf {
    let text = ask_schema::sample::options_payload(15_000, ask_schema::sample::SampleText::Repeated);
    assert!(text.len() >= 1 << 20, "{} bytes", text.len());
    sb.file("large.json", &text)
}

/// The deferred opening of the store with a large payload: the form answers, and the flow is
/// recorded — on a fresh store, and again on the store that now holds the first flow.
#[test]
fn a_large_payload_is_answered_in_a_terminal_and_recorded_on_a_fresh_and_a_used_store() {
    let sb = Sandbox::new();
    let payload = large_payload(&sb);
    for (run, key) in [(1, "2"), (2, "3")] {
        let script = format!("exec '{}' ask '{}' > out.json", bin().display(), payload.display());
        let mut pty = Pty::spawn(&sb, &script, 80, 24);
        pty.wait_for("Pick one");
        pty.send(key);
        pty.submit_on_the_review();
        assert_eq!(pty.wait_exit(), 0, "run {run}; screen:\n{}", pty.screen());
        let value = format!("v{}", key.parse::<u32>().unwrap() - 1);
        assert_eq!(sb.out()["details"]["answers"]["a"]["values"], json!([value]), "run {run}");
        let listed = sb.run(&["log", "list"]);
        assert_eq!(
            listed.stdout.lines().filter(|l| l.contains("submitted")).count(),
            run,
            "{}",
            listed.stdout
        );
    }
}

/// While another process is inside a write transaction on the store, the form is on screen, the
/// keys typed meanwhile wait in the terminal (the flow's opening commit waits for that write,
/// and no key is applied before it), and once the other write ends they answer the form.
#[test]
fn the_form_shows_while_another_process_writes_the_store_and_keys_wait_for_it() {
    let sb = Sandbox::new();
    drop(ask_storage::Store::open(&sb.store()).unwrap());
    let other = redb::Builder::new()
        .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
        .open(sb.store())
        .unwrap();
    let writing = other.begin_write().unwrap();
    let mut pty = start(&sb, 80, 24);
    pty.send("2");
    pty.send("1");
    pty.send("3");
    pty.send(TAB);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let waiting = pty.screen();
    assert!(
        waiting.contains("Which database?") && !waiting.contains("Which extras?"),
        "no key applied yet:\n{waiting}"
    );
    drop(writing);
    pty.submit_on_the_review();
    assert_eq!(pty.wait_exit(), 0);
    assert_eq!(sb.out()["details"]["answers"]["extras"]["indices"], json!([1, 3]));
}

/// `NO_COLOR` (no-color.org): the form draws without a single colour sequence, its emphasis
/// kept as bold, dim and reversed; without it the same form is coloured.
#[test]
fn no_color_draws_the_form_without_colour_and_keeps_its_emphasis() {
    for (no_color, coloured) in [("1", false), ("", true)] {
        let sb = Sandbox::new();
        let mut pty = Pty::ask(&sb, PAYLOAD, 80, 24, &[("NO_COLOR", no_color)], "Which database?");
        pty.send("2");
        pty.wait_for("Which extras?");
        assert_eq!(pty.wrote(b"\x1b[38;5;"), coloured, "NO_COLOR={no_color:?}");
        assert!(pty.wrote(b"\x1b[1m") || pty.wrote(b";1m"), "bold kept");
        if !coloured {
            assert!(pty.wrote(b"\x1b[2m") || pty.wrote(b";2m"), "dim stands in for grey");
        }
        pty.send(CTRL_C);
        pty.send(CTRL_C);
        assert_eq!(pty.wait_exit(), 1);
    }
}
