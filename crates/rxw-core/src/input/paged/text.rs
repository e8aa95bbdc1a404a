//! [`PagedText`]: the handle on a large text, and its reads: bytes through the page cache,
//! characters, lines by number and by byte, and each merged line's source.

use super::cache::Cache;
use super::marks::Marks;
use super::shared::{BuildState, Shared};
use super::{IndexProgress, decode_same_len, split_char_start};
use crate::input::records::split_value;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A large text read in pages (see the module documentation). Clones share the file, the
/// cache and the index; the background indexer stops when the last handle is dropped.
pub struct PagedText {
    pub(super) shared: Arc<Shared>,
    /// Handles alive; the indexer stops when it falls to zero.
    pub(super) handles: Arc<AtomicUsize>,
}

impl Clone for PagedText {
    fn clone(&self) -> PagedText {
        self.handles.fetch_add(1, Ordering::Relaxed);
        PagedText {
            shared: Arc::clone(&self.shared),
            handles: Arc::clone(&self.handles),
        }
    }
}

impl Drop for PagedText {
    fn drop(&mut self) {
        if self.handles.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl std::fmt::Debug for PagedText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PagedText")
            .field("len", &self.len())
            .field("names", &self.shared.names)
            .finish_non_exhaustive()
    }
}

impl PagedText {
    pub(super) fn start(shared: Shared) -> PagedText {
        PagedText {
            shared: Arc::new(shared),
            handles: Arc::new(AtomicUsize::new(1)),
        }
    }

    /// Drops the recent blocks: what follows reads from the file.
    #[cfg(test)]
    pub(super) fn forget_recent(&self) {
        self.shared.forget_recent();
    }

    /// Bytes of text readable now (the part indexed; all of it once [`PagedText::complete`]).
    pub fn len(&self) -> usize {
        self.shared.len.load(Ordering::Acquire)
    }

    /// Whether no text is readable yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the whole input is indexed.
    pub fn complete(&self) -> bool {
        self.state().done
    }

    fn state(&self) -> std::sync::MutexGuard<'_, BuildState> {
        crate::lock(&self.shared.state)
    }

    /// Waits up to `timeout` for the index to be complete; returns whether it is.
    pub fn wait_complete(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while !self.complete() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }

    /// The inputs' names (one for a single file).
    pub fn names(&self) -> &[String] {
        &self.shared.names
    }

    /// The spill's directory and the bytes its files hold so far (the text copied there, and
    /// for a merged input the records of where each line and stretch of text is), for a
    /// compressed or merged input.
    pub fn spill(&self) -> Option<(&Path, u64)> {
        self.shared
            .spill
            .as_ref()
            .map(|(p, n)| (p.as_path(), n.load(Ordering::Relaxed)))
    }

    /// Failures met while indexing (a truncated archive, a file cut under the read) and
    /// invalid UTF-8, each a line for the status bar.
    pub fn warnings(&self) -> Vec<String> {
        let st = self.state();
        let mut out = st.warnings.clone();
        if let Some(extents) = &self.shared.extents {
            for (name, changed) in self.shared.names.iter().zip(&extents.changed) {
                if changed.load(Ordering::Relaxed) {
                    out.push(format!(
                        "{name}: the file is shorter than when it was read (truncated or \
                         replaced since); its missing bytes show as '?'"
                    ));
                }
            }
        }
        if st.invalid_utf8 > 0 {
            out.push(format!(
                "input is not valid UTF-8: {} invalid byte{} shown as '?'",
                st.invalid_utf8,
                if st.invalid_utf8 == 1 { "" } else { "s" }
            ));
        }
        out
    }

    /// How far the indexer is.
    pub fn progress(&self) -> IndexProgress {
        let st = self.state();
        let elapsed = st
            .elapsed
            .or_else(|| st.started.map(|s| s.elapsed()))
            .unwrap_or_default();
        IndexProgress {
            indexed: self.len() as u64,
            sources: self
                .shared
                .names
                .iter()
                .zip(&self.shared.progress)
                .map(|(n, p)| (n.clone(), p.consumed(), p.size()))
                .collect(),
            done: st.done,
            elapsed,
        }
    }

    /// Pages held in the cache now.
    pub fn pages_held(&self) -> usize {
        self.cache().pages.len()
    }

    /// The most pages held at once so far.
    pub fn peak_pages_held(&self) -> usize {
        self.cache().peak
    }

    /// The most pages the cache holds.
    pub fn page_capacity(&self) -> usize {
        self.cache().capacity
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        crate::lock(&self.shared.cache)
    }

    pub(super) fn marks(&self) -> std::sync::RwLockReadGuard<'_, Marks> {
        self.shared
            .index
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Page `k`, from the cache or the file. A page past the readable length is read short
    /// and not cached (the text may still grow into it).
    fn page(&self, k: usize) -> Arc<[u8]> {
        let p = self.shared.page_bytes;
        let len = self.len();
        let start = k * p;
        let end = (start + p).min(len);
        if end <= start {
            return Arc::from(Vec::new());
        }
        let whole = end - start == p;
        if whole && let Some(page) = self.cache().get(k) {
            return page;
        }
        let mut buf = vec![0u8; end - start];
        let n = self.shared.read_text(&mut buf, start as u64);
        buf.truncate(n);
        let page: Arc<[u8]> = Arc::from(buf);
        if whole && n == p {
            self.cache().put(k, Arc::clone(&page));
        }
        page
    }

    /// The bytes of `range` (clamped to the readable text), through the page cache.
    pub fn read_bytes(&self, range: Range<usize>) -> Vec<u8> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        let p = self.shared.page_bytes;
        let mut out = Vec::with_capacity(end - start);
        let mut at = start;
        while at < end {
            let k = at / p;
            let page = self.page(k);
            let from = at - k * p;
            let to = (end - k * p).min(page.len());
            if from >= to {
                break;
            }
            out.extend_from_slice(&page[from..to]);
            at = k * p + to;
        }
        out
    }

    /// The text of `range` (clamped to the readable text; invalid UTF-8 read as `?`).
    pub fn read(&self, range: Range<usize>) -> String {
        decode_same_len(self.read_bytes(range))
    }

    /// The characters of `range` as [`PagedText::read`] decodes them (a `?` per invalid
    /// byte), counted a piece at a time: memory stays bounded whatever the range's length.
    pub fn count_chars(&self, range: Range<usize>) -> usize {
        const PIECE: usize = 1 << 20;
        let end = range.end.min(self.len());
        let from = range.start.min(end);
        let (mut at, mut n) = (from, 0);
        // Only a long count is kept, so a short one (a row's column) takes no lock.
        let long = end - from > PIECE;
        if long {
            let counted = *crate::lock(&self.shared.counted);
            if counted.0 == from && counted.1 > from && counted.1 <= end {
                (at, n) = (counted.1, counted.2);
            }
        }
        while at < end {
            let bytes = self.read_bytes(at..end.min(at + PIECE));
            // Cut before a character the piece splits, so that it is decoded whole next time.
            let cut = if at + bytes.len() < end {
                split_char_start(&bytes)
            } else {
                bytes.len()
            };
            let cut = if cut == 0 { bytes.len() } else { cut };
            if cut == 0 {
                break;
            }
            n += decode_same_len(bytes[..cut].to_vec()).chars().count();
            at += cut;
        }
        // Kept when long and ending on a character's start (so that counting on from it
        // decodes as counting the whole would).
        let boundary = || {
            self.read_bytes(end..end + 1)
                .first()
                .is_none_or(|b| !(0x80..0xC0).contains(b))
        };
        if long && boundary() {
            *crate::lock(&self.shared.counted) = (from, end, n);
        }
        n
    }

    /// Calls `f` with the bytes from `from` on, a page at a time, until it returns false.
    fn walk(&self, from: usize, mut f: impl FnMut(usize, &[u8]) -> bool) {
        let p = self.shared.page_bytes;
        let len = self.len();
        let mut at = from;
        while at < len {
            let k = at / p;
            let page = self.page(k);
            let off = at - k * p;
            if off >= page.len() {
                break;
            }
            let end = page.len().min(len - k * p);
            if !f(at, &page[off..end]) {
                return;
            }
            at = k * p + end;
        }
    }

    /// Lines in the readable text (one more than its line breaks).
    pub fn line_count(&self) -> usize {
        self.marks().breaks + 1
    }

    fn cursor(&self) -> std::sync::MutexGuard<'_, (usize, usize)> {
        crate::lock(&self.shared.cursor)
    }

    /// Byte offset of the start of line `i` (the readable length past the last line).
    pub fn line_start(&self, i: usize) -> usize {
        let (b, l) = {
            let m = self.marks();
            if i > m.breaks {
                return self.len();
            }
            let k = m.marks.partition_point(|&(_, l)| l <= i) - 1;
            m.marks[k]
        };
        if i == l {
            return b;
        }
        // The nearer known line start before line `i`: its mark or the last line found.
        let (b, l) = match *self.cursor() {
            (cb, cl) if cl > l && cl <= i => (cb, cl),
            _ => (b, l),
        };
        if i == l {
            return b;
        }
        let mut left = i - l;
        let mut found = None;
        self.walk(b, |at, bytes| {
            for nl in memchr::memchr_iter(b'\n', bytes) {
                left -= 1;
                if left == 0 {
                    found = Some(at + nl + 1);
                    return false;
                }
            }
            true
        });
        match found {
            Some(start) => {
                *self.cursor() = (start, i);
                start
            }
            None => self.len(),
        }
    }

    /// The line holding byte `at` (a line break belongs to the line it ends).
    pub fn line_of(&self, at: usize) -> usize {
        let at = at.min(self.len());
        let (b, l, last) = {
            let m = self.marks();
            // The last line (where the usual question falls: how many lines are there) is
            // known without a walk, however long it is.
            if (m.last_start..=m.end).contains(&at) {
                return m.breaks;
            }
            let k = m.marks.partition_point(|&(b, _)| b <= at) - 1;
            // The line before the next mark ends just before it: once the walk has seen
            // every break but that one, the rest of the way (a line of gigabytes) holds none.
            let last_before_next = m.marks.get(k + 1).map(|&(_, nl)| nl - 1);
            let (b, l) = m.marks[k];
            (b, l, last_before_next.unwrap_or(usize::MAX))
        };
        let (b, l, last) = match *self.cursor() {
            (cb, cl) if cb > b && cb <= at => (cb, cl, last),
            _ => (b, l, last),
        };
        let mut line = l;
        if line >= last {
            return last;
        }
        self.walk(b, |pos, bytes| {
            let end = (at - pos).min(bytes.len());
            line += memchr::memchr_iter(b'\n', &bytes[..end]).count();
            line < last && pos + bytes.len() < at
        });
        line
    }

    /// Byte range of line `i` without its line break (and a `\r` before it).
    pub fn line_range(&self, i: usize) -> Range<usize> {
        self.line_range_within(i, usize::MAX)
    }

    /// Line `i` without its line break as [`PagedText::line_range`], read no further than
    /// `max` bytes from its start: a longer line ends there (what a view of a line of
    /// gigabytes needs, without reading it all).
    pub fn line_range_within(&self, i: usize, max: usize) -> Range<usize> {
        let start = self.line_start(i);
        let limit = start.saturating_add(max).min(self.len());
        let mut end = limit;
        let mut found = false;
        self.walk(start, |at, bytes| {
            let n = bytes.len().min(limit.saturating_sub(at));
            match memchr::memchr(b'\n', &bytes[..n]) {
                Some(nl) => {
                    end = at + nl;
                    found = true;
                    false
                }
                None => at + n < limit,
            }
        });
        // A `\r` before the end of the text goes too, as the text held whole drops it
        // (but not at the limit: that line goes on).
        if (found || end == self.len()) && end > start && self.read_bytes(end - 1..end) == b"\r" {
            end -= 1;
        }
        start..end
    }

    /// Line `i` without its line break.
    pub fn line(&self, i: usize) -> String {
        self.read(self.line_range(i))
    }

    /// Whether the readable text ends with a line break.
    pub fn ends_with_newline(&self) -> bool {
        let len = self.len();
        len > 0 && self.read_bytes(len - 1..len) == b"\n"
    }

    /// The source of merged line `line` (from 0) and its line there (from 1), for a merged
    /// input; `None` for one log or a line not indexed yet.
    pub fn source_of_line(&self, line: usize) -> Option<(usize, u64)> {
        let src = self.shared.sources.as_ref()?;
        let line = line as u64;
        let mut found = None;
        src.walk(line, |start, value, _| {
            let (source, own) = split_value(value);
            found = (start <= line).then(|| (source, own + (line - start)));
            false
        });
        found
    }

    /// The source of each merged line of `lines` (`None` past the lines indexed, or for one
    /// log), read from the runs file in one go.
    pub fn line_sources(&self, lines: Range<usize>) -> Vec<Option<usize>> {
        let mut out = vec![None; lines.len()];
        let Some(src) = self.shared.sources.as_ref() else {
            return out;
        };
        let (from, to) = (lines.start as u64, lines.end as u64);
        src.walk(from, |start, value, n| {
            let (source, _) = split_value(value);
            for i in start.max(from)..(start + n).min(to) {
                out[(i - from) as usize] = Some(source);
            }
            start + n < to
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::small;

    #[test]
    fn line_lookups_in_any_order_agree_with_the_text_held_whole() {
        // Short lines: a mark every 1024 lines, so most lookups walk from the last line found.
        let mut text = String::new();
        for k in 0..30_000u64 {
            text.push_str(&format!("l{}\n", k * 7919 % 1000));
        }
        let (_dir, _, paged) = crate::testing::indexed(&text, &small(4096, 8));
        let buffer = crate::workbench::TextBuffer::new(text.clone());
        let n = paged.line_count();
        // Forwards row by row (a frame), backwards, and jumping about.
        let order: Vec<usize> = (0..n)
            .step_by(3)
            .chain((0..n).rev().step_by(5))
            .chain((0..4000).map(|k| k * 104_729 % n))
            .collect();
        for i in order {
            assert_eq!(
                paged.line_start(i),
                buffer.line_start(i),
                "start of line {i}"
            );
            let at = buffer.line_start(i) + (i % 3);
            assert_eq!(paged.line_of(at), buffer.line_of(at), "line of byte {at}");
        }
    }

    #[test]
    fn a_line_of_megabytes_is_measured_and_counted_without_reading_it_whole() {
        // A line of 3 MB of multi-byte characters (and invalid bytes) between short lines:
        // pieces of 1 MiB split its characters, pages of 4096 bytes split it more.
        let mut bytes = b"short\r\n".to_vec();
        for k in 0..400_000u32 {
            bytes.extend_from_slice(if k % 1000 == 7 {
                b"\xff"
            } else {
                "é€😀".as_bytes()
            });
        }
        bytes.extend_from_slice(b"\r\nlast");
        let (_dir, _, paged) = crate::testing::indexed(&bytes, &small(4096, 8));
        let whole = paged.line_range(1);
        assert_eq!(
            whole,
            7..bytes.len() - 6,
            "the \\r before the break is left out"
        );
        // Read no further than asked: the line ends at the limit.
        assert_eq!(paged.line_range_within(1, 1000), 7..1007);
        assert_eq!(paged.line_range_within(1, usize::MAX), whole);
        assert_eq!(paged.line_range_within(0, 3), 0..3);
        assert_eq!(paged.line_range_within(0, 100), 0..5);
        // A position inside the long line, which is not the last: its line, found without
        // walking the long line (the next mark bounds the walk).
        for at in [7, 100_000, 2_000_000, whole.end, whole.end + 2] {
            let want = bytes[..at].iter().filter(|&&b| b == b'\n').count();
            assert_eq!(paged.line_of(at), want, "line of byte {at}");
        }
        for (a, b) in [
            (7, 9),
            (7, whole.end),
            (8, whole.end - 1),
            (0, bytes.len()),
            (1_048_000, 2_200_001),
            // Longer counts from one start go on from the last (a column asked each frame).
            (7, 1_500_000),
            (7, 2_500_001),
            (7, 2_900_000),
            (7, 1_200_000),
        ] {
            assert_eq!(
                paged.count_chars(a..b),
                paged.read(a..b).chars().count(),
                "{a}..{b}"
            );
        }
    }
}
