//! The generated Unicode tables of the RE2-family engines (Go's `regexp`, RE2), behind one
//! type: the `\p{…}` names each accepts with their sets, the fold orbits `(?i)` matches with,
//! and the characters a group name may hold. A flavor names its tables in its rules
//! ([`crate::rules::Rules::tables`]); the parser and the compiler ask these, never a family.

use crate::go_unicode::GoUnicode;
use crate::re2_unicode::Re2Unicode;

/// One engine release's generated tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineTables {
    /// A Go release's (`go_unicode`).
    Go(GoUnicode),
    /// RE2's, as the `google-re2` package answers (`re2_unicode`).
    Re2(Re2Unicode),
}

impl EngineTables {
    /// A number per table release, for per-release caches (Go's releases, then RE2).
    pub fn index(self) -> usize {
        match self {
            EngineTables::Go(g) => g.index(),
            EngineTables::Re2(_) => GoUnicode::RELEASES.len(),
        }
    }

    /// The Unicode version of the tables (`"15.1.0"`).
    pub fn unicode_version(self) -> &'static str {
        match self {
            EngineTables::Go(g) => g.unicode_version(),
            EngineTables::Re2(r) => r.unicode_version(),
        }
    }

    /// `\p{name}` as the engine accepts it (without braces and `^`), as sorted inclusive
    /// ranges, or None when it refuses the name.
    pub fn property(self, name: &str) -> Option<&'static [(u32, u32)]> {
        match self {
            EngineTables::Go(g) => g.property(name),
            EngineTables::Re2(r) => r.property(name),
        }
    }

    /// What `(?i)\p{name}` matches before any negation, or None when the name is refused.
    pub fn property_folded(self, name: &str) -> Option<Vec<(u32, u32)>> {
        match self {
            EngineTables::Go(g) => g.property_folded(name),
            EngineTables::Re2(r) => r.property_folded(name),
        }
    }

    /// The next member of `c`'s fold orbit (`unicode.SimpleFold`'s order).
    pub fn simple_fold(self, c: u32) -> u32 {
        match self {
            EngineTables::Go(g) => g.simple_fold(c),
            EngineTables::Re2(r) => r.simple_fold(c),
        }
    }

    /// Every code point of `c`'s fold orbit, `c` first.
    pub fn fold_orbit(self, c: u32) -> Vec<u32> {
        match self {
            EngineTables::Go(g) => g.fold_orbit(c),
            EngineTables::Re2(r) => r.fold_orbit(c),
        }
    }

    /// The set closed under the fold orbits, sorted inclusive ranges.
    pub fn case_closure(self, ranges: &[(u32, u32)]) -> Vec<(u32, u32)> {
        match self {
            EngineTables::Go(g) => g.case_closure(ranges),
            EngineTables::Re2(r) => r.case_closure(ranges),
        }
    }

    /// Every code point that folds, with the next member of its orbit, sorted.
    pub fn folds(self) -> &'static [(u32, u32)] {
        match self {
            EngineTables::Go(g) => g.folds(),
            EngineTables::Re2(r) => r.folds(),
        }
    }

    /// Whether `c` may stand in a group name: Go's `isValidCaptureName` takes ASCII letters,
    /// digits and `_`; RE2 the characters of `Lu Ll Lt Lm Lo Nl Mn Mc Nd Pc`. Both anywhere in
    /// the name, a digit first included.
    pub fn capture_name_char(self, c: char) -> bool {
        match self {
            EngineTables::Go(_) => c == '_' || c.is_ascii_alphanumeric(),
            EngineTables::Re2(r) => r.capture_name_char(c),
        }
    }
}
