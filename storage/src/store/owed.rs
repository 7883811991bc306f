//! Results an MCP call still owes its agent: flows recorded for calls that returned before the
//! user answered (the server's wait ended, or the client cancelled). The agent is told to call
//! again with the same payload; this table lets that call — in the same server or in one
//! started since (the client restarted it, or it crashed) — pick the same flow up instead of
//! showing a second form.

use ask_schema::Form;
use redb::{ReadableTable, TableDefinition};

use super::{Store, StoreError};

/// Flow id → (when the result became owed, in milliseconds since the Unix epoch; the
/// [`form_hash`] of its form). A row is written with its flow ([`Store::create_owed_flow`]).
pub(super) const OWED: TableDefinition<&str, (u64, u64)> = TableDefinition::new("owed");

/// A flow whose result is owed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owed {
    /// The flow.
    pub id: String,
    /// The [`form_hash`] of its form: a call looks only at the flows whose form may be its own.
    pub form_hash: u64,
}

/// A hash of a normalized form that every build computes alike (FNV-1a over its JSON), so that
/// a lookup need not fold every owed flow to compare forms. Equal forms hash equal; a match is
/// still confirmed against the flow's own form.
pub fn form_hash(form: &Form) -> u64 {
    let json = serde_json::to_vec(form).unwrap_or_default();
    json.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

impl Store {
    /// Notes that `flow`'s result has been returned to a call (or that no call will want it).
    pub fn settle(&self, flow: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.open_table(OWED)?.remove(flow)?;
            Ok(())
        })
    }

    /// The flows whose results are owed, the most recently owed first.
    pub fn owed(&self) -> Result<Vec<Owed>, StoreError> {
        let mut rows = self.read(|tx| match tx.open_table(OWED) {
            Ok(table) => table
                .iter()?
                .map(|row| {
                    row.map(|(id, v)| {
                        let (since, form_hash) = v.value();
                        (since, Owed { id: id.value().to_owned(), form_hash })
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(Into::into),
            // A store no server has written to since the table came.
            Err(redb::TableError::TableDoesNotExist(_)) => Ok(Vec::new()),
            Err(e) => Err(e.into()),
        })?;
        rows.sort_unstable_by(|a, b| (b.0, &b.1.id).cmp(&(a.0, &a.1.id)));
        Ok(rows.into_iter().map(|(_, owed)| owed).collect())
    }
}
