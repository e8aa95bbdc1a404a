//! Pulling lines out of a reader with a bounded buffer.

use std::io::{self, Read};
use std::ops::Range;

/// Bytes read at a time.
const BLOCK: usize = 1 << 18;

/// The longest line handed out whole: of a longer line, only its first `MAX_LINE` bytes are
/// handed out (after an error that says so) and the rest is skipped, so that a file without
/// line breaks (a disk image, a 20 GB blob) cannot take all memory.
pub const MAX_LINE: usize = 64 << 20;

/// One line: its bytes (without the `\n`, with any `\r` kept) and whether a `\n` ended it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawLine<'a> {
    /// The bytes before the line feed.
    pub bytes: &'a [u8],
    /// Whether a `\n` ended the line (the last line of a file may lack one).
    pub newline: bool,
}

/// Hands out the lines of a reader one at a time; memory is one block plus the longest line.
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    /// `buf[start..end]` holds bytes read and not yet handed out.
    start: usize,
    end: usize,
    eof: bool,
    /// Offset in the stream of `buf[0]`.
    base: u64,
    /// The longest line handed out whole ([`MAX_LINE`]).
    max_line: usize,
    /// The first bytes of a line over `max_line`, to hand out on the call after its error.
    cut: Option<Range<usize>>,
    /// Whether the rest of a line over `max_line` is still to be skipped.
    skipping: bool,
    /// The stream's name in error messages.
    name: Option<String>,
}

/// Lines handed out: a range of the buffer and whether a line feed ended the last of them;
/// `None` at the end.
type Lines = Option<(Range<usize>, bool)>;

impl<R: Read> LineReader<R> {
    /// Reads `reader` line by line.
    pub fn new(reader: R) -> LineReader<R> {
        LineReader {
            reader,
            buf: vec![0; BLOCK],
            start: 0,
            end: 0,
            eof: false,
            base: 0,
            max_line: MAX_LINE,
            cut: None,
            skipping: false,
            name: None,
        }
    }

    /// The same reader, naming its stream `name` in the error about an overlong line.
    pub fn named(mut self, name: String) -> LineReader<R> {
        self.name = Some(name);
        self
    }

    /// The same reader, handing out lines of at most `max` bytes whole (at least 1).
    pub fn with_max_line(mut self, max: usize) -> LineReader<R> {
        self.max_line = max.max(1);
        self
    }

    /// Hands out the head of an overlong line kept by [`LineReader::cut_line`], or skips the
    /// rest of it; `Some` when the head is due.
    fn after_cut(&mut self) -> io::Result<Option<(Range<usize>, bool)>> {
        if let Some(head) = self.cut.take() {
            return Ok(Some((head, true)));
        }
        while self.skipping {
            if let Some(k) = memchr::memchr(b'\n', &self.buf[self.start..self.end]) {
                self.start += k + 1;
                self.skipping = false;
            } else {
                self.start = self.end;
                if self.eof {
                    self.skipping = false;
                } else {
                    self.fill()?;
                }
            }
        }
        Ok(None)
    }

    /// The buffered line is over `max_line` bytes: keeps its first `max_line` bytes to hand
    /// out next, skips the rest, and says so.
    fn cut_line(&mut self) -> io::Error {
        let at = self.base + self.start as u64;
        self.cut = Some(self.start..self.start + self.max_line);
        self.start += self.max_line;
        self.skipping = true;
        let mib = |n: usize| n as f64 / f64::from(1 << 20);
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}the line at byte {at} is longer than {:.0} MiB, the most rxw reads of one \
                 line: its first {:.0} MiB are read and the rest of it is skipped (is this a \
                 text log?)",
                self.name
                    .as_ref()
                    .map(|n| format!("{n}: "))
                    .unwrap_or_default(),
                mib(self.max_line),
                mib(self.max_line),
            ),
        )
    }

    /// The next line as a range of [`LineReader::get`]'s buffer (valid until the next call),
    /// with whether a `\n` ended it; `None` at the end.
    ///
    /// # Errors
    /// A read error (an interrupted read is retried). The lines before it were handed out;
    /// the bytes after the last line feed come as a last line on the call after the error.
    pub fn next_range(&mut self) -> io::Result<Option<(Range<usize>, bool)>> {
        if let Some(head) = self.after_cut()? {
            return Ok(Some(head));
        }
        let mut searched = self.start;
        loop {
            if let Some(k) = memchr::memchr(b'\n', &self.buf[searched..self.end]) {
                let nl = searched + k;
                return self.up_to(nl, nl - self.start);
            }
            if let Some(answer) = self.without_line_feed() {
                return answer;
            }
            // The bytes searched stay searched when `fill` moves them to the front.
            let done = self.end - self.start;
            self.fill()?;
            searched = self.start + done;
        }
    }

    /// Hands out the buffered lines up to the line feed at `nl`, or cuts the first of them
    /// (`first` bytes long) when it is longer than the limit.
    fn up_to(&mut self, nl: usize, first: usize) -> io::Result<Lines> {
        if first > self.max_line {
            return Err(self.cut_line());
        }
        let lines = self.start..nl;
        self.start = nl + 1;
        Ok(Some((lines, true)))
    }

    /// What to answer when the buffer holds no line feed: the line cut when it is already
    /// longer than the limit, the last line at the end; `None`: read more.
    fn without_line_feed(&mut self) -> Option<io::Result<Lines>> {
        if self.end - self.start > self.max_line {
            return Some(Err(self.cut_line()));
        }
        self.eof.then(|| Ok(self.last_line()))
    }

    /// At the end: the bytes after the last line feed as a last line, once.
    fn last_line(&mut self) -> Option<(Range<usize>, bool)> {
        (self.start < self.end).then(|| {
            let line = self.start..self.end;
            self.start = self.end;
            (line, false)
        })
    }

    /// The complete lines buffered within `max` bytes, at least one (reading more when none
    /// is complete), as one range
    /// of [`LineReader::get`]'s buffer without the last line's `\n`, with whether a `\n`
    /// ended that last line; `None` at the end. For readers that want text, not lines: one
    /// call per block read instead of one per line.
    ///
    /// # Errors
    /// As [`LineReader::next_range`].
    pub fn next_lines(&mut self, max: usize) -> io::Result<Option<(Range<usize>, bool)>> {
        if let Some(head) = self.after_cut()? {
            return Ok(Some(head));
        }
        loop {
            let window = self.end.min(self.start.saturating_add(max.max(1)));
            let last = memchr::memrchr(b'\n', &self.buf[self.start..window])
                .map(|k| self.start + k)
                .or_else(|| memchr::memchr(b'\n', &self.buf[window..self.end]).map(|k| window + k));
            if let Some(nl) = last {
                // A first line over the limit is cut (the block's others are within `max`).
                let first = memchr::memchr(b'\n', &self.buf[self.start..=nl]).unwrap_or(0);
                return self.up_to(nl, first);
            }
            if let Some(answer) = self.without_line_feed() {
                return answer;
            }
            self.fill()?;
        }
    }

    /// Reads more after the unfinished line (moved to the front; the buffer grows for a
    /// line longer than it).
    fn fill(&mut self) -> io::Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.base += self.start as u64;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            self.buf.resize(self.buf.len() * 2, 0);
        }
        match self.reader.read(&mut self.buf[self.end..]) {
            Ok(0) => self.eof = true,
            Ok(n) => self.end += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                // What was read stays, to be handed out as a last (partial) line.
                self.eof = true;
                return Err(e);
            }
        }
        Ok(())
    }

    /// The bytes read and not yet handed out, as a range of [`LineReader::get`]'s buffer:
    /// a reader that wants to look at lines before taking them (the merge, which takes a
    /// run of lines while their stamps go first) reads them here and then
    /// [`LineReader::consume`]s what it took.
    pub fn buffered(&self) -> Range<usize> {
        self.start..self.end
    }

    /// Where the buffered bytes start in the stream.
    pub fn position(&self) -> u64 {
        self.base + self.start as u64
    }

    /// Hands out the first `n` buffered bytes; they stay readable through
    /// [`LineReader::get`] until the next read.
    pub fn consume(&mut self, n: usize) {
        self.start = (self.start + n).min(self.end);
    }

    /// The longest line handed out whole ([`MAX_LINE`] unless set).
    pub fn max_line(&self) -> usize {
        self.max_line
    }

    /// Whether a line over [`LineReader::max_line`] is being cut: its head is still to be
    /// handed out or its rest skipped, by [`LineReader::next_range`].
    pub fn cutting(&self) -> bool {
        self.cut.is_some() || self.skipping
    }

    /// While [`LineReader::cutting`]: the head of the line over the limit when it is due
    /// (as [`LineReader::next_range`] hands it out), else skips the rest of that line, after
    /// which the buffered bytes start at the next line.
    ///
    /// # Errors
    /// A read error while skipping.
    pub fn go_on_after_cut(&mut self) -> io::Result<Option<(Range<usize>, bool)>> {
        self.after_cut()
    }

    /// Whether the reader's end was reached: nothing more will be buffered.
    pub fn at_end(&self) -> bool {
        self.eof
    }

    /// Reads more after the buffered bytes (which move to the front of the buffer; it grows
    /// when they fill it), nothing once at the end.
    ///
    /// # Errors
    /// As [`LineReader::next_range`]: the bytes read before the error stay buffered, and the
    /// reader is at its end.
    pub fn read_more(&mut self) -> io::Result<()> {
        if self.eof {
            return Ok(());
        }
        self.fill()
    }

    /// The bytes of a range [`LineReader::next_range`] returned.
    pub fn get(&self, range: Range<usize>) -> &[u8] {
        &self.buf[range]
    }

    /// The next line, `None` at the end.
    ///
    /// # Errors
    /// As [`LineReader::next_range`].
    pub fn next_line(&mut self) -> io::Result<Option<RawLine<'_>>> {
        Ok(self.next_range()?.map(|(r, newline)| RawLine {
            bytes: &self.buf[r],
            newline,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes a read, then fails when `fail` is set.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
        fail: bool,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.data.is_empty() && self.fail {
                self.fail = false;
                return Err(io::Error::other("broken"));
            }
            let n = out.len().min(self.data.len()).min(self.step);
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn lines(data: &[u8], step: usize, fail: bool) -> (Vec<(Vec<u8>, bool)>, usize) {
        let mut r = LineReader::new(Trickle { data, step, fail });
        let (mut out, mut errors) = (Vec::new(), 0);
        loop {
            match r.next_line() {
                Ok(Some(l)) => out.push((l.bytes.to_vec(), l.newline)),
                Ok(None) => return (out, errors),
                Err(_) => errors += 1,
            }
        }
    }

    #[test]
    fn lines_keep_carriage_returns_and_say_whether_a_newline_ended_them() {
        let (got, _) = lines(b"a\r\n\nlast", 3, false);
        assert_eq!(
            got,
            vec![
                (b"a\r".to_vec(), true),
                (b"".to_vec(), true),
                (b"last".to_vec(), false)
            ]
        );
        assert!(lines(b"", 3, false).0.is_empty());
    }

    #[test]
    fn blocks_of_lines_are_the_lines_joined() {
        let mut data = Vec::new();
        for k in 0..50_000 {
            data.extend_from_slice(format!("line {k}\n").as_bytes());
        }
        data.extend_from_slice(b"last");
        let mut r = LineReader::new(Trickle {
            data: &data,
            step: 70_001,
            fail: false,
        });
        let mut joined = Vec::new();
        let mut blocks = 0;
        while let Some((range, newline)) = r.next_lines(100_000).unwrap() {
            joined.extend_from_slice(r.get(range));
            if newline {
                joined.push(b'\n');
            }
            blocks += 1;
        }
        assert_eq!(joined, data);
        assert!(blocks > 3, "{blocks}");
    }

    /// Every line of a reader with at most `max` bytes a line: `Ok` lines and `Err` messages.
    fn capped(data: &[u8], step: usize, max: usize, blocks: bool) -> Vec<Result<Vec<u8>, String>> {
        let mut r = LineReader::new(Trickle {
            data,
            step,
            fail: false,
        })
        .named("blob".into())
        .with_max_line(max);
        let mut out = Vec::new();
        loop {
            let next = if blocks {
                r.next_lines(1 << 20)
                    .map(|o| o.map(|(range, _)| r.get(range).to_vec()))
            } else {
                r.next_line().map(|o| o.map(|l| l.bytes.to_vec()))
            };
            match next {
                Ok(Some(l)) => out.push(Ok(l)),
                Ok(None) => return out,
                Err(e) => out.push(Err(e.to_string())),
            }
        }
    }

    #[test]
    fn a_line_over_the_limit_is_cut_to_its_head_with_an_error_and_the_next_lines_go_on() {
        let data = b"0123456789\nbb\nabcdefghijklmno";
        for step in [1, 3, 7, 100] {
            for blocks in [false, true] {
                let got = capped(data, step, 4, blocks);
                let lines: Vec<&[u8]> = got
                    .iter()
                    .filter_map(|r| r.as_ref().ok().map(Vec::as_slice))
                    .collect();
                assert_eq!(
                    lines,
                    [&b"0123"[..], b"bb", b"abcd"],
                    "step {step} {blocks}"
                );
                let errors: Vec<&String> = got.iter().filter_map(|r| r.as_ref().err()).collect();
                assert_eq!(errors.len(), 2, "step {step}: {got:?}");
                assert!(
                    errors[0].starts_with("blob: the line at byte 0 is longer than"),
                    "{}",
                    errors[0]
                );
                assert!(errors[1].contains("at byte 14 "), "{}", errors[1]);
                // Each error comes just before the head it announces.
                assert!(got[0].is_err() && got[1] == Ok(b"0123".to_vec()), "{got:?}");
            }
        }
        // A line of exactly the limit is whole, without an error.
        let got = capped(b"abcd\nabcd", 2, 4, false);
        assert_eq!(got, vec![Ok(b"abcd".to_vec()), Ok(b"abcd".to_vec())]);
    }

    #[test]
    fn long_lines_and_a_read_error_part_way() {
        let long = vec![b'x'; BLOCK * 2 + 5];
        let mut data = long.clone();
        data.extend_from_slice(b"\nshort\npart");
        let (got, errors) = lines(&data, 4093, true);
        assert_eq!(errors, 1);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].0, long);
        assert_eq!(got[2], (b"part".to_vec(), false));
    }
}
