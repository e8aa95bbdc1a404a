//! The languages rxw writes programs in, each one [`Dialect`]: a table of what the emitter, the
//! program writer and the test-file writer need to know about it (its names, its string
//! literals, its program, and how its regex syntax says each meaning).
//!
//! Nothing else in `codegen` matches on [`Lang`]: every question goes through
//! [`Lang::dialect`]. The table is here, one entry per language, each saying how its regex
//! syntax differs from the [`COMMON`] one; what a language writes in code of its own (its
//! program, its string literals, its property names) is in its file. A new language is a
//! variant of [`Lang`], its entry and its line in [`Lang::dialect`], and its file.

use super::{Lang, Translation};
use crate::flavor::Flavor;

pub(crate) mod csharp;
pub(crate) mod go;
pub(crate) mod java;
pub(crate) mod js;
pub(crate) mod python;
pub(crate) mod ruby;
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

    /// How its regex syntax says each meaning.
    pub re: Syntax,
}

/// How a language's regex syntax says each meaning, and what its engine does differently.
pub(crate) struct Syntax {
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

/// What most engines' syntax says: one backtracking engine, `\A` and `\z`, `(?s:.)`,
/// `\x{…}` escapes, properties by name, atomic groups, `(?P<name>…)`.
const COMMON: Syntax = Syntax {
    engines: Engines::Backtracking,
    repeat_limit: None,
    text_start: "\\A",
    text_end: "\\z",
    newline_anchors: false,
    end_or_final_newline: None,
    ascii_word_boundary: None,
    any_char: "(?s:.)",
    class_specials: "\\]^-[&~|",
    code_escape: |v| format!("\\x{{{v:X}}}"),
    property: named_property,
    properties_by_name: true,
    nested_negation: false,
    utf16: false,
    utf16_lookbehind: false,
    lookbehind_fixed_width: false,
    atomic: true,
    possessive: Possessive::Suffix,
    named_group: Some(("(?P<", true)),
    loop_resets_groups: false,
    unset_backref_matches_empty: false,
    scoped_ignore_case: false,
    backrefs_unname_groups: false,
};

/// Rust with the `regex` crate, and `fancy-regex` when look-around or backreferences need it.
static RUST: Dialect = Dialect {
    name: "rust",
    aliases: &["rs"],
    title: "Rust",
    extension: "rs",
    file_name: "main.rs",
    library: "regex",
    syntax: "regex",
    native_flavor: Some(Flavor::Rust),
    native: |f| f == Flavor::Rust,
    program: rust::program,
    comment: "//",
    comment_text: as_is,
    tests: Some(super::test_file::RUST),
    re: Syntax {
        engines: Engines::LinearThenBacktracking,
        newline_anchors: true,
        ascii_word_boundary: Some(["(?-u:\\b)", "(?-u:\\B)"]),
        nested_negation: true,
        lookbehind_fixed_width: true,
        possessive: Possessive::Atomic,
        backrefs_unname_groups: true,
        ..COMMON
    },
};

/// Python 3 with `re`.
static PYTHON: Dialect = Dialect {
    name: "python",
    aliases: &["py"],
    title: "Python",
    extension: "py",
    file_name: "matches.py",
    library: "re",
    syntax: "re",
    native_flavor: Some(Flavor::PYTHON),
    // Every release: the program runs on the reader's own CPython, whichever it is (a preset
    // names the release it was written for, python@3.11, and is carried over as written).
    native: |f| f.is_python(),
    program: python::program,
    comment: "#",
    comment_text: as_is,
    tests: Some(super::test_file::PYTHON),
    re: Syntax {
        text_end: "\\Z",
        newline_anchors: true,
        end_or_final_newline: Some("$"),
        ascii_word_boundary: Some(["(?a:\\b)", "(?a:\\B)"]),
        code_escape: python::code_escape,
        property: python::property,
        properties_by_name: false,
        lookbehind_fixed_width: true,
        scoped_ignore_case: true,
        ..COMMON
    },
};

/// JavaScript (node) with `RegExp`.
static JS: Dialect = Dialect {
    name: "js",
    aliases: &["javascript", "node"],
    title: "JavaScript",
    extension: "js",
    file_name: "matches.js",
    library: "RegExp",
    syntax: "RegExp",
    native_flavor: Some(Flavor::JS),
    // Every release: the program runs on the reader's own node.
    native: |f| f.is_js(),
    program: js::program,
    comment: "//",
    comment_text: as_is,
    tests: Some(super::test_file::JS),
    re: Syntax {
        text_start: "^",
        text_end: "$",
        ascii_word_boundary: Some(["\\b", "\\B"]),
        any_char: "[\\s\\S]",
        class_specials: "\\]^-[/|",
        code_escape: |v| format!("\\u{{{v:X}}}"),
        atomic: false,
        possessive: Possessive::None,
        named_group: Some(("(?<", true)),
        loop_resets_groups: true,
        unset_backref_matches_empty: true,
        ..COMMON
    },
};

/// Go with `regexp` (RE2 syntax).
static GO: Dialect = Dialect {
    name: "go",
    aliases: &["golang"],
    title: "Go",
    extension: "go",
    file_name: "main.go",
    library: "regexp",
    syntax: "RE2",
    native_flavor: None,
    native: |_| false,
    program: go::program,
    comment: "//",
    comment_text: as_is,
    tests: None,
    re: Syntax {
        engines: Engines::Linear,
        repeat_limit: Some(1000),
        newline_anchors: true,
        ascii_word_boundary: Some(["\\b", "\\B"]),
        property: go::property,
        properties_by_name: false,
        atomic: false,
        possessive: Possessive::None,
        ..COMMON
    },
};

/// Java with `java.util.regex`.
static JAVA: Dialect = Dialect {
    name: "java",
    aliases: &[],
    title: "Java",
    extension: "java",
    file_name: "Main.java",
    library: "java.util.regex",
    syntax: "java.util.regex",
    native_flavor: None,
    native: Flavor::is_java,
    program: java::program,
    comment: "//",
    // javac reads `\u` escapes even in comments, and sources are not always read as UTF-8.
    comment_text: java::comment_text,
    tests: None,
    re: Syntax {
        property: java::property,
        nested_negation: true,
        utf16_lookbehind: true,
        lookbehind_fixed_width: true,
        // Java names are letters and digits only.
        named_group: Some(("(?<", false)),
        scoped_ignore_case: true,
        ..COMMON
    },
};

/// C# with `System.Text.RegularExpressions`.
static CSHARP: Dialect = Dialect {
    name: "csharp",
    aliases: &["c#", "cs", "dotnet"],
    title: "C#",
    extension: "cs",
    file_name: "Program.cs",
    library: "System.Text.RegularExpressions",
    syntax: ".NET",
    native_flavor: Some(Flavor::Dotnet),
    native: Flavor::is_dotnet,
    program: csharp::program,
    comment: "//",
    comment_text: as_is,
    tests: None,
    re: Syntax {
        any_char: "(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^\\uD800-\\uDFFF])",
        // Callers keep astral characters away from C# classes.
        code_escape: |v| format!("\\u{v:04X}"),
        property: csharp::property,
        properties_by_name: false,
        utf16: true,
        possessive: Possessive::Atomic,
        // .NET numbers named groups after the unnamed ones, so every group stays unnamed to
        // keep rxw's numbering.
        named_group: None,
        scoped_ignore_case: true,
        ..COMMON
    },
};

/// Ruby with its `Regexp` (Onigmo).
static RUBY: Dialect = Dialect {
    name: "ruby",
    aliases: &["rb"],
    title: "Ruby",
    extension: "rb",
    file_name: "matches.rb",
    library: "Regexp",
    syntax: "Onigmo",
    native_flavor: Some(Flavor::RUBY),
    // Ruby's own releases only: Oniguruma's `\w \d \s \b` are Unicode classes where Onigmo's
    // are ASCII, so an `oniguruma` pattern is written out with its meanings explicit.
    native: |f| matches!(f, Flavor::Ruby(_)),
    program: ruby::program,
    comment: "#",
    comment_text: as_is,
    tests: None,
    re: Syntax {
        // Onigmo's largest count (ONIG_MAX_REPEAT_NUM).
        repeat_limit: Some(100_000),
        // `^` and `$` are always line anchors in Ruby, `^` not after a final newline: the
        // look-around forms say exactly "after / before `\n`".
        end_or_final_newline: Some("\\Z"),
        // `\b` is Unicode's in Ruby even though `\w` is ASCII; `(?a:…)` makes it ASCII's.
        ascii_word_boundary: Some(["(?a:\\b)", "(?a:\\B)"]),
        // `m` is Ruby's dot-all.
        any_char: "(?m:.)",
        code_escape: |v| format!("\\u{{{v:X}}}"),
        nested_negation: true,
        lookbehind_fixed_width: true,
        // `{n,m}+` is a repetition of a repetition in Ruby, not a possessive one.
        possessive: Possessive::Atomic,
        // Once a group is named, Ruby's plain groups stop capturing: every group stays
        // unnamed, so the groups print by rxw's numbers.
        named_group: None,
        ..COMMON
    },
};

impl Lang {
    /// The language's dialect: everything the code generator knows about it.
    pub(crate) fn dialect(self) -> &'static Dialect {
        match self {
            Lang::Rust => &RUST,
            Lang::Python => &PYTHON,
            Lang::Js => &JS,
            Lang::Go => &GO,
            Lang::Java => &JAVA,
            Lang::CSharp => &CSHARP,
            Lang::Ruby => &RUBY,
        }
    }
}

/// What every generated program says it does, after its origin.
pub(crate) const OUTPUT_DOC: &str = "prints every match of the pattern in standard input, one line per match: the match, then groups 1..n, tab-separated; backslash, tab, newline and carriage return are escaped as \\\\ \\t \\n \\r, and a group that did not take part prints as \\N";

/// The names `name` gives the translation's flag letters, joined with ` | ` as the argument
/// after the pattern (`, re.IGNORECASE | re.MULTILINE`); nothing when no letter has one.
pub(crate) fn flag_argument(
    t: &Translation,
    name: impl Fn(char) -> Option<&'static str>,
) -> String {
    let names: Vec<&str> = t.flags.chars().filter_map(name).collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(", {}", names.join(" | "))
    }
}

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

/// A double-quoted string literal whose other control characters are written by `escape`.
pub(crate) fn quoted_controls(s: &str, escape: fn(char) -> String) -> String {
    quoted(s, |c, out| {
        if c.is_control() {
            out.push_str(&escape(c));
        } else {
            out.push(c);
        }
    })
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
