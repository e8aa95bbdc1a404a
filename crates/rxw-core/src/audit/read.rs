//! Reading each file once and answering every column from that one read.
//!
//! The plan is built once per audit:
//! - the substrings go to the engine as one [`SubstringSet`] over the raw bytes (one
//!   automaton, ASCII case folding for `ignore_case`; Unicode simple case folding for a
//!   needle with non-ASCII letters, so `ÄRGER` finds `ärger`);
//! - the regex columns go to the engine as one [`PatternSet`], which decides how each is
//!   answered (one shared literal pass with anchored confirmations, one shared DFA pass,
//!   a pattern alone, or its own engine) and answers exactly as each pattern's
//!   [`crate::Regex::is_match`] would. The audit never looks at a pattern's literals.
//!
//! Counts are each column's own non-overlapping occurrences (Python `str.count` for
//! substrings, the flavor's iteration rules for regexes); the set then only tells which
//! columns are worth counting.
//!
//! Files are read by a pool of scoped threads while the walk goes on in the calling thread:
//! the walk hands targets over in batches, numbered in walk order, and each row is put back
//! in its place, so the output order never depends on the scheduling. Each worker reads its
//! files into one buffer it keeps ([`ReadBuffer`]: plain reads, so a file truncated under the
//! scan is a ⚠️ row, never a crash; a file one read returns whole costs an open, two reads and
//! a close): memory is bounded by the largest file each worker has read and the walk's list,
//! not by the tree. The bytes are checked as UTF-8
//! once, only when there are regex columns; invalid UTF-8 is decoded with U+FFFD for them.

use super::paths::{Target, expand, expand_each, io_failure};
use super::{
    AuditPattern, CellMode, Matcher, PathSource, PatternError, Report, Row, RowError, RowErrorKind,
    WalkOptions,
};
use crate::engine::set::{PatternSet, SetCache, SubstringSet, Tally};
use crate::error::Error;
use crate::input::{ReadBuffer, ReadFailure};
use std::sync::{Condvar, Mutex};

/// Options for reading files.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    /// Case-insensitive substrings (regexes get their `i` flag when built).
    pub ignore_case: bool,
    /// Booleans or counts.
    pub mode: CellMode,
    /// Files larger than this are error rows.
    pub max_filesize: u64,
    /// Read files with NUL bytes instead of reporting them as binary.
    pub binary: bool,
    /// Worker threads (0 = one per core).
    pub threads: usize,
    /// Directories (as the system resolves them) every file read must lie in, checked on the
    /// file as opened, so that a path swapped for a link between a check and the open is
    /// still refused; empty: any file.
    pub within: Vec<std::path::PathBuf>,
    /// Counts the bytes of the files read so far (as found on disk), for a progress line
    /// another thread draws; `None`: not counted.
    pub read: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    /// The time range of the records each file is audited on (`--since`/`--until`): the
    /// lines a [`crate::input::time_filter::TimeFilter`] keeps, each file's format detected.
    pub time: crate::input::time_range::TimeRange,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            ignore_case: false,
            mode: CellMode::Presence,
            max_filesize: super::DEFAULT_MAX_FILESIZE,
            binary: false,
            threads: 0,
            within: Vec::new(),
            read: None,
            time: crate::input::time_range::TimeRange::ALL,
        }
    }
}

/// Runs a whole audit: expands the paths, reads every file once, builds the report.
///
/// # Errors
/// Only for a bad `--glob`; unreadable paths and failing patterns are rows and cells.
pub fn audit(
    sources: &[PathSource],
    patterns: &[AuditPattern],
    walk: &WalkOptions,
    options: &ScanOptions,
) -> Result<Report, Error> {
    let plan = Plan::new(patterns, options.ignore_case)?;
    let rows = scan_sources(sources, walk, &plan, options)?;
    let mut report = Report::new(
        patterns.iter().map(|p| p.name.clone()).collect(),
        rows,
        options.mode,
    );
    report.pattern_errors = patterns
        .iter()
        .filter_map(|p| {
            p.error().map(|e| PatternError {
                name: p.name.clone(),
                message: e.message.clone(),
            })
        })
        .collect();
    Ok(report)
}

/// How each column is answered.
enum Column<'p> {
    /// A substring in the Aho-Corasick automaton.
    Substring { needle: usize },
    /// A regex: member `member` of the plan's pattern set.
    Regex { re: &'p crate::Regex, member: usize },
    /// A pattern that did not compile: unknown everywhere (reported once, in the report).
    Invalid,
}

/// The matchers of one audit, compiled once.
pub struct Plan<'p> {
    columns: Vec<Column<'p>>,
    names: Vec<&'p str>,
    /// The substring columns, answered together by the engine.
    substrings: SubstringSet,
    /// The regex columns, answered together by the engine.
    regexes: PatternSet<'p>,
}

/// One worker's reusable memory: the file buffer and the pattern set's caches.
pub struct Scratch {
    buffer: ReadBuffer,
    set: SetCache,
}

impl<'p> Plan<'p> {
    /// Compiles the automaton and the sets for `patterns`.
    ///
    /// # Errors
    /// Only when the automaton cannot be built (an enormous substring list).
    pub fn new(patterns: &'p [AuditPattern], ignore_case: bool) -> Result<Plan<'p>, Error> {
        let mut columns = Vec::with_capacity(patterns.len());
        let mut needles: Vec<&str> = Vec::new();
        let mut regexes: Vec<&crate::Regex> = Vec::new();
        for p in patterns {
            let col = match &p.matcher {
                Matcher::Substring(s) => {
                    needles.push(s);
                    Column::Substring {
                        needle: needles.len() - 1,
                    }
                }
                Matcher::Regex(re) => {
                    regexes.push(re);
                    Column::Regex {
                        re,
                        member: regexes.len() - 1,
                    }
                }
                Matcher::Invalid(_) => Column::Invalid,
            };
            columns.push(col);
        }
        Ok(Plan {
            columns,
            names: patterns.iter().map(|p| p.name.as_str()).collect(),
            substrings: SubstringSet::new(&needles, ignore_case)?,
            regexes: PatternSet::new(&regexes),
        })
    }

    /// Memory for one worker: make one per thread and pass it to every call.
    pub fn scratch(&self) -> Scratch {
        Scratch {
            buffer: ReadBuffer::new(),
            set: self.regexes.create_cache(),
        }
    }

    /// Answers every column for one file's contents (`bytes`, as read; regexes see them as
    /// text, invalid UTF-8 replaced by U+FFFD).
    ///
    /// Returns the cells and, when a pattern failed on this input, the first failure.
    pub fn evaluate(
        &self,
        bytes: &[u8],
        mode: CellMode,
        scratch: &mut SetCache,
    ) -> (Vec<Option<u64>>, Option<RowError>) {
        let mut cells: Vec<Option<u64>> = vec![None; self.columns.len()];
        let mut error: Option<RowError> = None;
        if !self.substrings.is_empty() {
            let tally = match mode {
                CellMode::Presence => Tally::Presence,
                CellMode::Counts => Tally::Counts,
            };
            let found = self.substrings.tally(bytes, tally);
            for (cell, col) in cells.iter_mut().zip(&self.columns) {
                if let Column::Substring { needle } = col {
                    *cell = Some(found[*needle]);
                }
            }
        }
        if self.regexes.is_empty() {
            return (cells, error);
        }
        let decoded: String;
        let text = match std::str::from_utf8(bytes) {
            Ok(s) => s,
            Err(_) => {
                decoded = String::from_utf8_lossy(bytes).into_owned();
                &decoded
            }
        };
        let found = self.regexes.which_match(text, scratch);
        for (i, col) in self.columns.iter().enumerate() {
            let Column::Regex { re, member } = col else {
                continue;
            };
            let answer = match (&found[*member], mode) {
                (Ok(false), _) => Ok(0),
                (Ok(true), CellMode::Presence) => Ok(1),
                (Ok(true), CellMode::Counts) => re.count(text).map(|n| n as u64),
                (Err(e), _) => Err(e.clone()),
            };
            match answer {
                Ok(n) => cells[i] = Some(n),
                Err(e) => {
                    if error.is_none() {
                        error = Some(RowError {
                            kind: RowErrorKind::PatternFailed,
                            message: format!("pattern {:?}: {}", self.names[i], e.message),
                        });
                    }
                }
            }
        }
        (cells, error)
    }
}

/// Reads one file and fills its row.
fn scan_file(
    shown: super::paths::Shown,
    path: &std::path::Path,
    plan: &Plan,
    options: &ScanOptions,
    scratch: &mut Scratch,
) -> Row {
    let columns = plan.columns.len();
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            let (kind, message) = io_failure(path, &e);
            return Row::failed(shown, columns, kind, message);
        }
    };
    if !options.within.is_empty()
        && let Err(message) = opened_within(&file, path, &options.within)
    {
        return Row::failed(shown, columns, RowErrorKind::FileUnreadable, message);
    }
    let bytes = match scratch.buffer.read(&mut file, path, options.max_filesize) {
        Ok(b) => b,
        Err(ReadFailure::Io(e)) if e.kind() == std::io::ErrorKind::IsADirectory => {
            return Row::failed(
                shown,
                columns,
                RowErrorKind::PathDirectory,
                "is a directory".into(),
            );
        }
        Err(ReadFailure::Io(e)) => {
            let (kind, message) = io_failure(path, &e);
            return Row::failed(shown, columns, kind, message);
        }
        Err(ReadFailure::TooLarge(size)) => {
            return Row::failed(
                shown,
                columns,
                RowErrorKind::FileTooLarge,
                format!(
                    "file is {size} bytes, over the maximum of {} bytes (--max-filesize)",
                    options.max_filesize
                ),
            );
        }
        // It changed while it was read (truncated or rotated).
        Err(ReadFailure::Changed(e)) => {
            let message = e
                .message
                .strip_prefix(&format!("{}: ", path.display()))
                .unwrap_or(&e.message)
                .to_string();
            return Row::failed(shown, columns, RowErrorKind::FileUnreadable, message);
        }
    };
    drop(file);
    if let Some(read) = &options.read {
        read.fetch_add(bytes.len() as u64, std::sync::atomic::Ordering::Relaxed);
    }
    // A compressed file (told by its first bytes) is audited as the text it holds.
    let decoded;
    let bytes = if crate::input::codec::Codec::sniff(bytes) == crate::input::codec::Codec::Plain {
        bytes
    } else {
        match decompress(bytes, path, options.max_filesize) {
            Ok(d) => {
                decoded = d;
                &decoded[..]
            }
            Err((kind, message)) => return Row::failed(shown, columns, kind, message),
        }
    };
    if !options.binary
        && let Some(at) = memchr::memchr(0, bytes)
    {
        return Row::failed(
            shown,
            columns,
            RowErrorKind::FileBinary,
            format!("binary file (NUL byte at offset {at}); use --binary to audit it anyway"),
        );
    }
    let within;
    let bytes = if options.time.is_all() {
        bytes
    } else {
        within = lines_within(bytes, options.time);
        &within[..]
    };
    let (cells, error) = plan.evaluate(bytes, options.mode, &mut scratch.set);
    Row::new(shown, cells, error)
}

/// The lines of `bytes` whose record's time is in `range`
/// ([`crate::input::time_filter::TimeFilter`]), each with its line break.
fn lines_within(bytes: &[u8], range: crate::input::time_range::TimeRange) -> Vec<u8> {
    let mut filter = crate::input::time_filter::TimeFilter::new(range, None);
    let mut out = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if filter.keep(0, line.strip_suffix(b"\n").unwrap_or(line)) {
            out.extend_from_slice(line);
        }
    }
    out
}

/// Whether the file opened from `path` lies under one of `dirs` (resolved paths); the reason
/// when not. The file's own path is asked of the system through its open descriptor where
/// the system tells it (Linux's `/proc/self/fd`), so nothing can be swapped after the check;
/// elsewhere `path` is resolved and must name the very file that was opened (same device and
/// inode).
fn opened_within(
    file: &std::fs::File,
    path: &std::path::Path,
    dirs: &[std::path::PathBuf],
) -> Result<(), String> {
    let outside = |real: &std::path::Path| {
        let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        format!(
            "{} lies outside the server's roots ({}): not read",
            real.display(),
            shown.join(", ")
        )
    };
    let real = opened_path(file, path).map_err(|e| format!("cannot tell where it lies: {e}"))?;
    if dirs.iter().any(|d| real.starts_with(d)) {
        Ok(())
    } else {
        Err(outside(&real))
    }
}

/// The resolved path of the file opened from `path`.
fn opened_path(
    file: &std::fs::File,
    path: &std::path::Path,
) -> std::io::Result<std::path::PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(real) = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) {
            return Ok(real);
        }
    }
    let real = std::fs::canonicalize(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (opened, named) = (file.metadata()?, std::fs::metadata(&real)?);
        if (opened.dev(), opened.ino()) != (named.dev(), named.ino()) {
            return Err(std::io::Error::other(
                "the path was replaced while it was opened",
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(real)
}

/// The text a compressed file holds, at most `max_len` bytes of it.
fn decompress(
    compressed: &[u8],
    path: &std::path::Path,
    max_len: u64,
) -> Result<Vec<u8>, (RowErrorKind, String)> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| {
        let message = e.to_string();
        let message = message
            .strip_prefix(&format!("{}: ", path.display()))
            .unwrap_or(&message)
            .to_string();
        (RowErrorKind::FileUnreadable, message)
    };
    let decoded = crate::input::codec::decode(
        std::io::Cursor::new(compressed.to_vec()),
        Some(compressed.len() as u64),
        path,
    )
    .map_err(unreadable)?;
    let codec = decoded.codec();
    let mut out = Vec::new();
    decoded
        .take(max_len.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(unreadable)?;
    if out.len() as u64 > max_len {
        return Err((
            RowErrorKind::FileTooLarge,
            format!(
                "the {codec} data decodes to more than the maximum of {max_len} bytes (--max-filesize)"
            ),
        ));
    }
    Ok(out)
}

/// The row of one target.
fn scan_target(target: Target, plan: &Plan, options: &ScanOptions, scratch: &mut Scratch) -> Row {
    match target {
        Target::File { shown, path } => scan_file(shown, &path, plan, options, scratch),
        failed => failed
            .failed_row(plan.columns.len())
            .expect("a failed target"),
    }
}

/// Walks the sources and reads the files they hold, in parallel, the rows in walk order.
///
/// With more than one thread, the walk runs on a thread of its own and the workers read files
/// as the walk finds them (the walk of a large tree is then not a wait before the first read).
fn scan_sources(
    sources: &[PathSource],
    walk: &WalkOptions,
    plan: &Plan,
    options: &ScanOptions,
) -> Result<Vec<Row>, Error> {
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };
    if threads == 1 {
        let mut scratch = plan.scratch();
        return Ok(expand(sources, walk)?
            .into_iter()
            .map(|t| scan_target(t, plan, options, &mut scratch))
            .collect());
    }
    let feed = Feed::default();
    let (walked, parts) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut scratch = plan.scratch();
                    let mut rows = Vec::new();
                    while let Some((i, target)) = feed.next() {
                        rows.push((i, scan_target(target, plan, options, &mut scratch)));
                    }
                    rows
                })
            })
            .collect();
        let mut batch = Vec::with_capacity(Feed::BATCH);
        let walked = expand_each(sources, walk, &mut |t| {
            batch.push(t);
            if batch.len() == Feed::BATCH {
                feed.push(&mut batch);
            }
        });
        feed.push(&mut batch);
        feed.close();
        let parts: Vec<Vec<(usize, Row)>> = workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect();
        (walked, parts)
    });
    walked?;
    let mut slots: Vec<Option<Row>> = vec![None; parts.iter().map(Vec::len).sum()];
    for (i, row) in parts.into_iter().flatten() {
        slots[i] = Some(row);
    }
    Ok(slots
        .into_iter()
        .map(|r| r.expect("every slot filled"))
        .collect())
}

/// Targets handed from the walk to the workers, numbered in walk order.
#[derive(Default)]
struct Feed {
    state: Mutex<FeedState>,
    /// Signalled when targets arrive or the walk ends.
    more: Condvar,
}

#[derive(Default)]
struct FeedState {
    /// Every target so far; taken (`None`) once claimed.
    targets: Vec<Option<Target>>,
    /// The next target to claim.
    claimed: usize,
    /// The walk has ended.
    closed: bool,
    /// Workers waiting for targets.
    waiting: usize,
}

impl Feed {
    /// Targets the walk hands over at a time.
    const BATCH: usize = 32;

    fn lock(&self) -> std::sync::MutexGuard<'_, FeedState> {
        crate::lock(&self.state)
    }

    /// Hands over `batch` (emptied).
    fn push(&self, batch: &mut Vec<Target>) {
        if batch.is_empty() {
            return;
        }
        let mut st = self.lock();
        st.targets.extend(batch.drain(..).map(Some));
        if st.waiting > 0 {
            self.more.notify_all();
        }
    }

    /// Ends the walk: workers finish what is there and stop.
    fn close(&self) {
        self.lock().closed = true;
        self.more.notify_all();
    }

    /// The next target and its number; `None` once the walk has ended and all are claimed.
    fn next(&self) -> Option<(usize, Target)> {
        let mut st = self.lock();
        loop {
            if st.claimed < st.targets.len() {
                let i = st.claimed;
                st.claimed += 1;
                return st.targets[i].take().map(|t| (i, t));
            }
            if st.closed {
                return None;
            }
            st.waiting += 1;
            st = self.more.wait(st).unwrap_or_else(|p| p.into_inner());
            st.waiting -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::set::Strategy;
    use crate::{Flags, Flavor};

    fn cells(
        patterns: &[AuditPattern],
        text: &[u8],
        ignore_case: bool,
        mode: CellMode,
    ) -> Vec<Option<u64>> {
        let plan = Plan::new(patterns, ignore_case).unwrap();
        plan.evaluate(text, mode, &mut plan.scratch().set).0
    }

    fn strategy(plan: &Plan, column: usize) -> Strategy {
        match &plan.columns[column] {
            Column::Regex { member, .. } => plan.regexes.strategy(*member),
            _ => panic!("column {column} is not a regex"),
        }
    }

    fn sub(s: &str) -> AuditPattern {
        AuditPattern::substring(s).unwrap()
    }

    fn re(name: &str, p: &str, flavor: Flavor) -> AuditPattern {
        AuditPattern::regex(name, p, flavor, Flags::default()).unwrap()
    }

    /// Regression: the UUID column ran in the shared set's full DFA pass over every
    /// file; it now checks anchored matches only where `-4` occurs (the engine's shared
    /// literal pass). Same answers.
    #[test]
    fn inner_literal_columns_answer_as_the_engine_does() {
        let uuid = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
        let ci = |name: &str, p: &str| {
            AuditPattern::regex_ci(name, p, Flavor::Rust, Flags::default(), true).unwrap()
        };
        let ps = [
            re("uuid", uuid, Flavor::Rust),
            re("uuid_py", &format!(r"\b{uuid}"), Flavor::PYTHON),
            re("tag", r"[A-Z]{3}-42", Flavor::JS),
            // Case folding keeps the UUID's classes one byte wide ([0-9A-Fa-f]) ...
            ci("uuid_i", uuid),
            // ... but not [A-Z]'s: it also matches the Kelvin sign (three bytes) and the long
            // s (two), so no literal is at a fixed offset.
            ci("tag_i", r"[A-Z]{3}-42"),
        ];
        let plan = Plan::new(&ps, false).unwrap();
        for i in 0..4 {
            assert!(
                matches!(strategy(&plan, i), Strategy::InnerLiteral { .. }),
                "column {i}"
            );
        }
        assert!(!matches!(strategy(&plan, 4), Strategy::InnerLiteral { .. }));
        let texts: [&[u8]; 10] = [
            b"",
            b"-4",
            b"id 7fce46e0-1234-4abc-9def-0123456789ab ok",
            b"7fce46e0-1234-4abc-9def-0123456789a",
            b"x7fce46e0-1234-4abc-7def-0123456789ab -4-4",
            b"-47fce46e0-1234-4abc-8def-0123456789abc\nABC-42",
            b"\xff\xfe7fce46e0-1234-4abc-9def-0123456789ab",
            b"abc-42 ABD-4 AB-42",
            "a\u{212A}c-42 7FCE46E0-1234-4ABC-9DEF-0123456789AB".as_bytes(),
            "\u{17F}\u{17F}\u{17F}-42".as_bytes(),
        ];
        for text in texts {
            let got = cells(&ps, text, false, CellMode::Presence);
            let s = String::from_utf8_lossy(text);
            let want: Vec<Option<u64>> = ps
                .iter()
                .map(|p| match &p.matcher {
                    Matcher::Regex(r) => Some(u64::from(r.is_match(&s).unwrap())),
                    _ => unreachable!(),
                })
                .collect();
            assert_eq!(got, want, "{s:?}");
        }
    }

    #[test]
    fn overlapping_needles_do_not_hide_each_other() {
        let ps = [sub("abc"), sub("b"), sub("zz")];
        assert_eq!(
            cells(&ps, b"xabcx", false, CellMode::Presence),
            [Some(1), Some(1), Some(0)]
        );
    }

    #[test]
    fn counts_are_non_overlapping_per_needle_like_str_count() {
        // Python: "aaaa".count("aa") == 2, "abab".count("ab") == 2.
        let ps = [sub("aa"), sub("a"), sub("ab")];
        assert_eq!(
            cells(&ps, b"aaaa abab", false, CellMode::Counts),
            [Some(2), Some(6), Some(2)]
        );
    }

    #[test]
    fn ignore_case_folds_ascii_and_non_ascii() {
        let ps = [sub("HELLO"), sub("ÄRGER"), sub("straße")];
        assert_eq!(
            cells(
                &ps,
                "hello ärger STRASSE".as_bytes(),
                true,
                CellMode::Presence
            ),
            [Some(1), Some(1), Some(0)]
        );
        assert_eq!(
            cells(&ps, "Ärger ärger".as_bytes(), true, CellMode::Counts),
            [Some(0), Some(2), Some(0)]
        );
        assert_eq!(
            cells(&ps, "hello ärger".as_bytes(), false, CellMode::Presence),
            [Some(0), Some(0), Some(0)]
        );
    }

    #[test]
    fn set_and_own_engine_agree_with_the_regex() {
        let ps = [
            re("wo", r"\[WO:[0-9a-f-]+\]", Flavor::Rust),
            re("look", r"foo(?=bar)", Flavor::PYTHON),
            re("end", r"x$", Flavor::PYTHON),
            re("none", r"\d{9}", Flavor::JS),
        ];
        let plan = Plan::new(&ps, false).unwrap();
        assert_eq!(strategy(&plan, 1), Strategy::Own);
        assert_eq!(strategy(&plan, 0), Strategy::Prefix);
        // Python `$` is linear when the text has no final newline; here it has one, so the
        // linear program's answer is not used and the column's own engine decides (it
        // matches: "ax\n").
        assert_ne!(strategy(&plan, 2), Strategy::Own);
        let text = b"[WO:ab-12] foobar [WO:ff] ax\n";
        assert_eq!(
            cells(&ps, text, false, CellMode::Presence),
            [Some(1), Some(1), Some(1), Some(0)]
        );
        assert_eq!(
            cells(&ps, text, false, CellMode::Counts),
            [Some(2), Some(1), Some(1), Some(0)]
        );
    }

    #[test]
    fn invalid_utf8_is_matched_not_skipped() {
        let ps = [sub("needle"), re("r", "ne+dle", Flavor::Rust)];
        assert_eq!(
            cells(&ps, b"\xff\xfe needle \xc3", false, CellMode::Presence),
            [Some(1), Some(1)]
        );
    }

    #[test]
    fn invalid_column_is_unknown_and_reported() {
        let bad = AuditPattern::invalid(
            "bad",
            Error::new(crate::error::ErrorKind::PatternInvalid, "unclosed group"),
        );
        let ps = [sub("a"), bad];
        let plan = Plan::new(&ps, false).unwrap();
        let (c, e) = plan.evaluate(b"a", CellMode::Presence, &mut plan.scratch().set);
        assert_eq!(c, [Some(1), None]);
        assert_eq!(
            e, None,
            "an invalid pattern is reported once, not in every row"
        );
    }

    #[test]
    fn set_answers_only_where_its_program_is_exact() {
        // Python \b: the set's program uses the regex crate's \w. On a text with a character
        // where Python's \w differs (U+00B2 SUPERSCRIPT TWO is \p{N}, so \w for Python, not
        // for the regex crate) the set's answer would be wrong ("abcdef²" has no \b after f
        // in Python), so the column's own engine decides. Astral characters do the same for
        // JS without `u`.
        let ps = [
            re("hex", r"\b[0-9a-f]{6}\b", Flavor::PYTHON),
            re("js", r"[a-z]+", Flavor::JS),
        ];
        let plan = Plan::new(&ps, false).unwrap();
        assert_ne!(strategy(&plan, 0), Strategy::Own);
        assert_ne!(strategy(&plan, 1), Strategy::Own);
        for text in [
            "x abcdef y",
            "abcdefg",
            "\u{1F600} abc",
            "caf\u{e9} abcdef\u{b2}",
        ] {
            let want: Vec<Option<u64>> = ps
                .iter()
                .map(|p| match &p.matcher {
                    Matcher::Regex(r) => r.is_match(text).ok().map(u64::from),
                    _ => unreachable!(),
                })
                .collect();
            let (got, _) =
                plan.evaluate(text.as_bytes(), CellMode::Presence, &mut plan.scratch().set);
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn line_by_line_answers_equal_the_whole_text_answers() {
        let patterns = [
            r"\b[0-9a-f]{6,12}\b",
            r"\Bab\w",
            r"(?m)^\w+é$",
            r"\bx\b",
            r"[a-f]{3}\b",
        ];
        let ps: Vec<AuditPattern> = patterns.iter().map(|p| re(p, p, Flavor::Rust)).collect();
        let plan = Plan::new(&ps, false).unwrap();
        let pieces = [
            "abcdef",
            "é",
            "x",
            " ",
            "\n",
            "cafébabe",
            "ü1234567",
            "zz",
            "ab",
            "b",
            "-",
            "\u{1F600}",
        ];
        // Deterministic pseudo-random texts built from the pieces.
        let mut seed = 7u64;
        for _ in 0..400 {
            let mut text = String::new();
            for _ in 0..(seed % 9) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let want: Vec<Option<u64>> = ps
                .iter()
                .map(|p| match &p.matcher {
                    Matcher::Regex(r) => r.is_match(&text).ok().map(u64::from),
                    _ => unreachable!(),
                })
                .collect();
            let (got, _) =
                plan.evaluate(text.as_bytes(), CellMode::Presence, &mut plan.scratch().set);
            assert_eq!(got, want, "{text:?}");
            seed ^= text.len() as u64;
        }
    }
}
