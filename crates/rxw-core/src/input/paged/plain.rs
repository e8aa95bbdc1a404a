//! A plain file read in place: [`PagedText::open`], the indexer that reads it a block at a
//! time, and [`PagedText::grow`], which follows what is appended to it.

use super::shared::Shared;
use super::shared::index_block;
use super::{BLOCK_BYTES, PagedOptions, PagedText, io_error};
use crate::error::Error;
use crate::input::logs::SourceProgress;
use crate::input::records::read_at;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// What [`PagedText::grow`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Growth {
    /// The file is as long as the text.
    Unchanged,
    /// Bytes were appended and are now readable.
    Appended,
    /// The file is shorter than the text (truncated): reopen it.
    Shrunk,
    /// The text is not one plain file read in place (a spill of merged or compressed
    /// logs), or its indexing is still running: nothing was read.
    NotFollowable,
}

impl PagedText {
    /// Opens a plain file to read in place; its first `BLOCK_BYTES` are indexed before this
    /// returns (the first screen is there at once), the rest on a background thread.
    ///
    /// # Errors
    /// [`ErrorKind::Io`](crate::error::ErrorKind::Io) naming the file when it cannot be
    /// opened or read.
    pub fn open(path: &Path, options: &PagedOptions) -> Result<PagedText, Error> {
        let named = |e: std::io::Error| io_error(format!("{}: {e}", path.display()));
        let (file, meta) = crate::input::open_regular(path).map_err(named)?;
        if !meta.is_file() {
            return Err(io_error(format!(
                "{}: is {}, not a regular file",
                path.display(),
                crate::input::file_kind(&meta)
            )));
        }
        let consumed = Arc::new(AtomicU64::new(0));
        let progress = SourceProgress::new(Arc::clone(&consumed), Some(meta.len()));
        let reader = file.try_clone().map_err(named)?;
        let text = PagedText::start(Shared::new(
            file,
            options,
            vec![path.display().to_string()],
            vec![progress],
            None,
            None,
            None,
        ));
        let size = meta.len();
        let mut indexer = PlainIndexer {
            shared: Arc::clone(&text.shared),
            file: reader,
            pos: 0,
            size,
            consumed,
            carry: Vec::new(),
            path: path.to_path_buf(),
        };
        // The head, here: the first frame needs no wait.
        super::step_in_background("rxw-indexer", "the indexer", move || indexer.step())?;
        Ok(text)
    }

    /// Follows a plain file: once its indexing is done, indexes what was appended to the
    /// file since (the line index and the length grow; cached pages stay valid, as a page
    /// past the readable length is never cached). An unfinished UTF-8 character at the end
    /// waits for the rest of its bytes.
    ///
    /// # Errors
    /// [`ErrorKind::Io`](crate::error::ErrorKind::Io) when the file cannot be read.
    pub fn grow(&self) -> Result<Growth, Error> {
        if self.shared.spill.is_some() || !self.complete() {
            return Ok(Growth::NotFollowable);
        }
        let failed =
            |e: std::io::Error| io_error(format!("{}: {e}", self.shared.names.join(" + ")));
        let size = usize::try_from(self.shared.file.metadata().map_err(failed)?.len())
            .unwrap_or(usize::MAX);
        let len = self.len();
        if size < len {
            return Ok(Growth::Shrunk);
        }
        let mut pos = len;
        while pos < size {
            let mut buf = vec![0u8; (size - pos).min(BLOCK_BYTES)];
            let n = read_at(&self.shared.file, &mut buf, pos as u64).map_err(failed)?;
            if n == 0 {
                break;
            }
            buf.truncate(n);
            // Hold back a character whose bytes are not all there yet.
            let lead = buf.iter().rposition(|b| b & 0xC0 != 0x80).unwrap_or(0);
            let want = match buf.get(lead) {
                Some(b) if *b >= 0xF0 => 4,
                Some(b) if *b >= 0xE0 => 3,
                Some(b) if *b >= 0xC0 => 2,
                _ => 1,
            };
            if buf.len() - lead < want && buf.len() - lead < 4 && pos + n >= size {
                buf.truncate(lead);
            }
            if buf.is_empty() {
                break;
            }
            index_block(&self.shared, pos, &buf);
            pos += buf.len();
            self.shared.len.store(pos, Ordering::Release);
        }
        Ok(if pos > len {
            Growth::Appended
        } else {
            Growth::Unchanged
        })
    }
}

/// Indexes a plain file a block at a time.
struct PlainIndexer {
    shared: Arc<Shared>,
    file: File,
    pos: usize,
    size: u64,
    consumed: Arc<AtomicU64>,
    /// The indexed bytes after the last line break (published once their line ends).
    carry: Vec<u8>,
    path: PathBuf,
}

impl PlainIndexer {
    /// Indexes the next block; false once done (or stopped).
    fn step(&mut self) -> bool {
        if self.shared.stop.load(Ordering::Relaxed) {
            return false;
        }
        let mut buf = vec![0u8; BLOCK_BYTES];
        let n = match read_at(&self.file, &mut buf, self.pos as u64) {
            Ok(n) => n,
            Err(e) => {
                self.finish(Some(format!(
                    "{}: read failed at byte {}: {e}; showing what was read",
                    self.path.display(),
                    self.pos
                )));
                return false;
            }
        };
        buf.truncate(n);
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        let base = self.pos;
        self.pos += n;
        index_block(&self.shared, base, &buf);
        let buf = Arc::new(buf);
        self.shared.keep_recent(base, Arc::clone(&buf));
        // Invalid UTF-8, checked across the block boundary with the carried line.
        let cut = memchr::memrchr(b'\n', &buf).map_or(0, |nl| nl + 1);
        let at_end = n == 0 || self.pos as u64 >= self.size;
        let (complete, rest) = if at_end {
            (&buf[..], &buf[buf.len()..])
        } else {
            buf.split_at(cut)
        };
        let mut checked = std::mem::take(&mut self.carry);
        checked.extend_from_slice(complete);
        let invalid = if crate::input::as_text(&checked).is_some() {
            0
        } else {
            crate::input::count_invalid(&checked)
        };
        self.carry = rest.to_vec();
        let published = self.pos - self.carry.len();
        if invalid > 0 {
            self.shared.build_state().invalid_utf8 += invalid;
        }
        self.shared.len.store(published, Ordering::Release);
        if at_end {
            let short = (self.pos as u64) < self.size;
            self.finish(short.then(|| {
                format!(
                    "{}: the file changed while it was read ({} bytes at open, {} read); it was truncated or rotated",
                    self.path.display(),
                    self.size,
                    self.pos
                )
            }));
            return false;
        }
        true
    }

    fn finish(&mut self, warning: Option<String>) {
        self.shared.finish_build(warning);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::small;
    use std::time::Duration;

    #[test]
    fn invalid_utf8_keeps_offsets_and_is_said() {
        let (_dir, p) = crate::testing::temp_file("a.log", b"ok\n\xff\xfe bad\nok\n");
        let paged = PagedText::open(&p, &small(3, 2)).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(5)));
        assert_eq!(paged.line(1), "?? bad");
        assert_eq!(paged.line_start(2), 10);
        assert!(
            paged
                .warnings()
                .iter()
                .any(|w| w.contains("2 invalid bytes"))
        );
    }
}
