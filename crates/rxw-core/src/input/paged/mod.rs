//! A text too large to hold: pages read on demand from a file, a sparse line index built in
//! the background, and scans that stream through the file a chunk at a time.
//!
//! [`PagedText`] is what the workbench holds instead of a `String` when the input is large
//! (a 20 GB log, a merged set of logs, a compressed archive). Memory does not grow with the
//! text: a bounded cache of pages (the lines on screen, line lookups), a sparse line index
//! (one mark every [`INDEX_MARK_LINES`] lines or [`INDEX_MARK_BYTES`] bytes, about 3 MB for
//! 20 GB of short lines), and one chunk per running scan.
//!
//! A plain file is read where it is, with positional reads (never mapped: a map faults when
//! the file is truncated under it; a read sees the short file). A compressed file or several
//! logs merged by time are decoded once, in the background, through the input layer's
//! [`Chunks`] into a *spill file* in a temporary directory, then paged from there; the spill
//! is removed when the last handle on the text is dropped. For a merged input, a second file
//! next to the spill holds, for each run of consecutive lines from one source, its first line,
//! its source and its line in that source (a record a run, not a line: see
//! `super::records`). The plain logs of a merged input are not copied: the spill holds only
//! what is not a plain file's bytes (decoded archives, the line breaks and replaced UTF-8 the
//! merge adds), and a third file, the extents, says where each stretch of the text is; reads
//! gather it from the spill and the logs.
//!
//! The text becomes readable as the indexer reaches it: [`PagedText::len`] is the part
//! indexed so far, always ending at a line start until the end of the input, so a paged text
//! grows like a followed file while it is indexed. Bytes of a plain file that are not valid
//! UTF-8 are read as `?` (one byte for one, so offsets stay the file's) and counted in
//! [`PagedText::warnings`].
//!
//! One concept a file: [`PagedText`] and its reads in `text`, the page cache in `cache`, the
//! sparse line index in `marks`, what the handles and the indexer share in `shared`, a plain
//! file's indexer (and following it) in `plain`, the spill of a merged or compressed input in
//! `spill`, and the chunks of a scan in `page_chunks`.
//!
//! [`Chunks`]: super::chunks::Chunks

mod cache;
mod marks;
mod page_chunks;
mod plain;
mod shared;
mod spill;
mod text;

pub use marks::{INDEX_MARK_BYTES, INDEX_MARK_LINES};
pub use page_chunks::{FIRST_CHUNK_BYTES, LONG_LINE_PIECE, PageChunks};
pub use plain::Growth;
pub use text::PagedText;

use crate::error::{Error, ErrorKind};
use std::path::PathBuf;
use std::time::Duration;

/// Bytes in a cached page.
pub const PAGE_BYTES: usize = 256 * 1024;
/// The page cache's default size.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;

/// Bytes the indexer reads (and a spill is written) at a time.
const BLOCK_BYTES: usize = 4 << 20;

/// How a paged text is read.
#[derive(Debug, Clone)]
pub struct PagedOptions {
    /// Bytes in a page.
    pub page_bytes: usize,
    /// Most bytes of pages kept (at least one page is).
    pub cache_bytes: usize,
    /// Where the spill of a compressed or merged input is written (default: the system's
    /// temporary directory).
    pub spill_dir: Option<PathBuf>,
    /// The most bytes the spill may write: `None` for what its disk has free less a reserve
    /// ([`crate::input::room::spill_room`], which `RXW_SPILL_ROOM` sets too).
    pub spill_room: Option<u64>,
}

impl Default for PagedOptions {
    fn default() -> PagedOptions {
        PagedOptions {
            page_bytes: PAGE_BYTES,
            cache_bytes: DEFAULT_CACHE_BYTES,
            spill_dir: None,
            spill_room: None,
        }
    }
}

/// How far the background indexer is, for a progress indicator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexProgress {
    /// Bytes of text indexed (readable) so far.
    pub indexed: u64,
    /// Per source: its name, its file's bytes consumed (compressed bytes for an archive) and
    /// its size when opened, when known. One entry for a single log.
    pub sources: Vec<(String, u64, Option<u64>)>,
    /// Whether the whole input is indexed.
    pub done: bool,
    /// Time since indexing started (until it ended, once done).
    pub elapsed: Duration,
}

impl IndexProgress {
    /// The fraction of the input's files read, 0 to 1, when every size is known.
    pub fn fraction(&self) -> Option<f64> {
        if self.done {
            return Some(1.0);
        }
        let mut read = 0u64;
        let mut total = 0u64;
        for (_, consumed, size) in &self.sources {
            read += consumed;
            total += (*size)?;
        }
        (total > 0).then(|| (read as f64 / total as f64).min(1.0))
    }
}

/// Takes the first `step` here (so the first frame needs no wait) and, when more follow,
/// the rest on a thread named `name` at the lower priority of background work; `what` names
/// the work in the error when the thread cannot start.
fn step_in_background(
    name: &str,
    what: &str,
    mut step: impl FnMut() -> bool + Send + 'static,
) -> Result<(), Error> {
    if step() {
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                crate::priority::lower_this_thread();
                while step() {}
            })
            .map_err(|e| io_error(format!("cannot start {what}: {e}")))?;
    }
    Ok(())
}

fn io_error(message: String) -> Error {
    Error::new(ErrorKind::Io, message)
}

/// Decodes `bytes` as UTF-8 keeping its length: each byte of an invalid sequence becomes `?`.
fn decode_same_len(bytes: Vec<u8>) -> String {
    // The usual case, checked fast (a copy costs less than std's check).
    if let Some(text) = super::as_text(&bytes) {
        return text.to_owned();
    }
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let mut bytes = e.into_bytes();
            let mut at = 0;
            while let Err(e) = std::str::from_utf8(&bytes[at..]) {
                let bad = at + e.valid_up_to();
                let n = e.error_len().unwrap_or(bytes.len() - bad);
                bytes[bad..bad + n].fill(b'?');
                at = bad + n;
            }
            String::from_utf8(bytes).unwrap_or_default()
        }
    }
}

/// Bytes at the end of `bytes` that start a character the end cuts (0 when none is cut).
fn split_char_tail(bytes: &[u8]) -> usize {
    bytes.len() - split_char_start(bytes)
}

/// Where a character cut by the end of `bytes` starts (`bytes.len()` when none is cut): the
/// last lead byte among the final three whose sequence runs past the end.
fn split_char_start(bytes: &[u8]) -> usize {
    let n = bytes.len();
    for back in 1..=3.min(n) {
        let b = bytes[n - back];
        let want = match b {
            0x00..=0x7F => return n,
            0x80..=0xBF => continue,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        return if want > back { n - back } else { n };
    }
    n
}

#[cfg(test)]
mod tests {
    use super::shared::KEEP_RECENT;
    use super::*;
    use crate::testing::small;
    use proptest::prelude::*;
    use std::sync::atomic::Ordering;

    pub(super) fn starts(text: &str) -> Vec<usize> {
        std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect()
    }

    /// The paged text reads, numbers and scans exactly as the text held whole.
    pub(super) fn assert_same(text: &str, paged: &PagedText) {
        assert!(paged.wait_complete(Duration::from_secs(20)));
        assert_eq!(paged.len(), text.len());
        assert_eq!(paged.read(0..text.len()), text);
        let st = starts(text);
        assert_eq!(paged.line_count(), st.len());
        let buffer = crate::workbench::TextBuffer::new(text.to_string());
        // Every line of a short text, a sample of a long one (each lookup walks pages).
        let stride = (st.len() / 150).max(1);
        for i in (0..=st.len()).step_by(stride).chain([st.len()]) {
            assert_eq!(
                paged.line_start(i),
                buffer.line_start(i),
                "start of line {i}"
            );
        }
        for i in (0..st.len()).step_by(stride) {
            assert_eq!(
                paged.line_range(i),
                buffer.line_range(i),
                "range of line {i}"
            );
            assert_eq!(paged.line(i), buffer.line(i), "line {i}");
        }
        for at in (0..=text.len() + 1).step_by((text.len() / 300).max(1)) {
            assert_eq!(paged.line_of(at), buffer.line_of(at), "line of byte {at}");
        }
        assert_eq!(paged.ends_with_newline(), text.ends_with('\n'));
    }

    fn text_of(lines: &[(u8, u16)]) -> String {
        let mut text = String::new();
        for &(kind, n) in lines {
            match kind % 5 {
                0 => text.push_str(&format!("2026-10-05T00:00:00Z [CLAIM j{n}] é\n")),
                1 => text.push('\n'),
                2 => text.push_str(&"long line ".repeat(usize::from(n % 500))),
                3 => text.push_str(&format!("x{n}\r\n")),
                _ => text.push_str(&format!("[RESULT j{n}] OK\n")),
            }
        }
        text
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]

        /// The paged text equals the in-memory text on content, line numbers and matches,
        /// whatever the page size and chunk size.
        #[test]
        fn paged_equals_in_memory(
            lines in proptest::collection::vec((any::<u8>(), any::<u16>()), 0..1500),
            page in 64usize..5000,
            target in 1usize..20_000,
        ) {
            KEEP_RECENT.store(true, Ordering::Relaxed);
            let text = text_of(&lines);
            // No chunk holds an empty text (an empty match at its start is the caller's).
            prop_assume!(!text.is_empty());
            let (_dir, p) = crate::testing::temp_file("a.log", &text);
            let paged = PagedText::open(&p, &small(page, 3)).unwrap();
            assert_same(&text, &paged);
            prop_assert!(paged.peak_pages_held() <= 3);
            let re = crate::Regex::new(r"(?m)\[CLAIM (\w+)\]|x\d+$|^$", crate::Flavor::PYTHON, crate::Flags::default()).unwrap();
            let whole: Vec<(usize, usize)> = re
                .matches(&text, crate::MatchOptions::default())
                .map(|m| m.map(|m| (m.start(), m.end())).unwrap())
                .collect();
            // From the blocks the indexer still holds (the whole of a short text), then
            // from the file.
            for recent in [true, false] {
                if !recent {
                    paged.forget_recent();
                }
                let mut chunked = Vec::new();
                for chunk in paged.chunks(0..usize::MAX, target) {
                    for m in re.matches(chunk.searchable(), crate::MatchOptions::default()) {
                        let m = m.unwrap();
                        chunked.push((chunk.offset + m.start(), chunk.offset + m.end()));
                    }
                }
                prop_assert_eq!(&chunked, &whole);
            }
        }
    }
}
