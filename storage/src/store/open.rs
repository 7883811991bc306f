//! Opening the store file: atomic creation, multi-process mode, and moving an unreadable file
//! aside (with what can be salvaged) instead of ever overwriting it.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use redb::{Builder, ConcurrencyMode, Database, DatabaseError, StorageError};

use super::backend::StoreFile;
use super::{Store, StoreError, contain_panics};
use crate::files::{create_private_dir, kind_of, make_private, parent_dir, stamp, unused_path};

fn builder() -> Builder {
    let mut b = Database::builder();
    b.set_concurrency_mode(ConcurrencyMode::MultiWriter);
    // Checksums every committed page on open: a damaged page is an error here, not a panic or a
    // wrong answer later. It costs a read of the file per open (see docs/performance.md).
    b.set_check_integrity_on_open(true);
    b
}

/// Opens `path` in multi-writer mode, creating it atomically when missing.
pub(super) fn open_file(path: &Path) -> Result<Database, StoreError> {
    let shown = path.display().to_string();
    let dir = parent_dir(path);
    create_private_dir(dir)
        .map_err(|source| StoreError::Directory { path: dir.display().to_string(), source })?;
    match fs::metadata(path) {
        // Never replaced nor moved: a device, a pipe or a directory given as the store (an empty
        // `/dev/null` used to be removed and a store made in its place).
        Ok(meta) if !meta.is_file() => {
            return Err(StoreError::Foreign { path: shown, what: kind_of(&meta.file_type()).to_owned() });
        }
        // Another program's file is left alone; only a file that is a store, damaged, is moved
        // aside below. redb writes the same first bytes in every commit, so a store always has them.
        Ok(meta) if meta.len() > 0 => {
            if !starts_as_a_store(path) {
                return Err(StoreError::Foreign { path: shown, what: "not a redb file".to_owned() });
            }
        }
        // A zero-length file holds no data: a store whose creation never got going.
        Ok(_) => {
            let _ = fs::remove_file(path);
            create_atomically(path)?;
        }
        Err(e) if e.kind() == ErrorKind::NotFound => create_atomically(path)?,
        Err(e) => return Err(StoreError::Open { path: shown, source: e.into() }),
    }
    let opened = contain_panics(path, || {
        let file = fs::OpenOptions::new().read(true).write(true).open(path);
        let backend = file.and_then(StoreFile::new);
        let backend = backend.map_err(|e| StoreError::Open { path: shown.clone(), source: e.into() })?;
        // `create_with_backend` is redb's only way to open a backend of ours: on a file that is
        // not empty (made so above) it opens, as `open` does, and never initializes.
        builder()
            .create_with_backend(backend)
            .map_err(|source| StoreError::Open { path: shown.clone(), source })
    });
    match opened {
        Ok(db) => Ok(db),
        Err(e) => match damage(&e) {
            Some(detail) => Err(move_aside(path, detail)),
            None => Err(e),
        },
    }
}

/// The first bytes of every redb file (redb's `MAGICNUMBER`).
const REDB_MAGIC: [u8; 9] = [b'r', b'e', b'd', b'b', 0x1A, 0x0A, 0xA9, 0x0D, 0x0A];

/// Whether `path` begins as a redb file does. A file that cannot be read here is left for redb's
/// open to report (a permission problem is not a foreign file).
fn starts_as_a_store(path: &Path) -> bool {
    use std::io::Read;
    let mut first = [0u8; REDB_MAGIC.len()];
    match fs::File::open(path).and_then(|mut f| f.read_exact(&mut first)) {
        Ok(()) => first == REDB_MAGIC,
        Err(e) => e.kind() != ErrorKind::UnexpectedEof,
    }
}

/// What makes `e` a sign of a damaged file (rather than a lock, permission or version problem).
fn damage(e: &StoreError) -> Option<String> {
    match e {
        StoreError::Damaged { detail, .. } => Some(detail.clone()),
        StoreError::Open { source: DatabaseError::Storage(StorageError::Corrupted(why)), .. } => {
            Some(why.clone())
        }
        StoreError::Open { source: DatabaseError::Storage(StorageError::Io(io)), .. }
            if io.kind() == ErrorKind::InvalidData || io.kind() == ErrorKind::UnexpectedEof =>
        {
            Some(io.to_string())
        }
        _ => None,
    }
}

/// Builds a complete store under a temporary name, then links it into place: other processes
/// (and a crash) only ever see no file or a whole one. Losing a race to another creator is fine.
fn create_atomically(path: &Path) -> Result<(), StoreError> {
    let shown = path.display().to_string();
    let dir = parent_dir(path);
    let name = path.file_name().map_or_else(|| "store".into(), |n| n.to_string_lossy().into_owned());
    remove_stale_temporaries(dir, &name);
    let tmp = dir.join(format!(".{name}.creating-{}-{}", std::process::id(), unique()));
    let made = (|| {
        let db = builder().create(&tmp).map_err(|source| StoreError::Open { path: shown.clone(), source })?;
        Store::on(db, path.to_path_buf(), None).init_tables()?;
        make_private(&tmp).map_err(|e| StoreError::Open { path: shown.clone(), source: e.into() })?;
        match fs::hard_link(&tmp, path) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            // No hard links here (some network or FUSE file systems): a rename is atomic too, and
            // only a creator that raced us in the last instant could lose its empty store.
            Err(_) if !path.exists() => {
                fs::rename(&tmp, path)
                    .map_err(|e| StoreError::Open { path: shown.clone(), source: e.into() })?;
            }
            Err(_) => {}
        }
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    let _ = fs::remove_file(&tmp);
    made
}

/// A number no other creator in this process uses.
fn unique() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    RandomState::new().hash_one(NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Temporaries left by a creator that was killed (its pid is gone).
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.creating-");
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else { continue };
        let pid = rest.split('-').next().and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|pid| !super::leases::process_alive(pid, None)) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Moves an unreadable store into `<store>.unreadable-<stamp>/`, exports every flow that still
/// decodes there as a log file, and says so.
fn move_aside(path: &Path, detail: String) -> StoreError {
    let shown = path.display().to_string();
    let aside_dir: PathBuf = unused_path(|n| {
        let base = format!("{shown}.unreadable-{}", stamp());
        PathBuf::from(match n {
            None => base,
            Some(n) => format!("{base}-{n}"),
        })
    });
    let name = path.file_name().map_or_else(|| "store.redb".into(), |n| n.to_os_string());
    let moved = create_private_dir(&aside_dir).and_then(|()| fs::rename(path, aside_dir.join(&name)));
    if let Err(e) = moved {
        return StoreError::Unreadable {
            path: shown,
            detail,
            moved_to: format!("nowhere (moving it failed: {e}); move it aside by hand"),
            salvage: String::new(),
        };
    }
    let saved = super::salvage::export_readable_flows(&aside_dir.join(&name), &aside_dir);
    StoreError::Unreadable {
        path: shown,
        detail,
        moved_to: aside_dir.display().to_string(),
        salvage: match saved {
            0 => String::new(),
            1 => "; 1 flow exported there as a log file".to_owned(),
            n => format!("; {n} flows exported there as log files"),
        },
    }
}
