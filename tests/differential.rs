//! Differential tests: rxw against the real engines, CPython `re` (python flavor) and node's
//! `RegExp` (js flavor), on spans, group spans and replacement results.
//!
//! Cases are generated as the cross product of trap patterns and inputs. Every case must
//! agree, or rxw must refuse it with a reported deviation (`construct_unsupported` /
//! `input_unsupported`), which the README lists. When `python3` or `node` is missing the
//! corresponding half is skipped with a notice (CI has both).

use rxw::{ErrorKind, Flags, Flavor, Limits, NodeVersion, PyVersion, Regex};
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

struct Case {
    pattern: String,
    flags: &'static str,
    input: String,
    replacement: Option<&'static str>,
}

const INPUTS: &[&str] = &[
    "",
    "a",
    "aaa\n",
    "abc abc\nABC",
    "foo bar\nbaz\n",
    "[WO:7fce46e0] [from super] Audit — Check stats\n[RESULT 7fce46e0] OK 14 endpoints healthy\nmore\n",
    "x\r\ny\u{2028}z\n",
    "Ünïcödé wörds ß ſ K ²³ café\u{301}",
    "tab\tand  spaces\u{a0}nbsp\u{3000}ideo\u{1c}fs",
    "12 ١٢ 34x",
    "[ACK 7fce46e0] [CLAIM abc/1] [NO-ACTION j-9] [ack 1]",
    "aaaa bbbb aabb",
    "\n\n",
    "emoji 😀 ok",
    "😀😀x😀",
    "aaa\nbba",
    "aab",
    "$100 and 200",
    "abb",
    "\u{212A}elvin k K",
];

/// Patterns valid (or deliberately invalid) in both Python and JS syntax.
const SHARED: &[&str] = &[
    "a",
    "a*",
    "a+?",
    "a??",
    "a{2}",
    "a{1,2}",
    "a{2,}",
    "(a)|b",
    "(a)(b)?",
    "[a-c]+",
    "[^a-c\\s]+",
    ".",
    ".+",
    "\\d+",
    "\\w+",
    "\\W",
    "\\s+",
    "\\S+",
    "\\bab",
    "\\Bb",
    "^",
    "$",
    "^\\w",
    "\\w$",
    "(?:ab)+",
    "(a|ab)(c|bcd)?",
    "a(?=b)",
    "a(?!b)",
    "(?<=a)b",
    "(?<!a)b",
    "(\\w)\\1",
    "x*",
    "",
    "(a*)+",
    "(?:(a)|b)+",
    "\\[(\\w+)\\s",
    "[\\]\\-]",
    "caf\\u00e9",
    "\\x41",
    "[\\u00e9-\\u00ff]",
    "(?:)",
    "a|",
    "|a",
    "\\.",
    "\\n",
    "[\\d\\s]",
    "\\t",
    "k",
    "s",
    "(a)(?:b|(c))*",
    "(\\d)+",
    "[^]]",
    "a{,2}",
    "a{x",
    "(",
    "[",
    "a**",
    "\\",
    ")",
    "(?P<n>a)",
    "(?<n>a)\\k<n>",
    "é+",
    "😀",
    ".😀",
    "[😀]",
];

const PY_ONLY: &[&str] = &[
    "\\Z",
    "a\\Z",
    "\\A\\w",
    "(?P<id>\\w+)(?P=id)",
    "\\N{EM DASH}",
    "\\N{LATIN SMALL LETTER E WITH ACUTE}",
    "\\101",
    "\\0",
    "[\\0-\\x1f]",
    "a++",
    "(?>a+)a",
    "a*+b",
    "(?i)ABC",
    "(?s).+",
    "(?m)^\\w+$",
    "(?x) a b # c",
    "(?i:a)b",
    "(?-i:a)b",
    "(?a)\\w+",
    "\\b\\w+\\b",
    "(?<=ab)c",
    "\\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\\s+(?P<job_id>[A-Za-z0-9_/-]+)\\]",
    "^\\[WO:(?P<wo_id>[a-f0-9-]+)\\]\\s+\\[from\\s+(?P<sender>[a-zA-Z0-9_-]+)\\]\\s+(?P<title>[^—\\n]+?)\\s*—\\s*(?P<body>.+)$",
    "\\[RESULT\\s+(?P<job_id>[A-Za-z0-9_/-]+)\\]\\s*(?P<status>OK|FAIL|DECLINE|SUCCESS|ERROR)?\\s*(?P<summary>.*?)(?=\\[RESULT\\s|\\Z)",
    "\\d{2,}?",
    "[[:alpha:]]",
    "\\q",
    "(a)\\2",
    "a(?i)",
    "\\u00",
    "(?<=a+)b",
    "[z-a]",
    "\\B",
    "\\b",
    "(?i)ß",
    "(?i)K",
    "\\W+",
    "(?i)[a-z]+",
    "a{3,1}",
    // The exact-engine issue's traps: empty iterations, retries, conditionals, ASCII folding.
    "(a*)*b",
    "(a*)+",
    "(a|)+",
    "(){1,3}a",
    "(a*)*?$",
    "a*?",
    "(a)?(?(1)b|c)",
    "(?(1)b|c)",
    "(?P<x>a)?(?(x)b|c)+",
    "(?a)(?i)k",
    "(?a)\\B",
    "(?!a+?)",
    "(?<!(^)*)",
    "(a|b)*?c|(?:x)",
    "(?:a*)*",
    "((a)|b)+",
    "(a?)+?b",
];

const JS_ONLY: &[&str] = &[
    "\\cJ",
    "\\0",
    "\\1(a)",
    "(a)\\1",
    "\\8",
    "[\\b]",
    "\\u{1F600}",
    "\\p{L}+",
    "\\P{L}+",
    "(?<y>\\w)\\k<y>",
    "\\k<z>",
    "a{,2}",
    "[]",
    "[^]",
    "\\Z",
    "\\A",
    "\\/",
    "\\-",
    "[\\w-a]",
    "(?:a|b)+?",
    "\\u0041",
    "\\x4",
    "(?=a)*",
    "(?i:a)b",
    "a++",
    "(?>a)",
    "\\b\\w+\\b",
    "\\B\\w",
    "^.",
    ".$",
    "(?<w>a)|(?<w2>b)",
    "\\s",
    "(a)|(b)",
    "(?<=a|bc)d",
    // The exact-engine issue's traps: empty iterations, right-to-left look-behind, v mode.
    "(a*)*b",
    "(?<=\\1(a))b",
    "(?<=(\\d+)(\\d+))$",
    "(a*?)*?b",
    "(?:(?:ab)*?)?",
    "(?<!\\$)\\b\\d+",
    "((a)|b)+",
    "(a?)+?b",
    "(?<=(a+))b",
    "(?<=\\b\\w)\\w",
    "(?:a*)*",
    "a{4294967296}",
    // `v` mode: nested classes and set operations (errors without `v`).
    "[[a-z]&&[^aeiou]]+",
    "[\\p{L}--[a-z]]+",
    "[\\w--\\d]+",
    "[\\w-]",
    "[[abc][xyz]]",
    "[\\w&&\\d--1]",
    "[a&&&b]",
    "[^[a-c]--b]",
    // An astral literal quantified inside a look-behind, without `u`: the low unit repeats.
    "(?<=😀+)x",
    // Forward named references (a fuzzing find: the index was left unset).
    "\\k<n>(?<n>a)",
    "\\k<n>|(?<n>a)",
    "(?<=\\k<n>(?<n>a))b",
];

/// Per-flavor flag sets to try with each pattern.
fn flag_sets(flavor: Flavor) -> &'static [&'static str] {
    match flavor {
        Flavor::Python(_) => &["", "i", "m", "s", "ms", "a"],
        Flavor::Js(_) => &["", "i", "m", "s", "u", "iu", "y", "v", "iv"],
        // The other families: the patterns as written.
        _ => &[""],
    }
}

fn cases(flavor: Flavor) -> Vec<Case> {
    let own = if flavor.is_python() { PY_ONLY } else { JS_ONLY };
    let replacement = if flavor.is_python() {
        "<\\g<0>|\\1>"
    } else {
        "<$&|$1|$<n>|$$>"
    };
    let plain_replacement = if flavor.is_python() {
        "[\\g<0>]"
    } else {
        "[$&]"
    };
    let mut out = Vec::new();
    for (pi, pattern) in SHARED.iter().chain(own).enumerate() {
        for (ii, input) in INPUTS.iter().enumerate() {
            // Keep the product manageable: every pattern with every input without flags,
            // and each flag set on a rotating subset of inputs.
            let sets = flag_sets(flavor);
            for (fi, flags) in sets.iter().enumerate() {
                if !flags.is_empty() && (pi + ii + fi) % 5 != 0 {
                    continue;
                }
                let has_group =
                    pattern.contains('(') && !pattern.starts_with("(?") || pattern.contains("(a)");
                out.push(Case {
                    pattern: pattern.to_string(),
                    flags,
                    input: input.to_string(),
                    replacement: Some(if has_group {
                        replacement
                    } else {
                        plain_replacement
                    }),
                });
            }
        }
    }
    out
}

mod common;
use common::Rng;

/// A random pattern in the syntax Python and JavaScript share: groups, alternation, greedy
/// and lazy quantifiers, classes, look-around (look-behind of one character, which both
/// accept), anchors and backreferences to groups already opened.
fn random_pattern(rng: &mut Rng, depth: usize, groups: &mut usize) -> String {
    let mut out = String::new();
    let items = 1 + rng.below(3);
    for _ in 0..items {
        let atom = match rng.below(if depth > 2 { 8 } else { 15 }) {
            0 | 1 => "a".to_string(),
            2 => "b".to_string(),
            3 => ".".to_string(),
            4 => "[ab]".to_string(),
            5 => "[^a]".to_string(),
            6 => ["\\w", "\\s", "\\b", "^", "$", "\\B"][rng.below(6)].to_string(),
            7 if *groups > 0 => format!("\\{}", 1 + rng.below(*groups)),
            7 => "a".to_string(),
            8 | 9 => {
                *groups += 1;
                format!("({})", random_pattern(rng, depth + 1, groups))
            }
            10 => format!("(?:{})", random_pattern(rng, depth + 1, groups)),
            11 => format!(
                "(?:{}|{})",
                random_pattern(rng, depth + 1, groups),
                random_pattern(rng, depth + 1, groups)
            ),
            12 => format!("(?={})", random_pattern(rng, depth + 1, groups)),
            13 => format!("(?!{})", random_pattern(rng, depth + 1, groups)),
            _ => ["(?<=a)", "(?<!b)", "(?<=[ab])", "(?<!\\s)"][rng.below(4)].to_string(),
        };
        let quantifiable = !atom.starts_with("(?=")
            && !atom.starts_with("(?!")
            && !atom.starts_with("(?<")
            && !["^", "$", "\\b", "\\B"].contains(&atom.as_str());
        out.push_str(&atom);
        if quantifiable && rng.below(3) == 0 {
            out.push_str(["*", "+", "?", "*?", "+?", "??", "{0,2}", "{1,3}", "{2}"][rng.below(9)]);
        }
    }
    if depth > 0 && rng.below(5) == 0 {
        out.push('|');
        out.push_str(&random_pattern(rng, depth + 1, groups));
    }
    out
}

fn random_cases(flavor: Flavor, n: usize, seed: u64) -> Vec<Case> {
    let mut rng = Rng(seed);
    let alphabet = ["a", "b", " ", "\n", "ab", "é"];
    let flag_sets: &[&str] = match flavor {
        Flavor::Python(_) => &["", "", "i", "m", "s", "a"],
        _ => &["", "", "i", "m", "s", "u"],
    };
    (0..n)
        .map(|_| {
            let mut groups = 0;
            let pattern = random_pattern(&mut rng, 0, &mut groups);
            let len = rng.below(8);
            let input: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            Case {
                pattern,
                flags: flag_sets[rng.below(flag_sets.len())],
                input,
                replacement: None,
            }
        })
        .collect()
}

fn oracle(cmd: &str, script: &str, cases: &[Case]) -> Option<Vec<Value>> {
    let payload: Vec<Value> = cases
        .iter()
        .map(|c| json!({"pattern": c.pattern, "flags": c.flags, "input": c.input, "replacement": c.replacement}))
        .collect();
    let path = format!("{}/tests/oracle/{script}", env!("CARGO_MANIFEST_DIR"));
    let mut child = match Command::new(cmd)
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            rxw_testkit::missing(
                cmd,
                &format!("{e}: this half of the differential test is skipped"),
            );
            return None;
        }
    };
    let body = serde_json::to_vec(&payload).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{cmd} oracle failed");
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

struct Tally {
    agree: usize,
    both_reject: usize,
    deviations: Vec<String>,
    mismatches: Vec<String>,
}

impl Tally {
    /// Prints the counts of a run (`what`: the flavor and the kind of run) of `cases` cases,
    /// and its first `shown` deviations.
    fn print(&self, what: &str, cases: usize, shown: usize) {
        eprintln!(
            "{what}: {cases} cases: {} agree, {} rejected by both, {} reported deviations, {} mismatches",
            self.agree,
            self.both_reject,
            self.deviations.len(),
            self.mismatches.len()
        );
        for d in self.deviations.iter().take(shown) {
            eprintln!("  deviation: {d}");
        }
    }
}

fn rxw_result(flavor: Flavor, c: &Case) -> Result<Value, rxw::Error> {
    let flags = Flags::parse(c.flags, flavor)?;
    let re = Regex::new(&c.pattern, flavor, flags)?;
    let matches = re.find_all(&c.input, None)?;
    let spans: Vec<Value> = matches
        .iter()
        .map(|m| common::group_spans(&m.groups))
        .collect();
    let mut v = json!({"matches": spans});
    if flavor.is_js() {
        // node's own UTF-16 spans: the ones to compare where a match cuts a surrogate pair.
        v["units"] = matches
            .iter()
            .map(|m| common::group_spans(&m.utf16_spans(&c.input)))
            .collect();
    }
    if let Some(r) = c.replacement {
        // The engine's error is the regex layer's; the product's kinds name it the same.
        let replaced = re.replace(&c.input, r, None, &Limits::human());
        v["replaced"] = match replaced.map_err(rxw::Error::from) {
            // A lone surrogate left in the result: node's oracle says so (and gives its units).
            Ok(r) if r.utf16.is_some() => {
                v["replaced_units"] = json!(r.utf16);
                json!({"error": "lone surrogate in result"})
            }
            Ok(r) => Value::from(r.result),
            Err(e) if e.kind == ErrorKind::ReplacementInvalid => json!({"error": e.message}),
            Err(e) => return Err(e),
        };
    }
    Ok(v)
}

fn compare(flavor: Flavor, cases: &[Case], expected: &[Value]) -> Tally {
    let mut t = Tally {
        agree: 0,
        both_reject: 0,
        deviations: vec![],
        mismatches: vec![],
    };
    for (c, want) in cases.iter().zip(expected) {
        let label = format!("{flavor} /{}/{} on {:?}", c.pattern, c.flags, c.input);
        let got = rxw_result(flavor, c);
        match (got, want.get("error")) {
            (Err(_), Some(_)) => t.both_reject += 1,
            (Err(e), None)
                if matches!(
                    e.kind,
                    ErrorKind::ConstructUnsupported
                        | ErrorKind::InputUnsupported
                        | ErrorKind::BacktrackLimit
                ) =>
            {
                t.deviations.push(format!("{label}: {}", e.message))
            }
            (Err(e), None) => t.mismatches.push(format!(
                "{label}: rxw error {:?} {}, engine matched {}",
                e.kind, e.message, want
            )),
            (Ok(v), Some(err)) => t.mismatches.push(format!(
                "{label}: rxw accepted ({v}), engine rejected: {err}"
            )),
            (Ok(v), None) => {
                // A JavaScript match that cuts a surrogate pair has no byte offsets (node's
                // oracle writes -1): its UTF-16 spans are compared instead, and a replacement
                // that leaves a lone surrogate by its code units.
                let cuts =
                    want.get("units").is_some() && want["matches"].to_string().contains("-1");
                let same_matches = if cuts {
                    v["units"] == want["units"]
                } else {
                    v["matches"] == want["matches"]
                };
                let same_replace = match (&v.get("replaced"), &want.get("replaced")) {
                    (Some(a), Some(b)) if a.get("error").is_some() && b.get("error").is_some() => {
                        want.get("replaced_units").is_none()
                            || v.get("replaced_units").is_none()
                            || v["replaced_units"] == want["replaced_units"]
                    }
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                };
                if same_matches && same_replace {
                    t.agree += 1;
                } else {
                    t.mismatches
                        .push(format!("{label}:\n    rxw    {v}\n    engine {want}"));
                }
            }
        }
    }
    t
}

fn run_flavor(flavor: Flavor, cmd: &str, script: &str) {
    let cases = cases(flavor);
    let Some(expected) = oracle(cmd, script, &cases) else {
        return;
    };
    assert_eq!(expected.len(), cases.len());
    let t = compare(flavor, &cases, &expected);
    t.print(&flavor.to_string(), cases.len(), 20);
    assert!(
        cases.len() >= 500,
        "need at least 500 generated cases, have {}",
        cases.len()
    );
    assert!(
        t.mismatches.is_empty(),
        "{} mismatches with the real engine:\n{}",
        t.mismatches.len(),
        t.mismatches.join("\n")
    );
    // Deviations must stay rare: they are refusals, not answers.
    assert!(
        t.deviations.len() * 20 < cases.len(),
        "too many refusals: {}",
        t.deviations.len()
    );
}

fn run_random(flavor: Flavor, cmd: &str, script: &str, seed: u64) {
    let n = std::env::var("RXW_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6_000);
    run_random_n(flavor, cmd, script, seed, n);
}

fn run_random_n(flavor: Flavor, cmd: &str, script: &str, seed: u64, n: usize) {
    let cases = random_cases(flavor, n, seed);
    let Some(expected) = oracle(cmd, script, &cases) else {
        return;
    };
    let t = compare(flavor, &cases, &expected);
    t.print(&format!("{flavor} random"), cases.len(), 10);
    // A refusal is a clear error, not a wrong answer; on random patterns the only ones
    // expected are the step budget stopping an attempt that a real engine (without a budget)
    // finishes, about one case in 30,000.
    assert!(
        t.mismatches.is_empty() && t.deviations.len() * 1000 <= cases.len(),
        "{} mismatches and {} refusals on random cases:\n{}\n{}",
        t.mismatches.len(),
        t.deviations.len(),
        t.mismatches
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n"),
        t.deviations
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn python_random_patterns_agree_with_cpython() {
    let Some(python) = plain_python() else { return };
    run_random(
        Flavor::PYTHON,
        &python,
        "py_oracle.py",
        0x5eed_1234_abcd_0001,
    );
}

#[test]
fn js_random_patterns_agree_with_node() {
    let Some(node) = plain_node() else { return };
    run_random(Flavor::JS, &node, "js_oracle.js", 0x5eed_1234_abcd_0002);
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn python_flavor_agrees_with_cpython() {
    let Some(python) = plain_python() else { return };
    run_flavor(Flavor::PYTHON, &python, "py_oracle.py");
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn js_flavor_agrees_with_node() {
    let Some(node) = plain_node() else { return };
    run_flavor(Flavor::JS, &node, "js_oracle.js");
}

/// The real engine of plain `python`: the CPython of the release `Flavor::PYTHON` names (3.14,
/// under Pyodide), not whatever `python3` is on the machine.
fn plain_python() -> Option<String> {
    let v = Flavor::PYTHON.py_version().expect("a Python flavor");
    rxw_testkit::python_release(
        v.number(),
        &format!("plain python (python@{v}) is not compared with its engine"),
    )
}

/// The real engine of plain `js`: the node of the release `Flavor::JS` names (26), not
/// whatever `node` is on the PATH.
fn plain_node() -> Option<String> {
    let v = Flavor::JS.node_version().expect("a JavaScript flavor");
    rxw_testkit::node_release(
        u32::from(v.major()),
        "plain js is not compared with its engine",
    )
}

/// Random cases per release run at a smaller count than the default's (six releases).
fn per_release_cases() -> usize {
    std::env::var("RXW_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_500)
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn python_random_patterns_agree_with_every_installed_cpython_release() {
    let mut failed = Vec::new();
    for (i, v) in PyVersion::ALL.into_iter().enumerate() {
        if Flavor::Python(v) == Flavor::PYTHON {
            continue; // python_random_patterns_agree_with_cpython
        }
        let Some(exe) = common::python_interpreter(v.number()) else {
            rxw_testkit::missing(
                &format!("CPython {}", v.number()),
                &format!("python@{} is not fuzzed against it", v.number()),
            );
            continue;
        };
        let exe = exe.to_string_lossy().into_owned();
        let run = std::panic::catch_unwind(|| {
            run_random_n(
                Flavor::Python(v),
                &exe,
                "py_oracle.py",
                0x5eed_1234_abcd_0101 + i as u64,
                per_release_cases(),
            )
        });
        if run.is_err() {
            failed.push(v.number());
        }
    }
    assert!(failed.is_empty(), "releases that differ: {failed:?}");
}

#[test]
fn js_random_patterns_agree_with_every_installed_node() {
    for v in NodeVersion::ALL {
        if Flavor::Js(v) == Flavor::JS {
            continue; // js_random_patterns_agree_with_node
        }
        let Some(exe) = common::node_binary(u32::from(v.major())) else {
            rxw_testkit::missing(
                &format!("node {}", v.major()),
                &format!("js@node{} is not fuzzed against it", v.major()),
            );
            continue;
        };
        run_random_n(
            Flavor::Js(v),
            &exe,
            "js_oracle.js",
            0x5eed_1234_abcd_0200 + u64::from(v.major()),
            per_release_cases(),
        );
    }
}

/// Regression: the matcher kept CPython's "`\B` never matches an empty text" for the default
/// release only (a comparison with python 3.11 rather than any Python), so `python@3.12` found
/// `\B` in "" (every CPython release up to 3.13 finds nothing); the per-release fuzz above
/// found it. From 3.14 `\B` matches the empty text, as CPython 3.14 and 3.15 do.
#[test]
fn regression_python_not_word_boundary_never_matches_empty_text_before_3_14() {
    for v in PyVersion::ALL {
        for pattern in [r"\B", r"(?:\B)(?=)", r"\B\B.??"] {
            let re = Regex::new(pattern, Flavor::Python(v), Flags::default()).unwrap();
            let found = re.find_all("", None).unwrap().len();
            let want = if v.minor() >= 14 { 1 } else { 0 };
            assert_eq!(found, want, "python@{} {pattern}", v.number());
        }
    }
}

/// A text of `len` bytes of words and lines, with none of the look-aheads' targets.
fn words_text(len: usize) -> String {
    let words = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "x=1",
        "foo bar",
        "# note",
        "key: value",
    ];
    let mut rng = Rng(34);
    let mut s = String::new();
    while s.len() < len {
        for _ in 0..8 {
            let word: &&str = rng.pick(&words);
            s.push_str(word);
            s.push(' ');
        }
        s.push('\n');
    }
    s.truncate(len);
    s
}

/// Issue 34: what CPython finishes within a second on a text of up to 64 KB, rxw answers
/// within the human profile's total step budget, with CPython's matches. A lazy
/// any-character run before a look-ahead retried from every start over 4 KB (the case the
/// old budget of 100 million steps stopped), the alternations sre makes one set over 64 KB,
/// and counts no text of 64 KB can hold (sre's least width answers at once).
#[test]
fn regression_total_budget_answers_what_cpython_finishes_within_a_second() {
    let small = words_text(4096);
    let large = words_text(64_000);
    let mut cases = Vec::new();
    for (pattern, input) in [
        (r"(?:.|\n)+?(?=END)", &small),
        (r"(?:.|\n)+?(?=--)", &small),
        (r"(?:.|\n)*?(?=\d{5})", &small),
        (r"(?:.|\n)+?(?=\n\n|$)", &large),
        (r"(?<=#)(\w|_| )+(?=\n)", &large),
        (r"^(\w|_)+$", &large),
        (r"(?m)^(a|[ab])+(?=\s)", &large),
        (r"(?=.).{4294967294}", &large),
        (r"(?=.)(?:ab){2147483647}", &large),
        (r"(?=x)(x|y){70000}", &large),
    ] {
        cases.push(Case {
            pattern: pattern.to_string(),
            flags: "",
            input: input.clone(),
            replacement: None,
        });
    }
    let Some(expected) = oracle("python3", "py_oracle.py", &cases) else {
        return;
    };
    for (c, want) in cases.iter().zip(&expected) {
        let re = Regex::new(&c.pattern, Flavor::PYTHON, Flags::default()).unwrap();
        let started = std::time::Instant::now();
        let found: Result<Vec<_>, _> = re
            .matches(&c.input, rxw::MatchOptions::within(&Limits::human()))
            .collect();
        let found = found.unwrap_or_else(|e| panic!("/{}/ refused: {}", c.pattern, e.message));
        let spans: Vec<Value> = found
            .iter()
            .map(|m| common::group_spans(&m.groups))
            .collect();
        assert_eq!(
            Value::from(spans),
            want["matches"],
            "/{}/ on {} bytes",
            c.pattern,
            c.input.len()
        );
        eprintln!(
            "/{}/ on {} bytes: {} matches in {:?}",
            c.pattern,
            c.input.len(),
            found.len(),
            started.elapsed()
        );
    }
}
