//! The class escapes' sets, one table per flavor, shared by every place that needs them: the
//! matcher's character sets, the translation to the `regex` crate, and the code generator
//! that writes a pattern for another engine. A table is a sorted list of inclusive ranges.

use regex_syntax::hir::{Class, HirKind};
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

/// Python's Unicode `\s` (`str.isspace`): Unicode White_Space and the information separators
/// U+001C–U+001F.
pub fn python_space() -> &'static [(char, char)] {
    static S: OnceLock<Vec<(char, char)>> = OnceLock::new();
    S.get_or_init(|| union(rust_space(), &[('\u{1c}', '\u{1f}')]))
}

/// The sorted union of two range lists, adjacent ranges joined.
fn union(a: &[(char, char)], b: &[(char, char)]) -> Vec<(char, char)> {
    let mut all: Vec<(char, char)> = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    let mut out: Vec<(char, char)> = Vec::with_capacity(all.len());
    for (lo, hi) in all {
        match out.last_mut() {
            Some(last) if (last.1 as u32).saturating_add(1) >= lo as u32 => {
                last.1 = last.1.max(hi);
            }
            _ => out.push((lo, hi)),
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
        assert_eq!(members(python_space()), regex_class(r"\s\x1C-\x1F"));
        assert_eq!(python_space()[1], ('\u{1c}', ' '));
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
            python_space(),
            rust_space(),
            ASCII_SPACE,
            JS_LINE_TERMINATORS,
        ] {
            assert!(t.iter().all(|(a, b)| a <= b));
            assert!(t.windows(2).all(|w| w[0].1 < w[1].0));
        }
    }
}
