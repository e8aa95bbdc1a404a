//! Code generation: a pattern as a ready program in another language.
//!
//! [`generate`] writes a complete program (Rust, Python, JavaScript, Go, Java, C# or Ruby) that
//! compiles the pattern, reads the text from standard input and prints one line per match:
//! the match, then every group by number, separated by tabs ([`match_line`] is the format).
//!
//! Translation is decided on rxw's own parse tree, never on the pattern's text:
//!
//! - When the target *is* the pattern's flavor (a Python pattern to a Python program, a JS
//!   pattern to node, a Rust pattern to the `regex` / `fancy-regex` crates) the pattern is
//!   carried over verbatim with its flags: the program runs the very engine whose meaning rxw
//!   reproduces.
//! - Otherwise the tree is written out again in the target's syntax with every meaning made
//!   explicit: `\d`, `\w`, `\s` become the flavor's exact sets, `.` says which line breaks it
//!   excludes, `^`, `$` and `\b` become the assertions the flavor means (look-around where the
//!   target has no native equivalent). Whatever cannot be carried over exactly is refused with
//!   an [`Error`] of kind [`ErrorKind::ConstructUnsupported`] pointing at the construct.
//!
//! Case-insensitive matching is decided per character: every letter, class and shorthand
//! under `i` is written as exactly the set of characters the source flavor matches with it
//! (Rust's `(?i)s` as `[Ssſ]`, CPython's `(?i)i` as `[Iiİı]`), taken from the matcher's own
//! folding, and the program runs case-sensitively, so no engine's folding decides. A Rust
//! `\w` or `\d` becomes the `regex` crate's explicit set in every other language (long, but
//! exact at the crate's Unicode version), as do Unicode properties in targets that cannot name
//! them.
//!
//! Deliberately refused across languages (see [`translate`]; [`translate_nearest`] writes the
//! closest program instead and lists the inputs it answers differently): patterns that can match
//! the empty string (engines step past an empty match differently), JS backreferences (an
//! unset group matches the empty string in JS only), JS sticky mode, Rust's swap-greed and
//! CRLF modes, look-around and backreferences in Go, possessive quantifiers and atomic groups
//! in JS and Go, Unicode properties the target names differently, and in C# anything whose
//! meaning depends on astral characters (.NET matches UTF-16 code units).

pub(crate) mod dialect;
pub(crate) mod emit;
pub mod highlight;
pub(crate) mod program;
pub mod snippet;
mod test_file;
pub mod xterm;

pub use emit::Difference;
pub use program::{Program, generate, generate_nearest};
pub use test_file::{TestExport, export_tests};

use crate::engine::Match;
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use std::fmt;
use std::str::FromStr;

/// A language rxw writes programs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// Rust with the `regex` crate (`fancy-regex` when look-around or backreferences need it).
    #[default]
    Rust,
    /// Python 3 with `re`.
    Python,
    /// JavaScript (node) with `RegExp`.
    Js,
    /// Go with `regexp` (RE2 syntax).
    Go,
    /// Java with `java.util.regex`.
    Java,
    /// C# with `System.Text.RegularExpressions`.
    CSharp,
    /// Ruby with its `Regexp` (Onigmo).
    Ruby,
}

impl Lang {
    /// Every language, in the order the TUI cycles through them.
    pub const ALL: [Lang; 7] = [
        Lang::Rust,
        Lang::Python,
        Lang::Js,
        Lang::Go,
        Lang::Java,
        Lang::CSharp,
        Lang::Ruby,
    ];

    /// The lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        self.dialect().name
    }

    /// A name for people ("C#", "JavaScript").
    pub fn title(self) -> &'static str {
        self.dialect().title
    }

    /// The usual file extension (for syntax highlighting and for saving).
    pub fn extension(self) -> &'static str {
        self.dialect().extension
    }

    /// The next language, for cycling.
    pub fn next(self) -> Lang {
        let i = Lang::ALL.iter().position(|l| *l == self).unwrap_or(0);
        Lang::ALL[(i + 1) % Lang::ALL.len()]
    }

    /// The flavor that is this language's own engine, if rxw has one.
    pub fn native_flavor(self) -> Option<Flavor> {
        self.dialect().native_flavor
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        let lower = s.to_ascii_lowercase();
        Lang::ALL
            .into_iter()
            .find(|l| {
                let d = l.dialect();
                d.name == lower || d.aliases.contains(&lower.as_str())
            })
            .ok_or_else(|| {
                format!(
                    "unknown language {s:?} (expected rust, python, js, go, java, csharp or ruby)"
                )
            })
    }
}

/// Which engine of the target runs the pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetEngine {
    /// Rust's `regex` crate.
    RustRegex,
    /// Rust's `fancy-regex` crate (look-around, backreferences, atomic groups).
    RustFancy,
    /// The language's standard engine.
    Standard,
}

/// A pattern rewritten for a target: the pattern text and the options to compile it with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// The target language.
    pub lang: Lang,
    /// The pattern in the target's syntax (not yet a string literal).
    pub pattern: String,
    /// Flag letters of the target's own engine (only when the pattern is carried verbatim:
    /// the letters of the source flavor, e.g. `ms` for Python; empty after a rewrite, where
    /// every flag's meaning is written into the pattern).
    pub flags: String,
    /// Whether the pattern was carried over verbatim (same engine as the flavor).
    pub verbatim: bool,
    /// Which engine runs it.
    pub engine: TargetEngine,
}

/// Rewrites a pattern for a target language, or says which construct cannot be carried over.
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] (and the other parse errors) when the pattern does not parse
/// in its flavor; [`ErrorKind::ConstructUnsupported`] with the construct's span when the
/// target would mean something else or cannot run it.
pub fn translate(
    pattern: &str,
    flavor: Flavor,
    flags: Flags,
    lang: Lang,
) -> Result<Translation, Error> {
    let ast = crate::syntax::parse::parse(pattern, flavor, flags)?;
    emit::translate_ast(emit::Parsed::new(pattern, flavor, flags, &ast), lang)
}

/// The exact translation when there is one; otherwise the closest, with every construct it
/// writes approximately and the inputs on which it answers differently. An empty list means
/// the translation is exact.
///
/// # Errors
/// As for [`translate`], for what cannot be written even approximately (look-around in Go,
/// a flag only the source has, a look-behind of varying width where the target needs a fixed
/// one, …).
pub fn translate_nearest(
    pattern: &str,
    flavor: Flavor,
    flags: Flags,
    lang: Lang,
) -> Result<(Translation, Vec<Difference>), Error> {
    match translate(pattern, flavor, flags, lang) {
        Ok(t) => Ok((t, Vec::new())),
        Err(e) if e.kind == ErrorKind::ConstructUnsupported => {
            let ast = crate::syntax::parse::parse(pattern, flavor, flags)?;
            emit::translate_nearest(emit::Parsed::new(pattern, flavor, flags, &ast), lang)
        }
        Err(e) => Err(e),
    }
}

/// One field of an output line: `\` `\t` `\n` `\r` escaped as backslash sequences, so that a
/// line holds exactly one match whatever the text contains.
pub fn escape_field(s: &str) -> String {
    escape_line(s, &[('\\', "\\\\")], |_| false)
}

/// `s` made safe for one line: `\n` `\r` `\t` and each character of `also` (as its escape)
/// written as backslash escapes, each other character `hex` picks as `\u{…}`.
pub(crate) fn escape_line(s: &str, also: &[(char, &str)], hex: fn(char) -> bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => match also.iter().find(|(a, _)| *a == c) {
                Some((_, escape)) => out.push_str(escape),
                None if hex(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                None => out.push(c),
            },
        }
    }
    out
}

/// What a group that did not take part in the match prints as (as in PostgreSQL's COPY text
/// format: a backslash sequence that an escaped field can never be).
pub const UNSET_FIELD: &str = "\\N";

/// The line a generated program prints for a match (without the line break): the match, then
/// groups 1..n in number order (named groups too, by their number; names are not printed),
/// tab-separated, each field escaped by [`escape_field`], an unset group as [`UNSET_FIELD`].
pub fn match_line(text: &str, m: &Match) -> String {
    (0..m.groups.len())
        .map(|k| match m.group(text, k) {
            Some(s) => escape_field(s),
            None => UNSET_FIELD.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\t")
}

/// Every match's [`match_line`], each followed by a line break: what a generated program
/// prints for `text`.
///
/// # Errors
/// As for [`crate::Regex::find_all`].
pub fn expected_output(re: &crate::Regex, text: &str) -> Result<String, Error> {
    let mut out = String::new();
    for m in re.find_all(text, None)? {
        out.push_str(&match_line(text, &m));
        out.push('\n');
    }
    Ok(out)
}

pub(crate) fn refusal(pattern: &str, lang: Lang, span: Option<crate::Span>, why: &str) -> Error {
    refusal_for(pattern, lang.title(), span, why)
}

/// A refusal naming the target by `title` ("Go", "ClickHouse (RE2)").
pub(crate) fn refusal_for(
    pattern: &str,
    title: &str,
    span: Option<crate::Span>,
    why: &str,
) -> Error {
    Error::new(
        ErrorKind::ConstructUnsupported,
        format!("cannot write this pattern for {title}: {why}"),
    )
    .with_span_in(pattern, span)
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn fields_escape_separators_and_backslashes() {
        assert_eq!(escape_field("a\tb\nc\\d\re"), "a\\tb\\nc\\\\d\\re");
        assert_ne!(escape_field("\\N"), UNSET_FIELD);
    }

    #[test]
    fn match_line_marks_unset_groups() {
        let re = crate::Regex::new("(a)|(b)", Flavor::Rust, Flags::default()).unwrap();
        assert_eq!(
            expected_output(&re, "ab").unwrap(),
            "a\ta\t\\N\nb\t\\N\tb\n"
        );
    }

    #[test]
    fn languages_parse_and_cycle() {
        assert_eq!("C#".parse::<Lang>().unwrap(), Lang::CSharp);
        let mut l = Lang::Rust;
        for _ in 0..Lang::ALL.len() {
            l = l.next();
        }
        assert_eq!(l, Lang::Rust);
    }
}
