//! Retention: finished flows are pruned by age or count; unfinished ones only when asked for,
//! and a flow a live process holds never.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_engine::Event;
use ask_schema::{FormSource, validate};
use ask_storage::{FlowRecord, PayloadEntry, PruneRule, Store};
use common::events::key;

const DAY: u64 = 86_400_000;

/// A store with flows created on the given days: `done` ones cancelled (finished), others open.
fn store_with(flows: &[(&str, u64, bool)]) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb")).unwrap();
    let raw = serde_json::json!({"questions": [{"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}]}]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    for (id, day, done) in flows {
        let opened = Event::opened(form.clone());
        store.create_flow(&FlowRecord::new(*id, "ask", "s", day * DAY), &opened).unwrap();
        let entry = PayloadEntry {
            version: 1,
            timestamp: day * DAY,
            params: ask_storage::raw_params(&raw),
            source: FormSource::Tool,
            flow_id: Some((*id).to_owned()),
        };
        store.save_payload("s", &entry).unwrap();
        if *done {
            store.append(id, &key("esc")).unwrap();
        }
    }
    (dir, store)
}

fn ids(store: &Store) -> Vec<String> {
    store.flows().unwrap().into_iter().map(|r| r.id).collect()
}

#[test]
fn prune_by_age_deletes_only_old_finished_flows_with_their_events_and_payloads() {
    let (_dir, store) = store_with(&[("old-done", 1, true), ("old-open", 1, false), ("new-done", 99, true)]);
    let report =
        store.prune(100 * DAY, PruneRule { older_than_ms: Some(30 * DAY), ..PruneRule::default() }).unwrap();
    assert_eq!((report.flows, report.events), (1, 2));
    assert_eq!(ids(&store), ["old-open", "new-done"], "an unfinished flow is never pruned");
    assert!(store.events("old-done").unwrap().is_empty());
    let left: Vec<_> = store.payloads("s").unwrap().into_iter().filter_map(|p| p.flow_id).collect();
    assert_eq!(left, ["old-open", "new-done"], "the pruned flow's payload goes with it");
}

#[test]
fn prune_by_count_keeps_the_newest_finished_flows() {
    let (_dir, store) = store_with(&[("a", 1, true), ("b", 2, true), ("c", 3, false), ("d", 4, true)]);
    store.prune(5 * DAY, PruneRule { keep: Some(1), ..PruneRule::default() }).unwrap();
    assert_eq!(ids(&store), ["c", "d"]);
}

#[test]
fn a_flow_held_by_a_live_process_is_not_pruned() {
    let (_dir, store) = store_with(&[("held", 1, true), ("shown", 1, false)]);
    store.claim("held").unwrap();
    store.claim("shown").unwrap();
    let report = store
        .prune(100 * DAY, PruneRule { older_than_ms: Some(DAY), unfinished: true, ..PruneRule::default() })
        .unwrap();
    assert_eq!(report.flows, 0);
}

#[test]
fn the_retention_prune_runs_at_most_once_a_day() {
    let (_dir, store) = store_with(&[("old", 1, true)]);
    let first = store.prune_if_due(200 * DAY, 90).unwrap();
    assert_eq!(first.map(|r| r.flows), Some(1), "the first opening prunes");
    let (_d2, store2) = store_with(&[("old", 1, true)]);
    store2.prune_if_due(200 * DAY, 90).unwrap();
    // Another old flow appears; a prune within the same day does not run again.
    store2.create_flow(&FlowRecord::new("later", "ask", "s", DAY), &key("esc")).unwrap();
    assert_eq!(store2.prune_if_due(200 * DAY + DAY / 2, 90).unwrap(), None);
    assert!(store2.prune_if_due(201 * DAY, 90).unwrap().is_some(), "a day later it runs again");
    assert_eq!(store.prune_if_due(300 * DAY, 0).unwrap(), None, "0 days keeps everything");
}

/// `log prune --unfinished` clears abandoned forms too, by the same rules: by age, and `keep`
/// counting finished and unfinished flows together.
#[rstest::rstest]
#[case::by_age(PruneRule { older_than_ms: Some(30 * DAY), unfinished: true, keep: None }, &["new-open", "new-done"], 1)]
#[case::by_count(PruneRule { keep: Some(1), unfinished: true, older_than_ms: None }, &["new-done"], 2)]
#[case::not_asked_for(PruneRule { keep: Some(1), ..PruneRule::default() }, &["old-open", "new-open", "new-done"], 0)]
fn unfinished_flows_are_pruned_only_when_asked_for(
    #[case] rule: PruneRule,
    #[case] left: &[&str],
    #[case] unfinished: usize,
) {
    let (_dir, store) = store_with(&[
        ("old-open", 1, false),
        ("old-done", 2, true),
        ("new-open", 98, false),
        ("new-done", 99, true),
    ]);
    let report = store.prune(100 * DAY, rule).unwrap();
    assert_eq!(ids(&store), left);
    assert_eq!(report.unfinished, unfinished);
    assert_eq!(report.flows, 4 - left.len());
    assert!(store.events("old-open").unwrap().is_empty() || left.contains(&"old-open"));
}

/// An MCP call's owed result (`owed.rs`): most recently owed first, settled once returned, and
/// gone with its flow when that is pruned. A store from before the table reads as owing nothing.
#[test]
fn owed_results_are_listed_newest_first_settled_and_pruned_with_their_flow() {
    let (_dir, store) = store_with(&[]);
    assert!(store.owed().unwrap().is_empty(), "no table yet");
    let raw = serde_json::json!({"questions": [{"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}]}]});
    let opened = Event::opened(validate(&raw, FormSource::Tool).unwrap());
    for (id, day, owed_since, done) in
        [("old-done", 1, 10, true), ("new-done", 99, 30, true), ("open", 2, 20, false)]
    {
        store.create_owed_flow(&FlowRecord::new(id, "mcp", "s", day * DAY), &opened, owed_since).unwrap();
        if done {
            store.append(id, &key("esc")).unwrap();
        }
    }
    let owed = |store: &Store| store.owed().unwrap().into_iter().map(|o| o.id).collect::<Vec<_>>();
    assert_eq!(owed(&store), ["new-done", "open", "old-done"]);
    let hash = ask_storage::form_hash(&validate(&raw, FormSource::Tool).unwrap());
    assert!(store.owed().unwrap().iter().all(|o| o.form_hash == hash), "each row knows its form");
    store.settle("new-done").unwrap();
    store.settle("never-owed").unwrap();
    assert_eq!(owed(&store), ["open", "old-done"]);
    store.prune(100 * DAY, PruneRule { older_than_ms: Some(30 * DAY), ..PruneRule::default() }).unwrap();
    assert_eq!(owed(&store), ["open"], "the pruned flow owes nothing any more");
}

/// "Older than 30 days" means more than 30 days: a flow exactly 30 days old is kept, one a
/// millisecond older is not.
#[test]
fn prune_by_age_keeps_a_flow_exactly_as_old_as_the_limit() {
    let (_dir, store) = store_with(&[("edge", 70, true), ("past", 69, true)]);
    let report =
        store.prune(100 * DAY, PruneRule { older_than_ms: Some(30 * DAY), ..PruneRule::default() }).unwrap();
    assert_eq!(ids(&store), ["edge"]);
    assert_eq!(report.flows, 1);
    let report = store
        .prune(100 * DAY + 1, PruneRule { older_than_ms: Some(30 * DAY), ..PruneRule::default() })
        .unwrap();
    assert_eq!((report.flows, ids(&store).len()), (1, 0), "a millisecond later it goes too");
}

/// `store.retentionDays` as a rule (what `log prune` without flags and the daily prune use):
/// finished flows only, older than that many whole days; 0 keeps every flow, and a number of
/// days too large for milliseconds keeps them all rather than wrapping around.
#[rstest::rstest]
#[case::off(0, None)]
#[case::one_day(1, Some(DAY))]
#[case::thirty_days(30, Some(30 * DAY))]
#[case::too_many_days(u64::MAX, Some(u64::MAX))]
fn the_retention_setting_is_a_rule_in_whole_days(#[case] days: u64, #[case] older_than_ms: Option<u64>) {
    assert_eq!(PruneRule::retention(days), PruneRule { older_than_ms, keep: None, unfinished: false });
}

#[test]
fn thirty_days_of_retention_keep_a_flow_of_29_days() {
    let (_dir, store) = store_with(&[("kept", 71, true), ("gone", 69, true)]);
    store.prune(100 * DAY, PruneRule::retention(30)).unwrap();
    assert_eq!(ids(&store), ["kept"]);
}

/// A config file that cannot be used is replaced by defaults, but not its retention: a typo
/// elsewhere (here `extractionRetries` 7) must not let the 90-day default delete flows the user
/// chose to keep. A file whose retention cannot be read keeps every flow; one that never set it
/// keeps the default.
#[rstest::rstest]
#[case::kept_forever(r#"{"answer":{"extractionRetries":7},"store":{"retentionDays":0}}"#, true)]
#[case::kept_a_year(r#"{"answer":{"extractionRetries":7},"store":{"retentionDays":365}}"#, true)]
#[case::retention_unreadable(r#"{"store":{"retentionDays":"forever"}}"#, true)]
#[case::not_json(r#"{"store":{"retentionDays":0},"#, true)]
#[case::never_set(r#"{"answer":{"extractionRetries":7}}"#, false)]
fn an_unusable_config_file_never_shortens_retention(#[case] text: &str, #[case] kept: bool) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    std::fs::write(&config, text).unwrap();
    for run in ["the run that finds the file", "the next run, on the file written in its place"] {
        let (_store_dir, store) = store_with(&[("old-done", 1, true)]);
        let loaded = ask_storage::load_settings_with_env(Some(&config), Some(Default::default()));
        assert!(run.starts_with("the next") || !loaded.notices.is_empty(), "{run}: moved aside");
        let due = store.prune(200 * DAY, PruneRule::retention(loaded.store.retention_days)).unwrap();
        assert_eq!(due.flows == 0, kept, "{run}: {:?}", loaded.notices);
    }
}
