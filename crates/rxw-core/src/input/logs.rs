//! Many logs read as one: sources named on the command line, merged line by line by time.
//!
//! [`expand`] turns arguments into sources: a file, every file of a directory (not hidden,
//! not recursing, in name order), a glob the shell left unexpanded (`'logs/*.gz'`), or `-`
//! for standard input. [`MergedLines`] then reads them all at once, each decoded by its
//! magic bytes ([`super::codec`]), and hands out runs of consecutive lines of one source (or
//! one line at a time) with the source they came from and their line numbers there.
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
//! One log is passed through untouched. With several, each holds one block of its decoded
//! bytes, and the merge hands out runs: the lines of one log that go before every other
//! log's next line, found by reading each line's stamp where it lies in that block (no line
//! is copied, and a date shared with the line before is not parsed again), so memory does not
//! grow with the logs and the cost per line is a line-break search and a stamp read. To know
//! where its leading unstamped lines go, a log's first stamp is looked for in its first
//! block; a file whose first stamp lies further in is read again up to it (a log without
//! any stamp is thus decoded twice), and standard input, which cannot be read twice, keeps
//! its lines up to its first stamp buffered.
//!
//! A source that fails part way (a truncated archive, a file cut under the read) ends there:
//! every line decoded before the failure is handed out, the others logs go on, and the
//! failure is kept in [`MergedLines::failures`] for the caller to report.

use super::codec::{self, Decoded};
use super::lines::LineReader;
use crate::error::{Error, ErrorKind};
use crate::input::timestamp::{self, StampReader};
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
    /// Where `bytes` start in the source's decoded stream, when `bytes` and then its `\n`
    /// (when `newline`) are the stream's bytes there (not for the head of a line cut at the
    /// reader's limit).
    pub at: Option<u64>,
}

/// One source being read.
struct Stream {
    /// The source's decoded bytes; the lines not yet handed out are its buffered bytes,
    /// looked at before they are taken.
    reader: LineReader<Box<dyn Read + Send>>,
    /// How far into its file the source was read, shared with [`MergedLines::progress`].
    progress: SourceProgress,
    /// The stamp of the group the next line belongs to: its own stamp, or for an unstamped
    /// line the stamp before it (the first stamp for lines before it); `None` for a log
    /// without stamps, and for a single log, read without looking at stamps.
    key: Option<i64>,
    stamps: StampReader,
    /// The line a run last ended before, as its stamp was read then.
    peek: Option<Peek>,
    /// Lines handed out.
    line: u64,
    /// For a plain regular file, a handle to read its bytes again where they are.
    in_place: Option<std::fs::File>,
}

/// The line a run ended before because of its stamp, as [`take_run`] read it: the next
/// run of the source starts with it, and takes it from here instead of searching for its
/// end and reading its stamp again (when logs alternate line by line, every line would be
/// read twice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Peek {
    /// Where the line starts in the source's stream.
    at: u64,
    /// Its length without its `\n`, and with it.
    end: usize,
    next: usize,
    /// Whether a `\n` ends it.
    newline: bool,
    /// Its stamp.
    stamp: i64,
}

impl Stream {
    /// Whether every line was handed out.
    fn done(&self) -> bool {
        self.reader.at_end() && self.reader.buffered().is_empty()
    }

    /// Reads more into the buffer; a failure is kept, and the source ends there.
    fn read_more(&mut self, failures: &mut Vec<Error>) {
        if let Err(e) = self.reader.read_more() {
            failures.push(io_error(e.to_string()));
        }
    }

    /// Reads ahead (without handing anything out) until a line with a stamp is buffered,
    /// or the end, or `limit` bytes are buffered; its stamp, with whether the search ended
    /// (a stamp or the end was found).
    fn first_stamp_ahead(
        &mut self,
        limit: usize,
        failures: &mut Vec<Error>,
    ) -> (Option<i64>, bool) {
        let mut searched = 0;
        loop {
            let range = self.reader.buffered();
            let bytes = self.reader.get(range);
            while searched < bytes.len() {
                let end = match memchr::memchr(b'\n', &bytes[searched..]) {
                    Some(k) => searched + k,
                    None if self.reader.at_end() => bytes.len(),
                    None => break,
                };
                if let Some(s) = self.stamps.leading(&bytes[searched..end]) {
                    return (Some(s.millis), true);
                }
                searched = end + 1;
            }
            if self.reader.at_end() {
                return (None, true);
            }
            if bytes.len() >= limit {
                return (None, false);
            }
            self.read_more(failures);
        }
    }
}

/// A run of lines of one source that [`take_run`] found at the start of its buffered bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Taken {
    /// Bytes taken, the last line's `\n` included.
    len: usize,
    /// Lines taken.
    lines: u64,
    /// Whether a `\n` ended the last line taken.
    newline: bool,
    /// Why the run ended.
    end: RunEnd,
}

/// Why [`take_run`] ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RunEnd {
    /// The run reached the bytes wanted.
    Full,
    /// The buffered bytes end inside a line (or are all taken): more must be read.
    Buffer,
    /// The next line's stamp goes after another source's next group: its stamp is the
    /// source's new key.
    Stamp(i64),
    /// The source's last line was taken.
    End,
}

/// The lines at the start of `bytes` (a source's buffered bytes; `at_end` when no more will
/// come) that go before every other source: each line's stamp is read and the run ends
/// before the first one that does not go before `bound` (the smallest `(stamp, source)` of
/// the other sources' next groups; `source` is this source's index), or once `max` bytes
/// are taken (at least one line). Unstamped lines always stay with the run. `stamps: None`
/// reads no stamp (one log, a log without stamps, or no other source with stamps left):
/// the run is every complete line within `max` bytes, found from the back in one search.
/// `key` is updated to each stamp taken.
fn take_run(
    bytes: &[u8],
    at_end: bool,
    max: usize,
    stamps: Option<(&mut StampReader, (i64, usize), usize)>,
    key: &mut Option<i64>,
    peek: (&mut Option<Peek>, u64),
) -> Taken {
    let max = max.max(1);
    let Some((reader, bound, source)) = stamps else {
        let window = bytes.len().min(max);
        let last = memchr::memrchr(b'\n', &bytes[..window])
            .or_else(|| memchr::memchr(b'\n', &bytes[window..]).map(|k| window + k));
        return match last {
            Some(nl) => Taken {
                len: nl + 1,
                lines: memchr::memchr_iter(b'\n', &bytes[..=nl]).count() as u64,
                newline: true,
                end: if nl + 1 == bytes.len() && !at_end {
                    RunEnd::Buffer
                } else {
                    RunEnd::Full
                },
            },
            None if at_end => Taken {
                len: bytes.len(),
                lines: u64::from(!bytes.is_empty()),
                newline: false,
                end: RunEnd::End,
            },
            None => Taken {
                len: 0,
                lines: 0,
                newline: true,
                end: RunEnd::Buffer,
            },
        };
    };
    let mut taken = Taken {
        len: 0,
        lines: 0,
        newline: true,
        end: RunEnd::Full,
    };
    loop {
        let pos = taken.len;
        if pos == bytes.len() {
            taken.end = if at_end { RunEnd::End } else { RunEnd::Buffer };
            return taken;
        }
        if taken.lines > 0 && pos >= max {
            return taken;
        }
        let (seen, position) = (&mut *peek.0, peek.1);
        let known = match seen.take() {
            Some(p) if pos == 0 && p.at == position && p.next <= bytes.len() => Some(p),
            _ => None,
        };
        let (line_end, next, newline, stamp) = match known {
            Some(p) => (p.end, p.next, p.newline, Some(p.stamp)),
            None => {
                let (line_end, next, newline) = match memchr::memchr(b'\n', &bytes[pos..]) {
                    Some(k) => (pos + k, pos + k + 1, true),
                    None if at_end => (bytes.len(), bytes.len(), false),
                    None => {
                        taken.end = RunEnd::Buffer;
                        return taken;
                    }
                };
                let stamp = reader.leading(&bytes[pos..line_end]).map(|s| s.millis);
                (line_end, next, newline, stamp)
            }
        };
        if let Some(t) = stamp {
            if (t, source) >= bound {
                *key = Some(t);
                taken.end = RunEnd::Stamp(t);
                *seen = Some(Peek {
                    at: position + pos as u64,
                    end: line_end - pos,
                    next: next - pos,
                    newline,
                    stamp: t,
                });
                return taken;
            }
            *key = Some(t);
        }
        taken.len = next;
        taken.lines += 1;
        taken.newline = newline;
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
    /// The source whose run is being handed out, and the bound of its run
    /// ([`MergedLines::pick`]).
    current: Option<(usize, Option<(i64, usize)>)>,
    failures: Vec<Error>,
    merging: bool,
}

/// Open files a process needs beside its logs (standard streams, the spill and its record
/// files, a follower's watch, the libraries).
const OTHER_OPEN_FILES: u64 = 64;

/// Descriptors one merged log holds while it is read (measured: 300 plain logs need between
/// 900 and 1,000; a bounded set of open logs, reopened on demand, would lower it).
const FILES_PER_LOG: u64 = 3;

/// Makes room for `logs` open at once (every log of a merge is open while it is read): the
/// soft limit on open files is raised towards the hard one (a fleet of a few thousand logs
/// passes the common soft limit of 1,024).
///
/// # Errors
/// [`ErrorKind::Io`] when the hard limit is too low, saying how many are needed.
fn room_for_open_files(logs: usize) -> Result<(), Error> {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let needed = logs as u64 * FILES_PER_LOG + OTHER_OPEN_FILES;
        let limit = getrlimit(Resource::Nofile);
        let current = limit.current.unwrap_or(u64::MAX);
        if current >= needed {
            return Ok(());
        }
        let maximum = limit.maximum.unwrap_or(u64::MAX);
        if maximum < needed {
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "{logs} logs merged need about {needed} open files at once, more than this process may open (hard limit {maximum}: raise it with ulimit -Hn, or name fewer logs)"
                ),
            ));
        }
        setrlimit(
            Resource::Nofile,
            Rlimit {
                current: Some(needed),
                maximum: limit.maximum,
            },
        )
        .map_err(|e| {
            Error::new(
                ErrorKind::Io,
                format!("{logs} logs merged need about {needed} open files at once, and the limit of {current} could not be raised: {e}"),
            )
        })?;
    }
    #[cfg(not(target_os = "linux"))]
    let _ = logs;
    Ok(())
}

impl MergedLines {
    /// Opens every source. A single source is read as it is, without looking at stamps. Of
    /// several, one that cannot be opened is a failure ([`MergedLines::failures`]) and reads
    /// as a log without lines.
    ///
    /// # Errors
    /// [`ErrorKind::Io`] naming the source when a single one cannot be opened, or when none
    /// of several can.
    pub fn open(origins: &[Origin]) -> Result<MergedLines, Error> {
        MergedLines::open_with_max_line(origins, super::lines::MAX_LINE)
    }

    /// [`MergedLines::open`], handing out lines of at most `max_line` bytes whole (the head
    /// of a longer line, after an error that says where, and its rest skipped).
    ///
    /// # Errors
    /// As [`MergedLines::open`].
    pub fn open_with_max_line(origins: &[Origin], max_line: usize) -> Result<MergedLines, Error> {
        let merging = origins.len() > 1;
        if merging {
            room_for_open_files(origins.len())?;
        }
        let mut streams = Vec::with_capacity(origins.len());
        let mut failures = Vec::new();
        let (mut unopened_count, mut first_unopened) = (0, None);
        for origin in origins {
            // Of several logs, one that cannot be opened (missing, unreadable, a directory)
            // is a failure said like a broken archive, and the others are read: it stays
            // in the list as a log without lines, so the sources keep their numbers.
            let (decoded, unopened) = match open(origin) {
                Ok(d) => (d, false),
                Err(e) if merging => {
                    let Ok(empty) = codec::decode(std::io::empty(), Some(0), Path::new("")) else {
                        return Err(e);
                    };
                    failures.push(e.clone());
                    unopened_count += 1;
                    first_unopened.get_or_insert(e);
                    (empty, true)
                }
                Err(e) => return Err(e),
            };
            let progress = SourceProgress::of(&decoded);
            let in_place = decoded.in_place();
            let mut stream = Stream {
                reader: LineReader::new(Box::new(decoded) as Box<dyn Read + Send>)
                    .named(origin.name())
                    .with_max_line(max_line),
                progress,
                key: None,
                stamps: StampReader::new(),
                peek: None,
                line: 0,
                in_place,
            };
            if merging {
                // Where the lines before the first stamp go: found in the first block read,
                // or for standard input (which cannot be read twice) in as much of it as
                // it takes, held until handed out; a file whose first stamp is further in
                // is read again up to it.
                let limit = if *origin == Origin::Stdin {
                    usize::MAX
                } else {
                    1
                };
                let (key, found) = stream.first_stamp_ahead(limit, &mut failures);
                stream.key = if found || unopened {
                    key
                } else {
                    first_stamp(origin)?
                };
            } else {
                stream.read_more(&mut failures);
            }
            streams.push(stream);
        }
        if let Some(e) = first_unopened
            && unopened_count == origins.len()
        {
            // None could be opened: there is nothing to show; the first says why.
            return Err(e);
        }
        Ok(MergedLines {
            names: origins.iter().map(Origin::name).collect(),
            streams,
            current: None,
            failures,
            merging,
        })
    }

    /// For each source, a handle on its file when its lines' bytes can be read again where
    /// they are ([`LogLine::at`] is then an offset in that file): a plain regular file.
    pub fn in_place(&self) -> Vec<Option<std::fs::File>> {
        self.streams
            .iter()
            .map(|s| s.in_place.as_ref().and_then(|f| f.try_clone().ok()))
            .collect()
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

    /// The source whose next group goes next (the smallest stamp, the first named on a tie;
    /// logs without stamps last, in order), with the bound of its run: the smallest
    /// `(stamp, source)` of the other sources' next groups with stamps (`None` when no
    /// other source with stamps has lines left). A line of the source picked goes first
    /// while its own `(stamp, source)` is below the bound; the bound stays while that
    /// source's run goes on, as no other source moves meanwhile.
    fn pick(&self) -> Option<(usize, Option<(i64, usize)>)> {
        // One pass, plain comparisons: this runs once a run.
        let mut first: Option<(i64, usize)> = None;
        let mut second: Option<(i64, usize)> = None;
        let mut unstamped = None;
        for (k, st) in self.streams.iter().enumerate() {
            if st.done() {
                continue;
            }
            match st.key {
                Some(t) => {
                    if first.is_none_or(|(b, _)| t < b) {
                        second = first;
                        first = Some((t, k));
                    } else if second.is_none_or(|(b, _)| t < b) {
                        second = Some((t, k));
                    }
                }
                None => unstamped = unstamped.or(Some(k)),
            }
        }
        match first {
            Some((_, k)) => Some((k, second)),
            None => unstamped.map(|k| (k, None)),
        }
    }

    /// Whether there is one source, read as it is.
    pub fn single(&self) -> bool {
        !self.merging
    }

    /// The next run of consecutive lines of one source in the merged order, within `max`
    /// bytes (at least one line; a run ends where another source's line goes first, and
    /// may end earlier, where a read of the source ends): one [`LogLine`] whose bytes hold
    /// them all (`\n` between them, the last's left out as for a line) and whose `line` is
    /// the first's, with the number of lines. `None` after the last.
    ///
    /// Runs are found by reading each line's stamp where it is read (no line is copied),
    /// and while only one source with stamps is left, by one search for the last line
    /// break within `max` bytes.
    pub fn next_run(&mut self, max: usize) -> Option<(LogLine<'_>, u64)> {
        // The run found, as its source, its bytes in that source's buffer, whether a line
        // feed ended it, its lines and where it starts in the source's stream (when it is
        // the stream's bytes).
        let (s, bytes, newline, lines, at) = loop {
            let (s, bound) = match self.current {
                Some(picked) => picked,
                None => {
                    let picked = self.pick()?;
                    self.current = Some(picked);
                    picked
                }
            };
            // One log is read as it is, without looking at stamps.
            let bound = bound.filter(|_| self.merging);
            let stream = &mut self.streams[s];
            if stream.reader.cutting() {
                // The head of a line over the reader's limit, or the skip of its rest (the
                // next line then goes through the stamps as any other).
                match stream.reader.go_on_after_cut() {
                    Err(e) => self.failures.push(io_error(e.to_string())),
                    Ok(None) => {}
                    Ok(Some((r, newline))) => break (s, r, newline, 1, None),
                }
                continue;
            }
            let range = stream.reader.buffered();
            let at_end = stream.reader.at_end();
            let check = match (stream.key, bound) {
                (Some(_), Some(b)) => Some((&mut stream.stamps, b, s)),
                _ => None,
            };
            let max_line = stream.reader.max_line();
            // Runs of at most the longest line's bytes (and one line more): only a run's last
            // line can be over that limit.
            let position = stream.reader.position();
            let mut taken = take_run(
                stream.reader.get(range.clone()),
                at_end,
                max.min(max_line),
                check,
                &mut stream.key,
                (&mut stream.peek, position),
            );
            if taken.len > max_line {
                let bytes = stream.reader.get(range.clone());
                let body = taken.len - usize::from(taken.newline);
                let last = memchr::memrchr(b'\n', &bytes[..body]).map_or(0, |k| k + 1);
                if body - last > max_line {
                    if taken.lines > 1 {
                        // The lines before the long one go now; it comes next, cut.
                        taken = Taken {
                            len: last,
                            lines: taken.lines - 1,
                            newline: true,
                            end: RunEnd::Full,
                        };
                        self.current = Some((s, bound));
                    } else {
                        // The reader says where, hands out its head next and skips the rest.
                        if let Err(e) = stream.reader.next_range() {
                            self.failures.push(io_error(e.to_string()));
                        }
                        self.current = Some((s, bound));
                        continue;
                    }
                }
            }
            match taken.end {
                RunEnd::Stamp(_) | RunEnd::End => self.current = None,
                RunEnd::Buffer if taken.lines == 0 && range.len() > stream.reader.max_line() => {
                    // A line over the reader's limit: the reader says where, hands out its
                    // head next and skips the rest (memory stays bounded).
                    if let Err(e) = stream.reader.next_range() {
                        self.failures.push(io_error(e.to_string()));
                    }
                    continue;
                }
                RunEnd::Buffer if taken.lines == 0 => {
                    stream.read_more(&mut self.failures);
                    continue;
                }
                RunEnd::Buffer | RunEnd::Full => {}
            }
            if taken.lines == 0 {
                continue;
            }
            stream.reader.consume(taken.len);
            let end = range.start + taken.len - usize::from(taken.newline);
            break (
                s,
                range.start..end,
                taken.newline,
                taken.lines,
                Some(position),
            );
        };
        let stream = &mut self.streams[s];
        let first = stream.line + 1;
        stream.line += lines;
        Some((
            LogLine {
                bytes: stream.reader.get(bytes),
                newline,
                source: s,
                line: first,
                at,
            },
            lines,
        ))
    }

    /// The next line, `None` after the last.
    pub fn next_line(&mut self) -> Option<LogLine<'_>> {
        self.next_run(1).map(|(line, _)| line)
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
        let a_text = b"preamble a\n2026-10-05T00:00:01Z a1\n  trace a1\n2026-10-05T00:00:03Z a3\n";
        let a = write(dir.path(), "a.log", a_text);
        let b_text = b"2026-10-05T00:00:01Z b1\n2026-10-05T00:00:02Z b2\n  trace b2\n2026-10-05T00:00:03Z b3";
        let b = write(dir.path(), "b.log", b_text);
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
        let utc_text = b"2026-10-05T00:00:00Z u0\n2026-10-05T00:30:00Z u30\n";
        let utc = write(dir.path(), "utc.log", utc_text);
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
        let a_text = b"2026-10-05T00:00:09Z late\n2026-10-05T00:00:01Z early\n";
        let a = write(dir.path(), "a.log", a_text);
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
        let a_text = b"2026-10-05T00:00:01Z a1\n2026-10-05T00:00:03Z a3\n";
        let a = write(dir.path(), "a.log", a_text);
        let mut m = MergedLines::open(&[a, cut]).unwrap();
        let mut order = Vec::new();
        while let Some(l) = m.next_line() {
            order.push((l.source, l.line));
        }
        assert_eq!(order, [(0, 1), (1, 1), (0, 2)]);
        assert_eq!(m.failures().len(), 1, "the break is still reported");
    }

    /// The merge order by its rules, one whole group at a time: a group is a stamped line
    /// and the unstamped lines after it (the lines before a log's first stamp join that
    /// stamp's group); the next group is the one with the smallest stamp, the first named
    /// on a tie, logs without stamps last. `(source, line)` for every line.
    fn merge_by_groups(logs: &[&[u8]]) -> Vec<(usize, u64)> {
        let mut groups: Vec<std::collections::VecDeque<(Option<i64>, u64, u64)>> = Vec::new();
        for log in logs {
            let mut lines: Vec<&[u8]> = log.split(|&b| b == b'\n').collect();
            if log.ends_with(b"\n") || log.is_empty() {
                lines.pop();
            }
            let stamps: Vec<Option<i64>> = lines
                .iter()
                .map(|l| timestamp::leading(l).map(|s| s.millis))
                .collect();
            let first = stamps.iter().flatten().next().copied();
            let mut mine = std::collections::VecDeque::new();
            for (k, stamp) in stamps.iter().enumerate() {
                let line = k as u64 + 1;
                match (stamp, mine.back_mut()) {
                    (None, Some((_, _, end))) => *end = line,
                    // The lines before the first stamp: a group of that stamp's own.
                    (None, None) => mine.push_back((first, line, line)),
                    (Some(t), _) => mine.push_back((Some(*t), line, line)),
                }
            }
            groups.push(mine);
        }
        let mut out = Vec::new();
        loop {
            let next = groups
                .iter()
                .enumerate()
                .filter_map(|(k, g)| g.front().map(|&(key, _, _)| (key.is_none(), key, k)))
                .min();
            let Some((_, _, k)) = next else {
                return out;
            };
            let (_, from, to) = groups[k].pop_front().unwrap();
            out.extend((from..=to).map(|line| (k, line)));
        }
    }

    /// `(source, line)` for every line the merge hands out, taken in runs of at most `max`
    /// bytes, each run checked against the logs' own lines.
    fn merged_in_runs(origins: &[Origin], logs: &[&[u8]], max: usize) -> Vec<(usize, u64)> {
        let own: Vec<Vec<&[u8]>> = logs
            .iter()
            .map(|l| l.split(|&b| b == b'\n').collect())
            .collect();
        let mut m = MergedLines::open(origins).unwrap();
        let mut out = Vec::new();
        while let Some((run, lines)) = m.next_run(max) {
            let first = run.line as usize - 1;
            let want = own[run.source][first..first + lines as usize].join(&b'\n');
            assert_eq!(
                run.bytes,
                want.as_slice(),
                "run of {lines} from {}:{}",
                run.source,
                run.line
            );
            out.extend((0..lines).map(|k| (run.source, run.line + k)));
        }
        assert!(m.failures().is_empty());
        out
    }

    /// A log of `lines` random lines: stamps from a few seconds (ties across logs), some in
    /// another zone, some with a fraction, unstamped lines (traces, empty lines), a clock
    /// that goes back now and then, and a last line with or without its line feed.
    fn random_log(seed: u64, lines: usize, stamped: bool) -> Vec<u8> {
        let mut x = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut out = Vec::new();
        let mut second = next(5);
        for k in 0..lines {
            match next(10) {
                0 | 1 => {}
                2 => second = second.saturating_sub(next(3)),
                _ => second += next(2),
            }
            let line = match next(12) {
                0 => "  at trace line".to_string(),
                1 => String::new(),
                _ if !stamped => format!("plain {k}"),
                2 => format!("2026-10-05T01:00:{:02}+01:00 zoned {k}", second % 60),
                3 => format!("2026-10-05 00:00:{:02}.250 frac {k}", second % 60),
                4 if second >= 60 => {
                    format!("2026-10-05T00:01:{:02}Z next minute {k}", second % 60)
                }
                _ => format!("2026-10-05T00:00:{:02}Z line {k}", second % 60),
            };
            out.extend_from_slice(line.as_bytes());
            if k + 1 < lines || next(2) == 0 {
                out.push(b'\n');
            }
        }
        out
    }

    #[test]
    fn runs_merge_in_the_order_of_the_line_by_line_rules_at_many_random_inputs() {
        let dir = tempfile::tempdir().unwrap();
        for seed in 0..120u64 {
            let n = 1 + (seed % 5) as usize;
            let logs: Vec<Vec<u8>> = (0..n)
                .map(|k| {
                    let lines = ((seed * 7 + k as u64 * 13) % 40) as usize;
                    random_log(seed * 31 + k as u64, lines, (seed + k as u64) % 7 != 3)
                })
                .collect();
            let origins: Vec<Origin> = logs
                .iter()
                .enumerate()
                .map(|(k, log)| {
                    let name = format!("{seed}-{k}.log");
                    if k % 3 == 1 {
                        let gz = crate::input::codec::tests::compress(Codec::Gzip, log);
                        write(dir.path(), &format!("{name}.gz"), &gz)
                    } else {
                        write(dir.path(), &name, log)
                    }
                })
                .collect();
            let views: Vec<&[u8]> = logs.iter().map(Vec::as_slice).collect();
            let want = if n == 1 {
                // One log is read as it is.
                let lines = merge_by_groups(&views).len() as u64;
                (1..=lines).map(|l| (0, l)).collect()
            } else {
                merge_by_groups(&views)
            };
            for max in [1, 30, 200, usize::MAX] {
                assert_eq!(
                    merged_in_runs(&origins, &views, max),
                    want,
                    "seed {seed}, runs of {max} bytes"
                );
            }
        }
    }

    #[test]
    fn runs_across_read_blocks_keep_the_order_and_every_byte() {
        // Logs larger than a read block, so runs end where a read ends and go on after it.
        let dir = tempfile::tempdir().unwrap();
        let logs: Vec<Vec<u8>> = (0..3).map(|k| random_log(1000 + k, 40_000, true)).collect();
        let origins: Vec<Origin> = logs
            .iter()
            .enumerate()
            .map(|(k, log)| write(dir.path(), &format!("big{k}.log"), log))
            .collect();
        let views: Vec<&[u8]> = logs.iter().map(Vec::as_slice).collect();
        let want = merge_by_groups(&views);
        for max in [1, 4096, usize::MAX] {
            assert_eq!(merged_in_runs(&origins, &views, max), want, "runs of {max}");
        }
    }

    #[test]
    fn a_line_over_the_limit_in_a_merge_is_cut_to_its_head_and_the_merge_goes_on() {
        // Regression: runs read lines where they lie in the buffer, which grew without
        // bound for a log without line breaks.
        let dir = tempfile::tempdir().unwrap();
        let mut blob = b"2026-10-05T00:00:02Z ".to_vec();
        blob.extend(std::iter::repeat_n(b'x', 600_000));
        blob.extend_from_slice(b"\n2026-10-05T00:00:04Z after\n");
        let a = write(dir.path(), "blob.log", &blob);
        let b_text = b"2026-10-05T00:00:01Z b1\n2026-10-05T00:00:03Z b3\n";
        let b = write(dir.path(), "b.log", b_text);
        let mut m = MergedLines::open_with_max_line(&[a, b], 1000).unwrap();
        let mut got = Vec::new();
        while let Some((l, _)) = m.next_run(usize::MAX) {
            got.push((l.source, l.line, l.bytes.len()));
        }
        // The head in its place, and the line after it still merged by its stamp.
        assert_eq!(got, [(1, 1, 23), (0, 1, 1000), (1, 2, 23), (0, 2, 26)]);
        // A long line read whole within one read is cut all the same, after the lines
        // before it, in one log and in a merge.
        let mut short = b"2026-10-05T00:00:02Z before\n2026-10-05T00:00:02Z ".to_vec();
        short.extend(std::iter::repeat_n(b'y', 5000));
        short.extend_from_slice(b"\n2026-10-05T00:00:04Z after\n");
        let c = write(dir.path(), "short.log", &short);
        let d = write(dir.path(), "d.log", b"2026-10-05T00:00:03Z d3\n");
        for (origins, want) in [
            (vec![c.clone()], vec![(0, 1, 27), (0, 2, 1000), (0, 3, 26)]),
            (
                vec![c, d],
                vec![(0, 1, 27), (0, 2, 1000), (1, 1, 23), (0, 3, 26)],
            ),
        ] {
            let mut m = MergedLines::open_with_max_line(&origins, 1000).unwrap();
            let mut got = Vec::new();
            while let Some((l, n)) = m.next_run(usize::MAX) {
                for k in 0..n {
                    got.push((l.source, l.line + k, if n == 1 { l.bytes.len() } else { 0 }));
                }
            }
            let lens: Vec<(usize, u64)> = got.iter().map(|g| (g.0, g.1)).collect();
            let want_lines: Vec<(usize, u64)> = want.iter().map(|w| (w.0, w.1)).collect();
            assert_eq!(lens, want_lines);
            assert!(got.contains(&(0, 2, 1000)), "{got:?}");
            assert_eq!(m.failures().len(), 1);
        }
        let failures = m.failures();
        assert_eq!(failures.len(), 1);
        assert!(
            failures[0].message.contains("blob.log"),
            "{}",
            failures[0].message
        );
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
        crate::testing::assert_message_has(&err, "only once");
    }
}
