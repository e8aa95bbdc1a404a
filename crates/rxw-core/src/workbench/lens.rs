//! The registry lens: every preset over the input at once, hits kept per key.
//!
//! The scan is the parse-through-all scanner of `rxw parse` ([`crate::presets::parse_all::Scanner`]),
//! run on a worker thread ([`super::task::Task`]) with the input shared, not copied; hits
//! stream back in batches, so counts and colours fill in while keys keep being served, and
//! the next change of the input cancels the scan. Only spans are kept (no groups), per key
//! and in text order, so counting, painting the lines on screen and jumping to the next hit
//! of one key are binary searches. Groups are parsed on demand for one line, the one under
//! the cursor ([`Lens::update_fields`]), exactly as `rxw parse --json` gives them for it.
//!
//! A followed file's growth is scanned incrementally, each key from the point the engine says
//! growth can have changed its hits ([`crate::engine::growth`]): the start of the last line
//! for a preset whose matches stay in lines, a bounded number of bytes back for one whose
//! attempts read a bounded length, else its last hit or the first place after it where its
//! literal start occurs (a `(?s)` summary running to the next tag or to the end of the text
//! starts again at its last hit). Keys that start again at the same byte share one pass.
//! Growth while a scan runs is taken when it ends, so a file that never stops growing cannot
//! starve the counts.

use super::TextBuffer;
use super::buffer::SharedText;
use super::matching::SharedWaker;
use super::task::{Reply, Task, reply_channel};
use crate::engine::growth::{Reach, keep_before, restart, resume_point};
use crate::engine::set::HitPattern;
use crate::error::Error;
use crate::input::format::{self, LogFormat, Message};
use crate::presets::model::{Catalog, Entry};
use crate::presets::parse_all::{HitsOptions, Scanner, Windows};
use crate::presets::per_record::RecordWindows;
use std::collections::{HashMap, VecDeque};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// A hit's byte range in the input.
pub type Span = (usize, usize);

/// Most hit spans the lens keeps over all keys (the counts go on past it).
pub const LENS_HIT_CAP: usize = 4_000_000;

/// How many of its last hits past the cap the lens keeps per key: growth that changes no
/// older hit than these is scanned from the resume point, the counts staying exact.
pub const LENS_TAIL_CAP: usize = 4096;

/// Longest line whose fields [`Lens::update_fields`] parses (the first bytes of a longer one).
pub const FIELDS_LINE_CAP: usize = 64 * 1024;

/// One parsed hit of the line under the cursor: the shape of an element of `rxw parse --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitRow {
    /// The preset key.
    pub key: String,
    /// Its index in [`Lens::keys`] (for its colour).
    pub key_index: usize,
    /// Byte offset in the line.
    pub index: usize,
    /// Byte offset of the end in the line.
    pub end: usize,
    /// The matched text.
    pub text: String,
    /// Groups by name (or number for unnamed ones); `None` when a group did not take part.
    pub groups: Vec<(String, Option<String>)>,
}

/// The parsed fields of one line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LineFields {
    /// The line (from 0).
    pub line: usize,
    /// The hits of the enabled keys, in text order.
    pub rows: Vec<HitRow>,
    /// Whether the line was longer than [`FIELDS_LINE_CAP`] (only its start was parsed).
    pub cut: bool,
    /// A preset that failed on the line (a backtrack budget), with its key.
    pub error: Option<String>,
}

/// How far the lens scan is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LensState {
    /// Not started (the lens was never shown), or no registry.
    Idle,
    /// Scanning; the byte reached so far.
    Scanning(usize),
    /// Every hit is in.
    Done,
    /// The user stopped the scan at this byte: the hits and counts are those before it; an
    /// edit or another registry scans again.
    Stopped(usize),
}

enum LensEvent {
    Progress {
        generation: u64,
        /// `(key index, start, end)` of hits kept.
        hits: Vec<(u32, usize, usize)>,
        /// Hits counted but not kept (past the cap), per key index: how many, and the last
        /// of them (at most [`LENS_TAIL_CAP`]), in text order.
        dropped: Vec<(u32, Dropped)>,
        scanned: usize,
    },
    Done {
        generation: u64,
        errors: Vec<Error>,
        elapsed: Duration,
        /// For each key of [`Reach::Unbounded`] scanned: the first attempt of its pass that
        /// examined the end of the text ([`resume_point`]; `None`: none did), for the next
        /// growth.
        pending: Vec<(u32, Option<usize>)>,
        /// Whether every hit is that of one scan of the whole text (false: a paged text's
        /// chunks were searched alone for a preset that can cross lines).
        exact: bool,
    },
}

struct LensJob {
    generation: u64,
    catalog: Arc<Catalog>,
    text: SharedText,
    /// Scans to run: the key indices and the byte each starts at.
    passes: Vec<(Vec<usize>, usize)>,
    /// How many more spans may be kept.
    room: usize,
    /// The record format whose messages the presets run on (`None`: the text as is).
    records: Option<LogFormat>,
}

/// Hits of one key past the cap: their number and the last of them.
#[derive(Debug, Default)]
struct Dropped {
    n: usize,
    tail: VecDeque<Span>,
}

impl Dropped {
    fn push(&mut self, span: Span) {
        self.n += 1;
        if self.tail.len() == LENS_TAIL_CAP {
            self.tail.pop_front();
        }
        self.tail.push_back(span);
    }
}

/// The hits a lens pass has found and not yet sent.
struct Collect<'r> {
    generation: u64,
    reply: &'r Reply<LensEvent>,
    batch: Vec<(u32, usize, usize)>,
    dropped: HashMap<u32, Dropped>,
    room: usize,
    scanned: usize,
    last_send: Instant,
    /// Hits since the clock was last read.
    since_clock: u32,
    /// Every hit of this pass of each key whose attempts may read without bound, for a text
    /// in memory: where growth resumes is the first attempt the pass ran that examined the
    /// end of the text.
    unbounded: HashMap<u32, Vec<(usize, usize)>>,
}

impl Collect<'_> {
    fn hit(&mut self, k: u32, s: usize, e: usize) {
        self.scanned = s;
        if let Some(all) = self.unbounded.get_mut(&k) {
            all.push((s, e));
        }
        if self.room > 0 {
            self.batch.push((k, s, e));
            self.room -= 1;
        } else {
            self.dropped.entry(k).or_default().push((s, e));
        }
        // Batches at most every 25 ms, so colours fill in while the scan runs (the clock read
        // every 256 hits: reading it for each cost more than keeping the hit).
        self.since_clock += 1;
        if self.since_clock >= 256 {
            self.since_clock = 0;
            if self.last_send.elapsed() >= Duration::from_millis(25) {
                self.send();
            }
        }
    }

    fn send(&mut self) {
        self.reply.send(LensEvent::Progress {
            generation: self.generation,
            hits: std::mem::take(&mut self.batch),
            dropped: self.dropped.drain().collect(),
            scanned: self.scanned,
        });
        self.last_send = Instant::now();
    }
}

fn run_lens(job: LensJob, cancel: &AtomicBool, reply: &Reply<LensEvent>) {
    let started = Instant::now();
    let entries = job.catalog.entries();
    let mut errors = Vec::new();
    let mut pending = Vec::new();
    let mut room = job.room;
    let mut exact = true;
    for (keys, start) in &job.passes {
        if keys.is_empty() {
            continue;
        }
        // By address (as a number, so the lookup can be shared by the record pass's threads).
        let index: HashMap<usize, u32> = keys
            .iter()
            .map(|&k| (&entries[k] as *const Entry as usize, k as u32))
            .collect();
        let key_of = |e: &Entry| index[&(e as *const Entry as usize)];
        let mut found = Collect {
            generation: job.generation,
            reply,
            batch: Vec::new(),
            dropped: HashMap::new(),
            room,
            scanned: *start,
            last_send: Instant::now(),
            since_clock: 0,
            // Only a text in memory finds its resume points from every hit; a paged pass
            // finds them from its last chunk, and keeping every hit of a 20 GB text took
            // gigabytes.
            unbounded: keys
                .iter()
                .filter(|&&k| key_reach(&entries[k]) == Reach::Unbounded)
                .filter(|_| job.text.memory().is_some())
                .map(|&k| (k as u32, Vec::new()))
                .collect(),
        };
        // A paged pass starts at a line start, before the text a look-behind reads.
        let first_line = job
            .text
            .line_start_of(start.saturating_sub(crate::engine::set::MAX_LOOK_BEHIND));
        let mut paged_pending = Vec::new();
        if let Some(fmt) = job.records {
            // On each record's message, from the record `start` begins.
            let scanner = Scanner::new(keys.iter().map(|&k| &entries[k]).collect()).with_threads(1);
            lens_records(
                &job,
                &scanner,
                fmt,
                *start,
                cancel,
                &key_of,
                &mut found,
                &mut errors,
            );
        } else {
            match job.text.page_chunks(first_line) {
                // The whole text in memory.
                None => {
                    let scanner =
                        Scanner::new(keys.iter().map(|&k| &entries[k]).collect()).with_threads(1);
                    for piece in job.text.pieces(*start) {
                        let at = (piece.text.as_ref(), piece.start, piece.offset);
                        lens_piece(&scanner, at, cancel, &key_of, &mut found, &mut errors);
                    }
                }
                Some(chunks) => {
                    let pass = PagedPass {
                        keys,
                        start: *start,
                        chunks,
                    };
                    let (all_exact, grown) =
                        lens_paged(&job, pass, cancel, &key_of, &mut found, &mut errors);
                    exact &= all_exact;
                    paged_pending = grown;
                }
            }
        }
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        found.scanned = found.scanned.max(job.text.len());
        found.send();
        room = found.room;
        for &k in keys {
            let entry = &entries[k];
            if job.records.is_none() && key_reach(entry) == Reach::Unbounded {
                let all = found
                    .unbounded
                    .get(&(k as u32))
                    .map_or(&[][..], Vec::as_slice);
                let at = match entry.regex() {
                    Ok(re) => match job.text.memory() {
                        Some(text) => resume_point(re, entry.starts(), text, *start, all),
                        // A paged pass's own resume points, from its last chunk.
                        None => paged_pending
                            .iter()
                            .find(|(key, _)| *key == k)
                            .and_then(|(_, at)| *at),
                    },
                    Err(_) => Some(*start),
                };
                pending.push((k as u32, at));
            }
        }
    }
    if cancel.load(Ordering::Relaxed) {
        return;
    }
    reply.send(LensEvent::Done {
        generation: job.generation,
        errors,
        elapsed: started.elapsed(),
        pending,
        exact,
    });
}

/// The hits of a run of records (key, start, end) and the failures met.
type RunHits = (Vec<(u32, usize, usize)>, Vec<Error>);

/// Records a lens pass on records hands to each core at a time.
const RECORD_BLOCK: usize = 16 * 1024;

/// A lens pass on records: every record from byte `start` (a record's first byte) on, each
/// preset run on the record's message. A hit in a message that is a stretch of the text is
/// kept where it is; one in a decoded message (a JSON string) is kept as its record's line.
#[allow(clippy::too_many_arguments)]
fn lens_records(
    job: &LensJob,
    scanner: &Scanner<'_>,
    fmt: LogFormat,
    start: usize,
    cancel: &AtomicBool,
    key_of: &(dyn Fn(&Entry) -> u32 + Sync),
    found: &mut Collect<'_>,
    errors: &mut Vec<Error>,
) {
    if let Some(text) = job.text.memory() {
        let text = text.as_str();
        let start = start.min(text.len());
        let mut extents = Vec::new();
        format::split(&text[start..], fmt, &[0], &mut |s, e| {
            extents.push((start + s, start + e))
        });
        // The records of a block are shared out among the cores in contiguous runs, each
        // run's hits gathered in record order; the runs' hits are then taken in in order, so
        // each key's hits stay in text order. The spans of each message's hits come from the
        // presets' counting programs where those give them exactly (`Scanner::spans`).
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .clamp(1, 4);
        let scan_run = |run: &[(usize, usize)]| -> RunHits {
            let mut hits = Vec::new();
            let mut failed = Vec::new();
            for (n, &(s, e)) in run.iter().enumerate() {
                if n % 1024 == 1023 && cancel.load(Ordering::Relaxed) {
                    break;
                }
                let record = format::record(text, s, e, fmt);
                let (at, message) = match &record.message {
                    Message::Stretch { at, text } => (Some(*at), *text),
                    Message::Decoded(m) => (None, m.as_str()),
                    Message::Invalid(_) => continue,
                };
                let line_end = s + text[s..e].trim_end_matches(['\n', '\r']).len();
                match scanner.spans(message) {
                    Ok(spans) => hits.extend(spans.into_iter().map(|(i, hs, he)| {
                        let k = key_of(scanner.entries()[i]);
                        match at {
                            Some(at) => (k, at + hs, at + he),
                            None => (k, s, line_end),
                        }
                    })),
                    Err(e) => failed.push(e.into()),
                }
            }
            (hits, failed)
        };
        for block in extents.chunks(RECORD_BLOCK * threads) {
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            let parts: Vec<RunHits> = if threads == 1 || block.len() < 1024 {
                vec![scan_run(block)]
            } else {
                let per = block.len().div_ceil(threads);
                std::thread::scope(|scope| {
                    let running: Vec<_> = block
                        .chunks(per)
                        .map(|run| scope.spawn(move || scan_run(run)))
                        .collect();
                    running
                        .into_iter()
                        .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                        .collect()
                })
            };
            for (hits, failed) in parts {
                for (k, s, e) in hits {
                    found.hit(k, s, e);
                }
                errors.extend(failed);
            }
        }
        return;
    }
    let Some(chunks) = job.text.page_chunks(start) else {
        return;
    };
    let mut windows = RecordWindows::new(scanner, Some(fmt));
    for chunk in chunks {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let fed = windows.feed(chunk, false, |hit, f| {
            if f.in_message {
                found.hit(key_of(hit.entry), f.record.0, f.record.1);
            } else {
                found.hit(
                    key_of(hit.entry),
                    f.offset + hit.m.start(),
                    f.offset + hit.m.end(),
                );
            }
            Ok::<(), Error>(())
        });
        if let Err(e) = fed {
            errors.push(e);
            return;
        }
    }
}

/// A lens pass over a paged text: its keys, where their search starts, and the chunks of
/// whole lines from a line start at or before it.
struct PagedPass<'k> {
    keys: &'k [usize],
    start: usize,
    chunks: crate::input::paged::PageChunks,
}

/// The hits of `scanner` in a piece of the text, `(text, start, offset)`: its text, where in
/// it the search starts, and where it stands in the whole text. Spans only; each hit is
/// counted at its place in the whole text.
fn lens_piece(
    scanner: &Scanner<'_>,
    (text, start, offset): (&str, usize, usize),
    cancel: &AtomicBool,
    key_of: &dyn Fn(&Entry) -> u32,
    found: &mut Collect<'_>,
    errors: &mut Vec<Error>,
) {
    let options = HitsOptions {
        captures: false,
        start,
        cancel: Some(cancel),
        ..Default::default()
    };
    for hit in scanner.hits_with(text, options) {
        match hit {
            Ok(hit) => found.hit(
                key_of(hit.entry),
                offset + hit.m.start(),
                offset + hit.m.end(),
            ),
            Err(e) => errors.push(e.into()),
        }
    }
}

/// One lens pass over a paged text's chunks of whole lines. The keys whose hits settle
/// before the end of the text ([`Scanner::settles`]) carry what the next chunk can change
/// into it ([`Windows`], the engine's resume point), so their hits are those of one scan of
/// the whole text; the others (a preset that can match empty, or whose match runs to the
/// end of the text) search each chunk alone. Returns whether every hit is exact (false when
/// one of the latter can cross lines), and for each settling key, where its scan resumes if
/// the text grows.
fn lens_paged(
    job: &LensJob,
    pass: PagedPass<'_>,
    cancel: &AtomicBool,
    key_of: &dyn Fn(&Entry) -> u32,
    found: &mut Collect<'_>,
    errors: &mut Vec<Error>,
) -> (bool, Vec<(usize, Option<usize>)>) {
    let entries = job.catalog.entries();
    let keys = pass.keys;
    let all = Scanner::new(keys.iter().map(|&k| &entries[k]).collect()).with_threads(1);
    let (settling, alone): (Vec<usize>, Vec<usize>) =
        (0..keys.len()).partition(|&i| all.settles(i));
    let exact = alone
        .iter()
        .all(|&i| key_reach(&entries[keys[i]]) == Reach::Line);
    let carried =
        Scanner::new(settling.iter().map(|&i| &entries[keys[i]]).collect()).with_threads(1);
    let single = Scanner::new(alone.iter().map(|&i| &entries[keys[i]]).collect()).with_threads(1);
    let mut windows = Windows::starting_at(&carried, pass.start);
    for chunk in pass.chunks {
        if cancel.load(Ordering::Relaxed) {
            return (exact, Vec::new());
        }
        if !alone.is_empty() {
            // After the line break before the chunk, so `\A` and `^` see no text start.
            let (context, offset) = if chunk.offset > 0 {
                ("\n", chunk.offset - 1)
            } else {
                ("", 0)
            };
            let text = format!("{context}{}", chunk.searchable());
            let from = context.len() + pass.start.saturating_sub(chunk.offset);
            lens_piece(
                &single,
                (&text, from, offset),
                cancel,
                key_of,
                found,
                errors,
            );
        }
        if !settling.is_empty() {
            let fed = windows.feed(chunk, false, |hit, window, _| {
                let (s, e) = (window.offset + hit.m.start(), window.offset + hit.m.end());
                found.hit(key_of(hit.entry), s, e);
                Ok::<(), Error>(())
            });
            if let Err(e) = fed {
                errors.push(e);
                return (exact, Vec::new());
            }
        }
    }
    let grown = settling
        .iter()
        .zip(windows.growth_resume())
        .map(|(&i, &at)| (keys[i], at))
        .collect();
    (exact, grown)
}

/// The record format of the input, read off its first lines: `None` when they hold no
/// records (the text is scanned as is).
fn detect_records(input: &TextBuffer) -> Option<LogFormat> {
    let n = input.line_count().min(64);
    let mut head = String::new();
    for i in 0..n {
        head.push_str(&input.line(i));
        head.push('\n');
    }
    Some(LogFormat::detect(&head)).filter(|f| f.has_records())
}

/// The first byte of the record that holds byte `at` (or the text's end) of `input`: the
/// line's start, back over continuation lines (a NetVM log's indented ones, a user format's).
fn record_start_before(input: &TextBuffer, at: usize, fmt: LogFormat) -> usize {
    if input.line_count() == 0 {
        return 0;
    }
    let mut line = input.line_of(at.min(input.len().saturating_sub(1)));
    while line > 0 && fmt.continues(&input.line(line)) {
        line -= 1;
    }
    input.line_start(line)
}

/// How far a preset's match attempts can read ([`Reach`]); an entry that does not parse has
/// no hits, and is scanned as [`Reach::Unbounded`].
fn key_reach(entry: &Entry) -> Reach {
    entry
        .ast()
        .map_or(Reach::Unbounded, |ast| Reach::of_ast(ast, ast.flags.sticky))
}

/// The input revision a scan covers, and how the input has changed since.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Coverage {
    /// The input revision the last scan started on.
    pub revision: u64,
    /// Its length then.
    pub len: usize,
}

/// Appends seen since a scan started: the input is the scanned text plus appended text as
/// long as every revision change since was an append.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Appends {
    /// The revision after the last append.
    pub revision: u64,
}

/// The lens over the input: hits per preset key, counts, which keys are shown.
pub struct Lens {
    catalog: Arc<Catalog>,
    keys: Vec<String>,
    /// How far each key's match attempts can read, and whether it can match empty: where
    /// growth is scanned from.
    reach: Vec<(Reach, bool)>,
    /// For each key of [`Reach::Unbounded`]: the first attempt of the last scan that examined
    /// the end of the text ([`resume_point`]).
    pending: Vec<Option<usize>>,
    hits: Vec<Vec<Span>>,
    counts: Vec<usize>,
    /// While the combined filters are on: per key, its hits on the lines they show.
    filtered_counts: Option<Vec<usize>>,
    /// Per key, the last of its hits past the cap (at most [`LENS_TAIL_CAP`]; the hits past
    /// the cap are `counts - hits.len()`).
    tails: Vec<VecDeque<Span>>,
    enabled: Vec<bool>,
    stored: usize,
    /// Most hit spans kept over all keys ([`LENS_HIT_CAP`]; tests lower it).
    hit_cap: usize,
    capped: bool,
    /// The last scan searched a paged text's chunks alone for a preset that can cross lines.
    inexact: bool,
    /// The record format the presets run on the messages of, detected from the input's first
    /// lines when a whole scan starts (`None`: the text as is).
    records: Option<LogFormat>,
    errors: Vec<Error>,
    state: LensState,
    elapsed: Option<Duration>,
    /// When the running scan started.
    started: Option<Instant>,
    active: bool,
    generation: u64,
    /// The byte the earliest pass of the last scan started at.
    scanned_from: usize,
    covered: Option<Coverage>,
    appends: Option<Appends>,
    fields: Option<(u64, LineFields)>,
    task: Option<Task<LensJob>>,
    events: Option<Receiver<LensEvent>>,
    waker: SharedWaker,
}

impl Lens {
    /// A lens over `catalog`'s presets, idle until [`Lens::activate`]; `waker` is called when
    /// a result is waiting.
    pub fn new(catalog: Arc<Catalog>, waker: SharedWaker) -> Lens {
        let mut lens = Lens {
            catalog: Arc::new(Catalog::default()),
            keys: Vec::new(),
            reach: Vec::new(),
            pending: Vec::new(),
            hits: Vec::new(),
            counts: Vec::new(),
            filtered_counts: None,
            tails: Vec::new(),
            enabled: Vec::new(),
            stored: 0,
            records: None,
            hit_cap: LENS_HIT_CAP,
            capped: false,
            inexact: false,
            errors: Vec::new(),
            state: LensState::Idle,
            elapsed: None,
            started: None,
            active: false,
            generation: 0,
            scanned_from: 0,
            covered: None,
            appends: None,
            fields: None,
            task: None,
            events: None,
            waker,
        };
        lens.set_catalog(catalog);
        lens
    }

    /// Uses another registry (the user saved a preset): everything is scanned again.
    pub fn set_catalog(&mut self, catalog: Arc<Catalog>) {
        let old: HashMap<String, bool> = self
            .keys
            .iter()
            .cloned()
            .zip(self.enabled.iter().copied())
            .collect();
        self.keys = catalog.keys().map(str::to_string).collect();
        self.reach = catalog
            .entries()
            .iter()
            .map(|e| {
                let empty = e.ast().is_ok_and(crate::engine::growth::can_match_empty);
                (key_reach(e), empty)
            })
            .collect();
        self.enabled = self
            .keys
            .iter()
            .map(|k| old.get(k).copied().unwrap_or(true))
            .collect();
        self.catalog = catalog;
        self.reset();
        self.covered = None;
        self.fields = None;
    }

    /// The registry the lens runs.
    pub fn catalog(&self) -> &Arc<Catalog> {
        &self.catalog
    }

    fn reset(&mut self) {
        let n = self.keys.len();
        self.hits = vec![Vec::new(); n];
        self.counts = vec![0; n];
        self.tails = vec![VecDeque::new(); n];
        self.pending = vec![None; n];
        self.stored = 0;
        self.capped = false;
        self.inexact = false;
        self.errors.clear();
        self.elapsed = None;
    }

    /// Starts keeping the lens up to date with the input (the first time it is shown).
    pub fn activate(&mut self, input: &TextBuffer) {
        self.active = true;
        self.sync(input);
    }

    /// Whether the lens is kept up to date.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// The preset keys, in registry order (the colour order).
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// Hits per key (exact once [`Lens::state`] is done, counting past the span cap).
    pub fn counts(&self) -> &[usize] {
        match &self.filtered_counts {
            Some(c) if c.len() == self.counts.len() => c,
            _ => &self.counts,
        }
    }

    /// Counts per key of the lines the filters show ([`Lens::counts`] gives them while
    /// set), or of the whole input again (`None`).
    pub fn set_filtered_counts(&mut self, counts: Option<Vec<usize>>) {
        self.filtered_counts = counts;
    }

    /// Whether [`Lens::counts`] are of the lines the filters show.
    pub fn counts_filtered(&self) -> bool {
        self.filtered_counts
            .as_ref()
            .is_some_and(|c| c.len() == self.counts.len())
    }

    /// Whether key `k` is shown.
    pub fn enabled(&self, k: usize) -> bool {
        self.enabled.get(k).copied().unwrap_or(false)
    }

    /// Shows or hides key `k`'s hits (the scan keeps them either way).
    pub fn toggle(&mut self, k: usize) {
        if let Some(e) = self.enabled.get_mut(k) {
            *e = !*e;
            self.fields = None;
        }
    }

    /// How far the scan is.
    pub fn state(&self) -> LensState {
        self.state
    }

    /// The byte the last scan started at (its earliest pass): 0 for a whole scan, near the old
    /// end for growth.
    pub fn scanned_from(&self) -> usize {
        self.scanned_from
    }

    /// The running scan's rate so far in bytes a second, once it has run long enough
    /// (200 ms) for the figure to mean something.
    pub fn rate(&self) -> Option<f64> {
        let LensState::Scanning(at) = self.state else {
            return None;
        };
        crate::progress::rate_since(self.started?, self.scanned_from, at)
    }

    /// Stops the running scan (Esc): the hits found so far stay, and growth is not scanned
    /// until an edit or another registry scans again. Returns the byte it stopped at, or
    /// `None` when no scan was running.
    pub fn stop(&mut self) -> Option<usize> {
        self.take_events();
        let LensState::Scanning(at) = self.state else {
            return None;
        };
        if let Some(task) = &self.task {
            task.cancel();
        }
        // Events the worker sends before it sees the flag are not taken in.
        self.generation += 1;
        self.state = LensState::Stopped(at);
        Some(at)
    }

    /// The scan time, once done.
    pub fn elapsed(&self) -> Option<Duration> {
        self.elapsed
    }

    /// Presets that failed over the input (a backtrack budget), each error naming its key.
    pub fn errors(&self) -> &[Error] {
        &self.errors
    }

    /// Keeps at most `cap` hit spans from the next whole scan on (tests reach the cap with
    /// a small text).
    #[cfg(test)]
    pub(crate) fn set_hit_cap(&mut self, cap: usize) {
        self.hit_cap = cap;
    }

    /// Whether more hits were found than [`LENS_HIT_CAP`] keeps (counts stay exact; hits
    /// past the cap are neither painted nor reachable by next / previous).
    pub fn capped(&self) -> bool {
        self.capped
    }

    /// Whether a preset that can cross lines was searched in a paged text's chunks alone
    /// (one that can match empty, or whose match runs to the end of the text): its hits
    /// spanning two chunks are missed.
    pub fn inexact(&self) -> bool {
        self.inexact
    }

    /// Key `k`'s hits kept so far, in text order.
    pub fn hits(&self, k: usize) -> &[Span] {
        self.hits.get(k).map_or(&[], Vec::as_slice)
    }

    /// The hits of the enabled keys that overlap `range` (an empty hit at its end counts),
    /// with their key index, in key order then text order.
    pub fn hits_in(&self, range: Range<usize>) -> Vec<(Span, usize)> {
        let mut out = Vec::new();
        for (k, hits) in self.hits.iter().enumerate() {
            if !self.enabled[k] {
                continue;
            }
            let first = hits.partition_point(|&(_, e)| e < range.start);
            for &(s, e) in &hits[first..] {
                if s > range.end {
                    break;
                }
                if s < range.end || s == e {
                    out.push(((s, e), k));
                }
            }
        }
        out
    }

    /// Key `k`'s first hit starting after byte `after`.
    pub fn next_hit(&self, k: usize, after: usize) -> Option<Span> {
        let hits = self.hits(k);
        hits.get(hits.partition_point(|&(s, _)| s <= after))
            .copied()
    }

    /// Key `k`'s last hit starting before byte `before`.
    pub fn prev_hit(&self, k: usize, before: usize) -> Option<Span> {
        let hits = self.hits(k);
        let i = hits.partition_point(|&(s, _)| s < before);
        i.checked_sub(1).map(|i| hits[i])
    }

    /// The parsed fields of the line last asked for with [`Lens::update_fields`].
    pub fn fields(&self) -> Option<&LineFields> {
        self.fields.as_ref().map(|(_, f)| f)
    }

    /// Parses `line` of `input` with every enabled preset (cheap: one line), unless that line
    /// of that input revision is parsed already; returns whether it parsed.
    pub fn update_fields(&mut self, input: &TextBuffer, line: usize) -> bool {
        if !self.active {
            return false;
        }
        if let Some((rev, f)) = &self.fields
            && *rev == input.revision()
            && f.line == line
        {
            return false;
        }
        let line = line.min(input.line_count().saturating_sub(1));
        let mut fields = match self.records {
            Some(fmt) => self.parse_record(input, line, fmt),
            None => {
                let text = input.line(line);
                let mut end = text.len().min(FIELDS_LINE_CAP);
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let mut fields = self.parse_line(&text[..end]);
                fields.cut = end < text.len();
                fields
            }
        };
        fields.line = line;
        self.fields = Some((input.revision(), fields));
        true
    }

    /// The record format the lens runs the presets on the messages of (`None`: the text as
    /// is), as detected when its last whole scan started.
    pub fn records(&self) -> Option<LogFormat> {
        self.records
    }

    /// The fields of the message of the record that holds `line` (its first
    /// [`FIELDS_LINE_CAP`] bytes): offsets in the message.
    fn parse_record(&self, input: &TextBuffer, line: usize, fmt: LogFormat) -> LineFields {
        let first = input.line_of(record_start_before(input, input.line_start(line), fmt));
        let mut text = String::new();
        let mut cut = false;
        let mut i = first;
        while i < input.line_count() {
            let l = input.line(i);
            if i > first && !fmt.continues(&l) {
                break;
            }
            if text.len() + l.len() > FIELDS_LINE_CAP {
                cut = true;
                break;
            }
            text.push_str(&l);
            text.push('\n');
            i += 1;
        }
        let record = format::record(&text, 0, text.len(), fmt);
        let mut fields = match &record.message {
            Message::Invalid(why) => LineFields {
                error: Some(format!("line {} is no record: {why}", first + 1)),
                ..LineFields::default()
            },
            m => self.parse_line(m.as_str()),
        };
        fields.cut = cut;
        fields
    }

    /// Every enabled preset over `text`, as `rxw parse --json --only KEYS` gives it.
    pub fn parse_line(&self, text: &str) -> LineFields {
        let entries = self.catalog.entries();
        let shown: Vec<usize> = (0..entries.len()).filter(|&k| self.enabled[k]).collect();
        let scanner = Scanner::new(shown.iter().map(|&k| &entries[k]).collect());
        let mut fields = LineFields::default();
        for hit in scanner.hits(text, true) {
            match hit {
                Ok(hit) => {
                    let key_index = shown
                        .iter()
                        .copied()
                        .find(|&k| std::ptr::eq(&entries[k], hit.entry))
                        .unwrap_or(0);
                    let groups = crate::wire::HitRecord::new(hit.entry, text, &hit.m)
                        .groups
                        .0
                        .into_iter()
                        .map(|(name, v)| (name.into_owned(), v.map(str::to_string)))
                        .collect();
                    fields.rows.push(HitRow {
                        key: hit.entry.preset.key.clone(),
                        key_index,
                        index: hit.m.start(),
                        end: hit.m.end(),
                        text: hit.m.as_str(text).to_string(),
                        groups,
                    });
                }
                Err(e) => fields.error = Some(e.message),
            }
        }
        fields
    }

    /// Tells the lens that `input` grew by an append from `len_before` bytes at revision
    /// `revision_before` (a followed file): the next scan covers only what is new.
    pub fn note_append(&mut self, revision_before: u64, revision_after: u64) {
        let chained = match (self.appends, self.covered) {
            (Some(a), _) => a.revision == revision_before,
            (None, Some(c)) => c.revision == revision_before,
            (None, None) => false,
        };
        self.appends = chained.then_some(Appends {
            revision: revision_after,
        });
    }

    /// Takes in the worker's results and starts the scan the input needs now: none when it
    /// is covered, the new part after an append (once the running scan ended), else the whole.
    /// Returns whether anything changed on screen.
    pub fn sync(&mut self, input: &TextBuffer) -> bool {
        if !self.active {
            return false;
        }
        let mut changed = self.take_events();
        let rev = input.revision();
        let covered = self.covered.is_some_and(|c| c.revision == rev);
        if covered {
            return changed;
        }
        let grown = self.appends.is_some_and(|a| a.revision == rev) && self.covered.is_some();
        if grown {
            // The running scan ends first, then the growth is scanned from the resume point
            // (a whole scan again only when the hits past the cap that growth changes were
            // not kept). A stopped scan stays stopped.
            if self.state == LensState::Done {
                if !self.scan_growth(input) {
                    self.scan_all(input);
                }
                changed = true;
            }
        } else {
            self.scan_all(input);
            changed = true;
        }
        changed
    }

    fn submit(&mut self, input: &TextBuffer, passes: Vec<(Vec<usize>, usize)>) {
        self.generation += 1;
        self.covered = Some(Coverage {
            revision: input.revision(),
            len: input.len(),
        });
        self.appends = None;
        self.elapsed = None;
        self.started = Some(Instant::now());
        self.errors.clear();
        self.scanned_from = passes.iter().map(|p| p.1).min().unwrap_or(0);
        self.state = LensState::Scanning(self.scanned_from);
        if self.task.is_none() {
            let (reply, rx) = reply_channel(self.waker.clone());
            self.task = Some(Task::spawn("rxw-lens", move |job, cancel| {
                run_lens(job, cancel, &reply)
            }));
            self.events = Some(rx);
        }
        let job = LensJob {
            generation: self.generation,
            catalog: Arc::clone(&self.catalog),
            text: input.shared(),
            passes,
            // Once past the cap, growth's hits are counted past it too: each key's kept hits
            // stay the first of its hits.
            room: if self.capped {
                0
            } else {
                self.hit_cap.saturating_sub(self.stored)
            },
            records: self.records,
        };
        if let Some(task) = &self.task {
            task.submit(job);
        }
    }

    fn scan_all(&mut self, input: &TextBuffer) {
        self.reset();
        self.records = detect_records(input);
        let all: Vec<usize> = (0..self.keys.len()).collect();
        self.submit(input, vec![(all, 0)]);
    }

    /// Scans the growth from each key's resume point; returns false, having changed nothing,
    /// when a key's hits that growth can change go back past the hits it kept beyond the cap
    /// (their number before the resume point is then unknown).
    fn scan_growth(&mut self, input: &TextBuffer) -> bool {
        let old_len = self.covered.map_or(0, |c| c.len);
        if detect_records(input) != self.records {
            // The first lines now tell another format (a log that began empty, or short).
            return false;
        }
        if let Some(fmt) = self.records {
            // On records: from the last record the old text ends in, which growth can
            // continue; the hits before it stand.
            let at = record_start_before(input, old_len, fmt);
            // Per key: the kept hits that stay, and the hits past the cap that go (from the
            // tail of the last of them). Nothing changes unless every key's cut is known.
            let mut cuts = Vec::with_capacity(self.keys.len());
            for k in 0..self.keys.len() {
                let hits = &self.hits[k];
                let tail = self.tails[k].make_contiguous();
                let past_cap = self.counts[k] - hits.len();
                let going = tail.len() - tail.partition_point(|h| h.0 < at);
                let cut = if past_cap == 0 {
                    (hits.partition_point(|h| h.0 < at), 0)
                } else if going < tail.len() {
                    // A hit past the cap stays: every kept hit comes before it.
                    (hits.len(), going)
                } else if tail.len() == past_cap {
                    // Every hit past the cap goes: on into the kept ones.
                    (hits.partition_point(|h| h.0 < at), going)
                } else {
                    return false;
                };
                cuts.push(cut);
            }
            for (k, (keep, from_tail)) in cuts.into_iter().enumerate() {
                let tail = &mut self.tails[k];
                tail.truncate(tail.len() - from_tail);
                let hits = &mut self.hits[k];
                self.stored -= hits.len() - keep;
                self.counts[k] -= hits.len() - keep + from_tail;
                hits.truncate(keep);
            }
            let all: Vec<usize> = (0..self.keys.len()).collect();
            self.submit(input, vec![(all, at)]);
            return true;
        }
        // Each key from where the engine says growth can have changed its hits; keys that
        // start at the same byte share a pass, passes in text order.
        let mut cuts = Vec::with_capacity(self.keys.len());
        for k in 0..self.keys.len() {
            let hits = &self.hits[k];
            let tail = self.tails[k].make_contiguous();
            let past_cap = self.counts[k] - hits.len();
            let (reach, empty) = self.reach[k];
            // The hits past the cap come after the kept ones: the last of them first.
            let last: &[Span] = if past_cap > 0 { tail } else { hits };
            let (at, keep) = if input.is_paged() {
                // The same points as in memory, read off the line index.
                let line_start = |at: usize| input.line_start(input.line_of(at));
                let at = match reach {
                    Reach::Line => line_start(old_len),
                    Reach::Bytes(n) => line_start(old_len.saturating_sub(n)),
                    Reach::Unbounded => self.pending[k].unwrap_or(old_len).min(line_start(old_len)),
                };
                keep_before(at, empty, last)
            } else {
                restart(reach, empty, input.text(), old_len, last, self.pending[k])
            };
            let cut = if past_cap == 0 {
                (at, keep, 0)
            } else if keep > 0 {
                (at, hits.len(), tail.len() - keep)
            } else if tail.len() == past_cap {
                // Every hit past the cap goes: on into the kept ones.
                let (at, keep) = keep_before(at, empty, hits);
                (at, keep, past_cap)
            } else {
                return false;
            };
            cuts.push(cut);
        }
        let mut passes: Vec<(Vec<usize>, usize)> = Vec::new();
        for (k, (at, keep, from_tail)) in cuts.into_iter().enumerate() {
            let hits = &mut self.hits[k];
            let tail = &mut self.tails[k];
            tail.truncate(tail.len() - from_tail);
            self.stored -= hits.len() - keep;
            self.counts[k] -= hits.len() - keep + from_tail;
            hits.truncate(keep);
            match passes.iter_mut().find(|(_, start)| *start == at) {
                Some((keys, _)) => keys.push(k),
                None => passes.push((vec![k], at)),
            }
        }
        passes.sort_by_key(|&(_, start)| start);
        self.submit(input, passes);
        true
    }

    fn take_events(&mut self) -> bool {
        let mut changed = false;
        while let Some(ev) = self.events.as_ref().and_then(|rx| rx.try_recv().ok()) {
            changed |= self.absorb(ev);
        }
        changed
    }

    fn absorb(&mut self, ev: LensEvent) -> bool {
        match ev {
            LensEvent::Progress {
                generation,
                hits,
                dropped,
                scanned,
            } => {
                if generation != self.generation {
                    return false;
                }
                for (k, s, e) in hits {
                    let k = k as usize;
                    self.hits[k].push((s, e));
                    self.counts[k] += 1;
                    self.stored += 1;
                }
                for (k, d) in dropped {
                    self.capped = true;
                    let k = k as usize;
                    self.counts[k] += d.n;
                    let tail = &mut self.tails[k];
                    tail.extend(d.tail);
                    let over = tail.len().saturating_sub(LENS_TAIL_CAP);
                    tail.drain(..over);
                }
                if let LensState::Scanning(at) = &mut self.state {
                    *at = (*at).max(scanned);
                }
                true
            }
            LensEvent::Done {
                generation,
                errors,
                elapsed,
                pending,
                exact,
            } => {
                if generation != self.generation {
                    return false;
                }
                self.inexact |= !exact;
                for (k, at) in pending {
                    self.pending[k as usize] = at;
                }
                self.errors = errors;
                self.elapsed = Some(elapsed);
                self.state = LensState::Done;
                true
            }
        }
    }

    /// Waits up to `timeout` for the scan to end, taking its results in; returns whether it
    /// did (tests and screenshots).
    pub fn settle(&mut self, input: &TextBuffer, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            self.sync(input);
            let covered = self.covered.is_some_and(|c| c.revision == input.revision());
            let stopped = matches!(self.state, LensState::Stopped(_));
            if !self.active || stopped || (self.state == LensState::Done && covered) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            let ev = self
                .events
                .as_ref()
                .and_then(|rx| rx.recv_timeout(Duration::from_millis(20)).ok());
            if let Some(ev) = ev {
                self.absorb(ev);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Arc<Catalog> {
        Arc::new(crate::presets::load::load(&crate::presets::load::LoadOptions::default()).catalog)
    }

    fn lens_over(text: &str) -> (Lens, TextBuffer) {
        let input = TextBuffer::new(text.to_string());
        let mut lens = Lens::new(catalog(), SharedWaker::default());
        lens.activate(&input);
        assert!(lens.settle(&input, Duration::from_secs(30)));
        (lens, input)
    }

    /// The hits `rxw parse` lists, per key: on each record's message when the text's first
    /// lines tell a record format, else on the text as is.
    fn parse_hits(catalog: &Catalog, text: &str) -> Vec<Vec<Span>> {
        let scanner = Scanner::new(catalog.entries().iter().collect());
        let mut per_key = vec![Vec::new(); catalog.len()];
        let fmt = LogFormat::detect(text);
        for record in format::records(text, fmt, &[0]) {
            let Message::Stretch { at, text: message } = record.message else {
                panic!("a text log's messages are stretches");
            };
            for hit in scanner.hits(message, false) {
                let hit = hit.unwrap();
                let k = catalog
                    .keys()
                    .position(|k| k == hit.entry.preset.key)
                    .unwrap();
                per_key[k].push((at + hit.m.start(), at + hit.m.end()));
            }
        }
        for hits in &mut per_key {
            hits.sort_unstable();
        }
        per_key
    }

    /// The spans the record pass takes from the counting programs are the scanner's hits
    /// without groups, message by message, on the demo log and on messages where a tag's
    /// candidates overlap or repeat.
    #[test]
    fn spans_are_the_hits_without_groups() {
        let catalog = catalog();
        let scanner = Scanner::new(catalog.entries().iter().collect());
        let mut messages: Vec<String> =
            format::records(crate::workbench::DEMO_LOG, LogFormat::NetVm, &[0])
                .iter()
                .map(|r| r.message.as_str().to_string())
                .collect();
        messages.extend([
            "[[CLAIM 1a2b] [CLAIM [CLAIM 3c4d]".to_string(),
            "[RESULT 1a] OK [RESULT 2b] ERROR x\n  - [ACK:99] [ACK:9".to_string(),
            "[WO:1] [from super] a\n[WO:2] b".to_string(),
            "deadbeef cafe 0123456789abcdef 550e8400-e29b-41d4-a716-446655440000".to_string(),
            String::new(),
        ]);
        let mut compared = 0;
        for m in &messages {
            let spans = scanner.spans(m).unwrap();
            let mut want: Vec<(usize, usize, usize)> = scanner
                .hits(m, false)
                .map(|h| {
                    let h = h.unwrap();
                    let i = scanner
                        .entries()
                        .iter()
                        .position(|e| std::ptr::eq(*e, h.entry))
                        .unwrap();
                    (i, h.m.start(), h.m.end())
                })
                .collect();
            let mut got = spans.clone();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{m:?}");
            compared += want.len();
        }
        assert!(compared > 50, "{compared}");
    }

    #[test]
    fn on_a_netvm_log_work_order_ends_at_its_record() {
        let (lens, input) = lens_over(crate::workbench::DEMO_LOG);
        assert_eq!(lens.records(), Some(LogFormat::NetVm));
        let wo = lens.keys().iter().position(|k| k == "work_order").unwrap();
        assert!(lens.counts()[wo] >= 20, "{}", lens.counts()[wo]);
        for &(s, e) in lens.hits(wo) {
            let hit = &input.text()[s..e];
            assert!(hit.starts_with("[WO:") && !hit.contains('\n'), "{hit:?}");
        }
    }

    #[test]
    fn the_lens_holds_what_parse_finds_per_key() {
        let (lens, input) = lens_over(crate::workbench::DEMO_LOG);
        let want = parse_hits(lens.catalog(), input.text());
        assert_eq!(want.len(), lens.keys().len());
        for (k, want) in want.iter().enumerate() {
            assert_eq!(lens.hits(k), want.as_slice(), "{}", lens.keys()[k]);
            assert_eq!(lens.counts()[k], want.len());
        }
        let verb = lens.keys().iter().position(|k| k == "verb").unwrap();
        assert!(lens.counts()[verb] > 20);
        assert_eq!(lens.state(), LensState::Done);
        assert!(lens.errors().is_empty());
    }

    #[test]
    fn next_and_previous_hit_of_one_key() {
        let text = "[CLAIM a1] x\nnothing\n[CLAIM b2] [ACK c3]\n";
        let (lens, _) = lens_over(text);
        let verb = lens.keys().iter().position(|k| k == "verb").unwrap();
        assert_eq!(lens.next_hit(verb, 0), Some((21, 31)));
        assert_eq!(lens.next_hit(verb, 21), Some((32, 40)));
        assert_eq!(lens.next_hit(verb, 32), None);
        assert_eq!(lens.prev_hit(verb, 32), Some((21, 31)));
        assert_eq!(lens.prev_hit(verb, 0), None);
        // The first hit is reachable from before it.
        assert_eq!(lens.prev_hit(verb, 21), Some((0, 10)));
    }

    #[test]
    fn toggled_off_keys_are_not_painted_nor_parsed() {
        let text = "[CLAIM 7fce46e0]\n";
        let (mut lens, input) = lens_over(text);
        let verb = lens.keys().iter().position(|k| k == "verb").unwrap();
        let hex = lens.keys().iter().position(|k| k == "short_hex").unwrap();
        assert!(lens.hits_in(0..16).iter().any(|(_, k)| *k == verb));
        lens.toggle(verb);
        assert!(!lens.enabled(verb));
        assert!(lens.hits_in(0..16).iter().all(|(_, k)| *k != verb));
        lens.update_fields(&input, 0);
        let f = lens.fields().unwrap();
        assert!(f.rows.iter().all(|r| r.key != "verb"));
        assert!(f.rows.iter().any(|r| r.key_index == hex));
        assert_eq!(lens.counts()[verb], 1, "hidden keys are still counted");
    }

    #[test]
    fn the_fields_of_a_line_are_those_of_parse_json() {
        let (mut lens, input) = lens_over(crate::workbench::DEMO_LOG);
        let line = (0..input.line_count())
            .find(|&i| input.line(i).contains("[CLAIM "))
            .unwrap();
        lens.update_fields(&input, line);
        let f = lens.fields().unwrap();
        let line_text = input.line(line);
        // The record's message: the line less its `TIME SENDER: ` prefix.
        let skip = format::netvm_prefix(line_text.as_bytes()).unwrap_or(0);
        let text = &line_text[skip..];
        let scanner = Scanner::new(lens.catalog().entries().iter().collect());
        let want: Vec<serde_json::Value> = scanner
            .hits(text, true)
            .map(|h| {
                let h = h.unwrap();
                serde_json::to_value(crate::wire::HitRecord::new(h.entry, text, &h.m)).unwrap()
            })
            .collect();
        let got: Vec<serde_json::Value> = f
            .rows
            .iter()
            .map(|r| {
                let groups: serde_json::Map<String, serde_json::Value> = r
                    .groups
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.clone(),
                            v.clone().map_or(serde_json::Value::Null, Into::into),
                        )
                    })
                    .collect();
                serde_json::json!({"key": r.key, "index": r.index, "end": r.end,
                                   "match": r.text, "groups": groups})
            })
            .collect();
        assert!(!want.is_empty());
        assert_eq!(got, want);
    }

    #[test]
    fn growth_is_scanned_incrementally_as_a_whole_scan_would() {
        let text = crate::workbench::DEMO_LOG;
        let whole = {
            let (lens, _) = lens_over(text);
            (0..lens.keys().len())
                .map(|k| lens.hits(k).to_vec())
                .collect::<Vec<_>>()
        };
        for cut in [1, text.len() / 3, text.len() / 2 + 7, text.len() - 1] {
            let mut cut = cut;
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            let mut input = TextBuffer::new(text[..cut].to_string());
            let mut lens = Lens::new(catalog(), SharedWaker::default());
            lens.activate(&input);
            // The growth arrives while the first scan may still run.
            let before = input.revision();
            input.append(&text[cut..]);
            lens.note_append(before, input.revision());
            assert!(lens.settle(&input, Duration::from_secs(30)));
            for (k, want) in whole.iter().enumerate() {
                assert_eq!(lens.hits(k), want.as_slice(), "{} at {cut}", lens.keys()[k]);
                assert_eq!(lens.counts()[k], want.len());
            }
        }
    }

    /// Esc stops the scan: the lens says where, takes in no more hits, and growth does not
    /// start it again; an edit scans again.
    #[test]
    fn a_stopped_scan_stays_stopped_until_an_edit() {
        let text = crate::workbench::DEMO_LOG.repeat(200);
        let mut input = TextBuffer::new(text.clone());
        let mut lens = Lens::new(catalog(), SharedWaker::default());
        lens.activate(&input);
        let at = lens.stop().expect("the scan was running");
        assert_eq!(lens.state(), LensState::Stopped(at));
        assert_eq!(lens.rate(), None);
        assert_eq!(lens.stop(), None, "nothing left to stop");
        let counts = lens.counts().to_vec();
        let before = input.revision();
        input.append("[CLAIM 7fce46e0]\n");
        lens.note_append(before, input.revision());
        assert!(lens.settle(&input, Duration::from_secs(5)));
        std::thread::sleep(Duration::from_millis(50));
        lens.sync(&input);
        assert_eq!(lens.state(), LensState::Stopped(at));
        assert_eq!(lens.counts(), counts, "no hit taken in after the stop");
        input.replace_all(crate::workbench::DEMO_LOG.to_string());
        let (whole, _) = lens_over(crate::workbench::DEMO_LOG);
        lens.sync(&input);
        assert!(matches!(lens.state(), LensState::Scanning(_)));
        while lens.state() != LensState::Done {
            assert!(lens.settle(&input, Duration::from_secs(30)));
        }
        assert_eq!(lens.counts(), whole.counts());
    }

    /// Regression: growth while a lens scan past the hit cap was running started the lens
    /// again from byte 0 (its counts fell back and it scanned the whole input again). The
    /// running scan ends, the growth is scanned from the resume point, and the counts are
    /// those of a whole scan of the grown text.
    #[test]
    fn growth_during_a_scan_past_the_hit_cap_resumes_instead_of_starting_over() {
        let text = crate::workbench::DEMO_LOG;
        let (whole, _) = lens_over(text);
        for cut in [text.len() / 3, text.len() / 2 + 7, text.len() - 1] {
            let mut cut = cut;
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            let mut input = TextBuffer::new(text[..cut].to_string());
            let mut lens = Lens::new(catalog(), SharedWaker::default());
            lens.set_hit_cap(50);
            lens.activate(&input);
            // The growth arrives while the first scan runs.
            let before = input.revision();
            input.append(&text[cut..]);
            lens.note_append(before, input.revision());
            assert!(lens.settle(&input, Duration::from_secs(30)));
            assert!(lens.capped(), "at {cut}");
            assert!(
                lens.scanned_from() > 0 && lens.scanned_from() <= cut,
                "the growth was scanned from byte {} (cut {cut})",
                lens.scanned_from()
            );
            assert_eq!(lens.counts(), whole.counts(), "at {cut}");
            for k in 0..whole.keys().len() {
                // The kept hits are the first of the key's hits.
                assert!(
                    whole.hits(k).starts_with(lens.hits(k)),
                    "{}",
                    whole.keys()[k]
                );
            }
            // A second growth, once the scan is done, resumes too.
            let before = input.revision();
            input.append("[CLAIM 7fce46e0] again\n");
            lens.note_append(before, input.revision());
            assert!(lens.settle(&input, Duration::from_secs(30)));
            assert!(
                lens.scanned_from() >= text.len() / 2,
                "{}",
                lens.scanned_from()
            );
            let (again, _) = lens_over(&format!("{text}[CLAIM 7fce46e0] again\n"));
            assert_eq!(lens.counts(), again.counts(), "at {cut}, then an append");
        }
    }

    /// The hits of every key, and their counts, after `text` arrived in pieces ending at
    /// `cuts` (each piece appended once the scan of the text before it was complete), with
    /// the byte each growth scan started at.
    fn grown(text: &str, cuts: &[usize]) -> (Vec<Vec<Span>>, Vec<usize>, Vec<usize>) {
        let mut input = TextBuffer::new(text[..cuts[0]].to_string());
        let mut lens = Lens::new(catalog(), SharedWaker::default());
        lens.activate(&input);
        assert!(lens.settle(&input, Duration::from_secs(30)));
        let mut starts = Vec::new();
        for (i, &cut) in cuts.iter().enumerate().skip(1).chain([(0, &text.len())]) {
            let from = if i == 0 {
                *cuts.last().unwrap()
            } else {
                cuts[i - 1]
            };
            let before = input.revision();
            input.append(&text[from..cut]);
            lens.note_append(before, input.revision());
            lens.sync(&input);
            starts.push(lens.scanned_from());
            assert!(lens.settle(&input, Duration::from_secs(30)));
        }
        let hits = (0..lens.keys().len())
            .map(|k| lens.hits(k).to_vec())
            .collect();
        (hits, lens.counts().to_vec(), starts)
    }

    /// Regression: growth rescanned every preset whose matches can cross a line (`result`'s
    /// summary runs to the next `[RESULT ` or the end of the text; `\s+` crosses lines) over
    /// the whole input, seconds per appended line on a large log. Growth at many split points
    /// now starts near the old end and still equals a whole scan.
    #[test]
    #[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
    fn growth_at_many_split_points_equals_a_whole_scan_and_starts_near_the_end() {
        let text = crate::workbench::DEMO_LOG;
        let (lens, input) = lens_over(text);
        let whole: Vec<Vec<Span>> = (0..lens.keys().len())
            .map(|k| lens.hits(k).to_vec())
            .collect();
        assert_eq!(whole, parse_hits(lens.catalog(), input.text()));
        let result = lens.keys().iter().position(|k| k == "result").unwrap();
        assert!(whole[result].len() > 3, "the demo has several results");
        let mut cut = 1;
        while cut < text.len() {
            let mut at = cut;
            while !text.is_char_boundary(at) {
                at += 1;
            }
            // Two pieces, and three with the second cut inside the same line.
            let mut second = (at + 17).min(text.len() - 1).max(at);
            while !text.is_char_boundary(second) {
                second += 1;
            }
            for cuts in [vec![at], vec![at, second]] {
                let (hits, counts, starts) = grown(text, &cuts);
                for (k, want) in whole.iter().enumerate() {
                    assert_eq!(&hits[k], want, "{} grown at {cuts:?}", lens.keys()[k]);
                    assert_eq!(counts[k], want.len());
                }
                // No key went back further than its last hit before the old end, or the start
                // of the last result (whose summary runs to the end).
                let earliest_last = whole
                    .iter()
                    .filter_map(|h| h.iter().rev().find(|&&(s, _)| s < at).map(|&(s, _)| s))
                    .min()
                    .unwrap_or(0);
                let line = text[..at].rfind('\n').map_or(0, |i| i + 1);
                assert!(
                    starts[0] >= earliest_last.min(line),
                    "grown at {cuts:?}: the scan started at {}",
                    starts[0]
                );
            }
            cut += 389;
        }
        // Growth of a line at the end of the demo starts within its last result.
        let (_, _, starts) = grown(text, &[text.len() - 40]);
        let last_result = whole[result].last().unwrap().0;
        assert!(starts[0] >= last_result.min(text.len() - 200), "{starts:?}");
        assert!(starts[0] > text.len() / 2, "not a whole rescan: {starts:?}");
    }

    #[test]
    fn an_edit_rescans_everything_and_an_empty_input_has_no_hits() {
        let (mut lens, mut input) = lens_over("[CLAIM a1]\n");
        input.replace_all(String::new());
        assert!(lens.settle(&input, Duration::from_secs(10)));
        assert!(lens.counts().iter().all(|&n| n == 0));
        lens.update_fields(&input, 0);
        assert!(lens.fields().unwrap().rows.is_empty());
    }

    #[test]
    fn a_long_line_is_parsed_from_its_start() {
        let long = format!("[CLAIM a1] {}", "x".repeat(FIELDS_LINE_CAP));
        let (mut lens, input) = lens_over(&long);
        lens.update_fields(&input, 0);
        let f = lens.fields().unwrap();
        assert!(f.cut);
        assert!(f.rows.iter().any(|r| r.key == "verb"));
    }
}
