//! Retention: deleting finished flows by age or count. Flows a live process holds are never
//! pruned; unfinished ones only when asked for (`log prune --unfinished`): they can be resumed.

use ask_engine::FlowState;
use redb::ReadableTable;

use super::{EVENTS, FLOWS, LEASES, META, PAYLOADS, Store, StoreError, decode_u64};
use crate::wire::packed;

const DAY_MS: u64 = 86_400_000;

/// Which flows to delete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PruneRule {
    /// Delete flows created more than this many milliseconds ago.
    pub older_than_ms: Option<u64>,
    /// Keep only the newest this many of the flows pruning may delete.
    pub keep: Option<usize>,
    /// Unfinished flows no process holds (`resumable` ones) may be deleted too, not only
    /// finished ones.
    pub unfinished: bool,
}

impl PruneRule {
    /// Finished flows created more than `days` days ago (the `store.retentionDays` setting);
    /// 0 keeps every flow.
    pub fn retention(days: u64) -> PruneRule {
        PruneRule {
            older_than_ms: (days > 0).then(|| days.saturating_mul(DAY_MS)),
            keep: None,
            unfinished: false,
        }
    }
}

/// What a prune deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PruneReport {
    /// Flows deleted.
    pub flows: usize,
    /// Events deleted with them.
    pub events: usize,
    /// How many of the flows were unfinished.
    pub unfinished: usize,
}

impl Store {
    /// Deletes the flows `rule` selects (with their events and stored payloads).
    pub fn prune(&self, now_ms: u64, rule: PruneRule) -> Result<PruneReport, StoreError> {
        let mut candidates = Vec::new();
        for record in self.flows()? {
            let Ok(events) = self.events(&record.id) else { continue };
            let finished = FlowState::replay(&events).outcome().is_some();
            if (finished || rule.unfinished) && self.holder(&record.id)?.is_none() {
                candidates.push((record, finished));
            }
        }
        // Newest first, so `keep` spares the head.
        candidates.sort_by(|(a, _), (b, _)| (b.created_ms, &b.id).cmp(&(a.created_ms, &a.id)));
        let mut report = PruneReport::default();
        for (rank, (record, finished)) in candidates.iter().enumerate() {
            let too_old =
                rule.older_than_ms.is_some_and(|age| now_ms.saturating_sub(record.created_ms) > age);
            let beyond_keep = rule.keep.is_some_and(|keep| rank >= keep);
            if (too_old || beyond_keep)
                && let Some(events) = self.delete_flow(&record.id, &record.session)?
            {
                report.events += events;
                report.flows += 1;
                report.unfinished += usize::from(!finished);
            }
        }
        Ok(report)
    }

    /// Prunes flows older than `retention_days` if no prune ran in the last day (0 = keep all).
    pub fn prune_if_due(&self, now_ms: u64, retention_days: u64) -> Result<Option<PruneReport>, StoreError> {
        if retention_days == 0 {
            return Ok(None);
        }
        let last =
            self.read(|tx| Ok(tx.open_table(META)?.get("lastPruneMs")?.and_then(|v| decode_u64(v.value()))))?;
        if last.is_some_and(|last| now_ms.saturating_sub(last) < DAY_MS) {
            return Ok(None);
        }
        self.write(|tx| {
            tx.open_table(META)?.insert("lastPruneMs", now_ms.to_string().as_bytes())?;
            Ok(())
        })?;
        self.prune(now_ms, PruneRule::retention(retention_days)).map(Some)
    }

    /// Deletes one flow: record, events, lease, owed result, and the payloads that opened it;
    /// `None` when a live process took the flow since it was chosen (`resume` in another
    /// terminal while a long prune ran): the lease is looked at again in the deleting
    /// transaction, which no claim can interleave with.
    fn delete_flow(&self, id: &str, session: &str) -> Result<Option<usize>, StoreError> {
        self.write(|tx| {
            let mut leases = tx.open_table(LEASES)?;
            if super::leases::lease_in(&leases, id)?.is_some_and(|l| l.is_alive()) {
                return Ok(None);
            }
            leases.remove(id)?;
            drop(leases);
            tx.open_table(FLOWS)?.remove(id)?;
            tx.open_table(super::owed::OWED)?.remove(id)?;
            let mut events = tx.open_table(EVENTS)?;
            let seqs: Vec<u64> = events
                .range((id, 0)..=(id, u64::MAX))?
                .map(|row| row.map(|(k, _)| k.value().1))
                .collect::<Result<_, _>>()?;
            for seq in &seqs {
                events.remove((id, *seq))?;
            }
            let mut payloads = tx.open_table(PAYLOADS)?;
            let opened_it: Vec<u64> = payloads
                .range((session, 0)..=(session, u64::MAX))?
                .filter_map(|row| {
                    let (k, v) = row.ok()?;
                    let entry: OpenedBy = serde_json::from_slice(&packed::unpack(v.value()).ok()?).ok()?;
                    (entry.flow_id.as_deref() == Some(id)).then(|| k.value().1)
                })
                .collect();
            for seq in opened_it {
                payloads.remove((session, seq))?;
            }
            Ok(Some(seqs.len()))
        })
    }
}

/// The one field of a payload entry pruning needs (the rest of a large entry is skipped unread).
#[derive(serde::Deserialize)]
struct OpenedBy {
    #[serde(rename = "flowId")]
    flow_id: Option<String>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::Store;
    use crate::store::test_flows::one_question_flow;

    /// A flow chosen for deletion that a process claimed since (the claim came between the
    /// prune's look at the lease and its delete) stays whole; once let go it can be deleted.
    #[test]
    fn a_flow_claimed_after_it_was_chosen_is_not_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        one_question_flow(&store, "f", "s");
        store.claim("f").unwrap();
        assert_eq!(store.delete_flow("f", "s").unwrap(), None);
        assert_eq!(store.events("f").unwrap().len(), 1, "the held flow keeps its events");
        store.release("f").unwrap();
        assert_eq!(store.delete_flow("f", "s").unwrap(), Some(1));
        assert!(store.flows().unwrap().is_empty());
    }
}
