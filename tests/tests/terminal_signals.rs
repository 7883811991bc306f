//! The real binary in a pseudo-terminal when something outside it acts: signals that end it,
//! a suspension, a terminal that vanishes or reports an absurd size. The terminal must always
//! be put back, and the answers kept.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use common::pty::{Pty, kill, process_state};
use common::{PAYLOAD, Sandbox, bin};
use serde_json::json;

const TAB: &str = "\t";

/// The shared two-question payload answered in a `cols`×`rows` terminal ([`Pty::ask`]).
fn start(sb: &Sandbox, cols: u16, rows: u16) -> Pty {
    Pty::ask(sb, PAYLOAD, cols, rows, &[], "Which database?")
}

#[rstest::rstest]
#[case::term("TERM")]
#[case::hup("HUP")]
#[case::int("INT")]
#[case::quit("QUIT")]
fn every_signal_restores_the_terminal_and_keeps_answers_for_resume(#[case] signal: &str) {
    let sb = Sandbox::new();
    sb.file("p.json", PAYLOAD);
    let script = format!(
        "'{}' ask p.json > out.json & echo $! > pid; wait $!; echo \"rc=$?\" > rc; stty -a > stty.txt; sleep 1",
        bin().display()
    );
    let mut pty = Pty::spawn(&sb, &script, 80, 24);
    pty.wait_for("Which database?");
    pty.send("2");
    pty.wait_for("Which extras?");
    assert_eq!(
        pty.modes(),
        (true, true, true),
        "alternate screen, bracketed paste, hidden cursor while running"
    );
    let pid = std::fs::read_to_string(sb.path("pid")).unwrap();
    kill(signal, pid.trim().parse().unwrap());
    pty.wait_exit();
    assert_eq!(pty.ended_restored(&sb), "rc=5", "SIG{signal}");
    let resumed = sb.run(&["resume", "--script", sb.file("k", "tab\n1\n1\n").to_str().unwrap()]);
    assert_eq!(resumed.json()["details"]["answers"]["db"]["values"], json!(["sqlite"]));
}

/// Raw mode makes Ctrl+Z a key (undo), so SIGTSTP comes from outside (`kill -TSTP`, a host
/// suspending its child). The form gives the terminal back as it was and stops; continued, it
/// takes the terminal again and draws itself whole at the size the terminal has by then (a
/// resize while stopped is recorded), and keys answer it as before. A SIGSTOP it cannot see is
/// followed by a whole redraw too: whatever was written to the screen meanwhile is gone.
#[test]
fn a_suspended_form_gives_the_terminal_back_and_draws_itself_whole_when_continued() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    let pid = pty.child.process_id().unwrap();
    pty.send("2");
    pty.wait_for("Which extras?");
    assert!(pty.stty().contains("-icanon"), "raw mode while the form shows");

    kill("TSTP", pid);
    pty.wait_until("the terminal is given back", |p| p.modes() == (false, false, false));
    pty.wait_until("the process stops", |_| process_state(pid) == 'T');
    let stty = pty.stty();
    assert!(stty.contains(" icanon") && stty.contains(" echo "), "raw mode left on while stopped: {stty}");

    pty.resize(100, 30);
    kill("CONT", pid);
    pty.wait_until("the terminal is taken again", |p| p.modes() == (true, true, true));
    pty.wait_for("Which extras?");
    assert!(pty.stty().contains("-icanon"), "raw mode again");

    kill("STOP", pid);
    pty.wait_until("the process stops", |_| process_state(pid) == 'T');
    std::fs::write(pty.tty_name(), "\x1b[2J\x1b[HSCRIBBLED").unwrap();
    pty.wait_until("the scribble shows", |p| p.screen().contains("SCRIBBLED"));
    kill("CONT", pid);
    pty.wait_until("the form draws itself whole", |p| {
        !p.screen().contains("SCRIBBLED") && p.screen().contains("Which extras?")
    });

    pty.send("1");
    pty.send(TAB);
    pty.submit_on_the_review();
    assert_eq!(pty.wait_exit(), 0);
    assert_eq!(sb.out()["content"][0]["text"], "Database: SQLite\nExtras: CI");
    assert_eq!(pty.modes(), (false, false, false), "terminal restored");
    let id = sb.run(&["log", "list"]).stdout.split_whitespace().next().unwrap().to_owned();
    let log = sb.run(&["log", "show", &id]).stdout;
    assert!(log.contains("resize 100x30"), "the size found on continuing is recorded:\n{log}");
}

/// A form whose result pipe's reader has gone before the form ends (`ask-user ask p.json | true`):
/// the form is answered as usual, the terminal put back, the run ends with the answer's status
/// and says nothing, and the result is in the store for whoever asks for it again.
#[test]
fn a_form_whose_result_reader_has_gone_ends_as_usual_with_the_terminal_restored() {
    let sb = Sandbox::new();
    sb.file("p.json", PAYLOAD);
    // `true` has ended long before the form does; the group reports the form's own status.
    let script = format!(
        "{{ '{}' ask p.json --id piped 2> err.txt; echo \"rc=$?\" > rc; }} | true; stty -a > stty.txt; sleep 1",
        bin().display()
    );
    let mut pty = Pty::spawn(&sb, &script, 80, 24);
    pty.wait_for("Which database?");
    pty.send("2");
    pty.wait_for("Which extras?");
    pty.send(TAB);
    pty.submit_on_the_review();
    pty.wait_exit();
    assert_eq!(pty.ended_restored(&sb), "rc=0");
    assert_eq!(std::fs::read_to_string(sb.path("err.txt")).unwrap(), "", "nothing said");
    let again = sb.run(&["ask", sb.path("p.json").to_str().unwrap(), "--id", "piped"]);
    assert_eq!(again.json()["details"]["answers"]["db"]["values"], json!(["sqlite"]));
}

/// Issue 14.3: a terminal that hangs up while SIGHUP is blocked (some hosts block it) used to
/// leave the form polling a dead terminal at full speed forever. Also when it goes while the
/// form is suspended (SIGTSTP): continued, taking the terminal back fails, and that is the
/// terminal having gone, not an error of its own.
#[rstest::rstest]
fn a_vanished_terminal_with_sighup_blocked_ends_the_form_at_once_and_keeps_it_resumable(
    #[values(false, true)] while_stopped: bool,
) {
    let sb = Sandbox::new();
    let payload = sb.file("p.json", PAYLOAD);
    let script = format!("{}/fixtures/terminal/vanish.py", env!("CARGO_MANIFEST_DIR"));
    let stderr = sb.path("stderr.txt");
    let mut env = vec![("VANISH_STDERR", stderr.as_path())];
    if while_stopped {
        env.push(("VANISH_WHILE_STOPPED", std::path::Path::new("1")));
    }
    let report = on_pty_script(&sb, &script, &["ask", payload.to_str().unwrap(), "--id", "gone"], &env);
    let fields: Vec<&str> = report.split_whitespace().collect();
    assert_eq!(fields.first(), Some(&"exit"), "{report}");
    assert_eq!(fields[1], "5", "{report}");
    let after: f64 = fields[3].parse().unwrap();
    let cpu: f64 = fields[5].parse().unwrap();
    assert!(after < 2.0 && cpu < 1.5, "ended {after} s after the hang-up, {cpu} s of CPU");
    let said = std::fs::read_to_string(&stderr).unwrap();
    assert_eq!(said.lines().count(), 1, "{said:?}");
    assert!(said.contains("the terminal went away") && said.contains("ask-user resume"), "{said}");

    // Down was committed before the hang-up: the same id resumes on Postgres → SQLite.
    let keys = sb.file("keys", "enter\ntab\n1\n1\n");
    let resumed =
        sb.run(&["ask", payload.to_str().unwrap(), "--id", "gone", "--script", keys.to_str().unwrap()]);
    assert_eq!(resumed.json()["details"]["answers"]["db"]["values"], json!(["sqlite"]));
}

/// Runs `python3 SCRIPT ask-user ARGS…` (a fixture that drives a pseudo-terminal itself) in the
/// sandbox and returns what the script reported.
fn on_pty_script(sb: &Sandbox, script: &str, args: &[&str], env: &[(&str, &std::path::Path)]) -> String {
    let mut cmd = std::process::Command::new("python3");
    cmd.arg(script)
        .arg(bin())
        .args(args)
        .current_dir(sb.dir.path())
        .env("ASK_USER_STORE", sb.store())
        .env("ASK_USER_CONFIG", sb.path("config.json"))
        .env("ASK_LOG_DIR", sb.path("logs"))
        .env("ASK_USER_KEYBOARD_PROBE", "0")
        .env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    String::from_utf8(out.stdout).unwrap() + &String::from_utf8_lossy(&out.stderr)
}

/// Issue 14.2, live: a terminal reporting 65535×65535 cells is drawn clamped (1000×1000), so the
/// form opens and closes normally instead of trying to allocate hundreds of gigabytes.
#[test]
fn a_terminal_reporting_65535_by_65535_cells_gets_a_working_form() {
    let sb = Sandbox::new();
    let payload = sb.file("p.json", PAYLOAD);
    let script = format!("{}/fixtures/terminal/huge.py", env!("CARGO_MANIFEST_DIR"));
    let report = on_pty_script(&sb, &script, &["ask", payload.to_str().unwrap()], &[]);
    let fields: Vec<&str> = report.split_whitespace().collect();
    assert_eq!(fields.get(..2), Some(&["exit", "1"][..]), "Esc cancels a clean form: {report}");
    let rss_kb: u64 = fields[3].parse().unwrap();
    assert!(rss_kb < 300_000, "peak RSS {rss_kb} KB");
}

/// The program that started a form is killed (a host taking SIGKILL) and the shell takes the
/// terminal back. The form, left in a background process group nobody will bring back, used to
/// stay on the screen with the terminal in raw mode while the shell read the keys, until the
/// next key ended it with "Input/output error". It now ends by itself, with its own line, and
/// stays resumable.
#[test]
fn a_form_whose_starter_is_killed_ends_by_itself_and_stays_resumable() {
    let sb = Sandbox::new();
    let payload = sb.file("p.json", PAYLOAD);
    let mut shell = portable_pty::CommandBuilder::new("bash");
    shell.args(["--norc", "--noprofile", "-i"]);
    let mut pty = Pty::spawn_command(&sb, shell, 80, 24, &[("PS1", "$ ")]);
    // `sh` stays the form's parent (the command after it keeps it from exec'ing the form).
    pty.send(&format!(
        "sh -c 'echo $$ > starter; \"{}\" ask p.json --id left 2> err.txt > out.json; echo after'\r",
        bin().display()
    ));
    pty.wait_for("Which database?");
    pty.send("\x1b[B"); // Down, committed before the starter goes
    pty.wait_until("the cursor on SQLite", |p| p.screen().contains("❯ 2. SQLite"));
    let starter = std::fs::read_to_string(sb.path("starter")).unwrap();
    kill("KILL", starter.trim().parse().unwrap());
    let err = sb.path("err.txt");
    let said = || std::fs::read_to_string(&err).unwrap_or_default();
    let start = std::time::Instant::now();
    while said().is_empty() {
        assert!(start.elapsed() < std::time::Duration::from_secs(5), "the form did not end by itself");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let said = said();
    assert_eq!(said.lines().count(), 1, "{said:?}");
    assert!(
        said.contains("the program that started this form ended") && said.contains("ask-user resume"),
        "{said}"
    );
    let keys = sb.file("keys", "enter\ntab\n1\n1\n");
    let resumed =
        sb.run(&["ask", payload.to_str().unwrap(), "--id", "left", "--script", keys.to_str().unwrap()]);
    assert_eq!(resumed.json()["details"]["answers"]["db"]["values"], json!(["sqlite"]));
    drop(pty);
}

/// A form whose starter has ended but which still has the terminal (no job-control shell took
/// it back) ignores SIGTSTP: stopped, nobody would ever continue it, and the person at the
/// terminal would face a frozen form. It stays on and answers keys.
#[test]
fn a_form_whose_starter_ended_ignores_a_stop() {
    let sb = Sandbox::new();
    sb.file("p.json", PAYLOAD);
    // No job control here: every process stays in the terminal's foreground group. (The
    // outer shell's "Killed" goes to a file, not over the form.)
    let script = format!(
        "exec 2> outer.err; sh -c 'echo $$ > starter; \"{}\" ask p.json --id kept > out.json; true'; sleep 30",
        bin().display()
    );
    let mut pty = Pty::spawn(&sb, &script, 80, 24);
    pty.wait_for("Which database?");
    let starter: u32 = std::fs::read_to_string(sb.path("starter")).unwrap().trim().parse().unwrap();
    // The form is the starter's only child.
    let children = std::fs::read_to_string(format!("/proc/{starter}/task/{starter}/children")).unwrap();
    let pid: u32 = children.trim().parse().unwrap();
    kill("KILL", starter);
    kill("TSTP", pid);
    std::thread::sleep(std::time::Duration::from_millis(600));
    assert_ne!(process_state(pid), 'T', "stopped with nobody left to continue it");
    pty.send("2");
    pty.wait_for("Which extras?");
    assert_eq!(pty.modes(), (true, true, true), "still the form's terminal");
    kill("TERM", pid);
    let _ = pty.child.kill(); // the outer shell's sleep
}

/// Another program writes over the form (a shell's "Killed", a background job's output): Ctrl+L
/// draws every cell again, as in most terminal programs, and changes no answer.
#[test]
fn ctrl_l_draws_the_form_whole_after_another_program_wrote_over_it() {
    let sb = Sandbox::new();
    let mut pty = start(&sb, 80, 24);
    pty.send("2");
    pty.wait_for("Which extras?");
    std::fs::write(pty.tty_name(), "\x1b[2J\x1b[5;3HSCRIBBLED\r\n\r\n").unwrap();
    pty.wait_until("the scribble shows", |p| p.screen().contains("SCRIBBLED"));
    pty.send("\x0c");
    pty.wait_until("the form drawn whole", |p| {
        !p.screen().contains("SCRIBBLED")
            && p.screen().contains("Which extras?")
            && p.screen().contains("[ ] Lint")
    });
    pty.send("1");
    pty.send(TAB);
    pty.submit_on_the_review();
    assert_eq!(pty.wait_exit(), 0);
    assert_eq!(sb.out()["content"][0]["text"], "Database: SQLite\nExtras: CI");
}

/// Job control as a person at a shell uses it. Stopped, the form gives the terminal back and
/// the shell says so. `bg` continues it in the background, where taking the terminal stops it
/// again (SIGTTOU) before it writes anything over the shell. `fg` brings it back drawn whole,
/// with its answers.
#[test]
fn a_stopped_form_waits_through_bg_and_comes_back_with_fg() {
    let sb = Sandbox::new();
    sb.file("p.json", PAYLOAD);
    let mut shell = portable_pty::CommandBuilder::new("bash");
    shell.args(["--norc", "--noprofile", "-i"]);
    let mut pty = Pty::spawn_command(&sb, shell, 80, 24, &[("PS1", "$ ")]);
    let bash = pty.child.process_id().unwrap();
    pty.send(&format!("\"{}\" ask p.json --id job > out.json\r", bin().display()));
    pty.wait_for("Which database?");
    pty.send("\x1b[B");
    pty.wait_until("the cursor on SQLite", |p| p.screen().contains("❯ 2. SQLite"));
    let children = std::fs::read_to_string(format!("/proc/{bash}/task/{bash}/children")).unwrap();
    let pid: u32 = children.trim().parse().unwrap();

    kill("TSTP", pid);
    pty.wait_for("Stopped");
    // (Bracketed paste is left out: bash's readline turns it on for its own prompt.)
    let shell_screen = |p: &Pty| (p.modes().0, p.modes().2) == (false, false);
    assert!(shell_screen(&pty), "the terminal given back to the shell");
    pty.send("bg\r");
    // bash names the job with a `&` once it has continued it.
    pty.wait_for("out.json &");
    pty.wait_until("stopped again in the background", |_| process_state(pid) == 'T');
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(process_state(pid), 'T', "taking the terminal from the background must stop it");
    assert!(shell_screen(&pty), "nothing of the form's written over the shell");
    assert!(!pty.screen().contains("Which database?"), "{}", pty.screen());

    pty.send("fg\r");
    pty.wait_until("the form drawn whole again", |p| {
        p.modes() == (true, true, true) && p.screen().contains("❯ 2. SQLite")
    });
    pty.send("\r");
    pty.wait_for("Which extras?");
    pty.send("1");
    pty.send(TAB);
    pty.submit_on_the_review();
    pty.wait_until("the form ended", |_| !std::path::Path::new(&format!("/proc/{pid}")).exists());
    assert_eq!(sb.out()["content"][0]["text"], "Database: SQLite\nExtras: CI");
    drop(pty);
}
