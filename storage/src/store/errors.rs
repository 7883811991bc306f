//! Why the store could not be used: one variant per operation, each keeping its cause as the
//! error source (so a message chain shows it once).

use std::time::Duration;

use crate::wire::{DecodeError, EncodeError};

/// Why the store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store's directory cannot be created.
    #[error("cannot create the store directory {path}")]
    Directory {
        /// The directory.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The store file cannot be created or opened (permissions, disk, locks).
    #[error("cannot open the store {path}")]
    Open {
        /// The store file.
        path: String,
        /// redb's reason.
        #[source]
        source: redb::DatabaseError,
    },
    /// The file holds something that is not a readable store; it was moved aside, never
    /// overwritten, and the next run starts a new store.
    #[error("store {path} cannot be read ({detail}); it was moved aside to {moved_to}{salvage}")]
    Unreadable {
        /// The store file.
        path: String,
        /// What was wrong.
        detail: String,
        /// Where the file (and any salvaged logs) now are.
        moved_to: String,
        /// What was salvaged, e.g. "; 3 flows exported there as log files".
        salvage: String,
    },
    /// The path names something that is not an ask-user store — another program's file, a
    /// directory, a device — which is left as it is (only a damaged store is moved).
    #[error(
        "{path} is not an ask-user store ({what}), so it was left as it is; move it away, or give another store path (--store, $ASK_USER_STORE)"
    )]
    Foreign {
        /// The path given as the store.
        path: String,
        /// What is there instead, e.g. "not a redb file", "a directory".
        what: String,
    },
    /// The store was written by a newer ask-user.
    #[error(
        "store {path} has layout version {version}, newer than this ask-user understands; upgrade ask-user"
    )]
    Newer {
        /// The store file.
        path: String,
        /// The layout version found.
        version: u64,
    },
    /// Another process held the write lock for longer than the bounded wait.
    #[error("store {path} is busy: another ask-user process kept it locked for {} s; try again", waited.as_secs())]
    Busy {
        /// The store file.
        path: String,
        /// How long this process waited.
        waited: Duration,
    },
    /// A failed write closed the store, and its file has been moved, deleted or replaced
    /// since: the flow's log is in the file this process opened, so no other is written.
    #[error("cannot open the store {path} again: it was moved or replaced after a failed write")]
    Moved {
        /// The store file.
        path: String,
    },
    /// A read failed.
    #[error("cannot read the store {path}")]
    Read {
        /// The store file.
        path: String,
        /// redb's reason.
        #[source]
        source: redb::Error,
    },
    /// A write failed; nothing of it was committed.
    #[error("cannot write the store {path}")]
    Write {
        /// The store file.
        path: String,
        /// redb's reason.
        #[source]
        source: redb::Error,
    },
    /// The storage layer failed on damaged data (a panic redb raised, caught).
    #[error("store {path} is damaged ({detail}); move it aside or pass --store")]
    Damaged {
        /// The store file.
        path: String,
        /// What failed.
        detail: String,
    },
    /// ask-user's own code panicked inside a transaction or beside the store (a bug, not damage:
    /// redb's panics are [`StoreError::Damaged`]); nothing of what it was making was committed.
    #[error(
        "internal error ({detail}), a bug in ask-user; nothing was recorded, and the store is not damaged"
    )]
    Bug {
        /// The panic's message.
        detail: String,
    },
    /// A stored event cannot be decoded (e.g. written by a newer ask-user).
    #[error("store {path}: flow {flow}: event {seq}")]
    Decode {
        /// The store file.
        path: String,
        /// The flow.
        flow: String,
        /// The event's sequence number.
        seq: u64,
        /// Why.
        #[source]
        source: DecodeError,
    },
    /// A stored record (flow, payload or lease row) cannot be decoded.
    #[error("store {path}: {what} cannot be read: {detail}")]
    Record {
        /// The store file.
        path: String,
        /// Which record.
        what: String,
        /// Why.
        detail: String,
    },
    /// An event could not be encoded; nothing was committed.
    #[error("cannot store the event")]
    Encode(#[source] EncodeError),
    /// The flow id is already used by another flow.
    #[error("flow {0} already exists")]
    FlowExists(String),
    /// Another live process is showing this flow.
    #[error("flow {flow} is open in another ask-user process (pid {pid})")]
    Held {
        /// The flow.
        flow: String,
        /// The process showing it.
        pid: u32,
    },
    /// No flow has this id.
    #[error("no flow with id {0}")]
    UnknownFlow(String),
    /// The flow's opening commit failed (that error was reported once); nothing more of it is
    /// committed.
    #[error("flow {0} was never recorded: its opening commit failed")]
    NotRecorded(String),
}

impl StoreError {
    /// The error for a panic in code that works beside the store (making the opening's rows,
    /// a thread opening the store), caught where its thread is joined.
    pub(crate) fn bug(panic: &(dyn std::any::Any + Send)) -> StoreError {
        StoreError::Bug { detail: crate::panic_text(panic).to_owned() }
    }
}
