//! Engine releases and the units their positions are counted in: the leaf that both the
//! flavor names ([`crate::flavor`]) and the flavors' rules ([`crate::rules`]) build on.

use std::fmt;

/// A CPython release whose `re` module a Python flavor reproduces.
///
/// Each release carries its own syntax rules (3.11 made misplaced global flags an error and
/// added atomic groups and possessive quantifiers) and its own Unicode data (`unicodedata`:
/// 3.8 = 12.1, 3.9 and 3.10 = 13.0, 3.11 = 14.0, 3.12 = 15.0, 3.13 = 15.1, 3.14 = 16.0,
/// 3.15 = 17.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum PyVersion {
    /// CPython 3.8 (Unicode 12.1).
    V3_8,
    /// CPython 3.9 (Unicode 13.0).
    V3_9,
    /// CPython 3.10 (Unicode 13.0).
    V3_10,
    /// CPython 3.11 (Unicode 14.0): the release the NetVM preset registry is written for
    /// (its presets name it, `python@3.11`).
    V3_11,
    /// CPython 3.12 (Unicode 15.0).
    V3_12,
    /// CPython 3.13 (Unicode 15.1).
    V3_13,
    /// CPython 3.14 (Unicode 16.0): `\z` as another spelling of `\Z`, `\B` matches the
    /// empty text. The default, what plain `python` means: the newest *release* CI checks
    /// against its real engine (3.15 is checked only as the release candidate Pyodide ships).
    #[default]
    V3_14,
    /// CPython 3.15 (Unicode 17.0), as its release candidate 3.15.0rc1 runs.
    V3_15,
}

impl PyVersion {
    /// All versions, oldest first.
    pub const ALL: [PyVersion; 8] = [
        PyVersion::V3_8,
        PyVersion::V3_9,
        PyVersion::V3_10,
        PyVersion::V3_11,
        PyVersion::V3_12,
        PyVersion::V3_13,
        PyVersion::V3_14,
        PyVersion::V3_15,
    ];

    /// The release number, `3.11`.
    pub fn number(self) -> &'static str {
        match self {
            PyVersion::V3_8 => "3.8",
            PyVersion::V3_9 => "3.9",
            PyVersion::V3_10 => "3.10",
            PyVersion::V3_11 => "3.11",
            PyVersion::V3_12 => "3.12",
            PyVersion::V3_13 => "3.13",
            PyVersion::V3_14 => "3.14",
            PyVersion::V3_15 => "3.15",
        }
    }

    /// The minor release number (`11` for 3.11), for range checks such as `minor() >= 11`.
    pub fn minor(self) -> u8 {
        match self {
            PyVersion::V3_8 => 8,
            PyVersion::V3_9 => 9,
            PyVersion::V3_10 => 10,
            PyVersion::V3_11 => 11,
            PyVersion::V3_12 => 12,
            PyVersion::V3_13 => 13,
            PyVersion::V3_14 => 14,
            PyVersion::V3_15 => 15,
        }
    }

    /// The Unicode version of this release's `unicodedata` (and so of its `re` classes).
    pub fn unicode_version(self) -> &'static str {
        match self {
            PyVersion::V3_8 => "12.1",
            PyVersion::V3_9 | PyVersion::V3_10 => "13.0",
            PyVersion::V3_11 => "14.0",
            PyVersion::V3_12 => "15.0",
            PyVersion::V3_13 => "15.1",
            PyVersion::V3_14 => "16.0",
            PyVersion::V3_15 => "17.0",
        }
    }

    /// The pre-release of CPython rxw's checks run for this release, when the only build CI
    /// runs it on is not yet the release itself (`3.15.0rc1`, the newest Pyodide's).
    pub fn pre_release(self) -> Option<&'static str> {
        match self {
            PyVersion::V3_15 => Some("3.15.0rc1"),
            _ => None,
        }
    }

    /// When the release reached its end of life (`"2025-10"`), or `None` while it is
    /// supported (CPython's schedule: PEP 569, 596 and 619). A release past its end of life
    /// stays available and is marked so wherever flavors are listed.
    pub fn end_of_life(self) -> Option<&'static str> {
        match self {
            PyVersion::V3_8 => Some("2024-10"),
            PyVersion::V3_9 => Some("2025-10"),
            PyVersion::V3_10 => Some("2026-10"),
            _ => None,
        }
    }

    pub(crate) fn parse(s: &str) -> Option<PyVersion> {
        PyVersion::ALL.into_iter().find(|v| v.number() == s)
    }
}

impl fmt::Display for PyVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.number())
    }
}

/// A node release whose `RegExp` (V8 with ICU's Unicode data) a JavaScript flavor reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum NodeVersion {
    /// node 18 (end of life since April 2025).
    Node18,
    /// node 20 (end of life since April 2026).
    Node20,
    /// node 22.
    Node22,
    /// node 24 (pattern modifiers `(?i:…)`, duplicate named groups).
    Node24,
    /// node 25 (V8 14.1).
    Node25,
    /// node 26, the active LTS line (V8 14.6): the default, what plain `js` means.
    #[default]
    Node26,
}

impl NodeVersion {
    /// All versions, oldest first.
    pub const ALL: [NodeVersion; 6] = [
        NodeVersion::Node18,
        NodeVersion::Node20,
        NodeVersion::Node22,
        NodeVersion::Node24,
        NodeVersion::Node25,
        NodeVersion::Node26,
    ];

    /// Each release's name, major number and end of life, in [`NodeVersion::ALL`]'s order.
    /// The end of life (node's release schedule): an even release is maintained for 30 months
    /// after its LTS begins, an odd one until June after its October release.
    const FACTS: [(&'static str, u8, Option<&'static str>); 6] = [
        ("node18", 18, Some("2025-04")),
        ("node20", 20, Some("2026-04")),
        ("node22", 22, None),
        ("node24", 24, None),
        ("node25", 25, Some("2026-06")),
        ("node26", 26, None),
    ];

    /// The release's name, `node20`.
    pub fn name(self) -> &'static str {
        NodeVersion::FACTS[self as usize].0
    }

    /// The major release number, `20`.
    pub fn major(self) -> u8 {
        NodeVersion::FACTS[self as usize].1
    }

    /// When the release reached its end of life (`"2026-04"`), or `None` while it is
    /// supported.
    pub fn end_of_life(self) -> Option<&'static str> {
        NodeVersion::FACTS[self as usize].2
    }

    pub(crate) fn parse(s: &str) -> Option<NodeVersion> {
        let digits = s.strip_prefix("node").unwrap_or(s);
        NodeVersion::ALL
            .into_iter()
            .find(|v| v.major().to_string() == digits)
    }
}

impl fmt::Display for NodeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A JDK whose `java.util.regex` a Java flavor reproduces (the two checked against the real
/// JDKs; their differences are listed in `gen/java_notes.md`, section 14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum JavaVersion {
    /// Java 17 (Unicode 13.0; `\b` counts Unicode letters and digits as word characters; a
    /// trailing `\` is an "Unexpected internal error").
    V17,
    /// Java 25 (Unicode 16.0; `\b` follows `\w`), the newest: what plain `java` means.
    #[default]
    V25,
}

impl JavaVersion {
    /// All versions, oldest first.
    pub const ALL: [JavaVersion; 2] = [JavaVersion::V17, JavaVersion::V25];

    /// The major release number, `17`.
    pub fn major(self) -> u32 {
        match self {
            JavaVersion::V17 => 17,
            JavaVersion::V25 => 25,
        }
    }

    pub(crate) fn parse(s: &str) -> Option<JavaVersion> {
        let digits = s.strip_prefix("jdk").unwrap_or(s);
        JavaVersion::ALL
            .into_iter()
            .find(|v| v.major().to_string() == digits)
    }
}

impl fmt::Display for JavaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.major())
    }
}

/// A Ruby release whose regular expressions (Onigmo, the Oniguruma fork Ruby ships) the Ruby
/// flavor reproduces: the one Debian's `ruby` runs, against which the flavor is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum RubyVersion {
    /// Ruby 3.1 (Onigmo 6.2, Unicode 13.0), the only one checked: what plain `ruby` means.
    #[default]
    V3_1,
}

impl RubyVersion {
    /// All versions, oldest first.
    pub const ALL: [RubyVersion; 1] = [RubyVersion::V3_1];

    pub(crate) fn parse(s: &str) -> Option<RubyVersion> {
        // `3.1` or a patch release of it (`3.1.2`).
        RubyVersion::ALL.into_iter().find(|v| {
            let name = v.to_string();
            s == name
                || s.strip_prefix(&name)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|patch| {
                        !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit())
                    })
        })
    }
}

impl fmt::Display for RubyVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RubyVersion::V3_1 => f.write_str("3.1"),
        }
    }
}

/// A Go release whose `regexp` package (RE2 syntax, leftmost-first, linear time) a Go flavor
/// reproduces. Only the releases whose `regexp` behaves differently are named: the others
/// behave as the newest named release before them (1.20 as 1.19, 1.23 and 1.24 as 1.22, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum GoVersion {
    /// Go 1.19 (Unicode 13.0; named groups only as `(?P<name>…)`). Go 1.20 is not offered:
    /// its `regexp` differs from both neighbours (1.19's Unicode data, 1.21's "expression too
    /// large") and no toolchain of it can be run to check it.
    V1_19,
    /// Go 1.21 (Unicode 15.0).
    V1_21,
    /// Go 1.22 to 1.24 (1.23 and 1.24 checked to answer as 1.22): `(?<name>…)` named groups;
    /// `(?<=` is read as a group name.
    V1_22,
    /// Go 1.25: long category names (`\p{Letter}`), `Any`, `ASCII`, `Assigned`, `Cn`, `LC`,
    /// names compared loosely.
    V1_25,
    /// Go 1.26: a fix in how alternatives are factored (`(?i:A)x|A[xy]` no longer matches
    /// `ay`).
    V1_26,
    /// Go 1.27 (Unicode 17.0; script names compared loosely too), the newest: what plain `go`
    /// means.
    #[default]
    V1_27,
}

impl GoVersion {
    /// All versions, oldest first.
    pub const ALL: [GoVersion; 6] = [
        GoVersion::V1_19,
        GoVersion::V1_21,
        GoVersion::V1_22,
        GoVersion::V1_25,
        GoVersion::V1_26,
        GoVersion::V1_27,
    ];

    /// The release number, `1.22`.
    pub fn number(self) -> &'static str {
        match self {
            GoVersion::V1_19 => "1.19",
            GoVersion::V1_21 => "1.21",
            GoVersion::V1_22 => "1.22",
            GoVersion::V1_25 => "1.25",
            GoVersion::V1_26 => "1.26",
            GoVersion::V1_27 => "1.27",
        }
    }

    /// The minor release number (`22` for 1.22), for range checks.
    pub fn minor(self) -> u8 {
        match self {
            GoVersion::V1_19 => 19,
            GoVersion::V1_21 => 21,
            GoVersion::V1_22 => 22,
            GoVersion::V1_25 => 25,
            GoVersion::V1_26 => 26,
            GoVersion::V1_27 => 27,
        }
    }

    /// The named release that behaves as `1.X` does (`1.23` → 1.22), for `go@1.X`.
    pub(crate) fn parse(s: &str) -> Option<GoVersion> {
        let minor: u8 = s.strip_prefix("1.")?.split('.').next()?.parse().ok()?;
        if !(19..=27).contains(&minor) || minor == 20 {
            return None;
        }
        GoVersion::ALL
            .into_iter()
            .rev()
            .find(|v| v.minor() <= minor)
    }
}

impl fmt::Display for GoVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.number())
    }
}

/// The unit a flavor's own engine counts text positions in: what `m.span()` (CPython: code
/// points), `m.index` (JavaScript: UTF-16 code units) or `Match::start` (the regex crate and
/// Go: bytes) give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffsetUnit {
    /// UTF-8 bytes.
    Bytes,
    /// Unicode code points.
    CodePoints,
    /// UTF-16 code units.
    Utf16,
}

impl OffsetUnit {
    /// The unit's name for a label: `bytes`, `code points`, `UTF-16 units`.
    pub fn name(self) -> &'static str {
        match self {
            OffsetUnit::Bytes => "bytes",
            OffsetUnit::CodePoints => "code points",
            OffsetUnit::Utf16 => "UTF-16 units",
        }
    }

    /// How many of this unit `text` takes.
    pub fn count(self, text: &str) -> usize {
        match self {
            OffsetUnit::Bytes => text.len(),
            OffsetUnit::CodePoints => text.chars().count(),
            OffsetUnit::Utf16 => text.chars().map(char::len_utf16).sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_releases_name_their_major_and_end_of_life() {
        for (i, v) in NodeVersion::ALL.into_iter().enumerate() {
            assert_eq!(v as usize, i, "{v:?}: ALL is in the enum's order");
            assert_eq!(v.name(), format!("node{}", v.major()));
            assert_eq!(NodeVersion::parse(v.name()), Some(v));
        }
        assert_eq!(NodeVersion::Node20.major(), 20);
        let ended: Vec<_> = NodeVersion::ALL
            .into_iter()
            .filter_map(|v| Some((v.name(), v.end_of_life()?)))
            .collect();
        assert_eq!(
            ended,
            [
                ("node18", "2025-04"),
                ("node20", "2026-04"),
                ("node25", "2026-06")
            ]
        );
    }
}
