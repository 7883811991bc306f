//! Salvage from a store that cannot be opened normally: every flow whose events still decode is
//! written out as a portable log file, which `ask-user log replay` reads.

use std::path::Path;

use redb::{Database, ReadableDatabase, ReadableTable};

use super::{EVENTS, FLOWS, contain_panics};
use crate::files::make_private;
use crate::wire::decode_row;

/// Exports the readable flows of the store file `damaged` into `dir`; returns how many.
///
/// They are read from a copy: redb's open repairs a file that was not closed cleanly and writes
/// its allocator state back on close, and `damaged` is the one copy the user has of what broke.
pub(super) fn export_readable_flows(damaged: &Path, dir: &Path) -> usize {
    let Some(copy) = copy_to_salvage(damaged, dir) else { return 0 };
    let flows = contain_panics(damaged, || {
        let db = Database::builder()
            .open(copy.path())
            .map_err(|source| super::StoreError::Open { path: String::new(), source })?;
        let ids = flow_ids(&db).unwrap_or_default();
        Ok(ids.into_iter().filter_map(|(id, command)| flow_log(&db, &id, &command)).collect::<Vec<_>>())
    });
    drop(copy);
    let mut saved = 0;
    for (id, text) in flows.unwrap_or_default() {
        let safe: String = id
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
            .collect();
        let file = dir.join(format!("{safe}.jsonl"));
        if std::fs::write(&file, text).is_ok() {
            let _ = make_private(&file);
            saved += 1;
        }
    }
    saved
}

/// A private copy of `damaged` in `dir`, removed when dropped.
fn copy_to_salvage(damaged: &Path, dir: &Path) -> Option<tempfile::NamedTempFile> {
    let mut copy = tempfile::Builder::new().prefix(".salvaging-").suffix(".redb").tempfile_in(dir).ok()?;
    let mut from = std::fs::File::open(damaged).ok()?;
    std::io::copy(&mut from, copy.as_file_mut()).ok()?;
    Some(copy)
}

fn flow_ids(db: &Database) -> Result<Vec<(String, String)>, redb::Error> {
    let tx = db.begin_read()?;
    let flows = tx.open_table(FLOWS)?;
    let mut out = Vec::new();
    for row in flows.iter()? {
        let Ok((id, bytes)) = row else { continue };
        let command = serde_json::from_slice::<serde_json::Value>(bytes.value())
            .ok()
            .and_then(|v| v.get("command").and_then(|c| c.as_str()).map(str::to_owned))
            .unwrap_or_default();
        out.push((id.value().to_owned(), command));
    }
    Ok(out)
}

/// One flow as a log file, or `None` if any of its events cannot be read.
fn flow_log(db: &Database, id: &str, command: &str) -> Option<(String, String)> {
    let events = contain_panics(Path::new(""), || {
        let read = || -> Result<Vec<Vec<u8>>, redb::Error> {
            let tx = db.begin_read()?;
            let t = tx.open_table(EVENTS)?;
            let mut rows = Vec::new();
            for row in t.range((id, 0)..=(id, u64::MAX))? {
                rows.push(row?.1.value().to_vec());
            }
            Ok(rows)
        };
        Ok(read().ok())
    })
    .ok()??;
    let decoded: Option<Vec<_>> = events.iter().map(|b| decode_row(b).ok()).collect();
    let decoded = decoded.filter(|d| !d.is_empty())?;
    crate::log_file::export(id, command, &decoded).ok().map(|text| (id.to_owned(), text))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use ask_engine::{Event, KeyPress};

    use crate::Store;
    use crate::store::test_flows::one_question_flow;

    /// Salvage reads a store that needs repair (copied while a process had it open, as a crash
    /// leaves it) and exports its flow, and the file it read from keeps every byte: it is the
    /// copy of the damage the user is told to look at. redb repaired the file in place, and
    /// wrote its allocator state back on close, before salvage read from a copy.
    #[test]
    fn salvage_reads_a_store_without_changing_a_byte_of_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.redb")).unwrap();
        one_question_flow(&store, "f", "s");
        for _ in 0..50 {
            store.append("f", &Event::key(KeyPress::parse("down").unwrap())).unwrap();
        }
        let damaged = dir.path().join("aside.redb");
        std::fs::copy(dir.path().join("s.redb"), &damaged).unwrap();
        let before = std::fs::read(&damaged).unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        assert_eq!(super::export_readable_flows(&damaged, &out), 1, "the flow is exported");
        assert!(std::fs::read(&damaged).unwrap() == before, "the file read from is unchanged");
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left, ["f.jsonl"], "the log file, and no copy left behind");
    }
}
