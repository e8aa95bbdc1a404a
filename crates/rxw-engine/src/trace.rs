//! How a pattern runs: a recorded trace of the matcher's steps, per-node and per-position step
//! counts, and how the steps grow with the input (linear, polynomial, exponential).
//!
//! Everything here stands on the matcher's observer ([`super::vm::Observer`]): a trace is the
//! matcher's own run, in the flavor's own backtracking order.

use super::vm::{self, Inst, Observer, Step};
use super::{Match, Regex};
use rxw_syntax::Span;
use rxw_syntax::error::Error;
use serde::Serialize;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// One recorded step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TraceStep {
    /// 0-based step number within the trace.
    pub step: u64,
    /// What the instruction does, in a word or two (`char`, `split`, `save`, `backtrack`…).
    pub op: String,
    /// The pattern bytes the instruction came from.
    pub span: Span,
    /// Index of the instruction in the program.
    pub pc: u32,
    /// The input position (byte offset).
    pub pos: usize,
    /// Open choice points (how many places the matcher can still go back to).
    pub depth: usize,
    /// True when this step resumes after a failure.
    pub backtrack: bool,
    /// Captures so far: `[start, end]` byte offsets per group (group 0 first), `null` unset.
    pub captures: Vec<Option<[usize; 2]>>,
}

/// A recorded run: every match of the pattern over a text, with its steps.
#[derive(Debug, Clone)]
pub struct Trace {
    /// The steps, at most the requested number.
    pub steps: Vec<TraceStep>,
    /// Steps taken in all (also those past the recorded ones).
    pub total_steps: u64,
    /// True when the trace holds fewer steps than were taken (`max_steps`), or the run stopped
    /// at the step budget.
    pub truncated: bool,
    /// The matches found, in order.
    pub matches: Vec<Match>,
    /// Steps taken for each match (the search that found it, failed start positions before
    /// it included).
    pub per_match: Vec<u64>,
    /// Where the trace step of each match's end is (`steps` index), when it was recorded.
    pub match_steps: Vec<Option<u64>>,
    /// Steps per instruction (index = pc).
    pub per_pc: Vec<u64>,
    /// Steps per input position (byte offset; the end of the text included). Sparse: a trace
    /// over a gigabyte log costs what it visits, not eight bytes per byte of text.
    pub per_pos: HashMap<usize, u64>,
    /// True when more than [`MAX_TRACKED_POSITIONS`] positions were visited: steps at the
    /// positions first visited past that many are not in `per_pos` (they are in every other
    /// count).
    pub positions_capped: bool,
    /// The error that stopped the run (the step budget), if any.
    pub stopped: Option<Error>,
}

/// The most input positions a trace counts steps for (about 40 MB of counters): past them,
/// steps at newly visited positions are counted in the totals only.
pub const MAX_TRACKED_POSITIONS: usize = 1 << 20;

struct Recorder {
    max_steps: usize,
    steps: Vec<TraceStep>,
    total: u64,
    per_pc: Vec<u64>,
    per_pos: HashMap<usize, u64>,
    positions_capped: bool,
    ops: Vec<&'static str>,
    spans: Vec<Span>,
    /// Maps matcher positions (UTF-16 units when the text is in code units) to bytes.
    unit_to_byte: Option<Vec<usize>>,
}

impl Recorder {
    fn new(prog: &vm::Program, text: &str, max_steps: usize) -> Recorder {
        // JS without `u` on astral text runs on code units: map them back to bytes.
        let astral = prog.code_units && text.bytes().any(|b| b >= 0xF0);
        let unit_to_byte = astral.then(|| {
            let mut map = Vec::with_capacity(text.len() + 1);
            for (b, c) in text.char_indices() {
                map.push(b);
                if c.len_utf16() == 2 {
                    map.push(b);
                }
            }
            map.push(text.len());
            map
        });
        Recorder {
            max_steps,
            steps: Vec::new(),
            total: 0,
            per_pc: vec![0; prog.insts.len()],
            per_pos: HashMap::new(),
            positions_capped: false,
            ops: prog.insts.iter().map(op_name).collect(),
            spans: prog.spans.clone(),
            unit_to_byte,
        }
    }
}

impl Observer for Recorder {
    const ACTIVE: bool = true;

    fn step(&mut self, s: &Step<'_>) {
        let pos = match &self.unit_to_byte {
            Some(map) => map.get(s.pos).copied().unwrap_or(s.pos),
            None => s.pos,
        };
        self.total += 1;
        if let Some(c) = self.per_pc.get_mut(s.pc as usize) {
            *c += 1;
        }
        // Sparse and capped: a run over a large text costs what it visits, up to a bound.
        if let Some(n) = self.per_pos.get_mut(&pos) {
            *n += 1;
        } else if self.per_pos.len() < MAX_TRACKED_POSITIONS {
            self.per_pos.insert(pos, 1);
        } else {
            self.positions_capped = true;
        }
        if self.steps.len() < self.max_steps {
            let map = |v: usize| match &self.unit_to_byte {
                Some(m) => m.get(v).copied().unwrap_or(v),
                None => v,
            };
            let captures = s
                .slots
                .chunks(2)
                .map(|p| {
                    (p[0] != vm::exec::UNSET && p[1] != vm::exec::UNSET)
                        .then(|| [map(p[0]), map(p[1])])
                })
                .collect();
            self.steps.push(TraceStep {
                step: self.steps.len() as u64,
                op: if s.backtrack {
                    format!("backtrack to {}", self.ops[s.pc as usize])
                } else {
                    self.ops[s.pc as usize].to_string()
                },
                span: self.spans[s.pc as usize],
                pc: s.pc,
                pos,
                depth: s.depth,
                backtrack: s.backtrack,
                captures,
            });
        }
    }
}

fn op_name(inst: &Inst) -> &'static str {
    match inst {
        Inst::Consume { back: false, .. } => "char",
        Inst::Consume { back: true, .. } => "char (right to left)",
        Inst::RepeatOne { greedy: true, .. } => "repeat char (greedy)",
        Inst::RepeatOne { greedy: false, .. } => "repeat char (lazy)",
        Inst::Assert(_) => "assert",
        Inst::Split { .. } => "split",
        Inst::Jump(_) => "jump",
        Inst::Save(s) if s % 2 == 0 => "group start",
        Inst::Save(_) => "group end",
        Inst::ClearSlots { .. } => "reset captures",
        Inst::LoopInit { .. } => "loop start",
        Inst::LoopHead { .. } => "loop: again?",
        Inst::LoopIter { .. } => "loop: iteration",
        Inst::LoopEnd { .. } => "loop: iteration end",
        Inst::Backref { .. } => "backreference",
        Inst::LookStart {
            negative: false, ..
        } => "look-around",
        Inst::LookStart { negative: true, .. } => "negative look-around",
        Inst::LookEnd => "look-around end",
        Inst::AtomicStart => "atomic start",
        Inst::AtomicEnd => "atomic end",
        Inst::IfGroup { .. } => "if group",
        Inst::Match => "match",
    }
}

/// Options of a traced run.
#[derive(Debug, Clone, Copy)]
pub struct TraceOptions {
    /// Steps recorded at most (the run goes on, counting).
    pub max_steps: usize,
    /// Matches at most.
    pub max_matches: usize,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            max_steps: 10_000,
            max_matches: 1_000,
        }
    }
}

impl Regex {
    /// Runs the pattern over `text` on the matcher, recording its steps, with the flavor's
    /// iteration rules (Python's retry of an empty match's position, JS's advance by one).
    ///
    /// # Errors
    /// The pattern cannot run on the matcher (it compiles for the matcher whatever engine
    /// ordinarily runs it, so this is rare: an unknown property, say).
    pub fn trace(&self, text: &str, options: TraceOptions) -> Result<Trace, Error> {
        let mut rec = Recorder::new(self.program()?, text, options.max_steps);
        let mut matches = Vec::new();
        let mut per_match = Vec::new();
        let mut match_steps = Vec::new();
        let mut stopped = None;
        let mut pos = 0usize;
        let mut not_empty_at: Option<usize> = None;
        let mut last_end: Option<usize> = None;
        let python = self.flavor().is_python();
        let sticky = self.flavor().is_js() && self.flags().sticky;
        while pos <= text.len() && matches.len() < options.max_matches {
            let before = rec.total;
            match self.search_observed(text, pos, not_empty_at, &mut rec) {
                Ok((Some(m), _)) => {
                    let (s, e) = (m.start(), m.end());
                    if sticky && s != pos {
                        break;
                    }
                    if self.flavor().is_rust() && s == e && last_end == Some(e) {
                        pos = next_char(text, e);
                        continue;
                    }
                    per_match.push(rec.total - before);
                    match_steps.push(
                        (rec.steps.len() as u64 == rec.total.min(options.max_steps as u64))
                            .then(|| rec.steps.len().saturating_sub(1) as u64),
                    );
                    last_end = Some(e);
                    if python {
                        pos = e;
                        not_empty_at = (s == e).then_some(e);
                    } else {
                        pos = if s == e { next_char(text, e) } else { e };
                    }
                    matches.push(m);
                    if pos > text.len() {
                        break;
                    }
                }
                Ok((None, _)) => break,
                Err(e) => {
                    stopped = Some(e);
                    break;
                }
            }
        }
        let truncated = stopped.is_some() || rec.total > rec.steps.len() as u64;
        Ok(Trace {
            total_steps: rec.total,
            truncated,
            steps: rec.steps,
            matches,
            per_match,
            match_steps,
            per_pc: rec.per_pc,
            per_pos: rec.per_pos,
            positions_capped: rec.positions_capped,
            stopped,
        })
    }

    /// Records one search that starts at byte `start` (the debugger's "step through this
    /// match"): with `anchored`, only an attempt at `start`; otherwise the search moves on
    /// until it finds a match, the text ends, or `time` passes.
    ///
    /// # Errors
    /// As for [`Regex::trace`].
    pub fn trace_search(
        &self,
        text: &str,
        start: usize,
        max_steps: usize,
        time: Duration,
    ) -> Result<Trace, Error> {
        let mut rec = Recorder::new(self.program()?, text, max_steps);
        let deadline = Instant::now() + time;
        let (found, stopped) = match self.search_observed_until(text, start, deadline, &mut rec) {
            Ok(m) => (m, None),
            Err(e) => (None, Some(e)),
        };
        let truncated = stopped.is_some() || rec.total > rec.steps.len() as u64;
        let found: Vec<Match> = found.into_iter().collect();
        Ok(Trace {
            total_steps: rec.total,
            truncated,
            per_match: found.iter().map(|_| rec.total).collect(),
            match_steps: found
                .iter()
                .map(|_| (!truncated).then(|| rec.steps.len().saturating_sub(1) as u64))
                .collect(),
            matches: found,
            steps: rec.steps,
            per_pc: rec.per_pc,
            per_pos: rec.per_pos,
            positions_capped: rec.positions_capped,
            stopped,
        })
    }

    /// Steps a full run over `text` takes, counting only (no recording), stopping early past
    /// `cap` steps. `None` when the budget stopped a search attempt.
    fn steps_over(&self, text: &str, cap: u64) -> Option<u64> {
        struct Counter(u64, u64);
        impl Observer for Counter {
            const ACTIVE: bool = true;
            fn step(&mut self, _s: &Step<'_>) {
                self.0 += 1;
            }
        }
        let mut c = Counter(0, cap);
        let mut pos = 0;
        let mut not_empty_at = None;
        let python = self.flavor().is_python();
        while pos <= text.len() {
            match self.search_observed(text, pos, not_empty_at, &mut c) {
                Ok((Some(m), _)) => {
                    let (s, e) = (m.start(), m.end());
                    if python {
                        pos = e;
                        not_empty_at = (s == e).then_some(e);
                    } else {
                        pos = if s == e { next_char(text, e) } else { e };
                    }
                }
                Ok((None, _)) => break,
                Err(_) => return None,
            }
            if c.0 > c.1 {
                return None;
            }
        }
        Some(c.0)
    }

    /// How the matcher's steps grow with the input: the pattern is run on growing prefixes of
    /// `text` (bounded by `time`), and the growth of the step counts is classified.
    pub fn growth(&self, text: &str, time: Duration) -> Growth {
        let started = Instant::now();
        let mut sizes: Vec<usize> = Vec::new();
        let mut n = 2usize;
        while n < text.len() {
            sizes.push(n);
            n = (n * 3).div_ceil(2);
        }
        sizes.push(text.len());
        let mut points: Vec<(usize, u64)> = Vec::new();
        let mut capped_at = None;
        for &len in &sizes {
            if started.elapsed() > time {
                break;
            }
            let mut cut = len.min(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let prefix = &text[..cut];
            match self.steps_over(prefix, self.backtrack_limit() as u64) {
                Some(s) => points.push((prefix.chars().count().max(1), s.max(1))),
                None => {
                    capped_at = Some(prefix.chars().count());
                    break;
                }
            }
        }
        classify(&points, capped_at)
    }
}

fn next_char(text: &str, at: usize) -> usize {
    at + text[at..].chars().next().map_or(1, char::len_utf8)
}

/// How steps grow with the input length.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Growth {
    /// `linear`, `polynomial` or `exponential`; `None` when there were too few measurements.
    pub class: Option<GrowthClass>,
    /// The polynomial degree (1 for linear), when polynomial or linear.
    pub degree: Option<u32>,
    /// The measurements: (input length in characters, steps).
    pub points: Vec<(usize, u64)>,
    /// The input length at which one search attempt hit the step budget, if it did.
    pub budget_hit_at: Option<usize>,
}

/// A growth class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GrowthClass {
    /// Steps proportional to the input.
    Linear,
    /// Steps proportional to a power of the input.
    Polynomial,
    /// Steps multiply with each added character.
    Exponential,
}

impl GrowthClass {
    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            GrowthClass::Linear => "linear",
            GrowthClass::Polynomial => "polynomial",
            GrowthClass::Exponential => "exponential",
        }
    }
}

/// Classifies step counts measured on growing inputs. Local degrees `ln(s2/s1) / ln(n2/n1)`
/// stay near a constant k for a polynomial of degree k and keep rising for an exponential.
fn classify(points: &[(usize, u64)], capped_at: Option<usize>) -> Growth {
    let significant: Vec<(usize, u64)> = points
        .iter()
        .copied()
        .filter(|&(n, s)| s >= 32 && n >= 4)
        .collect();
    let degrees: Vec<f64> = significant
        .windows(2)
        .filter(|w| w[1].0 > w[0].0)
        .map(|w| (w[1].1 as f64 / w[0].1 as f64).ln() / (w[1].0 as f64 / w[0].0 as f64).ln())
        .collect();
    let growth = |class, degree| Growth {
        class,
        degree,
        points: points.to_vec(),
        budget_hit_at: capped_at,
    };
    // An attempt that hits a million-step budget on a short input is exponential.
    if let Some(n) = capped_at
        && n <= 200
    {
        return growth(Some(GrowthClass::Exponential), None);
    }
    if degrees.len() < 2 {
        return match (capped_at, degrees.first()) {
            (Some(_), _) => growth(Some(GrowthClass::Polynomial), None),
            (None, Some(&d)) if d < 1.5 => growth(Some(GrowthClass::Linear), Some(1)),
            _ => growth(None, None),
        };
    }
    let tail: Vec<f64> = degrees.iter().rev().take(3).copied().collect();
    let last = tail[0];
    let rising = degrees.windows(2).filter(|w| w[1] > w[0] + 0.25).count() * 2 > degrees.len();
    if last > 6.0 || (rising && last > 3.0) {
        return growth(Some(GrowthClass::Exponential), None);
    }
    let mut sorted = tail.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let degree = median.round().max(1.0) as u32;
    if degree <= 1 {
        growth(Some(GrowthClass::Linear), Some(1))
    } else {
        growth(Some(GrowthClass::Polynomial), Some(degree))
    }
}

/// Steps per pattern span: the instructions' counts folded onto the spans they came from,
/// hottest first.
pub fn hot_spans(re: &Regex, trace: &Trace) -> Vec<(Span, u64)> {
    let Ok(prog) = re.program() else {
        return Vec::new();
    };
    let mut by_span: std::collections::HashMap<Span, u64> = std::collections::HashMap::new();
    for (pc, &n) in trace.per_pc.iter().enumerate() {
        if n > 0 {
            *by_span.entry(prog.spans[pc]).or_default() += n;
        }
    }
    let mut v: Vec<(Span, u64)> = by_span.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.start.cmp(&b.0.start)));
    v
}

/// The positions with the most steps, hottest first.
pub fn hot_positions(trace: &Trace, n: usize) -> Vec<(usize, u64)> {
    let mut v: Vec<(usize, u64)> = trace.per_pos.iter().map(|(p, c)| (*p, *c)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxw_syntax::flavor::{Flags, Flavor};

    fn re(p: &str, flavor: Flavor) -> Regex {
        Regex::new(p, flavor, Flags::default()).unwrap()
    }

    #[test]
    fn python_trace_ends_on_cpythons_match() {
        let r = re("(a|ab)(c|bcd)(d*)", Flavor::PYTHON);
        let t = r.trace("abcd", TraceOptions::default()).unwrap();
        let m = &t.matches[0];
        assert_eq!(
            m.groups,
            vec![Some((0, 4)), Some((0, 1)), Some((1, 4)), Some((4, 4))]
        );
        assert!(!t.truncated);
        assert_eq!(t.steps.len() as u64, t.total_steps);
        assert!(t.steps.iter().any(|s| s.backtrack));
    }

    #[test]
    fn the_step_count_per_position_is_capped_and_says_so() {
        // Regression: a trace over a 5 MB text kept a counter per position visited (230 MB).
        let text = "a".repeat(MAX_TRACKED_POSITIONS + 1000);
        let t = re("(?<=b)z", Flavor::PYTHON)
            .trace(&text, TraceOptions::default())
            .unwrap();
        assert!(t.positions_capped);
        assert_eq!(t.per_pos.len(), MAX_TRACKED_POSITIONS);
        assert!(t.total_steps > 3 * MAX_TRACKED_POSITIONS as u64);
        let t = re("(?<=b)z", Flavor::PYTHON)
            .trace("aaa", TraceOptions::default())
            .unwrap();
        assert!(!t.positions_capped);
    }

    #[test]
    fn trace_is_cut_at_max_steps_and_says_so() {
        let r = re(r"(\w+)\s\1", Flavor::PYTHON);
        let t = r
            .trace(
                "abc abd abc abc",
                TraceOptions {
                    max_steps: 10,
                    max_matches: 100,
                },
            )
            .unwrap();
        assert_eq!(t.steps.len(), 10);
        assert!(t.truncated && t.total_steps > 10);
    }

    #[test]
    fn growth_classes() {
        let exp = re("(a+)+b", Flavor::PYTHON);
        let text = format!("{}c", "a".repeat(40));
        let g = exp.growth(&text, Duration::from_secs(2));
        assert_eq!(g.class, Some(GrowthClass::Exponential), "{g:?}");
        let lin = re(r"\d+", Flavor::PYTHON);
        let text = "12 ab 345 ".repeat(400);
        let g = lin.growth(&text, Duration::from_secs(2));
        assert_eq!(g.class, Some(GrowthClass::Linear), "{g:?}");
        let quad = re(r"a*a*b", Flavor::JS);
        let text = "a".repeat(600);
        let g = quad.growth(&text, Duration::from_secs(2));
        assert_eq!(g.class, Some(GrowthClass::Polynomial), "{g:?}");
    }
}
