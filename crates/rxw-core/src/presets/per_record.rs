//! The registry on records: every preset run on each record's message, as NetVM runs it.
//!
//! NetVM applies its patterns to one agent message at a time: `work_order`'s `^ … $` with
//! `re.MULTILINE | re.DOTALL` spans one message, `result`'s lazy summary stops at the
//! message's end. [`RecordWindows`] reads a log a chunk of whole lines at a time, cuts it into
//! records by the log's format ([`crate::input::format`]), and runs the presets on each
//! message as `re.finditer(pattern, message, flags)` would: anchors at the message, no
//! look-behind before it, nothing past its end. Memory is bounded by the longest record.
//!
//! A hit in a message that is a stretch of the text has its offsets in the text (so a view
//! highlights it where it is); a hit in a decoded message (a JSON string) has its offsets in
//! the message, and is placed at its record's first line.

use super::parse_all::{Hit, HitsOptions, Scanner, Windows};
use crate::engine::Match;
use crate::error::Error;
use crate::input::chunks::{Chunk, Locator, Place};
use crate::input::format::{self, LogFormat, Message};

/// How each message is scanned: from its start, each preset asked first whether it matches
/// at all (most match none of a message; see [`HitsOptions::precheck`]).
fn on_message(captures: bool) -> HitsOptions<'static> {
    HitsOptions {
        captures,
        precheck: true,
        ..HitsOptions::default()
    }
}

/// Where a hit found on records is, and what its offsets index.
#[derive(Debug, Clone, Copy)]
pub struct Found<'t> {
    /// The text the hit's offsets index: the chunk's text, or the decoded message.
    pub text: &'t str,
    /// Where the hit starts (for a decoded message, where its record starts).
    pub place: Place,
    /// Whether the offsets are in a decoded message rather than in the text.
    pub in_message: bool,
    /// Where `text` starts in the whole input, when the offsets are in the text.
    pub offset: usize,
    /// The record's extent in the whole input (its first byte, and past its last line's
    /// text, without the line break).
    pub record: (usize, usize),
}

/// Lines of a source that are no record (JSON lines that are not JSON, or have no message).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skipped {
    /// How many.
    pub lines: u64,
    /// The first one's line in its log, and why it is no record.
    pub first: Option<(u64, &'static str)>,
}

/// Cuts a log read in chunks of whole lines into records: each chunk joined to the record the
/// chunk before left open, the records it settles handed out, the last kept for the next
/// chunk (which may continue it). Memory is bounded by the longest record.
#[derive(Debug, Default)]
pub struct RecordCutter {
    /// The format the user named, else each source's is detected.
    forced: Option<LogFormat>,
    /// Each source's format, once seen.
    formats: Vec<Option<LogFormat>>,
    /// The last record of the chunk before, which the next chunk's lines may continue.
    carry: Option<Chunk>,
    /// Records cut at [`MAX_RECORD`] bytes.
    cut_records: u64,
}

/// The longest record held whole (64 MiB, as the longest line a view reads whole): a longer
/// one is cut there into records of its own, and [`RecordCutter::cut_records`] counts them.
pub const MAX_RECORD: usize = 64 << 20;

impl RecordCutter {
    /// Nothing read yet; `forced` is the format the user named (else detected per log).
    pub fn new(forced: Option<LogFormat>) -> RecordCutter {
        RecordCutter {
            forced,
            ..RecordCutter::default()
        }
    }

    /// The format of each source seen so far (by source index; `None`: not seen yet).
    pub fn formats(&self) -> &[Option<LogFormat>] {
        &self.formats
    }

    /// Bytes of text kept for the next chunk (the record the next lines may continue).
    pub fn held(&self) -> usize {
        self.carry.as_ref().map_or(0, |c| c.text.len())
    }

    /// How many records were cut at [`MAX_RECORD`] bytes.
    pub fn cut_records(&self) -> u64 {
        self.cut_records
    }

    fn format_of(&mut self, source: usize, head: &str) -> LogFormat {
        if self.formats.len() <= source {
            self.formats.resize(source + 1, None);
        }
        let forced = self.forced;
        *self.formats[source]
            .get_or_insert_with(|| forced.unwrap_or_else(|| LogFormat::detect(head)))
    }

    /// Joins `chunk` to the record carried from the chunk before, cuts the text into records,
    /// and keeps the last (which the next chunk may continue) for the next call unless this
    /// is the last chunk. Returns the text and the records settled in it: each one's extent
    /// and format.
    pub fn cut(&mut self, chunk: Chunk) -> (Chunk, Vec<(usize, usize, LogFormat)>) {
        let window = match self.carry.take() {
            Some(mut carry) => {
                carry.append(chunk);
                carry
            }
            None => chunk,
        };
        let text = window.text.as_str();
        // The records of each run of lines from one source.
        let mut extents: Vec<(usize, usize, LogFormat)> = Vec::new();
        // (offset, source) of each run; a chunk of one text (a paged text's) has no runs.
        let runs: Vec<(usize, usize)> = if window.runs.is_empty() {
            vec![(0, 0)]
        } else {
            window.runs.iter().map(|r| (r.offset, r.source)).collect()
        };
        for (k, &(offset, source)) in runs.iter().enumerate() {
            let end = runs.get(k + 1).map_or(text.len(), |r| r.0);
            let head_end = nth_line_end(text, offset, end, 64);
            let fmt = self.format_of(source, &text[offset..head_end]);
            let piece = &text[offset..end];
            let mut push = |s: usize, e: usize| extents.push((offset + s, offset + e, fmt));
            if fmt == LogFormat::Lines {
                // One record per line.
                let mut at = 0;
                while at < piece.len() {
                    let e = memchr::memchr(b'\n', &piece.as_bytes()[at..])
                        .map_or(piece.len(), |i| at + i + 1);
                    push(at, e);
                    at = e;
                }
            } else {
                format::split(piece, fmt, &[0], &mut push);
            }
        }
        // The last record waits for the next chunk, which may continue it; one that has grown
        // past MAX_RECORD (a log of nothing but indented lines) is cut there, and said.
        let open_too_long = extents.last().is_some_and(|&(s, e, _)| e - s > MAX_RECORD);
        if open_too_long && !window.last {
            self.cut_records += 1;
        }
        let settled = if window.last || open_too_long {
            extents.len()
        } else {
            extents.len().saturating_sub(1)
        };
        if !window.last {
            let keep = extents.get(settled).map_or(text.len(), |e| e.0);
            if keep < text.len() {
                self.carry = Some(window.tail(keep));
            }
        }
        extents.truncate(settled);
        (window, extents)
    }
}

/// Runs a scanner's presets on each record of a log read in chunks (see the module
/// documentation).
pub struct RecordWindows<'s, 'c> {
    scanner: &'s Scanner<'c>,
    /// The log cut into records.
    cutter: RecordCutter,
    /// Lines that were no record, per source.
    skipped: Vec<Skipped>,
}

impl<'s, 'c> RecordWindows<'s, 'c> {
    /// Nothing read yet; `forced` is the format the user named (else detected per log).
    pub fn new(scanner: &'s Scanner<'c>, forced: Option<LogFormat>) -> RecordWindows<'s, 'c> {
        RecordWindows {
            scanner,
            cutter: RecordCutter::new(forced),
            skipped: Vec::new(),
        }
    }

    /// The format of each source seen so far (by source index; `None`: not seen yet).
    pub fn formats(&self) -> &[Option<LogFormat>] {
        self.cutter.formats()
    }

    /// The lines of each source that were no record (by source index).
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Counts every preset's hits on the records `chunk` settles (see [`RecordWindows::feed`]),
    /// per preset in the scanner's order: the fastest exact counting programs, the records
    /// shared out among the scanner's threads.
    ///
    /// # Errors
    /// A preset that fails (a budget exhausted).
    pub fn count(&mut self, chunk: Chunk) -> Result<Vec<usize>, Error> {
        let (window, extents) = self.cutter.cut(chunk);
        let text = window.text.as_str();
        let mut messages: Vec<std::borrow::Cow<'_, str>> = Vec::with_capacity(extents.len());
        let mut places = Locator::new(&window);
        for &(start, end, fmt) in &extents {
            match format::record(text, start, end, fmt).message {
                Message::Stretch { text, .. } => messages.push(text.into()),
                Message::Decoded(m) => messages.push(m.into()),
                Message::Invalid(why) => self.skip(places.locate(start), why),
            }
        }
        Ok(self.scanner.count_each(&messages)?)
    }

    fn skip(&mut self, place: Place, why: &'static str) {
        if self.skipped.len() <= place.source {
            self.skipped.resize(place.source + 1, Skipped::default());
        }
        let s = &mut self.skipped[place.source];
        s.lines += 1;
        s.first.get_or_insert((place.line, why));
    }

    /// Scans `chunk` (whole lines, following the chunks fed before) and calls `f` with each
    /// hit of the records it settles, in record order: a record is settled once a line that
    /// begins another follows it, or the input ends.
    ///
    /// # Errors
    /// A preset that fails (a budget exhausted), or `f`'s error.
    pub fn feed<E: From<Error>>(
        &mut self,
        chunk: Chunk,
        captures: bool,
        mut f: impl FnMut(&Hit<'c>, Found<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let (window, extents) = self.cutter.cut(chunk);
        let text = window.text.as_str();
        let mut places = Locator::new(&window);
        for &(start, end, fmt) in &extents {
            let record = format::record(text, start, end, fmt);
            match &record.message {
                Message::Invalid(why) => self.skip(places.locate(start), why),
                Message::Stretch { at, text: message } => {
                    for hit in self.scanner.hits_with(message, on_message(captures)) {
                        let mut hit = hit.map_err(Error::from)?;
                        shift(&mut hit.m, *at);
                        let place = places.locate(hit.m.start());
                        f(
                            &hit,
                            Found {
                                text,
                                place,
                                in_message: false,
                                offset: window.offset,
                                record: extent(&window, start, end),
                            },
                        )?;
                    }
                }
                Message::Decoded(message) => {
                    let mut place = None;
                    for hit in self.scanner.hits_with(message, on_message(captures)) {
                        let hit = hit.map_err(Error::from)?;
                        let place = *place.get_or_insert_with(|| places.locate(start));
                        f(
                            &hit,
                            Found {
                                text: message,
                                place,
                                in_message: true,
                                offset: window.offset,
                                record: extent(&window, start, end),
                            },
                        )?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Bytes of text kept for the next chunk (the record the next lines may continue).
    pub fn held(&self) -> usize {
        self.cutter.held()
    }

    /// How many records were cut at [`MAX_RECORD`] bytes.
    pub fn cut_records(&self) -> u64 {
        self.cutter.cut_records()
    }
}

/// A preset pass over a log read in chunks: on the text as is ([`Windows`]) or on each
/// record's message ([`RecordWindows`]); either way each hit comes with what its offsets
/// index and its place.
pub enum Pass<'s, 'c> {
    /// On the text as is.
    Text(Windows<'s, 'c>),
    /// On each record's message.
    Records(RecordWindows<'s, 'c>),
}

impl<'s, 'c> Pass<'s, 'c> {
    /// A pass on records when `on_records`, else on the text as is.
    pub fn new(scanner: &'s Scanner<'c>, on_records: bool, forced: Option<LogFormat>) -> Self {
        if on_records {
            Pass::Records(RecordWindows::new(scanner, forced))
        } else {
            Pass::Text(Windows::new(scanner))
        }
    }

    /// Scans `chunk` (see [`Windows::feed`] and [`RecordWindows::feed`]).
    ///
    /// # Errors
    /// A preset that fails, or `f`'s error.
    pub fn feed<E: From<Error>>(
        &mut self,
        chunk: Chunk,
        captures: bool,
        mut f: impl FnMut(&Hit<'c>, Found<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        match self {
            Pass::Text(w) => w.feed(chunk, captures, |hit, window, place| {
                f(
                    hit,
                    Found {
                        text: &window.text,
                        place,
                        in_message: false,
                        offset: window.offset,
                        record: (window.offset, window.offset + window.text.len()),
                    },
                )
            }),
            Pass::Records(w) => w.feed(chunk, captures, f),
        }
    }

    /// The record pass, when this is one.
    pub fn records(&self) -> Option<&RecordWindows<'s, 'c>> {
        match self {
            Pass::Records(w) => Some(w),
            Pass::Text(_) => None,
        }
    }
}

/// Whether a log whose first chunk is `chunk` is read as records when no format is named:
/// when any of its logs' first lines detect as a record format.
pub fn detects_records(chunk: &Chunk) -> bool {
    let text = chunk.text.as_str();
    chunk.runs.iter().enumerate().any(|(k, run)| {
        let end = chunk.runs.get(k + 1).map_or(text.len(), |r| r.offset);
        let head_end = nth_line_end(text, run.offset, end, 64);
        LogFormat::detect(&text[run.offset..head_end]).has_records()
    })
}

/// A record's extent `start..end` of `window` in the whole input, without its final line
/// break.
fn extent(window: &Chunk, start: usize, end: usize) -> (usize, usize) {
    let t = &window.text[start..end];
    let t = t.strip_suffix('\n').unwrap_or(t);
    let t = t.strip_suffix('\r').unwrap_or(t);
    (window.offset + start, window.offset + start + t.len())
}

/// Moves a match found in a stretch starting at byte `at` to the text's offsets.
fn shift(m: &mut Match, at: usize) {
    for (s, e) in m.groups.iter_mut().flatten() {
        *s += at;
        *e += at;
    }
}

/// The end of the `n`th line of `text[from..to]` (or `to`).
fn nth_line_end(text: &str, from: usize, to: usize, n: usize) -> usize {
    memchr::memchr_iter(b'\n', &text.as_bytes()[from..to])
        .nth(n.saturating_sub(1))
        .map_or(to, |i| from + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(all: &'a [crate::presets::Entry], key: &str) -> &'a crate::presets::Entry {
        all.iter().find(|e| e.preset.key == key).unwrap()
    }

    type Row = (String, u64, usize, usize, Vec<Option<String>>);

    fn run(text: &str, size: usize, keys: &[&str], forced: Option<LogFormat>) -> Vec<Row> {
        let all = crate::presets::builtin();
        let entries = keys.iter().map(|k| entry(&all, k)).collect();
        let scanner = Scanner::new(entries);
        let mut w = RecordWindows::new(&scanner, forced);
        let mut out = Vec::new();
        for c in Chunk::cut_for_tests(text, size) {
            w.feed(c, true, |hit, found| -> Result<(), Error> {
                let groups = (1..hit.m.groups.len())
                    .map(|k| hit.m.group(found.text, k).map(str::to_string))
                    .collect();
                out.push((
                    hit.entry.preset.key.clone(),
                    found.place.line,
                    found.place.source_offset as usize,
                    found.place.source_offset as usize + hit.m.end() - hit.m.start(),
                    groups,
                ));
                Ok(())
            })
            .unwrap();
        }
        out
    }

    const LOG: &str = "2026-10-05T00:01:53Z harvester: [WO:2d409dd3] [from super] Health sweep — check\n  - step one\n[ACK:2d409dd3] [from harvester]\n2026-10-05T00:04:51Z loopd: [RESULT 8a2b4d98] ERROR collect\n  - collect loop state\n2026-10-05T00:05:57Z super: [WO:d71e9a72] [from super] Триаж — verify\n";

    #[test]
    fn work_order_and_result_end_at_their_record() {
        let whole = run(LOG, usize::MAX, &["work_order", "result"], None);
        let wo: Vec<&Row> = whole.iter().filter(|r| r.0 == "work_order").collect();
        assert_eq!(wo.len(), 2, "{whole:?}");
        assert_eq!(wo[0].1, 1);
        assert_eq!(
            wo[0].4.last().unwrap().as_deref(),
            Some("check\n  - step one")
        );
        // Offsets are the file's: the match is where the message is.
        let start = LOG.find("[WO:2d40").unwrap();
        assert_eq!(wo[0].2, start);
        assert_eq!(&LOG[wo[0].3 - 8..wo[0].3], "step one");
        let result: Vec<&Row> = whole.iter().filter(|r| r.0 == "result").collect();
        assert_eq!(result.len(), 1);
        assert_eq!(result[0].1, 4);
        let summary = result[0].4.iter().flatten().last().unwrap();
        assert!(summary.ends_with("collect loop state"), "{summary:?}");
        // Any chunking gives the same hits.
        for size in [1, 7, 40, 100, 1000] {
            assert_eq!(
                run(LOG, size, &["work_order", "result"], None),
                whole,
                "size {size}"
            );
        }
    }

    #[test]
    fn counting_records_gives_the_hits_listed_whatever_the_chunks() {
        let all = crate::presets::builtin();
        let scanner = Scanner::new(all.iter().collect()).with_threads(2);
        let log = LOG.repeat(300);
        let listed = run(
            &log,
            usize::MAX,
            &all.iter()
                .map(|e| e.preset.key.as_str())
                .collect::<Vec<_>>(),
            None,
        );
        for size in [50, 999, 1 << 20] {
            let mut w = RecordWindows::new(&scanner, None);
            let mut counts = vec![0usize; all.len()];
            for c in Chunk::cut_for_tests(&log, size) {
                for (t, n) in counts.iter_mut().zip(w.count(c).unwrap()) {
                    *t += n;
                }
            }
            for (k, e) in all.iter().enumerate() {
                let want = listed.iter().filter(|r| r.0 == e.preset.key).count();
                assert_eq!(counts[k], want, "{} at size {size}", e.preset.key);
            }
        }
    }

    /// Regression (hostile round): a log of nothing but indented lines is one record; the
    /// carry held all of it. A record is cut at MAX_RECORD bytes and counted.
    #[test]
    fn an_endless_record_is_cut_and_counted() {
        let line = format!("  {}\n", "x".repeat(1 << 16));
        let mut cutter = RecordCutter::new(Some(LogFormat::NetVm));
        let mut settled = 0;
        let mut fed = 0usize;
        for _ in 0..(MAX_RECORD / line.len() * 3) / 64 {
            let text = line.repeat(64);
            let chunk = Chunk::of_one_source(text.clone(), fed, 1, false);
            fed += text.len();
            settled += cutter.cut(chunk).1.len();
            assert!(
                cutter.held() <= MAX_RECORD + text.len(),
                "held {}",
                cutter.held()
            );
        }
        assert!(cutter.cut_records() >= 2, "{}", cutter.cut_records());
        assert!(settled >= 2);
    }

    #[test]
    fn syslog_logfmt_and_user_format_records_give_the_same_hits_whatever_the_chunks() {
        let (_dir, _, user) = crate::input::user_format::written_for_tests(
            "chunky.toml",
            "name = \"chunky\"\nline = '\\d\\d:\\d\\d (?P<sender>\\w+): (?P<message>.*)'\ncontinuation = '[ \\t]'\n",
        );
        let user = LogFormat::User(user);
        let user_log = "00:01 super: [WO:2d409dd3] [from super] Sweep — check\n  - step one\n\t- step two\n00:02 loopd: [RESULT 8a2b4d98] ERROR collect\n  - loop state\n00:03 x: [WO:d71e9a72] [from super] Триаж — verify\n";
        let syslog_log = "<14>Oct 11 22:14:15 box super: [WO:2d409dd3] [from super] Sweep — check\nOct 11 22:14:16 box loopd[9]: [RESULT 8a2b4d98] ERROR collect\n<165>1 - box app - - [a@1 b=\"[WO:ffffffff] [from z] T — b\"] [WO:d71e9a72] [from super] Триаж — verify\n";
        let logfmt_log = "ts=1 msg=\"[WO:2d409dd3] [from super] Sweep — check\\n  - step one\"\nts=2 msg=\"[RESULT 8a2b4d98] ERROR collect\\n  - loop state\"\nts=3 msg=\"[WO:d71e9a72] [from super] Триаж — verify\"\n";
        for (log, format, summary) in [
            (user_log, user, "check\n  - step one\n\t- step two"),
            (syslog_log, LogFormat::Syslog, "check"),
            (logfmt_log, LogFormat::Logfmt, "check\n  - step one"),
        ] {
            let whole = run(log, usize::MAX, &["work_order", "result"], Some(format));
            let wo: Vec<&Row> = whole.iter().filter(|r| r.0 == "work_order").collect();
            assert_eq!(wo.len(), 2, "{format}: {whole:?}");
            assert_eq!(
                wo[0].4.last().unwrap().as_deref(),
                Some(summary),
                "{format}"
            );
            assert_eq!(
                whole.iter().filter(|r| r.0 == "result").count(),
                1,
                "{format}"
            );
            for size in [1, 7, 40, 1000] {
                assert_eq!(
                    run(log, size, &["work_order", "result"], Some(format)),
                    whole,
                    "{format} at size {size}"
                );
            }
            // Detected, too (the user format as one of the user's).
            let detected = crate::input::format::LogFormat::detect_among(log, &[user]);
            assert_eq!(detected, format);
        }
    }

    #[test]
    fn lines_format_runs_on_each_line_and_json_offsets_are_the_message_s() {
        let by_line = run(LOG, usize::MAX, &["work_order"], Some(LogFormat::Lines));
        // The prefix is part of each line's message: no `^\[WO:` at a message start.
        assert!(by_line.is_empty(), "{by_line:?}");
        let json = "{\"ts\":\"2026-10-05T00:01:53Z\",\"agent\":\"h\",\"msg\":\"[WO:2d409dd3] [from super] Sweep — a\\n  - b\"}\nnot json\n{\"msg\":\"[RESULT 8a2b4d98] OK done\"}\n";
        let all = crate::presets::builtin();
        let scanner = Scanner::new(vec![entry(&all, "work_order"), entry(&all, "result")]);
        let mut w = RecordWindows::new(&scanner, None);
        let mut got = Vec::new();
        for c in Chunk::cut_for_tests(json, 30) {
            w.feed(c, true, |hit, found| -> Result<(), Error> {
                assert!(found.in_message);
                got.push((
                    hit.entry.preset.key.clone(),
                    found.place.line,
                    hit.m.start(),
                    hit.m.as_str(found.text).to_string(),
                ));
                Ok(())
            })
            .unwrap();
        }
        assert_eq!(w.formats(), &[Some(LogFormat::JsonLines)]);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].1, 1);
        assert_eq!(got[0].2, 0);
        assert!(got[0].3.ends_with("a\n  - b"));
        assert_eq!(got[1].1, 3);
        assert_eq!(
            w.skipped(),
            &[Skipped {
                lines: 1,
                first: Some((2, "not JSON"))
            }]
        );
    }
}
