//! The Debug tab: the matcher's own run of the selected match (or from the input cursor), in
//! the flavor's real backtracking order. Where the matcher is (step k of n), what it does
//! there, the captures so far, the backtrack depth and the steps around the current one; the
//! step's instruction is marked in the pattern, the position and the steps per position (a
//! heatmap) in the input. Each step says what it tried and how it went (`✓`, or `✗` and the
//! error colour for a failing step), going back included (``give back one `a` ``, ``extend
//! the lazy `a+?` by one``, ``try the next alternative of `ab|ac` ``, `retry from position 3`);
//! positions are in the flavor's units (code points, UTF-16 units or bytes), as the verdict's.
//!
//! The trace is recorded when the tab is shown, and again when the pattern, the input or the
//! match changed, on a worker thread (a run can take a quarter of a second on a pathological
//! pattern): the tab says "recording…" meanwhile and keys are answered at once. Moving through
//! it is pure state: every key is an index change over the recorded steps. The trace is shared (see [`super::Shared`]) so the Explain tab can draw each
//! node's steps; the breakpoints are the workbench's, set on explain nodes.

use super::{DrawCx, Handled, InputMarks, Tab, TabCommand, TabCx, TabEvent, TabId};
use crate::Span;
use crate::engine::trace::{Growth, StepOutcome, Trace, TraceStep};
use crate::highlight::Kind;
use crate::tui::action::{Action, Binding, Context, KeySpec::Key, NONE, SHIFT};
use crate::tui::text::clip;
use crate::tui::text::thousands;
use crate::tui::theme::{Chrome, chrome, style};
use crossterm::event::KeyCode as K;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span as TextSpan};
use ratatui::widgets::Paragraph;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The tab's identity.
pub const ID: TabId = TabId("debug");

const fn cmd(name: &'static str) -> TabCommand {
    TabCommand { tab: ID, name }
}

/// The next step.
pub const STEP: TabCommand = cmd("step");
/// The previous step.
pub const BACK: TabCommand = cmd("back");
/// 100 steps on.
pub const STEP_100: TabCommand = cmd("step-100");
/// 100 steps back.
pub const BACK_100: TabCommand = cmd("back-100");
/// The next backtrack.
pub const NEXT_BACKTRACK: TabCommand = cmd("next-backtrack");
/// The previous backtrack.
pub const PREV_BACKTRACK: TabCommand = cmd("prev-backtrack");
/// Run to the next breakpoint.
pub const TO_BREAKPOINT: TabCommand = cmd("to-breakpoint");
/// The first step.
pub const FIRST: TabCommand = cmd("first");
/// The last step.
pub const LAST: TabCommand = cmd("last");
/// Record the trace again.
pub const RETRACE: TabCommand = cmd("retrace");

/// The move a command makes.
pub fn move_of(c: TabCommand) -> Option<DebugMove> {
    Some(match c {
        STEP => DebugMove::Step(1),
        BACK => DebugMove::Step(-1),
        STEP_100 => DebugMove::Step(100),
        BACK_100 => DebugMove::Step(-100),
        NEXT_BACKTRACK => DebugMove::NextBacktrack,
        PREV_BACKTRACK => DebugMove::PrevBacktrack,
        TO_BREAKPOINT => DebugMove::ToBreakpoint,
        FIRST => DebugMove::First,
        LAST => DebugMove::Last,
        RETRACE => DebugMove::Retrace,
        _ => return None,
    })
}

static KEYS: &[Binding] = &[
    Context::Tab.hint(
        Action::Tab(STEP),
        "next step",
        &[
            Key(K::Right, NONE),
            Key(K::Char('n'), NONE),
            Key(K::Down, NONE),
        ],
    ),
    Context::Tab.hint(
        Action::Tab(BACK),
        "previous step",
        &[
            Key(K::Left, NONE),
            Key(K::Char('p'), NONE),
            Key(K::Up, NONE),
        ],
    ),
    Context::Tab.hint(
        Action::Tab(NEXT_BACKTRACK),
        "next backtrack",
        &[Key(K::Char('b'), NONE)],
    ),
    Context::Tab.bind(
        Action::Tab(PREV_BACKTRACK),
        "previous backtrack",
        &[Key(K::Char('B'), SHIFT)],
    ),
    Context::Tab.hint(
        Action::Tab(TO_BREAKPOINT),
        "run to the next breakpoint",
        &[Key(K::Char('c'), NONE)],
    ),
    Context::Tab.bind(
        Action::Tab(STEP_100),
        "100 steps on",
        &[Key(K::PageDown, NONE)],
    ),
    Context::Tab.bind(
        Action::Tab(BACK_100),
        "100 steps back",
        &[Key(K::PageUp, NONE)],
    ),
    Context::Tab.bind(Action::Tab(FIRST), "first step", &[Key(K::Home, NONE)]),
    Context::Tab.hint(
        Action::Tab(LAST),
        "last step (the match, or where the run stopped)",
        &[Key(K::End, NONE)],
    ),
    Context::Tab.bind(
        Action::Tab(RETRACE),
        "trace the selected match again",
        &[Key(K::Char('r'), NONE)],
    ),
    Context::Tab.bind(Action::Quit, "quit", &[Key(K::Char('q'), NONE)]),
    Context::Tab.bind(Action::ToggleHelp, "help", &[Key(K::Char('?'), NONE)]),
];

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

/// A trace being recorded on its worker: what for, and where its result comes back.
#[derive(Debug)]
struct Recording {
    key: TraceKey,
    reply: Receiver<Result<Trace, String>>,
}

/// A recorded trace and a cursor in it.
#[derive(Debug, Default)]
pub struct DebugView {
    /// The recorded trace, once recorded.
    pub trace: Option<Arc<Trace>>,
    /// What it was recorded for.
    pub key: Option<TraceKey>,
    /// The current step.
    pub cursor: usize,
    /// Why there is no trace (an invalid pattern), if so.
    pub error: Option<String>,
    /// A note for the tab (a breakpoint never reached, say).
    pub note: Option<String>,
    /// The most steps at one input position (the heatmap's scale), set when recorded.
    pub heat_max: u64,
    /// How the steps grow on this input, measured off the UI thread when the trace hit the
    /// step budget or took many steps (`None` until measured).
    pub growth: Arc<Mutex<Option<Growth>>>,
    /// The recording under way, if any ([`DebugView::start_recording`]).
    recording: Option<Recording>,
}

/// Records a trace of one search from `start` with `regex` over `text`, then, when the run hit
/// the step budget or took many steps, measures how the steps grow on prefixes of the text
/// from `start` (at most 64 KB, 1.5 s) into `growth`. `sent` is called with the trace before
/// the measure starts.
fn trace_and_measure(
    regex: &Arc<crate::Regex>,
    text: &str,
    start: usize,
    growth: &Mutex<Option<Growth>>,
    sent: impl FnOnce(Result<Trace, String>),
) {
    let trace = regex.trace_search(text, start, MAX_STEPS, Duration::from_millis(250));
    let measure = matches!(&trace, Ok(t) if t.stopped.is_some() || t.total_steps > 100_000);
    sent(trace.map_err(|e| e.message));
    if measure {
        let mut end = (start + 65_536).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let g = regex.growth(&text[start.min(end)..end], Duration::from_millis(1500));
        if let Ok(mut s) = growth.lock() {
            *s = Some(g);
        }
    }
}

impl DebugView {
    /// Records a trace of one search from `start` with `regex` over `text`, on this thread.
    /// When the run hit the step budget or took many steps, a worker thread measures how the
    /// steps grow on prefixes of the text from `start` (at most 64 KB, 1.5 s) for the tab to
    /// show.
    pub fn record(
        &mut self,
        regex: &std::sync::Arc<crate::Regex>,
        text: &str,
        start: usize,
        key: TraceKey,
    ) {
        self.begin(key);
        let trace = regex.trace_search(text, start, MAX_STEPS, Duration::from_millis(250));
        if matches!(&trace, Ok(t) if t.stopped.is_some() || t.total_steps > 100_000) {
            let mut end = (start + 65_536).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let sample = text[start.min(end)..end].to_string();
            let (re, slot) = (Arc::clone(regex), Arc::clone(&self.growth));
            std::thread::spawn(move || {
                let g = re.growth(&sample, Duration::from_millis(1500));
                if let Ok(mut s) = slot.lock() {
                    *s = Some(g);
                }
            });
        }
        self.install(trace.map_err(|e| e.message));
    }

    /// Starts recording a trace of one search from `start` with `regex` over `text` on a
    /// worker thread (then measuring how its steps grow, as [`DebugView::record`]); `waker`
    /// is called when the trace is ready for [`DebugView::poll`]. Until then the view has no
    /// trace and [`DebugView::recording`] is true; a newer recording replaces this one (the
    /// old worker's answer is dropped).
    pub fn start_recording(
        &mut self,
        regex: Arc<crate::Regex>,
        text: Arc<String>,
        start: usize,
        key: TraceKey,
        waker: crate::workbench::matching::SharedWaker,
    ) {
        self.begin(key.clone());
        self.trace = None;
        self.error = None;
        let (tx, rx) = std::sync::mpsc::channel();
        let growth = Arc::clone(&self.growth);
        let spawned = std::thread::Builder::new()
            .name("rxw-debug-trace".into())
            .spawn(move || {
                trace_and_measure(&regex, &text, start, &growth, |trace| {
                    if tx.send(trace).is_ok() {
                        waker.wake();
                    }
                });
            });
        match spawned {
            Ok(_) => self.recording = Some(Recording { key, reply: rx }),
            Err(e) => self.error = Some(format!("cannot start recording the trace: {e}")),
        }
    }

    /// Whether a trace is being recorded on the worker.
    pub fn recording(&self) -> bool {
        self.recording.is_some()
    }

    /// Takes in the trace the worker recorded, if it is ready; returns whether it was.
    pub fn poll(&mut self) -> bool {
        let Some(rec) = &self.recording else {
            return false;
        };
        let trace = match rec.reply.try_recv() {
            Ok(trace) => trace,
            Err(TryRecvError::Empty) => return false,
            Err(TryRecvError::Disconnected) => Err("the trace recorder stopped".into()),
        };
        let rec = self.recording.take();
        if rec.is_some_and(|r| Some(&r.key) == self.key.as_ref()) {
            self.install(trace);
        }
        true
    }

    /// Forgets the trace for a new one, recorded for `key`.
    fn begin(&mut self, key: TraceKey) {
        self.key = Some(key);
        self.cursor = 0;
        self.note = None;
        self.recording = None;
        self.growth = Arc::new(Mutex::new(None));
    }

    fn install(&mut self, trace: Result<Trace, String>) {
        match trace {
            Ok(t) => {
                self.heat_max = t.per_pos.values().copied().max().unwrap_or(0);
                self.trace = Some(Arc::new(t));
                self.error = None;
            }
            Err(e) => {
                self.trace = None;
                self.error = Some(e);
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

    /// Applies a move, running to one of `breakpoints` for [`DebugMove::ToBreakpoint`];
    /// returns false when nothing matched it (no further backtrack, say).
    pub fn apply(&mut self, m: DebugMove, breakpoints: &[Span]) -> bool {
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
                let bps = breakpoints;
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
                    DebugMove::ToBreakpoint if breakpoints.is_empty() => {
                        "no breakpoint: set one on a node in the Explain tab (b)".into()
                    }
                    DebugMove::ToBreakpoint => "no breakpoint reached after this step".into(),
                    _ => String::new(),
                });
                false
            }
        }
    }

    /// Steps per input position for the heatmap, and the largest count.
    pub fn heat(&self) -> Option<(&std::collections::HashMap<usize, u64>, u64)> {
        let t = self.trace.as_ref()?;
        (self.heat_max > 0).then_some((&t.per_pos, self.heat_max))
    }
}

/// The Debug tab.
#[derive(Debug, Default)]
pub struct DebugTab {
    /// The recorded trace and the cursor in it.
    pub view: DebugView,
    /// How the traced search ended ([`crate::wire::DebugVerdict`], as `rxw debug` says it),
    /// and the trace it was worked out for.
    verdict: Option<(Arc<Trace>, crate::wire::DebugVerdict)>,
}

impl DebugTab {
    /// Records the trace when what it traces has changed (or always, with `force`): one search
    /// from the selected match, or from the input cursor when there is no match.
    fn ensure_trace(&mut self, force: bool, cx: &mut TabCx) {
        let wb = &*cx.wb;
        let Some(regex) = wb.compiled().ok().cloned() else {
            self.view.trace = None;
            self.view.error = Some("the pattern does not compile".into());
            cx.shared.trace = None;
            return;
        };
        if wb.input.is_paged() {
            // A trace records positions in the whole text, which a paged input does not hold.
            self.view.trace = None;
            self.view.error = Some(
                "the debugger runs on inputs held in memory: pipe a part in (head -c 10M FILE | rxw)"
                    .into(),
            );
            cx.shared.trace = None;
            return;
        }
        let start = match wb.results.spans.get(cx.selected) {
            Some(&(s, _)) => s,
            None => {
                let input = &wb.input;
                let (line, col) = input.cursor_position();
                let range = input.line_range(line.min(input.line_count().saturating_sub(1)));
                let text = input.slice(range.clone());
                range.start + text.char_indices().nth(col).map_or(text.len(), |(b, _)| b)
            }
        };
        let key = TraceKey {
            generation: wb.results.generation,
            pattern: wb.pattern.text().to_string(),
            start,
        };
        if !force && self.view.key.as_ref() == Some(&key) {
            return;
        }
        // In memory: a paged input returned above.
        let Some(text) = wb.input.shared().memory().cloned() else {
            return;
        };
        self.view
            .start_recording(regex, text, start, key, wb.waker());
        cx.shared.trace = None;
    }

    /// "steps grow exponential with the input · caused by (a+)+", once the worker has measured it.
    fn growth_line(&self, cx: &DrawCx, pattern: &str) -> Option<String> {
        let g = self.view.growth.lock().ok()?;
        let g = g.as_ref()?;
        let class = g.class?;
        let analysis = cx.wb.analysis();
        let culprits: Vec<&str> = analysis
            .lints()
            .iter()
            .filter(|l| l.code == "nested-quantifier")
            .filter_map(|l| l.span)
            .filter_map(|s| pattern.get(s.start..s.end))
            .collect();
        let degree = g
            .degree
            .filter(|d| *d > 1)
            .map(|d| format!(" (degree {d})"))
            .unwrap_or_default();
        let cause = if culprits.is_empty() {
            String::new()
        } else {
            format!(" · caused by {}", culprits.join(", "))
        };
        Some(format!(
            "steps grow {}{degree} with the input{cause}",
            class.name()
        ))
    }
}

impl Tab for DebugTab {
    super::face!("Debug", KEYS, Tab);

    fn update(&mut self, action: &Action, cx: &mut TabCx) -> Handled {
        let Action::Tab(c) = action else {
            // Edits do nothing here: the keys are the tab's own commands.
            return Handled::NotConsumed;
        };
        match move_of(*c) {
            Some(DebugMove::Retrace) => self.ensure_trace(true, cx),
            Some(_) if self.view.recording() => {
                // The keys are answered at once: a move waits for no trace.
                self.view.note = Some("recording the trace…".into());
            }
            Some(m) => {
                self.ensure_trace(false, cx);
                self.view.apply(m, &cx.wb.breakpoints);
            }
            None => return Handled::NotConsumed,
        }
        Handled::Consumed
    }

    fn poll(&mut self, cx: &mut TabCx) -> bool {
        let took = self.view.poll();
        if took {
            cx.shared.trace = self.view.trace.clone();
        }
        // The verdict of a trace newly in (recorded here or on the worker).
        let stale = match (&self.view.trace, &self.verdict) {
            (Some(t), Some((v, _))) => !Arc::ptr_eq(t, v),
            (Some(_), None) => true,
            (None, _) => false,
        };
        if stale
            && let (Some(t), Ok(re), Some(text)) = (
                &self.view.trace,
                cx.wb.compiled(),
                cx.wb.input.shared().memory().cloned(),
            )
        {
            let pattern = cx.wb.pattern.text().to_string();
            let v = crate::wire::DebugVerdict::of(re, &pattern, &text, t);
            self.verdict = Some((Arc::clone(t), v));
            return true;
        }
        took
    }

    fn busy(&self) -> bool {
        self.view.recording()
    }

    fn on_event(&mut self, event: TabEvent, cx: &mut TabCx) {
        if event == TabEvent::Shown {
            self.ensure_trace(false, cx);
        }
    }

    fn pattern_mark(&self, _cx: &DrawCx) -> Option<Span> {
        // The step's instruction.
        self.view.current().map(|s| s.span)
    }

    fn input_marks(&self) -> InputMarks<'_> {
        InputMarks {
            position: self.view.current().map(|s| s.pos),
            heat: self.view.heat(),
        }
    }

    fn status(&self) -> Option<String> {
        if self.view.recording() {
            return Some(" recording the trace… ".into());
        }
        let t = self.view.trace.as_ref()?;
        Some(format!(
            " step {} / {} · this match {} steps ",
            self.view.cursor + 1,
            t.steps.len(),
            thousands(t.total_steps)
        ))
    }

    fn draw(&self, f: &mut Frame, area: Rect, cx: &DrawCx) {
        let p = cx.palette;
        let d = &self.view;
        let w = area.width as usize;
        let mut lines: Vec<Line> = Vec::new();
        let Some(t) = &d.trace else {
            let msg = match (&d.error, d.recording()) {
                (_, true) => Some("recording the trace…".to_string()),
                (e, false) => e.clone(),
            };
            let msg = msg.unwrap_or_else(|| {
                "no trace yet: pick a match (Matches tab) or place the input cursor, then show this tab"
                    .into()
            });
            lines.push(Line::from(TextSpan::styled(
                clip(&msg, w),
                chrome(Chrome::Dim, p),
            )));
            f.render_widget(Paragraph::new(lines), area);
            return;
        };
        let pattern = cx.wb.pattern.text();
        let Some(cur) = t.steps.get(d.cursor) else {
            lines.push(Line::from(TextSpan::styled(
                "the search took no step",
                chrome(Chrome::Dim, p),
            )));
            f.render_widget(Paragraph::new(lines), area);
            return;
        };
        let end = match (&t.stopped, t.truncated) {
            (Some(e), _) => format!(" · stopped: {}", e.message),
            (None, true) => format!(
                " · {} steps taken, first {} recorded",
                t.total_steps,
                t.steps.len()
            ),
            (None, false) => String::new(),
        };
        let unit = t.unit.name();
        let header = format!(
            "step {} / {} · at {} ({unit}) · depth {}{end}",
            d.cursor + 1,
            t.steps.len(),
            cur.unit_pos,
            cur.depth
        );
        lines.push(Line::from(TextSpan::styled(
            clip(&header, w),
            style(Kind::Name, p),
        )));
        // What the step tried and how it went.
        let failed = cur.outcome == Some(StepOutcome::Failed);
        lines.push(Line::from(TextSpan::styled(
            clip(&said(cur), w),
            style(if failed { Kind::Error } else { Kind::Name }, p),
        )));
        if let Some((v_for, v)) = &self.verdict
            && Arc::ptr_eq(v_for, t)
        {
            let kind = if v.matched { Kind::Match } else { Kind::Error };
            for l in crate::tui::text::wrap(&v.text, w) {
                lines.push(Line::from(TextSpan::styled(l, style(kind, p))));
            }
        }
        let caps: Vec<String> = cur
            .captures
            .iter()
            .enumerate()
            .skip(1)
            .map(|(k, c)| match c {
                Some([s, e]) => format!("{k}={:?}", cx.wb.input.slice(*s..*e)),
                None => format!("{k}=∅"),
            })
            .collect();
        let caps = if caps.is_empty() {
            "no groups".to_string()
        } else {
            caps.join("  ")
        };
        lines.push(Line::from(TextSpan::styled(
            clip(&format!("captures: {caps}"), w),
            chrome(Chrome::Dim, p),
        )));
        let note = d.note.clone().unwrap_or_else(|| {
            let bps = cx.wb.breakpoints.len();
            format!(
                "→/n next  ←/p back  b/B backtrack  c breakpoint ({bps} set)  Home/End  r retrace"
            )
        });
        lines.push(Line::from(TextSpan::styled(
            clip(&note, w),
            chrome(Chrome::Dim, p),
        )));
        if let Some(line) = self.growth_line(cx, pattern) {
            lines.push(Line::from(TextSpan::styled(
                clip(&line, w),
                style(Kind::Error, p),
            )));
        }
        // The steps around the current one, under their column names when there is room
        // for a step besides: a failing step is marked ✗ and drawn in the error colour.
        let mut rows = (area.height as usize).saturating_sub(lines.len());
        if rows >= 2 {
            let names = format!(
                "{:>6}   {:<12} {:>6} {:<4} what it tried: what happened (pos in {unit})",
                "step", "pattern", "pos", "d"
            );
            lines.push(Line::from(TextSpan::styled(
                clip(&names, w),
                chrome(Chrome::Dim, p),
            )));
            rows -= 1;
        }
        let first = d.cursor.saturating_sub(rows / 2);
        for (i, s) in t.steps.iter().enumerate().skip(first).take(rows) {
            let piece = pattern.get(s.span.start..s.span.end).unwrap_or("");
            let text = format!(
                "{:>6} {} {:<12} {:>6} d{:<3} {}",
                i + 1,
                mark(s),
                crate::tui::text::clip(piece, 12),
                s.unit_pos,
                s.depth,
                said_briefly(s)
            );
            let st = if i == d.cursor {
                style(Kind::Match, p)
            } else if s.outcome == Some(StepOutcome::Failed) {
                style(Kind::Error, p)
            } else if s.backtrack {
                style(Kind::Warning, p)
            } else {
                ratatui::style::Style::new()
            };
            lines.push(Line::from(TextSpan::styled(clip(&text, w), st)));
        }
        f.render_widget(Paragraph::new(lines), area);
    }
}

/// A step's mark: ✓ succeeded, ✗ failed, · the run stopped at it.
fn mark(s: &TraceStep) -> char {
    match s.outcome {
        Some(StepOutcome::Succeeded) => '✓',
        Some(StepOutcome::Failed) => '✗',
        None => '·',
    }
}

/// What a step tried and how it went, in a sentence: `✗ try `b`: failed, found `c``.
fn said(s: &TraceStep) -> String {
    let how = match (s.outcome, &s.result) {
        (Some(StepOutcome::Failed), Some(r)) => format!(": failed, {r}"),
        (Some(StepOutcome::Failed), None) => ": failed".into(),
        (Some(StepOutcome::Succeeded), Some(r)) => format!(": {r}"),
        (Some(StepOutcome::Succeeded), None) => ": ok".into(),
        (None, _) => ": the run stopped here".into(),
    };
    format!("{} {}{how}", mark(s), s.action)
}

/// [`said`] without the mark (the row has its own column for it).
fn said_briefly(s: &TraceStep) -> String {
    match (s.outcome, &s.result) {
        (Some(StepOutcome::Failed), Some(r)) => format!("{}: failed, {r}", s.action),
        (Some(StepOutcome::Failed), None) => format!("{}: failed", s.action),
        (_, Some(r)) => format!("{}: {r}", s.action),
        (_, None) => s.action.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Flags, Flavor, Regex};

    fn view(p: &str, text: &str) -> DebugView {
        let re = std::sync::Arc::new(Regex::new(p, Flavor::PYTHON, Flags::default()).unwrap());
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
        assert!(v.apply(DebugMove::NextBacktrack, &[]));
        assert!(v.current().unwrap().backtrack);
        let at = v.cursor;
        v.apply(DebugMove::Step(-1), &[]);
        assert_eq!(v.cursor, at - 1);
        v.apply(DebugMove::Last, &[]);
        assert_eq!(v.current().unwrap().op, "match");
        assert!(!v.apply(DebugMove::NextBacktrack, &[]));
        assert!(v.note.is_some());
        v.apply(DebugMove::Step(-1_000_000), &[]);
        assert_eq!(v.cursor, 0);
    }

    #[test]
    fn breakpoints_stop_on_their_node() {
        let mut v = view("(a|ab)(c|bcd)(d*)", "abcd");
        assert!(!v.apply(DebugMove::ToBreakpoint, &[]));
        let bps = [Span::new(14, 17)]; // (d*)
        assert!(v.apply(DebugMove::ToBreakpoint, &bps));
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
