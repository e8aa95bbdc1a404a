//! The Debug tab's state: a recorded trace of one search and a cursor in it.
//!
//! The trace is the matcher's own run (`Regex::trace_search`), so it shows the flavor's real
//! backtracking order. It is recorded for the selected match (or, without one, from the input
//! cursor) when the tab is shown, and again when the pattern, the input or the match change.
//! Moving through it is pure state: every key is an index change over the recorded steps.

use crate::Span;
use crate::engine::trace::{Growth, Trace};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Steps recorded at most for the Debug tab.
pub const MAX_STEPS: usize = 10_000;

/// A move through the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DebugMove {
    /// Forward (or back, when negative) by this many steps.
    Step(isize),
    /// To the next step that resumes after a failure.
    NextBacktrack,
    /// To the previous step that resumes after a failure.
    PrevBacktrack,
    /// To the first step.
    First,
    /// To the last step (the match, or where the run stopped).
    Last,
    /// To the next step whose instruction lies in a breakpoint.
    ToBreakpoint,
    /// Record the trace again from the selected match.
    Retrace,
}

/// What the trace was recorded for; a different key means recording again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceKey {
    /// The scan generation (pattern, flags, flavor and input changes all bump it).
    pub generation: u64,
    /// The pattern text.
    pub pattern: String,
    /// Where the search started.
    pub start: usize,
}

/// The Debug tab.
#[derive(Debug, Default)]
pub struct DebugView {
    /// The recorded trace, once recorded.
    pub trace: Option<Trace>,
    /// What it was recorded for.
    pub key: Option<TraceKey>,
    /// The current step.
    pub cursor: usize,
    /// Why there is no trace (an invalid pattern), if so.
    pub error: Option<String>,
    /// Breakpoints: pattern spans (set on explain rows).
    pub breakpoints: Vec<Span>,
    /// A note for the tab (a breakpoint never reached, say).
    pub note: Option<String>,
    /// The most steps at one input position (the heatmap's scale), set when recorded.
    pub heat_max: u64,
    /// How the steps grow on this input, measured off the UI thread when the trace hit the
    /// step budget or took many steps (`None` until measured).
    pub growth: Arc<Mutex<Option<Growth>>>,
}

impl DebugView {
    /// Records a trace of one search from `start` with `regex` over `text`. When the run hit
    /// the step budget or took many steps, a worker thread measures how the steps grow on
    /// prefixes of the text from `start` (at most 64 KB, 1.5 s) for the tab to show.
    pub fn record(
        &mut self,
        regex: &std::sync::Arc<crate::Regex>,
        text: &str,
        start: usize,
        key: TraceKey,
    ) {
        self.key = Some(key);
        self.cursor = 0;
        self.note = None;
        self.growth = Arc::new(Mutex::new(None));
        match regex.trace_search(text, start, MAX_STEPS, Duration::from_millis(250)) {
            Ok(t) => {
                if t.stopped.is_some() || t.total_steps > 100_000 {
                    let mut end = (start + 65_536).min(text.len());
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    let sample = text[start.min(end)..end].to_string();
                    let re = Arc::clone(regex);
                    let slot = Arc::clone(&self.growth);
                    std::thread::spawn(move || {
                        let g = re.growth(&sample, Duration::from_millis(1500));
                        if let Ok(mut s) = slot.lock() {
                            *s = Some(g);
                        }
                    });
                }
                self.heat_max = t.per_pos.values().copied().max().unwrap_or(0);
                self.trace = Some(t);
                self.error = None;
            }
            Err(e) => {
                self.trace = None;
                self.error = Some(e.message);
            }
        }
    }

    /// The number of recorded steps.
    pub fn len(&self) -> usize {
        self.trace.as_ref().map_or(0, |t| t.steps.len())
    }

    /// Whether no step is recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The current step, if any.
    pub fn current(&self) -> Option<&crate::engine::trace::TraceStep> {
        self.trace.as_ref()?.steps.get(self.cursor)
    }

    /// Applies a move; returns false when nothing matched it (no further backtrack, say).
    pub fn apply(&mut self, m: DebugMove) -> bool {
        let Some(t) = &self.trace else {
            return false;
        };
        let n = t.steps.len();
        if n == 0 {
            return false;
        }
        self.note = None;
        let found = match m {
            DebugMove::Step(d) => {
                Some((self.cursor as isize + d).clamp(0, n as isize - 1) as usize)
            }
            DebugMove::First => Some(0),
            DebugMove::Last => Some(n - 1),
            DebugMove::NextBacktrack => (self.cursor + 1..n).find(|&i| t.steps[i].backtrack),
            DebugMove::PrevBacktrack => (0..self.cursor).rev().find(|&i| t.steps[i].backtrack),
            DebugMove::ToBreakpoint => {
                let bps = &self.breakpoints;
                (self.cursor + 1..n).find(|&i| {
                    let s = t.steps[i].span;
                    bps.iter()
                        .any(|b| b.start <= s.start && s.end <= b.end && !s.is_empty())
                })
            }
            DebugMove::Retrace => None,
        };
        match found {
            Some(i) => {
                self.cursor = i;
                true
            }
            None => {
                self.note = Some(match m {
                    DebugMove::NextBacktrack => "no backtrack after this step".into(),
                    DebugMove::PrevBacktrack => "no backtrack before this step".into(),
                    DebugMove::ToBreakpoint if self.breakpoints.is_empty() => {
                        "no breakpoint: set one on a node in the Explain tab (b)".into()
                    }
                    DebugMove::ToBreakpoint => "no breakpoint reached after this step".into(),
                    _ => String::new(),
                });
                false
            }
        }
    }

    /// Sets or clears a breakpoint on a pattern span.
    pub fn toggle_breakpoint(&mut self, span: Span) -> bool {
        if let Some(i) = self.breakpoints.iter().position(|b| *b == span) {
            self.breakpoints.remove(i);
            false
        } else {
            self.breakpoints.push(span);
            true
        }
    }

    /// Steps per input position for the heatmap, and the largest count.
    pub fn heat(&self) -> Option<(&std::collections::HashMap<usize, u64>, u64)> {
        let t = self.trace.as_ref()?;
        (self.heat_max > 0).then_some((&t.per_pos, self.heat_max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Flags, Flavor, Regex};

    fn view(p: &str, text: &str) -> DebugView {
        let re = std::sync::Arc::new(Regex::new(p, Flavor::Python, Flags::default()).unwrap());
        let mut v = DebugView::default();
        v.record(
            &re,
            text,
            0,
            TraceKey {
                generation: 1,
                pattern: p.into(),
                start: 0,
            },
        );
        v
    }

    #[test]
    fn moves_through_the_trace() {
        let mut v = view("(a|ab)(c|bcd)(d*)", "abcd");
        assert!(v.len() > 10);
        assert!(v.apply(DebugMove::NextBacktrack));
        assert!(v.current().unwrap().backtrack);
        let at = v.cursor;
        v.apply(DebugMove::Step(-1));
        assert_eq!(v.cursor, at - 1);
        v.apply(DebugMove::Last);
        assert_eq!(v.current().unwrap().op, "match");
        assert!(!v.apply(DebugMove::NextBacktrack));
        assert!(v.note.is_some());
        v.apply(DebugMove::Step(-1_000_000));
        assert_eq!(v.cursor, 0);
    }

    #[test]
    fn breakpoints_stop_on_their_node() {
        let mut v = view("(a|ab)(c|bcd)(d*)", "abcd");
        assert!(!v.apply(DebugMove::ToBreakpoint));
        v.toggle_breakpoint(Span::new(14, 17)); // (d*)
        assert!(v.apply(DebugMove::ToBreakpoint));
        let s = v.current().unwrap().span;
        assert!(s.start >= 14 && s.end <= 17, "{s:?}");
    }

    #[test]
    fn a_trace_cut_by_the_budget_ends_where_it_ran_out_and_growth_is_measured() {
        let v = view("(a+)+b", &format!("{}c", "a".repeat(30)));
        let t = v.trace.as_ref().unwrap();
        assert!(t.truncated);
        assert_eq!(v.len(), MAX_STEPS);
        // The worker measures growth off the calling thread; wait for it (bounded).
        let mut class = None;
        for _ in 0..400 {
            if let Some(g) = v.growth.lock().unwrap().as_ref() {
                class = g.class;
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(class, Some(crate::engine::trace::GrowthClass::Exponential));
    }
}
