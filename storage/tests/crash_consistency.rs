//! Power cuts at every sync point, deterministically. A storage backend keeps the live file
//! image beside what a crash would leave; at every `sync_data` of store creation, flow creation
//! and 1 000 appends, the images a power cut could leave are opened as stores and checked:
//! the log is exactly a prefix of the events the flow applied, holds every event whose append
//! had returned, and folds to the state the live run had after those events.
//!
//! Two images per sync point: everything written so far (the sync completed), and what was
//! durable before plus the newest header write (the header reached the disk, the pages written
//! since the last sync did not). The store runs in the same multi-writer mode as on disk (the
//! backend grants every byte-range lock: one process), so this is the commit protocol users get.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::ops::Bound;
use std::sync::{Arc, Mutex};

use ask_engine::{Event, FlowState, KeyPress, Origin, Settings, Size};
use ask_schema::{FormSource, validate};
use ask_storage::{DurableFlow, FlowRecord, Store};
use redb::backends::InMemoryBackend;
use redb::{BackendError, ConcurrencyMode, StorageBackend};

/// What the checker needs to know about the live run.
#[derive(Default)]
struct Live {
    /// The store has been created (before that, a cut may leave a file that is not a store:
    /// on disk the file only appears at its path once whole).
    created: bool,
    /// Every event applied so far, in order (the opening event first).
    applied: Vec<Event>,
    /// How many of them had their append return.
    returned: usize,
    /// The live state after each prefix of `applied`.
    states: Vec<FlowState>,
    /// Log lengths whose fold was already compared (each length recurs at several cuts).
    folded: std::collections::BTreeSet<usize>,
    /// Images checked, and cut points seen.
    images: usize,
    syncs: usize,
    /// When keys are committed in groups: the log lengths a cut may leave (a group is on disk
    /// whole or not at all).
    boundaries: Option<std::collections::BTreeSet<usize>>,
}

#[derive(Default)]
struct Images {
    live: Vec<u8>,
    durable: Vec<u8>,
    header: Option<Vec<u8>>,
}

#[derive(Clone)]
struct CrashBackend {
    images: Arc<Mutex<Images>>,
    live: Arc<Mutex<Live>>,
}

impl std::fmt::Debug for CrashBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CrashBackend")
    }
}

impl StorageBackend for CrashBackend {
    fn len(&self) -> Result<u64, BackendError> {
        Ok(self.images.lock().unwrap().live.len() as u64)
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), BackendError> {
        let images = self.images.lock().unwrap();
        let start = offset as usize;
        let Some(bytes) = images.live.get(start..start + out.len()) else {
            return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
        };
        out.copy_from_slice(bytes);
        Ok(())
    }

    fn set_len(&self, len: u64) -> Result<(), BackendError> {
        self.images.lock().unwrap().live.resize(len as usize, 0);
        Ok(())
    }

    fn sync_data(&self) -> Result<(), BackendError> {
        let (before, after) = {
            let mut images = self.images.lock().unwrap();
            let mut torn = images.durable.clone();
            if let Some(header) = images.header.take()
                && torn.len() >= header.len()
            {
                torn[..header.len()].copy_from_slice(&header);
            }
            images.durable = images.live.clone();
            (torn, images.durable.clone())
        };
        check_cut(&self.live, &before);
        check_cut(&self.live, &after);
        self.live.lock().unwrap().syncs += 1;
        Ok(())
    }

    fn write(&self, offset: u64, data: &[u8]) -> Result<(), BackendError> {
        let mut images = self.images.lock().unwrap();
        let start = offset as usize;
        if images.live.len() < start + data.len() {
            images.live.resize(start + data.len(), 0);
        }
        images.live[start..start + data.len()].copy_from_slice(data);
        if offset == 0 {
            images.header = Some(data.to_vec());
        }
        Ok(())
    }

    fn try_lock_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<bool, BackendError> {
        Ok(true)
    }
    fn try_lock_shared_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<bool, BackendError> {
        Ok(true)
    }
    fn lock_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<(), BackendError> {
        Ok(())
    }
    fn lock_shared_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<(), BackendError> {
        Ok(())
    }
    fn unlock_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<(), BackendError> {
        Ok(())
    }
    fn query_lock_range(&self, _: Bound<u64>, _: Bound<u64>) -> Result<bool, BackendError> {
        Ok(false)
    }
}

/// Opens `image` as a store after a power cut and checks it against the live run.
fn check_cut(live: &Mutex<Live>, image: &[u8]) {
    let live = &mut *live.lock().unwrap();
    live.images += 1;
    if image.is_empty() {
        assert!(!live.created, "a created store never goes back to an empty file");
        return;
    }
    let backend = InMemoryBackend::new();
    backend.set_len(image.len() as u64).unwrap();
    backend.write(0, image).unwrap();
    let store = match Store::with_backend(backend, "image", ConcurrencyMode::ExclusiveWriter) {
        Ok(store) => store,
        Err(e) => {
            assert!(!live.created, "cut at sync {}: a created store must open after a cut: {e}", live.syncs);
            return;
        }
    };
    let logged = store.events("flow").unwrap();
    let n = logged.len();
    assert!(
        n >= live.returned,
        "cut at sync {}: {} events returned but only {n} are durable",
        live.syncs,
        live.returned
    );
    assert!(n <= live.applied.len() + 1, "cut at sync {}: more events than were sent", live.syncs);
    // The event being appended right now may or may not be in; everything logged is a prefix.
    let applied_or_in_flight = live.applied.len().max(n);
    assert!(n <= applied_or_in_flight);
    assert_eq!(logged[..n.min(live.applied.len())], live.applied[..n.min(live.applied.len())], "prefix");
    if let Some(boundaries) = &live.boundaries {
        assert!(boundaries.contains(&n), "cut at sync {}: {n} events end inside a group", live.syncs);
    }
    if let Some(state) = live.states.get(n)
        && live.folded.insert(n)
    {
        assert_eq!(&FlowState::replay(&logged), state, "cut at sync {}: fold of {n} events", live.syncs);
    }
}

fn keys() -> Vec<Event> {
    // Moves, toggles and editor typing: nothing in it completes the flow.
    let pool =
        ["down", "space", "x", "y", "up", "space", "down", "n", "z", "backspace", "alt+enter", "shift+n"];
    (0..1000).map(|i| Event::key(KeyPress::parse(pool[(i * 7 + i / 13) % pool.len()]).unwrap())).collect()
}

/// A store on the crash backend with the test flow opened in it (the opening event counted).
fn crash_flow(live: &Arc<Mutex<Live>>) -> Store {
    let backend = CrashBackend { images: Arc::default(), live: live.clone() };
    let store = Store::with_backend(backend, "crash", ConcurrencyMode::MultiWriter).unwrap();
    live.lock().unwrap().created = true;
    store
}

fn opened() -> Event {
    let raw = serde_json::json!({"questions": [
        {"id": "a", "prompt": "A?", "type": "multi", "options": [{"value": "1", "label": "One"}, {"value": "2", "label": "Two"}]},
        {"id": "b", "prompt": "B?", "options": [{"value": "1", "label": "One"}, {"value": "2", "label": "Two"}]}]});
    let form = validate(&raw, FormSource::Tool).unwrap();
    let mut settings = Settings::default();
    settings.behaviour.confirm_dismiss_when_dirty = true;
    Event::FlowOpened {
        form: form.into(),
        settings: Box::new(settings),
        origin: Origin::tool(),
        size: Size::default(),
        notices: vec![],
    }
}

fn start<'s>(store: &'s Store, live: &Mutex<Live>) -> DurableFlow<'s> {
    {
        let mut l = live.lock().unwrap();
        l.applied.push(opened());
        l.states.push(FlowState::default());
    }
    let flow = DurableFlow::start(store, &FlowRecord::new("flow", "ask", "s", 0), opened()).unwrap();
    let mut l = live.lock().unwrap();
    l.returned = 1;
    l.states.push(flow.state().clone());
    flow
}

#[test]
fn every_sync_point_of_creation_and_1000_appends_leaves_a_prefix_of_the_log() {
    let live = Arc::new(Mutex::new(Live::default()));
    let store = crash_flow(&live);
    let mut flow = start(&store, &live);
    let mut appended = 0;
    for key in keys() {
        if flow.state().outcome().is_some() {
            break;
        }
        live.lock().unwrap().applied.push(key.clone());
        flow.push(key).unwrap();
        let mut l = live.lock().unwrap();
        l.returned += 1;
        l.states.push(flow.state().clone());
        appended += 1;
    }
    drop(flow);
    let l = live.lock().unwrap();
    assert_eq!(appended, 1000, "the key sequence keeps the flow open for all 1 000 appends");
    assert!(l.syncs >= 2000, "every append synced (two-phase commit): {} syncs", l.syncs);
    assert_eq!(l.images, 2 * l.syncs);
    eprintln!("checked {} crash images at {} sync points", l.images, l.syncs);
}

/// Group commit (issue 15.1): the same 1 000 keys pushed in bursts of 1 to 7. At every sync
/// point a cut leaves the log at a group boundary — a burst is durable whole or not at all —
/// and never loses a burst whose push returned.
#[test]
fn every_sync_point_of_1000_keys_in_bursts_leaves_whole_bursts() {
    let live = Arc::new(Mutex::new(Live::default()));
    let store = crash_flow(&live);
    let mut flow = start(&store, &live);
    live.lock().unwrap().boundaries = Some([1].into());
    let keys = keys();
    let (mut at, mut bursts) = (0, 0);
    while at < keys.len() {
        let burst = &keys[at..(at + 1 + bursts % 7).min(keys.len())];
        {
            let mut l = live.lock().unwrap();
            l.applied.extend_from_slice(burst);
            let end = l.applied.len();
            l.boundaries.as_mut().unwrap().insert(end);
        }
        assert_eq!(flow.push_all(burst).unwrap(), burst.len(), "nothing in the keys ends the flow");
        let mut l = live.lock().unwrap();
        l.returned += burst.len();
        // The live state after each whole burst (a cut never leaves a log inside one).
        let end = l.applied.len();
        l.states.resize(end, FlowState::default());
        l.states.push(flow.state().clone());
        at += burst.len();
        bursts += 1;
    }
    drop(flow);
    let l = live.lock().unwrap();
    assert_eq!(l.returned, 1001);
    assert!(
        l.syncs >= 2 * bursts && l.syncs < 1000,
        "one commit per burst: {} syncs for {bursts} bursts",
        l.syncs
    );
    eprintln!("checked {} crash images at {} sync points ({bursts} bursts)", l.images, l.syncs);
}
