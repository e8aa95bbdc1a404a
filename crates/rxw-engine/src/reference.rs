//! The quick reference of a flavor's syntax: every construct of a catalogue that the flavor
//! accepts, decided by the parser and the matcher themselves, so it cannot drift from what
//! rxw runs.
//!
//! Each construct carries an example pattern, texts and the first match the construct's
//! meaning gives in each. A flavor lists it when the example compiles in that flavor and finds
//! those matches; one that is refused (as invalid, or as a construct rxw cannot run in that
//! flavor yet), or that compiles to something else (Python reads `[[:alpha:]]` as a class of
//! `[:alph` followed by `]`), is not listed. The
//! rows the rules decide (what `\d` and `$` mean, the flags, the replacement syntax, the unit
//! of positions) follow, from [`Flavor::rules_notes`].

use crate::Regex;
use rxw_syntax::flavor::{Flags, Flavor};

/// One construct of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct Construct {
    /// Its section in the reference.
    pub section: &'static str,
    /// How it is written.
    pub syntax: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// A pattern using it, with the flag letters it needs (those the flavor lacks are left
    /// out).
    pub example: (&'static str, &'static str),
    /// Texts, and the first match (byte span) the construct's meaning gives in each
    /// (`None`: no match).
    pub checks: &'static [(&'static str, Option<(usize, usize)>)],
    /// What is inserted at the cursor: the text before the cursor, and after it.
    pub insert: (&'static str, &'static str),
}

macro_rules! c {
    ($section:literal, $syntax:literal, $meaning:literal, ($p:literal, $f:literal), $checks:expr, ($b:literal, $a:literal)) => {
        Construct {
            section: $section,
            syntax: $syntax,
            meaning: $meaning,
            example: ($p, $f),
            checks: &$checks,
            insert: ($b, $a),
        }
    };
}

/// Every construct of rxw's flavors, in reference order (PCRE's and Ruby's own, such as
/// `(?|…)`, `\K` and `(?R)`, come with those flavors; Java's `\R`, `\X` and `\G` when rxw
/// runs them).
pub const CATALOGUE: &[Construct] = &[
    c!(
        "groups",
        "(…)",
        "capturing group",
        ("(a)b", ""),
        [("xab", Some((1, 3)))],
        ("(", ")")
    ),
    c!(
        "groups",
        "(?:…)",
        "group that captures nothing",
        ("(?:a)b", ""),
        [("xab", Some((1, 3)))],
        ("(?:", ")")
    ),
    c!(
        "groups",
        "(?P<name>…)",
        "named group",
        ("(?P<n>a)b", ""),
        [("xab", Some((1, 3)))],
        ("(?P<", ">)")
    ),
    c!(
        "groups",
        "(?<name>…)",
        "named group",
        ("(?<n>a)b", ""),
        [("xab", Some((1, 3)))],
        ("(?<", ">)")
    ),
    c!(
        "groups",
        "(?>…)",
        "atomic group: no backtracking into it",
        ("(?>a+)a", ""),
        [("aaa", None), ("ab", None)],
        ("(?>", ")")
    ),
    c!(
        "groups",
        "(?#…)",
        "comment",
        ("a(?#note)b", ""),
        [("xab", Some((1, 3)))],
        ("(?#", ")")
    ),
    c!(
        "back-references",
        "\\1",
        "the text group 1 matched",
        ("(a|b)\\1", ""),
        [("abb", Some((1, 3)))],
        ("\\1", "")
    ),
    c!(
        "back-references",
        "(?P=name)",
        "the text the named group matched",
        ("(?P<n>a|b)(?P=n)", ""),
        [("abb", Some((1, 3)))],
        ("(?P=", ")")
    ),
    c!(
        "back-references",
        "\\k<name>",
        "the text the named group matched",
        ("(?<n>a|b)\\k<n>", ""),
        [("abb", Some((1, 3)))],
        ("\\k<", ">")
    ),
    c!(
        "look-around",
        "(?=…)",
        "look-ahead: followed by",
        ("a(?=b)", ""),
        [("acab", Some((2, 3)))],
        ("(?=", ")")
    ),
    c!(
        "look-around",
        "(?!…)",
        "negative look-ahead: not followed by",
        ("a(?!b)", ""),
        [("abac", Some((2, 3)))],
        ("(?!", ")")
    ),
    c!(
        "look-around",
        "(?<=…)",
        "look-behind: preceded by",
        ("(?<=b)a", ""),
        [("caba", Some((3, 4)))],
        ("(?<=", ")")
    ),
    c!(
        "look-around",
        "(?<!…)",
        "negative look-behind: not preceded by",
        ("(?<!b)a", ""),
        [("baca", Some((3, 4)))],
        ("(?<!", ")")
    ),
    c!(
        "look-around",
        "(?(1)yes|no)",
        "conditional: yes when group 1 took part, else no",
        ("(a)?(?(1)b|c)", ""),
        [("xc", Some((1, 2))), ("ab", Some((0, 2)))],
        ("(?(", ")|)")
    ),
    c!(
        "repetition",
        "*  +  ?",
        "zero or more, one or more, optional (greedy)",
        ("ba*c+d?", ""),
        [("xbaacc", Some((1, 6)))],
        ("*", "")
    ),
    c!(
        "repetition",
        "{n}  {n,}  {n,m}",
        "exactly n, at least n, n to m",
        ("a{2}b{1,}c{1,2}", ""),
        [("aabccc", Some((0, 5)))],
        ("{", "}")
    ),
    c!(
        "repetition",
        "{,m}",
        "at most m",
        ("ba{,2}", ""),
        [("baaa", Some((0, 3)))],
        ("{,", "}")
    ),
    c!(
        "repetition",
        "*?  +?  ??  {n,m}?",
        "lazy: as few as will do",
        ("a+?", ""),
        [("aaa", Some((0, 1)))],
        ("*?", "")
    ),
    c!(
        "repetition",
        "*+  ++  ?+",
        "possessive: never gives back",
        ("a*+a", ""),
        [("aaa", None), ("b", None)],
        ("*+", "")
    ),
    c!(
        "characters",
        ".",
        "any character but a line break (any with s)",
        ("a.c", ""),
        [("abc", Some((0, 3)))],
        (".", "")
    ),
    c!(
        "characters",
        "[abc]  [^abc]  [a-z]",
        "one of, none of, a range",
        ("[ab][^ab][a-c]", ""),
        [("axc", Some((0, 3)))],
        ("[", "]")
    ),
    c!(
        "characters",
        "\\d  \\w  \\s",
        "a digit, a word character, a space (\\D \\W \\S: the opposite)",
        ("\\d\\w\\s\\D", ""),
        [("1a x", Some((0, 4)))],
        ("\\d", "")
    ),
    c!(
        "characters",
        "\\h",
        "a horizontal space (\\H: the opposite)",
        ("a\\hb", ""),
        [("a\tb", Some((0, 3)))],
        ("\\h", "")
    ),
    c!(
        "characters",
        "\\h",
        "a hexadecimal digit: 0-9, a-f, A-F (\\H: the opposite)",
        ("a\\hb", ""),
        [("a7b", Some((0, 3))), ("aFb", Some((0, 3))), ("a\tb", None)],
        ("\\h", "")
    ),
    c!(
        "characters",
        "[[:alpha:]]",
        "a POSIX class, inside brackets",
        ("[[:alpha:]]+", ""),
        [("ab1", Some((0, 2)))],
        ("[[:", ":]]")
    ),
    c!(
        "characters",
        "[a-z&&[^aeiou]]",
        "class intersection",
        ("[a-z&&[^aeiou]]+", ""),
        [("bcae", Some((0, 2)))],
        ("[", "&&[]]")
    ),
    c!(
        "characters",
        "[\\w--\\d]",
        "class difference (with v)",
        ("[\\w--\\d]+", "v"),
        [("ab1", Some((0, 2)))],
        ("[", "--]")
    ),
    c!(
        "characters",
        "[a[bc]]",
        "class union by nesting",
        ("[a[bc]]+", ""),
        [("abc]", Some((0, 3)))],
        ("[", "[]]")
    ),
    c!(
        "characters",
        "\\pL  \\p{Lu}",
        "a Unicode category (\\P: the opposite)",
        ("\\p{L}+", "u"),
        [("é1", Some((0, 2)))],
        ("\\p{", "}")
    ),
    c!(
        "characters",
        "\\p{Greek}",
        "a Unicode script",
        ("\\p{Greek}+", "u"),
        [("αβc", Some((0, 4)))],
        ("\\p{", "}")
    ),
    c!(
        "characters",
        "\\p{Script=Greek}",
        "a Unicode property by name and value",
        ("\\p{Script=Greek}+", "u"),
        [("αβc", Some((0, 4)))],
        ("\\p{Script=", "}")
    ),
    c!(
        "characters",
        "\\N{name}",
        "a character by its Unicode name",
        ("\\N{GREEK SMALL LETTER ALPHA}", ""),
        [("xα", Some((1, 3)))],
        ("\\N{", "}")
    ),
    c!(
        "anchors",
        "^  $",
        "start, end (of a line with m)",
        ("^a$", ""),
        [("a", Some((0, 1))), ("ba", None)],
        ("^", "")
    ),
    c!(
        "anchors",
        "\\A",
        "start of the text",
        ("\\Aa", ""),
        [("aa", Some((0, 1))), ("ba", None)],
        ("\\A", "")
    ),
    c!(
        "anchors",
        "\\Z",
        "end of the text, or before a final line break",
        ("\\Z", ""),
        [("a\n", Some((1, 1))), ("ab", Some((2, 2)))],
        ("\\Z", "")
    ),
    c!(
        "anchors",
        "\\Z",
        "end of the text",
        ("\\Z", ""),
        [("a\n", Some((2, 2))), ("ab", Some((2, 2)))],
        ("\\Z", "")
    ),
    c!(
        "anchors",
        "\\z",
        "end of the text",
        ("\\z", ""),
        [("a\n", Some((2, 2))), ("ab", Some((2, 2)))],
        ("\\z", "")
    ),
    c!(
        "anchors",
        "\\b  \\B",
        "word boundary, not a word boundary",
        ("\\ba\\B", ""),
        [("ab", Some((0, 1))), ("ba b", None)],
        ("\\b", "")
    ),
    c!(
        "anchors",
        "\\b{start}  \\b{end}",
        "start, end of a word",
        ("\\b{start}a", ""),
        [("ba a", Some((3, 4)))],
        ("\\b{", "}")
    ),
    c!(
        "escapes",
        "\\t  \\n  \\r  \\f",
        "tab, line feed, carriage return, form feed",
        ("\\t\\n", ""),
        [("x\t\n", Some((1, 3)))],
        ("\\t", "")
    ),
    c!(
        "escapes",
        "\\x41",
        "a character by two hex digits",
        ("\\x41", ""),
        [("xA", Some((1, 2)))],
        ("\\x", "")
    ),
    c!(
        "escapes",
        "\\x{263A}",
        "a character by its hex code",
        ("\\x{41}", ""),
        [("xA", Some((1, 2)))],
        ("\\x{", "}")
    ),
    c!(
        "escapes",
        "\\u0041",
        "a character by four hex digits",
        ("\\u0041", ""),
        [("xA", Some((1, 2)))],
        ("\\u", "")
    ),
    c!(
        "escapes",
        "\\u{1F600}",
        "a character by its hex code (with u)",
        ("\\u{41}", "u"),
        [("xA", Some((1, 2)))],
        ("\\u{", "}")
    ),
    c!(
        "escapes",
        "\\101",
        "a character by three octal digits",
        ("\\101", ""),
        [("xA", Some((1, 2)))],
        ("\\", "")
    ),
    c!(
        "escapes",
        "\\cM",
        "a control character",
        ("\\cA", ""),
        [("x\u{1}", Some((1, 2)))],
        ("\\c", "")
    ),
    c!(
        "escapes",
        "\\e",
        "escape (U+001B)",
        ("\\e", ""),
        [("x\u{1b}", Some((1, 2)))],
        ("\\e", "")
    ),
    c!(
        "escapes",
        "\\Q…\\E",
        "literal text, no escapes needed",
        ("\\Qa.b\\E", ""),
        [("axb a.b", Some((4, 7)))],
        ("\\Q", "\\E")
    ),
    c!(
        "flags",
        "(?i)",
        "flags from here on",
        ("(?i)a", ""),
        [("xA", Some((1, 2)))],
        ("(?", ")")
    ),
    c!(
        "flags",
        "(?i:…)",
        "flags inside the group",
        ("(?i:a)b", ""),
        [("ABAb", Some((2, 4)))],
        ("(?i:", ")")
    ),
    c!(
        "flags",
        "(?-i:…)",
        "flags off inside the group",
        ("(?i)a(?-i:b)", ""),
        [("ABAb", Some((2, 4)))],
        ("(?-i:", ")")
    ),
];

/// A row of the reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Its section.
    pub section: &'static str,
    /// How it is written.
    pub syntax: String,
    /// What it means in the flavor.
    pub meaning: String,
    /// What a key inserts at the pattern's cursor (before it, after it); `None` for the rows
    /// the rules decide (flags, replacement, units).
    pub insert: Option<(&'static str, &'static str)>,
}

/// Whether `flavor` runs `construct`: its example compiles there and finds, in each of the
/// construct's texts, the match its meaning gives. A construct the flavor refuses, that rxw
/// cannot run in it (`construct_unsupported`), or that means something else there is not run.
pub fn runs(construct: &Construct, flavor: Flavor) -> bool {
    let (pattern, letters) = construct.example;
    let letters: String = letters
        .chars()
        .filter(|c| flavor.flag_letters().contains(*c))
        .collect();
    let Ok(flags) = Flags::parse(&letters, flavor) else {
        return false;
    };
    let Ok(re) = Regex::new(pattern, flavor, flags) else {
        return false;
    };
    construct.checks.iter().all(|(text, want)| {
        re.find_all(text, Some(1))
            .is_ok_and(|found| found.first().map(|m| (m.start(), m.end())) == *want)
    })
}

/// The quick reference of `flavor`: the catalogue's constructs it accepts, then the rows its
/// rules decide.
pub fn quick_reference(flavor: Flavor) -> Vec<Row> {
    let mut rows: Vec<Row> = CATALOGUE
        .iter()
        .filter(|c| runs(c, flavor))
        .map(|c| Row {
            section: c.section,
            syntax: c.syntax.to_string(),
            meaning: c.meaning.to_string(),
            insert: Some(c.insert),
        })
        .collect();
    rows.extend(
        flavor
            .rules_notes()
            .into_iter()
            .map(|(syntax, meaning)| Row {
                section: "in this flavor",
                syntax,
                meaning,
                insert: None,
            }),
    );
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxw_syntax::flavor::GoVersion;

    fn syntaxes(f: Flavor) -> Vec<String> {
        quick_reference(f).into_iter().map(|r| r.syntax).collect()
    }

    /// Asserts the reference of `flavor` (its `syntaxes`) lists each of `present`.
    fn assert_lists(flavor: &str, syntaxes: &[String], present: &[&str]) {
        for p in present {
            assert!(
                syntaxes.iter().any(|s| s == p),
                "{flavor} lacks {p}: {syntaxes:?}"
            );
        }
    }

    /// Regression: the reference was written by hand per flavor and drifted (it offered
    /// `(?>…)` in `rust` after `rust` became the regex crate, which refuses it). Each row now
    /// comes from the parser and the matcher.
    #[test]
    fn the_reference_lists_what_the_flavor_runs_and_nothing_else() {
        let rust = syntaxes(Flavor::Rust);
        for absent in ["(?>…)", "(?=…)", "\\1", "(?<=…)", "\\Q…\\E", "\\Z"] {
            assert!(!rust.iter().any(|s| s == absent), "rust lists {absent}");
        }
        assert_lists(
            "rust",
            &rust,
            &[
                "(?P<name>…)",
                "\\pL  \\p{Lu}",
                "\\b{start}  \\b{end}",
                "[[:alpha:]]",
                "\\z",
            ],
        );
        let fancy = syntaxes(Flavor::Fancy);
        assert!(fancy.iter().any(|s| s == "(?=…)") && fancy.iter().any(|s| s == "\\1"));
        let py = syntaxes(Flavor::PYTHON);
        assert_lists(
            "python",
            &py,
            &[
                "(?P<name>…)",
                "(?P=name)",
                "(?(1)yes|no)",
                "\\N{name}",
                "\\Z",
                "*+  ++  ?+",
            ],
        );
        // Python reads `[[:alpha:]]` as another class, and `\Z` as the very end.
        assert!(!py.iter().any(|s| s == "[[:alpha:]]"), "{py:?}");
        let js = syntaxes(Flavor::JS);
        assert!(js.iter().any(|s| s == "\\k<name>") && js.iter().any(|s| s == "\\u{1F600}"));
        assert!(
            !js.iter().any(|s| s == "(?P<name>…)" || s == "\\A"),
            "{js:?}"
        );
        // `\h` is a horizontal space in Java and PCRE2, a hex digit in Ruby and Oniguruma.
        for (flavor, meaning) in [
            (Flavor::JAVA, "a horizontal space"),
            (Flavor::Pcre2, "a horizontal space"),
            (Flavor::RUBY, "a hexadecimal digit"),
            (Flavor::Oniguruma, "a hexadecimal digit"),
        ] {
            let rows: Vec<_> = quick_reference(flavor)
                .into_iter()
                .filter(|r| r.syntax == "\\h")
                .collect();
            assert_eq!(rows.len(), 1, "{flavor}: {rows:?}");
            assert!(rows[0].meaning.starts_with(meaning), "{flavor}: {rows:?}");
        }
        let java = syntaxes(Flavor::JAVA);
        assert_lists(
            "java",
            &java,
            &["[a-z&&[^aeiou]]", "[a[bc]]", "\\h", "\\Q…\\E", "(?>…)"],
        );
        let go19 = syntaxes(Flavor::Go(GoVersion::V1_19));
        assert!(!go19.iter().any(|s| s == "(?<name>…)"), "{go19:?}");
        assert!(syntaxes(Flavor::GO).iter().any(|s| s == "(?<name>…)"));
    }

    #[test]
    fn every_construct_is_listed_by_some_flavor_and_every_flavor_has_a_reference() {
        let unlisted: Vec<&str> = CATALOGUE
            .iter()
            .filter(|c| !Flavor::all_versions().any(|f| runs(c, f)))
            .map(|c| c.syntax)
            .collect();
        assert!(unlisted.is_empty(), "no flavor lists {unlisted:?}");
        for f in Flavor::all_versions() {
            let rows = quick_reference(f);
            assert!(
                rows.iter().filter(|r| r.insert.is_some()).count() >= 15,
                "{f}"
            );
            assert!(rows.iter().any(|r| r.syntax == "replacement"), "{f}");
        }
    }
}
