//! Results an MCP call still owes its agent: flows recorded for calls that returned before the
//! user answered (the server's wait ended, or the client cancelled). The agent is told to call
//! again with the same payload; the server that recorded the flow remembers it in memory, and
//! this table lets a server started since (the client restarted it, or it crashed) pick the same
//! flow up instead of showing a second form.

use redb::{ReadableTable, TableDefinition};

use super::{Store, StoreError};

/// Flow id → when the result became owed (milliseconds since the Unix epoch).
pub(super) const OWED: TableDefinition<&str, u64> = TableDefinition::new("owed");

impl Store {
    /// Notes that an MCP call waits for `flow`'s result.
    pub fn owe(&self, flow: &str, now_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.open_table(OWED)?.insert(flow, now_ms)?;
            Ok(())
        })
    }

    /// Notes that `flow`'s result has been returned to a call (or that no call will want it).
    pub fn settle(&self, flow: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.open_table(OWED)?.remove(flow)?;
            Ok(())
        })
    }

    /// The flows whose results are owed, the most recently owed first.
    pub fn owed(&self) -> Result<Vec<String>, StoreError> {
        let mut rows = self.read(|tx| match tx.open_table(OWED) {
            Ok(table) => table
                .iter()?
                .map(|row| row.map(|(id, since)| (since.value(), id.value().to_owned())))
                .collect::<Result<Vec<_>, _>>()
                .map_err(Into::into),
            // A store no server has written to since the table came.
            Err(redb::TableError::TableDoesNotExist(_)) => Ok(Vec::new()),
            Err(e) => Err(e.into()),
        })?;
        rows.sort_unstable_by(|a, b| b.cmp(a));
        Ok(rows.into_iter().map(|(_, id)| id).collect())
    }
}
