//! Loading text to match: from memory, a file (memory-mapped when large), or a reader.
//!
//! Valid UTF-8 is used in place, without a copy. Invalid UTF-8 is decoded with U+FFFD
//! replacements and said in [`Text::invalid_utf8`], never a crash.

use crate::error::{Error, ErrorKind};
use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

/// Files at least this large are memory-mapped instead of read.
const MMAP_THRESHOLD: u64 = 1 << 20;

enum Backing {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

/// Loaded input bytes.
pub struct Text {
    backing: Backing,
    /// Present when the bytes were not valid UTF-8: the decoded text.
    decoded: Option<String>,
    /// Number of invalid sequences and the byte offset of the first, when invalid.
    pub invalid_utf8: Option<(usize, usize)>,
}

impl Text {
    /// Wraps bytes already in memory.
    pub fn from_bytes(bytes: Vec<u8>) -> Text {
        Text::new(Backing::Owned(bytes))
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

    /// Opens a file; large files are memory-mapped.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the path when it cannot be opened or read.
    pub fn from_path(path: &Path) -> Result<Text, Error> {
        let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("{}: {e}", path.display()));
        let file = std::fs::File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        Text::from_file(file, &meta, path)
    }

    /// Loads an open file whose metadata the caller already has (`path` names it in errors);
    /// large files are memory-mapped.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the path when it is a directory or cannot be read.
    pub fn from_file(
        file: std::fs::File,
        meta: &std::fs::Metadata,
        path: &Path,
    ) -> Result<Text, Error> {
        let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("{}: {e}", path.display()));
        if meta.is_dir() {
            return Err(Error::new(
                ErrorKind::Io,
                format!("{}: is a directory", path.display()),
            ));
        }
        if meta.len() >= MMAP_THRESHOLD
            && let Ok(map) = map_file(&file)
        {
            return Ok(Text::new(Backing::Mapped(map)));
        }
        let mut buf = Vec::with_capacity(meta.len() as usize);
        let mut file = file;
        file.read_to_end(&mut buf).map_err(io)?;
        Ok(Text::from_bytes(buf))
    }

    fn new(backing: Backing) -> Text {
        let bytes: &[u8] = match &backing {
            Backing::Owned(v) => v,
            Backing::Mapped(m) => m,
        };
        let (decoded, invalid_utf8) = match std::str::from_utf8(bytes) {
            Ok(_) => (None, None),
            Err(e) => {
                let first = e.valid_up_to();
                let lossy = String::from_utf8_lossy(bytes);
                let count = count_invalid(bytes);
                (Some(lossy.into_owned()), Some((count, first)))
            }
        };
        Text {
            backing,
            decoded,
            invalid_utf8,
        }
    }

    /// The bytes as loaded, before any UTF-8 decoding.
    pub fn bytes(&self) -> &[u8] {
        match &self.backing {
            Backing::Owned(v) => v,
            Backing::Mapped(m) => m,
        }
    }

    /// The text (decoded when the bytes were not UTF-8).
    pub fn as_str(&self) -> &str {
        if let Some(d) = &self.decoded {
            return d;
        }
        let bytes: &[u8] = match &self.backing {
            Backing::Owned(v) => v,
            Backing::Mapped(m) => m,
        };
        std::str::from_utf8(bytes).expect("validated at load")
    }

    /// The text as an owned or borrowed string.
    pub fn to_cow(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.as_str())
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

fn count_invalid(mut bytes: &[u8]) -> usize {
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

/// Maps a file read-only.
///
/// Sound enough: the map is private and read-only; if another process truncates the file
/// while it is mapped, reads past the new end fault (SIGBUS) — the same risk every mmap-based
/// search tool takes for the measured win of not copying multi-GB files.
#[allow(unsafe_code)]
fn map_file(file: &std::fs::File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: see the function comment.
    unsafe { memmap2::Mmap::map(file) }
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
    }

    #[test]
    fn valid_utf8_is_borrowed() {
        let t = Text::from_bytes("é".as_bytes().to_vec());
        assert_eq!(t.as_str(), "é");
        assert!(t.warning().is_none());
    }
}
