//! The durable flow: the one loop every frontend drives a flow through. Each event is committed
//! to the store before it is applied; effects are carried out (an overlay toggle saved to the
//! config file, `@` paths looked up on a worker thread) and their outcomes come back as events
//! committed the same way. While it lives, the flow is leased to this process, so no second UI
//! opens on the same log.
//!
//! ```
//! use ask_engine::{Event, KeyPress, Origin, Size};
//! use ask_schema::{FormSource, validate};
//! use ask_storage::{DurableFlow, FlowRecord, Store};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let store = Store::open(&dir.path().join("store.redb")).unwrap();
//! let raw = serde_json::json!({"questions": [{"id": "db", "prompt": "Which database?",
//!     "options": [{"value": "pg", "label": "Postgres"}, {"value": "lite", "label": "SQLite"}]}]});
//! let form = validate(&raw, FormSource::Tool).unwrap();
//! let opened = Event::FlowOpened {
//!     form: form.into(), settings: Box::default(), origin: Origin::tool(),
//!     size: Size::default(), notices: vec![],
//! };
//! let mut flow = DurableFlow::start(&store, &FlowRecord::new("call-1", "ask", "default", 0), opened).unwrap();
//! for id in ["down", "enter", "1", "1"] {
//!     flow.push(Event::key(KeyPress::parse(id).unwrap())).unwrap();
//! }
//! assert_eq!(flow.state().result().unwrap().details.answers["db"].values, ["lite"]);
//! drop(flow);
//!
//! // Every event is in the store: a fold of the log gives the same result in any process.
//! let logged = ask_engine::FlowState::replay(&store.events("call-1").unwrap());
//! assert_eq!(logged.result(), ask_engine::FlowState::replay(&store.events("call-1").unwrap()).result());
//! assert!(logged.outcome().is_some());
//! ```

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Duration;

use ask_engine::{Effects, Event, FlowState};

use crate::store::{Claim, FlowRecord, OpeningRows, PayloadEntry, Store, StoreError};

/// Makes the payload entry a new flow saves with its opening ([`DurableFlow::start_beside`]).
/// It runs on the commit thread: checking a large payload's JSON text for the entry (≈ 8 ms for
/// 100 000 options) is time the first frame need not wait for.
pub type MakePayload<'s> = Box<dyn FnOnce() -> Result<PayloadEntry, StoreError> + Send + 's>;

/// Looks up paths for an `@` query (runs on a worker thread, off the key path).
pub type FileOffers = Box<dyn FnMut(&str) -> Vec<String> + Send>;

/// Where the effects of a flow go: the config file toggles are saved to.
#[derive(Debug, Clone, Default)]
pub struct FlowHost {
    /// The config file an overlay toggle is saved to (`None`: toggles are not saved).
    pub config: Option<PathBuf>,
}

/// A store being opened on a thread of the flow's scope ([`DurableFlow::start_beside_opening`]).
pub struct StoreOpening<'s> {
    /// Where the store is kept once open; it outlives the flow.
    pub slot: &'s OnceLock<Store>,
    /// The thread opening it.
    pub thread: ScopedJoinHandle<'s, Result<Store, StoreError>>,
}

/// The store a flow writes to: open, or being opened (then in `slot` once its opening commit
/// ran, which every write waits for).
#[derive(Clone, Copy)]
enum StoreRef<'s> {
    Open(&'s Store),
    Opening(&'s OnceLock<Store>),
}

/// One open flow, driven durably by this process.
pub struct DurableFlow<'s> {
    store: StoreRef<'s>,
    id: String,
    state: FlowState,
    host: FlowHost,
    offers: Option<OfferWorker>,
    opening: Opening<'s>,
}

/// Where the flow's opening commit stands ([`DurableFlow::start_beside`] runs it on a thread).
enum Opening<'s> {
    Durable,
    Running(ScopedJoinHandle<'s, Result<(), StoreError>>),
    Failed,
}

struct OfferWorker {
    requests: Sender<(u64, String)>,
    answers: Receiver<(u64, String, Vec<String>)>,
    asked: u64,
    answered: u64,
}

impl<'s> DurableFlow<'s> {
    /// Starts a new flow: its record, its opening event and this process's lease on it are
    /// committed together, then the event is folded.
    pub fn start(
        store: &'s Store,
        record: &FlowRecord,
        opened: Event,
    ) -> Result<DurableFlow<'s>, StoreError> {
        Self::start_saving(store, record, opened, None)
    }

    /// Like [`DurableFlow::start`], saving the form's new payload entry (`payload`: session and
    /// entry, for `/ask:replay`) in the same commit.
    pub fn start_saving(
        store: &'s Store,
        record: &FlowRecord,
        opened: Event,
        payload: Option<(&str, &PayloadEntry)>,
    ) -> Result<DurableFlow<'s>, StoreError> {
        store.open_flow(record, &opened, payload)?;
        let mut state = FlowState::default();
        state.apply(&opened);
        Ok(Self::new(store, record.id.clone(), state))
    }

    /// Like [`DurableFlow::start_saving`], but the opening commit runs on a thread of `scope` so
    /// the caller can draw the first frame meanwhile: for a form of 100 000 options that commit
    /// writes two values of ≈ 9 MB and syncs them, most of the time to the first frame. The
    /// returned flow holds the fold of the opening event — the form as validated, no input — and
    /// takes no input until the commit is durable: every write waits for it first
    /// ([`DurableFlow::opened`] waits for it and reports its failure). A crash before it lands
    /// leaves no flow behind and loses nothing the user entered.
    pub fn start_beside<'env>(
        scope: &'s Scope<'s, 'env>,
        store: &'s Store,
        record: FlowRecord,
        opened: Event,
        payload: Option<(&'s str, MakePayload<'s>)>,
    ) -> DurableFlow<'s> {
        Self::beside(scope, StoreRef::Open(store), move || Ok(store), record, opened, payload)
    }

    /// Like [`DurableFlow::start_beside`] while the store itself is still being opened (a few
    /// synced writes, or a wait for another process's write): the first frame waits for
    /// neither. The opening commit's thread waits for the store first; a store that fails to
    /// open fails that commit, with the store's own error, like any other failed opening.
    pub fn start_beside_opening<'env>(
        scope: &'s Scope<'s, 'env>,
        store: StoreOpening<'s>,
        record: FlowRecord,
        opened: Event,
        payload: Option<(&'s str, MakePayload<'s>)>,
    ) -> DurableFlow<'s> {
        let StoreOpening { slot, thread } = store;
        let open = move || {
            let open = thread.join().unwrap_or_else(|panic| Err(StoreError::bug(panic.as_ref())))?;
            Ok(slot.get_or_init(move || open))
        };
        Self::beside(scope, StoreRef::Opening(slot), open, record, opened, payload)
    }

    /// The flow of `opened`, its opening commit running on a thread of `scope` into the store
    /// `open` gives.
    fn beside<'env>(
        scope: &'s Scope<'s, 'env>,
        store: StoreRef<'s>,
        open: impl FnOnce() -> Result<&'s Store, StoreError> + Send + 's,
        record: FlowRecord,
        opened: Event,
        payload: Option<(&'s str, MakePayload<'s>)>,
    ) -> DurableFlow<'s> {
        let mut state = FlowState::default();
        state.apply(&opened);
        let id = record.id.clone();
        // The rows are made first: a store still being opened (its integrity check reads the
        // whole file) is waited for only to write them.
        let commit = scope.spawn(move || {
            let rows = OpeningRows::make(&opened, payload)?;
            open()?.insert_opening(&record, rows)
        });
        let mut flow = Self::at(store, id, state);
        flow.opening = Opening::Running(commit);
        flow
    }

    /// Waits until the opening commit of [`DurableFlow::start_beside`] is durable (at once for
    /// any other flow). Its failure is returned the first time; from then on every write of the
    /// flow fails with [`StoreError::NotRecorded`].
    pub fn opened(&mut self) -> Result<(), StoreError> {
        let outcome = match std::mem::replace(&mut self.opening, Opening::Failed) {
            Opening::Durable => Ok(()),
            Opening::Failed => Err(StoreError::NotRecorded(self.id.clone())),
            Opening::Running(commit) => {
                commit.join().unwrap_or_else(|panic| Err(StoreError::bug(panic.as_ref())))
            }
        };
        if outcome.is_ok() {
            self.opening = Opening::Durable;
        }
        outcome
    }

    /// Whether the flow can still be written. False once its opening failed, or once a group
    /// that failed to commit could not be taken back out of the state (its log unreadable):
    /// the state may then hold keys the log lacks, so nothing more may be built on it.
    pub fn is_recording(&self) -> bool {
        !matches!(self.opening, Opening::Failed)
    }

    /// Reopens a recorded flow by folding its log; refused while another live process shows it.
    pub fn resume(store: &'s Store, id: &str) -> Result<DurableFlow<'s>, StoreError> {
        if store.flow(id)?.is_none() {
            return Err(StoreError::UnknownFlow(id.to_owned()));
        }
        Self::hold(store, id)?;
        let state = FlowState::replay(&store.events(id)?);
        Ok(Self::new(store, id.to_owned(), state))
    }

    fn hold(store: &Store, id: &str) -> Result<(), StoreError> {
        match store.claim(id)? {
            Claim::Acquired => Ok(()),
            Claim::HeldBy(lease) => Err(StoreError::Held { flow: id.to_owned(), pid: lease.pid }),
        }
    }

    fn new(store: &'s Store, id: String, state: FlowState) -> DurableFlow<'s> {
        Self::at(StoreRef::Open(store), id, state)
    }

    fn at(store: StoreRef<'s>, id: String, state: FlowState) -> DurableFlow<'s> {
        DurableFlow { store, id, state, host: FlowHost::default(), offers: None, opening: Opening::Durable }
    }

    /// The store, once open: always after [`DurableFlow::opened`] succeeded.
    fn store(&self) -> Result<&'s Store, StoreError> {
        match self.store {
            StoreRef::Open(store) => Ok(store),
            StoreRef::Opening(slot) => slot.get().ok_or_else(|| StoreError::NotRecorded(self.id.clone())),
        }
    }

    /// Sets where effects go.
    pub fn with_host(mut self, host: FlowHost) -> Self {
        self.host = host;
        self
    }

    /// Answers `@` queries with `offers`, on a worker thread.
    pub fn with_file_offers(mut self, mut offers: FileOffers) -> Self {
        let (requests, inbox) = channel::<(u64, String)>();
        let (outbox, answers) = channel();
        std::thread::spawn(move || {
            while let Ok(mut request) = inbox.recv() {
                // Only the newest query still matters: the fold ignores answers to older ones.
                while let Ok(newer) = inbox.try_recv() {
                    request = newer;
                }
                // A panic looking paths up (a bug) costs this query its offers, not the form
                // its `@`: the binary's panic hook has logged it and says it after the form.
                let items = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    crate::faults::at("file-offers");
                    offers(&request.1)
                }))
                .unwrap_or_default();
                if outbox.send((request.0, request.1, items)).is_err() {
                    break;
                }
            }
        });
        self.offers = Some(OfferWorker { requests, answers, asked: 0, answered: 0 });
        self
    }

    /// The flow id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The folded state.
    pub fn state(&self) -> &FlowState {
        &self.state
    }

    /// Commits `event` durably, applies it, and carries out its effects (their outcomes are
    /// committed and applied as events too).
    pub fn push(&mut self, event: Event) -> Result<Effects, StoreError> {
        let before = *self.state.settings();
        let fx = self.commit_and_apply(event)?;
        self.carry_out(&fx, before)?;
        Ok(fx)
    }

    /// Pushes events that arrived together (keys already waiting in the terminal's input, a
    /// line of the plain frontend) with as few commits as possible — group commit: a burst of
    /// keys costs one synced transaction instead of one per key. The log and the state end up
    /// exactly as if each event had been pushed on its own: a group ends at a settings toggle
    /// (its save's failure is logged right after it), events after the flow completes are
    /// neither committed nor applied, and nothing is made of a group (its effects, the next
    /// group, what the caller draws) before it is on disk; a group whose commit fails is taken
    /// back out of the state, so events without a toggle among them are kept all or none.
    /// An `@` query does not end a group: its paths arrive later as an event of their own
    /// whenever they are asked, and only the group's newest query is asked (the fold takes
    /// paths for the query it shows, so an older one's would be dropped).
    /// Returns how many were pushed.
    pub fn push_all(&mut self, events: &[Event]) -> Result<usize, StoreError> {
        self.opened()?;
        let mut done = 0;
        while done < events.len() && self.state.outcome().is_none() {
            let rest = &events[done..];
            if rest.len() == 1 {
                self.push(rest[0].clone())?;
                done += 1;
                continue;
            }
            let store = self.store()?;
            let (mut fx, mut before, mut group) = (Effects::default(), *self.state.settings(), 0);
            let mut query = None;
            for event in rest {
                before = *self.state.settings();
                fx = self.state.apply(event);
                query = fx.complete_query.take().or(query);
                group += 1;
                if fx.save_toggle.is_some() || self.state.outcome().is_some() {
                    break;
                }
            }
            fx.complete_query = query;
            if let Err(e) = store.append_all(&self.id, &rest[..group]) {
                self.unfold_after_failed_commit(store);
                return Err(e);
            }
            self.carry_out(&fx, before)?;
            done += group;
        }
        Ok(done)
    }

    /// Puts the state back to a fold of the log after a group folded ahead of its commit
    /// failed to commit. A group is the one place the state is folded before its commit lands:
    /// folding into a copy instead meant cloning the state for every burst (over the stress
    /// script, 0.1 ms at the median and up to 3.5 ms), where a failed commit is rare. A log that
    /// cannot be read back either leaves the flow unable to write again
    /// ([`StoreError::NotRecorded`]), so nothing is ever built on keys it lacks.
    fn unfold_after_failed_commit(&mut self, store: &Store) {
        match store.events(&self.id) {
            Ok(logged) => self.state = FlowState::replay(&logged),
            Err(_) => self.opening = Opening::Failed,
        }
    }

    /// Saves an overlay toggle (a failure is committed as an event) and hands an `@` query to
    /// the worker.
    fn carry_out(&mut self, fx: &Effects, before: ask_engine::Settings) -> Result<(), StoreError> {
        if let (Some((toggle, on)), Some(path)) = (fx.save_toggle, self.host.config.as_deref())
            && let Err(e) = crate::save_toggle(path, toggle, on)
        {
            let message = crate::error_line(&e);
            self.commit_and_apply(Event::SettingsSaveFailed { settings: Box::new(before), message })?;
        }
        if let (Some(query), Some(worker)) = (&fx.complete_query, self.offers.as_mut()) {
            worker.asked += 1;
            let _ = worker.requests.send((worker.asked, query.clone()));
        }
        Ok(())
    }

    fn commit_and_apply(&mut self, event: Event) -> Result<Effects, StoreError> {
        self.opened()?;
        self.store()?.append(&self.id, &event)?;
        Ok(self.state.apply(&event))
    }

    /// Whether `@` paths were asked for and have not arrived yet.
    pub fn offers_pending(&self) -> bool {
        self.offers.as_ref().is_some_and(|w| w.answered < w.asked)
    }

    /// Commits and applies the `@` paths that have arrived, waiting up to `wait` for the first;
    /// returns whether any were applied.
    pub fn take_offers(&mut self, wait: Duration) -> Result<bool, StoreError> {
        let mut applied = false;
        while self.offers_pending() {
            let Some(worker) = self.offers.as_mut() else { break };
            let arrived =
                if applied { worker.answers.try_recv().ok() } else { worker.answers.recv_timeout(wait).ok() };
            let Some((generation, query, items)) = arrived else { break };
            worker.answered = generation;
            self.commit_and_apply(Event::CompletionsOffered { query, items })?;
            applied = true;
        }
        Ok(applied)
    }

    /// Waits for every `@` lookup asked so far (headless runs stay deterministic this way).
    pub fn settle(&mut self) -> Result<(), StoreError> {
        while self.offers_pending() {
            if !self.take_offers(Duration::from_secs(60))? {
                break;
            }
        }
        Ok(())
    }
}

impl Drop for DurableFlow<'_> {
    fn drop(&mut self) {
        // A lease released before the opening commit lands would be written back by it.
        if self.opened().is_err() {
            return;
        }
        if let Ok(store) = self.store() {
            let _ = store.release(&self.id);
        }
    }
}
