//! The languages rxw writes programs in, each one [`Dialect`]: a table of what the emitter, the
//! program writer and the test-file writer need to know about it (its names, its string
//! literals, its program, and how its regex syntax says each meaning).
//!
//! Nothing else in `codegen` matches on [`Lang`]: every question goes through
//! [`Lang::dialect`]. A new language is a new file here holding its `DIALECT`, a variant of
//! [`Lang`] and its line in [`Lang::dialect`].

use super::{Lang, Translation};
use crate::flavor::Flavor;

pub(crate) mod csharp;
pub(crate) mod go;
pub(crate) mod java;
pub(crate) mod js;
pub(crate) mod python;
pub(crate) mod rust;

/// What one target language is, for the code generator.
pub(crate) struct Dialect {
    /// The lower-case name used on the command line (`rust`).
    pub name: &'static str,
    /// Other names the command line accepts (`rs`).
    pub aliases: &'static [&'static str],
    /// A name for people (`C#`, `JavaScript`).
    pub title: &'static str,
    /// The usual file extension (for syntax highlighting and for saving).
    pub extension: &'static str,
    /// The file name a generated program expects to be saved as.
    pub file_name: &'static str,
    /// The regex library's name in messages (`Go's regexp`).
    pub library: &'static str,
    /// The syntax family's name in messages (`Go's RE2 syntax`).
    pub syntax: &'static str,

    /// The flavor that is this language's own engine, if rxw has one.
    pub native_flavor: Option<Flavor>,
    /// Whether a pattern of `flavor` is carried over verbatim (the program runs the very
    /// engine whose meaning rxw reproduces).
    pub native: fn(Flavor) -> bool,
    /// The whole program around a translation (`origin` says where it came from).
    pub program: fn(&Translation, &str) -> String,
    /// What starts a line comment.
    pub comment: &'static str,
    /// Text as a comment may hold it.
    pub comment_text: fn(&str) -> String,
    /// How cases are exported as a test file, if they are.
    pub tests: Option<super::test_file::TestFile>,

    /// Which engines run the pattern.
    pub engines: Engines,
    /// The largest repetition count the syntax accepts, also for nested counts multiplied.
    pub repeat_limit: Option<u32>,
    /// The start of the text (`\A`).
    pub text_start: &'static str,
    /// The very end of the text (`\z`).
    pub text_end: &'static str,
    /// `(?m:^)` and `(?m:$)` mean "after / before `\n`", and nothing else.
    pub newline_anchors: bool,
    /// The end, or before a final `\n` (Python's `$`), if the syntax has it.
    pub end_or_final_newline: Option<&'static str>,
    /// `\b` and `\B` on ASCII word characters, if the syntax can say them without look-around.
    pub ascii_word_boundary: Option<[&'static str; 2]>,
    /// Any character, line breaks included.
    pub any_char: &'static str,
    /// The characters a class escapes.
    pub class_specials: &'static str,
    /// A character (a code point) as an escape.
    pub code_escape: fn(u32) -> String,
    /// A Unicode property by name, or why it cannot be written (`oniguruma`: the engine is
    /// Oniguruma on this syntax).
    pub property: fn(name: &str, negated: bool, oniguruma: bool) -> Result<String, String>,
    /// Unicode properties are written by name (not as rxw's explicit sets).
    pub properties_by_name: bool,
    /// A class may hold a negated class (`[a[^\d]]`).
    pub nested_negation: bool,
    /// The engine matches UTF-16 code units: astral characters are written as surrogate pairs.
    pub utf16: bool,
    /// Look-behind is measured in UTF-16 code units (Java).
    pub utf16_lookbehind: bool,
    /// Look-behind must have a fixed width.
    pub lookbehind_fixed_width: bool,
    /// Atomic groups `(?>…)`.
    pub atomic: bool,
    /// How a possessive quantifier is written.
    pub possessive: Possessive,
    /// How a named group opens: the opening, and whether a name may hold `_`. `None`: every
    /// group stays unnamed (.NET numbers named groups after the unnamed ones).
    pub named_group: Option<(&'static str, bool)>,
    /// The groups inside a repetition are reset at each iteration (JavaScript).
    pub loop_resets_groups: bool,
    /// A backreference to a group that did not take part matches the empty string (JavaScript).
    pub unset_backref_matches_empty: bool,
    /// A backreference can be wrapped in a scoped `(?i:…)`.
    pub scoped_ignore_case: bool,
    /// Numbered backreferences are refused once a group has a name (fancy-regex): with any
    /// backreference, every group is written unnamed (the program prints groups by number).
    pub backrefs_unname_groups: bool,
}

/// Which engines a language's program can run the pattern on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Engines {
    /// One engine, backtracking: look-around and backreferences as it has them.
    Backtracking,
    /// A linear-time engine, and a backtracking one where a construct needs it (Rust's
    /// `regex`, then `fancy-regex`; the backtracking one does not take `(?-u:…)`).
    LinearThenBacktracking,
    /// A linear-time engine alone: no look-around, no backreferences.
    Linear,
}

/// How a language writes a possessive quantifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Possessive {
    /// `a*+`.
    Suffix,
    /// As an atomic group, `(?>a*)`.
    Atomic,
    /// Not at all.
    None,
}

impl Dialect {
    /// `Go's regexp`.
    pub fn library_name(&self) -> String {
        format!("{}'s {}", self.title, self.library)
    }

    /// `Go's RE2 syntax`.
    pub fn syntax_name(&self) -> String {
        format!("{}'s {} syntax", self.title, self.syntax)
    }
}

impl Lang {
    /// The language's dialect: everything the code generator knows about it.
    pub(crate) fn dialect(self) -> &'static Dialect {
        match self {
            Lang::Rust => &rust::DIALECT,
            Lang::Python => &python::DIALECT,
            Lang::Js => &js::DIALECT,
            Lang::Go => &go::DIALECT,
            Lang::Java => &java::DIALECT,
            Lang::CSharp => &csharp::DIALECT,
        }
    }
}

/// What every generated program says it does, after its origin.
pub(crate) const OUTPUT_DOC: &str = "prints every match of the pattern in standard input, one line per match: the match, then groups 1..n, tab-separated; backslash, tab, newline and carriage return are escaped as \\\\ \\t \\n \\r, and a group that did not take part prints as \\N";

/// A double-quoted string literal: `"`, `\` and the three usual control characters as
/// backslash escapes, every other character as `other` writes it.
pub(crate) fn quoted(s: &str, other: impl Fn(char, &mut String)) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => other(c, &mut out),
        }
    }
    out.push('"');
    out
}

/// Text as it is (a comment of most languages holds any text).
pub(crate) fn as_is(s: &str) -> String {
    s.to_string()
}

/// A Unicode property as most engines name it: `\p{Lu}`, `\P{Lu}`.
pub(crate) fn named_property(
    name: &str,
    negated: bool,
    _oniguruma: bool,
) -> Result<String, String> {
    Ok(format!("\\{}{{{name}}}", if negated { 'P' } else { 'p' }))
}

/// `\x{E9}` (Rust, Go, Java).
pub(crate) fn braced_hex_escape(v: u32) -> String {
    format!("\\x{{{v:X}}}")
}
