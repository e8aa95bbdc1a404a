//! The class escapes' sets, one table per flavor, shared by every place that needs them: the
//! matcher's character sets, the translation to the `regex` crate, and the code generator
//! that writes a pattern for another engine. A table is a sorted list of inclusive ranges.

use crate::python_unicode::PyUnicode;
use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};
use rxw_syntax::PyVersion;
use std::sync::OnceLock;

/// ECMAScript `\s`: WhiteSpace and LineTerminator (U+FEFF, not U+0085).
pub const JS_SPACE: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{feff}', '\u{feff}'),
];

/// The `regex` crate's Unicode `\s`: the White_Space property, read from the crate's own
/// tables so it follows them.
pub fn rust_space() -> &'static [(char, char)] {
    static S: OnceLock<Vec<(char, char)>> = OnceLock::new();
    S.get_or_init(|| {
        let hir = regex_syntax::parse(r"\s").expect(r"\s parses");
        match hir.kind() {
            HirKind::Class(Class::Unicode(c)) => {
                c.ranges().iter().map(|r| (r.start(), r.end())).collect()
            }
            other => unreachable!(r"\s is a Unicode class, not {other:?}"),
        }
    })
}

/// Python's Unicode `\s` (`str.isspace`) in release `v`: Unicode White_Space and the
/// information separators U+001C–U+001F, from the release's own table.
pub fn python_space(v: PyVersion) -> &'static [(char, char)] {
    static S: [OnceLock<Vec<(char, char)>>; PyVersion::ALL.len()] =
        [const { OnceLock::new() }; PyVersion::ALL.len()];
    let i = PyVersion::ALL.iter().position(|&x| x == v).unwrap_or(0);
    S[i].get_or_init(|| chars(PyUnicode::of(v).space))
}

/// A class body in `regex` crate syntax (no brackets) holding exactly Python's `\w` in
/// release `v`: `\p{L}\p{N}_` as the crate knows them, less the characters the release does
/// not count (assigned by a later Unicode version) and plus those it counts that the crate's
/// Unicode data does not, so the linear engine answers with the release's own data.
pub fn python_word_syntax(v: PyVersion) -> &'static str {
    static S: [OnceLock<String>; PyVersion::ALL.len()] =
        [const { OnceLock::new() }; PyVersion::ALL.len()];
    let i = PyVersion::ALL.iter().position(|&x| x == v).unwrap_or(0);
    S[i].get_or_init(|| corrected(r"\p{L}\p{N}_", PyUnicode::of(v).word))
}

/// As [`python_word_syntax`], for `\d` (decimal digits, `\p{Nd}` in the crate).
pub fn python_digit_syntax(v: PyVersion) -> &'static str {
    static S: [OnceLock<String>; PyVersion::ALL.len()] =
        [const { OnceLock::new() }; PyVersion::ALL.len()];
    let i = PyVersion::ALL.iter().position(|&x| x == v).unwrap_or(0);
    S[i].get_or_init(|| corrected(r"\p{Nd}", PyUnicode::of(v).digit))
}

/// `base` (a class body the `regex` crate reads with its own Unicode data) corrected to hold
/// exactly `table`: `[base--[extra]]missing`, or `base` itself when they agree.
fn corrected(base: &str, table: &[(u32, u32)]) -> String {
    let class = |ranges: &[(char, char)]| {
        ClassUnicode::new(ranges.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b)))
    };
    let crate_set = class(&crate_class(&format!("[{base}]")));
    let want = class(&chars(table));
    let minus = |a: &ClassUnicode, b: &ClassUnicode| {
        let mut d = a.clone();
        d.difference(b);
        d.ranges()
            .iter()
            .map(|r| (r.start(), r.end()))
            .collect::<Vec<_>>()
    };
    let extra = minus(&crate_set, &want);
    let missing = minus(&want, &crate_set);
    let mut out = if extra.is_empty() {
        base.to_string()
    } else {
        format!("[{base}--[{}]]", class_syntax(&extra))
    };
    out.push_str(&class_syntax(&missing));
    out
}

/// The ranges of a class the `regex` crate parses.
fn crate_class(class: &str) -> Vec<(char, char)> {
    let hir = regex_syntax::parse(class).expect("a static class");
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => {
            c.ranges().iter().map(|r| (r.start(), r.end())).collect()
        }
        other => unreachable!("{class} is a Unicode class, not {other:?}"),
    }
}

/// Code point ranges as character ranges, surrogates left out.
fn chars(ranges: &[(u32, u32)]) -> Vec<(char, char)> {
    let mut out = Vec::with_capacity(ranges.len());
    for &(lo, hi) in ranges {
        for (a, b) in [(lo, hi.min(0xD7FF)), (lo.max(0xE000), hi)] {
            if let (Some(a), Some(b)) = (char::from_u32(a), char::from_u32(b))
                && a <= b
            {
                out.push((a, b));
            }
        }
    }
    out
}

/// ASCII `\s` (Python's `a` flag, Rust's `(?-u)`): tab, line feed, vertical tab, form feed,
/// carriage return, space.
pub const ASCII_SPACE: &[(char, char)] = &[('\t', '\r'), (' ', ' ')];

/// ECMAScript LineTerminator: what `.` excludes and `^`/`$` with `m` stop at.
pub const JS_LINE_TERMINATORS: &[(char, char)] =
    &[('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')];

/// `ranges` in `regex` crate class syntax, without brackets (`\x{9}-\x{D}\x{20}…`).
pub fn class_syntax(ranges: &[(char, char)]) -> String {
    let mut out = String::new();
    for &(a, b) in ranges {
        out.push_str(&format!("\\x{{{:X}}}", a as u32));
        if b != a {
            out.push_str(&format!("-\\x{{{:X}}}", b as u32));
        }
    }
    out
}

/// `ranges` as the matcher's code point ranges.
pub fn code_points(ranges: &[(char, char)]) -> Vec<(u32, u32)> {
    ranges.iter().map(|&(a, b)| (a as u32, b as u32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code point in `ranges`.
    fn members(ranges: &[(char, char)]) -> Vec<char> {
        ranges.iter().flat_map(|&(a, b)| a..=b).collect()
    }

    fn regex_class(body: &str) -> Vec<char> {
        let re = regex::Regex::new(&format!("^[{body}]$")).unwrap();
        (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|c| re.is_match(c.encode_utf8(&mut [0; 4])))
            .collect()
    }

    #[test]
    fn the_rust_set_is_the_regex_crates_white_space() {
        assert_eq!(members(rust_space()), regex_class(r"\s"));
    }

    #[test]
    fn the_python_set_is_white_space_and_the_separators_joined() {
        for v in PyVersion::ALL {
            assert_eq!(members(python_space(v)), regex_class(r"\s\x1C-\x1F"));
            assert_eq!(python_space(v)[1], ('\u{1c}', ' '));
        }
    }

    /// The corrected class bodies hold exactly each release's table, read by the crate.
    #[test]
    fn the_crate_classes_for_python_hold_each_releases_table_exactly() {
        for v in PyVersion::ALL {
            let t = PyUnicode::of(v);
            for (body, table) in [
                (python_word_syntax(v), t.word),
                (python_digit_syntax(v), t.digit),
            ] {
                assert_eq!(
                    crate_class(&format!("[{body}]")),
                    chars(table),
                    "{v}: {body}"
                );
            }
        }
        // The crate's Unicode is newer than 3.11's: U+1E4D0 (Unicode 15.0) is taken out.
        assert!(python_word_syntax(PyVersion::V3_11).contains("--"));
    }

    #[test]
    fn the_js_table_drops_next_line_and_adds_the_byte_order_mark() {
        let js = members(JS_SPACE);
        assert!(!js.contains(&'\u{85}') && js.contains(&'\u{feff}'));
        assert_eq!(regex_class(&class_syntax(JS_SPACE)), js);
    }

    #[test]
    fn tables_are_sorted_and_disjoint() {
        for t in [
            JS_SPACE,
            python_space(PyVersion::V3_8),
            rust_space(),
            ASCII_SPACE,
            JS_LINE_TERMINATORS,
        ] {
            assert!(t.iter().all(|(a, b)| a <= b));
            assert!(t.windows(2).all(|w| w[0].1 < w[1].0));
        }
    }
}
