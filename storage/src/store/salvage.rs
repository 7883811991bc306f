//! Salvage from a store that cannot be opened normally: every flow whose events still decode is
//! written out as a portable log file, which `ask-user log replay` reads.

use std::path::Path;

use redb::{Database, ReadableDatabase, ReadableTable};

use super::{EVENTS, FLOWS, contain_panics};
use crate::files::make_private;
use crate::wire::decode_row;

/// Exports the readable flows of the store file `damaged` into `dir`; returns how many.
pub(super) fn export_readable_flows(damaged: &Path, dir: &Path) -> usize {
    let flows = contain_panics(damaged, || {
        let db = Database::builder()
            .open(damaged)
            .map_err(|source| super::StoreError::Open { path: String::new(), source })?;
        let ids = flow_ids(&db).unwrap_or_default();
        Ok(ids.into_iter().filter_map(|(id, command)| flow_log(&db, &id, &command)).collect::<Vec<_>>())
    });
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
