//! Damaged, torn and foreign store files: never a panic, never overwritten, always one line.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use ask_engine::Event;
use ask_storage::{FlowRecord, Store, StoreError, log_file};
use common::events::{key, opened};
use rstest::rstest;

/// A real opening event, so a flow exported from a damaged store imports as a log file.
fn opening() -> Event {
    opened(
        serde_json::json!({"questions": [{"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}]}]}),
    )
}

/// A store with three flows of 200 keys each (enough pages to damage one in the middle).
fn three_flow_store(path: &Path) {
    flows_store(path, &["one", "two", "three"]);
}

/// [`three_flow_store`] at `path`, then its bytes changed by `damage`; returns them.
fn damaged_three_flow_store(path: &Path, damage: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    three_flow_store(path);
    let mut bytes = std::fs::read(path).unwrap();
    damage(&mut bytes);
    std::fs::write(path, &bytes).unwrap();
    bytes
}

/// A store with a flow of 200 keys for each of `ids`.
fn flows_store(path: &Path, ids: &[&str]) {
    let store = Store::open(path).unwrap();
    for (n, id) in ids.iter().enumerate() {
        store.create_flow(&FlowRecord::new(*id, "ask", "default", n as u64), &opening()).unwrap();
        for _ in 0..200 {
            store.append(id, &key("down")).unwrap();
        }
    }
}

/// The folder an unreadable store was moved to, named in its error.
fn moved_to(err: &StoreError) -> PathBuf {
    match err {
        StoreError::Unreadable { moved_to, .. } => PathBuf::from(moved_to),
        other => panic!("expected Unreadable, got {other:?}"),
    }
}

/// A file that is not a store at the store path — another program's data, a config file given
/// as `--store` by mistake — is refused by name and left exactly where and as it is, run after
/// run: only a store (a redb file) that is damaged is moved aside.
#[test]
fn spec9_a_foreign_file_at_the_store_path_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let garbage = b"definitely not a redb file, but somebody's data".repeat(100);
    std::fs::write(&path, &garbage).unwrap();
    for _ in 0..2 {
        let err = Store::open(&path).err().expect("refused");
        assert!(matches!(err, StoreError::Foreign { .. }), "{err:?}");
        let line = err.to_string();
        assert!(
            line.starts_with(&format!("{} is not an ask-user store (not a redb file)", path.display())),
            "{line}"
        );
        assert!(!line.contains('\n'), "one line: {line}");
        assert_eq!(std::fs::read(&path).unwrap(), garbage, "the data is where it was, byte for byte");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, ["s.redb"], "nothing moved aside, nothing created");
    }
}

/// Another program's redb database given as the store is refused by what it holds, its data
/// left as it was: the store's tables used to be written into it beside the program's own.
#[test]
fn spec9_another_programs_redb_database_is_refused_and_its_data_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("theirs.redb");
    let theirs: redb::TableDefinition<&str, u64> = redb::TableDefinition::new("settings");
    {
        let db = redb::Database::create(&path).unwrap();
        let tx = db.begin_write().unwrap();
        tx.open_table(theirs).unwrap().insert("volume", 11).unwrap();
        tx.commit().unwrap();
    }
    let err = Store::open(&path).err().expect("refused");
    assert_eq!(
        err.to_string(),
        format!(
            "{} is not an ask-user store (a redb database of another program, with the tables settings), so it was left as it is; move it away, or give another store path (--store, $ASK_USER_STORE)",
            path.display()
        )
    );
    // Opened by redb (its header is written on open, as by any program that opens it) and
    // otherwise left as it was: its table and row, and no table of ours beside them.
    let db = redb::Database::open(&path).unwrap();
    let tx = redb::ReadableDatabase::begin_read(&db).unwrap();
    let tables: Vec<String> =
        tx.list_tables().unwrap().map(|t| redb::TableHandle::name(&t).to_owned()).collect();
    assert_eq!(tables, ["settings"]);
    let table = tx.open_table(theirs).unwrap();
    assert_eq!(redb::ReadableTable::get(&table, "volume").unwrap().unwrap().value(), 11);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "nothing moved aside");
}

/// A named pipe given as the store is refused and never replaced: an empty special file (the
/// same path `--store /dev/null` took) used to be removed and a store made in its place.
#[test]
fn spec9_a_special_file_at_the_store_path_is_refused_and_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success());
    let err = Store::open(&path).err().expect("refused");
    assert_eq!(
        err.to_string(),
        format!(
            "{} is not an ask-user store (a named pipe), so it was left as it is; move it away, or give another store path (--store, $ASK_USER_STORE)",
            path.display()
        )
    );
    assert!(std::fs::symlink_metadata(&path).unwrap().file_type().is_fifo(), "still a named pipe");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "nothing moved aside, nothing created");
}

/// A file that begins as a redb file does but is damaged after it is a store: moved aside whole,
/// and the next run starts a new store.
#[test]
fn spec9_a_store_damaged_past_its_first_bytes_is_moved_aside_and_a_new_store_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let mut damaged = b"redb\x1a\x0a\xa9\x0d\x0a".to_vec();
    damaged.extend(b"garbage after redb's first bytes".repeat(200));
    std::fs::write(&path, &damaged).unwrap();
    let err = Store::open(&path).err().expect("unreadable");
    let line = err.to_string();
    assert!(line.contains(&path.display().to_string()) && line.contains("moved aside to"), "{line}");
    assert_eq!(std::fs::read(moved_to(&err).join("s.redb")).unwrap(), damaged, "kept byte for byte");
    let store = Store::open(&path).expect("the next run starts a new store");
    assert!(store.flows().unwrap().is_empty());
}

#[rstest]
#[case::page_45056(45_056)]
#[case::page_49152(49_152)]
#[case::page_53248(53_248)]
fn spec9_flipped_bytes_inside_a_page_are_an_error_not_a_panic(#[case] offset: usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let bytes = damaged_three_flow_store(&path, |bytes| {
        assert!(bytes.len() > offset + 64, "store is {} bytes", bytes.len());
        for b in &mut bytes[offset..offset + 64] {
            *b ^= 0xA5;
        }
    });
    let err = match Store::open(&path) {
        Err(err) => err,
        // The bytes fell on a page no committed tree uses: then every flow must read back whole.
        Ok(store) => {
            for id in ["one", "two", "three"] {
                assert_eq!(store.events(id).unwrap().len(), 201, "flow {id} intact");
            }
            return;
        }
    };
    let aside = moved_to(&err);
    assert_eq!(std::fs::read(aside.join("s.redb")).unwrap(), bytes, "moved, not rewritten");
    // Whatever could be salvaged replays as a log file.
    for entry in std::fs::read_dir(&aside).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "jsonl") {
            let (_, events) = log_file::import(&std::fs::read_to_string(entry.path()).unwrap()).unwrap();
            assert_eq!(events.len(), 201, "a salvaged flow is whole: {}", entry.path().display());
        }
    }
}

#[test]
fn a_zero_length_file_from_an_interrupted_creation_becomes_a_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    std::fs::write(&path, b"").unwrap();
    let store = Store::open(&path).expect("an empty file holds no data: re-initialized");
    store.create_flow(&FlowRecord::new("f", "ask", "default", 1), &opening()).unwrap();
}

#[test]
fn a_killed_creators_temporary_is_cleaned_up_and_creation_leaves_no_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = dir.path().join(format!(".s.redb.creating-{dead}-7"));
    std::fs::write(&stale, b"half a store").unwrap();
    Store::open(&dir.path().join("s.redb")).unwrap();
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["s.redb"]);
}

#[cfg(unix)]
#[test]
fn the_store_and_the_directories_it_creates_are_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data/ask-user/s.redb");
    Store::open(&path).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&dir.path().join("data/ask-user")), 0o700);
    assert_eq!(mode(&dir.path().join("data")), 0o700);
}

#[test]
fn spec9_unwritable_store_directory_is_a_clear_error() {
    let err = Store::open(Path::new("/proc/ask-user-test/s.redb")).err().expect("cannot create");
    let line = format!("{:#}", anyhow_like(&err));
    assert!(line.contains("/proc/ask-user-test"), "{line}");
}

/// The error and its causes joined as `main` prints them.
fn anyhow_like(e: &dyn std::error::Error) -> String {
    let mut line = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        line.push_str(": ");
        line.push_str(&cause.to_string());
        source = cause.source();
    }
    line
}

#[test]
fn a_store_from_a_newer_ask_user_is_refused_by_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    drop(Store::open(&path).unwrap());
    {
        let raw = redb::Builder::new()
            .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
            .open(&path)
            .unwrap();
        let tx = raw.begin_write().unwrap();
        let meta: redb::TableDefinition<&str, &[u8]> = redb::TableDefinition::new("meta");
        tx.open_table(meta).unwrap().insert("storeVersion", b"99".as_slice()).unwrap();
        tx.commit().unwrap();
    }
    let err = Store::open(&path).err().expect("refused");
    assert!(matches!(err, StoreError::Newer { version: 99, .. }), "{err:?}");
    assert!(err.to_string().contains("layout version 99"), "{err}");
    assert!(path.exists(), "a newer store is left in place");
}

/// Only damage moves a store aside. A store file of another redb format (written by an
/// ask-user too old to upgrade it) is not damaged: it is refused with redb's reason and left
/// where it is, for the ask-user that wrote it or a manual upgrade.
#[test]
fn a_store_of_another_file_format_is_refused_and_left_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    // Both commit slots of redb's header say file format 2.
    let bytes = damaged_three_flow_store(&path, |bytes| {
        bytes[64] = 2;
        bytes[64 + 128] = 2;
    });
    let err = Store::open(&path).err().expect("refused");
    assert!(matches!(err, StoreError::Open { .. }), "{err:?}");
    let line = anyhow_like(&err);
    assert!(line.contains(&path.display().to_string()) && line.contains("version 2"), "{line}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "left in place, untouched");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "nothing moved aside");
}

/// A directory where the store file should be is a mistake in the path, not a damaged store:
/// it is named in the error and never moved.
#[test]
fn a_directory_at_the_store_path_is_an_error_and_is_not_moved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("notes.txt"), "mine").unwrap();
    let err = Store::open(&path).err().expect("not a store");
    assert!(matches!(err, StoreError::Foreign { .. }), "{err:?}");
    assert!(
        err.to_string().starts_with(&format!("{} is not an ask-user store (a directory)", path.display())),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(path.join("notes.txt")).unwrap(), "mine");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "nothing moved aside");
}

/// A store cut short (a copy that stopped half way, a disk that filled while it was copied) is
/// damaged: moved aside whole, and the next run starts a new store.
#[test]
fn spec9_a_truncated_store_is_moved_aside_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let bytes = damaged_three_flow_store(&path, |bytes| bytes.truncate(bytes.len() / 2));
    let err = Store::open(&path).err().expect("unreadable");
    assert!(!err.to_string().contains('\n'), "{err}");
    let aside = moved_to(&err);
    assert_eq!(std::fs::read(aside.join("s.redb")).unwrap(), bytes, "moved, not rewritten");
    assert!(Store::open(&path).unwrap().flows().unwrap().is_empty(), "a new store");
}

/// When a store is moved aside, every flow that still reads is exported beside it as a log file
/// named for its flow (characters a file name should not hold become `_`), which `log replay`
/// reads back whole, and the error counts them. The damage here is eight bytes flipped in the
/// first page (searched from the file's start) whose damage leaves two flows or more readable.
#[test]
fn spec9_readable_flows_of_a_damaged_store_are_exported_beside_it_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let ids = [("one", "one"), ("two/2", "two_2"), ("drei ü", "drei__")];
    flows_store(&path, &ids.map(|(id, _)| id));
    let clean = std::fs::read(&path).unwrap();
    let exported = |err: &StoreError| {
        let line = err.to_string();
        let count = line.rsplit("; ").next()?.split(' ').next()?.parse::<usize>().ok()?;
        Some((count, moved_to(err)))
    };
    let (count, aside) = (4096..clean.len())
        .step_by(4096)
        .find_map(|page| {
            let mut bytes = clean.clone();
            for b in &mut bytes[page + 100..page + 108] {
                *b ^= 0xA5;
            }
            std::fs::write(&path, &bytes).unwrap();
            let found = Store::open(&path).err().as_ref().and_then(exported).filter(|(n, _)| *n >= 2);
            let _ = std::fs::remove_file(&path);
            found
        })
        .expect("some page's damage leaves flows to export");
    let logs: Vec<PathBuf> = std::fs::read_dir(&aside)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    assert_eq!(logs.len(), count, "the error counts the files written: {logs:?}");
    for log in logs {
        let name = log.file_stem().unwrap().to_str().unwrap();
        let (id, _) = ids.iter().find(|(_, file)| *file == name).expect("named for a flow");
        let (header, events) = log_file::import(&std::fs::read_to_string(&log).unwrap()).unwrap();
        assert_eq!((header.flow_id.as_str(), header.command.as_str()), (*id, "ask"));
        assert_eq!(events.len(), 201, "{id} whole");
    }
}
