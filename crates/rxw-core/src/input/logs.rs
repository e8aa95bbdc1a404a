//! Many logs read as one: sources named on the command line, merged line by line by time.
//!
//! [`expand`] turns arguments into sources: a file, every file of a directory (not hidden,
//! not recursing, in name order), a glob the shell left unexpanded (`'logs/*.gz'`), or `-`
//! for standard input. [`MergedLines`] then reads them all at once, each decoded by its
//! magic bytes ([`super::codec`]), and hands out one line at a time with the source it came
//! from and its line number there.
//!
//! The order is a stable k-way merge on each line's leading timestamp
//! ([`crate::input::timestamp::leading`]):
//! - a line without a stamp stays with the stamped line before it in its own log (a stack
//!   trace stays under its error line); lines before a log's first stamp go with that stamp;
//! - equal stamps keep the order the logs were named in, and a log's own order is never
//!   changed (a clock that went backwards inside one log is kept as written);
//! - a log without any stamp comes after every stamped line, whole and in order, logs
//!   without stamps in the order they were named.
//!
//! One log is passed through untouched. With several, each holds one block and one pending
//! line, so memory does not grow with the logs. To know where its leading unstamped lines go,
//! a file is first read up to its first stamp and opened again (a log without any stamp is
//! thus decoded twice); standard input, which cannot be read twice, holds its lines up to
//! its first stamp in memory.
//!
//! A source that fails part way (a truncated archive, a file cut under the read) ends there:
//! every line decoded before the failure is handed out, the others logs go on, and the
//! failure is kept in [`MergedLines::failures`] for the caller to report.

use super::codec::{self, Decoded};
use super::lines::LineReader;
use crate::error::{Error, ErrorKind};
use crate::input::timestamp;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Where a source's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A file.
    Path(PathBuf),
    /// Standard input.
    Stdin,
}

impl Origin {
    /// The name shown for the source: the path as given, or `-` for standard input.
    pub fn name(&self) -> String {
        match self {
            Origin::Path(p) => p.display().to_string(),
            Origin::Stdin => "-".to_string(),
        }
    }
}

fn io_error(message: String) -> Error {
    Error::new(ErrorKind::Io, message)
}

/// The sources the arguments name, in the order named: files as they are, a directory's
/// files in name order (hidden ones skipped, subdirectories not entered), a pattern with
/// `*`, `?` or `[` that names no file expanded as a glob (sorted), `-` as standard input.
///
/// # Errors
/// [`ErrorKind::Io`] for a path that does not exist, a glob that matches nothing, an
/// unreadable or empty directory, or `-` named twice.
pub fn expand(args: &[PathBuf]) -> Result<Vec<Origin>, Error> {
    let mut out = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            if out.contains(&Origin::Stdin) {
                return Err(io_error(
                    "standard input (`-`) can be read only once".to_string(),
                ));
            }
            out.push(Origin::Stdin);
            continue;
        }
        if arg.is_dir() {
            let rd =
                std::fs::read_dir(arg).map_err(|e| io_error(format!("{}: {e}", arg.display())))?;
            let mut files: Vec<PathBuf> = rd
                .filter_map(Result::ok)
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect();
            if files.is_empty() {
                return Err(io_error(format!(
                    "{}: no file in the directory",
                    arg.display()
                )));
            }
            files.sort();
            out.extend(files.into_iter().map(Origin::Path));
            continue;
        }
        let text = arg.to_string_lossy();
        if !arg.exists() && text.contains(['*', '?', '[']) {
            let paths = glob::glob(&text)
                .map_err(|e| io_error(format!("{text}: not a valid glob: {e}")))?;
            let mut files: Vec<PathBuf> = paths
                .filter_map(Result::ok)
                .filter(|p| p.is_file())
                .collect();
            if files.is_empty() {
                return Err(io_error(format!("{text}: no file matches")));
            }
            files.sort();
            out.extend(files.into_iter().map(Origin::Path));
            continue;
        }
        // Missing files are said when opened, with the system's words.
        out.push(Origin::Path(arg.clone()));
    }
    Ok(out)
}

/// Opens a source, decoded by its magic bytes.
///
/// # Errors
/// [`ErrorKind::Io`] naming the source when it cannot be opened or is a directory.
pub fn open(origin: &Origin) -> Result<Decoded, Error> {
    match origin {
        Origin::Path(p) => codec::open(p),
        Origin::Stdin => codec::decode(io::stdin(), None, Path::new("standard input")),
    }
    .map_err(|e| io_error(e.to_string()))
}

/// One line of the merged input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogLine<'a> {
    /// The bytes before the line feed (a `\r` is kept).
    pub bytes: &'a [u8],
    /// Whether a `\n` ended the line in its log.
    pub newline: bool,
    /// Which source, an index into [`MergedLines::names`].
    pub source: usize,
    /// The line's number in its own source, from 1.
    pub line: u64,
}

/// One source being read.
struct Stream {
    reader: LineReader<Box<dyn Read + Send>>,
    /// How far into its file the source was read, shared with [`MergedLines::progress`].
    progress: SourceProgress,
    /// Lines to hand out before the reader's (standard input's lines up to its first stamp).
    held: VecDeque<(Vec<u8>, bool)>,
    /// The next line, read and not yet handed out (copied when another source went first).
    pending: Option<(Vec<u8>, bool)>,
    /// The stamp of the group `pending` starts; `None` for a log without stamps.
    key: Option<i64>,
    /// Lines handed out.
    line: u64,
    done: bool,
}

/// What [`Stream::read`] found.
enum Read1 {
    Line(std::ops::Range<usize>, bool),
    Held(Vec<u8>, bool),
    End,
}

impl Stream {
    fn read(&mut self, failures: &mut Vec<Error>) -> Read1 {
        if let Some((bytes, nl)) = self.held.pop_front() {
            return Read1::Held(bytes, nl);
        }
        loop {
            match self.reader.next_range() {
                Ok(Some((r, nl))) => return Read1::Line(r, nl),
                Ok(None) => return Read1::End,
                Err(e) => failures.push(io_error(e.to_string())),
            }
        }
    }
}

/// How far one source has been read: its file's bytes consumed (compressed bytes for an
/// archive) against its size when opened.
#[derive(Debug, Clone)]
pub struct SourceProgress {
    consumed: std::sync::Arc<std::sync::atomic::AtomicU64>,
    size: Option<u64>,
}

impl SourceProgress {
    /// A handle on `consumed` bytes of a file of `size`.
    pub fn new(
        consumed: std::sync::Arc<std::sync::atomic::AtomicU64>,
        size: Option<u64>,
    ) -> SourceProgress {
        SourceProgress { consumed, size }
    }

    fn of(decoded: &Decoded) -> SourceProgress {
        SourceProgress {
            consumed: decoded.consumed_handle(),
            size: decoded.size_at_open(),
        }
    }

    /// The file's bytes consumed so far.
    pub fn consumed(&self) -> u64 {
        self.consumed.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The file's size when opened (unknown for standard input).
    pub fn size(&self) -> Option<u64> {
        self.size
    }
}

/// The lines of several logs merged by time (see the module documentation).
pub struct MergedLines {
    names: Vec<String>,
    streams: Vec<Stream>,
    /// The source whose stamped group is being handed out.
    current: Option<usize>,
    /// The line handed out last when it was copied out of its reader.
    scratch: Vec<u8>,
    failures: Vec<Error>,
    merging: bool,
}

impl MergedLines {
    /// Opens every source. A single source is read as it is, without looking at stamps.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming a source that cannot be opened.
    pub fn open(origins: &[Origin]) -> Result<MergedLines, Error> {
        let merging = origins.len() > 1;
        let mut streams = Vec::with_capacity(origins.len());
        let mut failures = Vec::new();
        for origin in origins {
            let mut held = VecDeque::new();
            let key = if !merging {
                None
            } else if *origin == Origin::Stdin {
                // Read once: hold the lines up to the first stamp.
                let decoded = open(origin)?;
                let progress = SourceProgress::of(&decoded);
                let mut reader =
                    LineReader::new(Box::new(decoded) as Box<dyn Read + Send>).named(origin.name());
                let mut key = None;
                loop {
                    match reader.next_line() {
                        Ok(Some(l)) => {
                            held.push_back((l.bytes.to_vec(), l.newline));
                            if let Some(s) = timestamp::leading(l.bytes) {
                                key = Some(s.millis);
                                break;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => failures.push(io_error(e.to_string())),
                    }
                }
                streams.push(Stream {
                    reader,
                    progress,
                    held,
                    pending: None,
                    key,
                    line: 0,
                    done: false,
                });
                continue;
            } else {
                first_stamp(origin)?
            };
            let decoded = open(origin)?;
            let progress = SourceProgress::of(&decoded);
            streams.push(Stream {
                reader: LineReader::new(Box::new(decoded) as Box<dyn Read + Send>)
                    .named(origin.name()),
                progress,
                held,
                pending: None,
                key,
                line: 0,
                done: false,
            });
        }
        let mut merged = MergedLines {
            names: origins.iter().map(Origin::name).collect(),
            streams,
            current: None,
            scratch: Vec::new(),
            failures,
            merging,
        };
        // Every source's first line is read ahead, so the first pick sees them all.
        if merging {
            for s in 0..merged.streams.len() {
                merged.read_ahead(s);
            }
        }
        Ok(merged)
    }

    /// How far each source has been read, in the order given: handles that stay readable
    /// from another thread while these lines are read on this one.
    pub fn progress(&self) -> Vec<SourceProgress> {
        self.streams.iter().map(|s| s.progress.clone()).collect()
    }

    /// The sources' names, in the order given ([`Origin::name`]).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Sources that failed part way (truncated or corrupt archives, files cut under the
    /// read): each error names its source and where it broke.
    pub fn failures(&self) -> &[Error] {
        &self.failures
    }

    /// Takes the failures seen so far.
    pub fn take_failures(&mut self) -> Vec<Error> {
        std::mem::take(&mut self.failures)
    }

    /// Reads source `s`'s next line into its `pending` slot (or marks it done).
    fn read_ahead(&mut self, s: usize) {
        let stream = &mut self.streams[s];
        match stream.read(&mut self.failures) {
            Read1::Line(r, nl) => {
                let bytes = stream.reader.get(r).to_vec();
                stream.pending = Some((bytes, nl));
            }
            Read1::Held(bytes, nl) => stream.pending = Some((bytes, nl)),
            Read1::End => stream.done = true,
        }
    }

    /// The source whose pending group goes next: the smallest stamp, the first named on a
    /// tie; logs without stamps last, in order.
    fn pick(&self) -> Option<usize> {
        self.streams
            .iter()
            .enumerate()
            .filter(|(_, st)| st.pending.is_some())
            .min_by_key(|(k, st)| (st.key.is_none(), st.key.unwrap_or(0), *k))
            .map(|(k, _)| k)
    }

    /// Whether source `s`, whose next group starts at `key`, still goes before every other.
    fn still_first(&self, s: usize, key: i64) -> bool {
        self.streams.iter().enumerate().all(|(k, st)| {
            k == s
                || st.pending.is_none()
                || match st.key {
                    None => true,
                    Some(other) => (key, s) < (other, k),
                }
        })
    }

    /// Whether there is one source, read as it is.
    pub fn single(&self) -> bool {
        !self.merging
    }

    /// For one source ([`MergedLines::single`]): the complete lines buffered within `max`
    /// bytes, at least one,
    /// as one [`LogLine`] whose bytes hold them all (`\n` between them, the last's left out
    /// as for a line) and whose `line` is the first's; with the number of lines. `None` at
    /// the end, or with several sources.
    pub fn next_lines(&mut self, max: usize) -> Option<(LogLine<'_>, u64)> {
        if self.merging {
            return None;
        }
        let stream = self.streams.first_mut()?;
        loop {
            match stream.reader.next_lines(max) {
                Ok(Some((range, newline))) => {
                    let first = stream.line + 1;
                    let bytes = stream.reader.get(range);
                    let lines = memchr::memchr_iter(b'\n', bytes).count() as u64 + 1;
                    stream.line += lines;
                    let line = LogLine {
                        bytes,
                        newline,
                        source: 0,
                        line: first,
                    };
                    return Some((line, lines));
                }
                Ok(None) => return None,
                Err(e) => self.failures.push(io_error(e.to_string())),
            }
        }
    }

    /// The next line, `None` after the last.
    pub fn next_line(&mut self) -> Option<LogLine<'_>> {
        if !self.merging {
            let stream = self.streams.first_mut()?;
            return match stream.read(&mut self.failures) {
                Read1::Line(r, newline) => {
                    stream.line += 1;
                    Some(LogLine {
                        bytes: stream.reader.get(r),
                        newline,
                        source: 0,
                        line: stream.line,
                    })
                }
                Read1::Held(bytes, newline) => {
                    stream.line += 1;
                    self.scratch = bytes;
                    Some(LogLine {
                        bytes: &self.scratch,
                        newline,
                        source: 0,
                        line: stream.line,
                    })
                }
                Read1::End => None,
            };
        }
        // Go on with the current group while its lines have no stamp, or its next stamp
        // still goes first.
        if let Some(s) = self.current {
            let read = self.streams[s].read(&mut self.failures);
            let (bytes, newline) = match read {
                Read1::End => {
                    self.streams[s].done = true;
                    self.current = None;
                    return self.next_from_pending();
                }
                Read1::Line(r, nl) => {
                    let stream = &self.streams[s];
                    let stamp = if stream.key.is_some() {
                        timestamp::leading(stream.reader.get(r.clone())).map(|t| t.millis)
                    } else {
                        None
                    };
                    match stamp {
                        Some(t) if !self.still_first(s, t) => {
                            let stream = &mut self.streams[s];
                            stream.pending = Some((stream.reader.get(r).to_vec(), nl));
                            stream.key = Some(t);
                            self.current = None;
                            return self.next_from_pending();
                        }
                        _ => {
                            let stream = &mut self.streams[s];
                            if let Some(t) = stamp {
                                stream.key = Some(t);
                            }
                            stream.line += 1;
                            let stream = &self.streams[s];
                            return Some(LogLine {
                                bytes: stream.reader.get(r),
                                newline: nl,
                                source: s,
                                line: stream.line,
                            });
                        }
                    }
                }
                Read1::Held(bytes, nl) => (bytes, nl),
            };
            // A held line (standard input's lead): its stamp decides as a read one's does.
            let stamp = timestamp::leading(&bytes).map(|t| t.millis);
            if let Some(t) = stamp
                && !self.still_first(s, t)
            {
                let stream = &mut self.streams[s];
                stream.pending = Some((bytes, newline));
                stream.key = Some(t);
                self.current = None;
                return self.next_from_pending();
            }
            let stream = &mut self.streams[s];
            if let Some(t) = stamp {
                stream.key = Some(t);
            }
            stream.line += 1;
            let line = stream.line;
            self.scratch = bytes;
            return Some(LogLine {
                bytes: &self.scratch,
                newline,
                source: s,
                line,
            });
        }
        self.next_from_pending()
    }

    /// Hands out the pending line of the source that goes next and makes it current.
    fn next_from_pending(&mut self) -> Option<LogLine<'_>> {
        let s = self.pick()?;
        let stream = &mut self.streams[s];
        let (bytes, newline) = stream.pending.take()?;
        stream.line += 1;
        let line = stream.line;
        self.current = Some(s);
        self.scratch = bytes;
        Some(LogLine {
            bytes: &self.scratch,
            newline,
            source: s,
            line,
        })
    }
}

/// The stamp of the first stamped line of a file, read as far as that line.
fn first_stamp(origin: &Origin) -> Result<Option<i64>, Error> {
    let mut reader = LineReader::new(open(origin)?);
    loop {
        match reader.next_line() {
            Ok(Some(l)) => {
                if let Some(s) = timestamp::leading(l.bytes) {
                    return Ok(Some(s.millis));
                }
            }
            Ok(None) => return Ok(None),
            // The real read reports it; the bytes decoded before it come next as a last line,
            // whose stamp counts.
            Err(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::codec::Codec;

    fn write(dir: &Path, name: &str, bytes: &[u8]) -> Origin {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        Origin::Path(p)
    }

    /// `source:line text` for every merged line.
    fn merged(origins: &[Origin]) -> Vec<String> {
        let mut m = MergedLines::open(origins).unwrap();
        let mut out = Vec::new();
        while let Some(l) = m.next_line() {
            out.push(format!(
                "{}:{} {}",
                l.source,
                l.line,
                String::from_utf8_lossy(l.bytes)
            ));
        }
        assert!(m.failures().is_empty());
        out
    }

    #[test]
    fn merge_by_stamp_keeps_unstamped_lines_with_their_stamp_and_ties_in_named_order() {
        let dir = tempfile::tempdir().unwrap();
        let a = write(
            dir.path(),
            "a.log",
            b"preamble a\n2026-10-05T00:00:01Z a1\n  trace a1\n2026-10-05T00:00:03Z a3\n",
        );
        let b = write(
            dir.path(),
            "b.log",
            b"2026-10-05T00:00:01Z b1\n2026-10-05T00:00:02Z b2\n  trace b2\n2026-10-05T00:00:03Z b3",
        );
        let plain = write(dir.path(), "notes.txt", b"no stamp here\nnor here\n");
        assert_eq!(
            merged(&[a.clone(), b.clone(), plain]),
            [
                "0:1 preamble a",
                "0:2 2026-10-05T00:00:01Z a1",
                "0:3   trace a1",
                "1:1 2026-10-05T00:00:01Z b1",
                "1:2 2026-10-05T00:00:02Z b2",
                "1:3   trace b2",
                "0:4 2026-10-05T00:00:03Z a3",
                "1:4 2026-10-05T00:00:03Z b3",
                "2:1 no stamp here",
                "2:2 nor here",
            ]
        );
        // Named the other way round, equal stamps go the other way.
        let swapped = merged(&[b, a]);
        assert_eq!(swapped[0], "0:1 2026-10-05T00:00:01Z b1");
        assert_eq!(swapped[1], "1:1 preamble a");
    }

    #[test]
    fn stamps_in_other_time_zones_merge_by_instant_and_compressed_logs_join_in() {
        let dir = tempfile::tempdir().unwrap();
        let utc = write(
            dir.path(),
            "utc.log",
            b"2026-10-05T00:00:00Z u0\n2026-10-05T00:30:00Z u30\n",
        );
        let paris = crate::input::codec::tests::compress(
            Codec::Gzip,
            b"2026-10-05T02:15:00+02:00 p15\n2026-10-05T02:45:00+02:00 p45\n",
        );
        let paris = write(dir.path(), "paris.log.gz", &paris);
        assert_eq!(
            merged(&[utc, paris]),
            [
                "0:1 2026-10-05T00:00:00Z u0",
                "1:1 2026-10-05T02:15:00+02:00 p15",
                "0:2 2026-10-05T00:30:00Z u30",
                "1:2 2026-10-05T02:45:00+02:00 p45",
            ]
        );
    }

    #[test]
    fn one_log_passes_through_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let a = write(
            dir.path(),
            "a.log",
            b"2026-10-05T00:00:09Z late\n2026-10-05T00:00:01Z early\n",
        );
        assert_eq!(
            merged(&[a]),
            [
                "0:1 2026-10-05T00:00:09Z late",
                "0:2 2026-10-05T00:00:01Z early"
            ]
        );
    }

    #[test]
    fn a_truncated_archive_ends_its_source_and_the_others_go_on() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::new();
        for k in 0..20_000 {
            text.push_str(&format!("2026-10-05T00:00:00Z gz line {k}\n"));
        }
        let gz = crate::input::codec::tests::compress(Codec::Gzip, text.as_bytes());
        let cut = write(dir.path(), "cut.log.gz", &gz[..gz.len() / 2]);
        let other = write(dir.path(), "b.log", b"2026-10-05T00:00:05Z after\n");
        let mut m = MergedLines::open(&[cut, other]).unwrap();
        let mut lines = Vec::new();
        while let Some(l) = m.next_line() {
            lines.push((l.source, String::from_utf8_lossy(l.bytes).into_owned()));
        }
        assert_eq!(
            lines.last().unwrap(),
            &(1, "2026-10-05T00:00:05Z after".to_string())
        );
        assert!(lines.len() > 1000);
        let failures = m.failures();
        assert_eq!(failures.len(), 1);
        assert!(
            failures[0]
                .message
                .contains("cut.log.gz: the gzip data is truncated"),
            "{}",
            failures[0].message
        );
    }

    #[test]
    fn a_truncated_archive_whose_only_line_is_cut_still_sorts_by_its_stamp() {
        // Regression: the first-stamp look-ahead stopped at the read error, before the
        // partial line it hands out next, so the log sorted as one without stamps.
        let dir = tempfile::tempdir().unwrap();
        let gz = crate::input::codec::tests::compress(
            Codec::Gzip,
            b"2026-10-05T00:00:02Z cut [CLAIM j9] and more text after it\n",
        );
        let cut = write(dir.path(), "cut.gz", &gz[..gz.len() - 12]);
        let a = write(
            dir.path(),
            "a.log",
            b"2026-10-05T00:00:01Z a1\n2026-10-05T00:00:03Z a3\n",
        );
        let mut m = MergedLines::open(&[a, cut]).unwrap();
        let mut order = Vec::new();
        while let Some(l) = m.next_line() {
            order.push((l.source, l.line));
        }
        assert_eq!(order, [(0, 1), (1, 1), (0, 2)]);
        assert_eq!(m.failures().len(), 1, "the break is still reported");
    }

    #[test]
    fn arguments_name_files_directories_and_globs() {
        let dir = tempfile::tempdir().unwrap();
        let logs = dir.path().join("logs");
        std::fs::create_dir(&logs).unwrap();
        for name in ["b.log", "a.log.gz", ".hidden"] {
            std::fs::write(logs.join(name), b"x\n").unwrap();
        }
        std::fs::create_dir(logs.join("sub")).unwrap();
        let names = |args: &[PathBuf]| -> Vec<String> {
            expand(args)
                .unwrap()
                .iter()
                .map(|o| {
                    let n = o.name();
                    n.rsplit('/').next().unwrap().to_string()
                })
                .collect()
        };
        assert_eq!(names(std::slice::from_ref(&logs)), ["a.log.gz", "b.log"]);
        assert_eq!(
            names(&[logs.join("*.log"), PathBuf::from("-")]),
            ["b.log", "-"]
        );
        let err = expand(&[logs.join("*.none")]).unwrap_err();
        assert!(err.message.ends_with("no file matches"), "{}", err.message);
        let err = expand(&[PathBuf::from("-"), PathBuf::from("-")]).unwrap_err();
        assert!(err.message.contains("only once"), "{}", err.message);
    }
}
