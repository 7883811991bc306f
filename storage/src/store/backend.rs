//! The store file's redb backend: redb's own [`FileBackend`] (its byte-range locks, reads,
//! writes and syncs), except that the file's length is asked with `lseek` instead of `statx`.
//!
//! Why: redb asks the length before every commit. On Linux 6.13 and later, a file whose times
//! were read (`statx` returns them) gets fine-grained times at its next write, so every commit's
//! write changes the modification time, the inode is dirty, and each of the commit's two
//! `fdatasync`s then writes the inode as well (seen in a `perf` call graph on this VM's ext4).
//! `lseek(SEEK_END)` gives the same length, also after another process grew the file, without
//! reading the times (docs/performance.md, "Durable append").

use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::ops::Bound;

use redb::backends::FileBackend;
use redb::{BackendError, StorageBackend};

#[derive(Debug)]
pub(super) struct StoreFile {
    inner: FileBackend,
    /// A second descriptor on the same open file, for `lseek` (`&File` seeks through a shared
    /// reference). redb's locks are open-file-description locks, so this descriptor neither
    /// holds nor, when closed, releases any of them; reads and writes are positional, so the
    /// offset it moves is never used.
    seek: File,
}

impl StoreFile {
    pub(super) fn new(file: File) -> std::io::Result<StoreFile> {
        let seek = file.try_clone()?;
        Ok(StoreFile { inner: FileBackend::new(file), seek })
    }
}

impl StorageBackend for StoreFile {
    fn len(&self) -> Result<u64, BackendError> {
        Ok((&self.seek).seek(SeekFrom::End(0))?)
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), BackendError> {
        self.inner.read(offset, out)
    }

    fn set_len(&self, len: u64) -> Result<(), BackendError> {
        self.inner.set_len(len)
    }

    fn sync_data(&self) -> Result<(), BackendError> {
        self.inner.sync_data()
    }

    fn write(&self, offset: u64, data: &[u8]) -> Result<(), BackendError> {
        self.inner.write(offset, data)
    }

    fn close(&self) -> Result<(), BackendError> {
        self.inner.close()
    }

    fn try_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.inner.try_lock_range(start, end)
    }

    fn try_lock_shared_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.inner.try_lock_shared_range(start, end)
    }

    fn lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.inner.lock_range(start, end)
    }

    fn lock_shared_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.inner.lock_shared_range(start, end)
    }

    fn unlock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.inner.unlock_range(start, end)
    }

    fn query_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.inner.query_lock_range(start, end)
    }
}

#[cfg(test)]
mod tests {
    use std::fs::OpenOptions;

    use redb::StorageBackend;

    use super::StoreFile;

    /// Another process may grow the store between two of this one's commits; redb then reads
    /// the new length, so `lseek` must see growth made through another open of the file, as
    /// `statx` did.
    #[test]
    fn the_length_follows_the_file_as_other_opens_grow_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s");
        let open = || OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path);
        let backend = StoreFile::new(open().unwrap()).unwrap();
        assert_eq!(backend.len().unwrap(), 0);
        backend.write(0, &[1; 4096]).unwrap();
        assert_eq!(backend.len().unwrap(), 4096);
        let other = open().unwrap();
        other.set_len(3 * 4096).unwrap();
        assert_eq!(backend.len().unwrap(), 3 * 4096);
        backend.set_len(4096).unwrap();
        assert_eq!(other.metadata().unwrap().len(), 4096);
        let mut page = [0; 4096];
        backend.read(0, &mut page).unwrap();
        assert_eq!(page, [1; 4096]);
    }
}
