//! A store in memory that runs a hook before each synced write (each durable commit syncs):
//! tests count commits with it, or make one fail as redb does on a page it cannot read.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct SyncHook {
    inner: redb::backends::InMemoryBackend,
    on_sync: Box<dyn Fn() + Send + Sync>,
}

impl SyncHook {
    pub fn new(on_sync: impl Fn() + Send + Sync + 'static) -> SyncHook {
        SyncHook { inner: redb::backends::InMemoryBackend::new(), on_sync: Box::new(on_sync) }
    }

    /// A backend that counts its synced writes, and the count.
    pub fn counting() -> (SyncHook, Arc<AtomicUsize>) {
        let syncs = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&syncs);
        (
            SyncHook::new(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            }),
            syncs,
        )
    }
}

impl std::fmt::Debug for SyncHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyncHook").field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl redb::StorageBackend for SyncHook {
    fn len(&self) -> Result<u64, redb::BackendError> {
        self.inner.len()
    }
    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), redb::BackendError> {
        self.inner.read(offset, out)
    }
    fn set_len(&self, len: u64) -> Result<(), redb::BackendError> {
        self.inner.set_len(len)
    }
    fn sync_data(&self) -> Result<(), redb::BackendError> {
        (self.on_sync)();
        self.inner.sync_data()
    }
    fn write(&self, offset: u64, data: &[u8]) -> Result<(), redb::BackendError> {
        self.inner.write(offset, data)
    }
}
