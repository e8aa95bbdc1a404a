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
use serde_json::{Value, json};

/// Hand-written cases: each pattern, its flags, and the texts it runs on.
const QUIRKS: &[(&str, &str, &[&str])] = &[
    // Anchors: `$` and `\Z` before a final newline, `\z` at the end; lines under `m`.
    ("^", "", &["a\n", ""]),
    ("$", "", &["a\n", "a\nb\n", ""]),
    ("^a$", "m", &["b\na\nc", "a\n"]),
    ("^", "m", &["a\n\nb\n"]),
    (r"\A", "", &["ab\n"]),
    (r"\z", "", &["ab\n"]),
    (r"\Z", "", &["ab\n", "ab", "a\n\n"]),
    (r"a\Z", "", &["a\n", "a", "a\nb"]),
    ("a$", "", &["a\n", "a\r\n"]),
    // `.` and Singleline.
    ("a.b", "", &["a\nb", "axb", "a\rb"]),
    ("a.b", "s", &["a\nb"]),
    ("(?s:.)+", "", &["a\nb"]),
    ("(?-s:.)+", "s", &["a\nb"]),
    // Perl classes on ASCII texts.
    (r"\w+\s\d", "", &["ab_1 2", "x\t9", "x\u{b}9"]),
    (r"\W+", "", &["a b!c"]),
    (r"\bab\b", "", &["ab abc ab"]),
    (r"\Bb", "", &["ab b"]),
    (r"[\w-]+", "", &["a-b c"]),
    (r"[^\d\s]+", "", &["ab 12cd"]),
    (r"\S+", "", &["ab \u{c}cd"]),
    // Class subtraction and the class scanner's quirks.
    ("[a-z-[aeiou]]+", "", &["hello world"]),
    ("[a-z-[^aeiou]]+", "", &["hello world"]),
    ("[^a-z-[0-9]]+", "", &["ab12-+c"]),
    ("[a-z-[d-w-[m]]]+", "", &["amz dx"]),
    ("[a-[b]]+", "", &["ab-[c"]),
    (r"[a\-z]+", "", &["a-z b"]),
    ("[[:alpha:]]+", "", &["ab[:x"]),
    ("[[:a]+", "", &["[:a]"]),
    ("[]a]+", "", &["]a]"]),
    ("[^]a]+", "", &["]a]bc"]),
    ("[a-]+", "", &["a-b"]),
    ("[-a]+", "", &["a-b"]),
    ("[b-a]", "", &["a"]),
    (r"[\d-z]+", "", &["1-z"]),
    (r"[a-\d]", "", &["1"]),
    ("[a-z-[aeiou]x]", "", &["a"]),
    (r"[\b]", "", &["\u{8}b"]),
    (r"[\]]", "", &["]"]),
    ("[a", "", &[""]),
    ("[]", "", &[""]),
    // Quantifiers: `{,n}` and a `{` without a count are literal; nesting is an error.
    ("a{,3}", "", &["a{,3}"]),
    ("a{x}", "", &["a{x}"]),
    ("a{2", "", &["a{2"]),
    ("{2}", "", &["{2}"]),
    ("a{2}{3}", "", &["aaaaaa"]),
    ("a**", "", &["aaa"]),
    ("a*?+", "", &["aaa"]),
    ("*a", "", &["a"]),
    ("a|*", "", &["a"]),
    ("a{3,2}", "", &["aaa"]),
    ("a{1}?", "", &["aa"]),
    ("a{2,}", "", &["aaaa a"]),
    ("a{1,2}?", "", &["aaa"]),
    ("x(?#c)+", "", &["xxx"]),
    ("x(?#c)*?", "", &["xxx"]),
    ("a* ?", "x", &["aaa"]),
    ("^*a", "", &["ba"]),
    (r"\b+a", "", &["a ba"]),
    ("(?=a)*a", "", &["a"]),
    ("a{2147483648}", "", &["a"]),
    // Groups: numbering, names, `(?n)`, backreferences.
    ("(a)(b)", "", &["ab"]),
    ("(?<n>x)(y)", "", &["xy"]),
    (r"(y)(?<n>x)\k<n>\1\2", "", &["yxxyx"]),
    (r"(?'n'a)\k'n'", "", &["aa"]),
    (r"(?<n>a)\<n>", "", &["aa"]),
    (r"(?<n>a)\k<1>", "", &["aa"]),
    ("(?n)(a)(?<b>b)", "", &["ab"]),
    ("(?n:(a))(b)", "", &["ab"]),
    ("(?<1a>x)", "", &["x"]),
    ("(?<a-b>x)", "", &["x"]),
    ("(?<a>x)(?<b-a>y)", "", &["xy"]),
    ("(?<-a>x)", "", &["x"]),
    ("(?<0>x)", "", &["x"]),
    ("(?<2>x)", "", &["x"]),
    ("(?<a>x)(?<a>y)", "", &["xy"]),
    (r"(a)\1", "", &["aa ab"]),
    (r"(a)\2", "", &["aa"]),
    (r"(a)\10", "", &["a\u{8}"]),
    (r"(a)\12", "", &["a\n"]),
    (r"(a)\k<2>", "", &["aa"]),
    (r"\k", "", &["k"]),
    (r"\k<a>", "", &["a"]),
    (r"\k<a", "", &["a"]),
    (r"\<a", "", &["<a"]),
    (r"(a)\k'1'", "", &["aa"]),
    (r"(a)?b\1", "", &["b"]),
    (r"(a|b)*\1", "", &["abb"]),
    // Escapes.
    (r"\x41\u0042\t\e\a\v\f", "", &["AB\t\u{1b}\u{7}\u{b}\u{c}"]),
    (r"\cA\ca\c[", "", &["\u{1}\u{1}\u{1b}"]),
    (r"\0", "", &["\0"]),
    (r"\07", "", &["\u{7}"]),
    (r"\101", "", &["A"]),
    (r"\777", "", &["\u{ff}"]),
    (r"\8", "", &["8"]),
    (r"\q", "", &["q"]),
    (r"\_", "", &["_"]),
    (r"\.\*\#\ ", "", &[".*# "]),
    (r"\c1", "", &[""]),
    (r"\c", "", &[""]),
    (r"\x4", "", &[""]),
    (r"\x4g", "", &[""]),
    (r"\u12", "", &[""]),
    ("\\", "", &[""]),
    (r"\G", "", &["a"]),
    (r"\p{L}", "", &["a"]),
    (r"\p{Lu", "", &["a"]),
    (r"\pL", "", &["a"]),
    // Options: inline, scoped, to the end of the group with its later alternatives.
    ("(?i)a|B", "", &["Ab"]),
    ("a(?i)b|c", "", &["aBC", "ac", "C"]),
    ("(a(?i)b|c)d", "", &["aBd", "Cd", "cD"]),
    ("(?i:a)b", "", &["AB", "Ab"]),
    ("(?-i)a", "i", &["Aa"]),
    ("(?I)a", "", &["A"]),
    ("(?x) a b # c\n d", "", &["abd"]),
    ("(?x)[ a]", "", &[" "]),
    ("(?m)^b", "", &["a\nb"]),
    ("(?s).", "", &["\n"]),
    ("(?+i)a", "", &["A"]),
    ("(?i-i)a", "", &["A"]),
    ("(?e)a", "", &["a"]),
    ("(?r)a", "", &["a"]),
    ("(?z)", "", &[""]),
    ("(?i", "", &[""]),
    ("(?", "", &[""]),
    ("(?)", "", &[""]),
    ("(?#c", "", &[""]),
    ("(?i)*", "", &[""]),
    // Conditionals.
    ("(a)?(?(1)b|c)", "", &["ab c"]),
    ("(?<n>a)?(?(n)b|c)", "", &["ab c"]),
    ("(a)?(?(1)b|c|d)", "", &[""]),
    ("(?(2)a)", "", &[""]),
    ("(?(1x)a)", "", &[""]),
    ("(?(?=a)a|b)", "", &["ab"]),
    ("(?((?#x))a)", "", &[""]),
    ("(?(?#x)a)", "", &[""]),
    ("(?(?'n'a)a)", "", &[""]),
    ("(?(?<n>a)a)", "", &[""]),
    // Look-around and atomic groups.
    ("(?<=a)b", "", &["ab cb"]),
    ("(?<!a)b", "", &["ab cb"]),
    ("(?<=a|bc)d", "", &["ad bcd"]),
    ("(?<=a+)b", "", &["aab"]),
    ("(?<=(a))b", "", &["ab"]),
    ("(?=(a))a", "", &["a"]),
    ("x(?!y)", "", &["xyxz"]),
    ("(?>a+)b", "", &["aab", "aa"]),
    ("(?>a|ab)c", "", &["abc", "ac"]),
    ("(?'=a)", "", &[""]),
    // IgnoreCase on ASCII texts.
    ("abc", "i", &["ABC aBc"]),
    ("[a-c]+", "i", &["ABCd"]),
    ("[^a]", "i", &["A", "b"]),
    ("[^a-z]+", "i", &["ABC12"]),
    ("[A-z]+", "i", &["[_`a"]),
    (r"(a)\1", "i", &["aA"]),
    ("k", "i", &["K"]),
    ("\u{212a}", "i", &["k"]),
    // Errors.
    ("(", "", &[""]),
    (")", "", &[""]),
    ("a)", "", &[""]),
    ("((a)", "", &[""]),
    // Empty matches and the find-all loop.
    ("", "", &["ab", ""]),
    ("x*", "", &["axxb"]),
    ("x*|b", "", &["abc"]),
    ("a|", "", &["ab"]),
    ("(?=a)|a", "", &["a"]),
    (r"\b", "", &["ab cd"]),
    ("(a)|b", "", &["ab"]),
    ("(a)?b", "", &["b ab"]),
    ("(?:(a)|b)+", "", &["ab"]),
    ("(a|b)*c", "", &["abc"]),
    ("(a*)*", "", &["b"]),
    ("(a|)*", "", &["aa"]),
    ("(a*)+", "", &["aab"]),
    ("(a?)*?b", "", &["aab"]),
    // Texts outside ASCII (BMP), by Mono's tables; outside the BMP, refused.
    ("é.", "", &["aébéc"]),
    ("[^a]+", "", &["aéb—c"]),
    (r"\w+", "", &["é١ x_‿ ǅ ⅷ ²"]),
    (r"\W+", "", &["é١ x—y ²"]),
    (r"\d+", "", &["١2 ² ⅷ"]),
    (r"\s+", "", &["a\u{a0}b\u{85}c\u{2028}d\u{1c}e\u{200b}f"]),
    (r"\S+", "", &["a\u{a0}b\u{1c}e"]),
    (r"\b\w", "", &["éa b—c ‍d"]),
    (r"\B.", "", &["éa b—c"]),
    (r"[\w\s]+", "", &["é١ —x"]),
    (r"[^\d\W]+", "", &["é١2 x"]),
    (r"[\w-[\d]]+", "", &["é١2 x"]),
    ("a", "i", &["é a A"]),
    ("é", "i", &["É é"]),
    ("k", "i", &["K \u{212a} k"]),
    ("i", "i", &["I \u{130} \u{131} i"]),
    ("s", "i", &["S \u{17f} s"]),
    ("σ", "i", &["Σ ς σ"]),
    ("[é]", "i", &["É"]),
    ("[a-z]+", "i", &["ABC \u{212a}"]),
    ("[À-Þ]", "i", &["à"]),
    (r"\w+", "i", &["ÉéK \u{130}"]),
    (r"[^a]", "i", &["A é"]),
    (r"(a)\1", "i", &["aA é"]),
    (r"(é)\1", "i", &["éÉ"]),
    (".", "", &["a😀b"]),
];

/// Replacement templates tried with `Regex.Replace` on every pattern that compiles.
const TEMPLATES: &[&str] = &[
    "<$0>", "[$1|$2]", "$&$$", "$`|$'", "$9", "${n}", "$_", "${1}x", "$10", "$", "${", "$+",
];

/// The constructs random patterns are drawn from.
const ATOMS: &[&str] = &[
    "a",
    "b",
    "ab",
    ".",
    r"\d",
    r"\w",
    r"\s",
    r"\W",
    "[ab]",
    "[^a]",
    "[a-c-[b]]",
    r"[\w-[a]]",
    r"\A",
    r"\z",
    r"\Z",
    "^",
    "$",
    r"\b",
    r"\x41",
    "x",
    r"\n",
    r"\.",
    "{",
    r"\1",
];
const QUANTIFIERS: &[&str] = &[
    "", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,2}", "{,2}", "{1,}", "{1,2}?",
];
const TEXTS: &[&str] = &["ab\nAB 12ax", "aab.b\n\n", "x9 b_a\nab", ""];

/// (A repeated anchor, look-around or atomic group is refused: the hand-written cases have
/// them; random ones would be mostly refusals.)
const GRAMMAR: common::Grammar = common::Grammar {
    atoms: ATOMS,
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
    let mut cases = Vec::new();
    for (pattern, flags, texts) in QUIRKS {
        for text in *texts {
            cases.push(json!({ "pattern": pattern, "flags": flags, "text": text }));
        }
        for t in TEMPLATES {
            cases.push(
                json!({ "pattern": pattern, "flags": flags, "text": texts[0], "replace": t }),
            );
        }
    }
    let mut rng = rxw_testkit::Rng(0x0d07_2e7a_2026);
    for k in 0..500 {
        let pattern = common::random_pattern(&mut rng, 0, &GRAMMAR);
        let flags = *rng.pick(&["", "", "i", "m", "s", "im"]);
        for text in TEXTS {
            cases.push(json!({ "pattern": pattern, "flags": flags, "text": text }));
        }
        if k % 4 == 0 {
            let t = rng.pick(TEMPLATES);
            cases.push(
                json!({ "pattern": pattern, "flags": flags, "text": TEXTS[0], "replace": t }),
            );
        }
    }
    cases
}

#[test]
fn the_dotnet_flavor_agrees_with_mono() {
    let Some(exe) = rxw_testkit::dotnet_oracle() else {
        return;
    };
    let cases = cases();
    if let Ok(path) = std::env::var("RXW_DUMP_CASES") {
        let lines: Vec<String> = cases.iter().map(Value::to_string).collect();
        std::fs::write(path, lines.join("\n")).expect("written");
    }
    let answers = rxw_testkit::dotnet_oracle_answers(&exe, &cases);
    assert!(
        answers
            .iter()
            .filter_map(|a| a.get("runtime").and_then(Value::as_str))
            .all(|r| r.contains("6.8")),
        "the oracle runs on Mono 6.8"
    );
    let keys = ["names", "matches", "replaced", "replace_error"];
    let (agree, refused, wrong) = common::compare(Flavor::Dotnet, &cases, &answers, &keys);
    common::report("Mono 6.8", cases.len(), agree, &refused, &wrong);
}

/// The workbench's tools on the flavor: the quick reference, explain, the railroad, the step
/// debugger and the ReDoS verdict; code for C# is the pattern itself.
#[test]
fn the_debugger_explain_railroad_and_redos_work_in_dotnet() {
    use rxw_engine::redos::Verdict;
    use rxw_engine::trace::TraceOptions;
    let flavor = Flavor::Dotnet;
    let pattern = r"(\d{4})-(?<rest>[a-z-[aeiou]]+)(?i:x)$";
    let flags = Flags::default();
    let ast = rxw_syntax::parse::parse(pattern, flavor, flags).expect("it parses");
    // The spans are the pattern's own: group 2 covers `(?<rest>[a-z-[aeiou]]+)`.
    assert_eq!(ast.groups[0].span, rxw_syntax::Span::new(0, 7));
    assert_eq!(ast.groups[1].span, rxw_syntax::Span::new(8, 31));
    assert_eq!(ast.groups[1].name.as_deref(), Some("rest"));
    let explained = rxw_syntax::explain::explain(&ast, pattern, flavor, 1000).expect("explain");
    assert!(!explained.tree.children.is_empty());
    let rail = rxw_syntax::railroad::railroad(&ast, pattern, flavor).expect("railroad");
    assert!(!rail.is_empty());
    let re = Regex::new(pattern, flavor, flags).expect("compiles");
    let trace = re
        .trace("on 2024-bcdX\n", TraceOptions::default())
        .expect("a trace");
    assert_eq!(trace.matches.len(), 1);
    assert!(trace.total_steps > 0 && !trace.steps.is_empty());
    let reference = rxw_engine::reference::quick_reference(flavor);
    let rows: Vec<String> = reference
        .iter()
        .map(|r| format!("{} {}", r.syntax, r.meaning))
        .collect();
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
    // A nested quantifier is exponential, with an attack that proves it.
    let evil = Regex::new("(a+)+$", flavor, flags).expect("compiles");
    let report = evil.redos(common::steps_decide()).expect("a verdict");
    assert_eq!(report.verdict, Verdict::Exponential, "{report:?}");
    assert!(report.attack.is_some());
    let safe = Regex::new(r"\Ab+c", flavor, flags).expect("compiles");
    let report = safe.redos(common::steps_decide()).expect("a verdict");
    assert!(!report.verdict.is_vulnerable(), "{report:?}");
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
