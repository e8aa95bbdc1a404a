//! The jobs view: the table of `rxw jobs` ([`crate::operator::jobs`]) over the input, built on a worker.
//!
//! The worker feeds the input's lines to a [`JobTable`] held in a shared table, a block of
//! lines at a time under a lock held only for that block, so the rows fill in while the
//! input is read and drawing never waits long for the lock. The table is the compact one of
//! `rxw jobs` (a summary row per job, not a list of events): its memory grows with the jobs,
//! not with their events. Enter finds a job's next event in the text, from the one before
//! ([`JobsView::next_jump`]). It takes complete lines only; an unfinished last line (no line feed yet) is
//! fed to a copy, so that a followed file's growth continues the table from the start of that
//! line: growth costs the new lines, not the whole input. Any other change of the input (an
//! edit, a reload) starts a new table and cancels the old worker's request.
//!
//! The view's order ([`crate::operator::jobs::order`]) is computed from each job's sort key once per
//! table version and sort key, and a row's events give the lines to jump to.

use super::TextBuffer;
use super::buffer::SharedText;
use super::matching::SharedWaker;
use super::task::{PassState, PassWorker, Reply};
use crate::lock;
use crate::operator::job_table::{BlockTags, JobTable};
use crate::operator::jobs::{self, Job, SortKey, Tag};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Bytes of lines fed per lock of the table.
const BLOCK: usize = 256 * 1024;

/// Bytes Enter searches on from a job's event for its next one: past them, it goes back to
/// the job's first event and says so (a paged text is read as far, a few milliseconds).
pub const JUMP_SEARCH_BYTES: usize = 64 << 20;

/// Where Enter goes for the selected job: one of its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jump {
    /// The event's line (from 0).
    pub line: usize,
    /// Which of the job's events it is (from 1).
    pub k: u64,
    /// How many events the job has.
    pub n: u64,
    /// Its tag.
    pub tag: Tag,
    /// The next event was not found within [`JUMP_SEARCH_BYTES`]: this is the first again.
    pub gave_up: bool,
    /// Events on lines the filters hide passed over on the way to this one.
    pub passed: usize,
}

/// The job table as far as the input has been read.
#[derive(Debug, Default)]
pub struct JobsTable {
    table: JobTable,
    /// Where the next line to feed starts, and the lines fed before it.
    fed_to: usize,
    lines: u64,
    /// The table with the unfinished last line fed too, when it has one.
    with_tail: Option<JobTable>,
    /// Changes whenever the rows do.
    version: u64,
    /// The jobs of the lines the combined filters show, with their version, when they are
    /// on ([`super::filtered::FilteredViews`]): shown instead of the whole input's.
    filtered: Option<(u64, JobTable)>,
}

impl JobsTable {
    /// The jobs, a row each in order of first appearance: of the lines the filters show
    /// when they are on, else of the whole input.
    pub fn jobs(&self) -> &JobTable {
        if let Some((_, t)) = &self.filtered {
            return t;
        }
        self.with_tail.as_ref().unwrap_or(&self.table)
    }

    /// Whether the rows are of the lines the filters show.
    pub fn filtered(&self) -> bool {
        self.filtered.is_some()
    }

    /// A number that changes whenever the rows do.
    pub fn version(&self) -> u64 {
        self.version
    }
}

/// How far the table is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobsState {
    /// Not started (the view was never shown).
    Idle,
    /// Reading; the byte reached.
    Reading(usize),
    /// Every line is in.
    Done,
    /// The user stopped reading at this byte: the table holds the jobs before it; another
    /// input reads again.
    Stopped(usize),
}

impl PassState for JobsState {
    fn running(self) -> Option<usize> {
        match self {
            JobsState::Reading(at) => Some(at),
            _ => None,
        }
    }
}

enum JobsEvent {
    Progress { generation: u64, scanned: usize },
    Done { generation: u64 },
}

struct JobsJob {
    generation: u64,
    table: Arc<Mutex<JobsTable>>,
    text: SharedText,
}

fn run_jobs(job: JobsJob, cancel: &AtomicBool, reply: &Reply<JobsEvent>) {
    let (from, first_line) = {
        let t = lock(&job.table);
        (t.fed_to, t.lines + 1)
    };
    let mut last_send = Instant::now();
    let mut tail: Vec<u8> = Vec::new();
    let mut take = |read: Read| {
        let (tags, fed_to, scanned) = match read {
            Read::Blocks {
                tags,
                fed_to,
                scanned,
            } => (tags, fed_to, scanned),
            // A raw block is read here, out of the lock: the taker's share of the reading.
            Read::Raw {
                block,
                first_line,
                fed_to,
                scanned,
            } => (
                vec![JobTable::read_block(&block, first_line)],
                fed_to,
                scanned,
            ),
            Read::Tail(t) => {
                tail = t;
                return;
            }
        };
        let mut t = lock(&job.table);
        for tags in tags {
            t.lines += tags.lines();
            t.table.take_block(tags);
        }
        t.fed_to = fed_to;
        t.with_tail = None;
        t.version += 1;
        drop(t);
        if last_send.elapsed() >= Duration::from_millis(25) {
            reply.send(JobsEvent::Progress {
                generation: job.generation,
                scanned,
            });
            last_send = Instant::now();
        }
    };
    // A pipeline: the lines' tags are read a few blocks ahead on other cores while this
    // thread takes the blocks read into the table, in order, under its lock.
    let (sender, taken) = std::sync::mpsc::sync_channel::<Read>(4);
    let text = &job.text;
    let piped = std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name("rxw-jobs-read".into())
            .spawn_scoped(scope, move || {
                read_ahead(text, from, first_line, cancel, true, |r| {
                    sender.send(r).is_ok()
                });
            });
        if reader.is_err() {
            return false;
        }
        taken.into_iter().for_each(&mut take);
        true
    });
    if !piped {
        // No thread to read on: this one reads and takes in turn.
        read_ahead(text, from, first_line, cancel, false, |r| {
            take(r);
            true
        });
    }
    if cancel.load(Ordering::Relaxed) {
        return;
    }
    let mut t = lock(&job.table);
    t.with_tail = (!tail.is_empty()).then(|| {
        let mut copy = t.table.clone();
        copy.feed_from(tail.strip_suffix(b"\r").unwrap_or(&tail), 0, t.lines + 1);
        copy
    });
    t.version += 1;
    drop(t);
    reply.send(JobsEvent::Done {
        generation: job.generation,
    });
}

/// What the reader of a jobs pass hands on ([`read_ahead`]).
enum Read {
    /// The tags of the next blocks of whole lines; the table has then read to `fed_to`, the
    /// pass to `scanned`.
    Blocks {
        tags: Vec<BlockTags>,
        fed_to: usize,
        scanned: usize,
    },
    /// A block of whole lines left for the taker to read itself (see [`read_ahead`]), its
    /// first line numbered `first_line`.
    Raw {
        block: Vec<u8>,
        first_line: u64,
        fed_to: usize,
        scanned: usize,
    },
    /// The unfinished last line (no line feed yet).
    Tail(Vec<u8>),
}

/// Reads the tags of the text's whole lines from byte `from` (line `first_line`) on, a few
/// blocks at a time, each block on a core of its own, and hands them to `out` in order;
/// stops when cancelled or when `out` says the taker is gone. With `share` (a taker on
/// another thread) and one reader, every third block is handed over unread: reading the
/// tags costs about twice what taking them does, so the two threads are then about as busy.
fn read_ahead(
    text: &SharedText,
    from: usize,
    mut line: u64,
    cancel: &AtomicBool,
    share: bool,
    mut out: impl FnMut(Read) -> bool,
) {
    // One core takes the tags into the table; the others read.
    let readers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .clamp(2, 4)
        - 1;
    let mut tail = Vec::new();
    let mut round = 0u64;
    // The whole text in memory; a paged text's whole lines a chunk at a time.
    for piece in text.pieces(from) {
        let bytes = &piece.text.as_bytes()[piece.start..];
        let base = piece.offset + piece.start;
        // Complete lines: all of a piece whose line break was left out, else up to the last
        // line feed.
        let complete = if piece.stripped {
            bytes.len()
        } else {
            memchr::memrchr(b'\n', bytes).map_or(0, |k| k + 1)
        };
        let mut at = 0;
        while at < complete || (piece.stripped && at == 0 && complete == 0) {
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            let mut blocks = Vec::with_capacity(readers);
            let mut fed_to = 0;
            while blocks.len() < readers && (blocks.is_empty() || at < complete) {
                let stop = (at + BLOCK).min(complete);
                // Whole lines: up to the first line end at or after `stop`.
                let stop = if stop == 0 {
                    0
                } else {
                    memchr::memchr(b'\n', &bytes[stop - 1..complete]).map_or(complete, |k| stop + k)
                };
                // A line feed at the end of `bytes[at..stop]` ends its last line (it starts
                // none); at the end of a piece whose line break was left out, every line is
                // complete.
                let end_of_piece = stop == complete && piece.stripped;
                let part = &bytes[at..stop];
                let part = match part.strip_suffix(b"\n") {
                    Some(p) if !end_of_piece => p,
                    _ => part,
                };
                blocks.push(part);
                fed_to = base + stop + usize::from(end_of_piece);
                at = stop;
                if stop == 0 {
                    break;
                }
            }
            round += 1;
            let read = if share && readers == 1 && round.is_multiple_of(3) {
                let block = blocks[0].to_vec();
                let first_line = line;
                line += lines_in(&block);
                Read::Raw {
                    block,
                    first_line,
                    fed_to,
                    scanned: base + at,
                }
            } else {
                let tags = read_blocks(&blocks, line);
                line += tags.iter().map(BlockTags::lines).sum::<u64>();
                Read::Blocks {
                    tags,
                    fed_to,
                    scanned: base + at,
                }
            };
            if !out(read) {
                return;
            }
            if at == 0 {
                break;
            }
        }
        if !piece.stripped {
            tail = bytes[complete..].to_vec();
        }
    }
    out(Read::Tail(tail));
}

/// The lines of a block (whole lines split at line feeds, as [`JobTable::read_block`] reads
/// them), counted without reading them.
fn lines_in(block: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', block).count() as u64 + 1
}

/// The tags of consecutive blocks of lines, the first numbered `first_line`, each read on a
/// core of its own (the first on this thread).
fn read_blocks(blocks: &[&[u8]], first_line: u64) -> Vec<BlockTags> {
    if let [block] = blocks {
        return vec![JobTable::read_block(block, first_line)];
    }
    // Each block's first line: the lines before it.
    let mut firsts = Vec::with_capacity(blocks.len());
    let mut line = first_line;
    for part in blocks {
        firsts.push(line);
        line += lines_in(part);
    }
    std::thread::scope(|scope| {
        let others: Vec<_> = blocks[1..]
            .iter()
            .zip(&firsts[1..])
            .map(|(&part, &first)| scope.spawn(move || JobTable::read_block(part, first)))
            .collect();
        let mut out = vec![JobTable::read_block(blocks[0], first_line)];
        out.extend(
            others
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))),
        );
        out
    })
}

/// The event of job `id` after tag `at` of its tags on line `line` of `input`: its line, its
/// place among the job's tags there, its tag; `None` past [`JUMP_SEARCH_BYTES`] or the end.
/// Lines are read as the table reads them (a `\r` before the line feed left out).
fn next_event(
    input: &TextBuffer,
    id: &[u8],
    line: usize,
    at: usize,
    budget: &mut usize,
) -> Option<(usize, usize, Tag)> {
    let here = input.line(line);
    if let Some(&tag) = jobs::tags_of(here.as_bytes(), id).get(at + 1) {
        return Some((line, at + 1, tag));
    }
    if line + 1 >= input.line_count() {
        return None;
    }
    let text = input.shared();
    let mut number = line + 1;
    for piece in text.pieces(input.line_start(line + 1)) {
        let bytes = &piece.text.as_bytes()[piece.start..];
        let mut segments = bytes.split(|&b| b == b'\n').peekable();
        while let Some(seg) = segments.next() {
            let last = segments.peek().is_none();
            let seg = seg.strip_suffix(b"\r").unwrap_or(seg);
            if let Some(&tag) = jobs::tags_of(seg, id).first() {
                return Some((number, 0, tag));
            }
            // A piece's last segment continues in the next piece when the piece ends inside
            // a line; otherwise a line ends here.
            if !last || piece.stripped {
                number += 1;
            }
        }
        *budget = budget.saturating_sub(bytes.len());
        if *budget == 0 || piece.last {
            break;
        }
    }
    None
}

/// The jobs view: the shared table, its order, the selection.
pub struct JobsView {
    table: Arc<Mutex<JobsTable>>,
    state: JobsState,
    sort: SortKey,
    /// The rows in view order; `None` for the order of first appearance, the table's own
    /// (8 bytes a job saved in the default view).
    order: Option<Vec<usize>>,
    /// Rows in the view.
    rows: usize,
    /// Jobs with a flag, counted with the order.
    flagged: usize,
    order_for: Option<(u64, SortKey)>,
    ordered_at: Option<Instant>,
    /// The selected row (in view order).
    pub selected: usize,
    /// The event Enter went to last: the job's row, its line, which of the job's tags on
    /// that line, and which of its events.
    jumped: Option<(usize, usize, usize, u64)>,
    active: bool,
    covered: Option<u64>,
    appended_to: Option<u64>,
    /// The worker, the running reading's generation and start, where the last one started.
    worker: PassWorker<JobsJob, JobsEvent>,
}

impl JobsView {
    /// An idle view; `waker` is called when the worker has progress to show.
    pub fn new(waker: SharedWaker) -> JobsView {
        JobsView {
            table: Arc::default(),
            state: JobsState::Idle,
            sort: SortKey::First,
            order: None,
            rows: 0,
            flagged: 0,
            order_for: None,
            ordered_at: None,
            selected: 0,
            jumped: None,
            active: false,
            covered: None,
            appended_to: None,
            worker: PassWorker::new(waker),
        }
    }

    /// Starts keeping the table up to date with the input (the first time it is shown).
    pub fn activate(&mut self, input: &TextBuffer) {
        self.active = true;
        self.sync(input);
    }

    /// Whether the table is kept up to date.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// How far the table is.
    pub fn state(&self) -> JobsState {
        self.state
    }

    /// The running reading's rate so far in bytes a second, once it has run long enough
    /// (200 ms) for the figure to mean something.
    pub fn rate(&self) -> Option<f64> {
        self.worker.rate_of(self.state)
    }

    /// Where the last finished reading started: 0 for a whole reading, the start of the old
    /// end's unfinished line when growth was continued.
    pub fn read_from(&self) -> usize {
        self.worker.read_from()
    }

    /// Stops the running reading (Esc): the table keeps the jobs read so far, and growth is
    /// not read until another input is. Returns the byte it stopped at, or `None` when
    /// nothing was being read.
    pub fn stop(&mut self) -> Option<usize> {
        self.take_events();
        self.worker.stop_running(self.state)?;
        let at = lock(&self.table).fed_to;
        self.state = JobsState::Stopped(at);
        Some(at)
    }

    /// The sort order.
    pub fn sort_key(&self) -> SortKey {
        self.sort
    }

    /// Sorts by the next key (first, job, status, duration), keeping the selected job selected.
    pub fn cycle_sort(&mut self) {
        let job = self.row_at(self.selected);
        self.sort = self.sort.next();
        self.refresh_order(true);
        if let Some(k) = job
            && let Some(row) = (0..self.rows).position(|p| self.row_at(p) == Some(k))
        {
            self.selected = row;
        }
    }

    /// The table (locked while the guard lives: keep it short).
    pub fn table(&self) -> MutexGuard<'_, JobsTable> {
        lock(&self.table)
    }

    /// Shows the jobs of the lines the filters show (`table` at `version`, given again only
    /// when the version changed), or of the whole input again (`None`).
    pub fn set_filtered(&mut self, filtered: Option<(u64, &JobTable)>) {
        let mut t = lock(&self.table);
        let same = match (&t.filtered, filtered) {
            (None, None) => true,
            (Some((v, _)), Some((w, _))) => *v == w,
            _ => false,
        };
        if !same {
            t.filtered = filtered.map(|(v, table)| (v, table.clone()));
            t.version += 1;
            drop(t);
            self.selected = self.selected.min(self.len().saturating_sub(1));
        }
    }

    /// The row of [`JobsTable::jobs`] at place `at` of the view order.
    pub fn row_at(&self, at: usize) -> Option<usize> {
        match &self.order {
            Some(order) => order.get(at).copied(),
            None => (at < self.rows).then_some(at),
        }
    }

    /// The rows of [`JobsTable::jobs`] at the places `range` of the view order.
    pub fn rows_in(&self, range: std::ops::Range<usize>) -> Vec<usize> {
        let range = range.start.min(self.rows)..range.end.min(self.rows);
        match &self.order {
            Some(order) => order[range].to_vec(),
            None => range.collect(),
        }
    }

    /// Jobs with a flag (as of the view's order).
    pub fn flagged(&self) -> usize {
        self.flagged
    }

    /// Rows in the view.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether the view has no row.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// A copy of the selected job (its id and place; the view keeps no events).
    pub fn selected_job(&self) -> Option<Job> {
        let i = self.row_at(self.selected)?;
        let t = self.table();
        (i < t.jobs().len()).then(|| t.jobs().job(i))
    }

    /// Moves the selection by `delta` rows (clamped).
    pub fn move_by(&mut self, delta: isize) {
        let last = self.rows.saturating_sub(1) as isize;
        let to = (self.selected as isize + delta).clamp(0, last.max(0)) as usize;
        if to != self.selected {
            self.jumped = None;
        }
        self.selected = to;
    }

    /// The selected job's next event on a line `shown` (the filters') keeps, one per call:
    /// its first, then each after the one before, found in `input` (the table keeps no
    /// events), back to the first after the last. Events on hidden lines are passed over
    /// (counted in [`Jump::passed`]); the search reads at most [`JUMP_SEARCH_BYTES`] from the
    /// event before, then goes back to the first (`gave_up`).
    pub fn next_jump(&mut self, input: &TextBuffer, shown: &dyn Fn(usize) -> bool) -> Option<Jump> {
        let i = self.row_at(self.selected)?;
        let (id, first, n, first_tag) = {
            let t = self.table();
            let jobs = t.jobs();
            if i >= jobs.len() {
                return None;
            }
            let row = jobs.row(i);
            let first = row.first().1.saturating_sub(1) as usize;
            (
                row.id().as_bytes().to_vec(),
                first,
                row.event_count(),
                row.first_tag(),
            )
        };
        // Where the search starts: after the event jumped to last, or at the job's first
        // event (taken when it is shown).
        let (line, at, k, first_hidden) = match self.jumped {
            Some((row, line, at, k)) if row == i && k < n => (line, at, k, 0),
            _ if shown(first) => {
                self.jumped = Some((i, first, 0, 1));
                return Some(Jump {
                    line: first,
                    k: 1,
                    n,
                    tag: first_tag,
                    gave_up: false,
                    passed: 0,
                });
            }
            _ => (first, 0, 1, 1),
        };
        // A table of the lines shown counts their events only; the whole input's counts the
        // events passed over too.
        let counts_hidden = !self.table().filtered();
        let mut budget = JUMP_SEARCH_BYTES;
        let (mut line, mut at) = (line, at);
        let mut passed = 0;
        while let Some((l, a, tag)) = next_event(input, &id, line, at, &mut budget) {
            if shown(l) {
                let k = if counts_hidden {
                    k + passed as u64 + 1
                } else {
                    k + 1
                }
                .min(n);
                self.jumped = Some((i, l, a, k));
                return Some(Jump {
                    line: l,
                    k,
                    n,
                    tag,
                    gave_up: false,
                    passed: passed + first_hidden,
                });
            }
            (line, at, passed) = (l, a, passed + 1);
        }
        // No event shown after it (the search ran out of budget, or reached the end): back to
        // the first.
        self.jumped = Some((i, first, 0, 1));
        Some(Jump {
            line: first,
            k: 1,
            n,
            tag: first_tag,
            gave_up: budget == 0,
            passed: passed + first_hidden,
        })
    }

    /// Tells the view the input grew by an append from revision `before` to `after`.
    pub fn note_append(&mut self, before: u64, after: u64) {
        let chained = self.appended_to.or(self.covered) == Some(before);
        self.appended_to = chained.then_some(after);
    }

    /// Takes in the worker's progress and starts the reading the input needs now; returns
    /// whether anything changed on screen.
    pub fn sync(&mut self, input: &TextBuffer) -> bool {
        if !self.active {
            return false;
        }
        let mut changed = self.take_events();
        let rev = input.revision();
        if self.covered != Some(rev) {
            if self.appended_to == Some(rev) {
                // Growth: once the running request is done, continue the same table.
                if self.state == JobsState::Done {
                    self.submit(input, false);
                    changed = true;
                }
            } else {
                self.submit(input, true);
                changed = true;
            }
        }
        changed |= self.refresh_order(false);
        changed
    }

    fn submit(&mut self, input: &TextBuffer, fresh: bool) {
        if fresh {
            self.table = Arc::default();
            self.order = None;
            self.rows = 0;
            self.flagged = 0;
            self.order_for = None;
            self.selected = 0;
            self.jumped = None;
        }
        self.covered = Some(input.revision());
        self.appended_to = None;
        let from = lock(&self.table).fed_to;
        self.state = JobsState::Reading(from);
        let table = Arc::clone(&self.table);
        self.worker
            .start("rxw-jobs", run_jobs, from, |generation| JobsJob {
                generation,
                table,
                text: input.shared(),
            });
    }

    fn take_events(&mut self) -> bool {
        let mut changed = false;
        while let Some(ev) = self.worker.try_event() {
            match ev {
                JobsEvent::Progress {
                    generation,
                    scanned,
                } if generation == self.worker.generation() => {
                    self.state = JobsState::Reading(scanned);
                    changed = true;
                }
                JobsEvent::Done { generation } if generation == self.worker.generation() => {
                    self.state = JobsState::Done;
                    let from = self.worker.started_from();
                    self.worker.ended(from);
                    changed = true;
                }
                _ => {}
            }
        }
        changed
    }

    /// Orders the rows again when the table or the sort key changed (while reading, at most
    /// every 250 ms: a large table is sorted a few times, not once per block).
    fn refresh_order(&mut self, now: bool) -> bool {
        let version = lock(&self.table).version;
        if self.order_for == Some((version, self.sort)) {
            return false;
        }
        let sort_changed = self.order_for.is_none_or(|(_, s)| s != self.sort);
        let recent = self
            .ordered_at
            .is_some_and(|t| t.elapsed() < Duration::from_millis(250));
        if !now && !sort_changed && recent && self.state != JobsState::Done {
            return false;
        }
        let t = lock(&self.table);
        self.order = (self.sort != SortKey::First).then(|| t.jobs().order(self.sort));
        self.rows = t.jobs().len();
        let jobs = t.jobs();
        self.flagged = (0..jobs.len())
            .filter(|&k| jobs.row(k).is_flagged())
            .count();
        self.order_for = Some((t.version, self.sort));
        drop(t);
        self.ordered_at = Some(Instant::now());
        self.selected = self.selected.min(self.rows.saturating_sub(1));
        true
    }

    /// Waits up to `timeout` for the table to be complete (tests and screenshots).
    pub fn settle(&mut self, input: &TextBuffer, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            self.sync(input);
            if !self.active
                || matches!(self.state, JobsState::Stopped(_))
                || (self.state == JobsState::Done && self.covered == Some(input.revision()))
            {
                self.refresh_order(true);
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operator::jobs::JobTracker;

    type Printed = (String, [String; 5], String, u64);

    fn cli_table(text: &str, key: SortKey) -> Vec<Printed> {
        let mut jobs = JobTracker::read(text.as_bytes()).unwrap();
        jobs::sort(&mut jobs, key);
        jobs.iter()
            .map(|j| {
                let events = j.events.len() as u64;
                (j.id.clone(), j.table_cells(), j.event_summary(), events)
            })
            .collect()
    }

    fn view_over(text: &str) -> (JobsView, TextBuffer) {
        let input = TextBuffer::new(text.to_string());
        let mut view = JobsView::new(SharedWaker::default());
        view.activate(&input);
        assert!(view.settle(&input, Duration::from_secs(30)));
        (view, input)
    }

    fn rows(view: &JobsView) -> Vec<Printed> {
        let printed = view.table().jobs().printed();
        view.rows_in(0..view.len())
            .iter()
            .map(|&i| printed[i].clone())
            .collect()
    }

    /// Esc stops the reading: the table keeps what was read, the view says where it
    /// stopped, no more progress is taken in and growth does not start it again; another
    /// input reads again.
    #[test]
    fn a_stopped_reading_stays_stopped() {
        let text = crate::workbench::DEMO_LOG.repeat(200);
        let mut input = TextBuffer::new(text.clone());
        let mut view = JobsView::new(SharedWaker::default());
        view.activate(&input);
        let at = view.stop().expect("the reading was running");
        assert_eq!(view.state(), JobsState::Stopped(at));
        assert!(at <= text.len());
        assert_eq!(view.rate(), None);
        assert_eq!(view.stop(), None, "nothing left to stop");
        let before = input.revision();
        input.append("[CLAIM z]\n");
        view.note_append(before, input.revision());
        assert!(view.settle(&input, Duration::from_secs(5)));
        std::thread::sleep(Duration::from_millis(50));
        view.sync(&input);
        assert_eq!(view.state(), JobsState::Stopped(at));
        // Another input reads again, to the end.
        input.replace_all("[CLAIM a]\n".into());
        view.sync(&input);
        assert!(matches!(
            view.state(),
            JobsState::Reading(_) | JobsState::Done
        ));
        let mut done = false;
        for _ in 0..3000 {
            view.sync(&input);
            if view.state() == JobsState::Done {
                done = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(done);
        assert_eq!(view.len(), 1);
    }

    #[test]
    fn the_view_is_the_jobs_command_table_in_every_order() {
        let (mut view, _) = view_over(crate::workbench::DEMO_LOG);
        assert!(view.len() > 3);
        for _ in 0..4 {
            assert_eq!(
                rows(&view),
                cli_table(crate::workbench::DEMO_LOG, view.sort_key()),
                "{:?}",
                view.sort_key()
            );
            view.cycle_sort();
        }
    }

    /// A text of many blocks goes through the whole pipeline (blocks read ahead, every
    /// third handed over unread to the taker, stamps carried from block to block): the
    /// table is still the command's, row for row, times included.
    #[test]
    fn a_text_of_many_blocks_gives_the_jobs_command_table() {
        let mut text = String::new();
        for round in 0..160 {
            // The demo's jobs come back every round; one job is new in each.
            text.push_str(crate::workbench::DEMO_LOG);
            text.push_str(&format!("  [CLAIM round-{round}] unstamped\n"));
        }
        assert!(text.len() > 8 * BLOCK, "{}", text.len());
        let (view, _) = view_over(&text);
        assert_eq!(rows(&view), cli_table(&text, SortKey::First));
        assert!(view.len() > 160);
        // Each job's first line, counted across the blocks.
        let jobs = JobTracker::read(text.as_bytes()).unwrap();
        let table = view.table();
        for (k, job) in jobs.iter().enumerate() {
            assert_eq!(
                table.jobs().row(k).first(),
                (0, job.first_line()),
                "{}",
                job.id
            );
        }
    }

    #[test]
    fn enter_jumps_to_each_event_line_in_turn() {
        let text = "x\n[CLAIM a]\ny\n[RESULT a] OK\n[CLAIM b]\n";
        let (mut view, input) = view_over(text);
        let jump = |view: &mut JobsView| {
            view.next_jump(&input, &|_| true)
                .map(|j| (j.line, j.k, j.n, j.tag.name(), j.gave_up))
        };
        assert_eq!(jump(&mut view), Some((1, 1, 2, "CLAIM", false)));
        assert_eq!(jump(&mut view), Some((3, 2, 2, "RESULT", false)));
        assert_eq!(jump(&mut view), Some((1, 1, 2, "CLAIM", false)), "wraps");
        view.move_by(1);
        assert_eq!(jump(&mut view), Some((4, 1, 1, "CLAIM", false)));
        view.move_by(5);
        assert_eq!(view.selected, 1, "clamped");
    }

    /// Events on lines a filter hides are passed over and counted (the whole input's table
    /// numbers every event, so the count goes on past them), a hidden first event included;
    /// after the last shown one it is back to the first shown, and no search gives up.
    #[test]
    fn enter_passes_over_events_on_hidden_lines() {
        let text = "[WO:a]\n[ACK:a]\nx\n[CLAIM a]\n[NUDGE a]\n[RESULT a] OK\n";
        let (mut view, input) = view_over(text);
        let shown = |l: usize| l != 0 && l != 1 && l != 4;
        let mut jump = || {
            view.next_jump(&input, &shown)
                .map(|j| (j.line, j.k, j.n, j.passed, j.gave_up))
        };
        assert_eq!(jump(), Some((3, 3, 5, 2, false)), "WO and ACK hidden");
        assert_eq!(jump(), Some((5, 5, 5, 1, false)), "NUDGE hidden");
        assert_eq!(jump(), Some((3, 3, 5, 2, false)), "again from the first");
    }

    /// The view keeps no events: Enter finds each in the text, and finds every event the
    /// tracker lists, in order (two tags of one job on a line, CRLF line ends, a job's id
    /// inside another's, a paged text read in small chunks), then starts again at the first.
    #[test]
    fn jumps_find_every_event_the_tracker_lists() {
        let mut text = String::new();
        for k in 0..40 {
            text.push_str(&format!(
                "2026-10-05T00:00:{:02}Z [WO:j{k}] [ACK:j{k}]\n",
                k % 60
            ));
            text.push_str(&format!("noise j{k} [CLAIM j{k}x]\r\n"));
            if k > 0 {
                text.push_str(&format!("[CLAIM j{}] then [NUDGE j{}]\r\n", k - 1, k - 1));
            }
            if k > 1 {
                text.push_str(&format!("[RESULT j{}] OK\n", k - 2));
            }
        }
        let tracked = JobTracker::read(text.as_bytes()).unwrap();
        let check = |mut view: JobsView, input: &TextBuffer| {
            assert_eq!(view.len(), tracked.len());
            for (row, job) in tracked.iter().enumerate() {
                view.selected = row;
                for (k, e) in job.events.iter().enumerate() {
                    let j = view.next_jump(input, &|_| true).unwrap();
                    assert_eq!(
                        (j.line as u64 + 1, j.k, j.n, j.tag),
                        (e.line, k as u64 + 1, job.events.len() as u64, e.tag),
                        "{} event {k}",
                        job.id
                    );
                }
                assert_eq!(
                    view.next_jump(input, &|_| true).unwrap().k,
                    1,
                    "{} wraps",
                    job.id
                );
            }
        };
        let (view, input) = view_over(&text);
        check(view, &input);
        let (_dir, _, paged) = crate::testing::indexed(&text, &crate::testing::small(512, 8));
        let mut input = TextBuffer::paged(paged);
        input.set_scan_chunk(300);
        let mut view = JobsView::new(SharedWaker::default());
        view.activate(&input);
        assert!(view.settle(&input, Duration::from_secs(30)));
        check(view, &input);
    }

    #[test]
    fn the_selected_job_stays_selected_when_the_order_changes() {
        let text = "[CLAIM b]\n[CLAIM a]\n";
        let (mut view, _) = view_over(text);
        view.move_by(1);
        assert_eq!(view.selected_job().unwrap().id, "a");
        view.cycle_sort(); // by job id
        assert_eq!(view.selected, 0);
        assert_eq!(view.selected_job().unwrap().id, "a");
    }

    #[test]
    fn growth_continues_the_table_as_one_read_would() {
        let text = crate::workbench::DEMO_LOG;
        let want = cli_table(text, SortKey::First);
        for cut in [0, 5, text.len() / 2, text.len() - 3] {
            let mut cut = cut;
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            let mut input = TextBuffer::new(text[..cut].to_string());
            let mut view = JobsView::new(SharedWaker::default());
            view.activate(&input);
            // Two appends, the first ending inside a line.
            let mid = cut + (text.len() - cut) / 2;
            for piece in [&text[cut..mid], &text[mid..]] {
                let before = input.revision();
                input.append(piece);
                view.note_append(before, input.revision());
                view.sync(&input);
            }
            assert!(view.settle(&input, Duration::from_secs(30)));
            assert_eq!(rows(&view), want, "cut at {cut}");
        }
    }

    #[test]
    fn an_empty_log_has_no_rows_and_an_edit_starts_again() {
        let (mut view, mut input) = view_over("");
        assert!(view.is_empty());
        assert_eq!(view.next_jump(&input, &|_| true), None);
        input.replace_all("[CLAIM z]".to_string());
        assert!(view.settle(&input, Duration::from_secs(10)));
        assert_eq!(rows(&view).len(), 1);
        assert_eq!(rows(&view)[0].0, "z");
    }
}
