//! Many patterns over one text: which of them match?
//!
//! [`PatternSet`] answers "does each of these patterns match this text?" for many compiled
//! [`Regex`]es at once, with as few passes over the text as it can. It is the engine's answer
//! for callers that ask about many patterns (the audit's columns); they never look at a
//! pattern's literals themselves. Each member gets one [`Strategy`], chosen once from its
//! typical program ([`Regex::typical_linear`]):
//!
//! - **[`Strategy::Prefix`]**: every match starts with one of a few literals of two bytes or
//!   more (`[ACK`, `[CLAIM`…). The literals of all such members go into one Aho-Corasick
//!   automaton, and one pass over the text finds every place a literal starts; a member is
//!   confirmed by an anchored search there and is decided at its first match. The pass stops
//!   when every member it serves is decided.
//! - **[`Strategy::InnerLiteral`]**: every match holds a literal at a fixed byte offset from
//!   its start (`-4` at byte 13 in a UUID v4 pattern); its literal joins the same pass, and the
//!   anchored search starts that many bytes back.
//! - **[`Strategy::Scan`]**: no literal to look for: the members share one lazy DFA pass (all
//!   patterns at once), which ends when each of them has matched.
//! - **[`Strategy::ScanByLine`]**: as `Scan`, for patterns with a Unicode word boundary that
//!   can be answered line by line (they cannot match a newline, cannot match empty and assert
//!   nothing but word boundaries and line anchors). A DFA cannot see whether a non-ASCII
//!   character is a word character, so it stops at the first non-ASCII byte; that line is set
//!   aside and the DFA resumes on the next one. Only if a member is still open at the end are
//!   the set-aside lines answered, one at a time, by the pattern's own program. A match lies
//!   within one line, so the answers are the same as over the whole text.
//! - **[`Strategy::Alone`]**: the member's typical program over the whole text with its own
//!   prefilter (a weak literal start, such as one byte; or a Unicode word boundary that cannot
//!   be answered line by line).
//! - **[`Strategy::Own`]**: no linear program (look-around, backreferences…): the pattern's
//!   own engine, [`Regex::is_match`].
//!
//! Whatever the strategy, a text whose [`InputTraits`] do not meet the member's needs (a
//! Python `\b` next to a character where the two `\w` disagree, a JS astral character…) is
//! answered by [`Regex::is_match`]: the answers are always the pattern's own. Literal
//! candidates are complete by construction: literals with another literal as a prefix are
//! served by that shorter one (its places include theirs), and when one literal can start
//! inside an occurrence of another, the pass looks again one byte after each occurrence
//! instead of after its end.

pub mod hits;
pub use crate::facts::literal;
pub mod substrings;

pub use hits::{Hit, HitPattern, HitScanner, Hits, HitsOptions, MAX_LOOK_BEHIND, Starts};
pub use substrings::{SubstringSet, Tally};

use crate::{InputTraits, Regex};
use aho_corasick::AhoCorasick;
use literal::Piece;
use regex_automata::hybrid::dfa::OverlappingState;
use regex_automata::hybrid::dfa::{Cache as DfaCache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::{Anchored, Input, MatchErrorKind, MatchKind, meta};
use regex_syntax::hir::{Hir, HirKind, Look, literal::Extractor};
use rxw_syntax::error::Error;
use std::collections::HashMap;
use std::sync::Arc;

/// Most literals one member may bring to the shared pass (more, and it runs alone).
const MAX_MEMBER_LITERALS: usize = 16;
/// Most literals in the shared pass (the automaton's fast SIMD searcher holds up to 64).
const MAX_LITERALS: usize = 64;
/// Size limits for the programs a set compiles (the engine's own linear programs use these).
const NFA_SIZE_LIMIT: usize = 64 << 20;

/// How one member of a [`PatternSet`] is answered (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Strategy {
    /// Candidates from the shared literal pass, where one of its first literals starts.
    Prefix,
    /// Candidates from the shared literal pass, `offset` bytes after its fixed-offset literal
    /// would start a match.
    InnerLiteral {
        /// Bytes from a match's start to the literal.
        offset: usize,
    },
    /// The shared DFA pass.
    Scan,
    /// The shared DFA pass that stops at non-ASCII lines and answers them one at a time.
    ScanByLine,
    /// Its typical program alone over the whole text.
    Alone,
    /// Its own engine.
    Own,
}

/// One member: the pattern, what its typical program needs of a text, and its programs.
struct Member<'r> {
    re: &'r Regex,
    needs: InputTraits,
    strategy: Strategy,
    /// The typical program, for anchored confirmations, whole-text searches and lines.
    program: Option<meta::Regex>,
}

/// Finds the literals of the shared pass.
enum LiteralSearcher {
    /// One literal: memmem.
    One(memchr::memmem::Finder<'static>),
    /// The SIMD searcher for a few literals (Teddy), used whenever it can be built: the
    /// automaton's own choice of prefilter would pick memchr on the literals' first bytes,
    /// which in text full of `[` and `-` stops at almost every line.
    Packed(aho_corasick::packed::Searcher),
    /// The automaton, where the SIMD searcher is not available.
    Automaton(AhoCorasick),
}

impl LiteralSearcher {
    fn new(literals: &[&[u8]]) -> Option<LiteralSearcher> {
        if let [one] = literals {
            return Some(LiteralSearcher::One(
                memchr::memmem::Finder::new(one).into_owned(),
            ));
        }
        let packed = aho_corasick::packed::Config::new()
            .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
            .builder()
            .extend(literals)
            .build();
        if let Some(p) = packed {
            return Some(LiteralSearcher::Packed(p));
        }
        AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(literals)
            .ok()
            .map(LiteralSearcher::Automaton)
    }

    /// The leftmost occurrence starting at or after `at`: (literal, start, end).
    fn find(&self, hay: &[u8], at: usize) -> Option<(usize, usize, usize)> {
        let m = match self {
            LiteralSearcher::One(f) => {
                let start = at + f.find(&hay[at..])?;
                return Some((0, start, start + f.needle().len()));
            }
            LiteralSearcher::Packed(p) => p.find_in(hay, aho_corasick::Span::from(at..hay.len())),
            LiteralSearcher::Automaton(a) => a.find(aho_corasick::Input::new(hay).range(at..)),
        }?;
        Some((m.pattern().as_usize(), m.start(), m.end()))
    }
}

/// The shared literal pass: the members it serves and their literals, and the searcher for
/// all of them. Once some members are decided, their literals only cost time (in a log full
/// of `[ACK` lines, every one would stop the search), so the pass narrows to the members
/// still open, with searchers built for those sets as they occur (shared by the threads).
struct LiteralPass {
    /// The members served; a member's bit in a mask is its index here (at most 64).
    members: Vec<usize>,
    /// The distinct literals of all served members (at most 64), each with the members it
    /// serves: (member bit, bytes from the match's start to the literal).
    literals: Vec<(Vec<u8>, Vec<Target>)>,
    /// For each literal: the members it serves, as a mask.
    served_by: Vec<u64>,
    /// For each literal: the other literals that are a proper prefix of it, as a mask.
    prefixes: Vec<u64>,
    /// For each literal: the literals that can start strictly inside an occurrence of it.
    starts_inside: Vec<u64>,
    /// The searcher for every served member.
    full: Literals,
    /// Narrowed searchers built so far by any thread (each thread keeps the ones it has used
    /// in its cache, so this is locked only the first time a thread meets a set of members).
    shared: std::sync::Mutex<MaskMap<Arc<Literals>>>,
}

/// A member a literal gives candidates to: its bit in the pass, and how many bytes back from
/// the literal its anchored search starts.
type Target = (usize, usize);

/// A searcher for the literals of some of the pass's members.
struct Literals {
    searcher: LiteralSearcher,
    /// For each literal: the members (by served index) it gives candidates to, and how many
    /// bytes back from the literal their anchored search starts.
    targets: Vec<Vec<Target>>,
    /// One literal can start inside an occurrence of another: look again one byte on.
    overlapping: bool,
}

/// A shared DFA pass over several members.
struct Scan {
    dfa: DFA,
    /// The member of each DFA pattern.
    members: Vec<usize>,
    /// The DFA stops at non-ASCII bytes (Unicode word boundaries); lines are answered alone.
    by_line: bool,
    /// When every member is line-local and holds a run: the run any of them holds. The DFA
    /// then runs only on the lines where such a run occurs.
    run: Option<ByteRun>,
}

/// Many compiled patterns, answered together over one text at a time.
pub struct PatternSet<'r> {
    members: Vec<Member<'r>>,
    literals: Option<LiteralPass>,
    scans: Vec<Scan>,
    /// Every input trait some member's typical program needs.
    needs: InputTraits,
}

/// Per-thread scratch space for [`PatternSet::which_match`]; make one per thread with
/// [`PatternSet::create_cache`] and reuse it across texts.
pub struct SetCache {
    programs: Vec<Option<meta::Cache>>,
    scans: Vec<DfaCache>,
    /// Literal searchers for the sets of open members met so far (by mask; `None` when the
    /// set has no room for another).
    narrowed: MaskMap<Option<Arc<Literals>>>,
    /// Non-ASCII lines a by-line scan has set aside: (start, end).
    deferred_lines: Vec<(usize, usize)>,
    /// Each member's answer while a text is searched (`None`: still open) ...
    answers: Vec<Option<Result<bool, Error>>>,
    /// ... and when it is done.
    found: Vec<Result<bool, Error>>,
}

impl std::fmt::Debug for PatternSet<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.members.iter().map(|m| (m.re.pattern(), m.strategy)))
            .finish()
    }
}

/// What the set needs to know about a typical program's tree.
struct Shape {
    /// The literals every match starts with, when there are few and they are not empty.
    prefixes: Option<Vec<Vec<u8>>>,
    /// A literal of two bytes or more at a fixed offset from every match's start.
    inner: Option<(usize, Vec<u8>)>,
    unicode_word: bool,
    line_local: bool,
    /// Bytes every match holds in a row (see [`ByteRun`]).
    run: Option<ByteRun>,
}

impl Shape {
    fn of(hir: &Hir) -> Shape {
        let props = hir.properties();
        let looks = props.look_set();
        let seq = Extractor::new().extract(hir);
        let prefixes = seq.literals().and_then(|lits| {
            let all_non_empty = !lits.is_empty() && lits.iter().all(|l| !l.as_bytes().is_empty());
            all_non_empty.then(|| lits.iter().map(|l| l.as_bytes().to_vec()).collect())
        });
        let word_or_line = looks.iter().all(|l| {
            matches!(
                l,
                Look::WordAscii
                    | Look::WordAsciiNegate
                    | Look::WordUnicode
                    | Look::WordUnicodeNegate
                    | Look::WordStartAscii
                    | Look::WordEndAscii
                    | Look::WordStartUnicode
                    | Look::WordEndUnicode
                    | Look::WordStartHalfAscii
                    | Look::WordEndHalfAscii
                    | Look::WordStartHalfUnicode
                    | Look::WordEndHalfUnicode
                    | Look::StartLF
                    | Look::EndLF
            )
        });
        Shape {
            prefixes,
            inner: fixed_offset_literal(hir),
            unicode_word: looks.contains_word_unicode(),
            line_local: word_or_line
                && props.minimum_len().is_some_and(|n| n > 0)
                && !can_match_newline(hir),
            run: ByteRun::of(hir),
        }
    }

    /// Prefix literals good enough for the shared pass: few, and none a single byte (one
    /// common byte would make every position a candidate).
    fn strong_prefixes(&self) -> Option<&Vec<Vec<u8>>> {
        self.prefixes
            .as_ref()
            .filter(|p| p.len() <= MAX_MEMBER_LITERALS && p.iter().all(|l| l.len() >= 2))
    }
}

/// A literal of two or more bytes that every match of `hir` holds at a fixed byte offset from
/// its start ([`literal::fixed_offset_literal`] over the top-level items).
fn fixed_offset_literal(hir: &Hir) -> Option<(usize, Vec<u8>)> {
    let mut h = hir;
    while let HirKind::Capture(c) = h.kind() {
        h = &c.sub;
    }
    let HirKind::Concat(items) = h.kind() else {
        return None;
    };
    literal::fixed_offset_literal(items.iter().map(|item| {
        if let HirKind::Literal(lit) = item.kind() {
            return Piece::Literal(lit.0.to_vec());
        }
        let p = item.properties();
        match (p.minimum_len(), p.maximum_len()) {
            (Some(a), Some(b)) if a == b => Piece::Width(a),
            _ => Piece::Varying,
        }
    }))
}

/// Shortest run worth looking for; longest looked for (the detector works on 64-byte words).
const MIN_RUN: usize = 4;
const MAX_RUN: usize = 32;

/// A run of `len` bytes in a row, each in `class` (ASCII bytes only), that every match holds:
/// the items of the pattern's top-level concatenation between two items that are not ASCII
/// classes, ASCII literals, repetitions of those or zero-width assertions (`\b[0-9a-f]{6,12}\b`
/// holds six bytes of `[0-9a-f]` in a row). Looking for such a run is several times quicker
/// than a DFA over the same bytes, and a text without one cannot match.
#[derive(Clone)]
struct ByteRun {
    class: [u8; 256],
    len: usize,
}

impl ByteRun {
    fn of(hir: &Hir) -> Option<ByteRun> {
        let mut h = hir;
        while let HirKind::Capture(c) = h.kind() {
            h = &c.sub;
        }
        let items = match h.kind() {
            HirKind::Concat(items) => items.as_slice(),
            _ => std::slice::from_ref(h),
        };
        let mut best: Option<ByteRun> = None;
        let mut current = ByteRun {
            class: [0; 256],
            len: 0,
        };
        for item in items.iter().map(Some).chain([None]) {
            match item.and_then(ascii_piece) {
                Some((bytes, n)) => {
                    for b in bytes {
                        current.class[usize::from(b)] = 1;
                    }
                    current.len += n;
                }
                None => {
                    if current.len > best.as_ref().map_or(0, |b| b.len) {
                        best = Some(current.clone());
                    }
                    current = ByteRun {
                        class: [0; 256],
                        len: 0,
                    };
                }
            }
        }
        best.filter(|r| r.len >= MIN_RUN).map(|mut r| {
            r.len = r.len.min(MAX_RUN);
            r
        })
    }

    /// Merges two runs into one every match of either holds.
    fn union(&self, other: &ByteRun) -> ByteRun {
        let mut class = self.class;
        for (c, o) in class.iter_mut().zip(other.class) {
            *c |= o;
        }
        ByteRun {
            class,
            len: self.len.min(other.len),
        }
    }

    /// Where the first run in `hay[from..]` ends (the runs ending earliest come first).
    fn find(&self, hay: &[u8], from: usize) -> Option<usize> {
        let n = self.len;
        // Class bytes in a row just before the current chunk.
        let mut carry = 0usize;
        let mut base = from;
        for chunk in hay[from..].chunks(64) {
            let mut m = 0u64;
            for (i, &b) in chunk.iter().enumerate() {
                m |= u64::from(self.class[usize::from(b)]) << i;
            }
            let lead = m.trailing_ones() as usize;
            if carry + lead >= n {
                return Some(base + n - carry);
            }
            // Bit j of `starts` is set when bytes j..j + n of the chunk are all class bytes:
            // runs of `len` found by doubling, then two of them overlapping make `n`.
            let mut starts = m;
            let mut len = 1;
            while len * 2 <= n {
                starts &= starts >> len;
                len *= 2;
            }
            if len < n {
                starts &= starts >> (n - len);
            }
            if starts != 0 {
                return Some(base + starts.trailing_zeros() as usize + n);
            }
            carry = if m == u64::MAX {
                carry + 64
            } else {
                m.leading_ones() as usize
            };
            base += chunk.len();
        }
        None
    }
}

/// For an item of a concatenation: the ASCII bytes it can consume and how many of them it
/// consumes at least (zero for a zero-width assertion), when it consumes nothing else.
fn ascii_piece(item: &Hir) -> Option<(Vec<u8>, usize)> {
    use regex_syntax::hir::Class;
    let class_bytes = |h: &Hir| -> Option<(Vec<u8>, usize)> {
        match h.kind() {
            HirKind::Literal(lit) if lit.0.is_ascii() => Some((lit.0.to_vec(), lit.0.len())),
            HirKind::Class(Class::Unicode(c)) if c.ranges().iter().all(|r| r.end().is_ascii()) => {
                let bytes = c
                    .ranges()
                    .iter()
                    .flat_map(|r| r.start() as u8..=r.end() as u8);
                Some((bytes.collect(), 1))
            }
            HirKind::Class(Class::Bytes(c)) if c.ranges().iter().all(|r| r.end().is_ascii()) => {
                let bytes = c.ranges().iter().flat_map(|r| r.start()..=r.end());
                Some((bytes.collect(), 1))
            }
            _ => None,
        }
    };
    match item.kind() {
        HirKind::Look(_) | HirKind::Empty => Some((Vec::new(), 0)),
        HirKind::Repetition(r) => {
            let (bytes, n) = class_bytes(&r.sub)?;
            Some((bytes, n.checked_mul(usize::try_from(r.min).ok()?)?))
        }
        _ => class_bytes(item),
    }
}

/// Whether any literal or class in the pattern can match `\n` (a conservative walk over the
/// tree with an explicit stack: patterns may nest deeply).
fn can_match_newline(hir: &Hir) -> bool {
    use regex_syntax::hir::Class;
    let mut stack = vec![hir];
    while let Some(h) = stack.pop() {
        match h.kind() {
            HirKind::Literal(lit) => {
                if lit.0.contains(&b'\n') {
                    return true;
                }
            }
            HirKind::Class(Class::Unicode(c)) => {
                if c.ranges()
                    .iter()
                    .any(|r| r.start() <= '\n' && '\n' <= r.end())
                {
                    return true;
                }
            }
            HirKind::Class(Class::Bytes(c)) => {
                if c.ranges()
                    .iter()
                    .any(|r| r.start() <= b'\n' && b'\n' <= r.end())
                {
                    return true;
                }
            }
            HirKind::Empty | HirKind::Look(_) => {}
            HirKind::Repetition(r) => stack.push(&r.sub),
            HirKind::Capture(c) => stack.push(&c.sub),
            HirKind::Concat(hs) | HirKind::Alternation(hs) => stack.extend(hs.iter()),
        }
    }
    false
}

fn build_program(src: &str) -> Option<meta::Regex> {
    meta::Builder::new()
        .configure(
            meta::Config::new()
                .nfa_size_limit(Some(NFA_SIZE_LIMIT))
                .onepass_size_limit(Some(NFA_SIZE_LIMIT))
                .dfa_size_limit(Some(NFA_SIZE_LIMIT)),
        )
        .build(src)
        .ok()
}

/// The DFA of a scan: several members report every match (overlapping search); one member
/// needs only the earliest match end.
fn build_scan_dfa(sources: &[&str]) -> Option<DFA> {
    let kind = if sources.len() == 1 {
        MatchKind::LeftmostFirst
    } else {
        MatchKind::All
    };
    DFA::builder()
        .configure(
            DFA::config()
                .match_kind(kind)
                .unicode_word_boundary(true)
                .cache_capacity(8 << 20),
        )
        .thompson(
            thompson::Config::new()
                .nfa_size_limit(Some(NFA_SIZE_LIMIT))
                .which_captures(WhichCaptures::None),
        )
        .build_many(sources)
        .ok()
}

impl<'r> PatternSet<'r> {
    /// Plans how to answer `regexes` together (nothing is searched yet).
    pub fn new(regexes: &[&'r Regex]) -> PatternSet<'r> {
        let mut members = Vec::with_capacity(regexes.len());
        // (member, offset, literal) for the shared pass.
        let mut wanted: Vec<(usize, usize, Vec<u8>)> = Vec::new();
        // (member, program, the run it holds when it is line-local) of each scan.
        type ScanSource = (usize, String, Option<ByteRun>);
        let mut scan_sources: [Vec<ScanSource>; 2] = [Vec::new(), Vec::new()];
        for (i, re) in regexes.iter().enumerate() {
            let own = Member {
                re,
                needs: InputTraits::default(),
                strategy: Strategy::Own,
                program: None,
            };
            let Some((src, needs)) = re.typical_linear() else {
                members.push(own);
                continue;
            };
            let (Ok(hir), Some(program)) = (regex_syntax::parse(src), build_program(src)) else {
                members.push(own);
                continue;
            };
            let shape = Shape::of(&hir);
            let run = shape.run.clone().filter(|_| shape.line_local);
            let room = MAX_LITERALS - wanted.len();
            let strategy = if let Some(p) = shape.strong_prefixes().filter(|p| p.len() <= room) {
                wanted.extend(p.iter().map(|l| (i, 0, l.clone())));
                Strategy::Prefix
            } else if let Some((offset, lit)) = shape.inner.clone().filter(|_| room > 0) {
                wanted.push((i, offset, lit));
                Strategy::InnerLiteral { offset }
            } else if shape.prefixes.is_some() || (shape.unicode_word && !shape.line_local) {
                Strategy::Alone
            } else if shape.unicode_word {
                scan_sources[1].push((i, src.to_string(), run));
                Strategy::ScanByLine
            } else {
                scan_sources[0].push((i, src.to_string(), run));
                Strategy::Scan
            };
            members.push(Member {
                re,
                needs,
                strategy,
                program: Some(program),
            });
        }
        let literals = LiteralPass::new(rarest_windows(wanted), &mut members);
        let mut scans = Vec::new();
        for (by_line, sources) in [(false, &scan_sources[0]), (true, &scan_sources[1])] {
            if sources.is_empty() {
                continue;
            }
            let srcs: Vec<&str> = sources.iter().map(|(_, s, _)| s.as_str()).collect();
            let run = sources
                .iter()
                .map(|(_, _, run)| run.clone())
                .reduce(|a, b| Some(a?.union(&b?)))
                .flatten();
            match build_scan_dfa(&srcs) {
                Some(dfa) => scans.push(Scan {
                    dfa,
                    members: sources.iter().map(|(m, _, _)| *m).collect(),
                    by_line,
                    run,
                }),
                // Too large for one DFA: each member searches alone.
                None => {
                    for (m, _, _) in sources {
                        members[*m].strategy = Strategy::Alone;
                    }
                }
            }
        }
        let needs = members
            .iter()
            .fold(InputTraits::default(), |acc, m| acc.union(m.needs));
        PatternSet {
            members,
            literals,
            scans,
            needs,
        }
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the set has no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// How member `i` is answered on texts that meet its needs.
    pub fn strategy(&self, i: usize) -> Strategy {
        self.members[i].strategy
    }

    /// Scratch space for one thread's searches.
    pub fn create_cache(&self) -> SetCache {
        SetCache {
            programs: self
                .members
                .iter()
                .map(|m| m.program.as_ref().map(meta::Regex::create_cache))
                .collect(),
            scans: self.scans.iter().map(|s| s.dfa.create_cache()).collect(),
            narrowed: MaskMap::default(),
            deferred_lines: Vec::new(),
            answers: Vec::new(),
            found: Vec::new(),
        }
    }

    /// Whether each member matches somewhere in `text`, in member order: exactly
    /// [`Regex::is_match`] for each.
    ///
    /// A member's own engine can fail (a step budget); its entry is then that error.
    /// The answers are kept in `cache` (no allocation per text once it has served one).
    pub fn which_match<'c>(
        &self,
        text: &str,
        cache: &'c mut SetCache,
    ) -> &'c [Result<bool, Error>] {
        let mut answers = std::mem::take(&mut cache.answers);
        answers.clear();
        answers.resize(self.members.len(), None);
        let traits = InputTraits::of(text, self.needs);
        for (i, m) in self.members.iter().enumerate() {
            if m.strategy == Strategy::Own || !traits.meets(&m.needs) {
                answers[i] = Some(m.re.is_match(text));
            }
        }
        let hay = text.as_bytes();
        if let Some(pass) = &self.literals {
            self.literal_pass(pass, hay, cache, &mut answers);
        }
        for (k, scan) in self.scans.iter().enumerate() {
            self.scan_pass(scan, hay, cache, k, &mut answers);
        }
        for (i, answer) in answers.iter_mut().enumerate() {
            if answer.is_none() {
                // Alone, or left open by a pass that could not finish.
                *answer = Some(Ok(self.search_alone(i, Input::new(hay), cache)));
            }
        }
        cache.found.clear();
        cache.found.extend(
            answers
                .iter_mut()
                .map(|a| a.take().expect("every member answered")),
        );
        cache.answers = answers;
        &cache.found
    }

    /// Whether member `i`'s typical program matches in `input` (with the member's own
    /// prefilter).
    fn search_alone(&self, i: usize, input: Input<'_>, cache: &mut SetCache) -> bool {
        let program = self.members[i]
            .program
            .as_ref()
            .expect("a member with a linear program");
        let c = cache.programs[i].as_mut().expect("a cache for the program");
        program.search_half_with(c, &input.earliest(true)).is_some()
    }

    /// Whether member `i` has a match starting at `start`.
    fn confirm(&self, i: usize, hay: &[u8], start: usize, cache: &mut SetCache) -> bool {
        let input = Input::new(hay).range(start..).anchored(Anchored::Yes);
        self.search_alone(i, input, cache)
    }

    fn literal_pass(
        &self,
        pass: &LiteralPass,
        hay: &[u8],
        cache: &mut SetCache,
        answers: &mut [Option<Result<bool, Error>>],
    ) {
        let all = pass.all_mask();
        let mut open = pass
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| answers[**m].is_none())
            .fold(0u64, |acc, (bit, _)| acc | 1 << bit);
        // The searcher for the open members: the full one, or a narrowed one of this thread's.
        let mut narrowed = if open == all {
            None
        } else {
            pass.narrowed(open, &mut cache.narrowed)
        };
        let mut at = 0;
        while open != 0 {
            let lits = narrowed.as_deref().unwrap_or(&pass.full);
            let Some((lit, start, end)) = lits.searcher.find(hay, at) else {
                break;
            };
            let mut wasted = true;
            for &(bit, back) in &lits.targets[lit] {
                if open & (1 << bit) == 0 {
                    continue;
                }
                wasted = false;
                let m = pass.members[bit];
                if start >= back && self.confirm(m, hay, start - back, cache) {
                    answers[m] = Some(Ok(true));
                    open &= !(1 << bit);
                }
            }
            at = if lits.overlapping { start + 1 } else { end };
            // A literal serving only decided members stops the search again and again (in a
            // log full of `[ACK` lines, once the ACK column is decided): narrow the search to
            // the members still open. Narrowing waits for such a stop, so that texts whose
            // decided literals do not come back pay nothing for it.
            if wasted && let Some(narrower) = pass.narrowed(open, &mut cache.narrowed) {
                narrowed = Some(narrower);
                // No literal of an open member starts at `start` (the one found there was the
                // only literal of the old search starting there), so the next place is on.
                at = start + 1;
            }
        }
        for m in &pass.members {
            if answers[*m].is_none() {
                answers[*m] = Some(Ok(false));
            }
        }
    }

    fn scan_pass(
        &self,
        scan: &Scan,
        hay: &[u8],
        cache: &mut SetCache,
        k: usize,
        answers: &mut [Option<Result<bool, Error>>],
    ) {
        let mut open = scan
            .members
            .iter()
            .filter(|m| answers[**m].is_none())
            .count();
        let from = match &scan.run {
            Some(run) => match self.run_pass(scan, run, hay, cache, k, answers, &mut open) {
                Some(from) => from,
                None => return,
            },
            None => 0,
        };
        if open > 0 && !self.dfa_pass(scan, hay, from, cache, k, answers, &mut open) {
            // The DFA gave up (its cache thrashed): what is open is searched alone.
            return;
        }
        for m in &scan.members {
            if answers[*m].is_none() {
                answers[*m] = Some(Ok(false));
            }
        }
    }

    /// The lines holding a run of the scan's bytes, each searched whole (a match lies in one
    /// line, and holds such a run). Returns where a plain DFA pass must go on from, when the
    /// runs turned out too common to be worth looking for; `None` when done (the members left
    /// open are answered).
    #[allow(clippy::too_many_arguments)]
    fn run_pass(
        &self,
        scan: &Scan,
        run: &ByteRun,
        hay: &[u8],
        cache: &mut SetCache,
        k: usize,
        answers: &mut [Option<Result<bool, Error>>],
        open: &mut usize,
    ) -> Option<usize> {
        /// Lines searched in vain before the plain DFA pass takes over.
        const MAX_IDLE_LINES: usize = 32;
        let mut at = 0;
        let mut idle = 0;
        while *open > 0
            && let Some(end) = run.find(hay, at)
        {
            let start = memchr::memrchr(b'\n', &hay[..end]).map_or(0, |p| p + 1);
            let line_end = memchr::memchr(b'\n', &hay[end..]).map_or(hay.len(), |p| end + p);
            let before = *open;
            match Self::dfa_run(
                scan,
                hay,
                start..line_end,
                &mut cache.scans[k],
                answers,
                open,
            ) {
                Ok(()) => {}
                Err(DfaStop::Quit(_)) => {
                    for &m in &scan.members {
                        if answers[m].is_none() && self.search_line(m, &hay[start..line_end], cache)
                        {
                            answers[m] = Some(Ok(true));
                            *open -= 1;
                        }
                    }
                }
                Err(DfaStop::GaveUp) => return None,
            }
            if *open == before {
                idle += 1;
                if idle > MAX_IDLE_LINES {
                    return Some(line_end);
                }
            }
            at = line_end + 1;
            if at > hay.len() {
                break;
            }
        }
        for m in &scan.members {
            if answers[*m].is_none() {
                answers[*m] = Some(Ok(false));
            }
        }
        None
    }

    /// The scan's DFA over `hay` from `from` to the end. Returns false when the DFA gave up.
    #[allow(clippy::too_many_arguments)]
    fn dfa_pass(
        &self,
        scan: &Scan,
        hay: &[u8],
        mut from: usize,
        cache: &mut SetCache,
        k: usize,
        answers: &mut [Option<Result<bool, Error>>],
        open: &mut usize,
    ) -> bool {
        // Non-ASCII lines are set aside and answered only if the DFA over the other lines
        // leaves a member open: in most texts some ASCII line decides first.
        let mut deferred = std::mem::take(&mut cache.deferred_lines);
        deferred.clear();
        let mut gave_up = false;
        while *open > 0 && from <= hay.len() {
            let q = match Self::dfa_run(
                scan,
                hay,
                from..hay.len(),
                &mut cache.scans[k],
                answers,
                open,
            ) {
                Ok(()) => break,
                Err(DfaStop::Quit(q)) if scan.by_line => q,
                Err(_) => {
                    gave_up = true;
                    break;
                }
            };
            let start = memchr::memrchr(b'\n', &hay[..q]).map_or(0, |p| p + 1);
            let end = memchr::memchr(b'\n', &hay[q..]).map_or(hay.len(), |p| q + p);
            deferred.push((start, end));
            from = end + 1;
        }
        // Each set-aside line is answered by each open member's own program on that line
        // alone (a short haystack, where the bounded backtracker can run).
        for &(start, end) in deferred.iter().take_while(|_| !gave_up) {
            if *open == 0 {
                break;
            }
            for &m in &scan.members {
                if answers[m].is_none() && self.search_line(m, &hay[start..end], cache) {
                    answers[m] = Some(Ok(true));
                    *open -= 1;
                }
            }
        }
        cache.deferred_lines = deferred;
        !gave_up
    }

    /// Runs a scan's DFA over `span` of `hay`, marking members as they match, until the end
    /// of the span or until no member is open.
    fn dfa_run(
        scan: &Scan,
        hay: &[u8],
        span: std::ops::Range<usize>,
        cache: &mut DfaCache,
        answers: &mut [Option<Result<bool, Error>>],
        open: &mut usize,
    ) -> Result<(), DfaStop> {
        let input = Input::new(hay).range(span);
        if let [m] = scan.members[..] {
            // One member: a plain search for the earliest match end.
            let found = scan
                .dfa
                .try_search_fwd(cache, &input.earliest(true))
                .map_err(DfaStop::from)?;
            if found.is_some() {
                answers[m] = Some(Ok(true));
                *open = 0;
            }
            return Ok(());
        }
        let mut state = OverlappingState::start();
        loop {
            scan.dfa
                .try_search_overlapping_fwd(cache, &input, &mut state)
                .map_err(DfaStop::from)?;
            let Some(hm) = state.get_match() else {
                return Ok(());
            };
            let m = scan.members[hm.pattern().as_usize()];
            if answers[m].is_none() {
                answers[m] = Some(Ok(true));
                *open -= 1;
                if *open == 0 {
                    return Ok(());
                }
            }
        }
    }

    /// Whether member `i`'s typical program matches in `line`, searched as a haystack of its
    /// own (for a member that cannot match a newline and asserts nothing but word boundaries
    /// and line anchors, the same answer as within the whole text).
    fn search_line(&self, i: usize, line: &[u8], cache: &mut SetCache) -> bool {
        let program = self.members[i]
            .program
            .as_ref()
            .expect("a member with a linear program");
        let c = cache.programs[i].as_mut().expect("a cache for the program");
        // Not `earliest`: the regex engine only lets its bounded backtracker (far quicker on a
        // line than the PikeVM) run an earliest search on a haystack of 128 bytes or less.
        program.search_half_with(c, &Input::new(line)).is_some()
    }
}

/// The literals of the shared pass, each started at its rarest bytes.
///
/// The pass's SIMD searcher looks at the first few bytes of each literal only (as many as the
/// shortest literal has, at most four) and checks the rest at each place they occur; with a
/// literal such as `out of memory: killed process `, it stopped at every `out ` of the text.
/// A literal's tail from any byte on is at a fixed offset from a match's start too, so each
/// literal is replaced by its tail from the window of that many bytes that is rarest by a
/// byte-frequency guess for logs and prose (spaces and lower-case letters common, upper case
/// rarer), with the offset moved by as much. Candidates stay complete: every match holds the
/// tail where it held the literal.
fn rarest_windows(wanted: Vec<(usize, usize, Vec<u8>)>) -> Vec<(usize, usize, Vec<u8>)> {
    let Some(window) = wanted
        .iter()
        .map(|(_, _, l)| l.len())
        .min()
        .map(|n| n.min(4))
    else {
        return wanted;
    };
    if window == 0 {
        return wanted;
    }
    wanted
        .into_iter()
        .map(|(member, offset, lit)| {
            let skip = (0..=lit.len() - window)
                .min_by_key(|&k| {
                    lit[k..k + window]
                        .iter()
                        .map(|&b| byte_rank(b))
                        .sum::<u32>()
                })
                .unwrap_or(0);
            (member, offset + skip, lit[skip..].to_vec())
        })
        .collect()
}

/// A guess at how common `b` is in logs and prose (higher: more common).
fn byte_rank(b: u8) -> u32 {
    match b {
        b' ' => 255,
        b'e' | b't' | b'a' | b'o' | b'i' | b'n' | b's' | b'r' | b'h' | b'l' | b'd' | b'c'
        | b'u' => 200,
        b'0'..=b'9' => 170,
        b'a'..=b'z' => 150,
        b'-' | b':' | b'.' | b'/' | b'_' | b'=' | b',' | b'\n' | b'\t' => 160,
        b'[' | b']' | b'(' | b')' | b'"' | b'\'' => 120,
        b'A'..=b'Z' => 80,
        0x21..=0x7E => 60,
        0x80.. => 40,
        _ => 10,
    }
}

/// Why a scan's DFA stopped before the end.
enum DfaStop {
    /// At a non-ASCII byte (a Unicode word boundary): the byte's offset.
    Quit(usize),
    /// Its cache kept filling up.
    GaveUp,
}

impl From<regex_automata::MatchError> for DfaStop {
    fn from(e: regex_automata::MatchError) -> DfaStop {
        match *e.kind() {
            MatchErrorKind::Quit { offset, .. } => DfaStop::Quit(offset),
            _ => DfaStop::GaveUp,
        }
    }
}

/// Most narrowed searchers a set builds.
const MAX_NARROWED: usize = 1024;

impl LiteralPass {
    /// The pass for `wanted` (member, offset, literal); members that cannot join it (no
    /// searcher can be built) run alone.
    fn new(
        wanted: Vec<(usize, usize, Vec<u8>)>,
        members: &mut [Member<'_>],
    ) -> Option<LiteralPass> {
        let mut served: Vec<usize> = wanted.iter().map(|(m, _, _)| *m).collect();
        served.dedup();
        let mut literals: Vec<(Vec<u8>, Vec<Target>)> = Vec::new();
        for (m, offset, lit) in wanted {
            let bit = served
                .iter()
                .position(|s| *s == m)
                .expect("a served member");
            match literals.iter_mut().find(|(l, _)| *l == lit) {
                Some((_, owners)) => owners.push((bit, offset)),
                None => literals.push((lit, vec![(bit, offset)])),
            }
        }
        let mask_of = |f: &dyn Fn(&[u8]) -> bool| -> u64 {
            literals
                .iter()
                .enumerate()
                .filter(|(_, (l, _))| f(l))
                .fold(0, |acc, (k, _)| acc | 1 << k)
        };
        let prefixes = literals
            .iter()
            .map(|(a, _)| mask_of(&|b| b.len() < a.len() && a.starts_with(b)))
            .collect();
        let starts_inside = literals
            .iter()
            .map(|(a, _)| {
                mask_of(&|b| (1..a.len()).any(|i| a[i..].starts_with(b) || b.starts_with(&a[i..])))
            })
            .collect();
        let served_by = literals
            .iter()
            .map(|(_, owners)| owners.iter().fold(0, |acc, (bit, _)| acc | 1 << bit))
            .collect();
        let mut pass = LiteralPass {
            members: served,
            literals,
            served_by,
            prefixes,
            starts_inside,
            full: Literals {
                searcher: LiteralSearcher::One(memchr::memmem::Finder::new(b"").into_owned()),
                targets: Vec::new(),
                overlapping: false,
            },
            shared: std::sync::Mutex::default(),
        };
        let full = (pass.literals.len() <= 64 && !pass.literals.is_empty())
            .then(|| pass.searcher_for(pass.all_mask()))
            .flatten();
        match full {
            Some(full) => {
                pass.full = full;
                Some(pass)
            }
            None => {
                for m in pass.members {
                    members[m].strategy = Strategy::Alone;
                }
                None
            }
        }
    }

    fn all_mask(&self) -> u64 {
        u64::MAX >> (64 - self.members.len())
    }

    /// The searcher for the members in `open`: their literals, less those another of them
    /// starts (every place the longer one starts, the shorter starts too; the anchored search
    /// decides), each giving candidates to the open members of the literals it stands for.
    fn searcher_for(&self, open: u64) -> Option<Literals> {
        let needed = (0..self.literals.len())
            .filter(|k| self.served_by[*k] & open != 0)
            .fold(0u64, |acc, k| acc | 1 << k);
        let kept: Vec<usize> = (0..self.literals.len())
            .filter(|k| needed & (1 << k) != 0 && self.prefixes[*k] & needed == 0)
            .collect();
        let kept_mask = kept.iter().fold(0u64, |acc, k| acc | 1 << k);
        let targets = kept
            .iter()
            .map(|&k| {
                let mut targets = Vec::new();
                for (l, (_, owners)) in self.literals.iter().enumerate() {
                    let stands_for = l == k || self.prefixes[l] & needed & (1 << k) != 0;
                    if needed & (1 << l) != 0 && stands_for {
                        for owner in owners {
                            if open & (1 << owner.0) != 0 && !targets.contains(owner) {
                                targets.push(*owner);
                            }
                        }
                    }
                }
                targets
            })
            .collect();
        let bytes: Vec<&[u8]> = kept
            .iter()
            .map(|k| self.literals[*k].0.as_slice())
            .collect();
        Some(Literals {
            searcher: LiteralSearcher::new(&bytes)?,
            targets,
            overlapping: kept.iter().any(|k| self.starts_inside[*k] & kept_mask != 0),
        })
    }

    /// The searcher for the members in `open` (by served index): from this thread's
    /// `narrowed`, else from the searchers any thread built, else built now. `None` when there
    /// is no room to keep another (the caller keeps the one it has: a searcher for more
    /// members than are open gives the same answers).
    fn narrowed(
        &self,
        open: u64,
        narrowed: &mut MaskMap<Option<Arc<Literals>>>,
    ) -> Option<Arc<Literals>> {
        if let Some(lits) = narrowed.get(&open) {
            return lits.clone();
        }
        let mut shared = self.shared.lock().unwrap_or_else(|p| p.into_inner());
        let lits = match shared.get(&open) {
            Some(lits) => Some(Arc::clone(lits)),
            // No room: this thread remembers that there is none (and asks no more).
            None if shared.len() >= MAX_NARROWED => None,
            None => self.searcher_for(open).map(|lits| {
                let lits = Arc::new(lits);
                shared.insert(open, Arc::clone(&lits));
                lits
            }),
        };
        drop(shared);
        narrowed.insert(open, lits.clone());
        lits
    }
}

/// A map keyed by member masks: one multiplication to hash (the keys are small bit sets
/// made by the set itself, not input an adversary picks).
type MaskMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<MaskHasher>>;

#[derive(Default)]
struct MaskHasher(u64);

impl std::hash::Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(self.0 ^ u64::from(*b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let h = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxw_syntax::flavor::{Flags, Flavor};

    fn re(p: &str, flavor: Flavor, flags: &str) -> Regex {
        Regex::new(p, flavor, Flags::parse(flags, flavor).unwrap()).unwrap()
    }

    /// Regression: the shared pass's SIMD searcher fingerprints each literal by its first
    /// bytes, and `out of memory: killed process ` stopped it at every `out ` of a log (and, next
    /// to a two-byte literal, at every `ou`). Each literal now starts at its rarest window, at
    /// the matching offset; the answers are the patterns' own wherever the literal lies.
    #[test]
    fn literals_start_at_their_rarest_bytes() {
        let oom = b"out of memory: killed process ".to_vec();
        let moved = rarest_windows(vec![(0, 0, oom.clone()), (1, 13, b"-4".to_vec())]);
        let (m, offset, lit) = &moved[0];
        assert_eq!(*m, 0);
        assert!(
            !lit.starts_with(b"ou"),
            "{:?}",
            String::from_utf8_lossy(lit)
        );
        assert_eq!(&oom[*offset..], &lit[..]);
        assert_eq!(moved[1], (1, 13, b"-4".to_vec()));
        let alone = rarest_windows(vec![(0, 0, oom.clone())]);
        assert!(!alone[0].2.starts_with(b"out "));
        let regexes = [
            re(r"out of memory: killed process [0-9]+", Flavor::Rust, ""),
            re(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}", Flavor::Rust, ""),
            re(r"\[(?:ACK|NUDGE) [0-9]+\]", Flavor::Rust, ""),
        ];
        agree(
            &regexes,
            &[
                "out of memory: killed process 42",
                "timeout without out of memory: killed process x out of memory: killed process 7",
                "y: killed process 1 memory: killed process 2",
                "7fce46e0-1234-4abc [NUDGE 12] [ACK x]",
                "[ACK 1]out of memory: killed process ",
                "",
            ],
        );
    }

    fn strategies(set: &PatternSet) -> Vec<Strategy> {
        (0..set.len()).map(|i| set.strategy(i)).collect()
    }

    /// The set's answers against each pattern's own `is_match`, on every text.
    fn agree(regexes: &[Regex], texts: &[impl AsRef<str>]) {
        let refs: Vec<&Regex> = regexes.iter().collect();
        let set = PatternSet::new(&refs);
        let mut cache = set.create_cache();
        for text in texts {
            let text = text.as_ref();
            let got: Vec<Result<bool, String>> = set
                .which_match(text, &mut cache)
                .iter()
                .map(|r| r.clone().map_err(|e| e.message))
                .collect();
            let want: Vec<Result<bool, String>> = regexes
                .iter()
                .map(|r| r.is_match(text).map_err(|e| e.message))
                .collect();
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    g,
                    w,
                    "pattern {:?} ({:?}, {:?}) on {text:?}",
                    regexes[i].pattern(),
                    regexes[i].flavor(),
                    set.strategy(i)
                );
            }
        }
    }

    /// Deterministic pseudo-random texts glued from `pieces`.
    fn texts(pieces: &[&str], n: usize, seed: u64) -> Vec<String> {
        let mut seed = seed;
        let mut out = vec![String::new()];
        for _ in 0..n {
            let mut text = String::new();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for _ in 0..((seed >> 40) % 12) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            out.push(text);
        }
        out
    }

    const NETVM: [&str; 12] = [
        r"\[WO:[0-9a-f-]+\]",
        r"\[ACK:[0-9a-f]+\]",
        r"\[(?:ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+[A-Za-z0-9_/-]+\]",
        r"\[RESULT\s+[A-Za-z0-9_/-]+\]",
        r"\[(?:TOOL|EXEC)\s+[a-zA-Z0-9_.-]+\s+\{.*?\}\]",
        r"\[JOB [A-Za-z0-9_/-]+\]",
        r"\[NUDGE [0-9a-f]+\]",
        r"\[fleet-alert\]",
        r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
        r"\b[0-9a-f]{6,12}\b",
        r"\[SUBAGENT-UPDATE\]",
        r"\[JOB swarm-[0-9a-z]+/\d+\]",
    ];

    const NETVM_PIECES: [&str; 26] = [
        "[WO:7fce46e0-1234-4abc-9def-0123456789ab]",
        "[ACK:7fce46e0]",
        "[ACK ",
        "[CLAIM task/x]",
        "[RESULT build/y]",
        "[TOOL bash {\"cmd\": 1}]",
        "[JOB ",
        "[JOB swarm-ab1/3]",
        "swarm-",
        "[NUDGE abc123]",
        "[fleet-alert]",
        "[SUBAGENT-UPDATE]",
        "7fce46e0-1234-4abc-9def-0123456789ab",
        "-4",
        "deadbeef",
        "café",
        "é",
        "abcdef\u{b2}",
        "日本",
        "\u{1F600}",
        " ",
        "\n",
        "\r\n",
        "[",
        "x",
        "0123456789abc",
    ];

    #[test]
    fn netvm_columns_take_the_shared_passes() {
        let regexes: Vec<Regex> = NETVM.iter().map(|p| re(p, Flavor::Rust, "")).collect();
        let refs: Vec<&Regex> = regexes.iter().collect();
        let set = PatternSet::new(&refs);
        let s = strategies(&set);
        for (i, want) in s.iter().enumerate() {
            let expected = match i {
                8 => Strategy::InnerLiteral { offset: 13 },
                9 => Strategy::ScanByLine,
                _ => Strategy::Prefix,
            };
            assert_eq!(*want, expected, "{}", NETVM[i]);
        }
    }

    #[test]
    fn netvm_answers_equal_each_patterns_own_in_every_flavor() {
        let texts = texts(&NETVM_PIECES, 600, 7);
        for flavor in [Flavor::Rust, Flavor::PYTHON, Flavor::JS] {
            for flags in ["", "i"] {
                let regexes: Vec<Regex> = NETVM.iter().map(|p| re(p, flavor, flags)).collect();
                agree(&regexes, &texts);
            }
        }
    }

    #[test]
    fn edge_patterns_agree_with_their_own_engines() {
        let cases: &[(&str, Flavor, &str)] = &[
            // Empty-matching and no literal at all.
            ("a*", Flavor::Rust, ""),
            ("", Flavor::PYTHON, ""),
            (r"\b", Flavor::PYTHON, ""),
            (r"x?", Flavor::JS, ""),
            (r"\w+", Flavor::Rust, ""),
            (r"\d{3}", Flavor::PYTHON, ""),
            // Case-insensitive literals, Unicode folding (the Kelvin sign folds to k).
            ("kelvin", Flavor::Rust, "i"),
            ("ärger", Flavor::PYTHON, "i"),
            (r"\[ack:[0-9a-f]+\]", Flavor::JS, "i"),
            // Non-ASCII literals and word boundaries.
            ("café", Flavor::Rust, ""),
            (r"\bé\w", Flavor::PYTHON, ""),
            (r"\bab\b", Flavor::PYTHON, ""),
            (r"\Bab", Flavor::Rust, ""),
            (r"(?m)^\w+$", Flavor::Rust, ""),
            // Unicode word boundaries: line by line, or alone when a match can span lines.
            (r"\b\w{2}\b", Flavor::Rust, ""),
            (r"\b[a-f]{2,3}\b", Flavor::PYTHON, ""),
            (r"\b\w+\s+\w", Flavor::Rust, ""),
            (r"\bé", Flavor::Rust, ""),
            (r"^x", Flavor::PYTHON, "m"),
            (r"x$", Flavor::PYTHON, ""),
            (r"ab\s+cd", Flavor::Rust, ""),
            // Literals that overlap each other and themselves.
            ("abab", Flavor::Rust, ""),
            ("bab", Flavor::Rust, ""),
            ("aba|bab", Flavor::PYTHON, ""),
            ("ab", Flavor::Rust, ""),
            // Inner literals, with and without case folding.
            (r"[a-z]{3}-42", Flavor::JS, ""),
            (r"[a-z]{3}-42", Flavor::JS, "i"),
            (r"\d-ab", Flavor::PYTHON, ""),
            // Look-around and backreferences: the matcher.
            (r"a(?=b)", Flavor::PYTHON, ""),
            (r"(a)\1", Flavor::JS, ""),
            (r"(?<!x)ab", Flavor::Fancy, ""),
            // One-byte starts.
            (r"a\d", Flavor::Rust, ""),
            (r"[ab]c", Flavor::PYTHON, ""),
            // JS astral characters without u.
            (r".", Flavor::JS, ""),
            (r"\u{1F600}", Flavor::JS, "u"),
        ];
        let regexes: Vec<Regex> = cases.iter().map(|(p, f, fl)| re(p, *f, fl)).collect();
        let pieces = [
            "a",
            "b",
            "ab",
            "ba",
            "x",
            "K",
            "k",
            "\u{212A}",
            "elvin",
            "ÄRGER",
            "ärger",
            "café",
            "é",
            "\u{b2}",
            " ",
            "\n",
            "\r",
            "-42",
            "abc",
            "ABC",
            "7",
            "[ACK:",
            "f0]",
            "\u{1F600}",
            "日本",
            "cd",
            "\t",
        ];
        agree(&regexes, &texts(&pieces, 1500, 11));
        // Each one alone, too (sets of one choose the same way).
        for r in &regexes {
            agree(std::slice::from_ref(r), &texts(&pieces, 100, 3));
        }
    }

    #[test]
    fn literals_that_start_inside_others_are_not_missed() {
        let overlapping = |patterns: &[&str]| {
            let regexes: Vec<Regex> = patterns.iter().map(|p| re(p, Flavor::Rust, "")).collect();
            let refs: Vec<&Regex> = regexes.iter().collect();
            let set = PatternSet::new(&refs);
            set.literals
                .as_ref()
                .expect("a literal pass")
                .full
                .overlapping
        };
        assert!(overlapping(&["abab"]));
        assert!(overlapping(&["xab", "ab"]));
        assert!(overlapping(&["ab", "bc"]));
        assert!(!overlapping(&[r"\[WO:\d", r"[a-f]{8}-4[a-f]"]));
        // "babq" starts inside "abab": were the pass to resume after each occurrence, the one
        // at 1 would be hidden by the one at 0.
        let regexes = [re("abab", Flavor::Rust, ""), re("babq", Flavor::Rust, "")];
        agree(&regexes, &["ababq", "xabababq"]);
    }

    #[test]
    fn byte_run_find_equals_a_naive_scan() {
        let mut seed = 5u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for _ in 0..3000 {
            let len = next(300) as usize;
            let hay: Vec<u8> = (0..len).map(|_| b"ab\nc"[next(4) as usize]).collect();
            let mut class = [0u8; 256];
            class[usize::from(b'a')] = 1;
            if next(2) == 0 {
                class[usize::from(b'b')] = 1;
            }
            let n = 1 + next(MAX_RUN as u64) as usize;
            let run = ByteRun { class, len: n };
            let from = next(len as u64 + 1) as usize;
            let naive = (from + n..=len)
                .find(|&e| hay[e - n..e].iter().all(|b| class[usize::from(*b)] == 1));
            assert_eq!(run.find(&hay, from), naive, "n {n} from {from} {hay:?}");
        }
    }

    #[test]
    fn byte_runs_read_off_the_pattern() {
        let run = |p: &str| {
            ByteRun::of(&regex_syntax::parse(p).unwrap()).map(|r| {
                let bytes: Vec<u8> = (0..=255u8)
                    .filter(|b| r.class[usize::from(*b)] == 1)
                    .collect();
                (String::from_utf8(bytes).unwrap(), r.len)
            })
        };
        assert_eq!(
            run(r"\b[0-9a-f]{6,12}\b"),
            Some(("0123456789abcdef".into(), 6))
        );
        // Literals and classes in a row make one run (capped at 32 bytes).
        assert_eq!(run(r"[a-c]{3}-42"), Some(("-24abc".into(), 6)));
        assert_eq!(
            run(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}").map(|r| r.1),
            Some(18)
        );
        assert_eq!(run(r"[0-9a-f]{40}").map(|r| r.1), Some(MAX_RUN));
        // An optional byte joins the run's class (present or not, the bytes are in a row).
        assert_eq!(run(r"[a-f]{3}x?[a-f]{3}"), Some(("abcdefx".into(), 6)));
        // A non-ASCII character or an alternation ends a run; short runs are not kept.
        assert_eq!(run(r"é[a-f]{5}"), Some(("abcdef".into(), 5)));
        assert_eq!(run(r"[a-f]{2}(?:xy|z)[a-f]{2}"), None);
        assert_eq!(run(r"\w+"), None);
        // Case folding: [a-z] also matches the Kelvin sign and the long s.
        assert_eq!(run(r"(?i)[a-z]{5}"), None);
        assert_eq!(run(r"(?i)[a-f]{5}"), Some(("ABCDEFabcdef".into(), 5)));
    }

    #[test]
    fn run_lines_that_do_not_match_hand_over_to_the_dfa() {
        // Lines holding six hex digits in a row that are not a word of their own: past 32
        // of them the plain DFA pass takes over from the line after.
        let regexes = [
            re(r"\b[0-9a-f]{6,12}\b", Flavor::Rust, ""),
            re(r"\b[0-9a-f]{6,12}\b", Flavor::PYTHON, ""),
        ];
        let idle = "xabcdef\n".repeat(40);
        let texts: Vec<String> = [
            idle.clone(),
            format!("{idle}abcdef"),
            format!("{idle}é abcdef"),
            format!("{idle}éabcdef\nabcdefé"),
            format!("{}abcdef", "xabcdef\n".repeat(20)),
            format!("{}é\nabcdef é", "xabcdef\n".repeat(33)),
        ]
        .into();
        agree(&regexes, &texts);
    }

    #[test]
    fn scan_by_line_resumes_after_each_non_ascii_line() {
        let regexes = [re(r"\b[0-9a-f]{6,12}\b", Flavor::Rust, "")];
        agree(
            &regexes,
            &[
                "é\nabcdef",
                "éabcdef\nx",
                "abcdef²\nx",
                "x\né abcdef é\ny",
                "é\né\né\n012345",
                "é\né\né\n0123456789abc",
                "abcdefé",
                "\u{1F600}abcdef",
                "abcdef",
                "",
            ],
        );
    }
}
