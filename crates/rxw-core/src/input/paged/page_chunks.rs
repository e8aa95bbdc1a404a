//! The chunks of a scan ([`PagedText::chunks`]): whole lines read straight from the file, or
//! taken from the blocks the indexer still holds, growing from a small first chunk.

use super::{PagedText, decode_same_len, split_char_tail};
use crate::input::chunks::Chunk;
use std::ops::Range;

/// The most of one line a chunk holds ([`PagedText::chunks`]): a longer line is handed out
/// in pieces of this size, ending inside it.
pub const LONG_LINE_PIECE: usize = 16 << 20;

impl PagedText {
    /// Whole lines of `range` (clamped to the readable text) in chunks of about `target`
    /// bytes (the first of about [`FIRST_CHUNK_BYTES`], each after twice the one before up to
    /// `target`), read straight from the file (a scan does not evict the pages on screen). Each
    /// chunk but the last ends with a line break; [`Chunk::searchable`] leaves it out, so a
    /// pattern whose matches stay inside one line finds, chunk by chunk, what it finds in
    /// the whole text. `range.start` should be a line start. The exception: a line longer
    /// than [`LONG_LINE_PIECE`] comes in pieces of that size (a chunk that ends without a
    /// line break and is not the last), so that memory stays bounded.
    pub fn chunks(&self, range: Range<usize>, target: usize) -> PageChunks {
        let end = range.end.min(self.len());
        let full = target.max(1);
        PageChunks {
            text: self.clone(),
            pos: range.start.min(end),
            end,
            target: full.min(FIRST_CHUNK_BYTES),
            full,
        }
    }
}

/// Bytes of a pass's first chunk: small, so that the first matches of a full scan (the
/// match list's first rows, on the keystroke path) are found after reading a few pages, not
/// a whole chunk; each chunk after is twice the one before, up to the chunk size asked for.
pub const FIRST_CHUNK_BYTES: usize = 64 * 1024;

/// The chunks of [`PagedText::chunks`].
pub struct PageChunks {
    text: PagedText,
    pos: usize,
    end: usize,
    /// This chunk's size.
    target: usize,
    /// The size chunks grow to.
    full: usize,
}

impl Iterator for PageChunks {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        if self.pos >= self.end {
            return None;
        }
        if let Some(chunk) = self.next_held() {
            return Some(chunk);
        }
        let shared = &self.text.shared;
        let mut buf = Vec::new();
        let mut want = self.target.min(self.end - self.pos);
        loop {
            let have = buf.len();
            buf.resize(have + want, 0);
            let n = shared.read_text(&mut buf[have..], (self.pos + have) as u64);
            buf.truncate(have + n);
            let at_end = self.pos + buf.len() >= self.end || n == 0;
            if at_end {
                break;
            }
            if let Some(nl) = memchr::memrchr(b'\n', &buf[have..]) {
                buf.truncate(have + nl + 1);
                break;
            }
            if buf.len() >= LONG_LINE_PIECE {
                // A line too long to hold: the chunk ends inside it, on a character boundary
                // (the pass that reads it says it is inexact where that matters).
                let lead = buf.len() - split_char_tail(&buf);
                buf.truncate(lead.max(1));
                break;
            }
            // One line longer than the chunk: read on to its end, or to LONG_LINE_PIECE.
            want = self.target.min(self.end - self.pos - buf.len());
        }
        if buf.is_empty() {
            self.pos = self.end;
            return None;
        }
        let offset = self.pos;
        self.pos += buf.len();
        self.target = self.target.saturating_mul(2).min(self.full);
        Some(Chunk {
            text: decode_same_len(buf),
            offset,
            last: self.pos >= self.end,
            runs: Vec::new(),
            verbatim: Vec::new(),
        })
    }
}

impl PageChunks {
    /// The next chunk taken from a block the indexer still holds, as the file would give it;
    /// `None` when no recent block holds the whole of the read the file would take, or when
    /// that read holds no line break (a line longer than the chunk, read on from the file).
    fn next_held(&mut self) -> Option<Chunk> {
        let (off, block) = self.text.shared.recent_at(self.pos)?;
        let held = &block[self.pos - off..];
        // The whole read the file would give must be held (it may end past the block).
        let want = self.target.min(self.end - self.pos);
        if held.len() < want {
            return None;
        }
        let n = if self.pos + want >= self.end {
            want
        } else {
            memchr::memrchr(b'\n', &held[..want])? + 1
        };
        let bytes = &held[..n];
        let text = match crate::input::as_text(bytes) {
            Some(text) => text.to_owned(),
            None => decode_same_len(bytes.to_vec()),
        };
        let offset = self.pos;
        self.pos += n;
        self.target = self.target.saturating_mul(2).min(self.full);
        Some(Chunk {
            text,
            offset,
            last: self.pos >= self.end,
            runs: Vec::new(),
            verbatim: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::BLOCK_BYTES;
    use super::super::shared::KEEP_RECENT;
    use super::*;
    use crate::input::logs::Origin;
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    /// The chunks a scan takes from the blocks the indexer still holds are the chunks it
    /// reads from the file: the same text, offsets and ends, for a plain file (invalid UTF-8
    /// and a line longer than a chunk included) and for a merged spill, at several sizes and
    /// from several starts.
    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn chunks_from_recent_blocks_are_the_chunks_read_from_the_file() {
        KEEP_RECENT.store(true, Ordering::Relaxed);
        let dir = tempfile::tempdir().unwrap();
        let mut text = Vec::new();
        for k in 0..350_000 {
            match k % 7 {
                0 => text.extend_from_slice(b"bad \xff\xfe byte\n"),
                3 if k % 50_000 == 3 => text.extend(std::iter::repeat_n(b'x', 300_000)),
                _ => text.extend_from_slice(
                    format!("2026-10-05T00:00:{:02}Z [CLAIM j{k}] \u{e9}\n", k % 60).as_bytes(),
                ),
            }
        }
        let plain = dir.path().join("a.log");
        std::fs::write(&plain, &text).unwrap();
        let other = dir.path().join("b.log");
        std::fs::write(&other, &text[..text.len() / 3]).unwrap();
        let chunks = |paged: &PagedText, from: usize, target: usize| {
            paged
                .chunks(from..usize::MAX, target)
                .map(|c| (c.offset, c.text, c.last))
                .collect::<Vec<_>>()
        };
        let texts = [
            PagedText::open(&plain, &crate::testing::spill_anywhere()).unwrap(),
            PagedText::open_merged(
                &[Origin::Path(plain.clone()), Origin::Path(other.clone())],
                &crate::testing::spill_anywhere(),
            )
            .unwrap(),
        ];
        for paged in &texts {
            assert!(paged.wait_complete(Duration::from_secs(30)));
            assert!(paged.len() > 2 * BLOCK_BYTES);
            let starts = [
                0,
                paged.line_start(1),
                paged.line_start(paged.line_count() - 5000),
            ];
            for target in [1000, 100_000, 1 << 20, 4 << 20] {
                for &from in &starts {
                    let held = chunks(paged, from, target);
                    paged.forget_recent();
                    let read = chunks(paged, from, target);
                    assert_eq!(held.len(), read.len(), "target {target} from {from}");
                    assert!(held == read, "target {target} from {from}");
                    assert_eq!(read.last().map(|c| c.0 + c.1.len()), Some(paged.len()));
                }
            }
        }
    }

    /// Regression: a full scan's first chunk was a whole 4 MiB read before its first match
    /// could be found, on the path from a key to the match list's first row. The first chunk
    /// is small and the chunks grow to the size asked for, covering the text exactly.
    #[test]
    fn chunks_start_small_and_grow_to_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.log");
        let text: String = (0..40_000)
            .map(|k| format!("line {k} [CLAIM j{k}]\n"))
            .collect();
        std::fs::write(&p, &text).unwrap();
        let paged = PagedText::open(&p, &crate::testing::spill_anywhere()).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(20)));
        let target = 256 * 1024;
        let sizes: Vec<usize> = paged
            .chunks(0..usize::MAX, target)
            .map(|c| c.text.len())
            .collect();
        assert!(sizes[0] <= FIRST_CHUNK_BYTES, "{sizes:?}");
        assert!(
            sizes[1] > FIRST_CHUNK_BYTES && sizes[1] <= 2 * FIRST_CHUNK_BYTES,
            "{sizes:?}"
        );
        assert!(sizes[3] > target / 2 && sizes[3] <= target, "{sizes:?}");
        assert_eq!(sizes.iter().sum::<usize>(), text.len());
    }
}
