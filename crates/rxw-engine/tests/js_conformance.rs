//! JavaScript conformance: cases built from test262's RegExp tests (all of
//! test/built-ins/RegExp, test/language/literals/regexp with its negative syntax tests, and
//! String.prototype's match, matchAll, replace, replaceAll, search and split tests) and
//! answered by node 20, recorded in `data/js_conformance.jsonl` by
//! `data/record_js_conformance.py`. rxw must give node's answer on every case: the same
//! verdict on each (pattern, flags), the same matches and the same replacement result. The one
//! allowed difference is a clean `input_unsupported` refusal of an answer that a byte offset
//! cannot express (a match between the two code units of a surrogate pair).

mod common;

use rxw_engine::{Limits, Regex};
use rxw_syntax::error::ErrorKind;
use rxw_syntax::flavor::{Flags, Flavor};
use serde_json::{Value, json};

struct Case {
    pattern: String,
    flags: String,
    input: String,
    /// A replacement template (String.prototype.replace's syntax), where the test uses one.
    replacement: Option<String>,
    source: String,
    expected: Value,
}

fn recorded() -> Vec<Case> {
    common::recorded(include_str!("data/js_conformance.jsonl"))
        .into_iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().expect("a string field").to_string();
            Case {
                pattern: s("pattern"),
                flags: s("flags"),
                input: s("input"),
                replacement: v["replacement"].as_str().map(str::to_string),
                source: s("source"),
                expected: v["expected"].clone(),
            }
        })
        .collect()
}

/// The release the cases were recorded on, named: node 20 answered them, so they are
/// compared with `js@node20` (plain `js` is a newer release).
const RECORDED_ON: Flavor = Flavor::Js(rxw_syntax::flavor::NodeVersion::Node20);

fn rxw_compile(c: &Case) -> Result<Regex, rxw_syntax::Error> {
    let flags = Flags::parse(&c.flags, RECORDED_ON)?;
    Regex::new(&c.pattern, RECORDED_ON, flags)
}

fn rxw_answer(re: &Regex, c: &Case) -> Result<Value, rxw_syntax::Error> {
    let matches = re.find_all(&c.input, None)?;
    // A match that cuts a surrogate pair is compared by its UTF-16 spans, written as the
    // oracle wrote node's (-1 inside a pair).
    let spans: Vec<Value> = matches
        .iter()
        .map(|m| common::node_spans(m, &c.input))
        .collect();
    let mut answer = json!({ "matches": spans });
    if let Some(template) = &c.replacement {
        let replaced = re.replace(&c.input, template, None, &Limits::human())?;
        answer["replaced"] = Value::from(replaced.result);
    }
    Ok(answer)
}

/// Whether node's answer has an offset that falls between the two halves of a surrogate pair.
fn splits_a_pair(expected: &Value) -> bool {
    expected["matches"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|m| m.as_array().into_iter().flatten())
        .flat_map(|g| g.as_array().into_iter().flatten())
        .any(|offset| offset.as_i64() == Some(-1))
}

/// Differences from node 20 that rxw does not resolve yet, each named with its reason. Every
/// case is listed by its exact pattern and flags, and the test prints them loudly; a
/// difference not listed here fails the test.
const UNRESOLVED_DIFFERENCES: &[UnresolvedDifference] = &[];

/// A class of cases on which rxw still differs from node 20.
struct UnresolvedDifference {
    class: &'static str,
    reason: &'static str,
    /// The cases, as (pattern, flags).
    cases: &'static [(&'static str, &'static str)],
}

fn unresolved_class(c: &Case) -> Option<&'static UnresolvedDifference> {
    UNRESOLVED_DIFFERENCES
        .iter()
        .find(|d| d.cases.iter().any(|&(p, f)| p == c.pattern && f == c.flags))
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn rxw_agrees_with_node_20_on_the_recorded_test262_cases() {
    let cases = recorded();
    // Syntax: one verdict per (pattern, flags), accepted or refused as node does. Matches: every
    // case node accepts, the same spans on its input.
    let mut syntax_seen = std::collections::HashSet::new();
    let (mut syntax_total, mut syntax_agree) = (0, 0);
    let (mut match_total, mut match_agree, mut refused_input) = (0, 0, 0);
    let mut wrong = Vec::new();
    let mut unresolved: Vec<(&str, String)> = Vec::new();
    for c in &cases {
        let shown: String = c.input.chars().take(60).collect();
        let more = if shown.len() < c.input.len() {
            "…"
        } else {
            ""
        };
        let label = format!(
            "[{}] /{}/{} on {shown:?}{more}",
            c.source, c.pattern, c.flags
        );
        let node_refused = c.expected.get("error");
        let compiled = rxw_compile(c);
        let mut problem = None;
        if syntax_seen.insert((c.pattern.clone(), c.flags.clone())) {
            syntax_total += 1;
            match (&compiled, node_refused) {
                (Err(_), Some(_)) | (Ok(_), None) => syntax_agree += 1,
                (Err(e), None) => {
                    problem = Some(format!(
                        "{label}: rxw refused ({}), node accepted",
                        e.message
                    ));
                }
                (Ok(_), Some(err)) => {
                    problem = Some(format!("{label}: rxw accepted, node refused: {err}"));
                }
            }
        }
        if let (Ok(re), None) = (&compiled, node_refused) {
            let answer = rxw_answer(re, c);
            match_total += 1;
            match &answer {
                // node's replacement result is compared where it is a string (it is an error
                // object when the result would split a surrogate pair).
                Ok(v)
                    if v["matches"] == c.expected["matches"]
                        && (!c.expected["replaced"].is_string()
                            || v["replaced"] == c.expected["replaced"]) =>
                {
                    match_agree += 1
                }
                Ok(v) => {
                    problem.get_or_insert(format!(
                        "{label}{}:\n    rxw  {} {}\n    node {} {}",
                        c.replacement
                            .as_ref()
                            .map_or(String::new(), |t| format!(" replacing with {t:?}")),
                        v["matches"],
                        v["replaced"],
                        c.expected["matches"],
                        c.expected["replaced"]
                    ));
                }
                // Allowed only where node's answer has an offset inside a surrogate pair
                // (the oracle writes it as -1).
                Err(e) if e.kind == ErrorKind::InputUnsupported && splits_a_pair(&c.expected) => {
                    refused_input += 1
                }
                Err(e) if e.kind == ErrorKind::InputUnsupported => {
                    problem.get_or_insert(format!(
                        "{label}: rxw refused the input ({}), node answered {}",
                        e.message, c.expected["matches"]
                    ));
                }
                Err(e) => {
                    problem.get_or_insert(format!(
                        "{label}: rxw failed to match ({}), node answered {}",
                        e.message, c.expected["matches"]
                    ));
                }
            }
        }
        if let Some(p) = problem {
            match unresolved_class(c) {
                Some(d) => unresolved.push((d.class, p)),
                None => wrong.push(p),
            }
        }
    }
    eprintln!(
        "js conformance (node 20): syntax {syntax_agree} of {syntax_total} agree; matches {match_agree} of {match_total} agree, {refused_input} refused as input_unsupported; {} unresolved, {} differ",
        unresolved.len(),
        wrong.len()
    );
    for d in UNRESOLVED_DIFFERENCES {
        let n = unresolved
            .iter()
            .filter(|(class, _)| *class == d.class)
            .count();
        eprintln!(
            "*** UNRESOLVED: {} ({n} cases differ from node 20): {}",
            d.class, d.reason
        );
        for (_, p) in unresolved.iter().filter(|(class, _)| *class == d.class) {
            eprintln!("***   {p}");
        }
    }
    for w in wrong.iter().take(400) {
        eprintln!("  {w}");
    }
    assert!(
        wrong.is_empty(),
        "{} cases differ from node 20",
        wrong.len()
    );
}

/// The regressions below were found against node 20, on the recorded cases: they run as
/// `js@node20`.
fn find(pattern: &str, flags: &str, text: &str) -> Result<Vec<(usize, usize)>, rxw_syntax::Error> {
    common::find_spans(RECORDED_ON, pattern, flags, text)
}

#[test]
fn regression_a_lone_surrogate_escape_under_u_matches_nothing_instead_of_being_refused() {
    // node: the astral character is one code point, never its trail surrogate.
    assert_eq!(find(r"^|\udf06", "u", "𝌆").unwrap(), [(0, 0)]);
    assert_eq!(find(r"\udf06|a", "u", "𝌆a").unwrap(), [(4, 5)]);
    assert_eq!(find(r"[\udf06a]", "u", "𝌆a").unwrap(), [(4, 5)]);
    // A private-use character written as itself is not a stand-in.
    assert_eq!(find("\u{F0706}", "u", "\u{F0706}").unwrap(), [(0, 4)]);
    assert_eq!(find("[\u{F0706}]", "u", "\u{F0706}").unwrap(), [(0, 4)]);
}

#[test]
fn regression_canonicalize_without_u_keeps_the_kelvin_sign_apart_from_k() {
    assert!(find(r"\u212a", "i", "kK").unwrap().is_empty());
    assert!(find(r"[\u212a]", "i", "kK").unwrap().is_empty());
    assert_eq!(find(r"\u212a", "iu", "k").unwrap(), [(0, 1)]);
}

/// A case of [`assert_finds`]: pattern, flags, text, and the spans of every match.
type FindCase<'a> = (&'a str, &'a str, &'a str, &'a [(usize, usize)]);

/// Asserts each case's matches.
fn assert_finds(cases: &[FindCase]) {
    for &(pattern, flags, text, want) in cases {
        assert_eq!(
            find(pattern, flags, text).unwrap(),
            want,
            "/{pattern}/{flags} on {text:?}"
        );
    }
}

/// The UTF-16 spans of every match, as node reports them.
fn find_utf16(pattern: &str, flags: &str, text: &str) -> Vec<(usize, usize)> {
    let re = Regex::new(
        pattern,
        RECORDED_ON,
        Flags::parse(flags, RECORDED_ON).unwrap(),
    )
    .unwrap();
    re.find_all(text, None)
        .unwrap()
        .iter()
        .map(|m| m.utf16_spans(text)[0].expect("the whole match"))
        .collect()
}

/// `\B` holds between the two halves of a pair, where node tries it after its attempt at the
/// character fails: rxw refused such a text, and now answers as node does (UTF-16 index 4).
#[test]
fn regression_not_word_boundary_inside_a_surrogate_pair_was_refused_as_input() {
    assert_eq!(find_utf16(r"\B", "u", "😀a😀"), [(0, 0), (4, 4), (5, 5)]);
}

#[test]
fn regression_js_properties_follow_node_20s_unicode_17() {
    assert_finds(&[
        // U+10940 SIDETIC LETTER N01 (Unicode 17) is a letter for node 20, on both engines.
        (r"\p{L}", "u", "\u{10940}", &[(0, 4)]),
        (r"\p{L}(?=)", "u", "\u{10940}", &[(0, 4)]),
        (r"\p{Script=Sidetic}", "u", "\u{10940}", &[(0, 4)]),
        // With `iu` node folds the class before negating it, and `\P` after.
        (r"[^\p{Lu}]", "iu", "Aa", &[]),
        (r"\P{Lu}", "iu", "Aa", &[(0, 1), (1, 2)]),
    ]);
}

#[test]
fn regression_js_case_folding_follows_node_20s_icu() {
    // ꟓ / ꟒ became a case pair in node 20's ICU; both with and without `u`, on both engines.
    for flags in ["i", "iu"] {
        assert_finds(&[
            ("\u{A7D3}", flags, "\u{A7D2}", &[(0, 3)]),
            ("\u{A7D3}(?=)", flags, "\u{A7D2}", &[(0, 3)]),
            ("[\u{A7D3}]", flags, "\u{A7D2}", &[(0, 3)]),
        ]);
    }
}

#[test]
fn regression_v_flag_classes_match_strings_longest_first() {
    assert_finds(&[
        // `\q{…}` alternatives and the properties of strings used to be refused.
        (r"[\q{abc|ab}a]", "v", "abcab", &[(0, 3), (3, 5)]),
        (r"[\q{abc|ab}a]+$", "v", "abcaab", &[(0, 6)]),
        (r"^\p{RGI_Emoji_Flag_Sequence}", "v", "🇧🇪x", &[(0, 8)]),
        (r"\p{Emoji_Keycap_Sequence}", "v", "#️⃣", &[(0, 7)]),
        // Set operations with strings, and an intersection that keeps only characters.
        (r"[[0-9]--\q{0|2}]", "v", "0123", &[(1, 2), (3, 4)]),
        (
            r"[\p{Emoji_Keycap_Sequence}--\q{#\uFE0F\u20E3}]",
            "v",
            "#️⃣1️⃣",
            &[(7, 14)],
        ),
        (r"[\p{RGI_Emoji}&&a]", "v", "a", &[]),
        // An empty alternative makes the class match the empty string, last.
        (r"^[\q{a|}]", "v", "b", &[(0, 0)]),
    ]);
}

#[test]
fn regression_v_flag_refuses_what_node_refuses() {
    for (pattern, message) in [
        (r"[^\q{ab}]", "Negated character class may contain strings"),
        (
            r"[^[\p{RGI_Emoji}--a]]",
            "Negated character class may contain strings",
        ),
        (r"\P{RGI_Emoji}", "Invalid property name"),
        (r"[\q{\q}]", "Invalid escape"),
        (r"[\q{(}]", "Invalid character in character class"),
        (r"[\q{!!}]", "Invalid set operation in character class"),
        (r"[!!]", "Invalid set operation in character class"),
        (r"[^^^]", "Invalid set operation in character class"),
    ] {
        let e = find(pattern, "v", "").unwrap_err();
        assert_eq!(e.message, message, "{pattern}");
    }
    // Without `v` the properties of strings do not exist.
    assert_eq!(
        find(r"\p{RGI_Emoji}", "u", "").unwrap_err().message,
        "Invalid property name"
    );
    // A negated class whose strings an intersection removes is fine.
    assert!(find(r"[^[\p{RGI_Emoji}&&a]]", "v", "b").is_ok());
}

#[test]
fn regression_v_class_escaped_reserved_punctuators_match_themselves() {
    assert_finds(&[
        (r"[\!]", "v", "a!", &[(1, 2)]),
        (r"[\q{\~\&}]", "v", "~&~", &[(0, 2)]),
        (r"[\!-\#]", "v", "!\"#$", &[(0, 1), (1, 2), (2, 3)]),
    ]);
}

#[test]
fn regression_node20_runs_v_set_operations_under_i_instead_of_refusing_them() {
    assert_finds(&[
        // node 20 closes a union class under case folding but takes a character as written,
        // and closes the whole class last: `C` survives `--c` and brings `c` back.
        (r"^[[a-z]--c]$", "vi", "c", &[(0, 1)]),
        (r"^[[a-z]--[c]]$", "vi", "c", &[]),
        (r"^[[a-z]--[c]]$", "vi", "C", &[]),
        // A set operation's result is not closed before its parent uses it.
        (r"^[[a-c]--[c&&c]]$", "vi", "c", &[(0, 1)]),
        // A property value is closed, then complemented; a binary property the other way.
        (r"[\P{Lu}&&K]", "vi", "kK", &[]),
        (r"[\P{Uppercase}&&K]", "vi", "kK", &[(0, 1), (1, 2)]),
        // `\p{ASCII}` is not closed: the Kelvin sign stays out.
        (r"[\p{ASCII}&&\u212a]", "vi", "k\u{212A}", &[]),
        // A negated set operation is complemented, then closed with the class.
        (r"^[^[a-c]--b]$", "vi", "B", &[(0, 1)]),
        (r"^[^[a-c]--b]$", "vi", "A", &[]),
        // A one-character `\q{…}` alternative is its case folding; longer strings compare
        // folded.
        (r"[\q{AB|K}&&k]", "vi", "k", &[(0, 1)]),
        (r"^[\q{ab|cd}--\q{AB}]$", "vi", "CD", &[(0, 2)]),
        (r"^[\q{ab|cd}--\q{AB}]$", "vi", "ab", &[]),
    ]);
}

#[test]
fn regression_a_negative_look_ahead_that_never_holds_does_not_refuse_astral_input() {
    // `(?!|b)` fails everywhere, inside a surrogate pair too (its body matches empty), so node
    // has no match there to report; rxw refused the input as if it had.
    assert_eq!(find(r"(?!|b)|c", "su", "😀c").unwrap(), [(4, 5)]);
    // `\B` holds inside a pair, so `(?!\B)` does not; node's answer, in UTF-8 offsets.
    assert_eq!(find(r"(?!\B)|c", "u", "😀c").unwrap(), [(4, 4), (5, 5)]);
    // A body that fails inside a pair lets node report a match there, at UTF-16 index 2.
    assert_eq!(find_utf16(r"x|(?!a|\b)", "u", "a😀"), [(2, 2), (3, 3)]);
}

#[test]
fn regression_a_class_range_ending_in_a_lone_surrogate_escape_ends_at_the_surrogate() {
    // `\ud800` parses to a private-use stand-in; a range used to end (or start) there, so
    // `[\\-\ud800]` took every character up to plane 15 and `[\ud800-\uffff]` was out of order.
    assert_finds(&[
        (
            r"[\\-\ud800]",
            "u",
            "😀a\u{E000}\u{D7FF}",
            &[(4, 5), (8, 11)],
        ),
        (r"[^\\-\ud800]", "u", "😀a", &[(0, 4)]),
        (r"[\ud800-\uffff]", "u", "a\u{E000}😀", &[(1, 4)]),
        (
            r"[\ud800-\u{10ffff}]",
            "u",
            "a\u{E000}😀",
            &[(1, 4), (4, 8)],
        ),
        (r"[\ud800-\udbff]", "u", "😀", &[]),
    ]);
}
