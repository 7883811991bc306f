//! Reading files or stdin given on the command line.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Files this long are read as two halves on two threads. A large read here is bound by the
/// kernel giving the fresh buffer its pages, which two cores do side by side: a payload of a
/// million options (87 MB) is read in about 31 ms instead of 55 (issue 15.2).
const SPLIT_READ_FROM: u64 = 1 << 20;

/// Whether the payload at `path` (`None`: stdin) is a file long enough to be read as two halves
/// (and so, read into its form on two threads as well).
pub fn read_in_halves(path: Option<&Path>) -> bool {
    path.filter(|p| p.as_os_str() != "-")
        .and_then(|p| std::fs::metadata(p).ok())
        .is_some_and(|meta| meta.is_file() && meta.len() >= SPLIT_READ_FROM)
}

/// Reads raw bytes from a path, or stdin for `-`. A UTF-8 byte-order mark (editors on Windows
/// write one) is dropped.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if path.as_os_str() == "-" {
        use std::io::IsTerminal;
        // `ask-user ask` typed with nothing piped in would otherwise sit silent.
        if std::io::stdin().is_terminal() {
            errln!(
                "ask-user: reading the payload JSON from stdin; paste it, then press Ctrl+D (or pass a file)"
            );
        }
        read_stream(std::io::stdin().lock(), &mut buf)?;
    } else {
        buf = read_file(path, SPLIT_READ_FROM)?;
    }
    if buf.starts_with(b"\xEF\xBB\xBF") {
        buf.drain(..3);
    }
    Ok(buf)
}

/// The bytes of a file, like `std::fs::read`; a regular file of `split_from` bytes or more is read
/// as two halves at once.
fn read_file(path: &Path, split_from: u64) -> std::io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    let len = meta.len();
    let Ok(size) = usize::try_from(len) else { return std::fs::read(path) };
    if !meta.is_file() {
        let mut buf = Vec::new();
        read_stream(file, &mut buf)?;
        return Ok(buf);
    }
    if len < split_from {
        let mut buf = Vec::with_capacity(size);
        file.read_to_end(&mut buf)?;
        return Ok(buf);
    }
    let mut buf = vec![0; size];
    let (first, second) = buf.split_at_mut(size / 2);
    let halves = std::thread::scope(|scope| {
        let at = first.len() as u64;
        let file = &file;
        let later = scope.spawn(move || file.read_exact_at(second, at));
        let earlier = file.read_exact_at(first, 0);
        earlier.and(later.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    match halves {
        // A file cut short while it was read is read again the plain way.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => std::fs::read(path),
        Err(e) => Err(e),
        Ok(()) => {
            // Whatever was appended since its length was taken follows, as with a plain read.
            file.seek(SeekFrom::Start(len))?;
            file.read_to_end(&mut buf)?;
            Ok(buf)
        }
    }
}

/// How much of a stream is read before it is looked at for a NUL byte.
const STREAM_CHUNK: u64 = 1 << 20;

/// Reads a stream (stdin, a pipe, a device) to its end, or to the end of the first NUL byte: no
/// payload, script, log or message holds one, and a device such as `/dev/zero` never ends, so
/// it would be read until memory ran out. What was read, NUL included, goes to its parser,
/// which says in one line what is wrong with it.
fn read_stream(mut source: impl Read, buf: &mut Vec<u8>) -> std::io::Result<()> {
    loop {
        let before = buf.len();
        // Into the buffer's own spare room: a large payload piped in is not copied twice.
        let read = (&mut source).take(STREAM_CHUNK).read_to_end(buf)?;
        if let Some(at) = memchr::memchr(0, &buf[before..]) {
            buf.truncate(before + at + 1);
            return Ok(());
        }
        // Short of a chunk: the stream ended. A terminal's Ctrl+D ends one read, not the
        // terminal, so reading on would wait for a second one.
        if read < STREAM_CHUNK as usize {
            return Ok(());
        }
    }
}

/// Reads UTF-8 text from a path, or stdin for `-`.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The entries of a pi session file (`--pi-session`), for branch scans.
pub fn pi_entries(file: &Path) -> anyhow::Result<Vec<ask_storage::pi_session::PiEntry>> {
    use anyhow::Context;
    let text = read_text(file).with_context(|| format!("cannot read pi session {}", file.display()))?;
    Ok(ask_storage::pi_session::entries(&text))
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    /// Text whose middle falls inside a multi-byte character for some lengths.
    fn text_of(len: usize) -> Vec<u8> {
        "aé€😀{\"b\":[]}\n".bytes().cycle().take(len).collect()
    }

    #[rstest]
    #[case::empty(0, 1)]
    #[case::below_the_split(999, 1000)]
    #[case::at_the_split_even(1000, 1000)]
    #[case::odd_length(1001, 1000)]
    #[case::many_pages(3 * 4096 + 17, 1)]
    #[case::one_byte_split(1, 1)]
    fn a_file_read_in_halves_is_the_file(#[case] len: usize, #[case] split_from: u64) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("payload.json");
        let bytes = text_of(len);
        std::fs::write(&path, &bytes).expect("write");
        let read = super::read_file(&path, split_from).expect("read");
        assert_eq!(read.len(), bytes.len());
        assert!(read == bytes, "the bytes read differ from the file's");
    }

    /// What decides that a live form's store waits for its form to be built.
    #[rstest]
    #[case::stdin_by_default(None, false)]
    #[case::stdin_by_name(Some("-"), false)]
    #[case::a_small_file(Some("small.json"), false)]
    #[case::a_file_of_the_split_length(Some("large.json"), true)]
    #[case::a_directory(Some("dir"), false)]
    #[case::a_missing_file(Some("missing.json"), false)]
    fn a_payload_is_read_in_halves_only_from_a_long_enough_file(
        #[case] name: Option<&str>,
        #[case] halves: bool,
    ) {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("small.json"), text_of(1000)).expect("write");
        std::fs::write(dir.path().join("large.json"), text_of(super::SPLIT_READ_FROM as usize))
            .expect("write");
        std::fs::create_dir(dir.path().join("dir")).expect("dir");
        let path = name.map(|n| if n == "-" { std::path::PathBuf::from("-") } else { dir.path().join(n) });
        assert_eq!(super::read_in_halves(path.as_deref()), halves);
    }

    #[test]
    fn a_byte_order_mark_is_dropped_from_a_large_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("payload.json");
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(text_of(super::SPLIT_READ_FROM as usize + 3));
        std::fs::write(&path, &bytes).expect("write");
        assert!(super::read_bytes(&path).expect("read") == bytes[3..]);
    }

    /// A file holding less than its length says (sysfs reports 4096 bytes for a few) ends the
    /// read in halves early: it is read again the plain way, as a file cut short while it was
    /// read would be.
    #[test]
    fn a_file_shorter_than_its_length_is_read_as_it_is() {
        let path = std::path::Path::new("/sys/devices/system/cpu/online");
        let plain = std::fs::read(path).expect("sysfs is mounted on Linux");
        assert!(std::fs::metadata(path).expect("metadata").len() > plain.len() as u64);
        assert_eq!(super::read_file(path, 1).expect("read"), plain);
    }

    #[test]
    fn a_missing_file_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = super::read_file(&dir.path().join("none.json"), 0).expect_err("no file");
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    }

    /// A stream is read whole when it holds no NUL, at any length across the chunks; one that
    /// does is read to the end of its first NUL and no further, though endless text follows.
    #[rstest]
    #[case::empty(0, None)]
    #[case::short(10, None)]
    #[case::across_chunks(3 * crate::input::STREAM_CHUNK as usize + 5, None)]
    #[case::nul_first(0, Some(0))]
    #[case::nul_in_a_later_chunk(2 * crate::input::STREAM_CHUNK as usize + 7, Some(2 * crate::input::STREAM_CHUNK as usize + 3))]
    fn a_stream_ends_at_its_end_or_its_first_nul(#[case] len: usize, #[case] nul: Option<usize>) {
        use std::io::Read;
        let mut text = text_of(len);
        let mut read = Vec::new();
        match nul {
            None => super::read_stream(text.as_slice(), &mut read),
            Some(at) => {
                text.truncate(at);
                text.push(0);
                super::read_stream(text.as_slice().chain(std::io::repeat(b'x')), &mut read)
            }
        }
        .expect("read");
        assert_eq!(read, text, "up to and including the first NUL");
    }

    /// What a terminal gives: the text typed, an end (Ctrl+D: one read of nothing), then
    /// whatever is typed later.
    struct Terminal(Vec<&'static [u8]>);

    impl std::io::Read for Terminal {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(next) = self.0.first_mut() else { panic!("read past the end the person typed") };
            let n = next.len().min(buf.len());
            buf[..n].copy_from_slice(&next[..n]);
            *next = &next[n..];
            if next.is_empty() {
                self.0.remove(0); // a chunk read whole, or the end (a read of nothing)
            }
            Ok(n)
        }
    }

    /// Ctrl+D once ends a payload typed or pasted at a terminal, as `read_to_end` ends there.
    #[test]
    fn one_end_of_input_at_a_terminal_ends_the_stream() {
        let mut read = Vec::new();
        let typed = Terminal(vec![b"{\"questions\":", b"[]}\n", b"", b"typed later"]);
        super::read_stream(typed, &mut read).expect("read");
        assert_eq!(read, b"{\"questions\":[]}\n");
    }
}
