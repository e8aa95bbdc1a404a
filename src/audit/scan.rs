//! Reading each file once and answering every column from that one read.
//!
//! The plan is built once per audit:
//! - substrings go into one Aho-Corasick automaton over the raw bytes (ASCII case folding for
//!   `ignore_case`); a case-insensitive substring with non-ASCII letters is a `(?i)` literal
//!   regex instead (Unicode simple case folding, so `ÄRGER` finds `ärger`);
//! - a regex whose program on typical input is the linear engine runs as a `regex` crate
//!   regex over the bytes. If its matches must start with one of a few literals (a literal
//!   prefilter: `\[WO:`, `\[ACK`…), it runs alone: the prefilter skips to candidates with
//!   memchr / SIMD and the search stops at the first match, far cheaper than a DFA pass. The
//!   regexes without such a prefix share one `RegexSet`, one DFA pass for all of them;
//! - the rest (look-around, backreferences), and any regex on an input where its typical
//!   program is not exact (see [`InputTraits`]), run on their own engine: correctness first.
//!
//! A Unicode `\b` stops the lazy DFA at the first non-ASCII byte and sends the search to the
//! slow NFA simulation. For a regex that cannot match a newline and asserts nothing but word
//! boundaries and line anchors, a match lies within one line and each line's answer depends
//! on that line only; on non-ASCII text such a regex runs on the runs of ASCII lines (DFA) and
//! the non-ASCII lines one at a time (NFA on a short line), with the same answer.
//!
//! Counts are each column's own non-overlapping occurrences (Python `str.count` for
//! substrings, the flavor's iteration rules for regexes); the fast paths then only tell which
//! columns are worth counting.
//!
//! Files are read by a pool of scoped threads taking the next index from an atomic counter;
//! each row lands in its slot, so the output order never depends on the scheduling. A file is
//! read with [`Text::from_file`] (plain reads, so a file truncated under the scan is a ⚠️ row,
//! never a crash): memory is bounded by the few files in flight, not by the tree.

use super::paths::{Target, expand, io_failure};
use super::{
    AuditPattern, CellMode, Matcher, PathSource, PatternError, Report, Row, RowError, RowErrorKind,
    WalkOptions,
};
use crate::InputTraits;
use crate::error::{Error, ErrorKind};
use crate::input::Text;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

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
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            ignore_case: false,
            mode: CellMode::Presence,
            max_filesize: super::DEFAULT_MAX_FILESIZE,
            binary: false,
            threads: 0,
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
    let targets = expand(sources, walk)?;
    let plan = Plan::new(patterns, options.ignore_case)?;
    let rows = scan_targets(&targets, &plan, options);
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
    Literal,
    /// A case-folded non-ASCII substring in the folded set, with its own regex for counting.
    Folded(regex::bytes::Regex),
    /// A regex with a linear program on typical input; counted, and answered on other
    /// inputs, by its own engine.
    Fast(Box<Fast<'p>>),
    /// A regex run on its own engine.
    Own(&'p crate::Regex),
    /// A pattern that did not compile: unknown everywhere (reported once, in the report).
    Invalid,
}

/// A regex answered by the `regex` crate directly.
struct Fast<'p> {
    re: &'p crate::Regex,
    /// The input traits under which `linear` is exact for it.
    needs: InputTraits,
    /// Its typical program, over bytes.
    linear: regex::bytes::Regex,
    /// Its index in the shared set, when it has no literal prefix.
    in_set: Option<usize>,
    /// For a regex without a literal prefix whose matches all hold a literal at a fixed
    /// offset (the UUID v4 pattern: `-4` at byte 13): it runs alone, checking an anchored
    /// match only where that literal occurs, instead of joining the set's full DFA pass.
    inner: Option<InnerLiteral>,
    /// It has a Unicode word boundary (slow on non-ASCII text) ...
    unicode_word: bool,
    /// ... and can be answered line by line (see the module docs).
    line_local: bool,
}

/// A literal every match holds at `offset` bytes from its start, and the program to confirm
/// a match anchored there.
struct InnerLiteral {
    offset: usize,
    finder: memchr::memmem::Finder<'static>,
    anchored: regex_automata::meta::Regex,
}

impl InnerLiteral {
    /// For `re` (whose typical program is `src`), when its matches hold such a literal: not
    /// under case folding (an ASCII class may then match a wider character, `k` the Kelvin
    /// sign) and not with a literal prefix (the prefilter already does better).
    fn of(re: &crate::Regex, src: &str) -> Option<InnerLiteral> {
        if re.flags().ignore_case || re.ast().flags.ignore_case {
            return None;
        }
        let (offset, lit) = crate::presets::scan::fixed_offset_literal(&re.ast().root)?;
        let anchored = regex_automata::meta::Regex::new(src).ok()?;
        Some(InnerLiteral {
            offset,
            finder: memchr::memmem::Finder::new(lit.as_bytes()).into_owned(),
            anchored,
        })
    }

    /// Whether the regex matches in `b`: an anchored match at some occurrence of the literal,
    /// `offset` bytes back.
    fn is_match(&self, b: &[u8]) -> bool {
        self.finder
            .find_iter(b)
            .filter_map(|p| p.checked_sub(self.offset))
            .any(|start| {
                let input = regex_automata::Input::new(b)
                    .range(start..)
                    .anchored(regex_automata::Anchored::Yes)
                    .earliest(true);
                self.anchored.search_half(&input).is_some()
            })
    }
}

/// The matchers of one audit, compiled once.
pub struct Plan<'p> {
    columns: Vec<Column<'p>>,
    names: Vec<&'p str>,
    ac: Option<AhoCorasick>,
    /// Column of each automaton pattern.
    ac_columns: Vec<usize>,
    /// One set for the folded substrings (run on bytes) ...
    folded_set: Option<regex::bytes::RegexSet>,
    folded_columns: Vec<usize>,
    /// ... and one for the linear regexes without a literal prefix (run on the text).
    regex_set: Option<regex::bytes::RegexSet>,
    /// Whether the set may be run line by line, and whether that helps (Unicode `\b`).
    set_line_local: bool,
    set_unicode_word: bool,
    /// Every input trait some fast regex relies on (computed once per file).
    fast_needs: InputTraits,
}

fn set_error(e: regex::Error) -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        format!("cannot build the audit's pattern set: {e}"),
    )
}

/// What the fast path needs to know about a regex's typical program.
struct Shape {
    /// Every match starts with one of a few non-empty literals.
    prefixed: bool,
    unicode_word: bool,
    line_local: bool,
}

fn shape(src: &str) -> Shape {
    use regex_syntax::hir::{Look, literal::Extractor};
    let Ok(hir) = regex_syntax::parse(src) else {
        return Shape {
            prefixed: false,
            unicode_word: true,
            line_local: false,
        };
    };
    let props = hir.properties();
    let looks = props.look_set();
    let seq = Extractor::new().extract(&hir);
    let prefixed = seq.literals().is_some_and(|lits| {
        !lits.is_empty() && lits.len() <= 64 && lits.iter().all(|l| !l.as_bytes().is_empty())
    });
    let word_or_line = looks.iter().all(|l| {
        matches!(
            l,
            Look::WordAscii
                | Look::WordAsciiNegate
                | Look::WordUnicode
                | Look::WordUnicodeNegate
                | Look::WordStartAscii
                | Look::WordEndAscii
                | Look::WordStartUnicode
                | Look::WordEndUnicode
                | Look::WordStartHalfAscii
                | Look::WordEndHalfAscii
                | Look::WordStartHalfUnicode
                | Look::WordEndHalfUnicode
                | Look::StartLF
                | Look::EndLF
        )
    });
    Shape {
        prefixed,
        unicode_word: looks.contains_word_unicode(),
        line_local: word_or_line
            && props.minimum_len().is_some_and(|n| n > 0)
            && !can_match_newline(&hir),
    }
}

/// Whether any literal or class in the pattern can match `\n` (a conservative walk over the
/// tree with an explicit stack: patterns may nest deeply).
fn can_match_newline(hir: &regex_syntax::hir::Hir) -> bool {
    use regex_syntax::hir::{Class, HirKind};
    let mut stack = vec![hir];
    while let Some(h) = stack.pop() {
        match h.kind() {
            HirKind::Literal(lit) => {
                if lit.0.contains(&b'\n') {
                    return true;
                }
            }
            HirKind::Class(Class::Unicode(c)) => {
                if c.ranges()
                    .iter()
                    .any(|r| r.start() <= '\n' && '\n' <= r.end())
                {
                    return true;
                }
            }
            HirKind::Class(Class::Bytes(c)) => {
                if c.ranges()
                    .iter()
                    .any(|r| r.start() <= b'\n' && b'\n' <= r.end())
                {
                    return true;
                }
            }
            HirKind::Empty | HirKind::Look(_) => {}
            HirKind::Repetition(r) => stack.push(&r.sub),
            HirKind::Capture(c) => stack.push(&c.sub),
            HirKind::Concat(hs) | HirKind::Alternation(hs) => stack.extend(hs.iter()),
        }
    }
    false
}

/// Calls `f` on the runs of ASCII lines and on each non-ASCII line of `b` (newlines left
/// out), until `f` returns true; returns whether it did.
fn line_chunks(b: &[u8], mut f: impl FnMut(&[u8]) -> bool) -> bool {
    let mut run_start = 0;
    let mut pos = 0;
    while pos < b.len() {
        let end = memchr::memchr(b'\n', &b[pos..]).map_or(b.len(), |i| pos + i);
        let line = &b[pos..end];
        if !line.is_ascii() {
            if pos > run_start + 1 && f(&b[run_start..pos - 1]) {
                return true;
            }
            if f(line) {
                return true;
            }
            run_start = end + 1;
        }
        pos = end + 1;
    }
    run_start < b.len() && f(&b[run_start..])
}

impl<'p> Plan<'p> {
    /// Compiles the automaton, the regexes and the set for `patterns`.
    ///
    /// # Errors
    /// Only when the automaton cannot be built (an enormous substring list).
    pub fn new(patterns: &'p [AuditPattern], ignore_case: bool) -> Result<Plan<'p>, Error> {
        let mut columns = Vec::with_capacity(patterns.len());
        let mut literals: Vec<&str> = Vec::new();
        let mut ac_columns = Vec::new();
        let mut folded_sources = Vec::new();
        let mut folded_columns = Vec::new();
        let mut set_sources: Vec<String> = Vec::new();
        let (mut set_line_local, mut set_unicode_word) = (true, false);
        for (i, p) in patterns.iter().enumerate() {
            let col = match &p.matcher {
                Matcher::Substring(s) if ignore_case && !s.is_ascii() => {
                    let src = format!("(?i){}", regex::escape(s));
                    let re = regex::bytes::Regex::new(&src).map_err(set_error)?;
                    folded_sources.push(src);
                    folded_columns.push(i);
                    Column::Folded(re)
                }
                Matcher::Substring(s) => {
                    literals.push(s);
                    ac_columns.push(i);
                    Column::Literal
                }
                Matcher::Regex(re) => match re.typical_linear() {
                    Some((src, needs)) => match regex::bytes::RegexBuilder::new(src)
                        .size_limit(64 << 20)
                        .build()
                    {
                        Ok(linear) => {
                            let sh = shape(src);
                            // A literal prefix at offset 0 is the engine's own prefilter's job; a
                            // literal further in (after a class run, `-4` in a UUID) is rxw's,
                            // even when the prefix extractor found a weak set of one-byte
                            // prefixes (it does for the Python translation of the UUID one).
                            let inner = if sh.unicode_word {
                                None
                            } else {
                                InnerLiteral::of(re, src).filter(|l| !sh.prefixed || l.offset > 0)
                            };
                            // A Unicode word boundary that can be answered line by line runs
                            // alone: in the set it would send every other member through the
                            // slow engine on non-ASCII lines.
                            let in_set = if sh.prefixed
                                || inner.is_some()
                                || (sh.unicode_word && sh.line_local)
                            {
                                None
                            } else {
                                set_sources.push(src.to_string());
                                set_line_local &= sh.line_local;
                                set_unicode_word |= sh.unicode_word;
                                Some(set_sources.len() - 1)
                            };
                            Column::Fast(Box::new(Fast {
                                re,
                                needs,
                                linear,
                                in_set,
                                inner,
                                unicode_word: sh.unicode_word,
                                line_local: sh.line_local,
                            }))
                        }
                        Err(_) => Column::Own(re),
                    },
                    None => Column::Own(re),
                },
                Matcher::Invalid(_) => Column::Invalid,
            };
            columns.push(col);
        }
        let ac = if literals.is_empty() {
            None
        } else {
            Some(
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::Standard)
                    .ascii_case_insensitive(ignore_case)
                    .build(&literals)
                    .map_err(|e| {
                        Error::new(
                            ErrorKind::LimitExceeded,
                            format!("cannot build the substring automaton: {e}"),
                        )
                    })?,
            )
        };
        let build_set =
            |sources: &[String]| -> Result<Option<regex::bytes::RegexSet>, regex::Error> {
                if sources.is_empty() {
                    return Ok(None);
                }
                regex::bytes::RegexSetBuilder::new(sources)
                    .size_limit(256 << 20)
                    .dfa_size_limit(64 << 20)
                    .build()
                    .map(Some)
            };
        let folded_set = build_set(&folded_sources).map_err(set_error)?;
        // Even a set of one is kept: for a regex without a literal prefix, the set's plain DFA
        // pass measured several times faster than the regex alone, whose inner-literal
        // strategies can go wrong on such patterns (the UUID one took the set's place only with
        // rxw's own fixed-offset literal, [`InnerLiteral`]). A set too large for the engine's
        // limits is not an error: its members run alone.
        let regex_set = build_set(&set_sources).unwrap_or_else(|_| {
            for c in &mut columns {
                if let Column::Fast(f) = c {
                    f.in_set = None;
                }
            }
            None
        });
        let fast_needs = columns
            .iter()
            .fold(InputTraits::default(), |acc, c| match c {
                Column::Fast(f) => acc.union(f.needs),
                _ => acc,
            });
        Ok(Plan {
            columns,
            names: patterns.iter().map(|p| p.name.as_str()).collect(),
            ac,
            ac_columns,
            folded_set,
            folded_columns,
            regex_set,
            set_line_local,
            set_unicode_word,
            fast_needs,
        })
    }

    fn needs_text(&self) -> bool {
        self.columns
            .iter()
            .any(|c| matches!(c, Column::Fast(_) | Column::Own(_)))
    }

    /// Which members of the set match `b` (line by line when that is exact and faster).
    fn set_hits(&self, set: &regex::bytes::RegexSet, b: &[u8], ascii: bool) -> Vec<bool> {
        let mut hits = vec![false; set.len()];
        if self.set_unicode_word && self.set_line_local && !ascii {
            line_chunks(b, |chunk| {
                for k in set.matches(chunk).iter() {
                    hits[k] = true;
                }
                hits.iter().all(|h| *h)
            });
        } else {
            for k in set.matches(b).iter() {
                hits[k] = true;
            }
        }
        hits
    }

    /// Answers every column for one file's contents.
    ///
    /// Returns the cells and, when a pattern failed on this input, the first failure.
    pub fn evaluate(&self, text: &Text, mode: CellMode) -> (Vec<Option<u64>>, Option<RowError>) {
        let bytes = text.bytes();
        let mut cells: Vec<Option<u64>> = vec![None; self.columns.len()];
        let mut error: Option<RowError> = None;
        if let Some(ac) = &self.ac {
            self.run_automaton(ac, bytes, mode, &mut cells);
        }
        if let Some(set) = &self.folded_set {
            let hits = set.matches(bytes);
            for (k, col) in self.folded_columns.iter().enumerate() {
                let n = match (&self.columns[*col], hits.matched(k), mode) {
                    (_, false, _) => 0,
                    (_, true, CellMode::Presence) => 1,
                    (Column::Folded(re), true, CellMode::Counts) => {
                        re.find_iter(bytes).count() as u64
                    }
                    _ => unreachable!("folded columns are Column::Folded"),
                };
                cells[*col] = Some(n);
            }
        }
        if !self.needs_text() {
            return (cells, error);
        }
        let s = text.as_str();
        let b = s.as_bytes();
        let ascii = s.is_ascii();
        let traits = InputTraits::of(s, self.fast_needs);
        let set_hits = self
            .regex_set
            .as_ref()
            .map(|set| self.set_hits(set, b, ascii));
        for (i, col) in self.columns.iter().enumerate() {
            let (re, known) = match col {
                Column::Fast(f) if traits.meets(&f.needs) => {
                    let known = match (f.in_set, &set_hits) {
                        (Some(k), Some(hits)) => hits[k],
                        _ if f.inner.is_some() => {
                            f.inner.as_ref().is_some_and(|inner| inner.is_match(b))
                        }
                        _ if f.unicode_word && f.line_local && !ascii => {
                            line_chunks(b, |chunk| f.linear.is_match(chunk))
                        }
                        _ => f.linear.is_match(b),
                    };
                    (f.re, Some(known))
                }
                Column::Fast(f) => (f.re, None),
                Column::Own(re) => (*re, None),
                _ => continue,
            };
            let answer = match (known, mode) {
                (Some(false), _) => Ok(0),
                (Some(true), CellMode::Presence) => Ok(1),
                (None, CellMode::Presence) => re.is_match(s).map(u64::from),
                (_, CellMode::Counts) => re.count(s).map(|n| n as u64),
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

    /// Substring columns: overlapping search so no needle hides another; per column, an
    /// occurrence counts only when it starts at or after the end of the last one counted
    /// (non-overlapping, like `str.count`). Needles have a fixed length, so matches of one
    /// needle arrive in start order.
    fn run_automaton(
        &self,
        ac: &AhoCorasick,
        bytes: &[u8],
        mode: CellMode,
        cells: &mut [Option<u64>],
    ) {
        let n = self.ac_columns.len();
        let mut next_free = vec![0usize; n];
        let mut counts = vec![0u64; n];
        let mut found = 0usize;
        for m in ac.find_overlapping_iter(bytes) {
            let k = m.pattern().as_usize();
            if m.start() < next_free[k] {
                continue;
            }
            next_free[k] = m.end();
            counts[k] += 1;
            if counts[k] == 1 {
                found += 1;
                if mode == CellMode::Presence && found == n {
                    break;
                }
            }
        }
        for (k, col) in self.ac_columns.iter().enumerate() {
            cells[*col] = Some(match mode {
                CellMode::Presence => u64::from(counts[k] > 0),
                CellMode::Counts => counts[k],
            });
        }
    }
}

/// Reads one file and fills its row.
fn scan_file(
    shown: &super::paths::Shown,
    path: &std::path::Path,
    plan: &Plan,
    options: &ScanOptions,
) -> Row {
    let columns = plan.columns.len();
    let fail = |kind, message| Row::failed(shown.clone(), columns, kind, message);
    let opened = std::fs::File::open(path).and_then(|f| f.metadata().map(|m| (f, m)));
    let (file, meta) = match opened {
        Ok(fm) => fm,
        Err(e) => {
            let (kind, message) = io_failure(path, &e);
            return fail(kind, message);
        }
    };
    if meta.is_dir() {
        return fail(RowErrorKind::PathDirectory, "is a directory".into());
    }
    if meta.len() > options.max_filesize {
        return fail(
            RowErrorKind::FileTooLarge,
            format!(
                "file is {} bytes, over the maximum of {} bytes (--max-filesize)",
                meta.len(),
                options.max_filesize
            ),
        );
    }
    let text = match Text::from_file(file, &meta, path) {
        Ok(t) => t,
        Err(text_error) => {
            // Text's error is already a message; read again to classify the I/O error.
            let e = std::fs::File::open(path)
                .and_then(|mut f| std::io::copy(&mut f, &mut std::io::sink()))
                .err();
            let (kind, message) = match e {
                Some(e) => io_failure(path, &e),
                // Readable now: it changed while it was read (truncated or rotated).
                None => (
                    RowErrorKind::FileUnreadable,
                    text_error
                        .message
                        .strip_prefix(&format!("{}: ", path.display()))
                        .unwrap_or(&text_error.message)
                        .to_string(),
                ),
            };
            return fail(kind, message);
        }
    };
    if !options.binary
        && let Some(at) = memchr::memchr(0, text.bytes())
    {
        return fail(
            RowErrorKind::FileBinary,
            format!("binary file (NUL byte at offset {at}); use --binary to audit it anyway"),
        );
    }
    let (cells, error) = plan.evaluate(&text, options.mode);
    Row {
        path: shown.text.clone(),
        path_escaped: shown.escaped,
        cells,
        error,
    }
}

fn scan_targets(targets: &[Target], plan: &Plan, options: &ScanOptions) -> Vec<Row> {
    let columns = plan.columns.len();
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };
    let threads = threads.min(targets.len()).max(1);
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Row>>> = Mutex::new(vec![None; targets.len()]);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(t) = targets.get(i) else { break };
            let row = match t {
                Target::File { shown, path } => scan_file(shown, path, plan, options),
                failed => failed.failed_row(columns).expect("a failed target"),
            };
            done.push((i, row));
            if done.len() >= 64 {
                let mut s = slots.lock().unwrap_or_else(|p| p.into_inner());
                for (i, r) in done.drain(..) {
                    s[i] = Some(r);
                }
            }
        }
        let mut s = slots.lock().unwrap_or_else(|p| p.into_inner());
        for (i, r) in done {
            s[i] = Some(r);
        }
    };
    if threads == 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    slots
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|r| r.expect("every slot filled"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Flags, Flavor};

    fn cells(
        patterns: &[AuditPattern],
        text: &[u8],
        ignore_case: bool,
        mode: CellMode,
    ) -> Vec<Option<u64>> {
        let plan = Plan::new(patterns, ignore_case).unwrap();
        plan.evaluate(&Text::from_bytes(text.to_vec()), mode).0
    }

    fn sub(s: &str) -> AuditPattern {
        AuditPattern::substring(s).unwrap()
    }

    fn re(name: &str, p: &str, flavor: Flavor) -> AuditPattern {
        AuditPattern::regex(name, p, flavor, Flags::default()).unwrap()
    }

    /// Issue 14 item 14: the UUID column ran in the shared set's full DFA pass over every
    /// file; it now checks anchored matches only where `-4` occurs. Same answers.
    #[test]
    fn inner_literal_columns_answer_as_the_engine_does() {
        let uuid = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
        let ps = [
            re("uuid", uuid, Flavor::Rust),
            re("uuid_py", &format!(r"{uuid}"), Flavor::Python),
            re("tag", r"[A-Z]{3}-42", Flavor::Js),
        ];
        let plan = Plan::new(&ps, false).unwrap();
        for (i, c) in plan.columns.iter().enumerate() {
            let Column::Fast(f) = c else {
                panic!("column {i} is not fast")
            };
            assert!(f.inner.is_some() && f.in_set.is_none(), "column {i}");
        }
        let texts: [&[u8]; 8] = [
            b"",
            b"-4",
            b"id 7fce46e0-1234-4abc-9def-0123456789ab ok",
            b"7fce46e0-1234-4abc-9def-0123456789a",
            b"x7fce46e0-1234-4abc-7def-0123456789ab -4-4",
            b"-47fce46e0-1234-4abc-8def-0123456789abc\nABC-42",
            b"\xff\xfe7fce46e0-1234-4abc-9def-0123456789ab",
            b"abc-42 ABD-4 AB-42",
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
        // Case folding keeps such a column out of the inner-literal path.
        let ci = [AuditPattern::regex_ci("u", uuid, Flavor::Rust, Flags::default(), true).unwrap()];
        let plan = Plan::new(&ci, false).unwrap();
        assert!(matches!(&plan.columns[0], Column::Fast(f) if f.inner.is_none()));
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
            re("look", r"foo(?=bar)", Flavor::Python),
            re("end", r"x$", Flavor::Python),
            re("none", r"\d{9}", Flavor::Js),
        ];
        assert!(matches!(
            Plan::new(&ps, false).unwrap().columns[1],
            Column::Own(_)
        ));
        assert!(matches!(
            Plan::new(&ps, false).unwrap().columns[0],
            Column::Fast(..)
        ));
        // Python `$` is linear when the text has no final newline; here it has one, so the
        // set's answer is not used and the column's own engine decides (it matches: "ax\n").
        assert!(matches!(
            Plan::new(&ps, false).unwrap().columns[2],
            Column::Fast(..)
        ));
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
            Error::new(ErrorKind::PatternInvalid, "unclosed group"),
        );
        let ps = [sub("a"), bad];
        let plan = Plan::new(&ps, false).unwrap();
        let (c, e) = plan.evaluate(&Text::from_bytes(b"a".to_vec()), CellMode::Presence);
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
            re("hex", r"\b[0-9a-f]{6}\b", Flavor::Python),
            re("js", r"[a-z]+", Flavor::Js),
        ];
        let plan = Plan::new(&ps, false).unwrap();
        assert!(matches!(plan.columns[0], Column::Fast(..)));
        assert!(matches!(plan.columns[1], Column::Fast(..)));
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
            let (got, _) = plan.evaluate(
                &Text::from_bytes(text.as_bytes().to_vec()),
                CellMode::Presence,
            );
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn line_chunks_split_at_non_ascii_lines() {
        let mut seen = Vec::new();
        let stopped = line_chunks("a\nb\nc\u{e9}\nd\ne\n\u{fc}".as_bytes(), |c| {
            seen.push(String::from_utf8(c.to_vec()).unwrap());
            false
        });
        assert!(!stopped);
        assert_eq!(seen, ["a\nb", "c\u{e9}", "d\ne", "\u{fc}"]);
        let mut n = 0;
        assert!(line_chunks(b"x\ny\xc3\xa9\nz", |_| {
            n += 1;
            n == 2
        }));
        assert_eq!(n, 2);
    }

    #[test]
    fn shapes() {
        let s = shape(r"\[WO:[0-9a-f-]+\]");
        assert!(s.prefixed && !s.unicode_word);
        let s = shape(r"\b[0-9a-f]{6,12}\b");
        assert!(!s.prefixed && s.unicode_word && s.line_local);
        assert!(!shape(r"\ba\s+b\b").line_local, "\\s can match a newline");
        assert!(!shape(r"\ba$").line_local, "$ is end of text");
        assert!(shape(r"(?m)^\w+$").line_local);
        assert!(!shape(r"\b\w*").line_local, "can match empty");
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
            let (got, _) = plan.evaluate(
                &Text::from_bytes(text.clone().into_bytes()),
                CellMode::Presence,
            );
            assert_eq!(got, want, "{text:?}");
            seed ^= text.len() as u64;
        }
    }
}
