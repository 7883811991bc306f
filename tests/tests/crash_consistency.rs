//! Kill a scripted `ask-user` with SIGKILL at many points; the log must be a clean prefix of
//! the keys sent, and resuming with the rest must give the uninterrupted run's result.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::Duration;

use ask_engine::{Event, FlowState, Settings, script_steps};
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
fn kill_at_random_points_loses_nothing_committed() {
    let expected = script_events();
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
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut lengths = Vec::new();
    for trial in 0..24 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let delay = Duration::from_millis(seed % 280); // some land before the flow exists
        let sb = Sandbox::new();
        let p = sb.file("p.json", PAYLOAD);
        let k = sb.file("k", SCRIPT);
        let mut child = sb.spawn(&["ask", s(&p), "--id", "c", "--script", s(&k), "--pace", "6"]);
        std::thread::sleep(delay);
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();

        let store = ask_storage::Store::open(&sb.store()).unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        let logged = store.events("c").unwrap();
        drop(store);
        let keys = logged.len().saturating_sub(1);
        lengths.push(keys);
        if let Some((opened, rest)) = logged.split_first() {
            assert!(matches!(opened, Event::FlowOpened { .. }), "trial {trial}: log starts with FlowOpened");
            assert_eq!(rest, &expected[..rest.len()], "trial {trial}: the log is a prefix of the keys sent");
            let folded = FlowState::replay(&logged);
            let mut live = FlowState::default();
            for e in &logged {
                live.apply(e);
            }
            assert_eq!(folded, live, "trial {trial}: fold of the log is the state those keys imply");
        }
        // Finish the flow with the keys that never made it; `ask --id` resumes it.
        let rest = sb.file("rest", &as_script(&expected[keys..]));
        let r = sb.run(&["ask", s(&p), "--id", "c", "--script", s(&rest)]);
        assert_eq!(
            r.stdout, baseline,
            "trial {trial} (killed after {keys} keys): same result as uninterrupted"
        );
    }
    let distinct: std::collections::BTreeSet<_> = lengths.iter().collect();
    assert!(distinct.len() >= 3, "kills landed at varied points: {lengths:?}");
}
