//! JavaScript conformance: cases built from test262's RegExp tests (property escapes, the `v`
//! flag's classes of strings, named groups) and answered by node 20, recorded in
//! `data/js_conformance.jsonl` by `data/record_js_conformance.py`. rxw must give node's
//! answer on every case: the same matches, or a refusal where node refuses. The one allowed
//! difference is a clean `input_unsupported` refusal of an answer that a byte offset cannot
//! express (a match between the two code units of a surrogate pair).

use rxw_engine::Regex;
use rxw_syntax::error::ErrorKind;
use rxw_syntax::flavor::{Flags, Flavor};
use serde_json::{Value, json};

struct Case {
    pattern: String,
    flags: String,
    input: String,
    source: String,
    expected: Value,
}

fn recorded() -> Vec<Case> {
    let text = include_str!("data/js_conformance.jsonl");
    text.lines()
        .skip(1)
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("a recorded case");
            let s = |k: &str| v[k].as_str().expect("a string field").to_string();
            Case {
                pattern: s("pattern"),
                flags: s("flags"),
                input: s("input"),
                source: s("source"),
                expected: v["expected"].clone(),
            }
        })
        .collect()
}

fn rxw_answer(c: &Case) -> Result<Value, rxw_syntax::Error> {
    let flags = Flags::parse(&c.flags, Flavor::JS)?;
    let re = Regex::new(&c.pattern, Flavor::JS, flags)?;
    let matches = re.find_all(&c.input, None)?;
    let spans: Vec<Value> = matches
        .iter()
        .map(|m| {
            Value::from(
                m.groups
                    .iter()
                    .map(|g| g.map_or(Value::Null, |(s, e)| json!([s, e])))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    Ok(json!({ "matches": spans }))
}

#[test]
fn rxw_agrees_with_node_20_on_the_recorded_test262_cases() {
    let cases = recorded();
    let (mut agree, mut refused_input) = (0, 0);
    let mut wrong = Vec::new();
    for c in &cases {
        let label = format!("[{}] /{}/{} on {:?}", c.source, c.pattern, c.flags, c.input);
        match (rxw_answer(c), c.expected.get("error")) {
            (Err(_), Some(_)) => agree += 1,
            (Ok(v), None) if v["matches"] == c.expected["matches"] => agree += 1,
            (Err(e), None) if e.kind == ErrorKind::InputUnsupported => refused_input += 1,
            (Err(e), None) => wrong.push(format!(
                "{label}: rxw refused ({}), node matched",
                e.message
            )),
            (Ok(_), Some(err)) => wrong.push(format!("{label}: rxw accepted, node refused: {err}")),
            (Ok(v), None) => wrong.push(format!(
                "{label}:\n    rxw  {}\n    node {}",
                v["matches"], c.expected["matches"]
            )),
        }
    }
    eprintln!(
        "js conformance: {agree} of {} cases agree with node 20, {refused_input} refused as input_unsupported, {} differ",
        cases.len(),
        wrong.len()
    );
    for w in wrong.iter().take(400) {
        eprintln!("  {w}");
    }
    assert!(
        wrong.is_empty(),
        "{} cases differ from node 20",
        wrong.len()
    );
}

fn find(pattern: &str, flags: &str, text: &str) -> Result<Vec<(usize, usize)>, rxw_syntax::Error> {
    let re = Regex::new(pattern, Flavor::JS, Flags::parse(flags, Flavor::JS)?)?;
    Ok(re
        .find_all(text, None)?
        .iter()
        .map(|m| m.groups[0].expect("the whole match"))
        .collect())
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

#[test]
fn regression_not_word_boundary_inside_a_surrogate_pair_is_refused_as_input() {
    let e = find(r"\B", "u", "😀a😀").unwrap_err();
    assert_eq!(e.kind, ErrorKind::InputUnsupported);
}

#[test]
fn regression_js_properties_follow_node_20s_unicode_17() {
    // U+10940 SIDETIC LETTER N01 (Unicode 17) is a letter for node 20, on both engines.
    assert_eq!(find(r"\p{L}", "u", "\u{10940}").unwrap(), [(0, 4)]);
    assert_eq!(find(r"\p{L}(?=)", "u", "\u{10940}").unwrap(), [(0, 4)]);
    assert_eq!(
        find(r"\p{Script=Sidetic}", "u", "\u{10940}").unwrap(),
        [(0, 4)]
    );
    // With `iu` node folds the class before negating it, and `\P` after.
    assert!(find(r"[^\p{Lu}]", "iu", "Aa").unwrap().is_empty());
    assert_eq!(find(r"\P{Lu}", "iu", "Aa").unwrap(), [(0, 1), (1, 2)]);
}

#[test]
fn regression_js_case_folding_follows_node_20s_icu() {
    // ꟓ / ꟒ became a case pair in node 20's ICU; both with and without `u`, on both engines.
    for flags in ["i", "iu"] {
        assert_eq!(
            find("\u{A7D3}", flags, "\u{A7D2}").unwrap(),
            [(0, 3)],
            "{flags}"
        );
        assert_eq!(
            find("\u{A7D3}(?=)", flags, "\u{A7D2}").unwrap(),
            [(0, 3)],
            "{flags}"
        );
        assert_eq!(
            find("[\u{A7D3}]", flags, "\u{A7D2}").unwrap(),
            [(0, 3)],
            "{flags}"
        );
    }
}

#[test]
fn regression_v_flag_classes_match_strings_longest_first() {
    // `\q{…}` alternatives and the properties of strings used to be refused.
    assert_eq!(
        find(r"[\q{abc|ab}a]", "v", "abcab").unwrap(),
        [(0, 3), (3, 5)]
    );
    assert_eq!(find(r"[\q{abc|ab}a]+$", "v", "abcaab").unwrap(), [(0, 6)]);
    assert_eq!(
        find(r"^\p{RGI_Emoji_Flag_Sequence}", "v", "🇧🇪x").unwrap(),
        [(0, 8)]
    );
    assert_eq!(
        find(r"\p{Emoji_Keycap_Sequence}", "v", "#️⃣").unwrap(),
        [(0, 7)]
    );
    // Set operations with strings, and an intersection that keeps only characters.
    assert_eq!(
        find(r"[[0-9]--\q{0|2}]", "v", "0123").unwrap(),
        [(1, 2), (3, 4)]
    );
    assert_eq!(
        find(
            r"[\p{Emoji_Keycap_Sequence}--\q{#\uFE0F\u20E3}]",
            "v",
            "#️⃣1️⃣"
        )
        .unwrap(),
        [(7, 14)]
    );
    assert_eq!(
        find(r"[\p{RGI_Emoji}&&a]", "v", "a").unwrap(),
        Vec::<(usize, usize)>::new()
    );
    // An empty alternative makes the class match the empty string, last.
    assert_eq!(find(r"^[\q{a|}]", "v", "b").unwrap(), [(0, 0)]);
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
