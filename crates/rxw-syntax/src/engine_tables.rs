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

#[cfg(test)]
mod tests {
    use super::*;

    fn contains(ranges: &[(u32, u32)], c: u32) -> bool {
        ranges.iter().any(|&(a, b)| a <= c && c <= b)
    }

    /// Every Go release's tables, then RE2's.
    fn every_table() -> impl Iterator<Item = EngineTables> {
        (0..GoUnicode::RELEASES.len())
            .map(|i| EngineTables::Go(GoUnicode::nth(i)))
            .chain([EngineTables::Re2(Re2Unicode)])
    }

    #[test]
    fn every_orbit_closes() {
        // Following simple_fold from any member comes back to it.
        for t in every_table() {
            for &(c, _) in t.folds() {
                let orbit = t.fold_orbit(c);
                assert!((2..=4).contains(&orbit.len()), "{t:?}: {c:#x} {orbit:x?}");
            }
        }
    }

    #[test]
    fn fold_orbits() {
        for t in every_table() {
            assert_eq!(t.fold_orbit('k' as u32), [0x6B, 0x212A, 0x4B], "{t:?}");
            assert_eq!(t.fold_orbit('K' as u32), [0x4B, 0x6B, 0x212A], "{t:?}");
            assert_eq!(t.fold_orbit('s' as u32), [0x73, 0x17F, 0x53], "{t:?}");
            let mut sigma = t.fold_orbit(0x3C3);
            sigma.sort();
            assert_eq!(sigma, [0x3A3, 0x3C2, 0x3C3], "{t:?}");
            assert_eq!(t.fold_orbit('1' as u32), ['1' as u32], "{t:?}");
            assert_eq!(t.fold_orbit(0x110000), [0x110000], "{t:?}");
        }
    }

    #[test]
    fn case_closure_of_classes() {
        for t in every_table() {
            let az = t.case_closure(&[('a' as u32, 'z' as u32)]);
            assert!(
                contains(&az, 'A' as u32) && contains(&az, 0x17F) && contains(&az, 0x212A),
                "{t:?}"
            );
            assert!(!contains(&az, '0' as u32), "{t:?}");
            assert_eq!(t.case_closure(&[(0x30, 0x39)]), [(0x30, 0x39)], "{t:?}");
            assert_eq!(t.case_closure(&[(0, 0x10FFFF)]), [(0, 0x10FFFF)], "{t:?}");
            assert_eq!(
                t.case_closure(&[(0x3C2, 0x3C2)]),
                [(0x3A3, 0x3A3), (0x3C2, 0x3C3)],
                "{t:?}"
            );
            // Unsorted and overlapping input.
            assert_eq!(
                t.case_closure(&[(0x62, 0x62), (0x61, 0x62)]),
                [(0x41, 0x42), (0x61, 0x62)],
                "{t:?}"
            );
        }
    }
}
