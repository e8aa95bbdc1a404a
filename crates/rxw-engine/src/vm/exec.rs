//! Running a [`Program`]: the backtracking loop, with an explicit choice stack and a trail.

use super::charset::{self, CharSet};
use super::{Assertion, Inst, LoopRule, Program, Test};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// "Not set" in a capture slot or loop register.
pub const UNSET: usize = usize::MAX;

/// The text being matched, as a sequence of characters (or UTF-16 code units).
pub trait Haystack {
    /// Length in positions (bytes or code units).
    fn len(&self) -> usize;
    /// Whether the text is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The character starting at `pos` and the position after it.
    fn next(&self, pos: usize) -> Option<(u32, usize)>;
    /// The character ending at `pos` and the position where it starts.
    fn prev(&self, pos: usize) -> Option<(u32, usize)>;
    /// Where the character ending at `pos` starts.
    #[inline]
    fn prev_boundary(&self, pos: usize) -> Option<usize> {
        self.prev(pos).map(|x| x.1)
    }
    /// The byte at `pos` when positions are bytes (for the first-byte prefilter).
    fn byte(&self, pos: usize) -> Option<u8>;
    /// The text's bytes when positions are bytes.
    fn bytes(&self) -> Option<&[u8]>;
    /// Whether the search asks how far its attempts read, to learn what they would do on a
    /// longer text ([`EndWatch`]): then no start is refused for the characters left after it
    /// (sre's least width), so every attempt reads what it would read.
    #[inline]
    fn watches_end(&self) -> bool {
        false
    }
    /// Whether `pos` is the end of the text (what the end anchors test).
    #[inline]
    fn is_end(&self, pos: usize) -> bool {
        pos == self.len()
    }
    /// One code unit starting at `pos` ([`Inst::ConsumeUnit`]); a character elsewhere.
    #[inline]
    fn next_unit(&self, pos: usize) -> Option<(u32, usize)> {
        self.next(pos)
    }
    /// One code unit ending at `pos`; a character elsewhere.
    #[inline]
    fn prev_unit(&self, pos: usize) -> Option<(u32, usize)> {
        self.prev(pos)
    }
    /// Whether `pos` lies between the two halves of a surrogate pair (only on
    /// [`Utf16PairHay`], where that position is searched).
    #[inline]
    fn inside_pair(&self, _pos: usize) -> bool {
        false
    }
    /// Where the search tries its next start after a failed attempt at `pos`.
    #[inline]
    fn next_start(&self, pos: usize) -> Option<usize> {
        match self.byte(pos) {
            Some(b) if b < 0x80 => Some(pos + 1),
            _ => self.next(pos).map(|x| x.1),
        }
    }
}

/// UTF-8 text that notes whether a search examined its end: read a character or byte there,
/// or tested an anchor there. Its bytes are not handed out whole, so every read goes through
/// the character accessors. An attempt that never examined the end of a text would end the
/// same way on any longer text that starts with it.
pub struct EndWatch<'t> {
    text: Utf8Hay<'t>,
    /// One past the farthest byte a search read or tested (0 before the first look).
    farthest: std::cell::Cell<usize>,
}

impl<'t> EndWatch<'t> {
    /// Watches `text`.
    pub fn new(text: &'t [u8]) -> EndWatch<'t> {
        EndWatch {
            text: Utf8Hay(text),
            farthest: std::cell::Cell::new(0),
        }
    }

    /// Whether a search examined the end of the text (read, or tested an anchor, at its
    /// length).
    pub fn examined_end(&self) -> bool {
        self.farthest.get() > self.text.len()
    }

    /// The farthest position a search examined: a byte it read or a position where it tested
    /// an anchor or the end (the text's length when it looked at the end).
    pub fn farthest(&self) -> usize {
        self.farthest.get().saturating_sub(1)
    }

    #[inline]
    fn note(&self, pos: usize) {
        if pos >= self.farthest.get() {
            self.farthest.set(pos + 1);
        }
    }
}

impl Haystack for EndWatch<'_> {
    fn len(&self) -> usize {
        self.text.len()
    }

    fn next(&self, pos: usize) -> Option<(u32, usize)> {
        self.note(pos);
        self.text.next(pos)
    }

    fn prev(&self, pos: usize) -> Option<(u32, usize)> {
        self.text.prev(pos)
    }

    fn prev_boundary(&self, pos: usize) -> Option<usize> {
        self.text.prev_boundary(pos)
    }

    fn byte(&self, pos: usize) -> Option<u8> {
        self.note(pos);
        self.text.byte(pos)
    }

    fn bytes(&self) -> Option<&[u8]> {
        None
    }

    fn watches_end(&self) -> bool {
        true
    }

    fn is_end(&self, pos: usize) -> bool {
        self.note(pos);
        self.text.is_end(pos)
    }
}

/// UTF-8 text; positions are byte offsets at character boundaries.
pub struct Utf8Hay<'t>(pub &'t [u8]);

impl Haystack for Utf8Hay<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.0.len()
    }

    #[inline]
    fn next(&self, pos: usize) -> Option<(u32, usize)> {
        let b = self.0;
        let b0 = *b.get(pos)?;
        if b0 < 0x80 {
            return Some((b0 as u32, pos + 1));
        }
        let (n, init) = match b0 {
            0xC0..=0xDF => (2, (b0 & 0x1F) as u32),
            0xE0..=0xEF => (3, (b0 & 0x0F) as u32),
            _ => (4, (b0 & 0x07) as u32),
        };
        let mut c = init;
        for i in 1..n {
            c = (c << 6) | (b.get(pos + i).copied().unwrap_or(0x80) & 0x3F) as u32;
        }
        Some((c, pos + n))
    }

    #[inline]
    fn prev(&self, pos: usize) -> Option<(u32, usize)> {
        let start = self.prev_boundary(pos)?;
        self.next(start).map(|(c, _)| (c, start))
    }

    #[inline]
    fn byte(&self, pos: usize) -> Option<u8> {
        self.0.get(pos).copied()
    }

    fn bytes(&self) -> Option<&[u8]> {
        Some(self.0)
    }

    #[inline]
    fn prev_boundary(&self, pos: usize) -> Option<usize> {
        if pos == 0 {
            return None;
        }
        let mut start = pos - 1;
        while start > 0 && (self.0[start] & 0xC0) == 0x80 {
            start -= 1;
        }
        Some(start)
    }
}

/// UTF-16 code units (JavaScript without `u`/`v`); each unit is one character.
pub struct Utf16Hay<'t>(pub &'t [u16]);

impl Haystack for Utf16Hay<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.0.len()
    }

    #[inline]
    fn next(&self, pos: usize) -> Option<(u32, usize)> {
        self.0.get(pos).map(|&u| (u as u32, pos + 1))
    }

    #[inline]
    fn prev(&self, pos: usize) -> Option<(u32, usize)> {
        if pos == 0 {
            None
        } else {
            Some((self.0[pos - 1] as u32, pos - 1))
        }
    }

    #[inline]
    fn byte(&self, _pos: usize) -> Option<u8> {
        None
    }

    fn bytes(&self) -> Option<&[u8]> {
        None
    }
}

/// UTF-16 code units searched as node 18 searches with `u` ([`Program::unit_classes`]): a
/// surrogate pair is read as one character, and nothing is read between its two halves,
/// forward or backward (V8 reads a trail surrogate only when no lead stands before it, a lead
/// only when no trail follows); the search still tries that position, one code unit on; an
/// [`Inst::ConsumeUnit`] reads one code unit wherever it stands.
///
/// [`Program::unit_classes`]: super::Program::unit_classes
pub struct Utf16PairHay<'t>(pub &'t [u16]);

impl Utf16PairHay<'_> {
    fn is_lead(&self, pos: usize) -> bool {
        self.0
            .get(pos)
            .is_some_and(|u| (0xD800..0xDC00).contains(u))
    }

    fn is_trail(&self, pos: usize) -> bool {
        self.0
            .get(pos)
            .is_some_and(|u| (0xDC00..0xE000).contains(u))
    }
}

impl Haystack for Utf16PairHay<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.0.len()
    }

    fn next(&self, pos: usize) -> Option<(u32, usize)> {
        if self.inside_pair(pos) {
            return None;
        }
        let u = *self.0.get(pos)? as u32;
        if self.is_lead(pos) && self.is_trail(pos + 1) {
            let lo = self.0[pos + 1] as u32;
            return Some((0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00), pos + 2));
        }
        Some((u, pos + 1))
    }

    fn prev(&self, pos: usize) -> Option<(u32, usize)> {
        if pos == 0 || self.inside_pair(pos) {
            return None;
        }
        let u = self.0[pos - 1] as u32;
        if pos >= 2 && self.is_trail(pos - 1) && self.is_lead(pos - 2) {
            let hi = self.0[pos - 2] as u32;
            return Some((0x10000 + ((hi - 0xD800) << 10) + (u - 0xDC00), pos - 2));
        }
        Some((u, pos - 1))
    }

    fn byte(&self, _pos: usize) -> Option<u8> {
        None
    }

    fn bytes(&self) -> Option<&[u8]> {
        None
    }

    fn next_unit(&self, pos: usize) -> Option<(u32, usize)> {
        self.0.get(pos).map(|&u| (u as u32, pos + 1))
    }

    fn prev_unit(&self, pos: usize) -> Option<(u32, usize)> {
        pos.checked_sub(1).map(|p| (self.0[p] as u32, p))
    }

    fn next_start(&self, pos: usize) -> Option<usize> {
        (pos < self.0.len()).then_some(pos + 1)
    }

    fn inside_pair(&self, pos: usize) -> bool {
        pos > 0 && self.is_lead(pos - 1) && self.is_trail(pos)
    }
}

/// One step of the matcher, as an observer sees it.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    /// The instruction about to run (or being retried on a backtrack).
    pub pc: u32,
    /// The input position.
    pub pos: usize,
    /// Open choice points.
    pub depth: usize,
    /// Capture slots (two per group; [`UNSET`] when not set).
    pub slots: &'a [usize],
    /// True when this step resumes a choice point after a failure.
    pub backtrack: bool,
    /// What kind of choice point this step resumes (with `backtrack`), when the observer
    /// explains ([`Observer::EXPLAIN`]); `None` otherwise.
    pub resumed: Option<Resumed>,
    /// The search attempt's start position.
    pub start: usize,
}

/// The kind of choice point a step resumes after a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resumed {
    /// The other way of a split or of a loop's head: the next alternative, stopping a greedy
    /// loop, or one more iteration of a lazy one (the program says which).
    Alternative,
    /// A greedy single-character loop gave back one character; the step runs what follows it.
    GiveBack,
    /// A lazy single-character loop took one more character; the step runs what follows it.
    LazyExtend,
    /// A negative look-around's body failed everywhere, so the assertion holds.
    LookAroundHolds,
}

/// Sees every step of a search. [`NoObserver`] compiles to nothing.
pub trait Observer {
    /// False for the no-op observer: the matcher skips building steps.
    const ACTIVE: bool;
    /// True for an observer that explains each step (the debugger): the matcher then runs
    /// without its give-back shortcut (a single-character loop's [`super::Guard`]), so every
    /// give-back, lazy extension and try of what follows is a step of its own, as in a
    /// backtracking engine without the shortcut; it says what each resumed step resumed
    /// ([`Step::resumed`]) and how each step went ([`Observer::outcome`]). Results are the
    /// same either way; the steps counted are not.
    const EXPLAIN: bool = false;
    /// Called before each step.
    fn step(&mut self, step: &Step<'_>);
    /// Called after each step when [`Observer::EXPLAIN`]: whether it succeeded, and the
    /// position after it (where it failed, when it failed).
    #[inline(always)]
    fn outcome(&mut self, _ok: bool, _pos: usize) {}
}

/// The observer that observes nothing.
pub struct NoObserver;

impl Observer for NoObserver {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn step(&mut self, _step: &Step<'_>) {}
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A match: the capture slots (two per group, [`UNSET`] when a group did not participate).
    Match(Vec<usize>),
    /// No match at or after the start.
    NoMatch,
    /// One search attempt exceeded the step budget at this input position and instruction.
    BudgetExceeded {
        /// Where the attempt was.
        pos: usize,
        /// The instruction it was running.
        pc: u32,
        /// Where the attempt started.
        start: usize,
    },
    /// The steps of the whole search (every attempt) passed [`SearchParams::total_budget`];
    /// the next attempt would have started at this position.
    TotalBudgetExceeded {
        /// Where the search was.
        pos: usize,
    },
    /// The cancel flag was raised.
    Cancelled,
    /// The deadline passed.
    TimedOut,
}

/// Search parameters.
pub struct SearchParams<'a> {
    /// First start position tried.
    pub start: usize,
    /// Try only `start` (JavaScript sticky, anchored searches).
    pub anchored: bool,
    /// A match starting here must not be empty (CPython's retry after an empty match).
    pub not_empty_at: Option<usize>,
    /// Steps one search attempt may take.
    pub budget: u64,
    /// Steps the whole search (every attempt from every start) may take; checked between
    /// attempts, so one attempt's own budget still bounds how far past it a search goes.
    pub total_budget: Option<u64>,
    /// Raised to stop.
    pub cancel: Option<&'a AtomicBool>,
    /// Wall-clock limit.
    pub deadline: Option<Instant>,
    /// Count as steps the characters a single-character loop's guard skips over (giving back
    /// to, or advancing to, where the rest can start). The guard saves instructions, not
    /// character tests: a backtracking engine without it (CPython, node) tests each of those
    /// characters, so the ReDoS proof counts them; the debugger counts instructions.
    pub count_scans: bool,
    /// Set to the position where the next attempt begins, now and then between attempts.
    pub progress: Option<&'a std::sync::atomic::AtomicUsize>,
}

#[derive(Debug, Clone, Copy)]
enum ChoiceKind {
    /// Resume at `pc`.
    Alt,
    /// Resume at `pc`, putting back the capture slots (CPython before 3.11: an alternation
    /// inside a loop, or a greedy loop's extra iteration).
    AltRestoring,
    /// Not a resume point (CPython before 3.11): an alternation's last alternative failed;
    /// `lastmark` goes back, and the capture slots too when `hard` (inside a loop).
    BranchEnd { hard: bool },
    /// Not a resume point (CPython before 3.11): a greedy single-character loop gave up;
    /// `lastmark` goes back.
    RepeatEnd,
    /// A look-around's barrier.
    Look { negative: bool, next: u32 },
    /// An atomic group's barrier.
    Atomic,
    /// A greedy single-character loop that can give back characters down to `floor`.
    GreedyOne { floor: usize },
    /// A lazy single-character loop that has taken `count` characters.
    LazyOne { count: u32 },
}

#[derive(Debug, Clone, Copy)]
struct Choice {
    pc: u32,
    pos: usize,
    trail: usize,
    kind: ChoiceKind,
}

struct Vm<'p, 'o, H: Haystack, O: Observer> {
    prog: &'p Program,
    hay: &'p H,
    slots: Vec<usize>,
    regs: Vec<usize>,
    /// (index, old value): slots first, then registers at `slots.len() + r`.
    trail: Vec<(u32, usize)>,
    stack: Vec<Choice>,
    /// Indices in `stack` of open look-around and atomic barriers.
    barriers: Vec<usize>,
    observer: &'o mut O,
    /// Steps in all attempts of this search.
    pub steps: u64,
    /// CPython before 3.11: sre's marks as those releases keep them; `None` elsewhere.
    sre: Option<SreMarks>,
}

/// The trail index that logs [`SreMarks::last`].
const LASTMARK: u32 = u32::MAX;

/// How CPython 3.8–3.10 keep captures. sre has an array of marks and `lastmark`, the highest
/// mark counted as set; backtracking puts `lastmark` back at every choice operator, but the
/// marks themselves only where it saved them: a greedy loop's extra iteration and an
/// alternation inside a loop. Elsewhere a failed path leaves its marks behind, visible when
/// their index is at most `lastmark` (a lazy loop's stale group, even a group ending before it
/// starts). Some operators give up without putting `lastmark` back: a look-around (a failed
/// negative one's body leaves its marks visible), a lazy single-character loop that cannot
/// take one more character, a loop whose tail or last iteration failed. 3.11 saves and
/// restores the marks at every one of these places, as rxw's undo trail does.
struct SreMarks {
    /// `lastmark` as a capture slot index (1: no group's mark is set).
    last: usize,
    /// The capture slots up to `lastmark` as a choice that puts them back found them (sre's
    /// MARK_PUSH), with the choice's stack index. sre saves nothing while `lastmark` is the
    /// first mark (its `lastmark > 0` test), so a group's start alone is never put back.
    saved: Vec<(usize, Vec<usize>)>,
}

/// The running total of steps of searches, for `--stats` and the debugger.
#[derive(Debug, Clone, Copy, Default)]
pub struct StepCount(pub u64);

/// Searches `hay` for the leftmost match at or after `params.start`.
///
/// Returns the outcome and the number of steps taken.
pub fn run_search<H: Haystack, O: Observer>(
    prog: &Program,
    hay: &H,
    params: &SearchParams<'_>,
    observer: &mut O,
) -> (Outcome, u64) {
    let mut vm = Vm {
        prog,
        hay,
        slots: vec![UNSET; prog.slots],
        regs: vec![UNSET; prog.regs],
        trail: Vec::new(),
        stack: Vec::new(),
        barriers: Vec::new(),
        observer,
        steps: 0,
        sre: prog
            .flavor
            .py_version()
            .is_some_and(|v| v < rxw_syntax::flavor::PyVersion::V3_11)
            .then(|| SreMarks {
                last: 1,
                saved: Vec::new(),
            }),
    };
    let len = hay.len();
    let mut start = params.start;
    let anchored = params.anchored || prog.anchored_start;
    if prog.anchored_start && start > 0 && !params.anchored {
        return (Outcome::NoMatch, 0);
    }
    // sre's least width: no start with fewer characters left is tried.
    let min_chars = if hay.watches_end() { 0 } else { prog.min_chars };
    let Some(last_start) = last_start_with(hay, min_chars) else {
        return (Outcome::NoMatch, 0);
    };
    let mut check_at: u64 = 0;
    loop {
        if start > last_start {
            return (Outcome::NoMatch, vm.steps);
        }
        if !anchored && let Some(table) = &prog.first_bytes {
            // Skip to the next position whose byte can start a match.
            let found = match (hay.bytes(), &prog.first_byte_list) {
                (Some(bytes), Some(list)) => {
                    let rest = &bytes[start.min(len)..];
                    match list.as_slice() {
                        [a] => memchr::memchr(*a, rest),
                        [a, b] => memchr::memchr2(*a, *b, rest),
                        [a, b, c] => memchr::memchr3(*a, *b, *c, rest),
                        _ => rest.iter().position(|b| table[*b as usize]),
                    }
                    .map(|i| start + i)
                }
                _ => (start..len).find(|&p| hay.byte(p).is_some_and(|b| table[b as usize])),
            };
            match found {
                Some(p) => start = p,
                None => return (Outcome::NoMatch, vm.steps),
            }
        }
        if vm.steps >= check_at {
            check_at = vm.steps + 4096;
            if let Some(p) = params.progress {
                p.store(start, Ordering::Relaxed);
            }
            if params.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return (Outcome::Cancelled, vm.steps);
            }
            if params.deadline.is_some_and(|d| Instant::now() > d) {
                return (Outcome::TimedOut, vm.steps);
            }
        }
        if params.total_budget.is_some_and(|t| vm.steps > t) {
            return (Outcome::TotalBudgetExceeded { pos: start }, vm.steps);
        }
        match vm.attempt(start, params) {
            Attempt::Matched => return (Outcome::Match(vm.visible_slots()), vm.steps),
            Attempt::Failed => {}
            Attempt::Stopped(o) => return (o, vm.steps),
        }
        if anchored {
            return (Outcome::NoMatch, vm.steps);
        }
        match hay.next_start(start) {
            Some(n) => start = n,
            None => return (Outcome::NoMatch, vm.steps),
        }
    }
}

/// The last position with at least `min` characters after it (the text's length when `min`
/// is 0), `None` when the whole text has fewer.
fn last_start_with<H: Haystack>(hay: &H, min: u64) -> Option<usize> {
    let len = hay.len();
    if min == 0 {
        return Some(len);
    }
    if min > len as u64 {
        return None;
    }
    let mut p = len;
    for _ in 0..min {
        p = hay.prev(p)?.1;
    }
    Some(p)
}

enum Attempt {
    Matched,
    Failed,
    Stopped(Outcome),
}

impl<H: Haystack, O: Observer> Vm<'_, '_, H, O> {
    #[inline]
    fn set_slot(&mut self, i: usize, v: usize) {
        // With no choice point open there is nothing to go back to: no undo entry needed.
        if !self.stack.is_empty() {
            self.trail.push((i as u32, self.slots[i]));
        }
        self.slots[i] = v;
        if i >= 2 && self.sre.as_ref().is_some_and(|m| i > m.last) {
            self.raise_lastmark(i);
        }
    }

    /// sre's MARK past `lastmark`: the marks skipped over are cleared.
    fn raise_lastmark(&mut self, i: usize) {
        let Some(last) = self.sre.as_ref().map(|m| m.last) else {
            return;
        };
        for j in (last + 1).max(2)..i {
            if self.slots[j] != UNSET {
                if !self.stack.is_empty() {
                    self.trail.push((j as u32, self.slots[j]));
                }
                self.slots[j] = UNSET;
            }
        }
        self.set_lastmark(i);
    }

    fn set_lastmark(&mut self, last: usize) {
        let Some(m) = &mut self.sre else { return };
        if !self.stack.is_empty() {
            self.trail.push((LASTMARK, m.last));
        }
        m.last = last;
    }

    /// Whether capture slot `i` counts as set (CPython before 3.11: at most `lastmark`).
    #[inline]
    fn visible(&self, i: usize) -> bool {
        self.slots.get(i).is_some_and(|v| *v != UNSET)
            && self.sre.as_ref().is_none_or(|m| i < 2 || i <= m.last)
    }

    /// The capture slots as the flavor reports them.
    fn visible_slots(&self) -> Vec<usize> {
        (0..self.slots.len())
            .map(|i| {
                if self.visible(i) {
                    self.slots[i]
                } else {
                    UNSET
                }
            })
            .collect()
    }

    /// Goes back to a choice: everything, or (CPython before 3.11) everything but the
    /// capture slots unless the choice saved them.
    fn undo_choice(&mut self, choice: &Choice) {
        if self.sre.is_none() {
            self.undo_to(choice.trail);
            return;
        }
        let hard = matches!(
            choice.kind,
            ChoiceKind::AltRestoring | ChoiceKind::BranchEnd { hard: true }
        );
        let n = self.slots.len();
        while self.trail.len() > choice.trail {
            let (i, old) = self.trail.pop().unwrap();
            if i == LASTMARK {
                if let Some(m) = &mut self.sre {
                    m.last = old;
                }
                continue;
            }
            let i = i as usize;
            if i >= n {
                self.regs[i - n] = old;
            }
        }
        if hard && let Some(m) = &mut self.sre {
            // The popped choice was at the top of the stack, now its length.
            let at = self.stack.len();
            while m.saved.last().is_some_and(|(i, _)| *i > at) {
                m.saved.pop();
            }
            if m.saved.last().is_some_and(|(i, _)| *i == at)
                && let Some((_, slots)) = m.saved.pop()
            {
                self.slots[2..slots.len()].copy_from_slice(&slots[2..]);
            }
        }
    }

    #[inline]
    fn set_reg(&mut self, i: usize, v: usize) {
        if !self.stack.is_empty() {
            self.trail
                .push(((self.slots.len() + i) as u32, self.regs[i]));
        }
        self.regs[i] = v;
    }

    fn undo_to(&mut self, mark: usize) {
        let n = self.slots.len();
        while self.trail.len() > mark {
            let (i, old) = self.trail.pop().unwrap();
            let i = i as usize;
            if i < n {
                self.slots[i] = old;
            } else {
                self.regs[i - n] = old;
            }
        }
    }

    #[inline]
    fn push_choice(&mut self, pc: u32, pos: usize, kind: ChoiceKind) {
        if matches!(kind, ChoiceKind::Look { .. } | ChoiceKind::Atomic) {
            self.barriers.push(self.stack.len());
        }
        if let Some(m) = &mut self.sre
            && m.last > 2
            && matches!(
                kind,
                ChoiceKind::AltRestoring | ChoiceKind::BranchEnd { hard: true }
            )
        {
            m.saved
                .push((self.stack.len(), self.slots[..=m.last].to_vec()));
        }
        self.stack.push(Choice {
            pc,
            pos,
            trail: self.trail.len(),
            kind,
        });
    }

    /// Removes the innermost barrier and every choice above it.
    fn cut_to_barrier(&mut self) -> Choice {
        let b = self.barriers.pop().expect("an open barrier");
        let c = self.stack[b];
        self.stack.truncate(b);
        if let Some(m) = &mut self.sre {
            while m.saved.last().is_some_and(|(at, _)| *at >= b) {
                m.saved.pop();
            }
        }
        c
    }

    #[inline(always)]
    fn test(&self, test: &Test, c: u32) -> bool {
        match test {
            Test::Char(x) => c == *x,
            Test::Any => true,
            Test::AnyNotNewline => c != 0x0A,
            Test::AnyNotJsLineTerminator => !charset::is_js_line_terminator(c),
            Test::Set { set, fold, negated } => {
                self.prog.sets[*set as usize].contains(fold.apply(c)) != *negated
            }
        }
    }

    /// Takes as many characters passing `test` as possible from `p` (forward), at most `max`
    /// more than `n`; returns the new position and count. ASCII runs are taken byte by byte
    /// without decoding.
    #[inline(always)]
    fn take_greedy(&self, test: &Test, mut p: usize, mut n: u32, max: u32) -> (usize, u32) {
        if let (
            Some(bytes),
            Test::Set {
                set,
                fold: super::charset::Fold::None,
                negated,
            },
        ) = (self.hay.bytes(), test)
        {
            let set = &self.prog.sets[*set as usize];
            loop {
                if n >= max {
                    return (p, n);
                }
                match bytes.get(p) {
                    Some(&b) if b < 0x80 => {
                        if set.contains(b as u32) == *negated {
                            return (p, n);
                        }
                        p += 1;
                        n += 1;
                    }
                    Some(_) => match self.step_one(test, p, false) {
                        Some(q) => {
                            p = q;
                            n += 1;
                        }
                        None => return (p, n),
                    },
                    None => return (p, n),
                }
            }
        }
        while n < max {
            match self.step_one(test, p, false) {
                Some(q) => {
                    p = q;
                    n += 1;
                }
                None => break,
            }
        }
        (p, n)
    }

    #[inline(always)]
    fn step_one(&self, test: &Test, pos: usize, back: bool) -> Option<usize> {
        if back {
            let (c, p) = self.hay.prev(pos)?;
            self.test(test, c).then_some(p)
        } else {
            let (c, p) = self.hay.next(pos)?;
            self.test(test, c).then_some(p)
        }
    }

    #[inline(always)]
    fn guard_allows(&self, g: &super::Guard, pos: usize) -> bool {
        match self.hay.byte(pos) {
            Some(b) => g.bytes[b as usize],
            None => pos < self.hay.len() || g.at_end,
        }
    }

    /// A lazy single-character loop at `p` having taken `n` characters: takes more until the
    /// continuation can start (its guard), returning the position and count, or `None` when
    /// the loop cannot get there. Unbounded `.` loops jump with memchr.
    /// Advances a lazy single-character loop to where its guard lets the rest start; `scanned`
    /// is set to the furthest position the scan reached (the characters it tested).
    fn lazy_advance(
        &self,
        test: &Test,
        guard: Option<&super::Guard>,
        mut p: usize,
        mut n: u32,
        max: u32,
        scanned: &mut usize,
    ) -> Option<(usize, u32)> {
        *scanned = p;
        let Some(g) = guard else {
            return Some((p, n));
        };
        if self.guard_allows(g, p) {
            return Some((p, n));
        }
        if max == u32::MAX
            && let (Some(b), Some(bytes)) = (g.single_byte(), self.hay.bytes())
        {
            let rest = &bytes[p..];
            let hit = match test {
                Test::Any => memchr::memchr(b, rest).map(|i| (i, true)),
                Test::AnyNotNewline => memchr::memchr2(b, b'\n', rest).map(|i| (i, rest[i] == b)),
                _ => None,
            };
            match (test, hit) {
                (Test::Any | Test::AnyNotNewline, Some((i, true))) => {
                    *scanned = p + i;
                    return Some((p + i, n));
                }
                (Test::Any | Test::AnyNotNewline, None) if g.at_end => {
                    *scanned = bytes.len();
                    return Some((bytes.len(), n));
                }
                (Test::Any | Test::AnyNotNewline, hit) => {
                    *scanned = hit.map_or(bytes.len(), |(i, _)| p + i);
                    return None;
                }
                _ => {}
            }
        }
        while n < max {
            p = self.step_one(test, p, false)?;
            *scanned = p;
            n += 1;
            if self.guard_allows(g, p) {
                return Some((p, n));
            }
        }
        None
    }

    fn is_word(&self, set: u32, c: Option<(u32, usize)>) -> bool {
        c.is_some_and(|(c, _)| self.prog.sets[set as usize].contains(c))
    }

    fn assert(&self, a: Assertion, pos: usize) -> bool {
        let len = self.hay.len();
        match a {
            Assertion::TextStart => pos == 0,
            Assertion::TextEnd => self.hay.is_end(pos),
            Assertion::LineStartNewline => {
                pos == 0 || self.hay.prev(pos).is_some_and(|c| c.0 == 0x0A)
            }
            Assertion::LineStartJs => {
                pos == 0
                    || self
                        .hay
                        .prev(pos)
                        .is_some_and(|c| charset::is_js_line_terminator(c.0))
            }
            Assertion::LineEndNewline => {
                self.hay.is_end(pos) || self.hay.next(pos).is_some_and(|c| c.0 == 0x0A)
            }
            Assertion::LineEndJs => {
                self.hay.is_end(pos)
                    || self
                        .hay
                        .next(pos)
                        .is_some_and(|c| charset::is_js_line_terminator(c.0))
            }
            Assertion::EndOrFinalNewline => {
                self.hay.is_end(pos)
                    || (self.hay.is_end(pos + 1) && self.hay.next(pos).is_some_and(|c| c.0 == 0x0A))
            }
            Assertion::WordBoundary { word, negated } => {
                let before = self.is_word(word, self.hay.prev(pos));
                let after = self.is_word(word, self.hay.next(pos));
                if negated
                    && len == 0
                    && self
                        .prog
                        .flavor
                        .py_version()
                        .is_some_and(|v| v.minor() < 14)
                {
                    // CPython before 3.14: `\B` never matches an empty string.
                    return false;
                }
                (before != after) != negated
            }
            Assertion::WordStart { word } => {
                !self.is_word(word, self.hay.prev(pos)) && self.is_word(word, self.hay.next(pos))
            }
            Assertion::WordEnd { word } => {
                self.is_word(word, self.hay.prev(pos)) && !self.is_word(word, self.hay.next(pos))
            }
            Assertion::WordStartHalf { word } => !self.is_word(word, self.hay.prev(pos)),
            Assertion::WordEndHalf { word } => !self.is_word(word, self.hay.next(pos)),
        }
    }

    /// node 18's code units with `u` ([`Program::unit_classes`], no `i`): the captured code
    /// units compared one by one (a group may hold half of a pair), an unset group matching
    /// empty; then, as V8's `CheckNotInSurrogatePair`, the reference fails where it ends
    /// between the two halves of a pair, forward or backward, set or not.
    ///
    /// [`Program::unit_classes`]: super::Program::unit_classes
    fn backref_units(&self, g: usize, back: bool, pos: usize) -> Option<usize> {
        let (s, e) = (
            self.slots.get(g).copied().unwrap_or(UNSET),
            self.slots.get(g + 1).copied().unwrap_or(UNSET),
        );
        let mut p = pos;
        if s != UNSET && e != UNSET && e > s {
            let len = e - s;
            for k in 0..len {
                let (want, got) = if back {
                    (
                        self.hay.prev_unit(e - k)?.0,
                        self.hay.prev_unit(pos - k.min(pos))?.0,
                    )
                } else {
                    (self.hay.next_unit(s + k)?.0, self.hay.next_unit(pos + k)?.0)
                };
                if want != got {
                    return None;
                }
            }
            p = if back {
                pos.checked_sub(len)?
            } else {
                pos + len
            };
        }
        (!self.hay.inside_pair(p)).then_some(p)
    }

    fn backref(
        &self,
        group: u32,
        fold: super::charset::Fold,
        back: bool,
        unset_ok: bool,
        pos: usize,
    ) -> Option<usize> {
        let g = group as usize * 2;
        if self.prog.unit_classes {
            return self.backref_units(g, back, pos);
        }
        if self.sre.is_some() && !(self.visible(g) && self.visible(g + 1)) {
            return unset_ok.then_some(pos);
        }
        let (s, e) = (
            self.slots.get(g).copied().unwrap_or(UNSET),
            self.slots.get(g + 1).copied().unwrap_or(UNSET),
        );
        if s == UNSET || e == UNSET || e < s {
            return unset_ok.then_some(pos);
        }
        if fold == super::charset::Fold::None
            && let Some(bytes) = self.hay.bytes()
        {
            // Exact comparison: the bytes themselves.
            let len = e - s;
            let (from, to) = if back {
                (pos.checked_sub(len)?, pos)
            } else {
                (pos, pos.checked_add(len)?)
            };
            let (a, b) = (bytes.get(from..to)?, &bytes[s..e]);
            // Short captures are compared in place (a memcmp call costs more than they do).
            let same = if len <= 16 {
                a.iter().zip(b).all(|(x, y)| x == y)
            } else {
                a == b
            };
            return same.then_some(if back { from } else { to });
        }
        let mut p = pos;
        if back {
            let mut q = e;
            while q > s {
                let (c1, q2) = self.hay.prev(q)?;
                let (c2, p2) = self.hay.prev(p)?;
                if fold.apply(c1) != fold.apply(c2) {
                    return None;
                }
                q = q2;
                p = p2;
            }
        } else {
            let mut q = s;
            while q < e {
                let (c1, q2) = self.hay.next(q)?;
                let (c2, p2) = self.hay.next(p)?;
                if fold.apply(c1) != fold.apply(c2) {
                    return None;
                }
                q = q2;
                p = p2;
            }
        }
        Some(p)
    }

    fn attempt(&mut self, start: usize, params: &SearchParams<'_>) -> Attempt {
        for s in self.slots.iter_mut() {
            *s = UNSET;
        }
        self.trail.clear();
        self.stack.clear();
        self.barriers.clear();
        if let Some(m) = &mut self.sre {
            m.last = 1;
            m.saved.clear();
        }
        let mut pc: u32 = 0;
        let mut pos = start;
        let mut attempt_steps: u64 = 0;
        let mut next_check: u64 = 0x10000.min(params.budget.saturating_add(1));
        let mut backtracked = false;
        let mut resumed: Option<Resumed> = None;
        if !O::ACTIVE && self.prog.insts.first() == Some(&Inst::Save(0)) {
            // Every program opens with the whole match's start: taken here without a dispatch
            // (and counted as the step it is, so step counts do not depend on an observer).
            self.slots[0] = start;
            attempt_steps = 1;
            pc = 1;
        }
        loop {
            attempt_steps += 1;
            // One comparison a step: past `next_check` come the budget, the cancel flag and
            // the deadline.
            if attempt_steps >= next_check {
                if attempt_steps > params.budget {
                    self.steps += attempt_steps;
                    return Attempt::Stopped(Outcome::BudgetExceeded { pos, pc, start });
                }
                if params.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    self.steps += attempt_steps;
                    return Attempt::Stopped(Outcome::Cancelled);
                }
                if params.deadline.is_some_and(|d| Instant::now() > d) {
                    self.steps += attempt_steps;
                    return Attempt::Stopped(Outcome::TimedOut);
                }
                next_check = (attempt_steps + 0x10000).min(params.budget.saturating_add(1));
            }
            if O::ACTIVE {
                let step = Step {
                    pc,
                    pos,
                    depth: self.stack.len(),
                    slots: &self.slots,
                    backtrack: backtracked,
                    resumed: if O::EXPLAIN { resumed } else { None },
                    start,
                };
                self.observer.step(&step);
            }
            backtracked = false;
            if O::EXPLAIN {
                resumed = None;
            }
            let ok = match &self.prog.insts[pc as usize] {
                Inst::Consume { test, back } => match self.step_one(test, pos, *back) {
                    Some(p) => {
                        pos = p;
                        pc += 1;
                        true
                    }
                    None => false,
                },
                Inst::ConsumeUnit { test, back } => {
                    let unit = if *back {
                        self.hay.prev_unit(pos)
                    } else {
                        self.hay.next_unit(pos)
                    };
                    match unit {
                        Some((c, p)) if self.test(test, c) => {
                            pos = p;
                            pc += 1;
                            true
                        }
                        _ => false,
                    }
                }
                Inst::RepeatOne {
                    test,
                    min,
                    max,
                    greedy,
                    back,
                } => {
                    let (min, max, back, greedy) = (*min, *max, *back, *greedy);
                    let guard = self.prog.guards.get(pc as usize).and_then(|g| g.as_deref());
                    // CPython before 3.11: a try of the rest that fails leaves its marks (and a
                    // lazy loop that gives up, `lastmark`) behind, so every try must run.
                    // The debugger sees every give-back and every try of the rest.
                    let guard = guard.filter(|_| self.sre.is_none() && !O::EXPLAIN);
                    let mut p = pos;
                    let mut n = 0u32;
                    // sre's REPEAT_ONE gives up at once when its minimum is more than the
                    // characters left (fewer than the bytes left, or as many).
                    let too_short = self.prog.short_repeat_fails
                        && !back
                        && !self.hay.watches_end()
                        && u64::from(min) > (self.hay.len() - pos) as u64;
                    let mut ok = !too_short;
                    while ok && n < min {
                        match self.step_one(test, p, back) {
                            Some(q) => {
                                p = q;
                                n += 1;
                            }
                            None => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    attempt_steps += n as u64;
                    if ok {
                        if greedy && self.sre.is_some() {
                            self.push_choice(pc, p, ChoiceKind::RepeatEnd);
                        }
                        let floor = p;
                        if greedy {
                            if back {
                                while n < max {
                                    match self.step_one(test, p, back) {
                                        Some(q) => {
                                            p = q;
                                            n += 1;
                                        }
                                        None => break,
                                    }
                                }
                            } else {
                                (p, n) = self.take_greedy(test, p, n, max);
                            }
                            let taken = (n - min) as u64;
                            attempt_steps += taken;
                            // Give back at once to where the rest can start.
                            match guard {
                                Some(g) if g.disjoint => {
                                    // Nothing given back could start the rest: keep it all.
                                    ok = self.guard_allows(g, p);
                                }
                                Some(g) => {
                                    let top = p;
                                    while p != floor && !self.guard_allows(g, p) {
                                        p = self.hay.prev_boundary(p).unwrap_or(floor);
                                    }
                                    if params.count_scans {
                                        attempt_steps += top.abs_diff(p) as u64;
                                    }
                                    ok = p != floor || self.guard_allows(g, p);
                                    if ok && p != floor {
                                        self.push_choice(pc, p, ChoiceKind::GreedyOne { floor });
                                    }
                                }
                                None if p != floor => {
                                    self.push_choice(pc, p, ChoiceKind::GreedyOne { floor });
                                }
                                None => {}
                            }
                        } else {
                            let mut reached = p;
                            let advanced = self.lazy_advance(test, guard, p, n, max, &mut reached);
                            if params.count_scans {
                                attempt_steps += reached.abs_diff(p) as u64;
                            }
                            match advanced {
                                Some((q, m)) => {
                                    p = q;
                                    // CPython before 3.11 gives up differently at the maximum.
                                    if m < max || self.sre.is_some() {
                                        self.push_choice(pc, p, ChoiceKind::LazyOne { count: m });
                                    }
                                }
                                None => ok = false,
                            }
                        }
                        pos = p;
                        pc += 1;
                    }
                    ok
                }
                Inst::Assert(a) => {
                    if self.assert(*a, pos) {
                        pc += 1;
                        true
                    } else {
                        false
                    }
                }
                Inst::Split { first, second } => {
                    if self.sre.is_some() {
                        let hard = self.prog.mark_restoring.binary_search(&pc).is_ok();
                        self.push_choice(pc, pos, ChoiceKind::BranchEnd { hard });
                        let kind = if hard {
                            ChoiceKind::AltRestoring
                        } else {
                            ChoiceKind::Alt
                        };
                        self.push_choice(*second, pos, kind);
                    } else {
                        self.push_choice(*second, pos, ChoiceKind::Alt);
                    }
                    pc = *first;
                    true
                }
                Inst::Jump(t) => {
                    pc = *t;
                    true
                }
                Inst::Save(slot) => {
                    self.set_slot(*slot as usize, pos);
                    pc += 1;
                    true
                }
                Inst::ClearSlots { from, to } => {
                    for i in *from..*to {
                        if self.slots[i as usize] != UNSET {
                            self.set_slot(i as usize, UNSET);
                        }
                    }
                    pc += 1;
                    true
                }
                Inst::LoopInit { reg } => {
                    let r = *reg as usize * 2;
                    self.set_reg(r, 0);
                    self.set_reg(r + 1, UNSET);
                    pc += 1;
                    true
                }
                Inst::LoopHead {
                    reg,
                    min,
                    max,
                    greedy,
                    iter,
                    exit,
                    rule,
                } => {
                    let r = *reg as usize * 2;
                    let count = self.regs[r] as u32;
                    if count >= *max {
                        pc = *exit;
                    } else if count < *min {
                        pc = *iter;
                    } else {
                        match (rule, greedy) {
                            (LoopRule::Js, true) => {
                                self.push_choice(*exit, pos, ChoiceKind::Alt);
                                pc = *iter;
                            }
                            (LoopRule::Js, false) => {
                                self.push_choice(*iter, pos, ChoiceKind::Alt);
                                pc = *exit;
                            }
                            (LoopRule::Python, true) => {
                                if pos != self.regs[r + 1] {
                                    let kind = if self.sre.is_some() {
                                        ChoiceKind::AltRestoring
                                    } else {
                                        ChoiceKind::Alt
                                    };
                                    self.push_choice(*exit, pos, kind);
                                    self.set_reg(r + 1, pos);
                                    pc = *iter;
                                } else {
                                    pc = *exit;
                                }
                            }
                            (LoopRule::Python, false) => {
                                self.push_choice(*iter - 1, pos, ChoiceKind::Alt);
                                pc = *exit;
                            }
                            (LoopRule::Re2 { unbounded }, _)
                                if *unbounded
                                    && count >= (*min).max(1)
                                    && pos == self.regs[r + 1] =>
                            {
                                // The last iteration was empty: going round again would
                                // revisit the loop's first state at this position.
                                pc = *exit;
                            }
                            (LoopRule::Re2 { .. }, true) => {
                                self.push_choice(*exit, pos, ChoiceKind::Alt);
                                pc = *iter;
                            }
                            (LoopRule::Re2 { .. }, false) => {
                                self.push_choice(*iter, pos, ChoiceKind::Alt);
                                pc = *exit;
                            }
                        }
                    }
                    true
                }
                Inst::LoopIter {
                    reg,
                    rule,
                    max,
                    lazy_retry,
                } => {
                    let r = *reg as usize * 2;
                    match rule {
                        LoopRule::Js | LoopRule::Re2 { .. } => {
                            self.set_reg(r + 1, pos);
                            pc += 1;
                            true
                        }
                        LoopRule::Python if *lazy_retry => {
                            let count = self.regs[r] as u32;
                            if count >= *max || pos == self.regs[r + 1] {
                                false
                            } else {
                                self.set_reg(r + 1, pos);
                                pc += 1;
                                true
                            }
                        }
                        LoopRule::Python => {
                            pc += 1;
                            true
                        }
                    }
                }
                Inst::LoopEnd {
                    reg,
                    min,
                    head,
                    rule,
                } => {
                    let r = *reg as usize * 2;
                    let count = self.regs[r];
                    let refused = match rule {
                        LoopRule::Js => count >= *min as usize,
                        // Past the loop's first free iteration an empty one comes back to a
                        // state already held.
                        LoopRule::Re2 { unbounded } => {
                            *unbounded && count >= (*min).max(1) as usize
                        }
                        LoopRule::Python => false,
                    };
                    if refused && pos == self.regs[r + 1] {
                        false
                    } else {
                        self.set_reg(r, count + 1);
                        pc = *head;
                        true
                    }
                }
                Inst::Backref {
                    group,
                    fold,
                    back,
                    unset_matches_empty,
                } => match self.backref(*group, *fold, *back, *unset_matches_empty, pos) {
                    Some(p) => {
                        pos = p;
                        pc += 1;
                        true
                    }
                    None => false,
                },
                Inst::LookStart {
                    negative,
                    back_chars,
                    next,
                } => {
                    let (negative, back_chars, next) = (*negative, *back_chars, *next);
                    let mut body_pos = Some(pos);
                    for _ in 0..back_chars {
                        body_pos = body_pos.and_then(|p| self.hay.prev(p).map(|x| x.1));
                    }
                    match body_pos {
                        Some(bp) => {
                            self.push_choice(next, pos, ChoiceKind::Look { negative, next });
                            pos = bp;
                            pc += 1;
                            true
                        }
                        // Not enough text before: a positive look-behind fails, a negative
                        // one holds.
                        None if negative => {
                            pc = next;
                            true
                        }
                        None => false,
                    }
                }
                Inst::LookEnd => {
                    let barrier = self.cut_to_barrier();
                    let ChoiceKind::Look { negative, next } = barrier.kind else {
                        unreachable!("LookEnd closes a look-around")
                    };
                    if negative {
                        // The body matched: the assertion fails (CPython before 3.11 keeps the
                        // body's marks).
                        if self.sre.is_none() {
                            self.undo_to(barrier.trail);
                        }
                        false
                    } else {
                        pos = barrier.pos;
                        pc = next;
                        true
                    }
                }
                Inst::AtomicStart => {
                    self.push_choice(pc, pos, ChoiceKind::Atomic);
                    pc += 1;
                    true
                }
                Inst::AtomicEnd => {
                    self.cut_to_barrier();
                    pc += 1;
                    true
                }
                Inst::IfGroup { group, no } => {
                    let g = *group as usize * 2;
                    // sre takes a group that ends before it starts (left so by a failed path
                    // before 3.11) as not set.
                    if self.visible(g)
                        && self.visible(g + 1)
                        && (self.sre.is_none() || self.slots[g] <= self.slots[g + 1])
                    {
                        pc += 1;
                    } else {
                        pc = *no;
                    }
                    true
                }
                Inst::Match => {
                    if params.not_empty_at == Some(start) && pos == start {
                        false
                    } else {
                        if O::EXPLAIN {
                            self.observer.outcome(true, pos);
                        }
                        self.steps += attempt_steps;
                        return Attempt::Matched;
                    }
                }
            };
            if O::EXPLAIN {
                self.observer.outcome(ok, pos);
            }
            if ok {
                continue;
            }
            // Backtrack.
            loop {
                let Some(choice) = self.stack.pop() else {
                    self.steps += attempt_steps;
                    return Attempt::Failed;
                };
                let failed_at = self.sre.as_ref().map(|m| m.last);
                self.undo_choice(&choice);
                match choice.kind {
                    ChoiceKind::Alt | ChoiceKind::AltRestoring => {
                        pc = choice.pc;
                        pos = choice.pos;
                        if O::EXPLAIN {
                            resumed = Some(Resumed::Alternative);
                        }
                        break;
                    }
                    ChoiceKind::BranchEnd { .. } | ChoiceKind::RepeatEnd => {}
                    ChoiceKind::Look { negative, next } => {
                        self.barriers.pop();
                        if let Some(failed_at) = failed_at {
                            // sre's assertions put nothing back.
                            self.set_lastmark(failed_at);
                        }
                        if negative {
                            // The body failed everywhere: the negative assertion holds.
                            pc = next;
                            pos = choice.pos;
                            if O::EXPLAIN {
                                resumed = Some(Resumed::LookAroundHolds);
                            }
                            break;
                        }
                    }
                    ChoiceKind::Atomic => {
                        self.barriers.pop();
                    }
                    ChoiceKind::GreedyOne { floor } => {
                        let Inst::RepeatOne { back, .. } = self.prog.insts[choice.pc as usize]
                        else {
                            unreachable!()
                        };
                        // Give back one character, and on to where the rest can start.
                        let give_back = |p: usize| {
                            if back {
                                self.hay.next(p).map(|x| x.1)
                            } else {
                                self.hay.prev_boundary(p)
                            }
                            .expect("a character to give back")
                        };
                        let mut p = give_back(choice.pos);
                        if let Some(g) = self
                            .prog
                            .guards
                            .get(choice.pc as usize)
                            .and_then(|g| g.as_deref())
                            .filter(|_| self.sre.is_none() && !O::EXPLAIN)
                        {
                            let top = p;
                            while p != floor && !self.guard_allows(g, p) {
                                p = give_back(p);
                            }
                            if params.count_scans {
                                attempt_steps += top.abs_diff(p) as u64;
                            }
                            if p == floor && !self.guard_allows(g, p) {
                                continue;
                            }
                        }
                        if p != floor {
                            self.stack.push(Choice { pos: p, ..choice });
                        }
                        pc = choice.pc + 1;
                        pos = p;
                        if O::EXPLAIN {
                            resumed = Some(Resumed::GiveBack);
                        }
                        break;
                    }
                    ChoiceKind::LazyOne { count } => {
                        let Inst::RepeatOne {
                            test, max, back, ..
                        } = &self.prog.insts[choice.pc as usize]
                        else {
                            unreachable!()
                        };
                        let guard = self
                            .prog
                            .guards
                            .get(choice.pc as usize)
                            .and_then(|g| g.as_deref())
                            .filter(|_| self.sre.is_none() && !O::EXPLAIN);
                        let next = self.step_one(test, choice.pos, *back);
                        if let Some(failed_at) = failed_at
                            && (next.is_none() || count >= *max)
                        {
                            // sre's MIN_REPEAT_ONE puts `lastmark` back only after taking
                            // one more character; at its maximum it gives up then.
                            if next.is_none() {
                                self.set_lastmark(failed_at);
                            }
                            continue;
                        }
                        let Some(p) = next else {
                            continue;
                        };
                        let mut reached = p;
                        let advanced =
                            self.lazy_advance(test, guard, p, count + 1, *max, &mut reached);
                        if params.count_scans {
                            attempt_steps += reached.abs_diff(p) as u64;
                        }
                        match advanced {
                            Some((p, m)) => {
                                if m < *max || self.sre.is_some() {
                                    self.stack.push(Choice {
                                        pos: p,
                                        kind: ChoiceKind::LazyOne { count: m },
                                        ..choice
                                    });
                                }
                                pc = choice.pc + 1;
                                pos = p;
                                if O::EXPLAIN {
                                    resumed = Some(Resumed::LazyExtend);
                                }
                                break;
                            }
                            None => {
                                if let Some(failed_at) = failed_at
                                    && self.step_one(test, reached, *back).is_none()
                                {
                                    self.set_lastmark(failed_at);
                                }
                                continue;
                            }
                        }
                    }
                }
            }
            backtracked = true;
        }
    }
}

/// A set lookup helper for callers outside the matcher.
pub fn set_contains(set: &CharSet, c: u32) -> bool {
    set.contains(c)
}
