//! Differential test of the `pcre2` flavor against the real PCRE2 (`libpcre2-8`, 10.42 as
//! Debian ships it, through `tests/oracle/pcre2_oracle.py`): targeted cases for PCRE2's quirks
//! and random patterns from a grammar of its constructs, each with flags and texts. rxw and
//! PCRE2 must agree on whether the pattern compiles and, if not, on
//! `pcre2_get_error_message`'s text; on every match of pcre2demo's global loop (byte offsets of
//! the match and of every group, unset groups included); on the group names; and on
//! `pcre2_substitute`'s result or its error. A pattern rxw refuses as something it cannot
//! reproduce is counted and listed apart, never passed as agreement; a search PCRE2 stops at
//! its match limit is counted as unanswered. A missing library is said loudly and the test
//! skipped (under `RXW_REQUIRE_ORACLES=1` it fails).

mod common;

use common::Tally;
use rxw_syntax::flavor::{Flags, Flavor};
use rxw_testkit::Rng;
use serde_json::{Value, json};

/// rxw's answer in the oracle's shape.
fn rxw_answer(case: &Value) -> Value {
    let letters = case.get("flags").and_then(Value::as_str).unwrap_or("");
    let flags = Flags::parse(letters, Flavor::Pcre2).expect("the oracle's flags are pcre2's");
    common::flat_answer(Flavor::Pcre2, flags, case, false)
}

fn compare(cases: &[Value]) -> Option<Tally> {
    rxw_testkit::pcre2_oracle()?;
    let answers = rxw_testkit::pcre2_oracle_answers(cases);
    let mut t = Tally::default();
    let keys = ["names", "matches", "replaced", "replace_error"];
    for (c, want) in cases.iter().zip(&answers) {
        if want.get("limit").is_some() {
            t.unanswered += 1;
            continue;
        }
        t.add(&common::flat_label(c), "PCRE2", &rxw_answer(c), want, &keys);
    }
    Some(t)
}

fn report(name: &str, total: usize, t: &Tally) {
    eprintln!(
        "pcre2 ({name}): {} of {total} agree, {} refused, {} unanswered by PCRE2 (match \
         limit), {} differ\nrefused:\n  {}",
        t.agree,
        t.refused.len(),
        t.unanswered,
        t.wrong.len(),
        t.refused.join("\n  ")
    );
    t.assert_none_wrong(&format!("PCRE2 ({name})"));
}

fn case(pattern: &str, flags: &str, text: &str) -> Value {
    json!({ "pattern": pattern, "flags": flags, "text": text })
}

/// PCRE2's documented quirks and the constructs its reader writes out, each on a text that
/// tells the readings apart.
fn targeted() -> Vec<Value> {
    let mut cases = Vec::new();
    let texts = [
        "",
        "a\nb\n",
        "foo bar\r\nbaz\n",
        "KkK\u{212a} sSſ µΜμ ıIİi",
        "aaa",
        "abcabc ab",
        "x\u{85}y\u{2028}z\u{b}\u{c}\t é\u{a0}😀",
        "12 ab_C-d",
    ];
    let patterns = [
        // Anchors and lines.
        ("^", ""),
        ("^", "m"),
        ("$", ""),
        ("$", "m"),
        ("\\Z", ""),
        ("\\z", ""),
        ("\\A.", ""),
        (".", ""),
        (".", "s"),
        ("\\N+", ""),
        ("(?m)^\\w+$", ""),
        ("(?s).+", ""),
        // Classes, ASCII without UCP.
        ("\\d+|\\w+|\\s+", ""),
        ("\\D\\W\\S", ""),
        ("\\b\\w", ""),
        ("\\B.", ""),
        ("\\h+", ""),
        ("\\v", ""),
        ("\\H\\V", ""),
        ("\\R", ""),
        ("[[:alpha:]]+", ""),
        ("[[:^alpha:][:digit:]]+", ""),
        ("[[:upper:]]+", "i"),
        ("[[:punct:][:space:]]", ""),
        ("[\\w-]+", ""),
        ("[]a]", ""),
        ("[^]a]+", ""),
        ("[a\\]b]+", ""),
        ("[\\Q]\\E-]+", ""),
        ("[\\x{41}-\\x{5a}]+", ""),
        ("[\\d-z]", ""),
        ("[z-a]", ""),
        ("[[:foo:]]", ""),
        ("[:alpha:]", ""),
        ("[[.a.]]", ""),
        // Case folding in UTF mode.
        ("k", "i"),
        ("s+", "i"),
        ("µ", "i"),
        ("i", "i"),
        ("İ", "i"),
        ("[a-z]+", "i"),
        ("[^k]", "i"),
        ("(?i)k(?-i)k", ""),
        ("(a(?i)b|c)", ""),
        ("(a(?i)b|c)x", ""),
        // Quantifiers.
        ("a*?", ""),
        ("a++", ""),
        ("a{2}", ""),
        ("a{2,}+", ""),
        ("a{,2}", ""),
        ("a{1, 2}", ""),
        ("a**", ""),
        ("a{2}{3}", ""),
        ("a{3,2}", ""),
        ("a{70000}", ""),
        ("^*", ""),
        ("(?=a)*", ""),
        ("(?=a)+b", ""),
        ("*a", ""),
        ("a|*", ""),
        ("x*", ""),
        ("(a|ab)(c|bcd)(d*)", ""),
        ("(a+|b+)*c", ""),
        ("(?>a+)b", ""),
        ("(?>ab|a)b", ""),
        // Groups and names.
        ("(?<n>a)(?'m'b)?(?P<o>c)?", ""),
        ("(?<n>a)(?<n>b)", ""),
        ("(?<1n>a)", ""),
        ("(?<n", ""),
        ("(?<>a)", ""),
        ("(a)|(b)", ""),
        ("((a)|b)+", ""),
        ("(a)?b", ""),
        ("(?:(a)|b)*", ""),
        ("(", ""),
        (")", ""),
        ("(?", ""),
        ("(?z)", ""),
        ("(?#comment)a", ""),
        ("(?#comment", ""),
        ("(?i:a)b", ""),
        ("(?^)a", "i"),
        ("(?i-i)a", ""),
        // Back references.
        ("(a)\\1", ""),
        ("(a)\\1", "i"),
        ("(a)\\g1", ""),
        ("(a)\\g{1}", ""),
        ("(a)(b)\\g{-1}\\g{-2}", ""),
        ("\\g{-1}(a)", ""),
        ("(a)\\g{0}", ""),
        ("(?<n>a)\\k<n>\\k'n'\\k{n}\\g{n}(?P=n)", ""),
        ("\\k<zz>", ""),
        ("(a)\\2", ""),
        ("\\8", ""),
        ("(a)\\10", ""),
        ("\\18", ""),
        // Conditionals.
        ("(a)?(?(1)b|c)", ""),
        ("(?<n>a)?(?(<n>)b|c)", ""),
        ("(?<n>a)?(?('n')b|c)", ""),
        ("(?<n>a)?(?(n)b|c)", ""),
        ("(a)?(?(-1)b|c)", ""),
        ("(a)?(?(1)b|c|d)", ""),
        ("(?(2)a|b)", ""),
        ("(?(1)a", ""),
        // Look-around.
        ("(?<=a)b", ""),
        ("(?<=a|bc)c", ""),
        ("(?<!a|bc)c", ""),
        ("(?<=a*)b", ""),
        ("(?<=(a|bc))c", ""),
        ("(?=(a))a", ""),
        ("(?!(a))b", ""),
        // Escapes.
        ("\\x41\\x{42}\\o{103}\\103\\0\\cA\\e\\a", ""),
        ("\\x", ""),
        ("\\xg", ""),
        ("\\x{110000}", ""),
        ("\\x{d800}", ""),
        ("\\o{8}", ""),
        ("\\o", ""),
        ("\\c", ""),
        ("\\c\u{e9}", ""),
        ("\\q", ""),
        ("\\u0041", ""),
        ("\\N{U+41}", ""),
        ("\\N{LATIN SMALL LETTER A}", ""),
        ("\\", ""),
        ("\\Qa.b\\E+", ""),
        ("\\Qa.b", ""),
        ("a\\E", ""),
        ("\\@\\-\\ ", ""),
        // Extended mode.
        (" a b # comment\n c", "x"),
        ("a + b", "x"),
        ("[ a]", "x"),
        ("(?x) a (?-x) b", ""),
        ("a\\ b", "x"),
        // Verbs.
        ("a(*FAIL)|b", ""),
        ("a(*F)|b", ""),
        ("(*FOO)", ""),
        // Refused, counted.
        ("a\\Kb", ""),
        ("(a|b(?R))", ""),
        ("(a)(?1)", ""),
        ("(?<n>a)(?&n)", ""),
        ("(?|(a)|(b))\\1", ""),
        ("a(*SKIP)(*FAIL)|b", ""),
        ("a(*ACCEPT)b", ""),
        ("\\p{L}+", ""),
        ("\\X", ""),
        ("\\d", "u"),
        ("(?(R)a|b)", ""),
        ("\\G a", ""),
    ];
    for (p, f) in patterns {
        for t in texts {
            cases.push(case(p, f, t));
        }
    }
    for (p, t, r) in [
        ("(?<n>a)(b)?", "xa ab", "[$1|${n}|$2]"),
        ("(a)", "a", "$3"),
        ("(a)", "aa", "$$-$1-${1}"),
        ("a*", "baaa", "<$0>"),
        ("(?<word>\\w+)", "hi you", "$word!"),
        ("(\\w)(\\w)", "abcd", "$2$1"),
        ("(\\w)", "ab", "$1a"),
        ("x", "x", "a$"),
        ("x", "x", "${1"),
    ] {
        cases.push(json!({ "pattern": p, "text": t, "replace": r }));
    }
    cases
}

#[test]
fn pcre2_agrees_with_the_real_pcre2_on_its_quirks() {
    let cases = targeted();
    let Some(tally) = compare(&cases) else {
        return;
    };
    report("targeted", cases.len(), &tally);
    assert!(tally.agree > cases.len() / 2, "most cases are answered");
}

/// A random pattern from a grammar of PCRE2's constructs.
fn random_pattern(rng: &mut Rng, depth: usize) -> String {
    const ATOMS: &[&str] = &[
        "a",
        "b",
        "c",
        "k",
        "s",
        "é",
        "\\.",
        ".",
        "\\d",
        "\\w",
        "\\s",
        "\\W",
        "\\h",
        "\\v",
        "\\R",
        "\\N",
        "[ab]",
        "[^a]",
        "[a-c]",
        "[[:alpha:]]",
        "[[:digit:]_]",
        "[\\w.]",
        "\\x41",
        "\\x{e9}",
        "\\Qa.\\E",
        "\\b",
        "\\B",
        "^",
        "$",
        "\\A",
        "\\z",
        "\\Z",
        "\\1",
        "\\g{-1}",
        "\\k<n>",
        "(*F)",
    ];
    const QUANTS: &[&str] = &[
        "", "", "", "*", "+", "?", "*?", "+?", "??", "*+", "++", "{2}", "{1,3}", "{0,}", "{2,}?",
    ];
    let mut out = String::new();
    let items = 1 + rng.below(4);
    for _ in 0..items {
        let atom = if depth < 3 && rng.below(4) == 0 {
            let inner = random_pattern(rng, depth + 1);
            let alt = if rng.below(3) == 0 {
                format!("{inner}|{}", random_pattern(rng, depth + 1))
            } else {
                inner
            };
            let open = *rng.pick(&[
                "(", "(?:", "(?<n>", "(?>", "(?=", "(?!", "(?<=", "(?<!", "(?i:", "(?-i:", "(?s:",
                "(?m:", "(?(1)",
            ]);
            format!("{open}{alt})")
        } else {
            rng.pick(ATOMS).to_string()
        };
        out.push_str(&atom);
        let quantifier: &&str = rng.pick(QUANTS);
        out.push_str(quantifier);
        if rng.below(8) == 0 {
            out.push('|');
        }
    }
    out
}

#[test]
#[ignore = "slow oracle suite: random PCRE2 patterns against libpcre2"]
fn pcre2_agrees_with_the_real_pcre2_on_random_patterns() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let texts = [
        "",
        "abc abc",
        "aab\nkK\u{212a}s",
        "éÉ a1_b2\r\n",
        "ba ab\n\nc",
        "sSſ  k \t x",
    ];
    let flags = ["", "", "i", "m", "s", "x", "im", "is"];
    let mut cases = Vec::new();
    for _ in 0..10_000 {
        let p = random_pattern(&mut rng, 0);
        let f = *rng.pick(&flags);
        let t = *rng.pick(&texts);
        cases.push(case(&p, f, t));
    }
    let Some(tally) = compare(&cases) else {
        return;
    };
    report("random", cases.len(), &tally);
}

/// The workbench's tools on the flavor: explain, the railroad, the step debugger, the quick
/// reference (with PCRE2's constructs and rows) and the ReDoS verdict.
#[test]
fn the_debugger_explain_railroad_and_redos_work_in_pcre2() {
    let pattern = r"(?<year>\d{4})-\h+(?i:x)\z";
    let (ast, rows) = common::workbench_tools_work(Flavor::Pcre2, pattern, "on 2024- \tX");
    // The spans are the pattern's own: the group covers `(?<year>\d{4})`.
    assert_eq!(ast.groups[0].span, rxw_syntax::Span::new(0, 14));
    for construct in ["(?<name>", "(?P<name>", "(?>", "\\Q", "[[:alpha:]]"] {
        assert!(
            rows.iter().any(|r| r.starts_with(construct)),
            "{construct} missing: {rows:?}"
        );
    }
    assert!(
        rows.iter()
            .any(|r| r.starts_with("replacement") && r.contains("${name}")),
        "{rows:?}"
    );
}

/// rxw's attacks on exponential patterns are attacks on the real PCRE2 too: at a small n
/// PCRE2 answers, at a larger one its search stops at the match limit (10,000,000 calls of
/// its matching function, the library's default), which is how PCRE2 reports a catastrophic
/// backtrack. No time is measured: the limit counts work.
#[test]
fn rxws_exponential_attacks_hit_pcre2s_match_limit() {
    if rxw_testkit::pcre2_oracle().is_none() {
        return;
    }
    for pattern in ["(a+)+$", "(a|aa)+$", r"(\w+\s?)+$", "^(a|a?)+$"] {
        let attack = common::exponential_attack(pattern, Flavor::Pcre2);
        let cases = [
            json!({ "pattern": pattern, "text": attack.at(4) }),
            json!({ "pattern": pattern, "text": attack.at(40) }),
        ];
        let answers = rxw_testkit::pcre2_oracle_answers(&cases);
        assert!(
            answers[0].get("matches").is_some(),
            "{pattern}: PCRE2 answers at n = 4: {}",
            answers[0]
        );
        assert_eq!(
            answers[1].get("limit").and_then(Value::as_str),
            Some("match limit exceeded"),
            "{pattern}: PCRE2 is not stopped by {attack:?} at n = 40: {}",
            answers[1]
        );
    }
}

/// rxw's attacks on exponential patterns slow the real PCRE2 down exponentially when its
/// match limit is lifted: each attack is timed at growing n (`tests/oracle/redos_timing.py`),
/// and the slowest search (over 0.3 s) must take at least twice the one two pumps before.
#[test]
#[ignore = "slow tier: times rxw's ReDoS attacks on PCRE2 (cargo test -- --include-ignored)"]
fn rxws_exponential_attacks_are_exponential_on_pcre2_by_time() {
    if rxw_testkit::pcre2_oracle().is_none() {
        return;
    }
    for pattern in ["(a+)+$", "(a|aa)+$", r"(\w+\s?)+$", "^(a|a?)+$"] {
        common::assert_attack_slows_down(
            std::path::Path::new("python3"),
            "pcre2",
            pattern,
            Flavor::Pcre2,
        );
    }
}
