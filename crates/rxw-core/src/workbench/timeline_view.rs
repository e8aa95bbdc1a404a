//! The timeline view: matches per time bucket ([`crate::operator::timeline`]) for the pattern or one
//! lens key, computed on a worker, and the selected bucket's first line to jump to.
//!
//! The timeline is one pass over the input, on a worker thread, cancelled when the pattern,
//! the source or the input changes (an edit), and stopped by Esc. For a pattern whose matches
//! cannot depend on other lines ([`matches_independent_of_other_lines`], the common case) the
//! pass is fed whole lines a block at a time ([`TimelinePass`]), which is exact, reports its
//! progress and works on an input read in pages; the pass as far as the last complete line is
//! handed back with the result, so a followed file's growth (or a paged input's indexing)
//! feeds only the new lines: an unfinished last line is fed to a copy, as the jobs table
//! does. The buckets are chosen when the result is made, so they widen as the log's span
//! grows without reading it again. A pattern that can cross lines is recomputed over the
//! whole text in memory (its matches near the old end may change), and is not drawn for an
//! input read in pages.
//!
//! A growth that arrives while a pass runs does not cancel it: the new text is taken by one
//! more pass when it ends, so constant growth cannot starve the chart.

use super::TextBuffer;
use super::buffer::SharedText;
use super::follow::matches_independent_of_other_lines;
use super::matching::SharedWaker;
use super::task::{PassState, PassWorker, Reply};
use crate::engine::Regex;
use crate::error::Error;
use crate::operator::timeline::{Timeline, TimelinePass, ZOOM_WIDTHS_MS, Zoom, timeline_zoomed};
use crate::presets::model::Catalog;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Bytes of lines fed to the pass between two looks at the cancel flag and the clock.
const BLOCK: usize = 1 << 20;

/// What the timeline counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimelineSource {
    /// The workbench's pattern.
    Pattern,
    /// The preset with this key (a lens key).
    Preset(String),
}

/// How far the timeline is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimelineState {
    /// Not started (never shown).
    Idle,
    /// A pass is running; the byte it has reached.
    Computing(usize),
    /// The result is for the current input and source.
    Done,
    /// The user stopped the pass at this byte (Esc): the last result stays, and growth is
    /// not read until the pattern, the source or the input changes.
    Stopped(usize),
}

impl PassState for TimelineState {
    fn running(self) -> Option<usize> {
        match self {
            TimelineState::Computing(at) => Some(at),
            _ => None,
        }
    }
}

/// What a pass counts, ready for the worker.
#[derive(Clone)]
pub enum Counted {
    /// A compiled pattern.
    Pattern(Arc<Regex>),
    /// A preset: the registry and the entry's index.
    Preset(Arc<Catalog>, usize),
}

/// A pass fed up to a line start, to be continued when the input grows.
#[derive(Clone)]
struct Resume {
    pass: TimelinePass,
    /// Where the next line to feed starts.
    fed_to: usize,
}

struct TimelineJob {
    generation: u64,
    text: SharedText,
    counted: Counted,
    max_buckets: usize,
    zoom: Option<Zoom>,
    /// The pass to continue (growth), or `None` to start from the first line.
    resume: Option<Resume>,
}

enum TimelineEvent {
    Progress {
        generation: u64,
        scanned: usize,
    },
    Done {
        generation: u64,
        result: Result<Timeline, Error>,
        /// The pass up to its last complete line, when growth can continue it (boxed: the
        /// progress events are many and small).
        resume: Option<Box<Resume>>,
        /// Where this pass started.
        from: usize,
    },
}

fn run_timeline(job: TimelineJob, cancel: &AtomicBool, reply: &Reply<TimelineEvent>) {
    let done = |result, resume, from| {
        if !cancel.load(Ordering::Relaxed) {
            reply.send(TimelineEvent::Done {
                generation: job.generation,
                result,
                resume,
                from,
            });
        }
    };
    let re: &Regex = match &job.counted {
        Counted::Pattern(re) => re,
        Counted::Preset(catalog, k) => match catalog.entries()[*k].regex() {
            Ok(re) => re,
            Err(e) => return done(Err(e.into()), None, 0),
        },
    };
    if !matches_independent_of_other_lines(re) {
        let result = match job.text.memory() {
            Some(text) => timeline_zoomed(text, re, job.max_buckets, job.zoom, Some(cancel)),
            // A chunk of lines would miss the matches that cross into the next one.
            None => Err(Error::new(
                crate::error::ErrorKind::Io,
                format!(
                    "the timeline of a pattern that can match across lines is not drawn for an input read in pages ({} MB): run `rxw timeline` on it",
                    job.text.len() >> 20
                ),
            )),
        };
        return done(result, None, 0);
    }
    let Resume { mut pass, fed_to } = job.resume.unwrap_or(Resume {
        pass: job
            .zoom
            .map_or_else(TimelinePass::new, TimelinePass::zoomed),
        fed_to: 0,
    });
    let from = fed_to;
    let mut fed_to = fed_to;
    let mut tail = String::new();
    let mut last_send = Instant::now();
    for piece in job.text.pieces(from) {
        let text = &piece.text[piece.start..];
        let base = piece.offset + piece.start;
        // Complete lines: all of a piece whose line break was left out, else up to the last
        // line feed; what follows is the unfinished last line.
        let complete = if piece.stripped {
            text.len()
        } else {
            memchr::memrchr(b'\n', text.as_bytes()).map_or(0, |k| k + 1)
        };
        let mut at = 0;
        while at < complete || (piece.stripped && at == 0) {
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            // Whole lines: up to the first line end a block's worth on.
            let stop = if complete - at <= BLOCK {
                complete
            } else {
                let from = at + BLOCK - 1;
                memchr::memchr(b'\n', &text.as_bytes()[from..complete])
                    .map_or(complete, |k| from + k + 1)
            };
            let restored = piece.stripped && stop == complete;
            let fed = if restored {
                // The piece's own line break was left out: it is given back, so that an
                // empty last line is a line, as in the whole text.
                let mut lines = String::with_capacity(stop - at + 1);
                lines.push_str(&text[at..stop]);
                lines.push('\n');
                feed(&mut pass, &lines, re, cancel)
            } else {
                feed(&mut pass, &text[at..stop], re, cancel)
            };
            if let Err(e) = fed {
                return done(Err(e), None, from);
            }
            fed_to = base + stop + usize::from(restored);
            if last_send.elapsed() >= Duration::from_millis(25) {
                reply.send(TimelineEvent::Progress {
                    generation: job.generation,
                    scanned: fed_to,
                });
                last_send = Instant::now();
            }
            at = stop;
            if at == complete {
                break;
            }
        }
        if !piece.stripped {
            tail = text[complete..].to_string();
        }
    }
    if cancel.load(Ordering::Relaxed) {
        return;
    }
    let resume = Resume { pass, fed_to };
    let mut last = resume.pass.clone();
    if !tail.is_empty()
        && let Err(e) = feed(&mut last, &tail, re, cancel)
    {
        return done(Err(e), None, from);
    }
    done(
        Ok(last.finish(job.max_buckets)),
        Some(Box::new(resume)),
        from,
    )
}

/// Feeds whole lines (`lines` ends with its line feed, or is the text's unfinished last
/// line) to the pass, matching them without their final line feed, as a chunk of the whole
/// text is matched.
fn feed(
    pass: &mut TimelinePass,
    lines: &str,
    re: &Regex,
    cancel: &AtomicBool,
) -> Result<(), Error> {
    let search = lines.strip_suffix('\n').unwrap_or(lines);
    pass.feed(lines, search, &[], re, Some(cancel))
}

impl Counted {
    /// Whether both count the same thing (the same compiled pattern, or the same preset of
    /// the same registry). The Arcs are held, so an address cannot be reused meanwhile.
    fn same(&self, other: &Counted) -> bool {
        match (self, other) {
            (Counted::Pattern(a), Counted::Pattern(b)) => Arc::ptr_eq(a, b),
            (Counted::Preset(a, i), Counted::Preset(b, j)) => Arc::ptr_eq(a, b) && i == j,
            _ => false,
        }
    }
}

/// What a result was computed for: the input revision, what is counted, the buckets.
struct Basis {
    revision: u64,
    counted: Counted,
    max_buckets: usize,
    zoom: Option<Zoom>,
}

impl Basis {
    fn same_source(&self, other: &Basis) -> bool {
        self.counted.same(&other.counted)
            && self.max_buckets == other.max_buckets
            && self.zoom == other.zoom
    }
}

/// The timeline view.
pub struct TimelineView {
    source: TimelineSource,
    max_buckets: usize,
    /// The zoom chosen (`None`: the whole log in the buckets the chart holds).
    zoom: Option<Zoom>,
    result: Option<Result<Timeline, Error>>,
    /// While the combined filters are on: the timeline of the lines they show, or `None`
    /// when this timeline cannot follow them ([`super::filtered::TIMELINE_NOT_FILTERED`]).
    filtered: Option<Option<Result<Timeline, Error>>>,
    state: TimelineState,
    /// The selected bucket.
    pub selected: usize,
    selected_start: Option<i64>,
    active: bool,
    basis: Option<Basis>,
    appended_to: Option<u64>,
    /// The last pass up to its last complete line, for growth to continue.
    resume: Option<Resume>,
    /// The worker, the running pass's generation and start, where the last one started.
    worker: PassWorker<TimelineJob, TimelineEvent>,
}

impl TimelineView {
    /// An idle view over the pattern; `waker` is called when a result is waiting.
    pub fn new(waker: SharedWaker) -> TimelineView {
        TimelineView {
            source: TimelineSource::Pattern,
            max_buckets: 60,
            zoom: None,
            result: None,
            filtered: None,
            state: TimelineState::Idle,
            selected: 0,
            selected_start: None,
            active: false,
            basis: None,
            appended_to: None,
            resume: None,
            worker: PassWorker::new(waker),
        }
    }

    /// Starts keeping the timeline up to date (the first time it is shown).
    pub fn activate(&mut self) {
        self.active = true;
    }

    /// Whether the timeline is kept up to date.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// What is counted.
    pub fn source(&self) -> &TimelineSource {
        &self.source
    }

    /// Counts something else (the next [`TimelineView::sync`] starts the pass).
    pub fn set_source(&mut self, source: TimelineSource) {
        self.source = source;
    }

    /// Asks for at most about `n` buckets (the chart's width).
    pub fn set_max_buckets(&mut self, n: usize) {
        self.max_buckets = n.max(1);
    }

    /// The zoom, when one was chosen.
    pub fn zoom(&self) -> Option<Zoom> {
        self.zoom
    }

    /// Zooms one width in (`true`, down to 1s) or out (up to 1d) around the selected bucket;
    /// returns the new width, or `None` when there is no chart or the width is at its end.
    pub fn zoom_by(&mut self, narrower: bool) -> Option<i64> {
        let Some(Ok(t)) = &self.result else {
            return None;
        };
        let at = t.buckets.get(self.selected).map(|b| b.start)?;
        let i = ZOOM_WIDTHS_MS
            .iter()
            .position(|&w| w >= t.width_ms)
            .unwrap_or(ZOOM_WIDTHS_MS.len() - 1);
        let next = if narrower {
            i.checked_sub(1)?
        } else if i + 1 < ZOOM_WIDTHS_MS.len() {
            i + 1
        } else {
            return None;
        };
        let zoom = Zoom::around(ZOOM_WIDTHS_MS[next], at);
        self.zoom = Some(zoom);
        Some(zoom.width_ms)
    }

    /// Back to the whole log in the buckets the chart holds.
    pub fn unzoom(&mut self) -> bool {
        self.zoom.take().is_some()
    }

    /// A move past the first or last bucket of a zoomed chart whose window cuts the log
    /// there moves the window (a new pass) to centre on the bucket moved to; returns
    /// whether it did.
    fn recentre_past_edge(&mut self, delta: isize) -> bool {
        let (Some(z), Some(Ok(t))) = (self.zoom, &self.result) else {
            return false;
        };
        let last = t.buckets.len().saturating_sub(1);
        let at_edge = (delta < 0 && self.selected == 0) || (delta > 0 && self.selected == last);
        let Some(b) = t.buckets.get(self.selected) else {
            return false;
        };
        let cut = (delta < 0 && b.start <= z.from) || (delta > 0 && b.end >= z.to);
        if at_edge && cut {
            let at = b.start + delta.signum() as i64 * z.width_ms;
            self.zoom = Some(Zoom::around(z.width_ms, at));
            self.selected_start = Some(at);
        }
        at_edge && cut
    }

    /// The last result: the timeline, or why it could not be made.
    pub fn result(&self) -> Option<&Result<Timeline, Error>> {
        match &self.filtered {
            Some(Some(filtered)) => Some(filtered),
            _ => self.result.as_ref(),
        }
    }

    /// Shows the timeline of the lines the filters show (`Some(Some(…))`), says that this
    /// one cannot follow them (`Some(None)`), or shows the whole input's again (`None`).
    pub fn set_filtered(&mut self, filtered: Option<Option<Result<Timeline, Error>>>) {
        self.filtered = filtered;
    }

    /// Most buckets of an unzoomed chart.
    pub fn max_buckets(&self) -> usize {
        self.max_buckets
    }

    /// Whether [`TimelineView::result`] is of the lines the filters show.
    pub fn filtered(&self) -> bool {
        matches!(self.filtered, Some(Some(_)))
    }

    /// Whether the filters are on and the chart does not follow them: why.
    pub fn filter_note(&self) -> Option<&'static str> {
        matches!(self.filtered, Some(None)).then_some(super::filtered::TIMELINE_NOT_FILTERED)
    }

    /// How far the timeline is.
    pub fn state(&self) -> TimelineState {
        self.state
    }

    /// The running pass's rate so far in bytes a second, once it has run long enough (200 ms)
    /// for the figure to mean something.
    pub fn rate(&self) -> Option<f64> {
        self.worker.rate_of(self.state)
    }

    /// Where the last finished pass started reading: 0 for a whole pass, the old end's last
    /// line start when growth was continued.
    pub fn read_from(&self) -> usize {
        self.worker.read_from()
    }

    /// Stops the running pass (Esc): the last result stays, and growth is not read until
    /// the pattern, the source or the input changes. Returns the byte it stopped at, or
    /// `None` when no pass was running.
    pub fn stop(&mut self) -> Option<usize> {
        self.take_results();
        let at = self.worker.stop_running(self.state)?;
        self.resume = None;
        self.state = TimelineState::Stopped(at);
        Some(at)
    }

    /// Moves the selection by `delta` buckets (clamped).
    pub fn move_by(&mut self, delta: isize) {
        if self.recentre_past_edge(delta) {
            return;
        }
        let Some(Ok(t)) = &self.result else { return };
        let last = t.buckets.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize + delta).clamp(0, last.max(0)) as usize;
        self.selected_start = t.buckets.get(self.selected).map(|b| b.start);
    }

    /// Selects bucket `i` (clamped).
    pub fn select(&mut self, i: usize) {
        self.move_by(i as isize - self.selected as isize);
    }

    /// The first line (from 0) of the selected bucket; `None` when no line falls in it.
    pub fn selected_line(&self) -> Option<usize> {
        let Some(Ok(t)) = &self.result else {
            return None;
        };
        let (first, _) = t.buckets.get(self.selected)?.lines?;
        Some(first as usize - 1)
    }

    /// Tells the view the input grew by an append from revision `before` to `after`.
    pub fn note_append(&mut self, before: u64, after: u64) {
        let last = self.appended_to.or(self.basis.as_ref().map(|b| b.revision));
        self.appended_to = (last == Some(before)).then_some(after);
    }

    /// Takes in a finished pass and starts the one the input and source need now. `pattern`
    /// is the workbench's compiled pattern (`None` when it does not compile), `catalog` the
    /// registry lens keys come from. Returns whether anything changed on screen.
    pub fn sync(
        &mut self,
        input: &TextBuffer,
        pattern: Option<&Arc<Regex>>,
        catalog: &Arc<Catalog>,
    ) -> bool {
        if !self.active {
            return false;
        }
        let mut changed = self.take_results();
        let counted = match &self.source {
            TimelineSource::Pattern => match pattern {
                Some(re) => Counted::Pattern(Arc::clone(re)),
                None => {
                    if self.basis.is_some() || self.result.is_some() {
                        self.basis = None;
                        self.result = None;
                        self.state = TimelineState::Done;
                        changed = true;
                    }
                    return changed;
                }
            },
            TimelineSource::Preset(key) => match catalog.keys().position(|k| k == key) {
                Some(k) => Counted::Preset(Arc::clone(catalog), k),
                None => {
                    self.source = TimelineSource::Pattern;
                    return self.sync(input, pattern, catalog);
                }
            },
        };
        let basis = Basis {
            revision: input.revision(),
            counted: counted.clone(),
            max_buckets: self.max_buckets,
            zoom: self.zoom,
        };
        let same_source = self.basis.as_ref().is_some_and(|b| b.same_source(&basis));
        if same_source
            && self
                .basis
                .as_ref()
                .is_some_and(|b| b.revision == basis.revision)
        {
            return changed;
        }
        let only_grown = same_source && self.appended_to == Some(basis.revision);
        if only_grown && matches!(self.state, TimelineState::Computing(_)) {
            // The pass under way ends first; its end brings the next one.
            return changed;
        }
        if only_grown && matches!(self.state, TimelineState::Stopped(_)) {
            return changed;
        }
        let resume = if only_grown { self.resume.take() } else { None };
        self.submit(input, counted, basis, resume);
        true
    }

    fn submit(
        &mut self,
        input: &TextBuffer,
        counted: Counted,
        basis: Basis,
        resume: Option<Resume>,
    ) {
        self.basis = Some(basis);
        self.appended_to = None;
        self.resume = None;
        let from = resume.as_ref().map_or(0, |r| r.fed_to);
        self.state = TimelineState::Computing(from);
        let max_buckets = self.max_buckets;
        let zoom = self.zoom;
        self.worker
            .start("rxw-timeline", run_timeline, from, |generation| {
                TimelineJob {
                    generation,
                    text: input.shared(),
                    counted,
                    max_buckets,
                    zoom,
                    resume,
                }
            });
    }

    fn take_results(&mut self) -> bool {
        let mut changed = false;
        while let Some(ev) = self.worker.try_event() {
            changed |= self.absorb(ev);
        }
        changed
    }

    fn absorb(&mut self, ev: TimelineEvent) -> bool {
        match ev {
            TimelineEvent::Progress {
                generation,
                scanned,
            } if generation == self.worker.generation() => {
                self.state = TimelineState::Computing(scanned);
                true
            }
            TimelineEvent::Done {
                generation,
                result,
                resume,
                from,
            } if generation == self.worker.generation() => {
                self.resume = resume.map(|r| *r);
                self.worker.ended(from);
                self.install(result);
                true
            }
            _ => false,
        }
    }

    fn install(&mut self, result: Result<Timeline, Error>) {
        if let Ok(t) = &result {
            // Keep the selected time; the first time, select the fullest bucket.
            self.selected = match self.selected_start {
                // The bucket holding that time, else the first after it (a zoomed chart
                // starts at the log's first stamp, which may come after it).
                Some(at) => t
                    .buckets
                    .partition_point(|b| b.end <= at)
                    .min(t.buckets.len().saturating_sub(1)),
                None => t
                    .buckets
                    .iter()
                    .enumerate()
                    .max_by_key(|(i, b)| (b.count, std::cmp::Reverse(*i)))
                    .map_or(0, |(i, _)| i),
            };
            self.selected_start = t.buckets.get(self.selected).map(|b| b.start);
        }
        self.result = Some(result);
        self.state = TimelineState::Done;
    }

    /// Waits up to `timeout` for the pass the current state needs (tests and screenshots).
    pub fn settle(
        &mut self,
        input: &TextBuffer,
        pattern: Option<&Arc<Regex>>,
        catalog: &Arc<Catalog>,
        timeout: Duration,
    ) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            self.sync(input, pattern, catalog);
            if !self.active || !matches!(self.state, TimelineState::Computing(_)) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            if let Some(ev) = self.worker.event_within(Duration::from_millis(20)) {
                self.absorb(ev);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::{Flags, Flavor};

    fn catalog() -> Arc<Catalog> {
        Arc::new(crate::presets::load::load(&crate::presets::load::LoadOptions::default()).catalog)
    }

    fn re(p: &str) -> Arc<Regex> {
        Arc::new(Regex::new(p, Flavor::PYTHON, Flags::default()).unwrap())
    }

    fn settled(view: &mut TimelineView, input: &TextBuffer, pattern: Option<&Arc<Regex>>) {
        assert!(view.settle(input, pattern, &catalog(), Duration::from_secs(30)));
    }

    const LOG: &str = "2026-10-05T00:00:01Z [RESULT a] OK\n\
                       2026-10-05T00:00:02Z [RESULT b] FAIL\n\
                       2026-10-05T00:00:02Z [RESULT c] FAIL\n\
                       no stamp [RESULT d] FAIL\n\
                       2026-10-05T00:00:09Z [CLAIM e]\n";

    #[test]
    fn the_pattern_timeline_is_the_commands_and_selects_the_spike() {
        let input = TextBuffer::new(LOG.to_string());
        let pattern = re(r"FAIL");
        let mut view = TimelineView::new(SharedWaker::default());
        view.activate();
        settled(&mut view, &input, Some(&pattern));
        let t = view.result().unwrap().as_ref().unwrap();
        assert_eq!(
            t,
            &crate::operator::timeline::timeline(LOG, &pattern, 60).unwrap()
        );
        assert_eq!(t.buckets[view.selected].count, 3, "the spike is selected");
        assert_eq!(view.selected_line(), Some(1));
        view.move_by(1);
        assert_eq!(view.selected_line(), None, "no line in an empty second");
        view.move_by(100);
        assert_eq!(view.selected_line(), Some(4));
    }

    #[test]
    fn a_lens_key_counts_that_presets_matches() {
        let input = TextBuffer::new(LOG.to_string());
        let mut view = TimelineView::new(SharedWaker::default());
        view.activate();
        view.set_source(TimelineSource::Preset("verb".into()));
        settled(&mut view, &input, None);
        let t = view.result().unwrap().as_ref().unwrap();
        assert_eq!(t.matches, 5);
        // A key that is not in the registry falls back to the pattern (none here).
        view.set_source(TimelineSource::Preset("no_such_key".into()));
        settled(&mut view, &input, None);
        assert_eq!(view.source(), &TimelineSource::Pattern);
        assert!(view.result().is_none());
    }

    /// Growth continues the pass from the old end's unfinished line (for a pattern that
    /// stays in its line) to the buckets of one pass over the whole text, at every split; a
    /// pattern that can cross lines is counted again over the whole text, as exactly.
    #[test]
    fn growth_continues_the_pass_as_one_pass_would() {
        let text: String = (0..40)
            .map(|k: u32| {
                format!(
                    "2026-10-05T00:{:02}:{:02}Z [RESULT r{k}] {}\n{}",
                    k / 10,
                    k * 7 % 60,
                    if k.is_multiple_of(3) { "FAIL" } else { "OK" },
                    if k.is_multiple_of(4) {
                        "no stamp FAIL\n\n"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        for (pattern, local) in [("FAIL", true), (r"FAIL\n\n", false)] {
            let pattern = re(pattern);
            let want = crate::operator::timeline::timeline(&text, &pattern, 60).unwrap();
            assert!(want.matches > 5, "{want:?}");
            for cut in (0..text.len()).step_by(37).chain([text.len() - 1]) {
                let mut input = TextBuffer::new(text[..cut].to_string());
                let mut view = TimelineView::new(SharedWaker::default());
                view.activate();
                settled(&mut view, &input, Some(&pattern));
                let before = input.revision();
                input.append(&text[cut..]);
                view.note_append(before, input.revision());
                settled(&mut view, &input, Some(&pattern));
                assert_eq!(view.result(), Some(&Ok(want.clone())), "cut at {cut}");
                let resumed = if local {
                    text[..cut].rfind('\n').map_or(0, |k| k + 1)
                } else {
                    0
                };
                assert_eq!(view.read_from(), resumed, "cut at {cut}");
            }
        }
    }

    /// Esc stops the pass: the state says where, the rate is gone, growth does not start it
    /// again, and another pattern counts again.
    #[test]
    fn a_stopped_pass_stays_stopped_until_an_edit() {
        let text = LOG.repeat(20_000);
        let mut input = TextBuffer::new(text.clone());
        let pattern = re("FAIL");
        let mut view = TimelineView::new(SharedWaker::default());
        view.activate();
        view.sync(&input, Some(&pattern), &catalog());
        let at = view.stop().expect("the pass was running");
        assert_eq!(view.state(), TimelineState::Stopped(at));
        assert_eq!(view.rate(), None);
        assert_eq!(view.stop(), None, "nothing left to stop");
        let before = input.revision();
        input.append("2026-10-05T00:00:03Z FAIL\n");
        view.note_append(before, input.revision());
        assert!(!view.sync(&input, Some(&pattern), &catalog()));
        assert_eq!(view.state(), TimelineState::Stopped(at));
        let other = re("OK");
        settled(&mut view, &input, Some(&other));
        assert_eq!(view.state(), TimelineState::Done);
        assert_eq!(
            view.result(),
            Some(&crate::operator::timeline::timeline(
                input.text(),
                &other,
                60
            ))
        );
    }

    #[test]
    fn lines_without_stamps_and_growth() {
        let mut input = TextBuffer::new("no stamp FAIL\n".to_string());
        let pattern = re("FAIL");
        let mut view = TimelineView::new(SharedWaker::default());
        view.activate();
        settled(&mut view, &input, Some(&pattern));
        let t = view.result().unwrap().as_ref().unwrap();
        assert!(t.buckets.is_empty());
        assert_eq!(t.untimed_matches, 1);
        let before = input.revision();
        input.append("2026-10-05T00:00:01Z FAIL\n");
        view.note_append(before, input.revision());
        settled(&mut view, &input, Some(&pattern));
        let t = view.result().unwrap().as_ref().unwrap();
        assert_eq!((t.buckets.len(), t.matches), (1, 2));
    }
}
