//! Owner-only files and directories, and timestamped names for files moved aside.
//!
//! Everything ask-user writes (store, config, logs, exports) can hold answers and pasted text,
//! so directories it creates are 0700 and files 0600 on Unix.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Creates `dir` and its missing parents; the ones created here are owner-only.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Makes a file owner-only (read and write).
pub fn make_private(file: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(file, fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// What a path that is not a regular file is, for an error that refuses it ("a named pipe").
pub fn kind_of(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() {
            return "a character device";
        } else if kind.is_block_device() {
            return "a block device";
        } else if kind.is_fifo() {
            return "a named pipe";
        } else if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() { "a directory" } else { "not a regular file" }
}

/// The parent directory of `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// `YYYYMMDD-HHMMSS` in UTC, for names of files moved aside.
pub fn stamp() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}{m:02}{d:02}-{:02}{:02}{:02}", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// (year, month, day) of a day counted from the Unix epoch (Howard Hinnant's algorithm).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The first of `name(None)`, `name(Some(1))`, `name(Some(2))`, … that does not exist yet.
pub fn unused_path(name: impl Fn(Option<u32>) -> PathBuf) -> PathBuf {
    let mut candidate = name(None);
    let mut n = 1;
    while candidate.exists() {
        candidate = name(Some(n));
        n += 1;
    }
    candidate
}

/// Which file a path names: the device and inode (the store keeps the one it opened, to tell a
/// moved or recreated store file from its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileId(u64, u64);

impl FileId {
    /// The file at `path` now, through links; `None` when nothing is there.
    pub fn of(path: &Path) -> Option<FileId> {
        let meta = fs::metadata(path).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            // No inode to compare here: only that a file is there.
            let _ = meta;
            Some(FileId(0, 0))
        }
    }
}

/// Whether two paths name one existing file, through links, `..` and hard links.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        FileId::of(a).is_some_and(|id| FileId::of(b) == Some(id))
    }
    #[cfg(not(unix))]
    {
        // Without inodes, the paths with every link and `..` resolved.
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
    }
}
