//! Matching off the caller's thread: a visible-window scan and a full scan, each on its own
//! worker, each cancelled by the next request.
//!
//! The window scan finds the matches (with groups) in the lines on screen, searching a slice
//! that ends a little past the window, so it returns in microseconds whatever the input size.
//! The full scan counts every match (bounds only) and streams their spans in batches, so the
//! count and the match list fill in while the user keeps typing.

use super::buffer::PieceMode;
use super::buffer::SharedText;
use crate::engine::growth::{self, Reach, StartFinder, resume_point};
use crate::engine::set::Starts;
use crate::engine::{EngineKind, Match, MatchOptions, Regex};
use crate::error::Error;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Most matches the window scan reports.
pub const WINDOW_MATCH_CAP: usize = 20_000;
/// Most match spans the full scan keeps (the count goes on past it).
pub const SPAN_CAP: usize = 4_000_000;
/// Bytes searched past the window's end so matches near it are not cut short.
const WINDOW_MARGIN: usize = 4096;

/// Called by a worker after it sent a result, so a caller that sleeps on its own channel (the
/// TUI's event loop) wakes and takes the result in at once instead of polling on a timer.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// The waker the workers call, settable after they started.
#[derive(Clone, Default)]
pub struct SharedWaker(Arc<Mutex<Option<Waker>>>);

impl SharedWaker {
    /// Installs (or with `None` removes) the waker.
    pub fn set(&self, waker: Option<Waker>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = waker;
    }

    /// Calls the waker, if one is installed.
    pub fn wake(&self) {
        let w = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(w) = w {
            w();
        }
    }
}

/// The sending end the workers use: the event channel plus the waker.
#[derive(Clone)]
struct Reply {
    events: Sender<ScanEvent>,
    waker: SharedWaker,
}

impl Reply {
    fn send(&self, ev: ScanEvent) {
        if self.events.send(ev).is_ok() {
            self.waker.wake();
        }
    }
}

/// What a scan reports back.
#[derive(Debug)]
pub enum ScanEvent {
    /// The matches in the window, with groups.
    Window {
        /// Request number.
        generation: u64,
        /// Byte range of the window.
        window: Range<usize>,
        /// Matches starting in the window.
        matches: Vec<Match>,
        /// An error from the engine (a backtrack limit), if any.
        error: Option<Error>,
    },
    /// More spans from the full scan.
    Progress {
        /// Request number.
        generation: u64,
        /// New match spans, in order.
        spans: Vec<(usize, usize)>,
        /// The first and last line (0-based) of each of `spans`, counted on the scan's thread
        /// while the text is in its cache, so the line filter reads neither the text nor the
        /// line index ([`u32::MAX`] past four billion lines). A match that ends right after a
        /// line break does not reach the next line.
        lines: Vec<(u32, u32)>,
        /// Matches counted so far.
        count: usize,
        /// Byte the scan has reached.
        scanned: usize,
    },
    /// The full scan ended.
    Done {
        /// Request number.
        generation: u64,
        /// Total matches.
        count: usize,
        /// Wall time of the full scan.
        elapsed: Duration,
        /// The matcher's steps over the whole scan (0 on the linear engine).
        steps: u64,
        /// Why it stopped early, if it did.
        error: Option<Error>,
        /// For a pattern whose attempts have no bound on how far they read
        /// ([`Reach::Unbounded`]): the first attempt of the scan that examined the end of the
        /// text ([`resume_point`]), the earliest growth may change; `None` when there is none.
        /// Always `None` for the other reaches.
        pending: Option<usize>,
        /// Whether the count is that of one scan of the whole text: false when a paged text's
        /// pieces could not carry what the next may change (a look-behind of unbounded
        /// length, or more than [`super::buffer::MAX_CARRY`] bytes kept).
        exact: bool,
    },
}

impl ScanEvent {
    /// The request this event answers.
    pub fn generation(&self) -> u64 {
        match self {
            ScanEvent::Window { generation, .. }
            | ScanEvent::Progress { generation, .. }
            | ScanEvent::Done { generation, .. } => *generation,
        }
    }
}

/// What a scan is asked to do.
struct Request {
    generation: u64,
    regex: Arc<Regex>,
    text: SharedText,
    /// The window scan's window; for the full scan, the range to scan (it starts past 0 when
    /// it continues an earlier scan over text that has grown).
    window: Range<usize>,
    /// Matches counted before `window.start` (by the scan this one continues).
    base_count: usize,
    /// The line (0-based) of `window.start`.
    base_line: usize,
}

/// A request as a worker runs it, with the flags it watches and sets.
struct Job {
    request: Request,
    cancel: Arc<AtomicBool>,
    /// The byte the scan has reached, updated by the engine during long searches.
    progress: Arc<AtomicUsize>,
}

struct Worker {
    jobs: Sender<Job>,
    cancel: Mutex<Arc<AtomicBool>>,
    /// The progress of the newest request.
    progress: Mutex<Arc<AtomicUsize>>,
}

/// Most cancelled runs of a worker that lowers its priority left to end on their own before
/// the next run waits for the oldest (a cancelled run at nice 10 on a busy machine can take a
/// while to be scheduled and see its flag; the threads are bounded all the same).
const LINGERING_RUNS: usize = 4;

impl Worker {
    /// `lowers`: the run lowers its thread's priority part way, so each run gets a fresh
    /// thread (the window scan, on the keystroke path, runs on the worker's own). The next
    /// run does not wait for the one it cancels to end: a cancelled full count, lowered to
    /// the background and starved of the core, used to hold a key's new count back until it
    /// was scheduled again and saw its flag (tens of milliseconds on a loaded machine).
    fn spawn(name: &str, events: Reply, run: fn(&Job, &Reply), lowers: bool) -> Worker {
        let (jobs, rx) = channel::<Job>();
        let run_name = format!("{name}-run");
        thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                let mut lingering: std::collections::VecDeque<thread::JoinHandle<()>> =
                    std::collections::VecDeque::new();
                while let Ok(mut job) = rx.recv() {
                    // Only the newest request matters.
                    while let Ok(newer) = rx.try_recv() {
                        job = newer;
                    }
                    if job.cancel.load(Ordering::Relaxed) {
                        continue;
                    }
                    if !lowers {
                        run(&job, &events);
                        continue;
                    }
                    // A thread per run: the run lowers its own priority (see `run_full`), and
                    // a thread cannot raise it back.
                    lingering.retain(|h| !h.is_finished());
                    while lingering.len() >= LINGERING_RUNS {
                        if let Some(oldest) = lingering.pop_front() {
                            let _ = oldest.join();
                        }
                    }
                    let job = Arc::new(job);
                    let (moved, replies) = (Arc::clone(&job), events.clone());
                    let spawned = thread::Builder::new()
                        .name(run_name.clone())
                        .spawn(move || run(&moved, &replies));
                    match spawned {
                        Ok(handle) => lingering.push_back(handle),
                        // No thread to be had: the run is done here (this thread then stays
                        // at the background's priority).
                        Err(_) => run(&job, &events),
                    }
                }
            })
            .expect("spawn a scan thread");
        Worker {
            jobs,
            cancel: Mutex::new(Arc::new(AtomicBool::new(false))),
            progress: Mutex::new(Arc::new(AtomicUsize::new(0))),
        }
    }

    fn submit(&self, request: Request) {
        let cancel = Arc::new(AtomicBool::new(false));
        let old = std::mem::replace(
            &mut *self.cancel.lock().unwrap_or_else(|e| e.into_inner()),
            Arc::clone(&cancel),
        );
        old.store(true, Ordering::Relaxed);
        let progress = Arc::new(AtomicUsize::new(request.window.start));
        *self.progress.lock().unwrap_or_else(|e| e.into_inner()) = Arc::clone(&progress);
        let _ = self.jobs.send(Job {
            request,
            cancel,
            progress,
        });
    }

    fn progress(&self) -> usize {
        self.progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .load(Ordering::Relaxed)
    }

    fn cancel(&self) {
        self.cancel
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .store(true, Ordering::Relaxed);
    }
}

/// The end of the line holding `at` (or the text's end).
fn floor_line_end(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    match memchr::memchr(b'\n', &text.as_bytes()[at..]) {
        Some(i) => at + i,
        None => text.len(),
    }
}

/// Longest line end a paged window's slice looks for past its margin.
const PAGED_LINE_END_LOOKAHEAD: usize = 64 * 1024;

/// The slice a window scan searches and its offset: from a margin before the window to the
/// end of the line a margin past it.
fn window_slice<'t>(
    text: &'t SharedText,
    window: &Range<usize>,
) -> (usize, std::borrow::Cow<'t, str>) {
    match text {
        SharedText::Memory(text) => {
            let end = floor_line_end(text, window.end.saturating_add(WINDOW_MARGIN));
            let mut base = window.start.saturating_sub(WINDOW_MARGIN);
            while !text.is_char_boundary(base) {
                base -= 1;
            }
            (base, std::borrow::Cow::Borrowed(&text[base..end]))
        }
        SharedText::Paged(..) => {
            let base = window.start.saturating_sub(WINDOW_MARGIN);
            let margin_end = window.end.saturating_add(WINDOW_MARGIN);
            let mut slice = text
                .read(base..margin_end.saturating_add(PAGED_LINE_END_LOOKAHEAD))
                .into_owned();
            let end = floor_line_end(&slice, margin_end - base);
            slice.truncate(end);
            (base, std::borrow::Cow::Owned(slice))
        }
    }
}

fn run_window(job: &Job, events: &Reply) {
    crate::trace_mark!("window start {}", job.request.generation);
    // Search a slice around the window: the cost stays proportional to the window, and the
    // margins give look-around and anchors their context.
    let (base, slice) = window_slice(&job.request.text, &job.request.window);
    let slice: &str = &slice;
    let options = MatchOptions {
        start: job
            .request
            .window
            .start
            .saturating_sub(base)
            .min(slice.len()),
        cancel: Some(&job.cancel),
        ..Default::default()
    };
    let mut matches = Vec::new();
    let mut error = None;
    for m in job.request.regex.matches(slice, options) {
        match m {
            Ok(mut m)
                if m.start() + base <= job.request.window.end
                    && matches.len() < WINDOW_MATCH_CAP =>
            {
                for g in m.groups.iter_mut().flatten() {
                    g.0 += base;
                    g.1 += base;
                }
                matches.push(m)
            }
            Ok(_) => break,
            Err(e) => {
                error = Some(e.into());
                break;
            }
        }
    }
    if job.cancel.load(Ordering::Relaxed) {
        return;
    }
    crate::trace_mark!(
        "window sent {} ({} matches)",
        job.request.generation,
        matches.len()
    );
    events.send(ScanEvent::Window {
        generation: job.request.generation,
        window: job.request.window.clone(),
        matches,
        error,
    });
}

/// The matches a full scan has found and not yet sent, with the line each starts and ends
/// on (counted from one kept match to the next).
struct Found {
    generation: u64,
    base_count: usize,
    batch: Vec<(usize, usize)>,
    lines: Vec<(u32, u32)>,
    /// The line of `line_at`.
    line_at: usize,
    line: usize,
    count: usize,
    kept: usize,
    last_send: Instant,
}

impl Found {
    /// Takes in the match `s..e` of `bytes` (a piece whose first byte is `offset` in the
    /// whole text; `line_at` is in it), and sends a batch when one is due (`scanned`: how far
    /// the scan has come).
    fn push(&mut self, bytes: &[u8], offset: usize, (s, e): (usize, usize), events: &Reply) {
        self.count += 1;
        if self.kept < SPAN_CAP {
            self.batch.push((offset + s, offset + e));
            self.line += memchr::memchr_iter(b'\n', &bytes[self.line_at - offset..s]).count();
            self.line_at = offset + s;
            let inside = &bytes[s..e.max(s + 1) - 1];
            let last = self.line + memchr::memchr_iter(b'\n', inside).count();
            let narrow = |l: usize| u32::try_from(l).unwrap_or(u32::MAX);
            self.lines.push((narrow(self.line), narrow(last)));
            self.kept += 1;
        }
        // The first match goes out at once (the match list shows a row while the scan runs
        // on), then batches at most every 25 ms.
        if self.count == self.base_count + 1
            || (self.count.is_multiple_of(1024)
                && self.last_send.elapsed() >= Duration::from_millis(25))
        {
            if self.count == self.base_count + 1 {
                crate::trace_mark!("full first match {}", self.generation);
            }
            self.send(offset + e, events);
        }
    }

    /// Moves `line_at` on to `to` (in `bytes`, which starts at `offset`), counting lines.
    fn skip_to(&mut self, bytes: &[u8], offset: usize, to: usize) {
        if to > self.line_at {
            self.line +=
                memchr::memchr_iter(b'\n', &bytes[self.line_at - offset..to - offset]).count();
            self.line_at = to;
        }
    }

    fn send(&mut self, scanned: usize, events: &Reply) {
        events.send(ScanEvent::Progress {
            generation: self.generation,
            spans: std::mem::take(&mut self.batch),
            lines: std::mem::take(&mut self.lines),
            count: self.count,
            scanned,
        });
        self.last_send = Instant::now();
    }
}

fn run_full(job: &Job, events: &Reply) {
    crate::trace_mark!("full start {}", job.request.generation);
    let started = Instant::now();
    let mut found = Found {
        generation: job.request.generation,
        base_count: job.request.base_count,
        batch: Vec::new(),
        lines: Vec::new(),
        line_at: job.request.window.start,
        line: job.request.base_line,
        count: job.request.base_count,
        kept: job.request.base_count,
        last_send: Instant::now(),
    };
    let mut error = None;
    let re = &*job.request.regex;
    let reach = Reach::of(re);
    let starts = Starts::of(re.ast(), re.flags().ignore_case);
    // For a pattern whose attempts may read without bound, every match of the scan: where
    // growth resumes is the first attempt the scan ran that examined the end of the text.
    let unbounded = reach == Reach::Unbounded && job.request.text.memory().is_some();
    let mut all = Vec::new();
    // A paged text is read in pieces of whole lines. A pattern whose matches stay in lines
    // searches each alone; another carries what the next piece may change (from the engine's
    // resume point) into it, and its matches wait until the piece is settled.
    let look_behind = growth::look_behind(re.ast());
    let carrying =
        job.request.text.memory().is_none() && reach != Reach::Line && look_behind.is_some();
    let mut exact = job.request.text.memory().is_some() || reach == Reach::Line || carrying;
    let mode = if carrying {
        PieceMode::Carry
    } else {
        PieceMode::Lines
    };
    let context = look_behind.unwrap_or(0);
    let finder = StartFinder::new(&starts);
    let empty = growth::can_match_empty(re.ast());
    let mut steps = 0;
    let mut scanned = job.request.window.start;
    let mut paged_pending = None;
    let mut pieces = job
        .request
        .text
        .scan_pieces(job.request.window.start, mode, context);
    let mut lowered = false;
    'pieces: while let Some(piece) = pieces.next_piece() {
        if job.cancel.load(Ordering::Relaxed) {
            return;
        }
        let (text, offset): (&str, usize) = (&piece.text, piece.offset);
        if !lowered {
            crate::trace_mark!(
                "full piece {} ({} bytes)",
                job.request.generation,
                text.len()
            );
        }
        let options = MatchOptions {
            bounds_only: true,
            start: piece.start,
            cancel: Some(&job.cancel),
            // The matcher's position is the progress of a text searched whole; a paged
            // text reports each piece as it is done.
            progress: job
                .request
                .text
                .memory()
                .is_some()
                .then_some(&*job.progress),
            ..Default::default()
        };
        let bytes = text.as_bytes();
        let mut held: Vec<(usize, usize)> = Vec::new();
        let mut it = re.matches(text, options);
        loop {
            match it.next() {
                Some(Ok(m)) if carrying => held.push((m.start(), m.end())),
                Some(Ok(m)) => {
                    if unbounded {
                        all.push((offset + m.start(), offset + m.end()));
                    }
                    found.push(bytes, offset, (m.start(), m.end()), events);
                }
                Some(Err(e)) => {
                    error = Some(e.into());
                    steps += it.steps();
                    break 'pieces;
                }
                None => break,
            }
        }
        steps += it.steps();
        if carrying {
            // The matches before the first attempt the next piece can change are final. The
            // last piece's resume point is where growth of the text resumes.
            let resume = (reach == Reach::Unbounded)
                .then(|| {
                    growth::resume_point_with(
                        reach,
                        &finder,
                        text,
                        piece.start,
                        &held,
                        |a, retry| re.attempt_extent_with(text, a, retry),
                    )
                })
                .flatten();
            let (at, keep) = if piece.last {
                paged_pending = resume.map(|a| offset + a);
                (text.len(), held.len())
            } else {
                growth::restart(reach, empty, text, text.len(), &held, resume)
            };
            for &m in &held[..keep] {
                found.push(bytes, offset, m, events);
            }
            found.skip_to(bytes, offset, offset + at);
            scanned = offset + at;
            exact &= pieces.carry(piece, offset + at, context);
            if found.last_send.elapsed() >= Duration::from_millis(25) {
                found.send(scanned, events);
            }
            continue;
        }
        scanned = piece.end();
        // A piece ending inside a line of more than LONG_LINE_PIECE: a match across its end
        // is not seen, and anchors see an edge there.
        exact &= !piece.cut_in_line();
        if piece.stripped {
            // The newlines after the last kept match, so the next piece counts from its start.
            found.skip_to(bytes, offset, offset + text.len());
            found.line += 1;
            found.line_at = scanned;
            if found.last_send.elapsed() >= Duration::from_millis(25) {
                found.send(scanned, events);
            }
        } else if piece.cut_in_line() {
            // The next piece goes on with this line: count what came before the cut.
            found.skip_to(bytes, offset, offset + text.len());
        }
        if !lowered {
            // The first piece (the match list's first rows) ran at the key's priority; what
            // follows is background work, and keys come first. Each full scan runs on a
            // thread of its own, so the next one starts at the foreground's priority again.
            found.send(scanned, events);
            crate::priority::lower_this_thread();
            lowered = true;
        }
    }
    if job.cancel.load(Ordering::Relaxed) {
        return;
    }
    // Where growth must look again for a pattern whose attempts may read without bound.
    let pending = match job.request.text.memory() {
        Some(text) if unbounded => resume_point(re, &starts, text, job.request.window.start, &all),
        _ => paged_pending,
    };
    found.send(scanned.max(job.request.text.len()), events);
    events.send(ScanEvent::Done {
        generation: job.request.generation,
        count: found.count,
        steps,
        elapsed: started.elapsed(),
        error,
        pending,
        exact,
    });
}

/// The two scan workers and the channel their results come back on.
pub struct Scanner {
    window: Worker,
    full: Worker,
    events: Receiver<ScanEvent>,
    waker: SharedWaker,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner::new()
    }
}

impl Scanner {
    /// Starts the worker threads.
    pub fn new() -> Scanner {
        let (tx, events) = channel();
        let waker = SharedWaker::default();
        let reply = Reply {
            events: tx,
            waker: waker.clone(),
        };
        Scanner {
            window: Worker::spawn("rxw-window-scan", reply.clone(), run_window, false),
            full: Worker::spawn("rxw-full-scan", reply, run_full, true),
            events,
            waker,
        }
    }

    /// The waker the workers call after each result they send.
    pub fn waker(&self) -> &SharedWaker {
        &self.waker
    }

    /// Asks for the matches in `window` (cancelling the previous window request).
    pub fn scan_window(
        &self,
        generation: u64,
        regex: Arc<Regex>,
        text: SharedText,
        window: Range<usize>,
    ) {
        self.window.submit(Request {
            generation,
            regex,
            text,
            window,
            base_count: 0,
            base_line: 0,
        });
    }

    /// Asks for a full count (cancelling the previous one).
    pub fn scan_full(&self, generation: u64, regex: Arc<Regex>, text: SharedText) {
        self.scan_full_from(generation, regex, text, 0, 0, 0);
    }

    /// Continues a full count from byte `start`, a line start (the text before it was scanned
    /// already and held `base_count` matches, all kept as spans; `start` is on line
    /// `base_line`, 0-based), cancelling the previous request.
    pub fn scan_full_from(
        &self,
        generation: u64,
        regex: Arc<Regex>,
        text: SharedText,
        start: usize,
        base_count: usize,
        base_line: usize,
    ) {
        self.full.submit(Request {
            generation,
            regex,
            window: start..text.len(),
            text,
            base_count,
            base_line,
        });
    }

    /// The byte the newest full scan has reached (it moves during a long search that finds no
    /// match, between the scan's events).
    pub fn full_progress(&self) -> usize {
        self.full.progress()
    }

    /// Stops the full scan (the window scan goes on).
    pub fn cancel_full(&self) {
        self.full.cancel();
    }

    /// Stops both scans.
    pub fn cancel(&self) {
        self.window.cancel();
        self.full.cancel();
    }

    /// The next event, if one is waiting.
    pub fn try_event(&self) -> Option<ScanEvent> {
        self.events.try_recv().ok()
    }

    /// The next event, waiting up to `timeout`.
    pub fn wait_event(&self, timeout: Duration) -> Option<ScanEvent> {
        self.events.recv_timeout(timeout).ok()
    }
}

/// The engine a pattern uses on an input, for the status bar.
pub fn engine_of(regex: &Regex, text: &SharedText) -> EngineKind {
    match text.memory() {
        Some(t) if t.len() <= 1 << 20 => regex.engine_kind(t),
        _ => regex.engine_kind_typical(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::{Flags, Flavor};

    /// Held true while the first run of the test below must not end.
    static HOLD_FIRST: AtomicBool = AtomicBool::new(true);

    /// A run that, for generation 1, ignores its cancel flag until released (a cancelled
    /// count starved of the core), and for any other answers at once.
    fn held_run(job: &Job, events: &Reply) {
        if job.request.generation == 1 {
            while HOLD_FIRST.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(1));
            }
        }
        events.send(ScanEvent::Done {
            generation: job.request.generation,
            count: 0,
            steps: 0,
            elapsed: Duration::ZERO,
            error: None,
            pending: None,
            exact: true,
        });
    }

    /// Regression: a key's new full count waited for the count it cancelled to end (the
    /// worker joined each run's thread before taking the next request), and that count,
    /// lowered to the background, could take tens of milliseconds to be scheduled and see
    /// its flag on a busy machine. The next run starts while the cancelled one still runs.
    #[test]
    fn a_new_run_does_not_wait_for_the_cancelled_one() {
        let (tx, rx) = channel();
        let reply = Reply {
            events: tx,
            waker: SharedWaker::default(),
        };
        let worker = Worker::spawn("test-full", reply, held_run, true);
        let re = Arc::new(Regex::new("a", Flavor::PYTHON, Flags::default()).unwrap());
        let text = SharedText::Memory(Arc::new("a".repeat(10)));
        let request = |generation, regex, text| Request {
            generation,
            regex,
            text,
            window: 0..10,
            base_count: 0,
            base_line: 0,
        };
        worker.submit(request(1, Arc::clone(&re), text.clone()));
        // Let the first run start before the second request cancels it.
        thread::sleep(Duration::from_millis(50));
        worker.submit(request(2, re, text));
        let first = rx.recv_timeout(Duration::from_secs(60));
        HOLD_FIRST.store(false, Ordering::Relaxed);
        let first = first.expect("the second run answered while the first was held");
        assert_eq!(first.generation(), 2);
    }
}
