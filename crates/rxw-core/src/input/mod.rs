//! Loading text to match: from memory, a file, or a reader.
//!
//! Files are read with plain reads into one buffer, never memory-mapped: a map faults (SIGBUS,
//! the process dies) when another process truncates the file while it is being read, which is
//! exactly what logrotate's `copytruncate` does to a live log. A read sees the short file
//! instead, and rxw says so: [`Text::read_path`] returns the bytes read so far with an
//! [`ErrorKind::Io`] error saying the file changed, and [`Text::from_path`] turns that into an
//! error. Bytes appended while the file is read are read too (a growing log is not an error).
//!
//! Valid UTF-8 is used as read, without a second copy. Invalid UTF-8 is decoded with U+FFFD
//! replacements and said in [`Text::invalid_utf8`], never a crash.
//!
//! Logs go through one layer whatever they are: [`codec`] decodes a file by its magic bytes
//! (gzip, zstd, bzip2, xz or plain), [`logs`] names the sources the arguments give (files,
//! directories, globs, standard input) and merges their lines by time, and [`chunks`] joins
//! the merged lines into text to match, in chunks of whole lines or whole. Commands read
//! logs through [`logs::MergedLines`] or [`chunks::Chunks`], never by opening files their own
//! way.

pub mod chunks;
pub mod codec;
pub mod field_names;
pub mod format;
pub mod lines;
pub mod logfmt;
pub mod logs;
pub mod paged;
mod records;
pub mod room;
pub mod syslog;
pub mod time_filter;
pub mod time_range;
pub mod timestamp;
pub mod user_format;

use crate::error::{Error, ErrorKind};
use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

/// Loaded input bytes.
pub struct Text {
    bytes: Vec<u8>,
    /// Present when the bytes were not valid UTF-8: the decoded text.
    decoded: Option<String>,
    /// Number of invalid sequences and the byte offset of the first, when invalid.
    pub invalid_utf8: Option<(usize, usize)>,
}

/// A file read to its end, or as far as it could be read before it changed.
pub struct FileRead {
    /// Every byte read: the whole file, or the part read before it changed.
    pub text: Text,
    /// Set when the file changed or failed while it was read: an [`ErrorKind::Io`] error
    /// naming the file. `text` then holds the data read so far.
    pub incomplete: Option<Error>,
}

impl Text {
    /// Wraps bytes already in memory.
    pub fn from_bytes(bytes: Vec<u8>) -> Text {
        let (decoded, invalid_utf8) = match as_text(&bytes)
            .map_or_else(|| std::str::from_utf8(&bytes).map(|_| ()), |_| Ok(()))
        {
            Ok(()) => (None, None),
            Err(e) => {
                let first = e.valid_up_to();
                let lossy = String::from_utf8_lossy(&bytes).into_owned();
                (Some(lossy), Some((count_invalid(&bytes), first)))
            }
        };
        Text {
            bytes,
            decoded,
            invalid_utf8,
        }
    }

    /// Reads a whole reader (standard input).
    ///
    /// # Errors
    /// [`ErrorKind::Io`] when reading fails.
    pub fn from_reader(mut r: impl Read) -> Result<Text, Error> {
        let mut buf = Vec::new();
        r.read_to_end(&mut buf)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read standard input: {e}")))?;
        Ok(Text::from_bytes(buf))
    }

    /// Reads a file. A file that changes while it is read (truncated, rotated) is an error,
    /// never a signal.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the path when it cannot be opened or read, is a directory, or
    /// changed while it was read.
    pub fn from_path(path: &Path) -> Result<Text, Error> {
        Text::read_path(path)?.complete()
    }

    /// Reads a file, keeping what was read when it changes or fails part way (the workbench
    /// shows that much and says why it stopped).
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the path when it cannot be opened or is a directory.
    pub fn read_path(path: &Path) -> Result<FileRead, Error> {
        let file = std::fs::File::open(path).map_err(|e| io_error(path, &e))?;
        let meta = file.metadata().map_err(|e| io_error(path, &e))?;
        Text::read_file(file, &meta, path)
    }

    /// Reads an open file whose metadata the caller already has (`path` names it in errors).
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the path when it is a directory, cannot be read, or changed
    /// while it was read.
    pub fn from_file(
        file: std::fs::File,
        meta: &std::fs::Metadata,
        path: &Path,
    ) -> Result<Text, Error> {
        Text::read_file(file, meta, path)?.complete()
    }

    /// As [`Text::from_file`], keeping what was read when the file changes or fails part way.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the path when it is a directory or too large to hold in memory.
    pub fn read_file(
        mut file: std::fs::File,
        meta: &std::fs::Metadata,
        path: &Path,
    ) -> Result<FileRead, Error> {
        if meta.is_dir() {
            return Err(Error::new(
                ErrorKind::Io,
                format!("{}: is a directory", path.display()),
            ));
        }
        let (bytes, mut incomplete) = read_all(&mut file, meta.len(), path)?;
        if incomplete.is_none()
            && let Ok(now) = file.metadata()
            && now.is_file()
            && now.len() < bytes.len() as u64
        {
            // Cut below what was read and written again before the read ended: what was read
            // mixes old and new contents.
            incomplete = Some(changed(path, meta.len(), bytes.len(), Some(now.len())));
        }
        Ok(FileRead {
            text: Text::from_bytes(bytes),
            incomplete,
        })
    }

    /// The bytes as loaded, before any UTF-8 decoding.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The text (decoded when the bytes were not UTF-8).
    pub fn as_str(&self) -> &str {
        match &self.decoded {
            Some(d) => d,
            None => std::str::from_utf8(&self.bytes).expect("validated at load"),
        }
    }

    /// The text as an owned or borrowed string.
    pub fn to_cow(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.as_str())
    }

    /// The text as an owned string, without copying valid UTF-8.
    pub fn into_string(self) -> String {
        match self.decoded {
            Some(d) => d,
            None => String::from_utf8(self.bytes).expect("validated at load"),
        }
    }

    /// A one-line notice about invalid UTF-8, when there was any.
    pub fn warning(&self) -> Option<String> {
        self.invalid_utf8.map(|(n, first)| {
            format!(
                "input is not valid UTF-8: {n} invalid sequence{} replaced with U+FFFD (first at byte {first}); offsets refer to the decoded text",
                if n == 1 { "" } else { "s" }
            )
        })
    }
}

impl FileRead {
    /// The text when the whole file was read.
    ///
    /// # Errors
    /// The reason the read stopped early.
    pub fn complete(self) -> Result<Text, Error> {
        match self.incomplete {
            Some(e) => Err(e),
            None => Ok(self.text),
        }
    }
}

/// What a non-regular file is, in a few words (`a FIFO`, `a character device`…).
pub fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_file() {
        return "a regular file";
    }
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Opens `path` for reading only if it is a regular file (a symbolic link is followed to
/// one), and never waits in the open: on Unix the file is opened with `O_NONBLOCK` (a FIFO
/// opened plainly waits for a writer, and a device such as `/dev/zero` never ends), and the
/// opened file's own metadata decides, so a file swapped between a look and the open is caught
/// too. Reads of a regular file are unaffected by the flag.
///
/// # Errors
/// The open fails, or the file is not a regular file (`InvalidInput`, saying what it is).
pub fn open_regular(path: &Path) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{}, not a regular file", file_kind(&meta)),
        ));
    }
    Ok((file, meta))
}

/// Reads whole files one after another into memory it keeps, for callers that read many
/// files (the audit): no allocation per file once the buffer has grown to the largest, and
/// for a file that one read returns whole, no system call beyond the open, two reads (the
/// second sees the end) and the close.
///
/// A file one read returns whole is a copy of the file as it was at that read. A larger file
/// has its size taken after the first read (for the size limit and to size the buffer); read
/// short of that size, it is said to have changed (truncated or rotated under the read, as by
/// [`Text::read_file`]); read past it (it grew), its size is taken again and a file now
/// shorter than what was read has changed too.
#[derive(Default)]
pub struct ReadBuffer {
    /// Initialised bytes: a prefix holds the last file read.
    storage: Vec<u8>,
}

/// Why [`ReadBuffer::read`] has no whole file.
#[derive(Debug)]
pub enum ReadFailure {
    /// A read failed (the error as the system gave it).
    Io(std::io::Error),
    /// The file is larger than the limit: its size.
    TooLarge(u64),
    /// The file changed while it was read ([`ErrorKind::Io`], naming the path), or does not
    /// fit in memory.
    Changed(Error),
}

impl ReadBuffer {
    /// The first read asks for at least this much.
    const FIRST_READ: usize = 64 << 10;

    /// An empty buffer.
    pub fn new() -> ReadBuffer {
        ReadBuffer::default()
    }

    /// Reads the open `file` to its end; `path` names it in errors, and a file over
    /// `max_len` bytes is not read. Returns the file's bytes, valid until the next read.
    ///
    /// # Errors
    /// [`ReadFailure::Io`] when a read fails, [`ReadFailure::TooLarge`] for a file over the
    /// limit, [`ReadFailure::Changed`] when the file was cut short while it was read or is
    /// too large to hold.
    pub fn read(
        &mut self,
        file: &mut std::fs::File,
        path: &Path,
        max_len: u64,
    ) -> Result<&[u8], ReadFailure> {
        let mut size_now = |f: &mut std::fs::File| f.metadata().map(|m| m.len());
        self.read_from(file, &mut size_now, path, max_len)
    }

    /// [`ReadBuffer::read`] from any reader, `size_now` giving its size at the moment.
    fn read_from<R: Read>(
        &mut self,
        file: &mut R,
        size_now: &mut dyn FnMut(&mut R) -> std::io::Result<u64>,
        path: &Path,
        max_len: u64,
    ) -> Result<&[u8], ReadFailure> {
        // The first read asks for no more than the limit allows (and one byte to see it is
        // passed), nor for a large buffer's worth of a file that may be over the limit.
        let first = usize::try_from(max_len.saturating_add(1))
            .unwrap_or(usize::MAX)
            .min(Self::FIRST_READ);
        self.grow_to(first, path)?;
        let mut len = read_some(file, &mut self.storage[..first])?;
        if len < first {
            let more = read_some(file, &mut self.storage[len..first])?;
            if more == 0 {
                // One read returned the whole file.
                if len as u64 > max_len {
                    return Err(ReadFailure::TooLarge(len as u64));
                }
                return Ok(&self.storage[..len]);
            }
            len += more;
        }
        // A file larger than one read: its size now, for the limit and the buffer.
        let expected = size_now(file).map_err(ReadFailure::Io)?;
        if expected > max_len {
            return Err(ReadFailure::TooLarge(expected));
        }
        // One byte more than the file so that the read which sees the end needs no room.
        let want = usize::try_from(expected.saturating_add(1)).unwrap_or(usize::MAX);
        self.grow_to(want, path)?;
        loop {
            if len == self.storage.len() {
                // The file grew while it was read.
                self.grow_to(len.saturating_add(len.max(64 << 10)), path)?;
            }
            match read_some(file, &mut self.storage[len..])? {
                0 => break,
                n => len += n,
            }
        }
        let read = len as u64;
        let changed = |now: Option<u64>| {
            let now = now.map_or(String::new(), |n| format!(", {n} bytes now"));
            ReadFailure::Changed(Error::new(
                ErrorKind::Io,
                format!(
                    "{}: the file changed while it was read ({expected} bytes when its size was taken, {read} read{now}); it was truncated or rotated",
                    path.display()
                ),
            ))
        };
        if read < expected {
            return Err(changed(None));
        }
        if read > expected
            && let Ok(now) = size_now(file)
            && now < read
        {
            return Err(changed(Some(now)));
        }
        Ok(&self.storage[..len])
    }

    fn grow_to(&mut self, want: usize, path: &Path) -> Result<(), ReadFailure> {
        if self.storage.len() >= want {
            return Ok(());
        }
        let more = want - self.storage.len();
        self.storage.try_reserve_exact(more).map_err(|_| {
            ReadFailure::Changed(Error::new(
                ErrorKind::Io,
                format!(
                    "{}: {} bytes do not fit in memory",
                    path.display(),
                    want - 1
                ),
            ))
        })?;
        self.storage.resize(want, 0);
        Ok(())
    }
}

/// One read into `buf`, again when interrupted.
fn read_some(file: &mut impl Read, buf: &mut [u8]) -> Result<usize, ReadFailure> {
    loop {
        match file.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadFailure::Io(e)),
        }
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("{}: {e}", path.display()))
}

fn changed(path: &Path, at_open: u64, read: usize, now: Option<u64>) -> Error {
    let now = now.map_or(String::new(), |n| format!(", {n} bytes now"));
    Error::new(
        ErrorKind::Io,
        format!(
            "{}: the file changed while it was read ({at_open} bytes at open, {read} read{now}); it was truncated or rotated",
            path.display()
        ),
    )
}

/// Reads `r` to its end. `expected` is the size the file had when opened: ending short of it
/// means the file was truncated under the read. Returns the bytes read so far together with
/// that error, or with a read error part way; only a file too large to hold is an outright
/// error.
fn read_all(
    r: &mut impl Read,
    expected: u64,
    path: &Path,
) -> Result<(Vec<u8>, Option<Error>), Error> {
    let mut buf = Vec::new();
    // One extra byte so reading up to the end does not grow the buffer just to see EOF.
    let want = usize::try_from(expected.saturating_add(1)).unwrap_or(usize::MAX);
    buf.try_reserve_exact(want).map_err(|_| {
        Error::new(
            ErrorKind::Io,
            format!("{}: {expected} bytes do not fit in memory", path.display()),
        )
    })?;
    // `read_to_end` keeps the bytes read before an error, so the caller can still show them.
    if let Err(e) = r.read_to_end(&mut buf) {
        return Ok((buf, Some(io_error(path, &e))));
    }
    if (buf.len() as u64) < expected {
        let err = changed(path, expected, buf.len(), None);
        return Ok((buf, Some(err)));
    }
    Ok((buf, None))
}

/// `bytes` as text when they are valid UTF-8, checked several times faster than
/// [`std::str::from_utf8`] on long texts (SIMD); where they are not, std's check says where.
pub(crate) fn as_text(bytes: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(bytes).ok()
}

pub(crate) fn count_invalid(mut bytes: &[u8]) -> usize {
    let mut n = 0;
    loop {
        match std::str::from_utf8(bytes) {
            Ok(_) => return n,
            Err(e) => {
                n += 1;
                let skip = e.valid_up_to() + e.error_len().unwrap_or(bytes.len() - e.valid_up_to());
                bytes = &bytes[skip..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_decoded_and_said() {
        let t = Text::from_bytes(b"ab\xffcd\xfe".to_vec());
        assert_eq!(t.as_str(), "ab\u{FFFD}cd\u{FFFD}");
        assert_eq!(t.invalid_utf8, Some((2, 2)));
        assert!(t.warning().unwrap().contains("2 invalid sequences"));
        assert_eq!(t.into_string(), "ab\u{FFFD}cd\u{FFFD}");
    }

    #[test]
    fn valid_utf8_is_borrowed() {
        let t = Text::from_bytes("é".as_bytes().to_vec());
        assert_eq!(t.as_str(), "é");
        assert!(t.warning().is_none());
        assert_eq!(t.into_string(), "é");
    }

    /// A reader over a file that another process cut short after `cut` bytes, returning at
    /// most `step` bytes a read.
    struct Truncated<'a> {
        data: &'a [u8],
        cut: usize,
        at: usize,
        step: usize,
    }

    impl Read for Truncated<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let end = self.cut.min(self.at + buf.len().min(self.step));
            let n = end - self.at;
            buf[..n].copy_from_slice(&self.data[self.at..end]);
            self.at = end;
            Ok(n)
        }
    }

    #[test]
    fn sigbus_on_truncation_a_file_cut_short_mid_read_is_an_io_error_with_the_data_read() {
        let data = b"line one\nline two\nline three\n";
        let mut r = Truncated {
            data,
            cut: 12,
            at: 0,
            step: 7,
        };
        let (bytes, err) = read_all(&mut r, data.len() as u64, Path::new("t.log")).unwrap();
        assert_eq!(bytes, b"line one\nlin");
        let err = err.expect("a short read is reported");
        assert_eq!(err.kind, ErrorKind::Io);
        crate::testing::assert_message_starts(&err, "t.log: the file changed while it was read");
        crate::testing::assert_message_has(&err, "29 bytes at open, 12 read");
    }

    #[test]
    fn a_file_read_whole_or_grown_is_not_an_error() {
        let data = b"abc\ndef\n";
        let mut r = Truncated {
            data,
            cut: data.len(),
            at: 0,
            step: 7,
        };
        let (bytes, err) = read_all(&mut r, 4, Path::new("t.log")).unwrap();
        assert_eq!(bytes, data);
        assert!(err.is_none());
    }

    /// A reader over `data` that the test can cut short after `cut` bytes, and whose size
    /// is what `size` says.
    fn read_buffer(
        buf: &mut ReadBuffer,
        data: &[u8],
        cut: usize,
        size: u64,
        max: u64,
    ) -> Result<Vec<u8>, String> {
        read_buffer_by(buf, data, cut, size, max, 7)
    }

    fn read_buffer_by(
        buf: &mut ReadBuffer,
        data: &[u8],
        cut: usize,
        size: u64,
        max: u64,
        step: usize,
    ) -> Result<Vec<u8>, String> {
        let mut r = Truncated {
            data,
            cut,
            at: 0,
            step,
        };
        let mut size_now = |_: &mut Truncated| Ok(size);
        buf.read_from(&mut r, &mut size_now, Path::new("t.log"), max)
            .map(<[u8]>::to_vec)
            .map_err(|e| match e {
                ReadFailure::Io(e) => format!("io {e}"),
                ReadFailure::TooLarge(n) => format!("too large {n}"),
                ReadFailure::Changed(e) => e.message,
            })
    }

    #[test]
    fn read_buffer_reads_small_and_large_files_and_keeps_no_stale_bytes() {
        let mut buf = ReadBuffer::new();
        let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let n = big.len() as u64;
        assert_eq!(
            read_buffer(&mut buf, &big, big.len(), n, u64::MAX),
            Ok(big.clone())
        );
        assert_eq!(
            read_buffer(&mut buf, b"abc", 3, 3, u64::MAX),
            Ok(b"abc".to_vec())
        );
        assert_eq!(read_buffer(&mut buf, b"", 0, 0, 0), Ok(Vec::new()));
        // The limit: a small file over it, a large one over it, one exactly at it.
        assert_eq!(
            read_buffer(&mut buf, b"0123456789", 10, 10, 5),
            Err("too large 10".into())
        );
        assert_eq!(
            read_buffer(&mut buf, &big, big.len(), n, 70_000),
            Err(format!("too large {n}"))
        );
        assert_eq!(
            read_buffer(&mut buf, &big, big.len(), n, n),
            Ok(big.clone())
        );
        assert_eq!(
            read_buffer(&mut buf, b"0123456789", 10, 10, 10),
            Ok(b"0123456789".to_vec())
        );
        // Reads that return all they are asked for: a small file in one read (its size is
        // never asked: the size given here would be wrong), a file at the limit, one over it
        // (its size is asked then).
        let mut read_whole = |data: &[u8], size, max| {
            read_buffer_by(&mut buf, data, data.len(), size, max, usize::MAX)
        };
        assert_eq!(
            read_whole(b"0123456789", 0, u64::MAX),
            Ok(b"0123456789".to_vec())
        );
        assert_eq!(read_whole(b"0123456789", 0, 10), Ok(b"0123456789".to_vec()));
        assert_eq!(read_whole(b"0123456789", 10, 9), Err("too large 10".into()));
        assert_eq!(
            read_whole(&big[..65_535], 0, u64::MAX),
            Ok(big[..65_535].to_vec())
        );
    }

    #[test]
    fn read_buffer_says_a_large_file_cut_short_under_the_read_changed() {
        let mut buf = ReadBuffer::new();
        let big = vec![b'x'; 300_000];
        // Its size was taken after the first read; the rest was cut away under the read.
        let got = read_buffer(&mut buf, &big, 100_000, big.len() as u64, u64::MAX);
        let err = got.expect_err("a file cut short is reported");
        crate::testing::assert_starts(
            &err,
            "t.log: the file changed while it was read (300000 bytes when its size was taken, 100000 read)",
        );
        // Grown past its size while read, and now shorter than what was read.
        let got = read_buffer(&mut buf, &big, big.len(), 100_000, u64::MAX);
        assert!(
            got.expect_err("grown then cut")
                .contains("100000 bytes now")
        );
    }

    #[test]
    fn reading_a_real_file_and_a_directory() {
        let (dir, path) = crate::testing::temp_file("a.log", b"x\xffy");
        let t = Text::from_path(&path).unwrap();
        assert_eq!(t.as_str(), "x\u{FFFD}y");
        assert_eq!(t.invalid_utf8, Some((1, 1)));
        let err = Text::from_path(dir.path()).err().unwrap();
        assert!(err.message.ends_with("is a directory"), "{}", err.message);
    }
}
