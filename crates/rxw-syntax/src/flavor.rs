//! Regex flavors (Rust, Python 3.8–3.15, JavaScript as in node 18–26, Go 1.19–1.27, RE2) and their
//! flag letters. What differs between them is data in [`crate::rules`]: a flavor is a name and
//! a release; [`Flavor::rules`] is everything the parser, engine and generators ask of it.

use crate::error::{Error, ErrorKind};
pub use crate::release::{GoVersion, JavaVersion, NodeVersion, OffsetUnit, PyVersion, RubyVersion};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The dialect a pattern is written in, and whose engine's meaning rxw reproduces.
///
/// Python and JavaScript carry the engine release, so no code can treat `python@3.8` as 3.11
/// by accident: match on `Flavor::Python(_)` (or ask [`Flavor::is_python`]) where the family is
/// what matters, and on the version where releases differ. `PartialEq` is written by hand so
/// that the constants [`Flavor::PYTHON`] and [`Flavor::JS`] cannot be used as patterns (a
/// pattern `Flavor::PYTHON` would silently match only the default release).
#[derive(Debug, Clone, Copy, Default)]
pub enum Flavor {
    /// The `regex` crate (with `fancy-regex` for look-around and backreferences).
    #[default]
    Rust,
    /// CPython's `re` module, of one release.
    Python(PyVersion),
    /// ECMAScript `RegExp` as in one node release.
    Js(NodeVersion),
    /// Go's `regexp` package (RE2 syntax), of one release.
    Go(GoVersion),
    /// The RE2 library (one release: the one its tables and oracle came from).
    Re2,
    /// The `fancy-regex` crate: the regex crate's grammar with look-around, backreferences
    /// and atomic groups.
    Fancy,
    /// Java's `java.util.regex`, of one JDK.
    Java(JavaVersion),
    /// Ruby's `Regexp` (Onigmo), of one Ruby release.
    Ruby(RubyVersion),
    /// The Oniguruma C library (6.9.8, its own syntax), which Elasticsearch grok's joni ports.
    Oniguruma,
    /// PCRE2 10.42 in UTF mode (Debian's libpcre2-8).
    Pcre2,
    /// .NET's `System.Text.RegularExpressions`, as Mono 6.8 runs it.
    Dotnet,
}

impl PartialEq for Flavor {
    fn eq(&self, other: &Flavor) -> bool {
        match (self, other) {
            (Flavor::Rust, Flavor::Rust) => true,
            (Flavor::Python(a), Flavor::Python(b)) => a == b,
            (Flavor::Js(a), Flavor::Js(b)) => a == b,
            (Flavor::Go(a), Flavor::Go(b)) => a == b,
            (Flavor::Java(a), Flavor::Java(b)) => a == b,
            (Flavor::Ruby(a), Flavor::Ruby(b)) => a == b,
            (Flavor::Re2, Flavor::Re2)
            | (Flavor::Fancy, Flavor::Fancy)
            | (Flavor::Oniguruma, Flavor::Oniguruma)
            | (Flavor::Pcre2, Flavor::Pcre2)
            | (Flavor::Dotnet, Flavor::Dotnet) => true,
            _ => false,
        }
    }
}

impl Eq for Flavor {}

impl std::hash::Hash for Flavor {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // No allocation: a flavor is hashed where compiled patterns are cached.
        self.family().hash(state);
        match self {
            Flavor::Ruby(v) => v.hash(state),
            Flavor::Python(v) => v.hash(state),
            Flavor::Js(v) => v.hash(state),
            Flavor::Go(v) => v.hash(state),
            Flavor::Java(v) => v.hash(state),
            // A family of one release: the family is the flavor.
            _ => {}
        }
    }
}

/// A flavor without its release: what cycling in the TUI steps through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// The `regex` crate.
    Rust,
    /// CPython's `re`.
    Python,
    /// JavaScript `RegExp`.
    Js,
    /// Go's `regexp`.
    Go,
    /// The RE2 library.
    Re2,
    /// The `fancy-regex` crate.
    Fancy,
    /// Java's `java.util.regex`.
    Java,
    /// Ruby's `Regexp` (Onigmo).
    Ruby,
    /// The Oniguruma C library.
    Oniguruma,
    /// PCRE2.
    Pcre2,
    /// .NET's `System.Text.RegularExpressions` (Mono).
    Dotnet,
}

impl Family {
    /// Every family, in display order.
    pub const ALL: [Family; 11] = [
        Family::Rust,
        Family::Fancy,
        Family::Java,
        Family::Python,
        Family::Js,
        Family::Go,
        Family::Re2,
        Family::Ruby,
        Family::Oniguruma,
        Family::Pcre2,
        Family::Dotnet,
    ];

    /// The family's rules at its default release.
    pub fn default_flavor(self) -> Flavor {
        match self {
            Family::Rust => Flavor::Rust,
            Family::Python => Flavor::PYTHON,
            Family::Js => Flavor::JS,
            Family::Go => Flavor::GO,
            Family::Re2 => Flavor::Re2,
            Family::Fancy => Flavor::Fancy,
            Family::Java => Flavor::JAVA,
            Family::Ruby => Flavor::RUBY,
            Family::Oniguruma => Flavor::Oniguruma,
            Family::Pcre2 => Flavor::Pcre2,
            Family::Dotnet => Flavor::Dotnet,
        }
    }

    /// Every release of the family, oldest first.
    pub fn releases(self) -> Vec<Flavor> {
        match self {
            Family::Rust => vec![Flavor::Rust],
            Family::Python => PyVersion::ALL.into_iter().map(Flavor::Python).collect(),
            Family::Js => NodeVersion::ALL.into_iter().map(Flavor::Js).collect(),
            Family::Go => GoVersion::ALL.into_iter().map(Flavor::Go).collect(),
            Family::Re2 => vec![Flavor::Re2],
            Family::Fancy => vec![Flavor::Fancy],
            Family::Java => JavaVersion::ALL.into_iter().map(Flavor::Java).collect(),
            Family::Ruby => RubyVersion::ALL.into_iter().map(Flavor::Ruby).collect(),
            Family::Oniguruma => vec![Flavor::Oniguruma],
            Family::Pcre2 => vec![Flavor::Pcre2],
            Family::Dotnet => vec![Flavor::Dotnet],
        }
    }
}

impl Flavor {
    /// Everything that differs between flavors, as data: the one place the parser, the
    /// engine, the generators and the front ends ask ([`crate::rules::Rules`]).
    pub fn rules(self) -> &'static crate::rules::Rules {
        use crate::rules::{fancy, go, java, js, onig, python, re2, rust};
        match self {
            Flavor::Rust => &rust::RUST,
            Flavor::Python(v) => python::of(v),
            Flavor::Js(v) => js::of(v),
            Flavor::Go(v) => go::of(v),
            Flavor::Re2 => &re2::RE2,
            Flavor::Fancy => &fancy::FANCY,
            Flavor::Java(v) => java::of(v),
            Flavor::Ruby(_) => &onig::RUBY_3_1,
            Flavor::Oniguruma => &onig::ONIGURUMA,
            Flavor::Pcre2 => &crate::rules::pcre2::PCRE2,
            Flavor::Dotnet => &crate::rules::dotnet::DOTNET,
        }
    }

    /// The unit this flavor's engine reports positions in ([`OffsetUnit`]).
    pub fn offset_unit(self) -> OffsetUnit {
        self.rules().offset_unit
    }

    /// Python at the default release, what plain `python` means: the newest release CI checks
    /// against its real engine, 3.14 (3.15 is checked only as the release candidate Pyodide
    /// ships, so it is not yet a release).
    pub const PYTHON: Flavor = Flavor::Python(PyVersion::V3_14);
    /// JavaScript at the default release, what plain `js` means: node 26, the newest release
    /// CI checks against its real engine (and the active LTS line).
    pub const JS: Flavor = Flavor::Js(NodeVersion::Node26);
    /// Go at the newest release: what plain `go` means.
    pub const GO: Flavor = Flavor::Go(GoVersion::V1_27);
    /// Java at the newest checked JDK (25): what plain `java` means.
    pub const JAVA: Flavor = Flavor::Java(JavaVersion::V25);
    /// Ruby at the one checked release (3.1): what plain `ruby` means.
    pub const RUBY: Flavor = Flavor::Ruby(RubyVersion::V3_1);

    /// The families at their default releases, in display order.
    pub const ALL: [Flavor; 11] = [
        Flavor::Rust,
        Flavor::Fancy,
        Flavor::JAVA,
        Flavor::PYTHON,
        Flavor::JS,
        Flavor::GO,
        Flavor::Re2,
        Flavor::RUBY,
        Flavor::Oniguruma,
        Flavor::Pcre2,
        Flavor::Dotnet,
    ];

    /// Every flavor and release, in display order (each family's releases oldest first).
    pub fn all_versions() -> impl Iterator<Item = Flavor> {
        Family::ALL.into_iter().flat_map(Family::releases)
    }

    /// The release's position among its family's releases (0 for Rust).
    fn release_index(self) -> usize {
        let all = self.family().releases();
        all.iter().position(|f| *f == self).unwrap_or(0)
    }

    /// Whether this is a flavor of the Rust crates' grammar (regex-syntax's): `rust` (the
    /// regex crate) or `fancy` (fancy-regex).
    pub fn is_rust(self) -> bool {
        matches!(self, Flavor::Rust | Flavor::Fancy)
    }

    /// Whether this is a Python flavor, of any release.
    pub fn is_python(self) -> bool {
        matches!(self, Flavor::Python(_))
    }

    /// Whether this is a JavaScript flavor, of any release.
    pub fn is_js(self) -> bool {
        matches!(self, Flavor::Js(_))
    }

    /// Whether this is a Go flavor, of any release.
    pub fn is_go(self) -> bool {
        matches!(self, Flavor::Go(_))
    }

    /// Whether this is a Java flavor, of any JDK.
    pub fn is_java(self) -> bool {
        matches!(self, Flavor::Java(_))
    }

    /// Whether this is Ruby or the Oniguruma library: the flavors whose grammar the Onigmo
    /// reader reads ([`crate::onig`]).
    pub fn is_onig(self) -> bool {
        matches!(self, Flavor::Ruby(_) | Flavor::Oniguruma)
    }

    /// Whether this is PCRE2, whose grammar its own reader reads ([`crate::pcre2`]).
    pub fn is_pcre2(self) -> bool {
        matches!(self, Flavor::Pcre2)
    }

    /// Whether this is .NET, whose grammar its own reader reads ([`crate::dotnet`]).
    pub fn is_dotnet(self) -> bool {
        matches!(self, Flavor::Dotnet)
    }

    /// The JDK, for a Java flavor.
    pub fn java_version(self) -> Option<JavaVersion> {
        match self {
            Flavor::Java(v) => Some(v),
            _ => None,
        }
    }

    /// The flavor whose matcher rules run this flavor's tree. Itself, but for Java, Ruby and
    /// Oniguruma: their readers ([`crate::java`], [`crate::onig`]) write the engine's
    /// constructs as sre constructs of the same meaning, which the matcher runs as CPython
    /// 3.11's with ASCII classes and folding.
    pub fn matcher_flavor(self) -> Flavor {
        match self {
            Flavor::Java(_)
            | Flavor::Ruby(_)
            | Flavor::Oniguruma
            | Flavor::Pcre2
            | Flavor::Dotnet => Flavor::Python(PyVersion::V3_11),
            f => f,
        }
    }

    /// The family, without the release.
    pub fn family(self) -> Family {
        match self {
            Flavor::Rust => Family::Rust,
            Flavor::Python(_) => Family::Python,
            Flavor::Js(_) => Family::Js,
            Flavor::Go(_) => Family::Go,
            Flavor::Re2 => Family::Re2,
            Flavor::Fancy => Family::Fancy,
            Flavor::Java(_) => Family::Java,
            Flavor::Ruby(_) => Family::Ruby,
            Flavor::Oniguruma => Family::Oniguruma,
            Flavor::Pcre2 => Family::Pcre2,
            Flavor::Dotnet => Family::Dotnet,
        }
    }

    /// The CPython release, for a Python flavor.
    pub fn py_version(self) -> Option<PyVersion> {
        match self {
            Flavor::Python(v) => Some(v),
            _ => None,
        }
    }

    /// The node release, for a JavaScript flavor.
    pub fn node_version(self) -> Option<NodeVersion> {
        match self {
            Flavor::Js(v) => Some(v),
            _ => None,
        }
    }

    /// The Go release, for a Go flavor.
    pub fn go_version(self) -> Option<GoVersion> {
        match self {
            Flavor::Go(v) => Some(v),
            _ => None,
        }
    }

    /// The engine's generated Unicode tables, for the flavors that have them (Go, RE2).
    pub fn tables(self) -> Option<crate::engine_tables::EngineTables> {
        self.rules().tables
    }

    /// When this flavor's release reached its end of life (`"2026-04"`), or `None` while it is
    /// supported (and for the crates and RE2, which have no schedule of that kind).
    pub fn end_of_life(self) -> Option<&'static str> {
        match self {
            Flavor::Python(v) => v.end_of_life(),
            Flavor::Js(v) => v.end_of_life(),
            _ => None,
        }
    }

    /// The name a list of flavors shows: [`Flavor::versioned_name`], with `(end of life)`
    /// after a release past its end of life (`python@3.8 (end of life)`).
    pub fn listed_name(self) -> String {
        match self.end_of_life() {
            Some(_) => format!("{} (end of life)", self.versioned_name()),
            None => self.versioned_name(),
        }
    }

    /// Whether this is the family's default release (plain `python`, `js`, `go`).
    pub fn is_default_version(self) -> bool {
        self == self.family().default_flavor()
    }

    /// The family's lower-case name: `rust`, `python`, `js` or `go`.
    pub fn family_name(self) -> &'static str {
        self.rules().family_name
    }

    /// The release as the family writes it after `@` (`3.11`, `node20`, `1.22`); empty for
    /// Rust, which has one.
    pub fn release_name(self) -> String {
        match self {
            Flavor::Rust
            | Flavor::Re2
            | Flavor::Fancy
            | Flavor::Oniguruma
            | Flavor::Pcre2
            | Flavor::Dotnet => String::new(),
            Flavor::Python(v) => v.to_string(),
            Flavor::Js(v) => v.to_string(),
            Flavor::Go(v) => v.to_string(),
            Flavor::Java(v) => v.to_string(),
            Flavor::Ruby(v) => v.to_string(),
        }
    }

    /// The canonical name used on the command line and in JSON: the family's name at the
    /// default release (`python`, `js`, `go`), with the release otherwise (`python@3.8`,
    /// `js@node24`, `go@1.19`). Parsing the name gives back the same flavor.
    pub fn name(self) -> &'static str {
        static NAMES: std::sync::OnceLock<Vec<(Flavor, &'static str)>> = std::sync::OnceLock::new();
        let names = NAMES.get_or_init(|| {
            Flavor::all_versions()
                .map(|f| {
                    let name = if f.is_default_version() {
                        f.family_name().to_string()
                    } else {
                        f.versioned_name()
                    };
                    (f, &*Box::leak(name.into_boxed_str()))
                })
                .collect()
        });
        names
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("rust", |(_, n)| n)
    }

    /// The full name with the release always spelled out (`python@3.11`, `js@node20`,
    /// `go@1.27`, `rust`).
    pub fn versioned_name(self) -> String {
        self.with_release("@")
    }

    /// The name for a status line: `python 3.11`, `js node20`, `go 1.27`, `rust`.
    pub fn label(self) -> String {
        self.with_release(" ")
    }

    /// The family's name, then `sep` and the release where the family names one.
    fn with_release(self, sep: &str) -> String {
        match self.release_name() {
            release if release.is_empty() => self.family_name().to_string(),
            release => format!("{}{sep}{release}", self.family_name()),
        }
    }

    /// Flag letters this flavor accepts.
    pub fn flag_letters(self) -> &'static str {
        self.rules().flag_letters
    }

    /// The next family at its default release, for cycling in the TUI.
    pub fn next(self) -> Flavor {
        let i = Family::ALL
            .iter()
            .position(|f| *f == self.family())
            .unwrap_or(0);
        Family::ALL[(i + 1) % Family::ALL.len()].default_flavor()
    }

    /// The next release of the same family, wrapping from the newest to the oldest (Rust has
    /// one release and stays).
    pub fn next_version(self) -> Flavor {
        let all = self.family().releases();
        all[(self.release_index() + 1) % all.len()]
    }

    /// The accepted spellings, for `--help` texts, written from the release tables (so a
    /// new release is named wherever a flavor is asked for): `rust; python (= python@3.14),
    /// python@3.8 (end of life), …; js (= js@node26), js@node18 (end of life), …; go (=
    /// go@1.27), go@1.19, …`.
    pub fn spellings() -> String {
        let mut parts = Vec::new();
        for family in Family::ALL {
            let default = family.default_flavor();
            if family.releases().len() == 1 {
                parts.push(default.family_name().to_string());
                continue;
            }
            let all: Vec<String> = family.releases().iter().map(|f| f.listed_name()).collect();
            parts.push(format!(
                "{} (= {}), {} ({})",
                default.family_name(),
                default.versioned_name(),
                all.join(", "),
                default.rules().spelling_note
            ));
        }
        parts.join("; ")
    }

    /// Why plain `python` and `js` mean the releases they do, for `--help` texts and the
    /// guide: the newest release CI checks against its real engine, a release candidate not
    /// counted as a release.
    pub fn defaults_note() -> String {
        let newest_release = |family: Family| {
            family
                .releases()
                .into_iter()
                .rfind(|f| f.py_version().is_none_or(|v| v.pre_release().is_none()))
                .unwrap_or(family.default_flavor())
        };
        let candidates: Vec<String> = PyVersion::ALL
            .into_iter()
            .filter_map(|v| v.pre_release().map(|rc| format!("python@{v} runs {rc}")))
            .collect();
        format!(
            "plain python and js are the newest release CI checks against its real engine: \
             python = {}, js = {} ({}, checked only as the release candidate Pyodide ships, so \
             not yet the newest release); a release past its end of life stays available, \
             marked so",
            newest_release(Family::Python).versioned_name(),
            newest_release(Family::Js).versioned_name(),
            candidates.join(", "),
        )
    }

    /// The flag letters of every family, for `--help` texts: `i m s everywhere; x a
    /// (python); …`, from [`Flavor::flag_letters`].
    pub fn flags_help() -> String {
        let all = |f: Flavor| f.flag_letters().chars().collect::<Vec<_>>();
        let common: Vec<char> = all(Flavor::Rust)
            .into_iter()
            .filter(|c| Flavor::ALL.iter().all(|f| all(*f).contains(c)))
            .collect();
        let own = |f: Flavor| {
            all(f)
                .into_iter()
                .filter(|c| !common.contains(c))
                .map(String::from)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let common: Vec<String> = common.iter().map(|c| c.to_string()).collect();
        let families: Vec<String> = Flavor::ALL
            .iter()
            .map(|f| format!("{} ({})", own(*f), f.family_name()))
            .collect();
        format!("{} everywhere; {}", common.join(" "), families.join("; "))
    }
}

impl Flavor {
    /// The rows of the quick reference that this flavor's rules decide, each a construct as
    /// the flavor spells it and what it means here: what `\d \w \s \b` and `^ $` match, the
    /// flags with their names, the inline flags, the replacement syntax and the unit of
    /// positions. The constructs themselves are listed by the engine's
    /// `reference::quick_reference`, which asks the parser and the matcher.
    pub fn rules_notes(self) -> Vec<(String, String)> {
        use crate::rules::{Grammar, PerlClasses, Replacement};
        let r = self.rules();
        let x = r.syntax;
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut row = |a: &str, b: &str| rows.push((a.to_string(), b.to_string()));
        let ascii = match r.perl_classes {
            PerlClasses::Ascii | PerlClasses::Js => "ASCII",
            PerlClasses::Python => "Unicode (ASCII under a)",
            PerlClasses::RegexSyntax => "Unicode",
        };
        row(
            "\\d  \\w  \\s  \\b",
            &format!("digit, word character, space, word boundary: {ascii}"),
        );
        row(
            "^  $",
            match r.grammar {
                Grammar::Sre | Grammar::Pcre2 => {
                    "start; end or before a final newline (lines with m)"
                }
                Grammar::Java => "start; end or before a final line terminator (lines with m)",
                Grammar::Onig => "start, end of any line (always; m makes . match a newline)",
                Grammar::Dotnet => "start; end or before a final newline (lines with m)",
                _ => "start, end of the text (lines with m)",
            },
        );
        row(
            "*  +  ?  {n}  {n,}  {n,m}",
            &if x.max_repeat <= 100_000 {
                format!("counts up to {}", x.max_repeat)
            } else {
                "counts as large as memory allows".to_string()
            },
        );
        let flag_names: Vec<(char, &str)> = self
            .flag_letters()
            .chars()
            .map(|c| {
                let name = match c {
                    'i' => "ignore case",
                    'm' if r.grammar == Grammar::Onig => "dot matches newline",
                    'm' => "multi-line",
                    's' => "dot matches newline",
                    'x' => "verbose",
                    'a' => "ASCII classes",
                    'u' => "Unicode",
                    'v' => "Unicode sets",
                    'y' => "sticky",
                    'g' => "global",
                    'd' => "indices",
                    'U' => "swap greed",
                    'R' => "CRLF lines",
                    _ => "flag",
                };
                (c, name)
            })
            .collect();
        for (c, name) in flag_names {
            row(&format!("flag {c}"), name);
        }
        if !x.inline_flags.is_empty() && r.grammar != Grammar::Ecma {
            let f = x.inline_flags;
            row(
                &format!("(?{f})  (?{f}:…)"),
                "inline flags, to the end or scoped",
            );
        }
        row(
            "replacement",
            match r.replacement {
                Replacement::Backslash => "\\1  \\g<name>  \\g<0>",
                Replacement::Ecma => "$1  $<name>  $&  $`  $'  $$",
                Replacement::Dollar => "$1  ${1}  $name  ${name}  $$",
                Replacement::GoExpand => "$1  ${1}  $name  ${name}  $$ ($1x names group 1x)",
                Replacement::Rewrite => "\\0 … \\9  \\\\ (no names)",
                Replacement::Java => "$1  ${name}  \\$ (\\x is x)",
                Replacement::Ruby => "\\1  \\k<name>  \\0  \\&  \\`  \\'  \\\\",
                Replacement::Pcre2 => "$1  ${1}  $name  ${name}  $$ (an unset group is an error)",
                Replacement::Dotnet => "$1  ${1}  ${name}  $&  $`  $'  $_  $+  $$",
            },
        );
        row(
            "positions",
            &format!("{}, as {} counts them", r.offset_unit.name(), r.engine),
        );
        rows
    }
}

impl fmt::Display for Flavor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Flavor {
    /// The canonical [`Flavor::name`]: `"python"` at the default release, `"python@3.8"`
    /// otherwise.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl FromStr for Flavor {
    type Err = String;

    /// Parses `rust`, `python`, `python@3.8` … `python@3.15` (`py` for `python`), `js`,
    /// `js@node18` … `js@node26` (also `js@24`, `node24`, `node`), `go`, `go@1.19` …
    /// `go@1.27` (`golang`; a release between two named ones is the older's rules);
    /// case-insensitive.
    fn from_str(s: &str) -> Result<Flavor, String> {
        let lower = s.trim().to_ascii_lowercase();
        let (family, version) = match lower.split_once('@') {
            Some((f, v)) => (f, Some(v)),
            None => match lower.strip_prefix("node") {
                Some("") => ("node", None),
                Some(_) => ("node", Some(lower.as_str())),
                None => (lower.as_str(), None),
            },
        };
        let listed = |family: Family| {
            family
                .releases()
                .iter()
                .map(|f| f.release_name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        // A family of several releases: its default, or the release named, or the list of them.
        let release = |default: Flavor, parse: &dyn Fn(&str) -> Option<Flavor>| match version {
            None => Ok(default),
            Some(v) => parse(v).ok_or_else(|| {
                let name = default.family_name();
                format!(
                    "unknown {name} version {v:?} in {s:?} (expected one of {}; plain {name} \
                         is {})",
                    listed(default.family()),
                    default.release_name()
                )
            }),
        };
        // A family of one release: a release named is refused.
        let one_release = |f: Flavor| match version {
            None => Ok(f),
            Some(v) => Err(format!(
                "unknown flavor {s:?}: {} has one release, {} (got {v:?})",
                f.family_name(),
                f.rules().engine
            )),
        };
        match family {
            "rust" | "rs" => match version {
                None => Ok(Flavor::Rust),
                Some(v) => Err(format!(
                    "unknown flavor {s:?}: rust has no versions (rxw uses the regex crate it is \
                     built with; got {v:?})"
                )),
            },
            "python" | "py" => {
                release(Flavor::PYTHON, &|v| PyVersion::parse(v).map(Flavor::Python))
            }
            "js" | "javascript" | "ecmascript" | "node" => {
                release(Flavor::JS, &|v| NodeVersion::parse(v).map(Flavor::Js))
            }
            "go" | "golang" => match version {
                None => Ok(Flavor::GO),
                Some(v) => GoVersion::parse(v.strip_prefix("go").unwrap_or(v))
                    .map(Flavor::Go)
                    .ok_or_else(|| {
                        format!(
                            "unknown go version {v:?} in {s:?} (expected a release from 1.19 to \
                             1.27 but 1.20, which could not be checked; the ones whose regexp \
                             differs are {}; plain go is {})",
                            listed(Family::Go),
                            GoVersion::default()
                        )
                    }),
            },
            "fancy" | "fancy-regex" => match version {
                None => Ok(Flavor::Fancy),
                Some(v) => Err(format!(
                    "unknown flavor {s:?}: fancy has no versions (rxw reproduces fancy-regex \
                     0.16; got {v:?})"
                )),
            },
            "java" | "jdk" => release(Flavor::JAVA, &|v| JavaVersion::parse(v).map(Flavor::Java)),
            "ruby" | "onigmo" => {
                release(Flavor::RUBY, &|v| RubyVersion::parse(v).map(Flavor::Ruby))
            }
            "oniguruma" | "onig" => one_release(Flavor::Oniguruma),
            "pcre2" | "pcre" => one_release(Flavor::Pcre2),
            "dotnet" | ".net" | "csharp" | "c#" | "mono" => one_release(Flavor::Dotnet),
            "re2" => one_release(Flavor::Re2),
            _ => Err(format!(
                "unknown flavor {s:?} (expected rust, python, python@3.8 … python@3.15, js, \
                 js@node18 … js@node26, go, go@1.19 … go@1.27, re2, fancy, java, java@17, \
                 java@25, ruby, ruby@3.1, oniguruma, pcre2 or dotnet)"
            )),
        }
    }
}

/// A set of flags. Letters that a flavor does not know are rejected by [`Flags::parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Flags {
    /// `i`: case-insensitive.
    pub ignore_case: bool,
    /// `m`: `^` and `$` match at line boundaries.
    pub multiline: bool,
    /// `s`: `.` matches a newline.
    pub dotall: bool,
    /// `x`: whitespace and `#` comments in the pattern are ignored.
    pub verbose: bool,
    /// Python `a`: `\w \d \s \b` and case folding are ASCII-only.
    pub ascii: bool,
    /// JS `u`: Unicode mode (code points, strict syntax).
    pub unicode: bool,
    /// JS `v`: Unicode sets mode.
    pub unicode_sets: bool,
    /// JS `y`: sticky, each match must start where the previous ended.
    pub sticky: bool,
    /// JS `g`: global (implied by find and replace).
    pub global: bool,
    /// JS `d`: match indices (rxw always reports spans).
    pub indices: bool,
    /// Rust `U`: swap greedy and lazy.
    pub swap_greed: bool,
    /// Rust `R`: CRLF mode.
    pub crlf: bool,
}

impl Flags {
    /// Parses flag letters for a flavor.
    ///
    /// # Errors
    /// `invalid flag "q"` for a letter the flavor does not know, `duplicate flag "g"` for a
    /// letter given twice; the span is the letter's byte range in `letters`.
    pub fn parse(letters: &str, flavor: Flavor) -> Result<Flags, Error> {
        let mut flags = Flags::default();
        let mut seen = String::new();
        for (i, c) in letters.char_indices() {
            let span = Some(crate::Span::new(i, i + c.len_utf8()));
            if !flavor.flag_letters().contains(c) {
                return Err(
                    Error::new(ErrorKind::FlagInvalid, format!("invalid flag \"{c}\""))
                        .with_span_in(letters, span),
                );
            }
            if seen.contains(c) {
                return Err(Error::new(
                    ErrorKind::FlagDuplicate,
                    format!("duplicate flag \"{c}\""),
                )
                .with_span_in(letters, span));
            }
            seen.push(c);
            flags.set(c, true);
        }
        if flags.unicode && flags.unicode_sets {
            return Err(Error::new(
                ErrorKind::FlagInvalid,
                "invalid flags \"uv\": the u and v flags cannot be combined",
            ));
        }
        Ok(flags)
    }

    /// Sets or clears one flag by letter; unknown letters are ignored.
    pub fn set(&mut self, letter: char, on: bool) {
        if let Some(flag) = self.flag(letter) {
            *flag = on;
        }
    }

    /// Whether a flag is on, by letter.
    pub fn get(&self, letter: char) -> bool {
        let mut flags = *self;
        flags.flag(letter).is_some_and(|on| *on)
    }

    /// The switch a flag letter names.
    fn flag(&mut self, letter: char) -> Option<&mut bool> {
        Some(match letter {
            'i' => &mut self.ignore_case,
            'm' => &mut self.multiline,
            's' => &mut self.dotall,
            'x' => &mut self.verbose,
            'a' => &mut self.ascii,
            'u' => &mut self.unicode,
            'v' => &mut self.unicode_sets,
            'y' => &mut self.sticky,
            'g' => &mut self.global,
            'd' => &mut self.indices,
            'U' => &mut self.swap_greed,
            'R' => &mut self.crlf,
            _ => return None,
        })
    }

    /// JS: either `u` or `v` (both switch on Unicode mode).
    pub fn unicode_mode(&self) -> bool {
        self.unicode || self.unicode_sets
    }

    /// The letters that are on, in the flavor's canonical order.
    pub fn letters(&self, flavor: Flavor) -> String {
        flavor
            .rules()
            .flag_order
            .chars()
            .filter(|c| self.get(*c))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_release_parses_from_its_names_and_round_trips() {
        for f in Flavor::all_versions() {
            assert_eq!(f.name().parse::<Flavor>(), Ok(f), "{f}");
            assert_eq!(f.versioned_name().parse::<Flavor>(), Ok(f), "{f}");
        }
        let names: Vec<String> = Flavor::all_versions()
            .map(|f| f.versioned_name().to_string())
            .collect();
        assert_eq!(
            names.join(" "),
            "rust fancy java@17 java@25 python@3.8 python@3.9 python@3.10 python@3.11 \
             python@3.12 python@3.13 python@3.14 python@3.15 js@node18 js@node20 js@node22 \
             js@node24 js@node25 js@node26 go@1.19 go@1.21 go@1.22 go@1.25 go@1.26 go@1.27 \
             re2 ruby@3.1 oniguruma pcre2 dotnet"
        );
    }

    #[test]
    fn plain_names_are_the_default_releases_and_aliases_are_accepted() {
        let p = |s: &str| s.parse::<Flavor>().unwrap();
        assert_eq!(p("python"), Flavor::Python(PyVersion::V3_14));
        assert_eq!(p("py"), Flavor::PYTHON);
        assert_eq!(p("js"), Flavor::Js(NodeVersion::Node26));
        assert_eq!(p("node"), Flavor::JS);
        assert_eq!(p("py@3.8"), Flavor::Python(PyVersion::V3_8));
        assert_eq!(p("Python@3.13"), Flavor::Python(PyVersion::V3_13));
        assert_eq!(p("js@24"), Flavor::Js(NodeVersion::Node24));
        assert_eq!(p("node18"), Flavor::Js(NodeVersion::Node18));
        assert_eq!(p("javascript@node22"), Flavor::Js(NodeVersion::Node22));
    }

    #[test]
    fn releases_past_their_end_of_life_are_marked_where_flavors_are_listed() {
        let help = Flavor::spellings();
        for f in Flavor::all_versions() {
            let marked = help.contains(&format!("{} (end of life)", f.versioned_name()));
            assert_eq!(marked, f.end_of_life().is_some(), "{f} in {help}");
        }
        assert!(Flavor::Python(PyVersion::V3_8).end_of_life().is_some());
        assert!(Flavor::Js(NodeVersion::Node20).end_of_life().is_some());
        assert!(Flavor::PYTHON.end_of_life().is_none() && Flavor::JS.end_of_life().is_none());
        assert!(help.contains("python (= python@3.14)") && help.contains("js (= js@node26)"));
        let note = Flavor::defaults_note();
        assert!(
            note.contains(&format!("python = {}", Flavor::PYTHON.versioned_name()))
                && note.contains(&format!("js = {}", Flavor::JS.versioned_name())),
            "the note names the releases plain python and js are: {note}"
        );
    }

    #[test]
    fn every_flavor_has_rules_that_name_its_family_and_flags() {
        for f in Flavor::all_versions() {
            let r = f.rules();
            assert_eq!(r.family_name, f.family_name());
            for c in r.flag_letters.chars() {
                assert!(r.flag_order.contains(c), "{f}: {c} not in the order");
            }
        }
    }

    #[test]
    fn the_rules_notes_are_written_from_each_flavors_rules() {
        let text = |f: Flavor| {
            f.rules_notes()
                .iter()
                .map(|(a, b)| format!("{a} {b}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let go = text(Flavor::GO);
        assert!(go.contains("ASCII") && go.contains("bytes"), "{go}");
        let py = text(Flavor::PYTHON);
        assert!(
            py.contains("code points") && py.contains("\\g<name>"),
            "{py}"
        );
        let js = text(Flavor::JS);
        assert!(js.contains("$<name>") && js.contains("UTF-16"), "{js}");
        for f in Flavor::all_versions() {
            assert!(f.rules_notes().len() >= 5, "{f}");
        }
    }

    #[test]
    fn go_releases_read_as_the_newest_named_release_not_after_them() {
        let p = |s: &str| s.parse::<Flavor>();
        assert_eq!(p("go"), Ok(Flavor::Go(GoVersion::V1_27)));
        assert_eq!(p("go@1.23"), Ok(Flavor::Go(GoVersion::V1_22)));
        assert_eq!(p("golang@1.24.3"), Ok(Flavor::Go(GoVersion::V1_22)));
        assert_eq!(p("go@go1.21"), Ok(Flavor::Go(GoVersion::V1_21)));
        assert_eq!(p("go@1.26"), Ok(Flavor::Go(GoVersion::V1_26)));
        for bad in ["go@1.20", "go@1.18", "go@1.28", "go@2.0", "go@x"] {
            let e = p(bad).unwrap_err();
            assert!(
                e.contains("1.19, 1.21, 1.22, 1.25, 1.26, 1.27"),
                "{bad}: {e}"
            );
        }
        assert_eq!(Flavor::Go(GoVersion::V1_22).name(), "go@1.22");
        assert_eq!(Flavor::GO.name(), "go");
        assert_eq!(Flavor::GO.next(), Flavor::Re2);
        assert_eq!(Flavor::Re2.next(), Flavor::RUBY);
        assert_eq!(Flavor::JS.next(), Flavor::GO);
    }

    /// Asserts that each spelling reads as its flavor.
    fn assert_reads(cases: &[(&str, Flavor)]) {
        for (spelling, flavor) in cases {
            assert_eq!(spelling.parse::<Flavor>(), Ok(*flavor), "{spelling}");
        }
    }

    /// Asserts that `spelling` is refused with an error that says `says`.
    fn assert_refused(spelling: &str, says: &str) {
        let e = spelling.parse::<Flavor>().unwrap_err();
        assert!(e.contains(says), "{spelling}: {e}");
    }

    /// Asserts that `f`'s notes on its rules hold a note `name` whose text passes `says`.
    fn assert_note(f: Flavor, name: &str, says: impl Fn(&str) -> bool) {
        let notes = f.rules_notes();
        assert!(
            notes.iter().any(|(a, b)| a == name && says(b)),
            "{f}: {notes:?}"
        );
    }

    #[test]
    fn re2_is_one_release_spelled_re2() {
        assert_reads(&[("re2", Flavor::Re2), ("RE2", Flavor::Re2)]);
        assert_refused("re2@2024", "one release");
        assert_eq!(Flavor::Re2.name(), "re2");
        assert_eq!(Flavor::Re2.versioned_name(), "re2");
        assert_eq!(Flavor::Re2.next_version(), Flavor::Re2);
        assert!(
            Flavor::spellings().contains("; re2;"),
            "{}",
            Flavor::spellings()
        );
        assert_eq!(Flavor::Re2.offset_unit(), OffsetUnit::Bytes);
        assert!(Flavor::Re2.tables().is_some());
        assert_note(Flavor::Re2, "replacement", |b| b.starts_with("\\0"));
    }

    #[test]
    fn java_is_two_jdks_spelled_java_at_the_major() {
        assert_reads(&[
            ("java", Flavor::Java(JavaVersion::V25)),
            ("java@17", Flavor::Java(JavaVersion::V17)),
            ("jdk@25", Flavor::JAVA),
        ]);
        assert_refused("java@21", "17, 25");
        assert_eq!(Flavor::Java(JavaVersion::V17).name(), "java@17");
        assert_eq!(Flavor::JAVA.name(), "java");
        assert_eq!(Flavor::JAVA.offset_unit(), OffsetUnit::Utf16);
        assert_eq!(Flavor::Java(JavaVersion::V17).next_version(), Flavor::JAVA);
        assert_note(Flavor::JAVA, "replacement", |b| {
            b.starts_with("$1  ${name}")
        });
    }

    #[test]
    fn ruby_is_one_release_and_oniguruma_one_library() {
        assert_reads(&[
            ("ruby", Flavor::Ruby(RubyVersion::V3_1)),
            ("ruby@3.1", Flavor::RUBY),
            ("ruby@3.1.2", Flavor::RUBY),
            ("oniguruma", Flavor::Oniguruma),
            ("onig", Flavor::Oniguruma),
        ]);
        assert_refused("ruby@3.2", "3.1");
        assert_refused("oniguruma@6.9", "one release");
        assert_eq!(Flavor::RUBY.name(), "ruby");
        assert_eq!(Flavor::RUBY.versioned_name(), "ruby@3.1");
        assert_eq!(Flavor::RUBY.offset_unit(), OffsetUnit::CodePoints);
        assert_eq!(Flavor::Oniguruma.offset_unit(), OffsetUnit::Bytes);
        assert_eq!(Flavor::RUBY.next(), Flavor::Oniguruma);
        assert_eq!(Flavor::RUBY.flag_letters(), "imx");
        assert_note(Flavor::RUBY, "flag m", |b| b == "dot matches newline");
        assert_note(Flavor::RUBY, "replacement", |b| b.contains("\\k<name>"));
        let spellings = Flavor::spellings();
        assert!(spellings.contains("; ruby;"), "{spellings}");
        assert!(spellings.contains("oniguruma"), "{spellings}");
    }

    #[test]
    fn pcre2_is_one_release_in_bytes_with_its_flags_and_templates() {
        assert_reads(&[("pcre2", Flavor::Pcre2), ("PCRE", Flavor::Pcre2)]);
        assert_refused("pcre2@10.45", "PCRE2 10.42");
        assert_eq!(Flavor::Pcre2.versioned_name(), "pcre2");
        assert_eq!(Flavor::Pcre2.offset_unit(), OffsetUnit::Bytes);
        assert_eq!(Flavor::Pcre2.flag_letters(), "imsxu");
        assert_eq!(
            Flavor::Pcre2.matcher_flavor(),
            Flavor::Python(PyVersion::V3_11)
        );
        assert!(Family::ALL.contains(&Family::Pcre2));
        assert_note(Flavor::Pcre2, "replacement", |b| b.contains("${name}"));
        assert!(Flavor::spellings().contains("pcre2"));
    }

    #[test]
    fn every_go_release_names_its_own_tables() {
        for v in GoVersion::ALL {
            let Some(crate::engine_tables::EngineTables::Go(t)) = Flavor::Go(v).tables() else {
                panic!("go@{v} has no Go tables");
            };
            assert_eq!(t.release(), v.number(), "go@{v}");
        }
    }

    #[test]
    fn unknown_releases_are_errors_that_list_the_valid_ones() {
        let e = "python@3.7".parse::<Flavor>().unwrap_err();
        assert!(
            e.contains("3.8, 3.9, 3.10, 3.11, 3.12, 3.13, 3.14, 3.15"),
            "{e}"
        );
        let e = "js@node16".parse::<Flavor>().unwrap_err();
        assert!(e.contains("node18, node20, node22, node24"), "{e}");
        // The error names the release plain python and js are, whatever it is today.
        for (name, plain) in [("python@3.7", Flavor::PYTHON), ("js@node16", Flavor::JS)] {
            let e = name.parse::<Flavor>().unwrap_err();
            let family = plain.family_name();
            let says = format!("plain {family} is {})", plain.release_name());
            assert!(e.ends_with(&says), "{e}");
        }
        assert!(
            "java@8"
                .parse::<Flavor>()
                .unwrap_err()
                .ends_with("plain java is 25)")
        );
        assert!("rust@1.80".parse::<Flavor>().is_err());
        assert!("python@".parse::<Flavor>().is_err());
        assert!("perl".parse::<Flavor>().is_err());
    }

    #[test]
    fn json_names_the_release_only_when_it_is_not_the_default() {
        let j = |f: Flavor| serde_json::to_string(&f).unwrap();
        assert_eq!(j(Flavor::PYTHON), r#""python""#);
        assert_eq!(j(Flavor::JS), r#""js""#);
        assert_eq!(j(Flavor::Rust), r#""rust""#);
        assert_eq!(j(Flavor::Python(PyVersion::V3_8)), r#""python@3.8""#);
        assert_eq!(j(Flavor::Js(NodeVersion::Node24)), r#""js@node24""#);
    }

    #[test]
    fn releases_are_distinct_flavors_of_one_family() {
        let old = Flavor::Python(PyVersion::V3_8);
        assert_ne!(old, Flavor::PYTHON);
        assert!(old.is_python() && !old.is_js() && !old.is_rust());
        assert_eq!(old.family(), Flavor::PYTHON.family());
        assert_eq!(old.next(), Flavor::JS);
        assert_eq!(old.next_version(), Flavor::Python(PyVersion::V3_9));
        assert_eq!(
            Flavor::Js(NodeVersion::Node24).next_version(),
            Flavor::Js(NodeVersion::Node25)
        );
        assert_eq!(
            Flavor::Js(NodeVersion::Node26).next_version(),
            Flavor::Js(NodeVersion::Node18)
        );
        assert_eq!(old.label(), "python 3.8");
        assert_eq!(Flags::parse("a", old).unwrap().letters(old), "a");
    }
}
