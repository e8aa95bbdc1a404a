//! The merged input as text, one chunk of whole lines at a time.
//!
//! Matching needs text, not lines: [`Chunks`] joins the lines [`MergedLines`] hands out into
//! chunks of about a given size that always end at a line break, decoded to UTF-8 (invalid
//! sequences replaced with U+FFFD and counted, as [`super::Text`] does). A pattern whose
//! matches stay inside one line and look at nothing beyond it finds, chunk by chunk, exactly
//! what it finds in the whole text; memory is then one chunk. Any other pattern is given the
//! whole input as one chunk (a size of `usize::MAX`).
//!
//! Lines from different logs are joined with a `\n` even when a log's last line had none, so
//! a merged input is always whole lines. One log is reproduced byte for byte (after UTF-8
//! decoding), so offsets are the ones the whole-file reader gives.
//!
//! Each chunk keeps where each log's run of lines starts, and [`Locator`] turns a byte
//! offset into the source, the line in that source, the line in the merged input and the
//! column.

use super::count_invalid;
use super::logs::MergedLines;
use super::time_filter::TimeFilter;
use crate::error::Error;

/// Where a run of consecutive lines from one source starts in a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Byte offset in the chunk's text.
    pub offset: usize,
    /// The source, an index into [`MergedLines::names`].
    pub source: usize,
    /// The run's first line in its source, from 1.
    pub line: u64,
    /// The run's first line in the merged input, from 1.
    pub merged_line: u64,
    /// Byte offset of the run's first line in its source's own (decoded) text.
    pub source_offset: u64,
}

/// Whole lines of the merged input.
#[derive(Debug, Clone, Default)]
pub struct Chunk {
    /// The lines, decoded.
    pub text: String,
    /// Byte offset of `text` in the whole merged (decoded) input.
    pub offset: usize,
    /// Whether no chunk follows.
    pub last: bool,
    /// The runs of lines from one source, in order; the first starts at offset 0.
    pub runs: Vec<Run>,
    /// The stretches of `text` that are, byte for byte, a plain file's bytes (kept only by
    /// [`Chunks::keeping_in_place`]), in order.
    pub verbatim: Vec<Verbatim>,
}

/// A stretch of a chunk's text that is a source's file's bytes, byte for byte: what need not
/// be copied to be read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verbatim {
    /// Byte offset in the chunk's text.
    pub offset: usize,
    /// Its bytes.
    pub len: usize,
    /// The source, an index into [`MergedLines::names`].
    pub source: usize,
    /// Where it is in the source's file.
    pub at: u64,
}

impl Chunk {
    /// The text to search: the chunk's, less the final line feed when another chunk follows.
    ///
    /// For a pattern that passes
    /// [`crate::workbench::follow::matches_independent_of_other_lines`], this gives exactly
    /// the whole text's matches: none can hold the line feed, one that starts at the end of a
    /// line is found before it as at the end of the text, and the position after it is the
    /// next chunk's first.
    pub fn searchable(&self) -> &str {
        match self.text.strip_suffix('\n') {
            Some(t) if !self.last => t,
            _ => &self.text,
        }
    }

    /// A chunk holding a text given whole (an argument, not a log): one run from line 1.
    pub fn whole(text: String) -> Chunk {
        Chunk::of_one_source(text, 0, 1, true)
    }

    /// A chunk of one source's lines: `text` at byte `offset` of the input (and of the
    /// source), its first line `line`, `last` when no chunk follows.
    pub fn of_one_source(text: String, offset: usize, line: u64, last: bool) -> Chunk {
        Chunk {
            text,
            offset,
            last,
            runs: vec![Run {
                offset: 0,
                source: 0,
                line,
                merged_line: line,
                source_offset: offset as u64,
            }],
            verbatim: Vec::new(),
        }
    }

    /// `text` cut into chunks of one source's lines, each ending at the first line end at or
    /// after `size` bytes (one empty last chunk for an empty text): the pieces the tests of a
    /// scan in chunks feed it.
    #[cfg(test)]
    pub(crate) fn cut_for_tests(text: &str, size: usize) -> Vec<Chunk> {
        let mut out = Vec::new();
        let (mut at, mut line) = (0usize, 1u64);
        while at < text.len() || out.is_empty() {
            let want = (at + size.max(1)).min(text.len());
            let end = memchr::memchr(b'\n', &text.as_bytes()[want..])
                .map_or(text.len(), |k| want + k + 1);
            let piece = &text[at..end];
            out.push(Chunk::of_one_source(
                piece.to_string(),
                at,
                line,
                end == text.len(),
            ));
            line += piece.matches('\n').count() as u64;
            at = end;
        }
        out
    }

    /// The chunk from byte `at` on (moved back to the start of its line): what a scan in
    /// pieces keeps of a chunk to read on with the next one appended ([`Chunk::append`]).
    pub fn tail(&self, at: usize) -> Chunk {
        let at = at.min(self.text.len());
        let at = memchr::memrchr(b'\n', &self.text.as_bytes()[..at]).map_or(0, |k| k + 1);
        if at == 0 {
            return self.clone();
        }
        let place = Locator::new(self).locate(at);
        let k = self.runs.partition_point(|r| r.offset <= at);
        let mut runs = Vec::with_capacity(self.runs.len() - k + 1);
        if let Some(run) = k.checked_sub(1).and_then(|j| self.runs.get(j)) {
            runs.push(Run {
                offset: 0,
                source: run.source,
                line: place.line,
                merged_line: place.merged_line,
                source_offset: run.source_offset + (at - run.offset) as u64,
            });
        }
        runs.extend(self.runs[k..].iter().map(|r| Run {
            offset: r.offset - at,
            ..*r
        }));
        Chunk {
            text: self.text[at..].to_string(),
            offset: self.offset + at,
            last: self.last,
            runs,
            // Only the spill of a merged input reads these, from chunks it did not cut.
            verbatim: Vec::new(),
        }
    }

    /// Appends the chunk that follows this one in the input.
    pub fn append(&mut self, next: Chunk) {
        let shift = self.text.len();
        debug_assert_eq!(self.offset + shift, next.offset);
        for run in next.runs {
            let run = Run {
                offset: run.offset + shift,
                ..run
            };
            let continues = self.runs.last().is_some_and(|r| {
                r.source == run.source && r.line + (run.merged_line - r.merged_line) == run.line
            });
            if !continues {
                self.runs.push(run);
            }
        }
        self.text.push_str(&next.text);
        self.last = next.last;
    }

    /// The byte offsets where a different source's lines begin (the first run's included).
    pub fn source_starts(&self) -> impl Iterator<Item = usize> + '_ {
        self.runs.iter().map(|r| r.offset)
    }
}

/// Turns the merged lines into chunks of about `target` bytes.
pub struct Chunks {
    lines: MergedLines,
    target: usize,
    /// The lines read ahead to know whether a chunk was the last.
    ahead: Option<Ahead>,
    started: bool,
    offset: usize,
    merged_line: u64,
    /// The last line added lacked a `\n` (a separator goes before the next one).
    open_line: bool,
    /// Decoded bytes read so far from each source.
    source_bytes: Vec<u64>,
    /// Invalid UTF-8 sequences replaced, and the decoded offset of the first.
    invalid: Option<(usize, usize)>,
    exhausted: bool,
    /// For each source, whether its stretches of text that are its file's bytes are kept
    /// ([`Chunk::verbatim`]).
    in_place: Vec<bool>,
    /// The time range the lines are kept by, when one is given.
    time: Option<TimeFilter>,
}

/// Lines [`Chunks`] read ahead of a chunk, as [`MergedLines::next_run`] handed them out.
struct Ahead {
    bytes: Vec<u8>,
    newline: bool,
    source: usize,
    line: u64,
    lines: u64,
    at: Option<u64>,
}

impl Chunks {
    /// The whole text of `lines` as one chunk holding at most `cap` bytes, for a reader that
    /// needs it at once, and the reader (for its failures and warning). When more text
    /// follows, the chunk holds what fit and the error says the cap was passed
    /// ([`crate::input::room::too_large_for_memory`]): a decompression bomb is found out at
    /// the cap, never by a failed allocation.
    pub fn whole_within(lines: MergedLines, cap: u64) -> (Chunk, Chunks, Option<Error>) {
        Chunks::whole_of(Chunks::new(lines, 0), cap)
    }

    /// [`Chunks::whole_within`] of chunks already made (a time filter set on them): their
    /// target size is set to `cap`.
    pub fn whole_of(mut chunks: Chunks, cap: u64) -> (Chunk, Chunks, Option<Error>) {
        chunks.target = usize::try_from(cap).unwrap_or(usize::MAX).max(1);
        let chunk = chunks.next_chunk().unwrap_or_default();
        let over = chunks
            .next_chunk()
            .is_some_and(|c| !c.text.is_empty())
            .then(|| crate::input::room::too_large_for_memory("the logs merged", cap));
        (chunk, chunks, over)
    }

    /// Chunks of about `target` bytes (`usize::MAX`: the whole input as one chunk).
    pub fn new(lines: MergedLines, target: usize) -> Chunks {
        Chunks {
            lines,
            target: target.max(1),
            ahead: None,
            started: false,
            offset: 0,
            merged_line: 0,
            open_line: false,
            source_bytes: Vec::new(),
            invalid: None,
            exhausted: false,
            in_place: Vec::new(),
            time: None,
        }
    }

    /// The same chunks holding only the lines whose record's time `filter` keeps
    /// ([`TimeFilter`]); the lines left out are skipped in their logs' line numbers and
    /// offsets, so every line kept is still located where it is in its log.
    pub fn within(mut self, filter: TimeFilter) -> Chunks {
        self.time = (!filter.range().is_all()).then_some(filter);
        self
    }

    /// The time filter, when one was given ([`Chunks::within`]): what it left out.
    pub fn time_filter(&self) -> Option<&TimeFilter> {
        self.time.as_ref()
    }

    /// The same chunks, each keeping the stretches of its text that are a plain file's bytes
    /// ([`Chunk::verbatim`]): what a spill need not copy.
    pub fn keeping_in_place(mut self) -> Chunks {
        self.in_place = self.lines.in_place().iter().map(Option::is_some).collect();
        self
    }

    /// The merged lines' sources and failures.
    pub fn lines(&self) -> &MergedLines {
        &self.lines
    }

    /// Lines in the chunks handed out so far.
    pub fn lines_read(&self) -> u64 {
        self.merged_line
    }

    /// Takes the failures seen so far ([`MergedLines::take_failures`]).
    pub fn take_failures(&mut self) -> Vec<Error> {
        self.lines.take_failures()
    }

    /// The number of invalid UTF-8 sequences replaced so far and the decoded offset of the
    /// first.
    pub fn invalid_utf8(&self) -> Option<(usize, usize)> {
        self.invalid
    }

    /// A one-line notice about invalid UTF-8, when there was any.
    pub fn warning(&self) -> Option<String> {
        self.invalid.map(|(n, first)| {
            format!(
                "input is not valid UTF-8: {n} invalid sequence{} replaced with U+FFFD (first at byte {first}); offsets refer to the decoded text",
                if n == 1 { "" } else { "s" }
            )
        })
    }

    /// The next chunk, `None` after the last. An empty input gives one empty last chunk.
    pub fn next_chunk(&mut self) -> Option<Chunk> {
        if self.started && self.ahead.is_none() {
            return None;
        }
        self.started = true;
        // A chunk of bounded size is allocated once (it overshoots by at most a line).
        let room = if self.target <= 64 << 20 {
            self.target + (64 << 10)
        } else {
            0
        };
        let mut chunk = Chunk {
            offset: self.offset,
            text: String::with_capacity(room),
            ..Chunk::default()
        };
        let mut joiner = Joiner {
            chunk: &mut chunk,
            merged_line: &mut self.merged_line,
            open_line: &mut self.open_line,
            source_bytes: &mut self.source_bytes,
            invalid: &mut self.invalid,
            in_place: &self.in_place,
        };
        if let Some(a) = self.ahead.take() {
            joiner.add_within(
                &mut self.time,
                &a.bytes,
                a.newline,
                (a.source, a.line, a.lines),
                a.at,
            );
        }
        let mut full = joiner.chunk.text.len() >= self.target;
        while !self.exhausted {
            // Runs of lines of one source, not past the chunk's size by more than a line.
            let room = self.target.saturating_sub(joiner.chunk.text.len());
            let Some((l, lines)) = self.lines.next_run(room) else {
                self.exhausted = true;
                break;
            };
            if full {
                // Read ahead only to know whether this chunk is the last.
                self.ahead = Some(Ahead {
                    bytes: l.bytes.to_vec(),
                    newline: l.newline,
                    source: l.source,
                    line: l.line,
                    lines,
                    at: l.at,
                });
                break;
            }
            joiner.add_within(
                &mut self.time,
                l.bytes,
                l.newline,
                (l.source, l.line, lines),
                l.at,
            );
            full = joiner.chunk.text.len() >= self.target;
        }
        chunk.last = self.ahead.is_none();
        self.offset += chunk.text.len();
        Some(chunk)
    }
}

/// [`Chunks`] read on a thread of their own, up to a few chunks ahead of their reader: the
/// merge (with the decoder threads behind it) runs beside the matching of the chunks already
/// handed out, instead of taking turns with it.
pub struct ChunksAhead {
    received: Option<std::sync::mpsc::Receiver<(Chunk, u64)>>,
    thread: Option<std::thread::JoinHandle<Option<Chunks>>>,
    /// The chunks read here: when no thread could be started, and once the thread ended.
    here: Option<Chunks>,
    /// Failures the thread met, taken as they come (a chunk may still be on its way).
    failures: std::sync::Arc<std::sync::Mutex<Vec<Error>>>,
    /// Merged lines in the chunks handed out so far.
    lines_read: u64,
}

impl ChunksAhead {
    /// Starts reading `chunks` on a thread, at most `depth` chunks ahead (read here, one at
    /// a time, when no thread can be started). A `background` thread runs at the lower
    /// priority of background work ([`crate::priority`]).
    pub fn start(chunks: Chunks, depth: usize, background: bool) -> ChunksAhead {
        let (send, received) = std::sync::mpsc::sync_channel(depth.max(1));
        let (give, take) = std::sync::mpsc::channel::<Chunks>();
        let failures = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let met = std::sync::Arc::clone(&failures);
        let spawned = std::thread::Builder::new()
            .name("rxw-chunks".into())
            .spawn(move || {
                if background {
                    crate::priority::lower_this_thread();
                }
                let mut chunks = take.recv().ok()?;
                while let Some(chunk) = chunks.next_chunk() {
                    let found = chunks.take_failures();
                    if !found.is_empty() {
                        met.lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .extend(found);
                    }
                    // A reader that stopped early (a match limit) ends the thread.
                    if send.send((chunk, chunks.lines_read())).is_err() {
                        break;
                    }
                }
                Some(chunks)
            });
        let here = |chunks| ChunksAhead {
            received: None,
            thread: None,
            here: Some(chunks),
            failures: std::sync::Arc::default(),
            lines_read: 0,
        };
        match spawned {
            Ok(thread) => match give.send(chunks) {
                Ok(()) => ChunksAhead {
                    received: Some(received),
                    thread: Some(thread),
                    here: None,
                    failures,
                    lines_read: 0,
                },
                Err(back) => here(back.0),
            },
            Err(_) => here(chunks),
        }
    }

    /// The next chunk, `None` after the last.
    pub fn next_chunk(&mut self) -> Option<Chunk> {
        if let Some(r) = &self.received {
            if let Ok((chunk, lines)) = r.recv() {
                self.lines_read = lines;
                return Some(chunk);
            }
            self.stop();
            return None;
        }
        let chunks = self.here.as_mut()?;
        let chunk = chunks.next_chunk();
        self.lines_read = chunks.lines_read();
        chunk
    }

    /// Merged lines in the chunks handed out so far ([`Chunks::lines_read`]).
    pub fn lines_read(&self) -> u64 {
        self.lines_read
    }

    /// Takes the failures met so far ([`Chunks::take_failures`]): those of the chunks handed
    /// out, and of at most the few read ahead of them.
    pub fn take_failures(&mut self) -> Vec<Error> {
        let mut out = std::mem::take(
            &mut *self
                .failures
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        if let Some(chunks) = self.here.as_mut() {
            out.extend(chunks.take_failures());
        }
        out
    }

    /// Stops reading ahead and gives back the chunks' reader, for its warning. Its failures
    /// are [`ChunksAhead::take_failures`]'s.
    pub fn finish(&mut self) -> Option<&mut Chunks> {
        self.stop();
        self.here.as_mut()
    }

    fn stop(&mut self) {
        // Dropping the receiver ends a thread waiting to hand out a chunk.
        self.received = None;
        if let Some(thread) = self.thread.take() {
            self.here = thread.join().ok().flatten();
        }
    }
}

/// Appends lines to a chunk.
struct Joiner<'a> {
    chunk: &'a mut Chunk,
    merged_line: &'a mut u64,
    open_line: &'a mut bool,
    source_bytes: &'a mut Vec<u64>,
    invalid: &'a mut Option<(usize, usize)>,
    in_place: &'a [bool],
}

impl Joiner<'_> {
    /// [`Joiner::add`] of the lines `time` keeps (all of them without a filter): each
    /// stretch of consecutive kept lines added as one, the bytes of the lines left out
    /// counted in their source's offsets.
    fn add_within(
        &mut self,
        time: &mut Option<TimeFilter>,
        bytes: &[u8],
        newline: bool,
        (source, line, lines): (usize, u64, u64),
        at: Option<u64>,
    ) {
        let Some(filter) = time else {
            self.add(bytes, newline, (source, line, lines), at);
            return;
        };
        // (start, end) of the kept stretch being gathered, its first line and line count.
        let mut stretch: Option<(usize, usize, u64, u64)> = None;
        let mut start = 0;
        let mut number = line;
        let flush = |joiner: &mut Self, stretch: (usize, usize, u64, u64), newline: bool| {
            let (s, e, first, n) = stretch;
            joiner.add(
                &bytes[s..e],
                newline,
                (source, first, n),
                at.map(|a| a + s as u64),
            );
        };
        while start <= bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |k| start + k);
            let is_last = end == bytes.len();
            let has_break = !is_last || newline;
            if filter.keep(source, &bytes[start..end]) {
                stretch = Some(match stretch {
                    Some((s, _, first, n)) => (s, end, first, n + 1),
                    None => (start, end, number, 1),
                });
            } else {
                if let Some(st) = stretch.take() {
                    flush(self, st, true);
                }
                if self.source_bytes.len() <= source {
                    self.source_bytes.resize(source + 1, 0);
                }
                let decoded = match super::as_text(&bytes[start..end]) {
                    Some(s) => s.len(),
                    None => String::from_utf8_lossy(&bytes[start..end]).len(),
                };
                self.source_bytes[source] += (decoded + usize::from(has_break)) as u64;
            }
            number += 1;
            if is_last {
                break;
            }
            start = end + 1;
        }
        debug_assert_eq!(number - line, lines);
        if let Some(st) = stretch {
            flush(self, st, newline);
        }
    }

    /// Appends `lines` lines of `source` from its line `line` on: `bytes` with a `\n`
    /// between them, then one when `newline`. `at` is where `bytes` start in the source's
    /// stream, when they (and their `\n`) are its bytes there.
    fn add(
        &mut self,
        bytes: &[u8],
        newline: bool,
        (source, line, lines): (usize, u64, u64),
        at: Option<u64>,
    ) {
        let chunk = &mut *self.chunk;
        if *self.open_line {
            chunk.text.push('\n');
        }
        let merged_line = *self.merged_line + 1;
        *self.merged_line += lines;
        let continues = chunk
            .runs
            .last()
            .is_some_and(|r| r.source == source && r.line + (merged_line - r.merged_line) == line);
        if self.source_bytes.len() <= source {
            self.source_bytes.resize(source + 1, 0);
        }
        if !continues {
            chunk.runs.push(Run {
                offset: chunk.text.len(),
                source,
                line,
                merged_line,
                source_offset: self.source_bytes[source],
            });
        }
        let before = chunk.text.len();
        let valid = match super::as_text(bytes) {
            Some(s) => {
                chunk.text.push_str(s);
                true
            }
            None => {
                let decoded = String::from_utf8_lossy(bytes);
                let at = chunk.offset + chunk.text.len();
                let n = count_invalid(bytes);
                let first = at + decoded.find('\u{FFFD}').unwrap_or(0);
                *self.invalid = Some(match *self.invalid {
                    Some((k, f)) => (k + n, f),
                    None => (n, first),
                });
                chunk.text.push_str(&decoded);
                false
            }
        };
        if newline {
            chunk.text.push('\n');
        }
        if let Some(at) = at
            && valid
            && self.in_place.get(source) == Some(&true)
        {
            // The text just added is the file's bytes: one stretch with the one before when
            // it follows it in the text and in the file.
            let len = chunk.text.len() - before;
            match chunk.verbatim.last_mut() {
                Some(v)
                    if v.source == source
                        && v.offset + v.len == before
                        && v.at + v.len as u64 == at =>
                {
                    v.len += len;
                }
                _ => chunk.verbatim.push(Verbatim {
                    offset: before,
                    len,
                    source,
                    at,
                }),
            }
        }
        self.source_bytes[source] += (chunk.text.len() - before) as u64;
        *self.open_line = !newline;
    }
}

/// Where a byte offset of a chunk is: its source, its line there and in the merged input,
/// and its column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The source, an index into [`MergedLines::names`].
    pub source: usize,
    /// The line in its source, from 1.
    pub line: u64,
    /// The line in the merged input, from 1.
    pub merged_line: u64,
    /// The column in characters, from 1.
    pub column: usize,
    /// The byte offset in its source's own (decoded) text.
    pub source_offset: u64,
}

/// Places byte offsets of one chunk visited in increasing order.
pub struct Locator<'c> {
    chunk: &'c Chunk,
    run: usize,
    pos: usize,
    /// Lines past the run's first line at `pos`.
    lines_in: u64,
    line_start: usize,
}

impl<'c> Locator<'c> {
    /// Starts at the chunk's beginning.
    pub fn new(chunk: &'c Chunk) -> Locator<'c> {
        Locator {
            chunk,
            run: 0,
            pos: 0,
            lines_in: 0,
            line_start: 0,
        }
    }

    /// The place of `offset` (a byte offset in the chunk's text, on a character boundary);
    /// offsets must not decrease between calls.
    pub fn locate(&mut self, offset: usize) -> Place {
        let runs = &self.chunk.runs;
        if offset < self.pos {
            *self = Locator::new(self.chunk);
        }
        while self.run + 1 < runs.len() && runs[self.run + 1].offset <= offset {
            self.run += 1;
            self.pos = runs[self.run].offset;
            self.line_start = self.pos;
            self.lines_in = 0;
        }
        let bytes = self.chunk.text.as_bytes();
        for nl in memchr::memchr_iter(b'\n', &bytes[self.pos..offset]) {
            self.lines_in += 1;
            self.line_start = self.pos + nl + 1;
        }
        self.pos = offset;
        let Some(run) = runs.get(self.run) else {
            return Place {
                source: 0,
                line: 1,
                merged_line: 1,
                column: 1,
                source_offset: offset as u64,
            };
        };
        Place {
            source: run.source,
            line: run.line + self.lines_in,
            merged_line: run.merged_line + self.lines_in,
            column: self.chunk.text[self.line_start..offset].chars().count() + 1,
            source_offset: run.source_offset + (offset - run.offset) as u64,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::input::logs::Origin;

    /// `lines` lines stamped a second apart from 2026-10-05T00:00:00Z, line `k` saying
    /// `body(k)` after its stamp.
    pub(crate) fn stamped(lines: usize, body: impl Fn(usize) -> String) -> String {
        (0..lines)
            .map(|k| {
                let (m, s) = (k / 60 % 60, k % 60);
                format!("2026-10-05T00:{m:02}:{s:02}Z {}\n", body(k))
            })
            .collect()
    }

    fn chunks_of(origins: &[Origin], target: usize) -> Vec<Chunk> {
        let mut c = Chunks::new(MergedLines::open(origins).unwrap(), target);
        let mut out = Vec::new();
        while let Some(ch) = c.next_chunk() {
            out.push(ch);
        }
        out
    }

    #[test]
    fn one_log_in_chunks_is_the_file_and_places_name_source_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.log");
        let mut text = String::new();
        for k in 0..500 {
            text.push_str(&format!("line {k} é\r\n"));
        }
        text.push_str("no newline at the end");
        std::fs::write(&p, &text).unwrap();
        let origins = [Origin::Path(p)];
        let whole = chunks_of(&origins, usize::MAX);
        assert_eq!(whole.len(), 1);
        assert!(whole[0].last);
        assert_eq!(whole[0].text, text);
        let parts = chunks_of(&origins, 1000);
        assert!(parts.len() > 5);
        assert!(
            parts
                .iter()
                .rev()
                .skip(1)
                .all(|c| !c.last && c.text.ends_with('\n'))
        );
        assert!(parts.last().unwrap().last);
        let joined: String = parts.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(joined, text);
        // Offsets add up, and places count lines across chunks.
        let third = &parts[2];
        assert_eq!(third.offset, parts[0].text.len() + parts[1].text.len());
        let at = third.text.find("line").unwrap();
        let place = Locator::new(third).locate(at + 5);
        let k: u64 = third.text[at + 5..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            (place.line, place.merged_line, place.column),
            (k + 1, k + 1, 6)
        );
    }

    #[test]
    fn chunks_read_ahead_on_a_thread_are_the_chunks_read_in_place() {
        let plain = stamped(20_000, |k| format!("a{k}"));
        let other = stamped(20_000, |k| format!("b{k}"));
        // The compressed log is cut: its failure is given back once reading ends.
        let gz = crate::input::codec::tests::compress(
            crate::input::codec::Codec::Gzip,
            other.as_bytes(),
        );
        let (_dir, origins) = crate::testing::plain_and_gz(&plain, &gz[..gz.len() / 2]);
        let want = chunks_of(&origins, 10_000);
        let mut ahead = ChunksAhead::start(
            Chunks::new(MergedLines::open(&origins).unwrap(), 10_000),
            2,
            true,
        );
        // The lines read are those of the chunks handed out, not of those read ahead.
        let mut in_place = Chunks::new(MergedLines::open(&origins).unwrap(), 10_000);
        let mut lines = Vec::new();
        while in_place.next_chunk().is_some() {
            lines.push(in_place.lines_read());
        }
        let mut got = Vec::new();
        while let Some(c) = ahead.next_chunk() {
            assert_eq!(Some(&ahead.lines_read()), lines.get(got.len()));
            got.push(c);
        }
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(
                (&g.text, g.offset, g.last, &g.runs),
                (&w.text, w.offset, w.last, &w.runs)
            );
        }
        let mut failures = ahead.take_failures();
        failures.extend(ahead.finish().unwrap().take_failures());
        assert_eq!(failures.len(), 1);
        assert!(
            failures[0].message.contains("b.log.gz"),
            "{}",
            failures[0].message
        );
        // A reader that stops early ends the thread and still gets the reader back.
        let mut early = ChunksAhead::start(
            Chunks::new(MergedLines::open(&origins).unwrap(), 1000),
            1,
            false,
        );
        assert!(early.next_chunk().is_some());
        assert!(early.finish().is_some());
    }

    #[test]
    fn merged_lines_are_separated_and_placed_in_their_sources() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.log");
        let b = dir.path().join("b.log");
        std::fs::write(&a, "2026-10-05T00:00:01Z a1\n2026-10-05T00:00:03Z a2").unwrap();
        std::fs::write(&b, b"2026-10-05T00:00:02Z b1\n\xff trace\n").unwrap();
        let mut c = Chunks::new(
            MergedLines::open(&[Origin::Path(a), Origin::Path(b)]).unwrap(),
            usize::MAX,
        );
        let chunk = c.next_chunk().unwrap();
        assert_eq!(
            chunk.text,
            "2026-10-05T00:00:01Z a1\n2026-10-05T00:00:02Z b1\n\u{FFFD} trace\n2026-10-05T00:00:03Z a2"
        );
        assert_eq!(c.invalid_utf8(), Some((1, 48)));
        let mut loc = Locator::new(&chunk);
        let place = |loc: &mut Locator, needle: &str| {
            let p = loc.locate(chunk.text.find(needle).unwrap());
            (p.source, p.line, p.merged_line, p.column)
        };
        assert_eq!(place(&mut loc, "a1"), (0, 1, 1, 22));
        assert_eq!(place(&mut loc, "b1"), (1, 1, 2, 22));
        assert_eq!(place(&mut loc, "trace"), (1, 2, 3, 3));
        assert_eq!(place(&mut loc, "a2"), (0, 2, 4, 22));
        assert!(c.next_chunk().is_none());
    }

    /// Every match of `re` over the chunks of `path`, as whole-text offsets.
    fn chunked_matches(
        re: &crate::Regex,
        path: &std::path::Path,
        target: usize,
    ) -> Vec<(usize, usize)> {
        let mut c = Chunks::new(
            MergedLines::open(&[Origin::Path(path.into())]).unwrap(),
            target,
        );
        let mut out = Vec::new();
        while let Some(chunk) = c.next_chunk() {
            for m in re.matches(chunk.searchable(), crate::MatchOptions::default()) {
                let m = m.unwrap();
                out.push((chunk.offset + m.start(), chunk.offset + m.end()));
            }
        }
        out
    }

    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn line_local_patterns_find_in_chunks_exactly_the_whole_texts_matches() {
        use crate::workbench::follow::matches_independent_of_other_lines;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.log");
        let mut text = String::new();
        for k in 0..3000 {
            text.push_str(&format!(
                "2026-10-05T00:00:{:02}Z w{k} [CLAIM j{k}] é\n",
                k % 60
            ));
            if k % 7 == 0 {
                text.push('\n');
            }
        }
        text.push_str("end without newline");
        std::fs::write(&p, &text).unwrap();
        let flavors = [
            crate::Flavor::Rust,
            crate::Flavor::PYTHON,
            crate::Flavor::JS,
        ];
        for pattern in [
            r"\[CLAIM \w+\]",
            "x*",
            "(?m)^",
            "(?m)$",
            r"\b",
            r"é?",
            r"(?m)^$",
            r"\d+(?=\])",
        ] {
            for flavor in flavors {
                let Ok(re) = crate::Regex::new(pattern, flavor, crate::Flags::default()) else {
                    continue;
                };
                assert!(matches_independent_of_other_lines(&re), "{pattern}");
                let whole: Vec<(usize, usize)> = re
                    .matches(&text, crate::MatchOptions::default())
                    .map(|m| m.map(|m| (m.start(), m.end())).unwrap())
                    .collect();
                for target in [1, 97, 4096] {
                    assert_eq!(
                        chunked_matches(&re, &p, target),
                        whole,
                        "{pattern} ({flavor:?}) in chunks of {target}"
                    );
                }
            }
        }
    }
}
