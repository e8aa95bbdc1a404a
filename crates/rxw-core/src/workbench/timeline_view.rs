//! The timeline view: matches per time bucket ([`crate::operator::timeline`]) for the pattern or one
//! lens key, computed on a worker, and the selected bucket's first line to jump to.
//!
//! The timeline is one pass over the input; it runs on a worker thread, cancelled when the
//! pattern, the source or the input changes (an edit). A followed file's growth does not
//! cancel a pass under way: the new text is taken by one more pass when it ends, so constant
//! growth cannot starve the chart (the pass is linear and bucket-merging, so it is cheap
//! beside the scans; it is recomputed, not continued, because buckets widen as the span of
//! the log grows).

use super::TextBuffer;
use super::buffer::SharedText;
use super::matching::SharedWaker;
use super::task::{Reply, Task, reply_channel};
use crate::engine::Regex;
use crate::error::Error;
use crate::operator::timeline::{Timeline, timeline_with_cancel};
use crate::presets::model::Catalog;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

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
    /// A pass is running.
    Computing,
    /// The result is for the current input and source.
    Done,
}

/// What a pass counts, ready for the worker.
#[derive(Clone)]
pub enum Counted {
    /// A compiled pattern.
    Pattern(Arc<Regex>),
    /// A preset: the registry and the entry's index.
    Preset(Arc<Catalog>, usize),
}

struct TimelineJob {
    generation: u64,
    text: SharedText,
    counted: Counted,
    max_buckets: usize,
}

struct Computed {
    generation: u64,
    result: Result<Timeline, Error>,
}

fn run_timeline(job: TimelineJob, cancel: &AtomicBool, reply: &Reply<Computed>) {
    let Some(text) = job.text.memory() else {
        // The buckets are chosen over the whole text at once, which a paged input is not.
        reply.send(Computed {
            generation: job.generation,
            result: Err(Error::new(
                crate::error::ErrorKind::Io,
                format!(
                    "the timeline of an input read in pages ({} MB) is not drawn here: run `rxw timeline` on it",
                    job.text.len() >> 20
                ),
            )),
        });
        return;
    };
    let result = match &job.counted {
        Counted::Pattern(re) => timeline_with_cancel(text, re, job.max_buckets, Some(cancel)),
        Counted::Preset(catalog, k) => catalog.entries()[*k]
            .regex()
            .and_then(|re| timeline_with_cancel(text, re, job.max_buckets, Some(cancel))),
    };
    if !cancel.load(Ordering::Relaxed) {
        reply.send(Computed {
            generation: job.generation,
            result,
        });
    }
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
}

impl Basis {
    fn same_source(&self, other: &Basis) -> bool {
        self.counted.same(&other.counted) && self.max_buckets == other.max_buckets
    }
}

/// The timeline view.
pub struct TimelineView {
    source: TimelineSource,
    max_buckets: usize,
    result: Option<Result<Timeline, Error>>,
    state: TimelineState,
    /// The selected bucket.
    pub selected: usize,
    selected_start: Option<i64>,
    active: bool,
    generation: u64,
    basis: Option<Basis>,
    appended_to: Option<u64>,
    task: Option<Task<TimelineJob>>,
    events: Option<Receiver<Computed>>,
    waker: SharedWaker,
}

impl TimelineView {
    /// An idle view over the pattern; `waker` is called when a result is waiting.
    pub fn new(waker: SharedWaker) -> TimelineView {
        TimelineView {
            source: TimelineSource::Pattern,
            max_buckets: 60,
            result: None,
            state: TimelineState::Idle,
            selected: 0,
            selected_start: None,
            active: false,
            generation: 0,
            basis: None,
            appended_to: None,
            task: None,
            events: None,
            waker,
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

    /// The last result: the timeline, or why it could not be made.
    pub fn result(&self) -> Option<&Result<Timeline, Error>> {
        self.result.as_ref()
    }

    /// How far the timeline is.
    pub fn state(&self) -> TimelineState {
        self.state
    }

    /// Moves the selection by `delta` buckets (clamped).
    pub fn move_by(&mut self, delta: isize) {
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
        if only_grown && self.state == TimelineState::Computing {
            // The pass under way ends first; its end brings the next one.
            return changed;
        }
        self.submit(input, counted, basis);
        true
    }

    fn submit(&mut self, input: &TextBuffer, counted: Counted, basis: Basis) {
        self.generation += 1;
        self.basis = Some(basis);
        self.appended_to = None;
        self.state = TimelineState::Computing;
        if self.task.is_none() {
            let (reply, rx) = reply_channel(self.waker.clone());
            self.task = Some(Task::spawn("rxw-timeline", move |job, cancel| {
                run_timeline(job, cancel, &reply)
            }));
            self.events = Some(rx);
        }
        if let Some(task) = &self.task {
            task.submit(TimelineJob {
                generation: self.generation,
                text: input.shared(),
                counted,
                max_buckets: self.max_buckets,
            });
        }
    }

    fn take_results(&mut self) -> bool {
        let mut changed = false;
        while let Some(c) = self.events.as_ref().and_then(|rx| rx.try_recv().ok()) {
            if c.generation != self.generation {
                continue;
            }
            self.install(c.result);
            changed = true;
        }
        changed
    }

    fn install(&mut self, result: Result<Timeline, Error>) {
        if let Ok(t) = &result {
            // Keep the selected time; the first time, select the fullest bucket.
            self.selected = match self.selected_start {
                Some(at) => t
                    .buckets
                    .iter()
                    .position(|b| b.start <= at && at < b.end)
                    .unwrap_or(t.buckets.len().saturating_sub(1)),
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
            if !self.active || self.state != TimelineState::Computing {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            if let Some(c) = self
                .events
                .as_ref()
                .and_then(|rx| rx.recv_timeout(Duration::from_millis(20)).ok())
                && c.generation == self.generation
            {
                self.install(c.result);
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
