//! Character sets and case folding, in each flavor's meaning.
//!
//! A set is a sorted list of disjoint code-point ranges over `u32` (so that JavaScript's lone
//! surrogate code units fit). Case-insensitive matching folds the input character with the
//! flavor's own rule ([`Fold`]) and looks it up in a set built from the folded members:
//! - Python (`re`, per release): a character matches when its lower case is among the lower
//!   cases of the set's members, or among their extra equivalents (sre's case fixes, such as
//!   `s` and `ſ`, `σ` and `ς`); lower cases, fixes and the classes come from the release's own
//!   tables ([`crate::python_unicode`]), never from Rust's Unicode data;
//! - JavaScript without `u`/`v`: `Canonicalize` upper-cases through a single code unit and
//!   never maps a non-ASCII character to an ASCII one;
//! - JavaScript with `u`/`v`, and Rust: simple case folding, taken as the orbit closure of the
//!   set (regex-syntax's tables).

use crate::classes;
use crate::python_unicode::PyUnicode;
use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};
use rxw_syntax::PyVersion;
use rxw_syntax::engine_tables::EngineTables;
use rxw_syntax::js_unicode::{NODE_MAJORS, NodeUnicode};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A set of code points (or UTF-16 code units), as sorted disjoint inclusive ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharSet {
    ranges: Vec<(u32, u32)>,
    /// Fast path for the first 128 code points.
    ascii: [bool; 128],
}

impl Default for CharSet {
    fn default() -> CharSet {
        CharSet {
            ranges: Vec::new(),
            ascii: [false; 128],
        }
    }
}

/// Everything a `u32` code point can be: all of Unicode, surrogates included.
pub const MAX_CP: u32 = 0x10FFFF;

impl CharSet {
    /// The empty set.
    pub fn empty() -> CharSet {
        CharSet::default()
    }

    /// A set from ranges in any order (they are sorted and merged).
    pub fn from_ranges(mut ranges: Vec<(u32, u32)>) -> CharSet {
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            if let Some(last) = merged.last_mut()
                && lo <= last.1.saturating_add(1)
            {
                last.1 = last.1.max(hi);
                continue;
            }
            merged.push((lo, hi));
        }
        let mut set = CharSet {
            ranges: merged,
            ascii: [false; 128],
        };
        for c in 0..128u32 {
            set.ascii[c as usize] = set.contains_slow(c);
        }
        set
    }

    /// A set of single code points.
    pub fn from_chars(chars: impl IntoIterator<Item = u32>) -> CharSet {
        CharSet::from_ranges(chars.into_iter().map(|c| (c, c)).collect())
    }

    /// The ranges.
    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// Whether `c` is in the set.
    #[inline]
    pub fn contains(&self, c: u32) -> bool {
        if c < 128 {
            return self.ascii[c as usize];
        }
        self.contains_slow(c)
    }

    fn contains_slow(&self, c: u32) -> bool {
        let i = self.ranges.partition_point(|&(_, hi)| hi < c);
        self.ranges.get(i).is_some_and(|&(lo, _)| lo <= c)
    }

    /// The union.
    pub fn union(&self, other: &CharSet) -> CharSet {
        let mut r = self.ranges.clone();
        r.extend_from_slice(&other.ranges);
        CharSet::from_ranges(r)
    }

    /// The complement within `0..=MAX_CP`.
    pub fn negate(&self) -> CharSet {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for &(lo, hi) in &self.ranges {
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi.saturating_add(1);
        }
        if next <= MAX_CP && self.ranges.last().is_none_or(|l| l.1 < MAX_CP) {
            out.push((next, MAX_CP));
        }
        CharSet::from_ranges(out)
    }

    /// The intersection.
    pub fn intersect(&self, other: &CharSet) -> CharSet {
        self.negate().union(&other.negate()).negate()
    }

    /// The difference `self - other`.
    pub fn difference(&self, other: &CharSet) -> CharSet {
        self.intersect(&other.negate())
    }

    /// Whether the set holds no character at all.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The number of code points in the set.
    pub fn len(&self) -> u64 {
        self.ranges
            .iter()
            .map(|&(lo, hi)| (hi - lo) as u64 + 1)
            .sum()
    }

    /// The closure under simple case folding (regex-syntax's tables); surrogates stay as they
    /// are.
    pub fn simple_fold_closure(&self) -> CharSet {
        let mut cls = ClassUnicode::new(self.char_ranges());
        cls.case_fold_simple();
        let mut out: Vec<(u32, u32)> = cls
            .iter()
            .map(|r| (r.start() as u32, r.end() as u32))
            .collect();
        out.extend(self.surrogate_ranges());
        CharSet::from_ranges(out)
    }

    fn char_ranges(&self) -> Vec<ClassUnicodeRange> {
        let mut v = Vec::new();
        for &(lo, hi) in &self.ranges {
            // Split around the surrogate gap, which `char` cannot hold.
            if lo < 0xD800 {
                let h = hi.min(0xD7FF);
                v.push(ClassUnicodeRange::new(
                    char::from_u32(lo).unwrap(),
                    char::from_u32(h).unwrap(),
                ));
            }
            if hi > 0xDFFF {
                let l = lo.max(0xE000);
                v.push(ClassUnicodeRange::new(
                    char::from_u32(l).unwrap(),
                    char::from_u32(hi).unwrap(),
                ));
            }
        }
        v
    }

    fn surrogate_ranges(&self) -> Vec<(u32, u32)> {
        self.ranges
            .iter()
            .filter(|&&(lo, hi)| lo <= 0xDFFF && hi >= 0xD800)
            .map(|&(lo, hi)| (lo.max(0xD800), hi.min(0xDFFF)))
            .collect()
    }

    /// The image of the set under `f` (each member mapped), built member by member. Only used
    /// for case-insensitive sets, whose members are folded once when the pattern compiles.
    pub fn map(&self, f: impl Fn(u32) -> u32) -> CharSet {
        let mut out: Vec<u32> = Vec::new();
        for &(lo, hi) in &self.ranges {
            for c in lo..=hi {
                out.push(f(c));
            }
        }
        out.sort_unstable();
        out.dedup();
        CharSet::from_chars(out)
    }
}

/// Parses a class expression in the `regex` crate's syntax into a set (static tables such as
/// `\p{L}`); `None` when the syntax is not understood.
pub fn from_regex_syntax(expr: &str) -> Option<CharSet> {
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(true)
        .utf8(false)
        .build()
        .parse(expr)
        .ok()?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => Some(CharSet::from_ranges(
            c.iter()
                .map(|r| (r.start() as u32, r.end() as u32))
                .collect(),
        )),
        HirKind::Literal(lit) => {
            let s = std::str::from_utf8(&lit.0).ok()?;
            let mut it = s.chars();
            let c = it.next()?;
            it.next().is_none().then(|| CharSet::from_chars([c as u32]))
        }
        _ => None,
    }
}

fn cached(cell: &'static OnceLock<CharSet>, expr: &str) -> &'static CharSet {
    cell.get_or_init(|| from_regex_syntax(expr).expect("static class expression"))
}

/// One cell per Python release, for sets built from that release's tables.
type PerRelease<T> = [OnceLock<T>; PyVersion::ALL.len()];

fn release_index(v: PyVersion) -> usize {
    PyVersion::ALL
        .iter()
        .position(|&x| x == v)
        .expect("every release is listed")
}

fn release_set(
    cells: &'static PerRelease<CharSet>,
    v: PyVersion,
    table: fn(&'static PyUnicode) -> &'static [(u32, u32)],
) -> &'static CharSet {
    cells[release_index(v)].get_or_init(|| CharSet::from_ranges(table(PyUnicode::of(v)).to_vec()))
}

/// Python's Unicode `\w` in release `v` (`str.isalnum()` or `_`).
pub fn python_word(v: PyVersion) -> &'static CharSet {
    static S: PerRelease<CharSet> = [const { OnceLock::new() }; PyVersion::ALL.len()];
    release_set(&S, v, |t| t.word)
}

/// Python's Unicode `\d` in release `v` (`str.isdecimal()`).
pub fn python_digit(v: PyVersion) -> &'static CharSet {
    static S: PerRelease<CharSet> = [const { OnceLock::new() }; PyVersion::ALL.len()];
    release_set(&S, v, |t| t.digit)
}

/// Python's Unicode `\s` in release `v` (`str.isspace()`).
pub fn python_space(v: PyVersion) -> &'static CharSet {
    static S: PerRelease<CharSet> = [const { OnceLock::new() }; PyVersion::ALL.len()];
    release_set(&S, v, |t| t.space)
}

/// ASCII `\w`.
pub fn ascii_word() -> CharSet {
    CharSet::from_ranges(vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
}

/// ASCII `\d`.
pub fn ascii_digit() -> CharSet {
    CharSet::from_ranges(vec![(0x30, 0x39)])
}

/// Python's ASCII `\s`.
pub fn python_ascii_space() -> CharSet {
    CharSet::from_ranges(classes::code_points(classes::ASCII_SPACE))
}

/// JavaScript's `\s`: WhiteSpace and LineTerminator.
pub fn js_space() -> CharSet {
    CharSet::from_ranges(classes::code_points(classes::JS_SPACE))
}

/// Rust's Unicode `\w`.
pub fn rust_word() -> &'static CharSet {
    static S: OnceLock<CharSet> = OnceLock::new();
    cached(&S, r"\w")
}

/// Rust's Unicode `\d`.
pub fn rust_digit() -> &'static CharSet {
    static S: OnceLock<CharSet> = OnceLock::new();
    cached(&S, r"\d")
}

/// Rust's Unicode `\s`.
pub fn rust_space() -> &'static CharSet {
    static S: OnceLock<CharSet> = OnceLock::new();
    S.get_or_init(|| CharSet::from_ranges(classes::code_points(classes::rust_space())))
}

/// JavaScript line terminators.
#[inline]
pub fn is_js_line_terminator(c: u32) -> bool {
    // The same set as classes::JS_LINE_TERMINATORS, as a match the compiler turns into jumps.
    matches!(c, 0x0A | 0x0D | 0x2028 | 0x2029)
}

/// How a character is folded before a case-insensitive set lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    /// Exact comparison.
    None,
    /// CPython's `sre_lower_unicode`, from the release's own tables.
    PythonLower(PyVersion),
    /// CPython's `sre_lower_ascii` (the `a` flag).
    PythonAsciiLower,
    /// The first character of Rust's full lower-case mapping (Rust backreferences).
    Lower,
    /// ECMAScript `Canonicalize` without `u`/`v`, as the node version computes it.
    JsCanonical(NodeUnicode),
    /// ECMAScript `Canonicalize` with `u`/`v` (simple case folding), as the node version's
    /// ICU has it: each character stands for its case class, named by the smallest member.
    JsSimple(NodeUnicode),
}

impl Fold {
    /// The folded form of `c`.
    #[inline(always)]
    pub fn apply(self, c: u32) -> u32 {
        match self {
            Fold::None => c,
            Fold::PythonLower(v) => python_lower(v, c),
            Fold::Lower => std_lower(c),
            Fold::PythonAsciiLower => {
                if (0x41..=0x5A).contains(&c) {
                    c + 32
                } else {
                    c
                }
            }
            Fold::JsCanonical(node) => node.canonicalize(c),
            Fold::JsSimple(node) => js_simple_fold(node, c),
        }
    }
}

/// Which characters a case-insensitive member stands for: each rule splits the characters
/// into classes of equivalent ones, and a case-insensitive set is closed over them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseRule {
    /// Simple case folding (Rust): the orbits of regex-syntax's tables.
    Simple,
    /// JavaScript with `u`/`v`: simple case folding as the node version's ICU has it.
    JsSimple(NodeUnicode),
    /// ECMAScript `Canonicalize` without `u`/`v`: characters with the same canonical form, as
    /// the node version computes it.
    JsCanonical(NodeUnicode),
    /// CPython's literals and ranges in a release: the same lower case, or lower cases that
    /// sre's case fixes join (`s` and `ſ`).
    Python(PyVersion),
    /// CPython's ASCII mode: ASCII letters only.
    PythonAscii,
    /// Go and RE2: the orbits of `unicode.SimpleFold` in the engine's tables.
    Orbits(EngineTables),
}

/// The classes of a [`CaseRule`] with more than one member.
struct CaseClasses {
    /// The classes, each sorted.
    classes: Vec<Vec<u32>>,
}

impl CaseRule {
    /// `set` closed under the rule: every character equivalent to a member. Works on sets of
    /// any size: only the characters that have equivalents are looked at.
    pub fn close(self, set: &CharSet) -> CharSet {
        if let CaseRule::Orbits(go) = self {
            return CharSet::from_ranges(go.case_closure(set.ranges()));
        }
        let t = self.classes();
        let mut out = set.ranges().to_vec();
        for class in &t.classes {
            if class.iter().any(|&c| set.contains(c)) {
                out.extend(class.iter().map(|&c| (c, c)));
            }
        }
        CharSet::from_ranges(out)
    }

    fn classes(self) -> &'static CaseClasses {
        static SIMPLE: OnceLock<CaseClasses> = OnceLock::new();
        static JS: [OnceLock<CaseClasses>; NODE_MAJORS.len()] =
            [const { OnceLock::new() }; NODE_MAJORS.len()];
        static JS_SIMPLE: [OnceLock<CaseClasses>; NODE_MAJORS.len()] =
            [const { OnceLock::new() }; NODE_MAJORS.len()];
        static PYTHON: PerRelease<CaseClasses> = [const { OnceLock::new() }; PyVersion::ALL.len()];
        static PYTHON_ASCII: OnceLock<CaseClasses> = OnceLock::new();
        let cell = match self {
            CaseRule::Simple => &SIMPLE,
            CaseRule::JsSimple(node) => &JS_SIMPLE[node.index()],
            CaseRule::JsCanonical(node) => &JS[node.index()],
            CaseRule::Python(v) => &PYTHON[release_index(v)],
            CaseRule::PythonAscii => &PYTHON_ASCII,
            // Closed by the release's own tables in `close`; no classes are kept.
            CaseRule::Orbits(_) => &SIMPLE,
        };
        if let CaseRule::JsSimple(node) = self {
            // node's own classes, recorded from its `/…/iu` answers.
            return cell.get_or_init(|| CaseClasses {
                classes: node.case_classes().map(<[u32]>::to_vec).collect(),
            });
        }
        if let CaseRule::JsCanonical(node) = self {
            // The code units Canonicalize moves and their targets make every class.
            return cell.get_or_init(|| {
                let mut by_key: HashMap<u32, Vec<u32>> = HashMap::new();
                for &(from, to) in node.canonical_upper() {
                    by_key.entry(to as u32).or_default().push(from as u32);
                }
                let mut classes: Vec<Vec<u32>> = by_key
                    .into_iter()
                    .map(|(key, mut class)| {
                        if node.canonicalize(key) == key {
                            class.push(key);
                        }
                        class.sort_unstable();
                        class.dedup();
                        class
                    })
                    .filter(|c| c.len() > 1)
                    .collect();
                classes.sort_unstable();
                CaseClasses { classes }
            });
        }
        cell.get_or_init(|| {
            // Characters with a case mapping: every class of more than one member is made of
            // them (each rule relates a character only to its case mappings' images). For
            // Python they are the release's own: what it lowers, what it lowers to, and the
            // members of its case fixes.
            let cased: Vec<u32> = match self {
                CaseRule::Python(v) => {
                    let t = PyUnicode::of(v);
                    let mut all: Vec<u32> = (0..=MAX_CP)
                        .filter(|&c| t.lower(c) != c)
                        .flat_map(|c| [c, t.lower(c)])
                        .chain(t.fixes.iter().flat_map(|g| g.iter().copied()))
                        .collect();
                    all.sort_unstable();
                    all.dedup();
                    all
                }
                _ => (0..=MAX_CP)
                    .filter(|&c| {
                        char::from_u32(c).is_some_and(|ch| {
                            !only(ch, ch.to_lowercase()) || !only(ch, ch.to_uppercase())
                        })
                    })
                    .collect(),
            };
            let mut by_key: HashMap<u32, Vec<u32>> = HashMap::new();
            for &c in &cased {
                let key = match self {
                    CaseRule::Orbits(_) => unreachable!("Go closes by its own tables"),
                    CaseRule::Simple => {
                        let ch = char::from_u32(c).expect("a character");
                        let mut cls = ClassUnicode::new([ClassUnicodeRange::new(ch, ch)]);
                        cls.case_fold_simple();
                        let orbit: Vec<u32> = cls
                            .iter()
                            .flat_map(|r| r.start() as u32..=r.end() as u32)
                            .collect();
                        let key = orbit.iter().copied().min().unwrap_or(c);
                        by_key.entry(key).or_default().extend(orbit);
                        continue;
                    }
                    CaseRule::JsSimple(_) | CaseRule::JsCanonical(_) => {
                        unreachable!("node's classes come from its tables")
                    }
                    CaseRule::Python(v) => {
                        let lower = python_lower(v, c);
                        PyUnicode::of(v).extra_cases(lower).fold(lower, u32::min)
                    }
                    CaseRule::PythonAscii => Fold::PythonAsciiLower.apply(c),
                };
                by_key.entry(key).or_default().push(c);
            }
            // A key that is itself a character belongs to its class (`A` for `a` under
            // `Canonicalize`, the lower case under Python's rule).
            for (&key, class) in by_key.iter_mut() {
                if !class.contains(&key) && char::from_u32(key).is_some() {
                    let same = match self {
                        CaseRule::Simple
                        | CaseRule::JsSimple(_)
                        | CaseRule::JsCanonical(_)
                        | CaseRule::Orbits(_) => false,
                        CaseRule::Python(v) => python_lower(v, key) == key,
                        CaseRule::PythonAscii => Fold::PythonAsciiLower.apply(key) == key,
                    };
                    if same {
                        class.push(key);
                    }
                }
            }
            let mut classes: Vec<Vec<u32>> = by_key
                .into_values()
                .filter(|c| c.len() > 1)
                .map(|mut c| {
                    c.sort_unstable();
                    c.dedup();
                    c
                })
                .collect();
            classes.sort_unstable();
            CaseClasses { classes }
        })
    }
}

/// Whether a case mapping gives back exactly `ch`.
fn only(ch: char, mut mapped: impl Iterator<Item = char>) -> bool {
    mapped.next() == Some(ch) && mapped.next().is_none()
}

impl Fold {
    /// Every code point whose folded form is in `set`: exactly the characters that a test
    /// folding with `self` and looking the result up in `set` accepts.
    pub fn preimage(self, set: &CharSet) -> CharSet {
        if self == Fold::None {
            return set.clone();
        }
        let (moved, moved_set) = self.moved();
        // A character that folds to itself is accepted when it is a member; one that folds
        // to another is accepted when its folded form is.
        let mut out = set.difference(moved_set).ranges().to_vec();
        out.extend(
            moved
                .iter()
                .filter(|&&(_, folded)| set.contains(folded))
                .map(|&(c, _)| (c, c)),
        );
        CharSet::from_ranges(out)
    }

    /// The code points this fold changes, with their folded forms (and as a set).
    fn moved(self) -> &'static Moved {
        static PYTHON: PerRelease<Moved> = [const { OnceLock::new() }; PyVersion::ALL.len()];
        static PYTHON_ASCII: OnceLock<Moved> = OnceLock::new();
        static LOWER: OnceLock<Moved> = OnceLock::new();
        static JS: [OnceLock<Moved>; NODE_MAJORS.len()] =
            [const { OnceLock::new() }; NODE_MAJORS.len()];
        static JS_SIMPLE: [OnceLock<Moved>; NODE_MAJORS.len()] =
            [const { OnceLock::new() }; NODE_MAJORS.len()];
        static NONE: OnceLock<Moved> = OnceLock::new();
        let cell = match self {
            Fold::PythonLower(v) => &PYTHON[release_index(v)],
            Fold::PythonAsciiLower => &PYTHON_ASCII,
            Fold::Lower => &LOWER,
            Fold::JsCanonical(node) => &JS[node.index()],
            Fold::JsSimple(node) => &JS_SIMPLE[node.index()],
            Fold::None => &NONE,
        };
        cell.get_or_init(|| {
            let moved: Vec<(u32, u32)> = (0..=MAX_CP)
                .filter_map(|c| {
                    let f = self.apply(c);
                    (f != c).then_some((c, f))
                })
                .collect();
            let set = CharSet::from_chars(moved.iter().map(|&(c, _)| c));
            (moved, set)
        })
    }
}

/// The smallest member of `c`'s case class under node's `/…/iu` (`c` when it has none).
fn js_simple_fold(node: NodeUnicode, c: u32) -> u32 {
    static BY_MEMBER: [OnceLock<Vec<(u32, u32)>>; NODE_MAJORS.len()] =
        [const { OnceLock::new() }; NODE_MAJORS.len()];
    let table = BY_MEMBER[node.index()].get_or_init(|| {
        let mut t: Vec<(u32, u32)> = node
            .case_classes()
            .flat_map(|class| class.iter().map(move |&m| (m, class[0])))
            .collect();
        t.sort_unstable();
        t
    });
    match table.binary_search_by_key(&c, |&(m, _)| m) {
        Ok(i) => table[i].1,
        Err(_) => c,
    }
}

/// The code points a fold changes, with their folded forms, and the same as a set.
type Moved = (Vec<(u32, u32)>, CharSet);

/// CPython's lower case of one character in release `v` (`_sre.unicode_tolower`, the first
/// character of the release's full lower-case mapping).
#[inline]
pub fn python_lower(v: PyVersion, c: u32) -> u32 {
    PyUnicode::of(v).lower(c)
}

/// The first character of Rust's full lower-case mapping of `c` (`c` itself for a surrogate).
#[inline]
pub fn std_lower(c: u32) -> u32 {
    if c < 128 {
        return if (0x41..=0x5A).contains(&c) {
            c + 32
        } else {
            c
        };
    }
    match char::from_u32(c) {
        Some(ch) => ch.to_lowercase().next().map_or(c, |l| l as u32),
        None => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = CharSet::from_ranges(vec![(0x61, 0x7A)]);
        let v = CharSet::from_chars("aeiou".chars().map(|c| c as u32));
        let cons = a.difference(&v);
        assert!(cons.contains('b' as u32) && !cons.contains('a' as u32));
        assert!(a.intersect(&v).contains('e' as u32));
        assert!(!a.negate().contains('q' as u32));
        assert!(a.negate().contains(0xD800));
        assert_eq!(a.negate().negate(), a);
    }

    #[test]
    fn python_case_classes_follow_each_releases_tables() {
        let close = |v, c: char| -> Vec<u32> {
            let set = CaseRule::Python(v).close(&CharSet::from_chars([c as u32]));
            set.ranges().iter().flat_map(|&(lo, hi)| lo..=hi).collect()
        };
        assert_eq!(
            close(PyVersion::V3_11, 's'),
            ['S' as u32, 's' as u32, 0x17F]
        );
        assert!(close(PyVersion::V3_11, 'σ').contains(&0x3C2));
        // U+A7C0/U+A7C1 (OLD POLISH O) are Unicode 14.0: a pair in 3.11, unrelated in 3.10.
        assert_eq!(close(PyVersion::V3_11, '\u{a7c1}'), [0xA7C0, 0xA7C1]);
        assert_eq!(close(PyVersion::V3_10, '\u{a7c1}'), [0xA7C1]);
        // Regression: sre's case fixes of 3.8 lack the Cyrillic pairs 3.9 added (в and ᲀ).
        assert!(close(PyVersion::V3_9, 'в').contains(&0x1C80));
        assert!(!close(PyVersion::V3_8, 'в').contains(&0x1C80));
    }

    #[test]
    fn js_canonical_keeps_non_ascii_out_of_ascii() {
        let node = NodeUnicode::NODE20;
        assert_eq!(node.canonicalize(0x17F), 0x17F); // ſ upper-cases to S: not taken
        assert_eq!(node.canonicalize('a' as u32), 'A' as u32);
        assert_eq!(node.canonicalize(0xDF), 0xDF); // ß upper-cases to SS: two units
        assert_eq!(node.canonicalize(0x3C2), 0x3A3); // ς -> Σ
        assert_eq!(node.canonicalize(0x212A), 0x212A); // the Kelvin sign is upper case
    }
}
