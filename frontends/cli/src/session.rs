//! A flow session: every event is recorded before it is folded, so the log is the truth.

use ask_engine::{Effects, Event, FlowState};

/// The events of one flow and their fold.
#[derive(Debug, Default)]
pub struct FlowSession {
    log: Vec<Event>,
    state: FlowState,
}

impl FlowSession {
    /// Opens a flow with its `FlowOpened` event.
    pub fn open(opened: Event) -> FlowSession {
        let mut session = FlowSession::default();
        session.push(opened);
        session
    }

    /// Records `event`, then applies it.
    pub fn push(&mut self, event: Event) -> Effects {
        self.log.push(event);
        let last = self.log.len() - 1;
        self.state.apply(&self.log[last])
    }

    /// The folded state.
    pub fn state(&self) -> &FlowState {
        &self.state
    }

    /// Every event so far.
    #[allow(dead_code)] // read by the event-log export
    pub fn log(&self) -> &[Event] {
        &self.log
    }
}
