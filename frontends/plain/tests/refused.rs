//! A store that refuses a line's events (a full disk): the plain frontend says so in one line,
//! applies nothing of them, and goes on, so the person fixes it and says the line again; `q`
//! refused again while it refuses ends the run with the store's reason.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use ask_engine::{Event, FlowState};
use ask_plain::{Ended, Flow, run};
use common::{Memory, opened};

/// A flow whose pushes are refused while `refusing` says so, counted from the first push.
struct Refusing {
    flow: Memory,
    pushes: usize,
    refusing: fn(usize) -> bool,
    /// Whether a refusal leaves the flow recording (its state put back to the log's).
    recovers: bool,
}

impl Refusing {
    fn new(state: FlowState, refusing: fn(usize) -> bool, recovers: bool) -> Refusing {
        Refusing { flow: Memory(state), pushes: 0, refusing, recovers }
    }
}

impl Flow for Refusing {
    fn state(&self) -> &FlowState {
        &self.flow.0
    }
    fn push(&mut self, events: &[Event]) -> Result<(), String> {
        self.pushes += 1;
        if (self.refusing)(self.pushes) {
            return Err("cannot write the store s.redb: No space left on device (os error 28)".into());
        }
        self.flow.push(events)
    }
    fn recording(&self) -> bool {
        self.recovers || self.pushes == 0 || !(self.refusing)(self.pushes)
    }
}

fn talk(lines: &[&str], refusing: fn(usize) -> bool) -> (std::io::Result<Ended>, Refusing, String) {
    talk_to(Refusing::new(opened("single-database.json"), refusing, true), lines)
}

fn talk_to(mut flow: Refusing, lines: &[&str]) -> (std::io::Result<Ended>, Refusing, String) {
    let mut said = Vec::new();
    let input = std::io::Cursor::new(lines.join("\n").into_bytes());
    let ended = run(input, &mut said, &mut flow, None);
    (ended, flow, String::from_utf8(said).unwrap())
}

#[test]
fn a_refused_line_changes_nothing_is_said_and_can_be_said_again() {
    let (ended, flow, said) = talk(&["3", "3", "1"], |n| n == 1);
    assert_eq!(ended.unwrap(), Ended::Completed, "{said}");
    let refusal: Vec<&str> = said.lines().filter(|l| l.contains("Not saved")).collect();
    assert_eq!(refusal.len(), 1, "{said}");
    assert!(refusal[0].contains("No space left on device") && refusal[0].contains("q now leaves"), "{said}");
    let result = serde_json::to_value(flow.state().result().unwrap()).unwrap();
    assert_eq!(result["details"]["answers"]["database"]["values"][0], "dynamodb");
}

#[test]
fn q_refused_again_while_the_store_refuses_ends_the_run_with_its_reason() {
    let (ended, flow, said) = talk(&["q", "q", "1"], |_| true);
    let error = ended.unwrap_err();
    assert!(error.to_string().contains("No space left on device"), "{error}");
    assert!(flow.state().outcome().is_none() && !flow.state().is_dirty(), "nothing was applied:\n{said}");
    assert_eq!(
        said.matches("Not saved").count(),
        1,
        "the first refusal is said, the second ends it:\n{said}"
    );
}

/// A refusal after which the flow no longer records (its state could not be put back) ends the
/// run at once: nothing more is said or built on that state.
#[test]
fn a_refusal_the_flow_cannot_recover_from_ends_the_run_at_once() {
    let flow = Refusing::new(opened("single-database.json"), |n| n == 1, false);
    let (ended, _, said) = talk_to(flow, &["3", "3", "1"]);
    assert!(ended.unwrap_err().to_string().contains("No space left on device"));
    assert!(!said.contains("Not saved"), "{said}");
}

/// A flow that says nothing about recording is taken to record again after a refusal: the
/// refused line is said and the conversation goes on.
#[test]
fn a_flow_records_again_unless_it_says_otherwise() {
    struct RefusesFirst(Memory, bool);
    impl Flow for RefusesFirst {
        fn state(&self) -> &FlowState {
            &self.0.0
        }
        fn push(&mut self, events: &[Event]) -> Result<(), String> {
            if std::mem::replace(&mut self.1, false) {
                return Err("the disk is full".into());
            }
            self.0.push(events)
        }
    }
    let mut flow = RefusesFirst(Memory(opened("single-database.json")), true);
    let mut said = Vec::new();
    let ended = run(std::io::Cursor::new(b"2\n2\n1".to_vec()), &mut said, &mut flow, None).unwrap();
    assert_eq!(ended, Ended::Completed);
    assert_eq!(
        String::from_utf8(said).unwrap().matches("Not saved, so not applied: the disk is full").count(),
        1
    );
}

/// After a refusal only `q` ends the run, as the refusal line says: any other line refused
/// again is said again, even one whose first key is the cancel binding because it closes an
/// editor first (a flow resumed with an option note editor open).
#[test]
fn only_q_refused_again_ends_the_run() {
    let mut state = opened("single-database.json");
    state.apply(&Event::key(ask_engine::KeyPress::parse("n").unwrap()));
    assert!(state.editor().is_some());
    let flow = Refusing::new(state, |n| n <= 2, true);
    let (ended, flow, said) = talk_to(flow, &["N later", "N later", "t my own", "1"]);
    assert_eq!(ended.unwrap(), Ended::Completed, "{said}");
    assert_eq!(said.matches("Not saved").count(), 2, "{said}");
    let result = serde_json::to_value(flow.state().result().unwrap()).unwrap();
    assert_eq!(result["details"]["answers"]["database"]["customText"], "my own", "{said}");
}
