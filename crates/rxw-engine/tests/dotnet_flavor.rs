//! Differential tests of the `dotnet` flavor against .NET's `System.Text.RegularExpressions`
//! as Mono 6.8 runs it (`tests/oracle/DotnetOracle.cs`, compiled with mcs). Each case
//! (pattern, flags, text, and a `Regex.Replace` template) runs through Mono and through rxw.
//! They must agree on whether the pattern compiles and, if not, on the parser's description;
//! on every match of `Regex.Matches` (after an empty match, one unit on), the spans of the
//! match and of every group in UTF-16 units (the texts hold BMP characters only, where units
//! are characters); on the group names; and on `Regex.Replace`'s result. A pattern rxw refuses
//! as a construct it cannot reproduce, or a text it refuses for that pattern, is counted and
//! listed apart, never passed as agreement. The cases are .NET's known quirks, written by
//! hand, and patterns drawn at random from a grammar of its constructs. A missing Mono is said
//! loudly and the test skipped (under `RXW_REQUIRE_ORACLES=1` it fails).

mod common;

use rxw_engine::Regex;
use rxw_syntax::flavor::{Flags, Flavor};
use serde_json::Value;

/// Hand-written cases (`tests/data/dotnet_quirks.jsonl`, grouped by the quirk they are about):
/// each pattern, its flags, and the texts it runs on.
fn quirks() -> Vec<(String, String, Vec<String>)> {
    common::jsonl(include_str!("data/dotnet_quirks.jsonl"))
}

/// Replacement templates tried with `Regex.Replace` on every pattern that compiles.
const TEMPLATES: &[&str] = &[
    "<$0>", "[$1|$2]", "$&$$", "$`|$'", "$9", "${n}", "$_", "${1}x", "$10", "$", "${", "$+",
];

/// The constructs random patterns are drawn from, beside the shared atoms: classes with .NET's
/// subtraction, and (after the anchors) a literal `{`, a backreference and properties.
const OWN_ATOMS: &[&str] = &[r"\W", "[ab]", "[^a]", "[a-c-[b]]", r"[\w-[a]]"];
const MORE_ATOMS: &[&str] = &["{", r"\1", r"\p{L}", r"\P{Lu}", r"[\p{N}a]"];
const QUANTIFIERS: &[&str] = &[
    "", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,2}", "{,2}", "{1,}", "{1,2}?",
];

/// (A repeated anchor, look-around or atomic group is refused: the hand-written cases have
/// them; random ones would be mostly refusals.)
const GRAMMAR: common::Grammar = common::Grammar {
    atoms: &[
        common::PLAIN_ATOMS,
        OWN_ATOMS,
        common::ANCHORS_AND_LITERALS,
        MORE_ATOMS,
    ],
    quantifiers: QUANTIFIERS,
    opens: &[
        "(", "(", "(?:", "(?>", "(?=", "(?!", "(?i:", "(?-i:", "(?s:", "(?m:", "(?n:",
    ],
    repeatable: |atom| {
        ![r"^", "$", r"\A", r"\z", r"\Z", r"\b"].contains(&atom)
            && !["(?=", "(?!", "(?>"].iter().any(|o| atom.starts_with(o))
    },
};

fn cases() -> Vec<Value> {
    common::Corpus {
        quirks: quirks(),
        templates: TEMPLATES,
        grammar: &GRAMMAR,
        seed: 0x0d07_2e7a_2026,
        random: 500,
        flags: &["", "", "i", "m", "s", "im"],
        texts: common::TEXTS,
    }
    .cases()
}

#[test]
#[ignore = "slow oracle suite: 5,059 cases through Mono 6.8 (run by .ci/run)"]
fn the_dotnet_flavor_agrees_with_mono() {
    let Some(exe) = rxw_testkit::dotnet_oracle() else {
        return;
    };
    let cases = cases();
    let answers = rxw_testkit::dotnet_oracle_answers(&exe, &cases);
    // Mono's offsets are UTF-16 units, rxw's answer is in characters: the same on a text of
    // BMP characters; a unit offset inside a pair stays as it is, and so differs.
    let answers: Vec<Value> = cases
        .iter()
        .zip(answers)
        .map(|(case, mut answer)| {
            let text = case["text"].as_str().unwrap_or_default();
            if let Some(matches) = answer.get_mut("matches") {
                *matches = in_characters(matches, text);
            }
            answer
        })
        .collect();
    assert!(
        answers
            .iter()
            .filter_map(|a| a.get("runtime").and_then(Value::as_str))
            .all(|r| r.contains("6.8")),
        "the oracle runs on Mono 6.8"
    );
    let keys = ["names", "matches", "replaced", "replace_error"];
    let tally = common::compare(Flavor::Dotnet, "Mono", &cases, &answers, &keys);
    common::report("Mono 6.8", cases.len(), &tally);
}

/// `matches` (spans in UTF-16 units) with each offset that falls between characters of `text`
/// written in characters.
fn in_characters(matches: &Value, text: &str) -> Value {
    let mut units = vec![0usize];
    for c in text.chars() {
        units.push(units.last().copied().unwrap_or(0) + c.len_utf16());
    }
    let convert = |v: &Value| -> Value {
        let unit = v.as_u64().unwrap_or(0) as usize;
        units
            .iter()
            .position(|&u| u == unit)
            .map_or(v.clone(), Value::from)
    };
    match matches {
        Value::Array(list) => Value::Array(list.iter().map(|m| in_characters(m, text)).collect()),
        Value::Number(_) => convert(matches),
        other => other.clone(),
    }
}

/// The workbench's tools on the flavor: the quick reference, explain, the railroad, the step
/// debugger and the ReDoS verdict; code for C# is the pattern itself.
#[test]
fn the_debugger_explain_railroad_and_redos_work_in_dotnet() {
    let flavor = Flavor::Dotnet;
    let pattern = r"(\d{4})-(?<rest>[a-z-[aeiou]]+)(?i:x)$";
    let flags = Flags::default();
    let (ast, rows) = common::workbench_tools_work(flavor, pattern, "on 2024-bcdX\n");
    // The spans are the pattern's own: group 2 covers `(?<rest>[a-z-[aeiou]]+)`.
    assert_eq!(ast.groups[0].span, rxw_syntax::Span::new(0, 7));
    assert_eq!(ast.groups[1].span, rxw_syntax::Span::new(8, 31));
    assert_eq!(ast.groups[1].name.as_deref(), Some("rest"));
    assert!(
        rows.iter()
            .any(|r| r.starts_with("replacement") && r.contains("$_")),
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("positions") && r.contains("Mono 6.8")),
        "{rows:?}"
    );
    // `\w` by Mono's table: letters of every script and connector punctuation.
    let word = Regex::new(r"\w+", flavor, flags).expect("compiles");
    let found: Vec<_> = word
        .matches("é١‿ —", Default::default())
        .collect::<Result<Vec<_>, _>>()
        .expect("matched");
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].start(), found[0].end()), (0, 7));
    // Texts rxw cannot match as Mono does are refused, saying why.
    let ci = Flags::parse("i", flavor).expect("flags");
    let backref = Regex::new(r"(.)\1", flavor, ci).expect("compiles");
    let e = backref
        .matches("éÉ", Default::default())
        .collect::<Result<Vec<_>, _>>()
        .expect_err("a text outside ASCII is refused for a backreference under i");
    assert!(e.message.contains("lowercase"), "{e}");
    let dot = Regex::new(".", flavor, flags).expect("compiles");
    let e = dot
        .matches("😀", Default::default())
        .collect::<Result<Vec<_>, _>>()
        .expect_err("a text outside the BMP is refused");
    assert!(e.message.contains("UTF-16"), "{e}");
}

/// rxw's attacks on exponential patterns slow Mono's interpreter down exponentially: each
/// attack is timed by the oracle's `time` mode at growing n, and the slowest search (over
/// 0.3 s) must take at least twice the one two pumps before.
#[test]
#[ignore = "slow oracle suite: times rxw's ReDoS attacks on Mono 6.8"]
fn rxws_exponential_attacks_are_exponential_on_mono() {
    let Some(exe) = rxw_testkit::dotnet_oracle() else {
        return;
    };
    for pattern in ["(a+)+$", "(a|aa)+$", r"(\w+\s?)+$"] {
        let mut timer = std::process::Command::new("mono");
        timer.arg(&exe).arg("time");
        common::assert_timed_attack_slows_down(timer, "Mono", pattern, Flavor::Dotnet);
    }
}
