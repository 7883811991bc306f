//! The redb store: flows with their ordered event logs, and the per-session payload store.
//!
//! Tables:
//! * `flows`:    flow id → JSON [`FlowRecord`] (id, origin command, session, creation time);
//! * `events`:   (flow id, seq) → one encoded event ([`crate::log_format`]);
//! * `payloads`: (session, seq) → JSON [`PayloadEntry`], the forms `/ask:replay` reopens.
//!
//! Every append is its own write transaction with `Durability::Immediate`, so an event is on
//! disk before the fold applies it. A flow's status is not stored: it is a projection of its
//! log.

mod flows;
mod payloads;

use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant};

use redb::{Database, DatabaseError, ReadableDatabase, ReadableTable, TableDefinition};

pub use flows::FlowRecord;
pub use payloads::PayloadEntry;

const FLOWS: TableDefinition<&str, &[u8]> = TableDefinition::new("flows");
const EVENTS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("events");
const PAYLOADS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("payloads");

/// How long a second process waits for a store another process holds.
const LOCK_WAIT: Duration = Duration::from_secs(2);

/// Why the store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another ask-user process holds the store.
    #[error("store {0} is in use by another ask-user process; wait for it to finish or pass --store")]
    Locked(String),
    /// The file exists but is not a readable store.
    #[error("store {path} cannot be read ({detail}); it was left untouched: move it aside or pass --store")]
    Unreadable { path: String, detail: String },
    /// The store's directory cannot be created.
    #[error("cannot create the store directory {path}: {source}")]
    Directory { path: String, source: std::io::Error },
    /// A read or write failed.
    #[error("store {path}: {detail}")]
    Io { path: String, detail: String },
    /// A stored event or record cannot be decoded.
    #[error("store {path}: flow {flow}: {detail}")]
    Decode { path: String, flow: String, detail: String },
    /// The flow id is already used by another flow.
    #[error("flow {0} already exists")]
    FlowExists(String),
    /// No flow has this id.
    #[error("no flow with id {0}")]
    UnknownFlow(String),
}

/// An open store file. Open one per process and share it.
pub struct Store {
    db: Database,
    path: PathBuf,
}

impl Store {
    /// Opens (or creates) the store, waiting up to two seconds for another process to let go.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|source| StoreError::Directory { path: dir.display().to_string(), source })?;
        }
        let shown = path.display().to_string();
        let start = Instant::now();
        let db = loop {
            match Database::create(path) {
                Ok(db) => break db,
                Err(DatabaseError::DatabaseAlreadyOpen) if start.elapsed() < LOCK_WAIT => {
                    sleep(Duration::from_millis(25));
                }
                Err(DatabaseError::DatabaseAlreadyOpen) => return Err(StoreError::Locked(shown)),
                Err(e) => return Err(StoreError::Unreadable { path: shown, detail: e.to_string() }),
            }
        };
        let store = Store { db, path: path.to_path_buf() };
        store.init_tables()?;
        Ok(store)
    }

    /// The store file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn init_tables(&self) -> Result<(), StoreError> {
        let tx = self.db.begin_write().map_err(|e| self.io(e))?;
        tx.open_table(FLOWS).map_err(|e| self.io(e))?;
        tx.open_table(EVENTS).map_err(|e| self.io(e))?;
        tx.open_table(PAYLOADS).map_err(|e| self.io(e))?;
        tx.commit().map_err(|e| self.io(e))
    }

    /// Appends `bytes` at the next sequence number under `key` in a keyed log table, in its own
    /// durable transaction.
    fn append_row(
        &self,
        table: TableDefinition<(&str, u64), &[u8]>,
        key: &str,
        bytes: &[u8],
    ) -> Result<u64, StoreError> {
        let mut tx = self.db.begin_write().map_err(|e| self.io(e))?;
        tx.set_durability(redb::Durability::Immediate).map_err(|e| self.io(e))?;
        let seq = {
            let mut t = tx.open_table(table).map_err(|e| self.io(e))?;
            let next = {
                let mut range = t.range((key, 0)..=(key, u64::MAX)).map_err(|e| self.io(e))?;
                match range.next_back() {
                    Some(row) => row.map_err(|e| self.io(e))?.0.value().1 + 1,
                    None => 0,
                }
            };
            t.insert((key, next), bytes).map_err(|e| self.io(e))?;
            next
        };
        tx.commit().map_err(|e| self.io(e))?;
        Ok(seq)
    }

    /// Every row under `key` in a keyed log table, in sequence order, as (seq, bytes).
    fn read_rows(
        &self,
        table: TableDefinition<(&str, u64), &[u8]>,
        key: &str,
    ) -> Result<Vec<(u64, Vec<u8>)>, StoreError> {
        let tx = self.db.begin_read().map_err(|e| self.io(e))?;
        let t = tx.open_table(table).map_err(|e| self.io(e))?;
        let mut out = Vec::new();
        for row in t.range((key, 0)..=(key, u64::MAX)).map_err(|e| self.io(e))? {
            let (k, bytes) = row.map_err(|e| self.io(e))?;
            out.push((k.value().1, bytes.value().to_vec()));
        }
        Ok(out)
    }

    fn io(&self, e: impl Into<redb::Error>) -> StoreError {
        StoreError::Io { path: self.path.display().to_string(), detail: e.into().to_string() }
    }
}
