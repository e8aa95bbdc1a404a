//! How a pattern runs: a recorded trace of the matcher's steps, per-node and per-position step
//! counts, and how the steps grow with the input (linear, polynomial, exponential).
//!
//! Everything here stands on the matcher's observer ([`super::vm::Observer`]): a trace is the
//! matcher's own run, in the flavor's own backtracking order.

use super::vm::{self, Inst, LoopRule, Observer, Resumed, Step};
use super::{Match, Regex};
use rxw_syntax::Span;
use rxw_syntax::error::Error;
use rxw_syntax::release::OffsetUnit;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
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
    /// `pos` in the flavor's own unit (code points for Python, UTF-16 units for JavaScript,
    /// bytes for Rust, Go and RE2), the unit the verdict names.
    pub unit_pos: usize,
    /// What the step tried, in words: ``try `b` ``, ``give back one `a`, then try `b` ``,
    /// `retry from position 3` (positions in the flavor's unit).
    pub action: String,
    /// How it went; `None` when the run stopped at this step (the step budget or the time).
    pub outcome: Option<StepOutcome>,
    /// What happened, when there is more to say than the outcome: ``took 3 (`aaa`)``,
    /// ``found `c` ``, `the text ends here`.
    pub result: Option<String>,
    /// With `backtrack`, the choice point the step resumes: `next_alternative`,
    /// `stop_repeating`, `one_more_iteration`, `give_back`, `lazy_extend` or
    /// `look_around_holds`.
    pub resume: Option<&'static str>,
}

/// How a recorded step went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StepOutcome {
    /// The instruction did what it tried (a character matched, a group opened, …).
    Succeeded,
    /// It failed: the matcher goes back to its last choice point, or the attempt ends.
    Failed,
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
    /// The unit of each step's `unit_pos`.
    pub unit: OffsetUnit,
}

/// The most input positions a trace counts steps for (about 40 MB of counters): past them,
/// steps at newly visited positions are counted in the totals only.
pub const MAX_TRACKED_POSITIONS: usize = 1 << 20;

/// What resuming an [`Resumed::Alternative`] choice at an instruction means: the program's
/// splits and loop heads push those choices.
#[derive(Debug, Clone, Copy)]
enum AltOrigin {
    /// A split (an alternation) at this pc: its next alternative.
    NextAlternative(u32),
    /// A greedy loop's head at this pc: stop repeating.
    StopRepeating(u32),
    /// A lazy loop's head at this pc: one more iteration.
    OneMoreIteration(u32),
}

/// The recording observer. With `EXPLAIN` (every trace but a bare count) the matcher runs
/// without its give-back shortcut and each step gets its words and its outcome.
struct Recorder<'a, const EXPLAIN: bool> {
    max_steps: usize,
    steps: Vec<TraceStep>,
    total: u64,
    per_pc: Vec<u64>,
    per_pos: HashMap<usize, u64>,
    positions_capped: bool,
    ops: Vec<&'static str>,
    prog: &'a vm::Program,
    text: &'a str,
    pattern: &'a str,
    unit: OffsetUnit,
    /// Byte offsets already counted in `unit` (a step's position is counted from the nearest
    /// one before it, so a trace walks the text about once).
    unit_at: BTreeMap<usize, usize>,
    /// What resuming an alternative choice at a pc means.
    alt_origin: HashMap<u32, AltOrigin>,
    /// Whether the step being run was recorded (its outcome goes to it): its position, in
    /// bytes and as the matcher counts.
    open: Option<(usize, usize)>,
    /// The next attempt is a new search (the first, or after a match), not a retry.
    fresh: bool,
    /// Maps matcher positions (UTF-16 units when the text is in code units) to bytes.
    unit_to_byte: Option<Vec<usize>>,
}

impl<'a, const EXPLAIN: bool> Recorder<'a, EXPLAIN> {
    fn new(
        prog: &'a vm::Program,
        text: &'a str,
        pattern: &'a str,
        unit: OffsetUnit,
        max_steps: usize,
    ) -> Self {
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
        let mut alt_origin = HashMap::new();
        if EXPLAIN {
            for (pc, inst) in prog.insts.iter().enumerate() {
                if let Inst::LoopHead {
                    greedy,
                    iter,
                    exit,
                    rule,
                    ..
                } = inst
                {
                    let pc = pc as u32;
                    let (target, origin) = match (greedy, rule) {
                        (true, _) => (*exit, AltOrigin::StopRepeating(pc)),
                        // sre's lazy loop resumes at the iteration's guard, just before it.
                        (false, LoopRule::Python) => {
                            (iter.saturating_sub(1), AltOrigin::OneMoreIteration(pc))
                        }
                        (false, _) => (*iter, AltOrigin::OneMoreIteration(pc)),
                    };
                    alt_origin.entry(target).or_insert(origin);
                }
            }
            for (pc, inst) in prog.insts.iter().enumerate() {
                if let Inst::Split { second, .. } = inst {
                    alt_origin.insert(*second, AltOrigin::NextAlternative(pc as u32));
                }
            }
        }
        Recorder {
            max_steps,
            steps: Vec::new(),
            total: 0,
            per_pc: vec![0; prog.insts.len()],
            per_pos: HashMap::new(),
            positions_capped: false,
            ops: prog.insts.iter().map(op_name).collect(),
            prog,
            text,
            pattern,
            unit,
            unit_at: BTreeMap::new(),
            alt_origin,
            open: None,
            fresh: true,
            unit_to_byte,
        }
    }

    fn byte(&self, v: usize) -> usize {
        match &self.unit_to_byte {
            Some(m) => m.get(v).copied().unwrap_or(v),
            None => v,
        }
    }

    /// A matcher position in the flavor's unit.
    fn unit_of(&mut self, raw: usize) -> usize {
        if self.unit_to_byte.is_some() {
            // The matcher ran on UTF-16 code units: its positions are the unit.
            return raw;
        }
        if self.unit == OffsetUnit::Bytes {
            return raw;
        }
        let mut b = raw.min(self.text.len());
        while !self.text.is_char_boundary(b) {
            b -= 1;
        }
        if let Some(&u) = self.unit_at.get(&b) {
            return u;
        }
        let (from, base) = self
            .unit_at
            .range(..b)
            .next_back()
            .map_or((0, 0), |(f, u)| (*f, *u));
        let u = base + self.unit.count(&self.text[from..b]);
        self.unit_at.insert(b, u);
        u
    }

    /// A piece of the pattern, quoted and cut short.
    fn piece(&self, span: Span) -> String {
        let p = self
            .pattern
            .get(span.start.min(self.pattern.len())..span.end.min(self.pattern.len()))
            .unwrap_or("");
        quote(p, 24)
    }

    /// The character at byte `at` (after it when `before` is false, before it otherwise).
    fn char_at(&self, at: usize, before: bool) -> Option<char> {
        let at = at.min(self.text.len());
        if before {
            self.text.get(..at)?.chars().next_back()
        } else {
            self.text.get(at..)?.chars().next()
        }
    }

    /// What the instruction at `pc` tries, on its own.
    fn tries(&mut self, pc: u32, raw: usize, backtrack: bool) -> String {
        let span = self.prog.spans[pc as usize];
        let piece = self.piece(span);
        match &self.prog.insts[pc as usize] {
            Inst::Save(0) if pc == 0 && !backtrack => {
                let at = self.unit_of(raw);
                let first = std::mem::replace(&mut self.fresh, false);
                if first {
                    format!("start at position {at}")
                } else {
                    format!("retry from position {at}")
                }
            }
            Inst::Save(0) => "the match starts here".into(),
            Inst::Save(1) => "the match ends here".into(),
            Inst::Save(s) if s % 2 == 0 => format!("open group {}", s / 2),
            Inst::Save(s) => format!("close group {}", s / 2),
            Inst::Consume { back: false, .. } => format!("try {piece}"),
            Inst::Consume { back: true, .. } => format!("try {piece} leftwards"),
            Inst::ConsumeUnit { back: false, .. } => format!("try {piece} on one code unit"),
            Inst::ConsumeUnit { back: true, .. } => {
                format!("try {piece} on one code unit leftwards")
            }
            Inst::RepeatOne { greedy: true, .. } => format!("{piece} takes all it can"),
            Inst::RepeatOne { greedy: false, .. } => format!("{piece} takes the fewest it can"),
            Inst::Assert(_) => format!("check {piece}"),
            Inst::Split { .. } => format!("try the first alternative of {piece}"),
            Inst::Jump(_) => format!("go on past {piece}"),
            Inst::ClearSlots { .. } => format!("reset the captures in {piece}"),
            Inst::LoopInit { .. } => format!("enter the loop {piece}"),
            Inst::LoopHead { .. } => format!("repeat {piece} again?"),
            Inst::LoopIter { .. } => format!("one more iteration of {piece}"),
            Inst::LoopEnd { .. } => format!("an iteration of {piece} ends"),
            Inst::Backref { group, .. } => format!("match group {group}'s text again"),
            Inst::LookStart {
                negative: false, ..
            } => format!("look around {piece}…): it holds if its body matches"),
            Inst::LookStart { negative: true, .. } => {
                format!("look around {piece}…): it holds if its body fails")
            }
            Inst::LookEnd => "the look-around's body matched".into(),
            Inst::AtomicStart => format!("enter the atomic group {piece}"),
            Inst::AtomicEnd => "leave the atomic group, dropping its choices".into(),
            Inst::IfGroup { group, .. } => format!("did group {group} match?"),
            Inst::Match => "the whole pattern matched".into(),
        }
    }

    /// What a resumed step resumed, in words, and its name for the JSON.
    fn resumes(&self, s: &Step<'_>, byte: usize) -> Option<(String, &'static str)> {
        let loop_piece = |rec: &Self| rec.piece(rec.prog.spans[s.pc.saturating_sub(1) as usize]);
        Some(match s.resumed? {
            Resumed::GiveBack => {
                let back = matches!(
                    self.prog.insts.get(s.pc.saturating_sub(1) as usize),
                    Some(Inst::RepeatOne { back: true, .. })
                );
                let c = self.char_at(byte, back);
                let given = c.map_or_else(|| "character".into(), quote_char);
                (format!("give back one {given}"), "give_back")
            }
            Resumed::LazyExtend => (
                format!("extend the lazy {} by one", loop_piece(self)),
                "lazy_extend",
            ),
            Resumed::LookAroundHolds => (
                "the look-around's body failed, so it holds".into(),
                "look_around_holds",
            ),
            Resumed::Alternative => match self.alt_origin.get(&s.pc) {
                Some(AltOrigin::NextAlternative(split)) => (
                    format!(
                        "try the next alternative of {}",
                        self.piece(self.prog.spans[*split as usize])
                    ),
                    "next_alternative",
                ),
                Some(AltOrigin::StopRepeating(head)) => (
                    format!(
                        "stop repeating {}",
                        self.piece(self.prog.spans[*head as usize])
                    ),
                    "stop_repeating",
                ),
                Some(AltOrigin::OneMoreIteration(head)) => (
                    format!(
                        "one more iteration of the lazy {}",
                        self.piece(self.prog.spans[*head as usize])
                    ),
                    "one_more_iteration",
                ),
                None => ("go back to the last choice".into(), "next_alternative"),
            },
        })
    }

    /// What happened at the step at pc `pc` that began at `from` (bytes, and as the matcher
    /// counts) and ended at byte `to`.
    fn result(&self, pc: u32, from: (usize, usize), to: usize, ok: bool) -> Option<String> {
        let (from, raw) = from;
        Some(match (&self.prog.insts[pc as usize], ok) {
            (Inst::Consume { back, .. }, false) => match self.char_at(from, *back) {
                // On UTF-16 code units an astral character is two units, tested one by one.
                Some(c) if c.len_utf16() == 2 && self.unit_to_byte.is_some() => {
                    let first = self.unit_to_byte.as_ref().is_some_and(|m| {
                        let unit = if *back { raw.saturating_sub(1) } else { raw };
                        unit == 0 || m.get(unit - 1) != m.get(unit)
                    });
                    let half = if first { "first" } else { "second" };
                    format!("found the {half} half of {}", quote_char(c))
                }
                Some(c) => format!("found {}", quote_char(c)),
                None if *back => "the text starts here".into(),
                None => "the text ends here".into(),
            },
            (Inst::RepeatOne { back, .. }, true) => {
                let (a, b) = if *back { (to, from) } else { (from, to) };
                let taken = self.text.get(a..b).unwrap_or("");
                match taken.chars().count() {
                    0 => "took none".into(),
                    n => format!("took {n} ({})", quote(taken, 16)),
                }
            }
            (Inst::RepeatOne { min, .. }, false) => format!("fewer than {min} here"),
            (Inst::Assert(_), false) => "it does not hold here".into(),
            (Inst::Backref { group, .. }, false) => {
                format!("the text here is not group {group}'s")
            }
            (Inst::LoopIter { .. }, false) => {
                "no more: the loop's maximum, or its last iteration was empty".into()
            }
            (Inst::LoopEnd { .. }, false) => "an empty iteration is refused here".into(),
            (Inst::LookStart { .. }, false) => "not enough text before it".into(),
            (Inst::LookEnd, false) => "so the negative look-around fails".into(),
            (Inst::LookEnd, true) => "it holds; back to where it began".into(),
            (Inst::Match, false) => "an empty match is not allowed at this position".into(),
            _ => return None,
        })
    }
}

/// `text` in backticks, cut to `max` characters, control characters escaped.
fn quote(text: &str, max: usize) -> String {
    let mut out = String::from("`");
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        push_shown(&mut out, c);
    }
    out.push('`');
    out
}

fn quote_char(c: char) -> String {
    let mut out = String::from("`");
    push_shown(&mut out, c);
    out.push('`');
    out
}

fn push_shown(out: &mut String, c: char) {
    if c.is_control() {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

impl<const EXPLAIN: bool> Observer for Recorder<'_, EXPLAIN> {
    const ACTIVE: bool = true;
    const EXPLAIN: bool = EXPLAIN;

    fn step(&mut self, s: &Step<'_>) {
        let pos = self.byte(s.pos);
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
        self.open = None;
        if self.steps.len() < self.max_steps {
            let captures = s
                .slots
                .chunks(2)
                .map(|p| {
                    (p[0] != vm::exec::UNSET && p[1] != vm::exec::UNSET)
                        .then(|| [self.byte(p[0]), self.byte(p[1])])
                })
                .collect();
            let (action, resume) = if EXPLAIN {
                let tries = self.tries(s.pc, s.pos, s.backtrack);
                match self.resumes(s, pos) {
                    // One more iteration resumes at the iteration's start: said once.
                    Some((what, name @ "one_more_iteration"))
                        if matches!(
                            self.prog.insts.get(s.pc as usize),
                            Some(Inst::LoopIter { .. })
                        ) =>
                    {
                        (what, Some(name))
                    }
                    Some((what, name)) => (format!("{what}, then {tries}"), Some(name)),
                    None => (tries, None),
                }
            } else {
                (String::new(), None)
            };
            let unit_pos = if EXPLAIN { self.unit_of(s.pos) } else { pos };
            self.steps.push(TraceStep {
                step: self.steps.len() as u64,
                op: if s.backtrack {
                    format!("backtrack to {}", self.ops[s.pc as usize])
                } else {
                    self.ops[s.pc as usize].to_string()
                },
                span: self.prog.spans[s.pc as usize],
                pc: s.pc,
                pos,
                depth: s.depth,
                backtrack: s.backtrack,
                captures,
                unit_pos,
                action,
                outcome: None,
                result: None,
                resume,
            });
            self.open = Some((pos, s.pos));
        }
    }

    fn outcome(&mut self, ok: bool, raw: usize) {
        let Some((from, raw_from)) = self.open.take() else {
            // Past the recorded steps nothing more is said.
            return;
        };
        let to = self.byte(raw);
        let Some(last) = self.steps.last() else {
            return;
        };
        let pc = last.pc;
        let result = self.result(pc, (from, raw_from), to, ok);
        if ok && self.prog.insts[pc as usize] == Inst::Match {
            self.fresh = true;
        }
        let last = self.steps.last_mut().expect("the open step");
        last.outcome = Some(if ok {
            StepOutcome::Succeeded
        } else {
            StepOutcome::Failed
        });
        last.result = result;
    }
}

fn op_name(inst: &Inst) -> &'static str {
    match inst {
        Inst::Consume { back: false, .. } => "char",
        Inst::Consume { back: true, .. } => "char (right to left)",
        Inst::ConsumeUnit { back: false, .. } => "code unit",
        Inst::ConsumeUnit { back: true, .. } => "code unit (right to left)",
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
        let unit = self.flavor().offset_unit();
        let mut rec: Recorder<'_, true> = Recorder::new(
            self.program()?,
            text,
            self.pattern(),
            unit,
            options.max_steps,
        );
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
            unit,
        })
    }

    /// Records one search that starts at byte `start` (the debugger's "step through this
    /// match"): with `anchored`, only an attempt at `start`; otherwise the search moves on
    /// until it finds a match, the text ends, or `time` passes.
    ///
    /// Recorded steps are explained ([`TraceStep::action`], [`TraceStep::outcome`]), which
    /// runs the matcher without its give-back shortcut; with `max_steps` 0 nothing is recorded
    /// and the steps are counted as the plain matcher takes them.
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
        if max_steps == 0 {
            let rec: Recorder<'_, false> = self.recorder(text, 0)?;
            return self.trace_search_with(rec, text, start, time);
        }
        let rec: Recorder<'_, true> = self.recorder(text, max_steps)?;
        self.trace_search_with(rec, text, start, time)
    }

    fn recorder<'a, const EXPLAIN: bool>(
        &'a self,
        text: &'a str,
        max_steps: usize,
    ) -> Result<Recorder<'a, EXPLAIN>, Error> {
        Ok(Recorder::new(
            self.program()?,
            text,
            self.pattern(),
            self.flavor().offset_unit(),
            max_steps,
        ))
    }

    fn trace_search_with<const EXPLAIN: bool>(
        &self,
        mut rec: Recorder<'_, EXPLAIN>,
        text: &str,
        start: usize,
        time: Duration,
    ) -> Result<Trace, Error> {
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
            unit: rec.unit,
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

    fn failed(t: &Trace) -> Vec<(&str, usize)> {
        t.steps
            .iter()
            .filter(|s| s.outcome == Some(StepOutcome::Failed))
            .map(|s| (s.action.as_str(), s.unit_pos))
            .collect()
    }

    #[test]
    fn each_give_back_and_each_try_of_the_rest_is_a_step_that_says_how_it_went() {
        let t = re("a+b", Flavor::PYTHON)
            .trace("aaac", TraceOptions::default())
            .unwrap();
        assert!(t.matches.is_empty());
        assert_eq!(
            failed(&t)[..3],
            [
                ("try `b`", 3),
                ("give back one `a`, then try `b`", 2),
                ("give back one `a`, then try `b`", 1),
            ]
        );
        let gave: Vec<_> = t.steps.iter().filter_map(|s| s.resume).collect();
        assert!(gave.iter().all(|r| *r == "give_back"), "{gave:?}");
        assert_eq!(t.steps[2].result.as_deref(), Some("found `c`"));
        assert_eq!(t.steps[1].result.as_deref(), Some("took 3 (`aaa`)"));
        assert_eq!(t.steps[0].action, "start at position 0");
        assert!(t.steps.iter().any(|s| s.action == "retry from position 1"));
        // Every recorded step has its outcome when the run was not stopped.
        assert!(t.steps.iter().all(|s| s.outcome.is_some()));
    }

    #[test]
    fn a_lazy_loop_takes_one_more_character_per_step() {
        let t = re("a+?b", Flavor::PYTHON)
            .trace("aaab", TraceOptions::default())
            .unwrap();
        let ext: Vec<(&str, usize)> = t
            .steps
            .iter()
            .filter(|s| s.resume == Some("lazy_extend"))
            .map(|s| (s.action.as_str(), s.unit_pos))
            .collect();
        assert_eq!(
            ext,
            [
                ("extend the lazy `a+?` by one, then try `b`", 2),
                ("extend the lazy `a+?` by one, then try `b`", 3),
            ]
        );
        assert_eq!(t.matches.len(), 1);
    }

    #[test]
    fn positions_are_in_the_flavors_unit() {
        let t = re("é+b", Flavor::PYTHON)
            .trace("ééc", TraceOptions::default())
            .unwrap();
        assert_eq!(t.unit, OffsetUnit::CodePoints);
        // The failing `b` after `é+`, at code point 2 (byte 4).
        let b = t.steps.iter().find(|s| s.action == "try `b`").unwrap();
        assert_eq!((b.pos, b.unit_pos), (4, 2));
        assert_eq!(b.outcome, Some(StepOutcome::Failed));
        // JavaScript counts UTF-16 units: an astral character is two; Rust counts bytes.
        for (flavor, text, at) in [(Flavor::JS, "😀éx", (6, 3)), (Flavor::Rust, "éx", (2, 2))] {
            let t = re("x", flavor)
                .trace(text, TraceOptions::default())
                .unwrap();
            let last = t
                .steps
                .iter()
                .find(|s| s.action == "try `x`" && s.outcome == Some(StepOutcome::Succeeded))
                .unwrap();
            assert_eq!((last.pos, last.unit_pos), at, "{flavor}");
        }
    }

    #[test]
    fn the_next_alternative_is_named() {
        let t = re("ab|ac", Flavor::JS)
            .trace("ac", TraceOptions::default())
            .unwrap();
        let s = t
            .steps
            .iter()
            .find(|s| s.resume == Some("next_alternative"))
            .unwrap();
        assert_eq!(
            s.action,
            "try the next alternative of `ab|ac`, then try `a`"
        );
        assert_eq!(s.unit_pos, 0);
    }

    #[test]
    fn explaining_changes_no_result() {
        // The debugger runs without the give-back shortcut: the matches are the same.
        for (p, text) in [
            (r"\w+\d", "abc1 de2"),
            ("a.*?b", "a1b a2b"),
            (r"(?:x|y)+z", "xyxyq xyz"),
            (r"\d+(?=%)", "12% 3"),
        ] {
            for flavor in [Flavor::PYTHON, Flavor::JS] {
                let r = re(p, flavor);
                let t = r.trace(text, TraceOptions::default()).unwrap();
                let plain: Vec<_> = r
                    .matches(text, crate::MatchOptions::default())
                    .map(|m| m.unwrap().groups)
                    .collect();
                let traced: Vec<_> = t.matches.iter().map(|m| m.groups.clone()).collect();
                assert_eq!(traced, plain, "{p} on {text}");
            }
        }
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
