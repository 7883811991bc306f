//! Leases: which live process is showing a flow. A flow has at most one UI at a time; a lease
//! whose process has died is stale and any process may take the flow over.

use redb::ReadableTable;
use serde::{Deserialize, Serialize};

use super::{LEASES, Store, StoreError};

/// The process that holds a flow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lease {
    /// Row format version (1).
    pub version: u32,
    /// The holder's process id.
    pub pid: u32,
    /// The holder's start time as the OS reports it (Linux: clock ticks since boot), so a
    /// recycled pid is not mistaken for the holder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<u64>,
    /// When the lease was taken, milliseconds since the Unix epoch.
    pub since_ms: u64,
}

impl Lease {
    /// A lease for the calling process.
    pub fn for_this_process() -> Lease {
        let pid = std::process::id();
        Lease { version: 1, pid, started: process_start(pid), since_ms: crate::now_ms() }
    }

    /// Whether the holder is still running.
    pub fn is_alive(&self) -> bool {
        process_alive(self.pid, self.started)
    }

    fn is_mine(&self) -> bool {
        self.pid == std::process::id()
    }
}

/// The outcome of claiming a flow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// This process now holds the flow (a stale lease was replaced).
    Acquired,
    /// Another live process holds it.
    HeldBy(Lease),
}

impl Store {
    /// Claims `flow` for this process, atomically: fails over only a lease whose process is gone.
    pub fn claim(&self, flow: &str) -> Result<Claim, StoreError> {
        let mine = Lease::for_this_process();
        let row = serde_json::to_vec(&mine).map_err(|e| StoreError::Encode(crate::wire::EncodeError(e)))?;
        let held = self.write_or(|tx| {
            let mut leases = tx.open_table(LEASES)?;
            if let Some(lease) = lease_in(&leases, flow)?.filter(|l| !l.is_mine() && l.is_alive()) {
                return Ok(Err(lease));
            }
            leases.insert(flow, row.as_slice())?;
            Ok(Ok(()))
        })?;
        Ok(match held {
            Ok(()) => Claim::Acquired,
            Err(lease) => Claim::HeldBy(lease),
        })
    }

    /// Lets go of `flow` if this process holds it.
    pub fn release(&self, flow: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            let mut leases = tx.open_table(LEASES)?;
            let mine = lease_in(&leases, flow)?.is_some_and(|l| l.is_mine());
            if mine {
                leases.remove(flow)?;
            }
            Ok(())
        })
    }

    /// The live lease on `flow`, if a running process holds it.
    pub fn holder(&self, flow: &str) -> Result<Option<Lease>, StoreError> {
        let lease = self.read(|tx| lease_in(&tx.open_table(LEASES)?, flow))?;
        Ok(lease.filter(Lease::is_alive))
    }
}

/// The lease row on `flow` in an open leases table, alive or not (a row that does not read is
/// no lease).
pub(super) fn lease_in(
    leases: &impl ReadableTable<&'static str, &'static [u8]>,
    flow: &str,
) -> Result<Option<Lease>, redb::Error> {
    Ok(leases.get(flow)?.and_then(|b| serde_json::from_slice::<Lease>(b.value()).ok()))
}

/// Whether process `pid` runs (and, when `started` is known, is the same process).
pub(crate) fn process_alive(pid: u32, started: Option<u64>) -> bool {
    if cfg!(target_os = "linux") {
        match proc_stat(pid) {
            None => false,
            Some((state, start)) => state != 'Z' && state != 'X' && started.is_none_or(|s| s == start),
        }
    } else {
        rustix::process::Pid::from_raw(pid as i32)
            .is_some_and(|p| rustix::process::test_kill_process(p).is_ok())
    }
}

fn process_start(pid: u32) -> Option<u64> {
    proc_stat(pid).map(|(_, start)| start)
}

/// (state, start time) from `/proc/<pid>/stat`; the command name may hold spaces and parens, so
/// fields are counted after its last `)`.
fn proc_stat(pid: u32) -> Option<(char, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let start = fields.nth(18)?.parse().ok()?;
    Some((state, start))
}
