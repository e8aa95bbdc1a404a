// The cases the RE2-family differential tests (go_versions.rs, re2_flavor.rs) share: patterns
// of RE2's grammar and the texts each runs on. Included by both.

/// Patterns that exercise RE2's grammar and Go's meaning of it; each runs on every text.
const PATTERNS: &[&str] = &[
    // Literals, classes, shorthands, properties.
    "abc",
    "a.c",
    "(?s)a.c",
    r"\d+",
    r"\D+",
    r"\w+",
    r"\W",
    r"\s+",
    r"\S+",
    r"[[:alpha:]]+",
    r"[[:^digit:]x]+",
    r"[^[:space:]]+",
    r"[[:word:]]+",
    r"\pL+",
    r"\p{Greek}+",
    r"\PN+",
    r"\p{^Greek}+",
    r"\p{Lu}",
    r"\p{Han}",
    r"\p{Any}",
    r"\p{Letter}",
    r"\p{letter}",
    r"\p{ASCII}+",
    r"\p{Cn}",
    r"[\p{Lu}\d]+",
    r"[\d-z]+",
    r"[a-\d]",
    r"[z-a]",
    r"[]a]+",
    r"[^\n]+",
    r"[\x{41}-\x{43}]+",
    r"\x41\x{1F600}",
    r"\141\0",
    r"\8",
    r"\1",
    r"\Qa.b*\E+",
    r"\Qa.b",
    r"\z",
    r"\A\w",
    r"x\z",
    r"\Z",
    r"\C",
    r"\e",
    r"\_\-\ ",
    r"\é",
    // Anchors and modes.
    "^a",
    "a$",
    "(?m)^\\w+$",
    "(?m)$",
    "^",
    "$",
    r"\b\w",
    r"\B",
    r"\bé",
    // Case folding.
    "(?i)k",
    "(?i)K+",
    "(?i)σ",
    "(?i)ſ",
    "(?i)[k-m]+",
    "(?i)[^k]",
    r"(?i)\w+",
    r"(?i)\p{Lu}+",
    r"(?i)\p{LC}+",
    r"(?i)\P{Ll}",
    "a(?i)b|c",
    "(?i:a)b",
    "(?i)(?-i:a)b",
    // Greed, laziness, repetition.
    "a*",
    "a*?",
    "a+?",
    "(?U)a+",
    "(?U)a+?",
    "a{2,3}",
    "a{2,}",
    "a{2}",
    "a{,3}",
    "a{2,1}",
    "a{1001}",
    "a{1000}",
    "(a{1000}){2}",
    "((a{10}){10}){10}",
    "((a{10}){10}){11}",
    "a{",
    "a{x}",
    "a**",
    "a*+",
    "a{2}{3}",
    "a??",
    "*",
    "(*)",
    "(|a)+",
    "|a",
    // Alternation and groups.
    "a|ab",
    "ab|a",
    "(a|ab)(c|bcd)(d*)",
    "(a|b)*",
    "(a*)*",
    "(a*)+",
    "(|a)*",
    "(a|)+",
    "(a+|b+)*c",
    "(?:a(b)?)+",
    "(a)|(b)",
    "((a)|b)+",
    "(?P<word>\\w+) (?P<num>\\d+)",
    "(?<word>\\w+)",
    "(?P<>a)",
    "(?P<a-b>x)",
    "(?P<1a>x)",
    "(?P<x>a)(?P<x>b)",
    "(?P<x",
    "(?P<",
    "(?<",
    "(?<=",
    "a{01}",
    "a{0,01}",
    r"[\101-\132]+",
    r"[\0\18]",
    "(a",
    "a)",
    "(?",
    "(?i",
    "(?z)",
    "(?i-)",
    "(?)",
    "(?=a)",
    "(?!a)",
    "(?<=a)b",
    "(?<!a)b",
    "(?>a)",
    r"(a)\1",
    r"\k<x>",
    "a\\",
    "[a",
    "[[:foo:]]",
    "[a-",
    // NetVM protocol tags.
    r"\[WO:(?P<id>[0-9a-f]{8})\] \[from (?P<sender>\w+)\] (?P<body>.+)",
    r"\[RESULT (?P<id>[0-9a-f]{8})\] (?P<status>OK|FAIL)\b",
    r"\[TOOL (?P<op>\w+) (?P<args>\{.*?\})\]",
    r"— \w+",
];

/// Texts every pattern runs on.
const TEXTS: &[&str] = &[
    "",
    "abc aBc ABC abcd ab a",
    "aaa baaa b",
    "k K \u{212A} σ Σ ς ſ s S",
    "Hello, Wörld! 42 ⅷ ٣ café αβγ Ω 漢字 😀 x\ny\r\nz",
    "[WO:7fce46e0] [from super] Audit — check the fleet\n[RESULT 7fce46e0] OK done\n[TOOL op {\"a\": 1}] [TOOL x {}]",
    "a.b*bb a.bbb \\Qa",
    "xaaay a{2} a{,3} a{x} {",
    "abcd abbcd acd",
    "\u{0}a\u{0} a",
];

/// The shared cases: every pattern on every text, and each pattern with each of `templates`
/// (under `key`, the oracle's name for a template) on two of the texts; then `corpus`, a
/// family member's own hand-written cases (JSON lines), at least `corpus_size` of them.
fn family_cases(
    templates: &[&str],
    key: &str,
    corpus: &str,
    corpus_size: usize,
) -> Vec<serde_json::Value> {
    let mut cases = Vec::new();
    for p in PATTERNS {
        for t in TEXTS {
            cases.push(serde_json::json!({ "pattern": p, "text": t }));
        }
        for tpl in templates {
            for t in [TEXTS[5], TEXTS[1]] {
                cases.push(serde_json::json!({ "pattern": p, "text": t, key: tpl }));
            }
        }
    }
    let shared = cases.len();
    cases.extend(common::jsonl::<serde_json::Value>(corpus));
    assert!(
        cases.len() - shared >= corpus_size,
        "the corpus is read whole"
    );
    cases
}
