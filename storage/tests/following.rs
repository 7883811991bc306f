//! Following a flow another process drives (`ask-user wait`, the MCP server waiting on a form
//! shown elsewhere), and the small helpers every frontend names flows and errors with.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ask_engine::{Event, FlowState};
use ask_storage::{FlowFollower, FlowRecord, Store};
use common::events::{key, opened};

fn opening() -> Event {
    opened(
        serde_json::json!({"questions": [{"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]}]}),
    )
}

/// What the follower holds after each look is the fold of everything committed so far, each
/// event folded once, up to the submitted result; it looks again soon while events come in and
/// backs off, doubling, to a quarter of a second while none do.
#[test]
fn a_follower_folds_what_another_handle_commits_and_backs_off_while_nothing_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let writer = Store::open(&path).unwrap();
    writer.create_flow(&FlowRecord::new("f", "ask", "default", 1), &opening()).unwrap();
    let reader = Store::open(&path).unwrap();
    let mut follower = FlowFollower::new("f");
    let fast = follower.poll(&reader).unwrap();
    assert_eq!(fast, Duration::from_millis(20));
    assert!(follower.state().outcome().is_none());

    let idle: Vec<Duration> = (0..6).map(|_| follower.poll(&reader).unwrap()).collect();
    let ms: Vec<u128> = idle.iter().map(Duration::as_millis).collect();
    assert_eq!(ms, [40, 80, 160, 250, 250, 250]);

    for keys in [&["down"][..], &["enter"], &["1", "1"]] {
        writer.append_all("f", &keys.iter().map(|k| key(k)).collect::<Vec<_>>()).unwrap();
        assert_eq!(follower.poll(&reader).unwrap(), fast, "events came: look again soon");
        assert_eq!(follower.state(), &FlowState::replay(&writer.events("f").unwrap()));
    }
    let result = follower.state().result().expect("submitted");
    assert_eq!(result.details.answers["q"].values, ["b"]);
    assert_eq!(follower.poll(&reader).unwrap(), Duration::from_millis(40));
    assert_eq!(follower.state(), &FlowState::replay(&writer.events("f").unwrap()), "nothing folded twice");
}

#[test]
fn flow_ids_carry_the_prefix_the_time_and_the_process_and_never_repeat() {
    let before = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as u64;
    let ids: Vec<String> = (0..1000).map(|_| ask_storage::new_flow_id("f")).collect();
    let after = ask_storage::now_ms();
    assert!(before <= after && after < before + 60_000);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len());
    for id in &ids {
        let rest = id.strip_prefix('f').unwrap();
        let parts: Vec<&str> = rest.split('-').collect();
        let ms: u64 = parts[0].parse().unwrap();
        assert!(before <= ms && ms <= after, "{id}");
        assert_eq!(parts[1], std::process::id().to_string(), "{id}");
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{text}")]
struct Layer {
    text: &'static str,
    #[source]
    cause: Option<Box<Layer>>,
}

fn layers(texts: &[&'static str]) -> Layer {
    let (last, rest) = texts.split_last().unwrap();
    let mut error = Layer { text: last, cause: None };
    for text in rest.iter().rev() {
        error = Layer { text, cause: Some(Box::new(error)) };
    }
    error
}

/// Shown in the settings overlay and on stderr: every cause on one line, each once.
#[rstest::rstest]
#[case::causes_in_order(&["could not save settings", "disk full"], "could not save settings: disk full")]
#[case::a_cause_repeated_by_its_wrapper(&["Permission denied (os error 13)", "Permission denied (os error 13)"], "Permission denied (os error 13)")]
#[case::three_layers(&["store busy", "lock held", "pid 7"], "store busy: lock held: pid 7")]
fn an_error_line_names_every_cause_once(#[case] texts: &[&'static str], #[case] line: &str) {
    assert_eq!(ask_storage::error_line(&layers(texts)), line);
}
