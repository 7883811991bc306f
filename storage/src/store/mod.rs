//! The redb store: flows with their ordered event logs, the per-session payload store, the
//! leases that say which process is showing a flow, and a little metadata.
//!
//! Tables:
//! * `meta`:     name → value (`storeVersion`, `lastPruneMs`);
//! * `flows`:    flow id → JSON [`FlowRecord`] (its own `version` field);
//! * `events`:   (flow id, seq) → one encoded event ([`crate::wire`]);
//! * `payloads`: (session, seq) → JSON [`PayloadEntry`], the forms `/ask:replay` reopens;
//! * `leases`:   flow id → JSON [`Lease`], the process showing the flow now;
//! * `owed`:     flow id → (when an MCP call began to wait for its result, its form's hash);
//!   see `owed.rs`.
//!
//! The file is opened in redb's multi-writer mode, so any number of ask-user processes share
//! it: reads see every commit, and writes take turns. Every append is its own write transaction
//! with `Durability::Immediate`, so an event is on disk before the fold applies it. A flow's
//! status is not stored: it is a projection of its log.

mod backend;
mod contained;
mod errors;
mod flows;
mod leases;
mod open;
mod owed;
mod payloads;
mod prune;
mod salvage;
#[cfg(test)]
mod test_flows;

use std::path::{Path, PathBuf};
use std::sync::{PoisonError, RwLock};
use std::thread::sleep;
use std::time::{Duration, Instant};

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition, TransactionError, WriteTransaction};

use crate::files::FileId;
use contained::contain_panics;
pub use contained::{panic_is_contained, panic_is_contained_at};
pub use errors::StoreError;
pub(crate) use flows::OpeningRows;
pub use flows::{FLOW_RECORD_VERSION, FlowRecord};
pub use leases::{Claim, Lease};
pub use owed::{Owed, form_hash};
pub use payloads::{PayloadEntry, raw_params};
pub use prune::{PruneReport, PruneRule};

const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
const FLOWS: TableDefinition<&str, &[u8]> = TableDefinition::new("flows");
const EVENTS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("events");
const PAYLOADS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("payloads");
const LEASES: TableDefinition<&str, &[u8]> = TableDefinition::new("leases");

/// The tables of a store, of any layout so far.
const OUR_TABLES: [&str; 6] = ["meta", "flows", "events", "payloads", "leases", "owed"];

/// The names of the tables in the file that no layout of the store has, a few of them.
fn other_tables(tx: &redb::ReadTransaction) -> Result<Vec<String>, redb::Error> {
    use redb::{MultimapTableHandle, TableHandle};
    let mut names: Vec<String> = tx.list_tables()?.map(|t| t.name().to_owned()).collect();
    names.extend(tx.list_multimap_tables()?.map(|t| t.name().to_owned()));
    names.retain(|n| !OUR_TABLES.contains(&n.as_str()));
    names.truncate(3);
    Ok(names)
}

/// The layout version of a store file this build creates (tables and row formats).
pub const STORE_VERSION: u64 = 2;
/// The layout of a store that holds packed rows (`wire::packed`): the first commit that writes
/// one records it, so a build that cannot read them refuses the file by name instead of failing
/// on (or skipping) those rows; a store that never held a large row stays readable by it.
pub const PACKED_STORE_VERSION: u64 = 3;

/// How long a write waits for another process's write transaction before giving up.
const WRITE_WAIT: Duration = Duration::from_secs(10);

/// An open store file. Open one per process and share it.
pub struct Store {
    /// The database. A write that fails on I/O (a full disk) leaves redb's handle refusing every
    /// later transaction until it is closed, so a store opened from a file closes it and opens
    /// the file again (`None` in between, when that opening failed: the next use tries again).
    db: RwLock<Option<Database>>,
    path: PathBuf,
    write_wait: Duration,
    /// The file opened, when it can be opened again (a test backend cannot): a file at `path`
    /// that is not this one (moved aside and recreated by another process) is never opened
    /// in its place.
    file: Option<FileId>,
}

impl Store {
    /// Opens the store at `path`, creating it (and its directory, owner-only) if needed.
    ///
    /// Creation is atomic: the file is built under a temporary name and linked into place, so a
    /// crash never leaves a half-made store. A store that cannot be read is moved aside (with
    /// every flow that still decodes exported beside it) and reported; it is never overwritten.
    /// Anything else at the path — another program's file or redb database, a directory, a
    /// device — is refused ([`StoreError::Foreign`]) and left as it is.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let db = open::open_file(path)?;
        let store = Store::on(db, path.to_path_buf(), FileId::of(path));
        store.init_tables()?;
        Ok(store)
    }

    /// Opens a store on any redb storage backend (tests use one that can cut power at every
    /// sync). `mode` must be one the backend's locks support: `ExclusiveWriter` for a backend
    /// without byte-range locks; `MultiWriter` (what [`Store::open`] uses) for one with them.
    pub fn with_backend(
        backend: impl redb::StorageBackend,
        label: &str,
        mode: redb::ConcurrencyMode,
    ) -> Result<Store, StoreError> {
        let path = PathBuf::from(label);
        let db = contain_panics(&path, || {
            Database::builder()
                .set_concurrency_mode(mode)
                .create_with_backend(backend)
                .map_err(|source| StoreError::Open { path: label.to_owned(), source })
        })?;
        let store = Store::on(db, path, None);
        store.init_tables()?;
        Ok(store)
    }

    pub(crate) fn on(db: Database, path: PathBuf, file: Option<FileId>) -> Store {
        Store { db: RwLock::new(Some(db)), path, write_wait: WRITE_WAIT, file }
    }

    /// Runs `f` on the open database, opening the file again first if an I/O error closed it
    /// ([`Store::seen`]).
    fn with_db<T>(&self, f: impl FnOnce(&Database) -> T) -> Result<T, StoreError> {
        if let Some(db) = self.db.read().unwrap_or_else(PoisonError::into_inner).as_ref() {
            return Ok(f(db));
        }
        let mut slot = self.db.write().unwrap_or_else(PoisonError::into_inner);
        let db = match &mut *slot {
            Some(db) => db, // another thread opened it meanwhile
            empty => {
                if FileId::of(&self.path) != self.file {
                    return Err(StoreError::Moved { path: self.shown() });
                }
                empty.insert(open::open_file(&self.path)?)
            }
        };
        Ok(f(db))
    }

    /// Sets how long a write waits for another process's transaction (default 10 s).
    pub fn set_write_wait(&mut self, wait: Duration) {
        self.write_wait = wait;
    }

    /// The store file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn shown(&self) -> String {
        self.path.display().to_string()
    }

    /// Creates missing tables and checks the layout version; a newer layout is refused by name.
    fn init_tables(&self) -> Result<(), StoreError> {
        let (version, theirs) = self.read(|tx| {
            let version = match tx.open_table(META) {
                Ok(meta) => meta.get("storeVersion")?.and_then(|v| decode_u64(v.value())),
                Err(redb::TableError::TableDoesNotExist(_)) => None,
                Err(e) => return Err(e.into()),
            };
            Ok((version, if version.is_none() { other_tables(tx)? } else { Vec::new() }))
        })?;
        // Another program's redb database given as the store: ours would be written into it.
        if !theirs.is_empty() {
            let what = format!("a redb database of another program, with the tables {}", theirs.join(", "));
            return Err(StoreError::Foreign { path: self.shown(), what });
        }
        match version {
            Some(v) if v > PACKED_STORE_VERSION => {
                return Err(StoreError::Newer { path: self.shown(), version: v });
            }
            Some(STORE_VERSION | PACKED_STORE_VERSION) => return Ok(()),
            _ => {}
        }
        // A new store, or one written before versions were recorded (layout 1): the same tables
        // plus `meta` and `leases`; old rows without a version field read as version 1.
        self.write(|tx| {
            tx.open_table(FLOWS)?;
            tx.open_table(EVENTS)?;
            tx.open_table(PAYLOADS)?;
            tx.open_table(LEASES)?;
            tx.open_table(META)?.insert("storeVersion", STORE_VERSION.to_string().as_bytes())?;
            Ok(())
        })
    }

    /// Runs `body` in one durable write transaction, waiting a bounded time for other writers.
    fn write<T>(
        &self,
        body: impl FnOnce(&WriteTransaction) -> Result<T, redb::Error>,
    ) -> Result<T, StoreError> {
        let done: Result<T, std::convert::Infallible> = self.write_or(|tx| body(tx).map(Ok))?;
        Ok(done.unwrap_or_else(|never| match never {}))
    }

    /// Like [`Store::write`], for bodies that may refuse with their own error `E`: the
    /// transaction is then aborted and the refusal returned inside `Ok`.
    fn write_or<T, E>(
        &self,
        body: impl FnOnce(&WriteTransaction) -> Result<Result<T, E>, redb::Error>,
    ) -> Result<Result<T, E>, StoreError> {
        contain_panics(&self.path, || {
            let mut tx = self.begin_write()?;
            crate::faults::damage_at("store-write");
            tx.set_durability(redb::Durability::Immediate).map_err(|e| self.write_error(e))?;
            let outcome = body(&tx).map_err(|e| self.write_error(e))?;
            match outcome {
                Ok(_) => tx.commit().map_err(|e| self.write_error(e))?,
                Err(_) => tx.abort().map_err(|e| self.write_error(e))?,
            }
            Ok(outcome)
        })
    }

    fn begin_write(&self) -> Result<WriteTransaction, StoreError> {
        let start = Instant::now();
        loop {
            match self.with_db(Database::try_begin_write)? {
                Ok(tx) => return Ok(tx),
                Err(TransactionError::WouldBlock) if start.elapsed() < self.write_wait => {
                    sleep(Duration::from_millis(2));
                }
                Err(TransactionError::WouldBlock) => {
                    return Err(StoreError::Busy { path: self.shown(), waited: self.write_wait });
                }
                Err(e) => return Err(self.write_error(e)),
            }
        }
    }

    /// Runs `body` in a read transaction (it sees every commit made before it began).
    fn read<T>(
        &self,
        body: impl FnOnce(&redb::ReadTransaction) -> Result<T, redb::Error>,
    ) -> Result<T, StoreError> {
        contain_panics(&self.path, || {
            let tx = self.with_db(Database::begin_read)?.map_err(|e| self.read_error(e))?;
            body(&tx).map_err(|e| self.read_error(e))
        })
    }

    /// Appends `bytes` at the next sequence number under `key` in a keyed log table, in its own
    /// durable transaction.
    fn append_row(
        &self,
        table: TableDefinition<(&str, u64), &[u8]>,
        key: &str,
        bytes: &[u8],
    ) -> Result<u64, StoreError> {
        self.append_rows(table, key, &[bytes])
    }

    /// Appends each of `rows` at the following sequence numbers under `key`, all in one durable
    /// transaction (they are on disk together or not at all); returns the last one's number.
    fn append_rows(
        &self,
        table: TableDefinition<(&str, u64), &[u8]>,
        key: &str,
        rows: &[&[u8]],
    ) -> Result<u64, StoreError> {
        self.write(|tx| Self::append_in(tx, table, key, rows))
    }

    /// Appends `rows` under `key` inside the write transaction `tx`; returns the last one's
    /// sequence number.
    fn append_in(
        tx: &WriteTransaction,
        table: TableDefinition<(&str, u64), &[u8]>,
        key: &str,
        rows: &[&[u8]],
    ) -> Result<u64, redb::Error> {
        crate::faults::at("store-append");
        let mut t = tx.open_table(table)?;
        let mut next = match t.range((key, 0)..=(key, u64::MAX))?.next_back() {
            Some(row) => row?.0.value().1 + 1,
            None => 0,
        };
        for bytes in rows {
            t.insert((key, next), *bytes)?;
            next += 1;
        }
        Self::note_packed(tx, rows)?;
        Ok(next.saturating_sub(1))
    }

    /// Records [`PACKED_STORE_VERSION`] in the transaction that writes the first packed row.
    fn note_packed(tx: &WriteTransaction, rows: &[&[u8]]) -> Result<(), redb::Error> {
        if rows.iter().any(|row| crate::wire::packed::is_packed(row)) {
            tx.open_table(META)?.insert("storeVersion", PACKED_STORE_VERSION.to_string().as_bytes())?;
        }
        Ok(())
    }

    /// Rows under `key` in a keyed log table from sequence `from` on, in order, as (seq, bytes).
    fn read_rows(
        &self,
        table: TableDefinition<(&str, u64), &[u8]>,
        key: &str,
        from: u64,
    ) -> Result<Vec<(u64, Vec<u8>)>, StoreError> {
        self.read(|tx| {
            let t = tx.open_table(table)?;
            let mut out = Vec::new();
            for row in t.range((key, from)..=(key, u64::MAX))? {
                let (k, bytes) = row?;
                out.push((k.value().1, bytes.value().to_vec()));
            }
            Ok(out)
        })
    }

    fn read_error(&self, e: impl Into<redb::Error>) -> StoreError {
        StoreError::Read { path: self.shown(), source: self.seen(e.into()) }
    }

    fn write_error(&self, e: impl Into<redb::Error>) -> StoreError {
        StoreError::Write { path: self.shown(), source: self.seen(e.into()) }
    }

    /// An I/O error leaves redb's handle refusing every transaction after it until it is
    /// closed: a store opened from a file closes it at once, and its next use (reading a failed
    /// commit's log back, say) opens the file afresh, redb repairing what the failure left. A
    /// test backend's handle stays as it is; a write transaction still alive keeps the old
    /// handle until it ends.
    fn seen(&self, e: redb::Error) -> redb::Error {
        if self.file.is_some() && matches!(e, redb::Error::Io(_) | redb::Error::PreviousIo) {
            drop(self.db.write().unwrap_or_else(PoisonError::into_inner).take());
        }
        e
    }
}

fn decode_u64(bytes: &[u8]) -> Option<u64> {
    std::str::from_utf8(bytes).ok()?.parse().ok()
}
