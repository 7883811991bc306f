//! A flow session: every event is committed to the store before it is folded, so the log is
//! the truth and a crash loses at most the event in flight.

use ask_engine::{Effects, Event, FlowState};
use ask_storage::{FlowRecord, Store, StoreError};

/// One open flow: its id, the store its log lives in, and the folded state.
pub struct FlowSession<'s> {
    store: &'s Store,
    id: String,
    state: FlowState,
    /// Files offered for `@` references, read once when first needed.
    pub files: crate::file_refs::FileIndex,
}

impl<'s> FlowSession<'s> {
    /// Starts a new flow: its record and opening event are committed together, then folded.
    pub fn start(
        store: &'s Store,
        record: &FlowRecord,
        opened: Event,
    ) -> Result<FlowSession<'s>, StoreError> {
        store.create_flow(record, &opened)?;
        let mut state = FlowState::default();
        state.apply(&opened);
        Ok(FlowSession { store, id: record.id.clone(), state, files: Default::default() })
    }

    /// Reopens a flow by folding its recorded log.
    pub fn resume(store: &'s Store, id: String) -> Result<FlowSession<'s>, StoreError> {
        let events = store.events(&id)?;
        Ok(FlowSession { store, state: FlowState::replay(&events), id, files: Default::default() })
    }

    /// Commits `event` durably, then applies it.
    pub fn push(&mut self, event: Event) -> Result<Effects, StoreError> {
        self.store.append(&self.id, &event)?;
        Ok(self.state.apply(&event))
    }

    /// The folded state.
    pub fn state(&self) -> &FlowState {
        &self.state
    }
}
