//! SIGKILL trials: a scripted `ask-user` is killed right after its N-th committed event, for
//! 100 values of N spread over the flow (the test follows the store from another process and
//! kills as soon as the log reaches N events). After every kill the log must hold at least those
//! N events, its keys a clean prefix of the keys sent, and resuming with the rest must give the
//! uninterrupted run's result.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::{Duration, Instant};

use ask_engine::{Event, Settings, script_steps};
use common::{PAYLOAD, Sandbox};

const SCRIPT: &str = "down\nspace\nshift+n\ntype \"needs a managed option\"\nenter\nup\nenter\n\
    down\nn\ntype \"only in CI\"\nenter\nspace\n4\ntype \"sbom\"\nenter\nup\nup\nspace\ntab\n2\n2\n";

fn s(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

/// The key events the script makes, in order.
fn script_events() -> Vec<Event> {
    script_steps(SCRIPT).flat_map(|step| step.unwrap().events(&Settings::default()).unwrap()).collect()
}

/// The remaining events written back as a script (each event is one key press).
fn as_script(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| match e {
            Event::KeyPressed { key } => format!("{key}\n"),
            other => panic!("unexpected event {other:?}"),
        })
        .collect()
}

#[test]
fn a_hundred_kills_after_the_nth_committed_event_lose_nothing_committed() {
    let expected = script_events();
    let total = expected.len() + 1; // with the opening event
    let baseline = {
        let sb = Sandbox::new();
        let r = sb.run(&[
            "ask",
            s(&sb.file("p.json", PAYLOAD)),
            "--id",
            "c",
            "--script",
            s(&sb.file("k", SCRIPT)),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let sb = Sandbox::new();
    let p = sb.file("p.json", PAYLOAD);
    let k = sb.file("k", SCRIPT);
    let mut resumed = 0;
    let mut exact = 0;
    for trial in 0..100 {
        let target = 1 + trial % (total - 1); // kill after event 1 … total-1: the flow is never done
        let id = format!("c{trial}");
        let mut child = sb.spawn(&["ask", s(&p), "--id", &id, "--script", s(&k), "--pace", "3"]);
        let store = {
            let start = Instant::now();
            loop {
                if let Ok(store) = ask_storage::Store::open(&sb.store()) {
                    break store;
                }
                assert!(start.elapsed() < Duration::from_secs(10), "store appears");
            }
        };
        let start = Instant::now();
        while store.events(&id).map_or(0, |e| e.len()) < target {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "trial {trial}: event {target} never committed"
            );
            std::thread::sleep(Duration::from_micros(300));
        }
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        drop(store);

        // Read the log as the process that resumes it does. A kill between the two phases of
        // a multi-process commit leaves the newest commit durable but not yet published: a
        // reader still sees the one before, and the next writer adopts it. So a writer opens
        // the flow first (an empty script: it stops with the form open), then the log is read.
        let touched = sb.run(&["ask", s(&p), "--id", &id, "--script", s(&sb.file("none", ""))]);
        assert_eq!(touched.code, 4, "trial {trial}: {}", touched.stderr);
        let logged = ask_storage::Store::open(&sb.store()).unwrap().events(&id).unwrap();
        assert!(logged.len() >= target, "trial {trial}: every event committed before the kill is there");
        exact += usize::from(logged.len() == target);
        let (opened, rest) = logged.split_first().unwrap();
        assert!(matches!(opened, Event::FlowOpened { .. }), "trial {trial}: log starts with FlowOpened");
        // Between the keys, frames record what only drawing knows (here: the editors' width).
        let (keys, drawn): (Vec<Event>, Vec<Event>) =
            rest.iter().cloned().partition(|e| matches!(e, Event::KeyPressed { .. }));
        assert!(drawn.iter().all(|e| matches!(e, Event::EditorWrapped { .. })), "trial {trial}: {drawn:?}");
        assert_eq!(
            keys,
            &expected[..keys.len()],
            "trial {trial}: the keys logged are a prefix of the keys sent"
        );
        // Finish the flow with the keys that never made it; `ask --id` resumes it.
        let remaining = sb.file("rest", &as_script(&expected[keys.len()..]));
        let r = sb.run(&["ask", s(&p), "--id", &id, "--script", s(&remaining)]);
        assert_eq!(
            r.stdout,
            baseline,
            "trial {trial} (killed after event {}): same result as uninterrupted",
            logged.len()
        );
        resumed += 1;
    }
    eprintln!(
        "SIGKILL trials: {resumed}/100 resumed with every committed event ({exact} killed exactly after event N)"
    );
    assert_eq!(resumed, 100);
}
