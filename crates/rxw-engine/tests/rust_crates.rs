//! Differential test of the two Rust flavors against the crates themselves, in-process:
//! `rust` against the `regex` crate and `fancy` against `fancy-regex`. Every pattern (targeted
//! cases for the constructs the two crates disagree on, and patterns drawn from a small grammar
//! of regex-syntax's constructs) is compiled by the crate and by rxw: they must agree on whether
//! it compiles (and for `rust` on the crate's own reason, the last line of its error); then on
//! every match of `captures_iter` on each text, groups included.

use rxw_engine::Regex;
use rxw_syntax::flavor::{Flags, Flavor};
use rxw_testkit::Rng;

/// Look-around, backreferences and an atomic group: what the regex crate refuses and the
/// fancy flavor exists for. The first of the targeted cases and of the fancy constructs.
const LOOK_AROUND_AND_BACKREFS: &[&str] = &[
    r"\d+(?=ms)",
    r"(?=a)",
    r"(?!a)b",
    r"(?<=a)b",
    r"(?<!a)b",
    r"(?>a+)b",
    r"(a)\1",
    r"(?P<n>a)\k<n>",
];

/// Cases that tell the crates and their flavors apart (after [`LOOK_AROUND_AND_BACKREFS`]).
const TARGETED: &[&str] = &[
    r"\k<n>",
    r"(?P<n>a)(?P=n)",
    r"a*+",
    r"a++b",
    r"a?+",
    r"a{2}+",
    r"(?i)k",
    r"(?R)a$",
    r"(?U)a+",
    r"\b{start}\w+\b{end}",
    r"\<\w+\>",
    r"[a-z&&[^aeiou]]+",
    r"[\w--\d]+",
    r"\p{Greek}+",
    r"(?-u:\w)+",
    r"(?x) a b # c",
    r"a{2,3}",
    r"a{,3}",
    r"a{ 2 , 3 }",
    r"(a|ab)(c|bcd)(d*)",
    r"(?s).+",
    r"(?m)^\w+$",
    r"\A\w+\z",
    r"\Z",
    r"\G",
    r"(?#c)a",
    r"(?(1)a|b)",
    r"\x{263a}\u263A\U0001F600",
    r"[[:alpha:]]+",
    r"\Qa.b\E",
    r"(?<name>\w+)",
    r"(?P<a.b[0]>x)",
    r"(",
    r")",
    r"[a",
    r"a{2,1}",
    r"\p{Foo}",
    r"a{1001}",
    r"a{100000}",
    r"\pL{5000}",
    r"a{4294967295}",
    r"a{4294967296}",
    r"(?i)*a",
    r"^*a",
    r"\b+a",
    r"(?i)ß",
    r"(?:a*)*",
    r"(a*)+b?",
    r"",
];

/// Texts every pattern runs on.
const TEXTS: &[&str] = &[
    "",
    "p50=41ms p99=312ms aaa ab abcd",
    "baaab a+b Kk\u{212A} ß ẞ",
    "Hello, Wörld! café αβγ 😀 x\ny\r\nz",
    "[WO:7fce46e0] [from super] Audit — check\n[RESULT 7fce46e0] OK",
];

/// A small grammar of regex-syntax constructs, drawn with a fixed seed.
fn random_pattern(rng: &mut Rng, depth: u32) -> String {
    const ATOMS: &[&str] = &[
        "a", "b", "k", ".", r"\d", r"\w", r"\s", r"\W", "[a-c]", "[^a]", r"\b", r"\B", "^", "$",
        r"\pL", "é", "(?i)", "(?m)", "(?s)",
    ];
    const OPS: &[&str] = &["", "", "*", "+", "?", "*?", "+?", "{2}", "{1,2}", "{0,}"];
    let mut out = String::new();
    for _ in 0..1 + rng.next() % 4 {
        let atom = if depth < 2 && rng.next().is_multiple_of(4) {
            let inner = random_pattern(rng, depth + 1);
            let other = random_pattern(rng, depth + 1);
            let open = *rng.pick(&["(", "(?:", "(?P<g>", "(?i:"]);
            if rng.next().is_multiple_of(2) {
                format!("{open}{inner}|{other})")
            } else {
                format!("{open}{inner})")
            }
        } else {
            rng.pick(ATOMS).to_string()
        };
        out.push_str(&atom);
        if !atom.starts_with("(?") || atom.ends_with(')') {
            let op: &&str = rng.pick(OPS);
            out.push_str(op);
        }
    }
    out
}

fn patterns() -> Vec<String> {
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut out: Vec<String> = LOOK_AROUND_AND_BACKREFS
        .iter()
        .chain(TARGETED)
        .map(|p| p.to_string())
        .collect();
    for _ in 0..1500 {
        out.push(random_pattern(&mut rng, 0));
    }
    out
}

/// rxw's matches: each match's groups, group 0 first.
type Spans = Vec<Vec<Option<(usize, usize)>>>;

/// rxw's pattern compiled once (the suites run each pattern on every text).
fn rxw_compile(pattern: &str, flavor: Flavor) -> Result<Regex, String> {
    Regex::new(pattern, flavor, Flags::default()).map_err(|e| e.message)
}

fn rxw(re: &Result<Regex, String>, text: &str) -> Result<Spans, String> {
    let re = re.as_ref().map_err(Clone::clone)?;
    let ms = re.find_all(text, None).map_err(|e| e.message)?;
    Ok(ms.into_iter().map(|m| m.groups.clone()).collect())
}

/// The crate's reason, as rxw words it: the last line of its error (`error: …`).
fn reason(e: &regex::Error) -> String {
    let text = e.to_string();
    let last = text.lines().last().unwrap_or_default();
    last.strip_prefix("error: ").unwrap_or(last).to_string()
}

#[test]
fn rust_is_the_regex_crate() {
    let (mut agree, mut wrong) = (0, Vec::new());
    for p in patterns() {
        let theirs = regex::Regex::new(&p);
        let compiled = rxw_compile(&p, Flavor::Rust);
        for text in TEXTS {
            let ours = rxw(&compiled, text);
            match (&theirs, ours) {
                // rxw may add a hint after the crate's reason.
                (Err(e), Err(m)) if m.starts_with(&reason(e)) => agree += 1,
                (Err(e), Err(m)) => {
                    wrong.push(format!("{p:?}: rxw says {m:?}, the crate {:?}", reason(e)))
                }
                (Err(e), Ok(_)) => wrong.push(format!(
                    "{p:?}: rxw compiles it, the crate refuses: {}",
                    reason(e)
                )),
                (Ok(_), Err(m)) => wrong.push(format!(
                    "{p:?} on {text:?}: rxw refuses ({m}), the crate compiles it"
                )),
                (Ok(re), Ok(spans)) => {
                    let want: Spans = re
                        .captures_iter(text)
                        .map(|c| c.iter().map(|g| g.map(|g| (g.start(), g.end()))).collect())
                        .collect();
                    if want == spans {
                        agree += 1;
                    } else {
                        wrong.push(format!(
                            "{p:?} on {text:?}:\n    rxw   {spans:?}\n    regex {want:?}"
                        ));
                    }
                }
            }
            if theirs.is_err() {
                break;
            }
        }
    }
    eprintln!(
        "rust: {agree} cases agree with the regex crate, {} differ",
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The constructs the fancy flavor exists for: look-around, backreferences, atomic groups
/// (after [`LOOK_AROUND_AND_BACKREFS`]).
const FANCY_CONSTRUCTS: &[&str] = &[
    r"(\w)\1+",
    r"(?<=\[WO:)[0-9a-f]+(?=\])",
    r"(?<!\d)\d{2}(?!\d)",
    // (Not `(?i)(k)\1`: fancy-regex's case-insensitive backreference does not match the
    // Kelvin sign after `k`, rxw's does; a known deviation, on the fidelity page.)
    r"\b(\w+)\s+\1\b",
    r"(?>\w+)\s",
    r"a(?=b|c)\w",
    r"(?<=a|bc)d",
];

/// fancy-regex's pattern compiled once.
fn fancy_compile(p: &str) -> Result<fancy_regex::Regex, String> {
    fancy_regex::Regex::new(p).map_err(|e| e.to_string())
}

/// fancy-regex's answer, or its error.
fn fancy(re: &Result<fancy_regex::Regex, String>, text: &str) -> Result<Spans, String> {
    let re = re.as_ref().map_err(Clone::clone)?;
    re.captures_iter(text)
        .map(|c| {
            c.map(|c| c.iter().map(|g| g.map(|g| (g.start(), g.end()))).collect())
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// The fancy flavor is rxw's regex-syntax grammar with look-around, backreferences and atomic
/// groups: on those constructs it must answer as fancy-regex does. Its grammar is not yet
/// fancy-regex's own parser: the other differences are counted and printed (see the fidelity
/// page), not passed as agreement.
#[test]
fn fancy_answers_as_fancy_regex_on_its_constructs() {
    let mut wrong = Vec::new();
    for p in LOOK_AROUND_AND_BACKREFS.iter().chain(FANCY_CONSTRUCTS) {
        let (ours_re, theirs_re) = (rxw_compile(p, Flavor::Fancy), fancy_compile(p));
        for text in TEXTS
            .iter()
            .chain(&["aab abb xaay 11 123 4 a1", "the the cat kK k\u{212A}"])
        {
            let (ours, theirs) = (rxw(&ours_re, text), fancy(&theirs_re, text));
            if ours.is_ok() != theirs.is_ok() || (ours.is_ok() && ours != theirs) {
                wrong.push(format!(
                    "{p:?} on {text:?}:\n    rxw   {ours:?}\n    fancy {theirs:?}"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // The grammar's other differences, counted.
    let (mut both, mut agree, mut accept_differs, mut match_differs) = (0, 0, 0, 0);
    for p in patterns() {
        let (ours_re, theirs_re) = (rxw_compile(&p, Flavor::Fancy), fancy_compile(&p));
        for text in TEXTS {
            match (rxw(&ours_re, text), fancy(&theirs_re, text)) {
                (Ok(a), Ok(b)) => {
                    both += 1;
                    if a == b {
                        agree += 1;
                    } else {
                        match_differs += 1;
                    }
                }
                (Err(_), Err(_)) => agree += 1,
                _ => accept_differs += 1,
            }
        }
    }
    eprintln!(
        "fancy: {agree} cases agree with fancy-regex; {accept_differs} compile in only one of \
         the two (fancy-regex's own parser), {match_differs} of the {both} both compile match \
         differently"
    );
    assert!(both > 1000, "the comparison is exercised");
}
