//! A fuzzing harness on the stable toolchain: random patterns × flags × inputs × flavors
//! through parse, explain, lints, railroad, compile, match, count, replace and the debugger's
//! trace; random bytes through the registry loader, the MCP line decoder and the MCP tools.
//! Nothing may panic, and every error must be a typed error with a message.
//!
//! CI runs a fixed number of cases (`RXW_FUZZ_CASES`, default 2,000 per target, deterministic
//! seeds); run it longer by hand, e.g. `RXW_FUZZ_CASES=200000 RXW_FUZZ_SEED=7 cargo test
//! --release --test fuzz`.

use rxw::engine::trace::TraceOptions;
use rxw::presets::{Format, Origin, load_str};
use rxw::syntax::{explain, lint, parse, railroad};
use rxw::{Flags, Flavor, Limits, MatchOptions, Regex};
use serde_json::json;

mod common;
use common::Rng;

fn cases() -> usize {
    std::env::var("RXW_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

fn seed(salt: u64) -> u64 {
    let base = std::env::var("RXW_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x00f0_0dba_d5ee_d123u64);
    (base ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1
}

/// Regex-significant pieces, so random strings look like patterns often enough to compile.
const PIECES: &[&str] = &[
    "a",
    "b",
    "é",
    "😀",
    ".",
    "\\d",
    "\\w",
    "\\s",
    "\\b",
    "\\B",
    "\\1",
    "\\2",
    "\\Z",
    "\\A",
    "\\k<n>",
    "(?P=n)",
    "(",
    ")",
    "(?:",
    "(?=",
    "(?!",
    "(?<=",
    "(?<!",
    "(?>",
    "(?P<n>",
    "(?<n>",
    "(?(1)",
    "(?i)",
    "(?s:",
    "[",
    "]",
    "[^",
    "a-z",
    "\\p{L}",
    "[[a-z]&&[^b]]",
    "--",
    "&&",
    "|",
    "*",
    "+",
    "?",
    "*?",
    "+?",
    "??",
    "*+",
    "{2}",
    "{1,3}",
    "{,2}",
    "{4294967296}",
    "^",
    "$",
    "\\",
    "\\u0041",
    "\\x{263A}",
    "\\uD83D",
    "\\N{EM DASH}",
    "\\cJ",
    "-",
    "{",
    "}",
    "#",
    " ",
];

const TEXT: &[&str] = &[
    "a",
    "b",
    "ab",
    " ",
    "\n",
    "\r\n",
    "é",
    "😀",
    "aaa",
    "[RESULT 7f] OK",
    "\u{212A}",
];

fn random_pattern(rng: &mut Rng) -> String {
    let n = rng.below(12);
    (0..n).map(|_| *rng.pick(PIECES)).collect()
}

fn random_text(rng: &mut Rng) -> String {
    let n = rng.below(10);
    (0..n).map(|_| *rng.pick(TEXT)).collect()
}

fn random_flags(rng: &mut Rng, flavor: Flavor) -> String {
    flavor
        .flag_letters()
        .chars()
        .filter(|_| rng.below(5) == 0)
        .collect()
}

#[test]
fn random_patterns_never_panic_in_any_layer() {
    let mut rng = Rng(seed(1));
    let mut compiled = 0usize;
    for _ in 0..cases() {
        let flavor = *rng.pick(&Flavor::ALL);
        let pattern = random_pattern(&mut rng);
        let text = random_text(&mut rng);
        let Ok(flags) = Flags::parse(&random_flags(&mut rng, flavor), flavor) else {
            continue;
        };
        if std::env::var_os("RXW_FUZZ_SHOW").is_some() {
            eprintln!(
                "case: {flavor} /{pattern}/{} on {text:?}",
                flags.letters(flavor)
            );
        }
        if let Ok(ast) = parse::parse(&pattern, flavor, flags) {
            let _ = explain::explain(&ast, &pattern, flavor, 4_096);
            let _ = lint::lint(&ast, &pattern, flavor);
            let _ = railroad::railroad(&ast, &pattern, flavor);
        }
        let re = match Regex::new(&pattern, flavor, flags) {
            Ok(re) => re,
            Err(e) => {
                assert!(
                    !e.message.is_empty(),
                    "an error without a message: {pattern:?}"
                );
                continue;
            }
        };
        compiled += 1;
        let found = re.find_all(&text, Some(200));
        if let Ok(ms) = &found {
            for m in ms {
                // Spans are byte offsets at character boundaries, inside the text.
                for (s, e) in m.groups.iter().flatten() {
                    assert!(
                        s <= e && *e <= text.len(),
                        "{pattern:?} on {text:?}: {s}..{e}"
                    );
                    assert!(text.is_char_boundary(*s) && text.is_char_boundary(*e));
                }
            }
        }
        let _ = re.count(&text);
        let _ = re
            .matches(&text, MatchOptions::bounds_only())
            .take(50)
            .count();
        let template = *rng.pick(&["<$&>", "\\1", "\\g<0>", "$1$$", "${n}", "\\g<n>", "x"]);
        let _ = re.replace(&text, template, None, &Limits::human());
        let _ = re.trace(
            &text,
            TraceOptions {
                max_steps: 200,
                max_matches: 20,
            },
        );
    }
    eprintln!("fuzz: {} pattern cases, {compiled} compiled", cases());
    assert!(
        compiled > 0,
        "the generator should produce some valid patterns"
    );
}

/// Pieces that give pattern sets literals to share (whole, as prefixes of one another, at a
/// fixed offset), runs of bytes, and lines that are not ASCII.
const SET_PIECES: &[&str] = &[
    "\\[ACK", "\\[AC", ":", "[0-9a-f]", "{6}", "{2,4}", "-4", "x", "ab", "ba", "aba", "K", "\\b",
    "é", "\\w", "\\d", "+", "?", "*", "|", "(?i)", "(?m)^", "$", ".", "(", ")", "[a-z]{3}",
];

const SET_TEXT: &[&str] = &[
    "[ACK:",
    "[AC",
    "7fce46",
    "abcdef",
    "deadbeef0123",
    "-4",
    "x",
    "ab",
    "aba",
    "ababab",
    "K",
    "\u{212A}",
    "é",
    "\u{b2}",
    "😀",
    " ",
    "\n",
    "\r\n",
    "日本",
    "[",
    "0",
    "-",
];

/// The engine's pattern set (one literal pass, byte-run and DFA passes, lines answered
/// alone) against each pattern's own `is_match`: a pass that rules a pattern out wrongly
/// would be a silent wrong answer in the audit.
#[test]
fn random_pattern_sets_answer_as_each_pattern_alone() {
    use rxw::engine::set::PatternSet;
    let mut rng = Rng(seed(4));
    let mut checked = 0usize;
    for _ in 0..cases() / 4 {
        let mut regexes = Vec::new();
        for _ in 0..1 + rng.below(8) {
            let flavor = *rng.pick(&Flavor::ALL);
            let n = 1 + rng.below(7);
            let pattern: String = (0..n)
                .map(|_| {
                    if rng.below(3) == 0 {
                        *rng.pick(PIECES)
                    } else {
                        *rng.pick(SET_PIECES)
                    }
                })
                .collect();
            let Ok(flags) = Flags::parse(&random_flags(&mut rng, flavor), flavor) else {
                continue;
            };
            if let Ok(re) = Regex::new(&pattern, flavor, flags) {
                regexes.push(re);
            }
        }
        if regexes.is_empty() {
            continue;
        }
        let refs: Vec<&Regex> = regexes.iter().collect();
        let set = PatternSet::new(&refs);
        let mut cache = set.create_cache();
        for _ in 0..6 {
            let n = rng.below(40);
            let text: String = (0..n).map(|_| *rng.pick(SET_TEXT)).collect();
            let got: Vec<Result<bool, String>> = set
                .which_match(&text, &mut cache)
                .iter()
                .map(|r| r.clone().map_err(|e| e.message))
                .collect();
            for (i, re) in regexes.iter().enumerate() {
                let want = re.is_match(&text).map_err(|e| e.message);
                assert_eq!(
                    got[i],
                    want,
                    "{:?} /{}/{} ({:?}) on {text:?}",
                    re.flavor(),
                    re.pattern(),
                    re.flags().letters(re.flavor()),
                    set.strategy(i)
                );
                checked += 1;
            }
        }
    }
    eprintln!("fuzz: {checked} pattern-set answers checked");
    assert!(checked > 0);
}

#[test]
fn random_registries_never_panic() {
    let mut rng = Rng(seed(2));
    let keys = [
        "key",
        "pattern",
        "flavor",
        "flags",
        "examples",
        "groups",
        "text",
        "=",
        "'",
        "\"",
        "[[preset]]",
        "\n",
        "python",
        "js",
        "{",
        "}",
        "é",
        "\\",
    ];
    for _ in 0..cases() {
        let n = rng.below(30);
        let text: String = (0..n)
            .map(|_| *rng.pick(&keys))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = load_str(&text, Format::Toml, "fuzz.toml", Origin::BuiltIn);
        let _ = load_str(&text, Format::Json, "fuzz.json", Origin::BuiltIn);
    }
}

#[test]
fn random_mcp_traffic_never_panics() {
    let mut rng = Rng(seed(3));
    for _ in 0..cases() {
        // A line of random bytes, or a random JSON-RPC-ish object.
        let line: Vec<u8> = if rng.below(2) == 0 {
            (0..rng.below(40)).map(|_| rng.next() as u8).collect()
        } else {
            let method = *rng.pick(&["tools/call", "tools/list", "initialize", "x"]);
            let args = match rng.below(4) {
                0 => json!(null),
                1 => json!([1, 2]),
                2 => {
                    json!({"action": "find", "pattern": random_pattern(&mut rng), "input": random_text(&mut rng), "limit": rng.below(5) as i64 - 2})
                }
                _ => {
                    json!({"patterns": [random_pattern(&mut rng)], "paths": ["/nonexistent", "."]})
                }
            };
            serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": rng.below(9), "method": method, "params": {"name": "regex", "arguments": args}})).unwrap()
        };
        let _ = rxw::mcp::stdio::decode(&line);
        let args = json!({
            "action": *rng.pick(&["test", "find", "replace", "explain", "nope"]),
            "pattern": random_pattern(&mut rng),
            "input": random_text(&mut rng),
            "flavor": *rng.pick(&["js", "python", "rust", "perl"]),
            "replacement": "<$&>",
            "limit": rng.below(5) as i64 - 1,
        });
        let name = *rng.pick(&["regex", "regex_parse", "grep_audit", "nope"]);
        let _ = rxw::mcp::call(name, args);
    }
}
