//! rxw's own backtracking matcher: a pattern's tree compiled into a small program whose every
//! instruction keeps the span of the pattern it came from, run with each flavor's rules.
//!
//! - **python** follows CPython 3.11's `sre`: a repeated group stops iterating after an
//!   iteration that matched empty but keeps that iteration's captures; a backreference to a
//!   group that did not participate fails; look-behind is fixed-width and matched forward;
//!   `finditer` retries the position of an empty match for a non-empty one.
//! - **js** follows ECMAScript as node runs it: an iteration past the minimum that matches empty
//!   is dropped with its captures; captures inside a quantified body reset on each iteration; a
//!   backreference to a group that did not participate matches empty; look-behind runs right to
//!   left; without `u`/`v` the text is matched as UTF-16 code units.
//! - **rust** is leftmost-first; the `regex` crate stays the engine of record, the matcher serves
//!   tracing.
//!
//! The matcher keeps no recursion: choice points live on an explicit stack and every change to
//! a capture or loop register is logged on a trail, so backtracking restores state exactly. It
//! counts steps deterministically and stops at a budget; an [`Observer`] sees every step and
//! costs nothing when it is [`NoObserver`].

pub mod charset;
mod compile;
pub mod exec;

pub use compile::accepted_chars;
pub(crate) use compile::apply as apply_flag_change;
pub use compile::{compile, compile_for_latin1_text, compile_node18_units};
pub(crate) use compile::{python_search_prefix, sre_makes_one_set};
pub use exec::{
    Haystack, NoObserver, Observer, Outcome, Resumed, Step, Utf8Hay, Utf16Hay, Utf16PairHay,
    run_search,
};

use charset::{CharSet, Fold};
use rxw_syntax::Span;
use rxw_syntax::flavor::Flavor;

/// How one character (or code unit) is tested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Test {
    /// Exactly this code point.
    Char(u32),
    /// Any character.
    Any,
    /// Any character but `\n` (Python, Rust).
    AnyNotNewline,
    /// Any character but a JavaScript line terminator.
    AnyNotJsLineTerminator,
    /// A set, after folding the character; `negated` inverts the answer.
    Set {
        /// Index into [`Program::sets`].
        set: u32,
        /// How the input character is folded before the lookup.
        fold: Fold,
        /// Inverts the answer.
        negated: bool,
    },
}

/// Zero-width assertions with their flavor's meaning resolved at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assertion {
    /// Start of the text.
    TextStart,
    /// End of the text.
    TextEnd,
    /// Start of text or after `\n`.
    LineStartNewline,
    /// Start of text or after a JavaScript line terminator.
    LineStartJs,
    /// End of text or before `\n`.
    LineEndNewline,
    /// End of text or before a JavaScript line terminator.
    LineEndJs,
    /// Python `$` without MULTILINE: end of text, or before a final `\n`.
    EndOrFinalNewline,
    /// A word boundary with the given word set (index into [`Program::sets`]).
    WordBoundary {
        /// The set of word characters.
        word: u32,
        /// `\B`.
        negated: bool,
    },
    /// Rust `\b{start}`.
    WordStart {
        /// The set of word characters.
        word: u32,
    },
    /// Rust `\b{end}`.
    WordEnd {
        /// The set of word characters.
        word: u32,
    },
    /// Rust `\b{start-half}`.
    WordStartHalf {
        /// The set of word characters.
        word: u32,
    },
    /// Rust `\b{end-half}`.
    WordEndHalf {
        /// The set of word characters.
        word: u32,
    },
}

/// Which empty-iteration rule a loop follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopRule {
    /// sre: stop iterating after an empty iteration, keeping it.
    Python,
    /// ECMAScript: an iteration past the minimum that matches empty fails.
    Js,
    /// RE2 and Go, which simulate the program and drop a thread that comes back to a state it
    /// already holds at that position. An unbounded `x*` of a nullable `x` runs as `(x+)?`
    /// and `x{n,}` as `x…x x+`, so the loop's first free iteration may match empty (and then
    /// ends the loop) and a later empty iteration fails. A bounded repetition is written out
    /// as copies, so its iterations are never refused.
    Re2 {
        /// The repetition has no maximum.
        unbounded: bool,
    },
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inst {
    /// Consume one character that passes the test (backward in look-behind).
    Consume {
        /// The test.
        test: Test,
        /// Right to left.
        back: bool,
    },
    /// Consume one UTF-16 code unit that passes the test, half of a surrogate pair included
    /// (node 18's negated class in a run of text, see [`Program::unit_classes`]); elsewhere
    /// as [`Inst::Consume`].
    ConsumeUnit {
        /// The test.
        test: Test,
        /// Right to left.
        back: bool,
    },
    /// A single-character loop: `min..=max` characters that pass the test.
    RepeatOne {
        /// The test.
        test: Test,
        /// Minimum count.
        min: u32,
        /// Maximum count (`u32::MAX` for unbounded).
        max: u32,
        /// Greedy (else lazy).
        greedy: bool,
        /// Right to left.
        back: bool,
    },
    /// A zero-width assertion.
    Assert(Assertion),
    /// Try `first`, and on failure `second`.
    Split {
        /// Preferred continuation.
        first: u32,
        /// Continuation on backtrack.
        second: u32,
    },
    /// Continue at the target.
    Jump(u32),
    /// Record the position in a capture slot (2k start, 2k+1 end of group k).
    Save(u32),
    /// Unset the capture slots `from..to` (ECMAScript resets a body's captures per iteration).
    ClearSlots {
        /// First slot.
        from: u32,
        /// One past the last slot.
        to: u32,
    },
    /// Start a counted loop: its count is zero, its last position unset.
    LoopInit {
        /// Loop register.
        reg: u32,
    },
    /// Decide whether to run the body again (see [`LoopRule`]).
    LoopHead {
        /// Loop register.
        reg: u32,
        /// Minimum iterations.
        min: u32,
        /// Maximum iterations (`u32::MAX` for unbounded).
        max: u32,
        /// Greedy (else lazy).
        greedy: bool,
        /// Where the body's setup starts ([`Inst::LoopIter`]).
        iter: u32,
        /// Where the loop exits to.
        exit: u32,
        /// The empty-iteration rule.
        rule: LoopRule,
    },
    /// Begin one iteration: record its start, then continue into the body.
    LoopIter {
        /// Loop register.
        reg: u32,
        /// The rule (Python's lazy loop checks its guard here).
        rule: LoopRule,
        /// Python lazy: the maximum, checked when backtracking into another iteration.
        max: u32,
        /// Python lazy: this entry is the backtrack into one more iteration.
        lazy_retry: bool,
    },
    /// End one iteration: apply the empty check, count it, go back to the head.
    LoopEnd {
        /// Loop register.
        reg: u32,
        /// Minimum iterations (the empty check applies past it).
        min: u32,
        /// The loop's head.
        head: u32,
        /// The rule.
        rule: LoopRule,
    },
    /// Match the text of a group again.
    Backref {
        /// Group number.
        group: u32,
        /// Case folding.
        fold: Fold,
        /// Right to left.
        back: bool,
        /// A group that did not participate matches empty (JS) instead of failing.
        unset_matches_empty: bool,
    },
    /// Open a look-around; the body runs until [`Inst::LookEnd`].
    LookStart {
        /// Negative assertion.
        negative: bool,
        /// Python look-behind: step back this many characters first.
        back_chars: u32,
        /// The instruction after the matching `LookEnd`.
        next: u32,
    },
    /// Close the innermost look-around.
    LookEnd,
    /// Open an atomic group.
    AtomicStart,
    /// Close the innermost atomic group: forget its choice points.
    AtomicEnd,
    /// Python conditional: continue when the group matched, else jump to `no`.
    IfGroup {
        /// Group number.
        group: u32,
        /// The "no" branch.
        no: u32,
    },
    /// The whole pattern matched.
    Match,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Program {
    /// The instructions.
    pub insts: Vec<Inst>,
    /// The pattern span of each instruction.
    pub spans: Vec<Span>,
    /// Sets used by tests and word assertions.
    pub sets: Vec<CharSet>,
    /// Capture slots: two per group, group 0 included.
    pub slots: usize,
    /// Loop registers.
    pub regs: usize,
    /// The flavor whose rules it follows.
    pub flavor: Flavor,
    /// JavaScript without `u`/`v`: matches UTF-16 code units.
    pub code_units: bool,
    /// node 18 with `u`: searched on UTF-16 code units, characters read whole (nothing is
    /// read at a position between the two halves of a pair), and its
    /// [`Inst::ConsumeUnit`]s read one code unit (V8 10.2's negated classes in a run of text).
    pub unit_classes: bool,
    /// Every match starts at the start of the text (`\A`, or `^` without MULTILINE).
    pub anchored_start: bool,
    /// Bytes a match can start with, when known (`None`: any, or the pattern can match empty).
    pub first_bytes: Option<Box<[bool; 256]>>,
    /// The same bytes as a list, when there are at most three (memchr finds them).
    pub first_byte_list: Option<Vec<u8>>,
    /// For each single-character loop ([`Inst::RepeatOne`], by pc): what its continuation can
    /// start with, so the loop gives back or takes characters only where the rest can match.
    pub guards: Vec<Option<Box<Guard>>>,
    /// The splits (by pc, ascending) of alternations inside a loop that is not a
    /// single-character one: sre's `BRANCH` there saves the marks and puts them back after each
    /// alternative that fails, which CPython before 3.11 does nowhere else but in a greedy
    /// loop's extra iteration.
    pub mark_restoring: Vec<u32>,
    /// The fewest characters a match needs, as sre records it ([`Rewrites::Sre`]): the search
    /// tries no start with fewer left. 0: no such check.
    ///
    /// [`Rewrites::Sre`]: rxw_syntax::rules::Rewrites::Sre
    pub min_chars: u64,
    /// A single-character loop fails at once when its minimum is more than what is left of
    /// the text (sre's `REPEAT_ONE`), without testing a character.
    pub short_repeat_fails: bool,
}

/// What the continuation of an instruction can start with (a superset): the first UTF-8 byte
/// of the next character, or the end of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    /// First bytes the next character can have.
    pub bytes: [bool; 256],
    /// Whether the continuation can succeed at the end of the text.
    pub at_end: bool,
    /// No character the loop takes can start the continuation: giving one back never helps,
    /// so the loop keeps what it took (PCRE calls this auto-possessification).
    pub disjoint: bool,
}

impl Guard {
    /// Whether the continuation can match at `pos` of `hay`.
    #[inline]
    pub fn allows(&self, hay: &[u8], pos: usize) -> bool {
        match hay.get(pos) {
            Some(&b) => self.bytes[b as usize],
            None => self.at_end,
        }
    }

    /// The only byte it allows, when there is exactly one.
    pub fn single_byte(&self) -> Option<u8> {
        let mut it = self.bytes.iter().enumerate().filter(|(_, b)| **b);
        match (it.next(), it.next()) {
            (Some((b, _)), None) => Some(b as u8),
            _ => None,
        }
    }
}

impl Program {
    /// The number of capture groups, group 0 included.
    pub fn groups(&self) -> usize {
        self.slots / 2
    }
}
