//! Following a flow that another process drives: fold only the events committed since the last
//! look, and say how long to wait before looking again (fast while someone is typing, backing
//! off to a bounded interval while nothing happens). `ask-user wait` and the MCP server both
//! wait on flows this way.

use std::time::Duration;

use ask_engine::FlowState;

use crate::store::{Store, StoreError};

/// The quickest and slowest re-read of a followed log.
const FAST: Duration = Duration::from_millis(20);
const SLOW: Duration = Duration::from_millis(250);

/// The folded state of a flow as far as its log has been read.
pub struct FlowFollower {
    id: String,
    state: FlowState,
    next: u64,
    interval: Duration,
}

impl FlowFollower {
    /// Follows flow `id` from its first event.
    pub fn new(id: impl Into<String>) -> FlowFollower {
        FlowFollower { id: id.into(), state: FlowState::default(), next: 0, interval: FAST }
    }

    /// Reads and folds what was committed since the last call; returns how long to wait before
    /// the next one.
    pub fn poll(&mut self, store: &Store) -> Result<Duration, StoreError> {
        let new = store.events_from(&self.id, self.next)?;
        self.next += new.len() as u64;
        for event in &new {
            self.state.apply(event);
        }
        self.interval = if new.is_empty() { (self.interval * 2).min(SLOW) } else { FAST };
        Ok(self.interval)
    }

    /// The state folded so far.
    pub fn state(&self) -> &FlowState {
        &self.state
    }
}
