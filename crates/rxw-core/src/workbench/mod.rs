//! The headless workbench: what the TUI shows, with no terminal in sight.
//!
//! A [`Workbench`] holds the pattern, flavor, flags, input, replacement and test cases, the
//! compiled pattern (or its error, with the last good pattern kept for display) and the scan
//! results as they stream in from the `scan` workers. Every change is a plain method, so it
//! is tested without a terminal; the TUI adds focus, scrolling and popups on top.

pub mod analysis;
pub mod buffer;
pub mod compile;
pub mod export;
pub mod filter;
pub mod filtered;
pub mod filters;
pub mod follow;
pub mod jobs_view;
pub mod lens;
pub mod line;
pub mod matching;
pub mod nav;
pub mod task;
pub mod timeline_view;

use crate::engine::replace::Template;
use crate::engine::{EngineKind, Match, MatchOptions, Regex};
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
pub use analysis::{Analysis, AnalysisKey, ExplainRow};
pub use buffer::{IndexedText, SharedText, TextBuffer};
use compile::{CompileKey, Compiler};
pub use line::LineEditor;
use matching::{ScanEvent, Scanner};
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The embedded demo input: a NetVM agent log.
pub const DEMO_LOG: &str = include_str!("../../../../assets/demo.log");

/// Patterns at least this long are compiled on a worker thread by
/// [`Workbench::request_compile`]; shorter ones compile at once (microseconds).
pub const BACKGROUND_COMPILE_BYTES: usize = 4096;

/// How [`Workbench::request_compile`] served a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compiling {
    /// Pattern, flavor and flags are those already compiled (or being compiled).
    Unchanged,
    /// Compiled now: [`Workbench::compiled`] has the result.
    Done,
    /// Compiling on the worker; [`Workbench::poll`] takes the result in and
    /// [`Workbench::take_fresh_compile`] says when it has.
    InBackground,
}

/// Where the input came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputSource {
    /// The embedded demo log.
    Demo,
    /// A file named on the command line.
    File(String),
    /// Standard input.
    Stdin,
    /// Typed (or restored from the last session).
    Typed,
}

/// The state of the current scan, filled in as events arrive.
#[derive(Debug, Default)]
pub struct Results {
    /// The request these results answer.
    pub generation: u64,
    /// Byte range the window matches cover.
    pub window: Range<usize>,
    /// Matches (with groups) in the window.
    pub window_matches: Vec<Match>,
    /// Spans of all matches found so far by the full scan, in order.
    pub spans: Vec<(usize, usize)>,
    /// The first and last line (0-based) of each of `spans`.
    pub span_lines: Vec<(u32, u32)>,
    /// Matches counted so far.
    pub count: usize,
    /// Byte the full scan has reached.
    pub scanned: usize,
    /// Whether the full scan has finished.
    pub done: bool,
    /// Full-scan time, once done.
    pub elapsed: Option<Duration>,
    /// An engine error (backtrack limit) from either scan.
    pub error: Option<Error>,
    /// When the request was made.
    pub started: Option<Instant>,
    /// The byte the full scan started at (0, or where growth is scanned from).
    pub scan_from: usize,
    /// When the window matches arrived.
    pub window_at: Option<Instant>,
    /// Whether the window matches for the current request have arrived.
    pub window_ready: bool,
    /// The matcher's steps over the full scan (0 on the linear engine), once it is done.
    pub steps: u64,
    /// The input length the full scan covers (it grows when a followed file's new bytes are
    /// scanned by [`Workbench::append_input`]).
    pub text_len: usize,
    /// Whether the user stopped the full scan ([`Workbench::stop_full_scan`]): `count` is
    /// then what the first `scanned` bytes hold, and growth is not scanned.
    pub stopped: bool,
    /// From the finished full scan, for a pattern whose attempts may read without bound: the
    /// first byte after its last match where an attempt could begin (see
    /// [`matching::ScanEvent::Done`]).
    pub pending: Option<usize>,
    /// Whether the finished full scan of a paged input may differ from one scan of the whole
    /// text: a match spanning two of its pieces could be missed (see
    /// [`matching::ScanEvent::Done`]).
    pub inexact: bool,
    /// While growth is being scanned: the count before the growth and the input length it
    /// covered. The matches dropped to be found again all lie before that length, so until
    /// the scan passes it the count shown stays at least the old one ([`Results::shown_count`]).
    pub before_growth: Option<(usize, usize)>,
}

impl Results {
    /// The full scan's rate so far in bytes a second, once it has run long enough (200 ms)
    /// for the figure to mean something.
    pub fn rate(&self) -> Option<f64> {
        crate::progress::rate_since(self.started?, self.scan_from, self.scanned)
    }

    /// The match count to show: [`Results::count`], except that while a followed file's
    /// growth is scanned it does not fall below the count before the growth (the matches the
    /// scan dropped near the old end are being found again), so the count on screen of a
    /// file that only grows never goes back.
    pub fn shown_count(&self) -> usize {
        match self.before_growth {
            Some((count, len)) if !self.done && self.scanned < len => self.count.max(count),
            _ => self.count,
        }
    }
}

/// One test case's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestOutcome {
    /// Line number in the tests editor.
    pub line: usize,
    /// The subject text.
    pub subject: String,
    /// What the case expects.
    pub expect: Expect,
    /// The groups of the first match (whole match first), or `None` for no match.
    pub found: Option<Vec<Option<String>>>,
    /// For a `~` case: the subject after replacement.
    pub replaced: Option<String>,
    /// An engine error on this subject.
    pub error: Option<String>,
    verdict: Option<bool>,
}

pub use crate::testcases::Expect;

impl TestOutcome {
    /// `Some(true)` passed, `Some(false)` failed, `None` no expectation.
    pub fn passed(&self) -> Option<bool> {
        self.verdict
    }
}

/// Parses one test line; `None` for blank lines and `#` comments (see [`crate::testcases`]).
pub fn parse_test_line(line: &str) -> Option<(Expect, String)> {
    crate::testcases::parse_line(line)
}

/// A replace preview over the window: the text with replacements made and the changed ranges.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplacePreview {
    /// The window's text after replacement.
    pub text: String,
    /// Byte ranges of `text` produced by the template.
    pub changed: Vec<Range<usize>>,
    /// Replacements made in the window.
    pub replaced: usize,
}

/// The workbench state.
pub struct Workbench {
    /// The pattern editor.
    pub pattern: LineEditor,
    /// The flavor the pattern is written in.
    pub flavor: Flavor,
    /// The flags.
    pub flags: Flags,
    /// The input text.
    pub input: TextBuffer,
    /// Where the input came from.
    pub source: InputSource,
    /// The replacement template editor.
    pub replacement: LineEditor,
    /// Test cases, one per line.
    pub tests: TextBuffer,
    /// The key of the preset last loaded, if any.
    pub preset: Option<String>,
    compiled: Result<Arc<Regex>, Error>,
    last_good: Option<Arc<Regex>>,
    compiled_for: CompileKey,
    compiles: u64,
    /// The compile worker, started by the first long pattern.
    compiler: Option<Compiler>,
    /// What the worker is compiling for us, if anything.
    pending: Option<CompileKey>,
    /// Set when a background compile was taken in and not yet reported.
    fresh_compile: bool,
    /// Results of the current scan.
    pub results: Results,
    generation: u64,
    scanner: Scanner,
    /// The window last asked for.
    window: Range<usize>,
    /// The line filter (only lines with or without a match), kept up to date by
    /// [`Workbench::poll`].
    pub filter: filter::LineFilter,
    /// Breakpoints on pattern spans: set on explain nodes, run to by the debugger.
    pub breakpoints: Vec<crate::Span>,
    /// The pattern parsed for what it is now (see [`Workbench::analysis`]).
    analysis: std::sync::Mutex<Option<Arc<Analysis>>>,
    /// How many times [`Workbench::analysis`] parsed.
    parses: std::sync::atomic::AtomicU64,
    /// The registry lens: every preset over the input (scanned once activated).
    pub lens: lens::Lens,
    /// The jobs table of the input (read once activated).
    pub jobs: jobs_view::JobsView,
    /// Matches per time bucket (computed once activated).
    pub timeline: timeline_view::TimelineView,
    /// Exports to files, started on first use.
    exporter: Option<export::Exporter>,
    /// The lines the front end's combined filters show, when they are on: what an export of
    /// lines writes instead of the pattern's filter's rows ([`Workbench::set_export_rows`]).
    export_rows: Option<Vec<u32>>,
}

impl Workbench {
    /// A workbench with this pattern and input; nothing scanned yet.
    pub fn new(
        pattern: &str,
        flavor: Flavor,
        flags: Flags,
        input: String,
        source: InputSource,
    ) -> Workbench {
        let mut wb = Workbench {
            pattern: LineEditor::new(pattern),
            flavor,
            flags,
            input: TextBuffer::new(input),
            source,
            replacement: LineEditor::new(""),
            tests: TextBuffer::new(String::new()),
            preset: None,
            compiled: Err(Error::new(ErrorKind::PatternInvalid, "not compiled")),
            last_good: None,
            compiled_for: (String::from("\u{0}never"), flavor, flags),
            compiles: 0,
            compiler: None,
            pending: None,
            fresh_compile: false,
            results: Results::default(),
            generation: 0,
            scanner: Scanner::new(),
            window: 0..0,
            filter: filter::LineFilter::default(),
            breakpoints: Vec::new(),
            analysis: std::sync::Mutex::new(None),
            parses: std::sync::atomic::AtomicU64::new(0),
            lens: lens::Lens::new(Arc::default(), matching::SharedWaker::default()),
            jobs: jobs_view::JobsView::new(matching::SharedWaker::default()),
            timeline: timeline_view::TimelineView::new(matching::SharedWaker::default()),
            exporter: None,
            export_rows: None,
        };
        let waker = wb.scanner.waker().clone();
        wb.lens = lens::Lens::new(Arc::default(), waker.clone());
        wb.jobs = jobs_view::JobsView::new(waker.clone());
        wb.timeline = timeline_view::TimelineView::new(waker);
        wb.compile();
        wb
    }

    /// Keeps the operator views (lens, jobs, timeline) up to date with the input and the
    /// pattern: takes in their workers' results and starts what a change needs (a new
    /// input or pattern cancels the work under way). Cheap when nothing changed; inactive
    /// views cost nothing. Returns whether anything changed on screen.
    pub fn sync_views(&mut self) -> bool {
        let mut changed = self.lens.sync(&self.input);
        changed |= self.jobs.sync(&self.input);
        let pattern = self.compiled.as_ref().ok();
        changed |= self
            .timeline
            .sync(&self.input, pattern, self.lens.catalog());
        changed
    }

    /// Starts exporting to a file on a worker ([`export`]); the outcome comes from
    /// [`Workbench::take_export`].
    ///
    /// # Errors
    /// An export is still running.
    pub fn start_export(
        &mut self,
        what: export::ExportWhat,
        path: std::path::PathBuf,
    ) -> Result<(), String> {
        let Some(text) = self.input.shared().memory().cloned() else {
            return Err(format!(
                "an input read in pages ({} MB) is exported from the command line: rxw find or rxw parse with -o",
                self.input.len() >> 20
            ));
        };
        let rows = match &self.export_rows {
            Some(rows) => Some(rows.clone()),
            None => self.filter.active().then(|| self.filter.rows().to_vec()),
        };
        let catalog = Arc::clone(self.lens.catalog());
        let shown = (0..catalog.len())
            .filter(|&k| self.lens.enabled(k))
            .collect();
        let req = export::ExportRequest {
            what,
            path,
            text,
            regex: self.compiled.as_ref().ok().cloned(),
            rows,
            presets: Some((catalog, shown)),
        };
        let waker = self.scanner.waker().clone();
        self.exporter
            .get_or_insert_with(|| export::Exporter::new(waker))
            .start(req)
    }

    /// The lines an export of lines writes: those the front end's combined filters show
    /// (every filter, not only the pattern's), or `None` for the pattern's filter's rows
    /// (with no filter on: each line a match starts in).
    pub fn set_export_rows(&mut self, rows: Option<Vec<u32>>) {
        self.export_rows = rows;
    }

    /// Whether an export of lines writes the lines the combined filters show.
    pub fn exports_filtered_rows(&self) -> bool {
        self.export_rows.is_some()
    }

    /// The file an export is writing, while one runs.
    pub fn exporting(&self) -> Option<&std::path::Path> {
        self.exporter.as_ref().and_then(export::Exporter::running)
    }

    /// The export that ended since the last call, if one did.
    pub fn take_export(&mut self) -> Option<export::ExportOutcome> {
        self.exporter.as_mut().and_then(export::Exporter::poll)
    }

    /// Waits up to `timeout` for the running export (tests).
    pub fn wait_export(&mut self, timeout: Duration) -> Option<export::ExportOutcome> {
        self.exporter.as_mut().and_then(|e| e.wait(timeout))
    }

    /// Waits up to `timeout` for the active operator views to be complete (tests and
    /// screenshots); returns whether they are.
    pub fn settle_views(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let left = || deadline.saturating_duration_since(Instant::now());
        let lens = self.lens.settle(&self.input, left());
        let jobs = self.jobs.settle(&self.input, left());
        let pattern = self.compiled.as_ref().ok();
        let timeline = self
            .timeline
            .settle(&self.input, pattern, self.lens.catalog(), left());
        lens && jobs && timeline
    }

    fn compile_key(&self) -> CompileKey {
        (self.pattern.text().to_string(), self.flavor, self.flags)
    }

    /// Recompiles when the pattern, flavor or flags changed; returns whether they had.
    /// Compiles on this thread whatever the length (see [`Workbench::request_compile`]).
    pub fn compile(&mut self) -> bool {
        let key = self.compile_key();
        self.pending = None;
        if key == self.compiled_for {
            return false;
        }
        let result = compile::compile_parsed(&key, self.parsed());
        self.install(key, result);
        true
    }

    /// As [`Workbench::compile`], but a pattern of [`BACKGROUND_COMPILE_BYTES`] or more is
    /// compiled on a worker thread, so the caller keeps serving keys meanwhile. Until the
    /// result is in, [`Workbench::compiled`] keeps the previous outcome and
    /// [`Workbench::compiling`] is true.
    pub fn request_compile(&mut self) -> Compiling {
        let key = self.compile_key();
        if key == self.compiled_for {
            self.pending = None;
            return Compiling::Unchanged;
        }
        if key.0.len() < BACKGROUND_COMPILE_BYTES {
            self.compile();
            return Compiling::Done;
        }
        if self.pending.as_ref() == Some(&key) {
            return Compiling::Unchanged;
        }
        let parsed = self.parsed();
        self.compiler
            .get_or_insert_with(|| Compiler::new(self.scanner.waker().clone()))
            .submit(key.clone(), parsed);
        self.pending = Some(key);
        Compiling::InBackground
    }

    /// Whether a background compile of the current pattern is under way.
    pub fn compiling(&self) -> bool {
        self.pending.is_some()
    }

    /// True once after a background compile was taken in (the caller then rescans).
    pub fn take_fresh_compile(&mut self) -> bool {
        std::mem::take(&mut self.fresh_compile)
    }

    /// Waits up to `timeout` for the background compile; returns whether none is pending.
    pub fn wait_compiled(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.pending.is_some() {
            let now = Instant::now();
            let Some(compiler) = &self.compiler else {
                break;
            };
            if now >= deadline {
                return false;
            }
            if let Some((key, result)) = compiler.wait_result(deadline - now) {
                self.take_compiled(key, result);
            }
        }
        true
    }

    fn take_compiled(&mut self, key: CompileKey, result: Result<Arc<Regex>, Error>) -> bool {
        if self.pending.as_ref() != Some(&key) {
            return false;
        }
        self.pending = None;
        self.install(key, result);
        self.fresh_compile = true;
        true
    }

    fn install(&mut self, key: CompileKey, result: Result<Arc<Regex>, Error>) {
        self.compiled = result;
        self.compiles += 1;
        if let Ok(re) = &self.compiled {
            self.last_good = Some(Arc::clone(re));
        }
        self.compiled_for = key;
    }

    /// The current pattern parsed, with its explanation, colours, lints and railroad diagram:
    /// parsed once per edit (keyed by pattern, flavor and flags) on the first call after it,
    /// then shared by every reader of every frame until the next edit.
    pub fn analysis(&self) -> Arc<Analysis> {
        let mut slot = self
            .analysis
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(a) = slot.as_ref() {
            let k = a.key();
            if k.pattern == self.pattern.text() && k.flavor == self.flavor && k.flags == self.flags
            {
                return Arc::clone(a);
            }
        }
        self.parses
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let a = Arc::new(Analysis::new(AnalysisKey {
            pattern: self.pattern.text().to_string(),
            flavor: self.flavor,
            flags: self.flags,
        }));
        *slot = Some(Arc::clone(&a));
        a
    }

    /// The current pattern's parse from [`Workbench::analysis`], shared with the compile.
    fn parsed(&self) -> compile::Parsed {
        self.analysis().shared_ast().cloned().map_err(Clone::clone)
    }

    /// How many times [`Workbench::analysis`] has parsed the pattern (once per edit at most).
    pub fn parse_count(&self) -> u64 {
        self.parses.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many times the pattern has been compiled (a burst of edits should cost one).
    pub fn compile_count(&self) -> u64 {
        self.compiles
    }

    /// The compiled pattern, or its error.
    pub fn compiled(&self) -> Result<&Arc<Regex>, &Error> {
        self.compiled.as_ref()
    }

    /// The pattern whose matches are on screen: the current one, or the last good one while
    /// the current one is invalid.
    pub fn shown_regex(&self) -> Option<&Arc<Regex>> {
        self.compiled.as_ref().ok().or(self.last_good.as_ref())
    }

    /// Whether the finished full scan's count is that of the whole input as it is now: a
    /// paged input indexed (or a followed file grown) past what the scan covered is counted
    /// on by the next poll, and until then its count is not final.
    pub fn count_final(&self) -> bool {
        let r = &self.results;
        let now = match self.input.paged_text() {
            Some(p) if !p.complete() => return false,
            Some(p) => p.len().max(self.input.len()),
            None => self.input.len(),
        };
        r.done && r.text_len >= now
    }

    /// Whether the matches on screen belong to an older pattern (the current one is invalid).
    pub fn stale(&self) -> bool {
        self.compiled.is_err()
    }

    /// Switches to the next flavor, keeping the flags it accepts.
    pub fn cycle_flavor(&mut self) {
        self.set_flavor(self.flavor.next());
    }

    /// Sets the flavor, keeping the flags it accepts.
    pub fn set_flavor(&mut self, flavor: Flavor) {
        let letters: String = self
            .flags
            .letters(self.flavor)
            .chars()
            .filter(|c| flavor.flag_letters().contains(*c))
            .collect();
        self.flavor = flavor;
        self.flags = Flags::parse(&letters, flavor).unwrap_or_default();
    }

    /// Toggles one flag letter; an error when the flavor has no such flag or the result is
    /// not a valid combination (the flags stay as they were).
    ///
    /// # Errors
    /// The letter is not a flag of the flavor, or the combination is invalid.
    pub fn toggle_flag(&mut self, letter: char) -> Result<(), Error> {
        if !self.flavor.flag_letters().contains(letter) {
            return Err(Error::new(
                ErrorKind::FlagInvalid,
                format!("{} has no '{letter}' flag", self.flavor),
            ));
        }
        let mut flags = self.flags;
        flags.set(letter, !flags.get(letter));
        let checked = Flags::parse(&flags.letters(self.flavor), self.flavor)?;
        self.flags = checked;
        Ok(())
    }

    /// Starts scans for the current pattern: the window and (when `full`) the whole input.
    /// Cancels the scans in flight. Does nothing when there is no valid pattern.
    pub fn rescan(&mut self, window: Range<usize>) {
        self.generation += 1;
        crate::trace_mark!("rescan {}", self.generation);
        self.window = window.clone();
        let Ok(re) = &self.compiled else {
            self.scanner.cancel();
            return;
        };
        self.results = Results {
            generation: self.generation,
            started: Some(Instant::now()),
            text_len: self.input.len(),
            ..Default::default()
        };
        self.scanner
            .scan_window(self.generation, Arc::clone(re), self.input.shared(), window);
        self.scanner
            .scan_full(self.generation, Arc::clone(re), self.input.shared());
    }

    /// Appends text at the end of the input (a followed file grew) and matches only what is
    /// new: when every match of the pattern stays inside one line
    /// ([`follow::matches_stay_in_lines`]), the full scan continues from the start of the last
    /// line it saw (matches in that line are dropped and found again, since the line may have
    /// grown), keeping the spans before it and their count. Otherwise (a pattern that can
    /// cross a line break or looks at the end of the text), or when the last scan kept fewer
    /// spans than it counted or stopped on an error, the whole input is scanned again. While a full scan is still running,
    /// the new text is scanned when it ends (see [`Workbench::poll`]).
    pub fn append_input(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        let before = self.input.revision();
        self.input.append(s);
        self.note_append(before);
        self.catch_up();
    }

    /// Takes `whole`, the current input followed by more (the rest of a file read into one
    /// buffer with its head), without copying the text: then as [`Workbench::append_input`].
    /// When `whole` does not start with the current input (the file changed under the
    /// reader), it replaces the input and everything is scanned again.
    pub fn extend_input(&mut self, whole: IndexedText) {
        let before = self.input.revision();
        if let Err(whole) = self.input.extend_to(whole) {
            self.input.replace_all(whole.into_string());
            let w = self.window.clone();
            self.rescan(w);
            return;
        }
        self.note_append(before);
        self.catch_up();
    }

    /// Makes a paged text the input (read-only; see [`crate::input::paged`]): what is indexed
    /// now is scanned at once, and [`Workbench::poll`] takes in the rest as it is indexed,
    /// matched incrementally like a followed file's growth.
    pub fn set_paged_input(&mut self, text: crate::input::paged::PagedText, source: InputSource) {
        let revision = self.input.revision() + 1;
        self.input = TextBuffer::paged(text);
        while self.input.revision() < revision {
            // A new revision whatever the old one was, so every view starts over.
            self.input.bump_revision();
        }
        self.source = source;
        let w = self.window.clone();
        self.rescan(w);
    }

    /// Takes in the part of a paged input indexed since the last call; returns whether the
    /// input grew.
    pub fn refresh_paged_input(&mut self) -> bool {
        let before = self.input.revision();
        if !self.input.refresh_paged() {
            return false;
        }
        self.note_append(before);
        self.catch_up();
        true
    }

    /// Tells the operator views that the input grew by an append since revision `before`.
    fn note_append(&mut self, before: u64) {
        let after = self.input.revision();
        if after != before {
            self.lens.note_append(before, after);
            self.jobs.note_append(before, after);
            self.timeline.note_append(before, after);
        }
    }

    /// Scans the part of the input the finished full scan has not seen, from the point the
    /// engine says growth can have changed ([`crate::engine::growth::restart`]): the start of
    /// the last line for a pattern whose matches stay in lines, a bounded number of bytes
    /// back for one whose attempts read a bounded length, else the last match or the first
    /// unfinished attempt after it. The matches before that point and their count stay. When
    /// the last scan kept fewer spans than it counted or stopped on an error, the whole input
    /// is scanned again; when the user stopped it, nothing is scanned.
    fn catch_up(&mut self) {
        let len = self.input.len();
        let r = &self.results;
        if !r.done || r.stopped || r.text_len >= len || r.generation != self.generation {
            return;
        }
        let Ok(re) = &self.compiled else { return };
        let re = Arc::clone(re);
        if r.error.is_some() || r.count != r.spans.len() {
            let w = self.window.clone();
            self.rescan(w);
            return;
        }
        let old_len = r.text_len;
        let before = (r.count, old_len);
        let reach = crate::engine::growth::Reach::of(&re);
        let empty = crate::engine::growth::can_match_empty(re.ast());
        let (cut, keep) = if self.input.is_paged() {
            // The same points as in memory, read off the line index: the last line's start,
            // the start of the line a bounded reach goes back to, or the scan's resume point.
            let line_start = |at: usize| self.input.line_start(self.input.line_of(at));
            let at = match reach {
                crate::engine::growth::Reach::Line => line_start(old_len),
                crate::engine::growth::Reach::Bytes(n) => line_start(old_len.saturating_sub(n)),
                crate::engine::growth::Reach::Unbounded => {
                    r.pending.unwrap_or(old_len).min(line_start(old_len))
                }
            };
            crate::engine::growth::keep_before(at, empty, &r.spans)
        } else {
            crate::engine::growth::restart(
                reach,
                empty,
                self.input.text(),
                old_len,
                &r.spans,
                r.pending,
            )
        };
        self.results.spans.truncate(keep);
        self.results.span_lines.truncate(keep);
        self.generation += 1;
        let r = &mut self.results;
        r.generation = self.generation;
        r.count = r.spans.len();
        r.scanned = cut;
        r.done = false;
        r.elapsed = None;
        r.text_len = len;
        r.pending = None;
        r.before_growth = Some(before);
        r.window_ready = false;
        r.started = Some(Instant::now());
        r.scan_from = cut;
        let window = self.window.clone();
        self.scanner.scan_window(
            self.generation,
            Arc::clone(&re),
            self.input.shared(),
            window,
        );
        let base_line = self.input.line_of(cut);
        let r = &self.results;
        self.scanner.scan_full_from(
            self.generation,
            re,
            self.input.shared(),
            cut,
            r.spans.len(),
            base_line,
        );
    }

    /// Stops the full scan under way (Esc in the TUI), and the window scan if it has not
    /// answered (on an input without line breaks it searches as far): the count so far stays,
    /// marked as stopped, and growth is no longer scanned until the next edit of the pattern
    /// or the input. Returns the byte the scan had reached and the input length, or `None`
    /// when no full scan was running.
    pub fn stop_full_scan(&mut self) -> Option<(usize, usize)> {
        self.poll_progress();
        let r = &mut self.results;
        if r.done || r.stopped || self.compiled.is_err() {
            return None;
        }
        if r.window_ready {
            self.scanner.cancel_full();
        } else {
            self.scanner.cancel();
            r.window_ready = true;
        }
        r.stopped = true;
        r.before_growth = None;
        Some((r.scanned, r.text_len))
    }

    /// Takes in how far the running full scan has got between its events (a long search
    /// without a match reports no event); returns whether it moved.
    fn poll_progress(&mut self) -> bool {
        let r = &mut self.results;
        if r.done || r.stopped || r.generation != self.generation {
            return false;
        }
        let at = self.scanner.full_progress().min(r.text_len);
        if at > r.scanned {
            r.scanned = at;
            return true;
        }
        false
    }

    /// Asks for the window matches of a new window (after scrolling), keeping the full scan.
    pub fn rescan_window(&mut self, window: Range<usize>) {
        if window == self.window {
            return;
        }
        self.window = window.clone();
        let Ok(re) = &self.compiled else { return };
        self.results.window_ready = false;
        self.scanner
            .scan_window(self.generation, Arc::clone(re), self.input.shared(), window);
    }

    /// Installs a function the scan and compile workers call after each result they send, so
    /// an event loop can sleep until there is something to take in with [`Workbench::poll`].
    pub fn set_waker(&mut self, waker: Option<matching::Waker>) {
        self.scanner.waker().set(waker);
    }

    /// The waker the workbench's workers call after each result, for a front end's own
    /// workers (a tab recording a trace) to wake the same event loop.
    pub fn waker(&self) -> matching::SharedWaker {
        self.scanner.waker().clone()
    }

    /// The window last asked for.
    pub fn window(&self) -> Range<usize> {
        self.window.clone()
    }

    /// Takes in the scan events waiting; returns whether anything changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = self.refresh_paged_input();
        while let Some((key, result)) = self.compiler.as_ref().and_then(Compiler::try_result) {
            changed |= self.take_compiled(key, result);
        }
        while let Some(ev) = self.scanner.try_event() {
            changed |= self.absorb(ev);
        }
        changed |= self.poll_progress();
        self.catch_up();
        self.refresh_filter();
        changed |= self.sync_views();
        changed
    }

    /// Brings the line filter up to date with the results (cheap when nothing changed).
    pub fn refresh_filter(&mut self) {
        self.filter.refresh(&self.input, &self.results);
    }

    /// Waits up to `timeout` for the current window matches; returns whether they arrived.
    pub fn wait_window(&mut self, timeout: Duration) -> bool {
        self.wait_until(timeout, |r| r.window_ready)
    }

    /// Waits up to `timeout` for the first rows of the scans a key started: the window
    /// matches, and the full scan's first match (or its first piece, or its end). A frame
    /// drawn before them would show the list empty, only to be drawn again a few
    /// milliseconds later; returns whether they arrived.
    pub fn wait_first_rows(&mut self, timeout: Duration) -> bool {
        self.wait_until(timeout, |r| {
            r.window_ready
                && (r.done
                    || r.stopped
                    || r.error.is_some()
                    || r.count > 0
                    || r.scanned > r.scan_from)
        })
    }

    /// Waits up to `timeout` for the full scan to finish; returns whether it did.
    pub fn settle(&mut self, timeout: Duration) -> bool {
        self.wait_until(timeout, |r| (r.done || r.stopped) && r.window_ready)
    }

    fn wait_until(&mut self, timeout: Duration, ready: impl Fn(&Results) -> bool) -> bool {
        self.poll();
        let deadline = Instant::now() + timeout;
        while !ready(&self.results) && self.compiled.is_ok() {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            if let Some(ev) = self.scanner.wait_event(deadline - now) {
                self.absorb(ev);
                self.catch_up();
            }
        }
        self.refresh_filter();
        true
    }

    fn absorb(&mut self, ev: ScanEvent) -> bool {
        if ev.generation() != self.generation {
            return false;
        }
        let r = &mut self.results;
        match ev {
            ScanEvent::Window {
                window,
                matches,
                error,
                ..
            } => {
                if window != self.window {
                    return false;
                }
                r.window = window;
                r.window_matches = matches;
                r.window_ready = true;
                r.window_at = Some(Instant::now());
                if error.is_some() {
                    r.error = error;
                }
            }
            ScanEvent::Progress {
                spans,
                lines,
                count,
                scanned,
                ..
            } => {
                r.spans.extend(spans);
                r.span_lines.extend(lines);
                r.count = count;
                r.scanned = r.scanned.max(scanned);
            }
            ScanEvent::Done {
                count,
                elapsed,
                error,
                steps,
                pending,
                exact,
                ..
            } => {
                r.count = count;
                r.pending = pending;
                r.inexact = !exact;
                r.before_growth = None;
                // A scan that ended as it was stopped is complete after all.
                r.stopped = false;
                r.steps = steps;
                r.done = true;
                r.elapsed = Some(elapsed);
                if error.is_some() {
                    r.error = error;
                }
            }
        }
        true
    }

    /// The engine running the shown pattern, for the status bar.
    pub fn engine(&self) -> Option<EngineKind> {
        self.shown_regex()
            .map(|re| matching::engine_of(re, &self.input.shared()))
    }

    /// The match (with groups) at span index `i` of the full scan.
    pub fn match_at(&self, i: usize) -> Option<Match> {
        let (s, e) = *self.results.spans.get(i)?;
        if let Some(m) = self
            .results
            .window_matches
            .iter()
            .find(|m| m.start() == s && m.end() == e)
        {
            return Some(m.clone());
        }
        let re = self.shown_regex()?;
        // In memory, the whole text; paged, the lines the match spans and a margin around.
        let (base, text) = if self.input.is_paged() {
            let from = self
                .input
                .line_start(self.input.line_of(s).saturating_sub(2));
            let to = self.input.line_start(self.input.line_of(e) + 3);
            (from, self.input.slice(from..to))
        } else {
            (0, std::borrow::Cow::Borrowed(self.input.text()))
        };
        let options = MatchOptions {
            start: s - base,
            ..Default::default()
        };
        let mut m = re.matches(&text, options).next()?.ok()?;
        for g in m.groups.iter_mut().flatten() {
            g.0 += base;
            g.1 += base;
        }
        Some(m).filter(|m| m.start() == s)
    }

    /// The test lines as cases (blank lines and comments left out), numbered from 1.
    pub fn test_cases(&self) -> Vec<crate::testcases::Case> {
        (0..self.tests.line_count())
            .filter_map(|i| {
                let (expect, subject) = parse_test_line(&self.tests.line(i))?;
                Some(crate::testcases::Case {
                    line: i + 1,
                    subject,
                    expect,
                })
            })
            .collect()
    }

    /// Runs every test line against the current pattern.
    pub fn test_outcomes(&self) -> Vec<TestOutcome> {
        let Ok(re) = &self.compiled else {
            return Vec::new();
        };
        (0..self.tests.line_count())
            .filter_map(|i| {
                let (expect, subject) = parse_test_line(&self.tests.line(i))?;
                let v = crate::testcases::run_case(re, self.replacement.text(), &expect, &subject);
                Some(TestOutcome {
                    line: i,
                    subject,
                    expect,
                    found: v.found,
                    replaced: v.replaced,
                    error: v.error,
                    verdict: v.passed,
                })
            })
            .collect()
    }

    /// The replacement applied to the window's matches.
    ///
    /// # Errors
    /// The template is invalid for the flavor (with its span in the template).
    pub fn replace_preview(&self) -> Result<ReplacePreview, Error> {
        let Ok(re) = &self.compiled else {
            return Ok(ReplacePreview::default());
        };
        let template = Template::parse(self.replacement.text(), re)?;
        let window = self.results.window.clone();
        let matches = &self.results.window_matches;
        // In memory, the whole text; paged, the window and the matches in it.
        let (base, text) = if self.input.is_paged() {
            let lo = matches
                .first()
                .map_or(window.start, |m| m.start().min(window.start));
            let hi = matches.iter().map(Match::end).fold(window.end, usize::max);
            (lo, self.input.slice(lo..hi))
        } else {
            (0, std::borrow::Cow::Borrowed(self.input.text()))
        };
        let text: &str = &text;
        let shifted;
        let matches = if base == 0 {
            matches.as_slice()
        } else {
            shifted = matches
                .iter()
                .map(|m| {
                    let mut m = m.clone();
                    for g in m.groups.iter_mut().flatten() {
                        g.0 -= base;
                        g.1 -= base;
                    }
                    m
                })
                .collect::<Vec<_>>();
            shifted.as_slice()
        };
        let window = window.start.saturating_sub(base)..window.end.saturating_sub(base);
        let r = template.replace_window(text, window, matches);
        Ok(ReplacePreview {
            text: r.text,
            changed: r.changed,
            replaced: r.replaced,
        })
    }

    /// The whole input with every match replaced (for copying).
    ///
    /// # Errors
    /// As for [`Regex::replace`].
    pub fn replace_all(&self) -> Result<String, Error> {
        let re = self.compiled.as_ref().map_err(Clone::clone)?;
        if self.input.is_paged() {
            return Err(Error::new(
                ErrorKind::Io,
                "an input read in pages is not replaced in memory: run `rxw replace` on it",
            ));
        }
        Ok(re
            .replace(
                self.input.text(),
                self.replacement.text(),
                None,
                &crate::Limits::human(),
            )?
            .result)
    }
}

/// What the file reader thread read: the head and every byte after it that could be read, in
/// one buffer (checked as UTF-8 on the reader's thread, not the UI's), and the error that
/// stopped it early, if any.
pub struct RestRead {
    /// The head's text followed by the rest's, line-indexed on the reader's thread.
    pub whole: IndexedText,
    /// The notice about invalid UTF-8 in the whole text, if any.
    pub warning: Option<String>,
    /// Why reading stopped before the end of the file.
    pub error: Option<std::io::Error>,
    /// The file's size when it was opened, when fewer bytes than that could be read: it was
    /// truncated (or replaced by a shorter file) while it was read.
    pub shrank_from: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::paged::{Growth, PagedText};
    use crate::testing::{small, temp_file};

    /// Appends `piece` to the file at `path`, as a writer of a followed log does.
    fn append_to(path: &std::path::Path, piece: &str) {
        use std::io::Write as _;
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .unwrap()
            .write_all(piece.as_bytes())
            .unwrap();
    }

    /// A workbench over typed `input`, not scanned yet.
    fn typed(pattern: &str, flavor: Flavor, input: &str) -> Workbench {
        Workbench::new(
            pattern,
            flavor,
            Flags::default(),
            input.to_string(),
            InputSource::Typed,
        )
    }

    /// A workbench over typed `input`, scanned and settled.
    fn wb_in(pattern: &str, flavor: Flavor, input: &str) -> Workbench {
        let mut w = typed(pattern, flavor, input);
        w.rescan(0..input.len());
        assert!(w.settle(Duration::from_secs(10)));
        w
    }

    fn wb(pattern: &str, input: &str) -> Workbench {
        wb_in(pattern, Flavor::PYTHON, input)
    }

    /// Opens the file at `path` in pages of 4 KiB, 16 held (a test's few hundred lines span
    /// many of them), as `w`'s input, and waits until it is indexed.
    fn open_paged(w: &mut Workbench, path: &std::path::Path) -> PagedText {
        let paged = PagedText::open(path, &small(4096, 16)).unwrap();
        w.set_paged_input(paged.clone(), InputSource::File("a.log".into()));
        assert!(paged.wait_complete(Duration::from_secs(20)));
        w.poll();
        paged
    }

    /// The built-in presets, for the lens.
    fn builtin_catalog() -> Arc<crate::presets::Catalog> {
        Arc::new(crate::presets::load::load(&crate::presets::load::LoadOptions::default()).catalog)
    }

    /// Starts `w`'s lens over its input with `catalog`.
    fn lens_on(w: &mut Workbench, catalog: &Arc<crate::presets::Catalog>) {
        w.lens.set_catalog(Arc::clone(catalog));
        w.lens.activate(&w.input);
    }

    #[test]
    fn the_pattern_is_parsed_once_per_edit() {
        let mut w = wb(r"(a+)+b", "aab");
        let a = w.analysis();
        assert!(
            Arc::ptr_eq(&a, &w.analysis()),
            "the same parse until an edit"
        );
        assert_eq!(w.parse_count(), 1);
        assert!(a.rows().as_ref().unwrap().iter().any(|r| r.lint));
        w.pattern.set("(a");
        let b = w.analysis();
        assert!(!Arc::ptr_eq(&a, &b));
        assert!(b.ast().is_err());
        w.set_flavor(Flavor::JS);
        w.analysis();
        assert_eq!(w.parse_count(), 3);
    }

    #[test]
    fn the_compile_shares_the_analysis_parse() {
        let mut w = wb(r"(a+)+b", "aab");
        let parses = w.parse_count();
        let re = Arc::clone(w.compiled.as_ref().unwrap());
        let a = w.analysis();
        assert!(
            Arc::ptr_eq(re.shared_ast(), a.shared_ast().unwrap()),
            "the engine holds the analysis' own tree"
        );
        assert_eq!(w.parse_count(), parses, "compiling parsed nothing more");
        w.pattern.set("(a");
        w.compile();
        assert_eq!(w.parse_count(), parses + 1, "one edit, one parse");
        assert_eq!(
            w.compiled.as_ref().unwrap_err().message,
            w.analysis().ast().unwrap_err().message
        );
    }

    #[test]
    fn scan_fills_window_and_full_results() {
        let w = wb(r"\d+", "a1 b22\nc333");
        assert_eq!(w.results.count, 3);
        assert_eq!(w.results.spans, vec![(1, 2), (4, 6), (8, 11)]);
        assert_eq!(w.results.window_matches.len(), 3);
        assert!(w.results.done);
    }

    #[test]
    fn invalid_pattern_keeps_the_last_good_matches() {
        let mut w = wb(r"a(b)", "ab ab");
        w.pattern.insert("(");
        assert!(w.compile());
        let err = w.compiled().unwrap_err();
        assert!(err.span.is_some(), "{err:?}");
        assert!(w.stale());
        assert_eq!(w.shown_regex().unwrap().pattern(), "a(b)");
        w.rescan(0..5);
        assert_eq!(
            w.results.count, 2,
            "old results stay while the pattern is invalid"
        );
    }

    #[test]
    fn a_new_request_supersedes_the_old_one() {
        let big = "x1 ".repeat(200_000);
        let mut w = typed(r"\d", Flavor::Rust, &big);
        w.rescan(0..100);
        w.pattern.set("x");
        w.compile();
        w.rescan(0..100);
        assert!(w.settle(Duration::from_secs(20)));
        assert_eq!(w.results.count, 200_000);
        assert_eq!(w.results.spans.first(), Some(&(0, 1)));
    }

    #[test]
    fn window_scan_only_reports_the_window() {
        let text = "a\n".repeat(1000);
        let mut w = Workbench::new("a", Flavor::JS, Flags::default(), text, InputSource::Typed);
        w.rescan(100..120);
        assert!(w.settle(Duration::from_secs(10)));
        assert_eq!(w.results.window_matches.len(), 11);
        assert_eq!(w.results.window_matches[0].start(), 100);
        assert_eq!(w.results.count, 1000);
    }

    #[test]
    fn flavor_cycling_drops_flags_the_flavor_lacks() {
        let mut w = wb("a", "a");
        w.toggle_flag('i').unwrap();
        w.toggle_flag('a').unwrap();
        assert!(w.toggle_flag('y').is_err());
        w.set_flavor(Flavor::JS);
        assert_eq!(w.flags.letters(Flavor::JS), "i");
    }

    #[test]
    fn tests_pass_and_fail_live() {
        let mut w = wb(r"(\w+)@(\w+)", "");
        w.tests
            .insert("+ me@host\n- nobody\n+ a@b => a, c\nplain@x\n\n# comment");
        let out = w.test_outcomes();
        assert_eq!(out.len(), 4);
        assert_eq!(out[0].passed(), Some(true));
        assert_eq!(out[1].passed(), Some(true));
        assert_eq!(out[2].passed(), Some(false));
        assert_eq!(out[3].passed(), None);
        assert_eq!(out[3].found.as_ref().unwrap()[2].as_deref(), Some("x"));
    }

    #[test]
    fn replace_preview_marks_changed_parts() {
        let mut w = wb(r"(\d+)", "a1 b22");
        w.replacement.set(r"<\1>");
        let p = w.replace_preview().unwrap();
        assert_eq!(p.text, "a<1> b<22>");
        assert_eq!(p.changed, vec![1..4, 6..10]);
        assert_eq!(w.replace_all().unwrap(), "a<1> b<22>");
        w.replacement.set(r"\9");
        assert!(w.replace_preview().is_err());
    }

    /// Regression: two JavaScript matches that cut the same character outside the BMP (an
    /// empty match inside the pair, or `.` on each half) were shown as one in the preview,
    /// the second skipped because its byte span (the whole character) started before the
    /// end of the first. The preview now says what `rxw replace` prints.
    #[test]
    fn replace_preview_keeps_two_matches_that_cut_one_character() {
        let cases = [
            ("", "😀", "X", "X\u{FFFD}X\u{FFFD}X", 3),
            ("(?:)", "a😀b", "[$&]", "[]a[]\u{FFFD}[]\u{FFFD}[]b[]", 5),
            (".", "😀", "<$&>", "<\u{FFFD}><\u{FFFD}>", 2),
            (".", "x😀", "$&", "x😀", 3),
            ("[^a]", "😀a", "[$`]", "[][\u{FFFD}]a", 2),
        ];
        for (pattern, input, template, expected, replaced) in cases {
            let mut w = wb_in(pattern, Flavor::JS, input);
            w.replacement.set(template);
            let p = w.replace_preview().unwrap();
            let cli = w
                .compiled()
                .unwrap()
                .replace(input, template, None, &crate::Limits::human())
                .unwrap();
            assert_eq!(
                p.text, expected,
                "/{pattern}/g on {input:?} with {template:?}"
            );
            assert_eq!(
                p.text, cli.result,
                "the preview says what `rxw replace` prints"
            );
            assert_eq!(p.replaced, replaced);
            assert_eq!(p.replaced, cli.replaced);
            assert_eq!(p.changed.len(), replaced);
        }
        // The changed parts are the template's, in bytes of the preview.
        let mut w = wb_in("", Flavor::JS, "😀");
        w.replacement.set("X");
        assert_eq!(w.replace_preview().unwrap().changed, vec![0..1, 4..5, 8..9]);
    }

    #[test]
    fn a_long_pattern_compiles_on_the_worker_and_only_the_newest_is_taken() {
        let mut w = wb(r"\d", "a1 job");
        let before = w.compile_count();
        w.pattern.set("x");
        assert_eq!(w.request_compile(), Compiling::Done, "short: at once");
        assert_eq!(w.compile_count(), before + 1);
        let long_a = "job|".repeat(BACKGROUND_COMPILE_BYTES / 4) + "a";
        let long_b = "job|".repeat(BACKGROUND_COMPILE_BYTES / 4) + "b";
        w.pattern.set(&long_a);
        assert_eq!(w.request_compile(), Compiling::InBackground);
        assert_eq!(w.request_compile(), Compiling::Unchanged, "already asked");
        w.pattern.set(&long_b);
        assert_eq!(w.request_compile(), Compiling::InBackground);
        assert!(w.compiling());
        assert_eq!(
            w.compiled().unwrap().pattern(),
            "x",
            "the old outcome stays meanwhile"
        );
        assert!(w.wait_compiled(Duration::from_secs(30)));
        assert!(w.take_fresh_compile());
        assert!(!w.take_fresh_compile(), "reported once");
        assert_eq!(w.compiled().unwrap().pattern(), long_b);
        assert_eq!(
            w.compile_count(),
            before + 2,
            "the overtaken request is not installed"
        );
        w.poll();
        assert_eq!(w.compiled().unwrap().pattern(), long_b);
    }

    #[test]
    fn match_at_recovers_groups() {
        let w = wb(r"(?P<k>\w)=(\d)", "a=1 b=2");
        let m = w.match_at(1).unwrap();
        assert_eq!(m.group("a=1 b=2", 1), Some("b"));
        assert_eq!(m.group("a=1 b=2", 2), Some("2"));
    }

    #[test]
    fn the_filter_lists_the_lines_of_a_pattern_with_context_and_inverted() {
        let text = "ok\nERROR a\nok\nok\nok\nERROR b\nok\n";
        let mut w = wb("ERROR", text);
        w.filter.set_mode(filter::FilterMode::Matching);
        w.refresh_filter();
        assert_eq!(w.filter.rows(), &[1, 5]);
        assert_eq!(w.filter.matching_lines(), 2);
        w.filter.set_context(1);
        w.refresh_filter();
        assert_eq!(w.filter.rows(), &[0, 1, 2, 4, 5, 6]);
        w.filter.set_mode(filter::FilterMode::NonMatching);
        w.refresh_filter();
        assert_eq!(w.filter.rows(), &[0, 2, 3, 4, 6]);
        assert!(w.filter.complete());
    }

    #[test]
    fn appended_text_is_matched_incrementally_as_a_whole_scan_would() {
        let text = "a1 b22\nc3 [CLAIM x]\nd4\nERROR spans\nlines END\ntail 5";
        for pattern in [
            r"\d+",
            r"(?s)ERROR.*?END",
            r"\[CLAIM \w+\]",
            "(?m)^\\w",
            r"\d+$",
        ] {
            let whole = wb(pattern, text);
            // Every split point (at a char boundary) in three appended pieces.
            for cut in 1..text.len() {
                let mut w = wb(pattern, &text[..cut / 2]);
                w.append_input(&text[cut / 2..cut]);
                w.append_input(&text[cut..]);
                assert!(w.settle(Duration::from_secs(10)));
                assert_eq!(
                    w.results.spans,
                    whole.results.spans,
                    "{pattern:?} split at {} and {cut}",
                    cut / 2
                );
                assert_eq!(w.results.count, whole.results.count);
                assert_eq!(w.input.line_count(), whole.input.line_count());
                // The scan's line of each span is the line the input says it starts on.
                let lines: Vec<(u32, u32)> = w
                    .results
                    .spans
                    .iter()
                    .map(|&(s, e)| {
                        let last = if e > s {
                            w.input.line_of(e - 1)
                        } else {
                            w.input.line_of(s)
                        };
                        (w.input.line_of(s) as u32, last as u32)
                    })
                    .collect();
                assert_eq!(w.results.span_lines, lines, "{pattern:?} split at {cut}");
            }
        }
    }

    /// Regression: following a log, a pattern whose matches can cross lines (`\s+`, a summary
    /// running to the next tag or the end) was counted again from byte 0 on every append, so
    /// the count jumped back and never settled while the file grew. Growth now restarts where
    /// the engine says it can change the matches, and the count shown never goes back.
    #[test]
    fn growth_extends_the_count_of_a_pattern_crossing_lines_from_near_the_end() {
        let line = "2026 [RESULT a1] OK\n  detail 7\n";
        let text = line.repeat(2000);
        for pattern in [
            r"\[RESULT\s+\w+\]\s+OK",
            r"(?s)\[RESULT\s+(?P<id>\w+)\]\s*(?P<summary>.*?)(?=\[RESULT\s|\Z)",
            r"(?s)RESULT.*?detail",
        ] {
            let mut w = wb(pattern, &text);
            let before = w.results.count;
            assert_eq!(before, 2000, "{pattern}");
            let old_len = text.len();
            w.append_input(line);
            assert!(
                w.results.scanned + 2 * line.len() >= old_len,
                "{pattern}: the growth scan starts at byte {} of {old_len}",
                w.results.scanned
            );
            assert!(w.results.shown_count() >= before, "{pattern}");
            assert!(w.settle(Duration::from_secs(20)));
            assert_eq!(w.results.count, 2001, "{pattern}");
            let whole = wb(pattern, w.input.text());
            assert_eq!(w.results.spans, whole.results.spans, "{pattern}");
        }
    }

    /// Regression: growth resumed at the last match for a pattern whose attempts read without
    /// bound, so an attempt before it that failed only because the text ended (an `a` with no
    /// `Z` yet) was never tried again, and the match the appended `Z` completes was missed.
    #[test]
    fn growth_tries_again_an_attempt_before_the_last_match_that_read_to_the_end() {
        let text = "x a 1\nb 2\nb 3\n";
        let mut w = wb(r"a[^Z]*Z|b", text);
        assert_eq!(w.results.count, 2);
        w.append_input("Z\n");
        assert!(w.settle(Duration::from_secs(20)));
        let whole = wb(r"a[^Z]*Z|b", w.input.text());
        assert_eq!(w.results.spans, whole.results.spans);
        assert_eq!(w.results.count, 1);
    }

    /// Regression: a paged line longer than any chunk was read whole into one piece, so a
    /// file without line breaks (20 GB of it) grew the full scan's memory without bound. A
    /// line is read in pieces of at most LONG_LINE_PIECE; a pattern that stays in lines says
    /// it is inexact there, one that carries stays exact; matches away from the cuts and
    /// their lines are the same as in memory.
    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn a_paged_line_longer_than_a_piece_is_read_in_pieces_and_said_inexact() {
        use crate::input::paged::LONG_LINE_PIECE;
        let mut text = String::from("head RESULT\n");
        let unit = "é€x RESULT ";
        while text.len() < LONG_LINE_PIECE * 2 + 1000 {
            text.push_str(unit);
        }
        text.push_str("\nRESULT after\n");
        let (_dir, path) = temp_file("a.log", &text);
        let paged = PagedText::open(&path, &small(1 << 16, 16)).unwrap();
        assert!(paged.wait_complete(Duration::from_secs(60)));
        let pieces: Vec<_> = paged.chunks(0..text.len(), 1 << 20).collect();
        assert!(
            pieces.iter().all(|c| c.text.len() <= LONG_LINE_PIECE),
            "bounded"
        );
        let cut = pieces
            .iter()
            .filter(|c| !c.last && !c.text.ends_with('\n'))
            .count();
        assert_eq!(cut, 2, "the long line comes in three pieces");
        let joined: String = pieces.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(joined, text, "on character boundaries, nothing lost");
        // The text in memory, for the answers (a larger wait than `wb`'s for 4 M matches).
        let whole = |pattern: &str| {
            let mut w = typed(pattern, Flavor::PYTHON, &text);
            w.rescan(0..100);
            assert!(w.settle(Duration::from_secs(300)));
            w
        };
        for (pattern, exact) in [("RESULT", false), (r"RESULT\s", true)] {
            let mut w = wb(pattern, "");
            w.set_paged_input(paged.clone(), InputSource::File("a.log".into()));
            w.poll();
            w.rescan(0..100);
            assert!(w.settle(Duration::from_secs(300)));
            assert_eq!(w.results.inexact, !exact, "{pattern}");
            if exact {
                let whole = whole(pattern);
                assert_eq!(w.results.count, whole.results.count, "{pattern}");
                assert_eq!(w.results.span_lines, whole.results.span_lines, "{pattern}");
            } else {
                // At most the match across each of the two cuts is missed.
                let (got, want) = (w.results.count, whole(pattern).results.count);
                assert!(got <= want && got + 2 >= want, "{pattern}: {got} of {want}");
            }
        }
    }

    /// Regression: a paged input was searched chunk by chunk, so a match of a pattern that can
    /// cross lines was missed where it spanned two chunks (and `\A` matched at every chunk's
    /// start). Each chunk now carries what the next can change, from the engine's resume
    /// point: the count, spans and lines equal one scan of the whole text at any chunk size.
    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn paged_matches_across_chunk_ends_equal_a_whole_scan() {
        let mut text = String::new();
        for k in 0..120 {
            text.push_str(&format!(
                "2026 [ACK:{k}]\n\n  [from w{}]\n[RESULT r{k}] sum {k}\nmore {k}\n",
                k % 7
            ));
        }
        text.push_str("tail é without a line feed");
        let (_dir, path) = temp_file("a.log", &text);
        for pattern in [
            r"\[ACK:\d+\]\s+\[from\s+\w+\]",
            r"(?s)\[RESULT\s+\w+\].*?(?=\[RESULT\s|\Z)",
            r"s[^Z]*Z|m",
            r"\d\s{2}\[",
            r"(?m)^\s*$",
            r"\A2026|feed\Z",
            r"(?<=\n)\[R",
            r"\s*",
        ] {
            let whole = wb(pattern, &text);
            for chunk in [1, 7, 64, 500, 4096] {
                let mut w = wb(pattern, "");
                open_paged(&mut w, &path);
                w.input.set_scan_chunk(chunk);
                w.rescan(0..100);
                assert!(w.settle(Duration::from_secs(60)));
                assert_eq!(w.input.len(), text.len());
                let at = format!("{pattern:?} in chunks of {chunk}");
                assert_eq!(w.results.count, whole.results.count, "{at}");
                assert_eq!(w.results.spans, whole.results.spans, "{at}");
                assert_eq!(w.results.span_lines, whole.results.span_lines, "{at}");
                assert!(!w.results.inexact, "{at}");
            }
        }
    }

    /// Regression: the lens searched a paged input's chunks alone, so a preset's hit that
    /// spans two chunks (an ack whose `\s+` runs over line breaks, a result summary to the
    /// next tag) was missed. Presets that settle carry the unsettled tail into the next chunk:
    /// the lens holds the same hits as over the text in memory, at any chunk size.
    #[test]
    fn paged_lens_hits_across_chunk_ends_equal_the_lens_in_memory() {
        let mut text = String::new();
        for k in 0..60 {
            text.push_str(&format!(
                "2026-10-05T00:00:{:02}Z [ACK:{k}]\n\n  [from w{}]\n[RESULT r{k}] OK {k}\nmore {k}\n",
                k % 60,
                k % 7
            ));
        }
        let (_dir, path) = temp_file("a.log", &text);
        let catalog = builtin_catalog();
        let mut m = wb("x", &text);
        lens_on(&mut m, &catalog);
        assert!(m.settle_views(Duration::from_secs(60)));
        let hits = |w: &Workbench| -> Vec<Vec<(usize, usize)>> {
            (0..w.lens.counts().len())
                .map(|k| w.lens.hits(k).to_vec())
                .collect()
        };
        assert!(m.lens.counts().iter().sum::<usize>() > 0);
        for chunk in [3, 100, 1000] {
            let mut w = wb("x", "");
            open_paged(&mut w, &path);
            w.input.set_scan_chunk(chunk);
            lens_on(&mut w, &catalog);
            assert!(w.settle_views(Duration::from_secs(120)));
            assert_eq!(w.lens.counts(), m.lens.counts(), "chunks of {chunk}");
            assert_eq!(hits(&w), hits(&m), "chunks of {chunk}");
        }
    }

    /// Regression: in a followed paged log, an append while the lens's first scan was past
    /// its hit cap started the lens again from byte 0. The running scan ends and the growth
    /// is scanned from the resume point, to the counts of one scan of the grown text.
    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn growth_during_a_capped_paged_lens_scan_resumes_from_the_resume_point() {
        let mut text = DEMO_LOG.repeat(4);
        let (_dir, path) = temp_file("a.log", &text);
        let catalog = builtin_catalog();
        let mut w = wb("CLAIM", "");
        let paged = open_paged(&mut w, &path);
        w.input.set_scan_chunk(700);
        w.lens.set_hit_cap(100);
        lens_on(&mut w, &catalog);
        // The append arrives while the first scan runs.
        let old_len = text.len();
        let piece = "2026-10-05T00:01:00Z [CLAIM 7fce46e0] [ACK:9] more\n";
        append_to(&path, piece);
        text.push_str(piece);
        assert_eq!(paged.grow().unwrap(), Growth::Appended);
        assert!(w.refresh_paged_input());
        assert!(w.settle_views(Duration::from_secs(60)));
        assert!(w.lens.capped());
        assert!(
            w.lens.scanned_from() > 0 && w.lens.scanned_from() <= old_len,
            "the growth was scanned from byte {}",
            w.lens.scanned_from()
        );
        let mut whole = wb("CLAIM", &text);
        lens_on(&mut whole, &catalog);
        assert!(whole.settle_views(Duration::from_secs(60)));
        assert_eq!(w.lens.counts(), whole.lens.counts());
    }

    /// Regression: a paged input indexed past what the finished full scan covered showed
    /// that scan's count as final (no `+`, no "counting") until the next poll counted on.
    #[test]
    fn a_count_is_final_only_once_it_covers_the_text_indexed_now() {
        let text = DEMO_LOG.repeat(4);
        let (_dir, path) = temp_file("a.log", &text);
        let mut w = wb("CLAIM", "");
        let paged = open_paged(&mut w, &path);
        assert!(w.settle(Duration::from_secs(20)));
        assert!(w.count_final());
        let count = w.results.count;
        let piece = "2026-10-05T00:01:00Z [CLAIM 7fce46e0] more\n";
        append_to(&path, piece);
        assert_eq!(paged.grow().unwrap(), Growth::Appended);
        // Grown, not yet polled: the old scan is done, its count is not the text's.
        assert!(w.results.done);
        assert!(!w.count_final());
        assert!(w.settle(Duration::from_secs(20)));
        assert!(w.count_final());
        assert_eq!(w.results.count, count + 1);
    }

    /// Growth of a followed paged file continues the Jobs table and the Timeline from the
    /// old end's unfinished line, not from the start, to the same rows and buckets as one
    /// reading of the whole text, whatever the point the file is cut at (inside a line, at a
    /// line end, before a blank line, across the paged pieces).
    #[test]
    fn jobs_and_timeline_continue_a_grown_paged_file_as_a_whole_reading_would() {
        let line = |k: usize| {
            let blank = if k.is_multiple_of(5) { "\n" } else { "" };
            let result = if k.is_multiple_of(3) { "FAIL" } else { "OK" };
            format!(
                "2026-10-05T00:{:02}:{:02}Z [CLAIM j{k}] by w{}\n{blank}untimed [ACK j{k}]\n2026-10-05T00:{:02}:{:02}Z [RESULT j{}] {result}\n",
                (k / 60) % 60,
                k % 60,
                k % 7,
                ((k + 1) / 60) % 60,
                (k + 1) % 60,
                k.saturating_sub(2)
            )
        };
        let text: String = (0..160).map(line).collect();
        let mut whole = wb("FAIL|RESULT", &text);
        whole.jobs.activate(&whole.input);
        whole.timeline.activate();
        assert!(whole.settle_views(Duration::from_secs(60)));
        let want_jobs = whole.jobs.table().jobs().printed();
        let want_timeline = whole.timeline.result().cloned();
        assert!(want_jobs.len() > 100);
        assert!(matches!(&want_timeline, Some(Ok(t)) if t.matches > 100));
        let (_dir, path) = temp_file("a.log", "");
        let mut cuts: Vec<usize> = (1..24).map(|k| k * text.len() / 24 + k % 3).collect();
        // A cut right at a line end and one just before a blank line.
        cuts.push(text.find("\n\n").unwrap() + 1);
        cuts.push(text.find("\n").unwrap() + 1);
        for cut in cuts {
            std::fs::write(&path, &text[..cut]).unwrap();
            let mut w = wb("FAIL|RESULT", "");
            let paged = open_paged(&mut w, &path);
            w.input.set_scan_chunk(700);
            w.jobs.activate(&w.input);
            w.timeline.activate();
            assert!(w.settle(Duration::from_secs(60)));
            assert!(w.settle_views(Duration::from_secs(60)));
            let mid = cut + (text.len() - cut) / 3;
            for (k, piece) in [&text[cut..mid], &text[mid..]].into_iter().enumerate() {
                let old_len = w.input.len();
                append_to(&path, piece);
                assert_eq!(paged.grow().unwrap(), Growth::Appended);
                assert!(w.refresh_paged_input());
                assert!(w.settle_views(Duration::from_secs(60)));
                let line_start = w.input.line_start(w.input.line_of(old_len));
                assert_eq!(
                    w.jobs.read_from(),
                    line_start,
                    "cut {cut}, growth {k}: the jobs continued from the old end's line"
                );
                assert_eq!(
                    w.timeline.read_from(),
                    line_start,
                    "cut {cut}, growth {k}: the timeline continued from the old end's line"
                );
            }
            assert_eq!(
                w.jobs.table().jobs().printed(),
                want_jobs,
                "jobs, cut at {cut}"
            );
            assert_eq!(
                w.timeline.result().cloned(),
                want_timeline,
                "timeline, cut at {cut}"
            );
        }
    }

    /// Following a paged file: what is appended to it is indexed in place
    /// ([`PagedText::grow`]) and the count, spans and lens go on from the engine's resume
    /// point, not from the start, to the same results as one scan of the whole text.
    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn a_followed_paged_file_extends_its_count_and_lens_from_the_resume_point() {
        let line = |k: usize| {
            format!(
                "2026-10-05T00:00:{:02}Z [ACK:{k}]\n  [from w{}]\n[RESULT r{k}] OK {k}\n",
                k % 60,
                k % 7
            )
        };
        let mut text: String = (0..200).map(line).collect();
        let (_dir, path) = temp_file("a.log", &text);
        let catalog = builtin_catalog();
        for pattern in [
            r"\[ACK:\d+\]\s+\[from\s+\w+\]",
            r"(?s)\[RESULT\s+\w+\].*?(?=\[RESULT\s|\Z)",
            r"CLAIM|OK \d+",
        ] {
            std::fs::write(&path, &text).unwrap();
            let mut w = wb(pattern, "");
            let paged = open_paged(&mut w, &path);
            w.input.set_scan_chunk(700);
            w.rescan(0..100);
            lens_on(&mut w, &catalog);
            assert!(w.settle(Duration::from_secs(60)));
            assert!(w.settle_views(Duration::from_secs(60)));
            let mut grown = text.clone();
            for (k, piece) in [
                "2026-10-05T00:01:00Z [ACK:9",
                "99]\n",
                "  [from w1]\n[RESULT z] OK 9\n",
            ]
            .into_iter()
            .enumerate()
            {
                let old_len = grown.len();
                append_to(&path, piece);
                grown.push_str(piece);
                assert_eq!(paged.grow().unwrap(), Growth::Appended);
                assert!(w.refresh_paged_input());
                assert!(
                    w.results.scanned + 400 >= old_len,
                    "{pattern}: growth {k} scanned from byte {} of {old_len}",
                    w.results.scanned
                );
                assert!(w.settle(Duration::from_secs(60)));
                assert!(w.settle_views(Duration::from_secs(60)));
                let mut whole = wb(pattern, &grown);
                assert_eq!(
                    w.results.spans, whole.results.spans,
                    "{pattern} after growth {k}"
                );
                assert_eq!(w.results.span_lines, whole.results.span_lines, "{pattern}");
                lens_on(&mut whole, &catalog);
                assert!(whole.settle_views(Duration::from_secs(60)));
                assert_eq!(
                    w.lens.counts(),
                    whole.lens.counts(),
                    "{pattern} after growth {k}"
                );
                for key in 0..whole.lens.counts().len() {
                    assert_eq!(w.lens.hits(key), whole.lens.hits(key), "key {key}");
                }
            }
            assert_eq!(paged.grow().unwrap(), Growth::Unchanged);
        }
        text.clear();
    }

    /// Regression: a full scan that finds no match for a long time (a pattern backtracking on
    /// every attempt) showed no progress (it is reported with each match) and could not be
    /// stopped but by a new pattern. The engine's progress reaches the results, and the scan
    /// can be stopped.
    #[test]
    fn a_long_full_scan_shows_its_progress_and_can_be_stopped() {
        // Each attempt reads the rest of the run and stays within its step budget: the scan
        // as a whole takes quadratic time, one attempt does not.
        let text = "a".repeat(32 * 1024);
        let mut w = typed(r"(?:a|b)*c(?<=c)", Flavor::PYTHON, &text);
        w.rescan(0..100);
        let deadline = Instant::now() + Duration::from_secs(60);
        while w.results.scanned < 64 && Instant::now() < deadline {
            w.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            !w.results.done,
            "the scan is still running: {:?} {} {:?}",
            w.results.error, w.results.count, w.results.elapsed
        );
        assert!(w.results.scanned >= 64, "progress: {}", w.results.scanned);
        let (at, len) = w.stop_full_scan().expect("a full scan was running");
        assert!(at >= 64 && at < len && len == text.len(), "{at} of {len}");
        assert!(w.results.stopped);
        assert!(
            w.settle(Duration::from_secs(1)),
            "a stopped scan is settled"
        );
        assert_eq!(w.stop_full_scan(), None, "nothing left to stop");
        // Growth is not scanned after a stop; a new pattern scans again.
        w.append_input("ac");
        assert!(w.results.stopped);
        w.pattern.set("c");
        w.compile();
        w.rescan(0..100);
        assert!(w.settle(Duration::from_secs(20)));
        assert!(!w.results.stopped);
        assert_eq!(w.results.count, 1);
    }

    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn a_paged_input_scans_numbers_and_views_as_the_same_text_in_memory() {
        let mut text = String::new();
        for k in 0..40_000 {
            text.push_str(&format!(
                "2026-10-05T00:{:02}:{:02}Z w{} [CLAIM j{k}] é\n",
                k / 60 % 60,
                k % 60,
                k % 7
            ));
            if k % 3 == 0 {
                text.push_str(&format!("2026-10-05T00:00:00Z [RESULT j{}] OK\n", k / 2));
            }
        }
        let (_dir, path) = temp_file("a.log", &text);
        for pattern in [r"\[CLAIM (\w+)\]", r"(?m)^\S+Z w3", r"é$"] {
            let whole = wb(pattern, &text);
            let mut w = wb(pattern, "");
            let paged = open_paged(&mut w, &path);
            assert!(w.settle(Duration::from_secs(20)));
            assert_eq!(w.input.len(), text.len());
            assert_eq!(w.input.line_count(), whole.input.line_count());
            assert_eq!(w.results.count, whole.results.count, "{pattern}");
            assert_eq!(w.results.spans, whole.results.spans, "{pattern}");
            assert_eq!(w.results.span_lines, whole.results.span_lines, "{pattern}");
            // The window's matches, with groups, and a match recovered with its groups.
            w.rescan_window(500_000..510_000);
            let mut m = wb(pattern, &text);
            m.rescan_window(500_000..510_000);
            assert!(w.wait_window(Duration::from_secs(10)));
            assert!(m.wait_window(Duration::from_secs(10)));
            assert_eq!(w.results.window_matches, m.results.window_matches);
            assert_eq!(w.match_at(17), whole.match_at(17));
            assert!(paged.peak_pages_held() <= 16);
            // The jobs and lens views stream through the pages to the same tables.
            let catalog = builtin_catalog();
            w.jobs.activate(&w.input);
            m.jobs.activate(&m.input);
            lens_on(&mut w, &catalog);
            lens_on(&mut m, &catalog);
            assert!(w.settle_views(Duration::from_secs(60)));
            assert!(m.settle_views(Duration::from_secs(60)));
            assert_eq!(w.jobs.len(), m.jobs.len());
            assert_eq!(w.lens.counts(), m.lens.counts());
            assert!(m.lens.counts().iter().sum::<usize>() > 0);
        }
    }

    #[test]
    fn an_append_while_the_full_scan_runs_is_scanned_when_it_ends() {
        let big = "x1 ".repeat(100_000);
        let mut w = typed(r"\d", Flavor::Rust, &big);
        w.rescan(0..10);
        w.append_input("\n7 8 9\n");
        assert!(w.settle(Duration::from_secs(20)));
        assert_eq!(w.results.count, 100_003);
        assert_eq!(w.results.spans.len(), 100_003);
    }
}
