//! Fuzzing the class escapes (`\w \W \d \D \s \S \b \B`, and classes holding them, with and
//! without `i`) over random non-ASCII text, in all three flavors.
//!
//! Each random pattern runs twice in rxw: as written (the linear engine wherever the strategy
//! picks it) and followed by an empty look-ahead, which means the same but always runs on the
//! backtracking matcher. The two must give the same matches, or the same refusal. Where
//! CPython (`python3`) and node are installed, the same cases also go through them, batched in
//! one process per flavor, and rxw must agree or refuse the case with a reported deviation;
//! Rust's real engine is the `regex` crate, which is the linear side. The seed and the number of
//! cases are fixed, so a failure names a case that reproduces.

mod common;

use common::Rng;
use rxw_engine::vm::charset::{CharSet, from_regex_syntax};
use rxw_engine::{EngineKind, Regex};
use rxw_syntax::error::ErrorKind;
use rxw_syntax::flavor::{Flags, Flavor};
use serde_json::{Value, json};

/// Patterns per flavor (`RXW_CLASS_FUZZ_PATTERNS` raises it for a longer local run), and
/// texts tried per pattern.
const PATTERNS: usize = 220;
const TEXTS_PER_PATTERN: usize = 4;

fn pattern_count() -> usize {
    std::env::var("RXW_CLASS_FUZZ_PATTERNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PATTERNS)
}

const SHORTHANDS: &[&str] = &[r"\w", r"\W", r"\d", r"\D", r"\s", r"\S"];
const BOUNDARIES: &[&str] = &[r"\b", r"\B"];
const CLASS_ITEMS: &[&str] = &[
    r"\w", r"\W", r"\d", r"\D", r"\s", r"\S", "a-z", "A-Z", "0-9", "_", ".", "ı", "K", "ſ", "é",
    "ж", "Ω", "ϑ", "ß",
];
const LETTERS: &[&str] = &["k", "s", "i", "I", "ı", "İ", "ß", "ж", "é", "θ", "ω", "å"];
const QUANTIFIERS: &[&str] = &["", "", "", "+", "*", "?", "{1,3}", "+?"];

/// Characters the texts are drawn from: letters, digits and spaces of many scripts, the
/// characters whose case folding differs between the flavors, combining marks, and
/// characters outside the BMP.
const POOL: &str = "aAkKsSiIzZ09_ \t\n.-éÉßµªº²³¹¼ÿ\u{a0}ĀāĳſƀǅȀʰʼˆθϑϴΘΩωΣσς\u{345}приветМИРѠѡӀӁԀمرحبا١٢ڀڿनमस्ते०漢字ΩÅKﬅﬆẞıİ\u{2028}\u{3000}\u{1c}\u{85}\u{200b}\u{feff}\u{301}😀𝒜𐐀𐐨𝟙";

fn atom(rng: &mut Rng) -> String {
    match rng.below(10) {
        0..=3 => rng.pick(SHORTHANDS).to_string(),
        4 => rng.pick(BOUNDARIES).to_string(),
        5 => rng.pick(LETTERS).to_string(),
        _ => {
            let items: String = (0..1 + rng.below(3))
                .map(|_| *rng.pick(CLASS_ITEMS))
                .collect();
            let neg = if rng.below(3) == 0 { "^" } else { "" };
            format!("[{neg}{items}]")
        }
    }
}

fn sequence(rng: &mut Rng) -> String {
    (0..1 + rng.below(3))
        .map(|_| {
            let a = atom(rng);
            // A quantified boundary is valid in few flavors; keep boundaries bare.
            if BOUNDARIES.contains(&a.as_str()) {
                a
            } else {
                format!("{a}{}", rng.pick(QUANTIFIERS))
            }
        })
        .collect()
}

fn random_pattern(rng: &mut Rng) -> String {
    let body = if rng.below(6) == 0 {
        format!("{}|{}", sequence(rng), sequence(rng))
    } else {
        sequence(rng)
    };
    match rng.below(10) {
        0 => format!("(?={body})."),
        1 => format!("{body}(?!{})", atom(rng)),
        _ => body,
    }
}

fn random_text(rng: &mut Rng, old_enough: &CharSet) -> String {
    let pool: Vec<char> = POOL.chars().collect();
    (0..3 + rng.below(10))
        .map(|_| {
            if rng.below(6) == 0 {
                // Any BMP character that every engine's Unicode tables know: assigned by
                // Unicode 14 (CPython 3.11's version; the `regex` crate's and node's are
                // later), so a difference is never only a newer table.
                loop {
                    let c = 0x80 + rng.below(0xFF80) as u32;
                    if let Some(c) = char::from_u32(c).filter(|_| old_enough.contains(c)) {
                        break c;
                    }
                }
            } else {
                *rng.pick(&pool)
            }
        })
        .collect()
}

fn flag_sets(flavor: Flavor) -> &'static [&'static str] {
    match flavor {
        Flavor::Python(_) => &["", "i", "", "i", "a", "ai"],
        Flavor::Js(_) => &["", "i", "u", "iu", "v", "iv"],
        // The other families take ASCII and case-insensitive classes alike.
        _ => &["", "i"],
    }
}

struct Case {
    pattern: String,
    flags: &'static str,
    input: String,
}

fn cases(flavor: Flavor, seed: u64) -> Vec<Case> {
    let mut rng = Rng(seed);
    let old_enough = from_regex_syntax(r"\p{Age=V14_0}").expect("the Age property");
    let mut out = Vec::new();
    for _ in 0..pattern_count() {
        let pattern = random_pattern(&mut rng);
        let flags = *rng.pick(flag_sets(flavor));
        for _ in 0..TEXTS_PER_PATTERN {
            out.push(Case {
                pattern: pattern.clone(),
                flags,
                input: random_text(&mut rng, &old_enough),
            });
        }
    }
    out
}

/// Matches as the oracles print them: for each match, each group's `[start, end]` in bytes.
fn run(re: &Regex, text: &str) -> Result<Value, ErrorKind> {
    let found = re.find_all(text, None).map_err(|e| e.kind)?;
    Ok(Value::from(
        found
            .iter()
            .map(|m| common::node_spans(m, text))
            .collect::<Vec<_>>(),
    ))
}

/// The last pattern and flags compiled, as written and with the matcher forced.
type Compiled = (String, &'static str, Result<(Regex, Regex), ErrorKind>);

fn refusal(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::ConstructUnsupported | ErrorKind::InputUnsupported
    )
}

fn fuzz(flavor: Flavor, seed: u64, oracle: Option<(&str, &str)>) {
    let seed = std::env::var("RXW_CLASS_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(seed);
    let cases = cases(flavor, seed);
    let mut mismatches = Vec::new();
    let mut rxw_results = Vec::with_capacity(cases.len());
    let mut on_linear = 0usize;
    let mut compiled: Option<Compiled> = None;
    for c in &cases {
        let label = format!("{flavor} /{}/{} on {:?}", c.pattern, c.flags, c.input);
        if compiled
            .as_ref()
            .is_none_or(|(p, f, _)| *p != c.pattern || *f != c.flags)
        {
            let flags = Flags::parse(c.flags, flavor).expect("flags");
            let pair = Regex::new(&c.pattern, flavor, flags).and_then(|plain| {
                // An empty look-ahead changes nothing but the engine (for rust: in fancy-regex's
                // grammar, the regex crate's with look-around).
                let forced_flavor = if flavor == Flavor::Rust {
                    Flavor::Fancy
                } else {
                    flavor
                };
                let forced = Regex::new(&format!("(?:{})(?=)", c.pattern), forced_flavor, flags)?;
                Ok((plain, forced))
            });
            compiled = Some((c.pattern.clone(), c.flags, pair.map_err(|e| e.kind)));
        }
        let (_, _, pair) = compiled.as_ref().expect("compiled");
        let result = match pair {
            Err(kind) => Err(*kind),
            Ok((plain, forced)) => {
                assert_eq!(forced.engine_kind(&c.input), EngineKind::Backtracking);
                if plain.engine_kind(&c.input) == EngineKind::Linear {
                    on_linear += 1;
                }
                let a = run(plain, &c.input);
                let b = run(forced, &c.input);
                if a != b {
                    mismatches.push(format!("{label}: linear path {a:?}, matcher {b:?}"));
                }
                a
            }
        };
        rxw_results.push(result);
    }
    eprintln!(
        "{flavor}: {} cases, {} on the linear engine, {} linear/matcher mismatches",
        cases.len(),
        on_linear,
        mismatches.len()
    );
    assert!(
        on_linear * 4 >= cases.len(),
        "too few cases reach the linear engine ({on_linear}): the comparison is not exercised"
    );
    if let Some((cmd, script)) = oracle {
        let path = format!("{}/../../tests/oracle/{script}", env!("CARGO_MANIFEST_DIR"));
        let script = std::fs::read_to_string(&path).expect("the oracle script");
        let input = Value::from(
            cases
                .iter()
                .map(|c| json!({"pattern": c.pattern, "flags": c.flags, "input": c.input}))
                .collect::<Vec<_>>(),
        );
        if let Some(expected) = common::oracle(cmd, &script, &input) {
            let expected = expected.as_array().expect("one answer per case");
            assert_eq!(expected.len(), cases.len());
            let mut refused = 0;
            for ((c, got), want) in cases.iter().zip(&rxw_results).zip(expected) {
                let label = format!("{flavor} /{}/{} on {:?}", c.pattern, c.flags, c.input);
                match (got, want.get("error")) {
                    (Err(_), Some(_)) => {}
                    (Err(kind), None) if refusal(*kind) => refused += 1,
                    (Err(kind), None) => mismatches.push(format!(
                        "{label}: rxw error {kind:?}, {cmd} matched {}",
                        want["matches"]
                    )),
                    (Ok(v), Some(err)) => mismatches.push(format!(
                        "{label}: rxw matched {v}, {cmd} rejected the pattern: {err}"
                    )),
                    (Ok(v), None) if *v != want["matches"] => mismatches.push(format!(
                        "{label}:\n    rxw  {v}\n    {cmd} {}",
                        want["matches"]
                    )),
                    (Ok(_), None) => {}
                }
            }
            eprintln!("{flavor}: {refused} cases refused with a reported deviation");
            assert!(
                refused * 10 < cases.len(),
                "too many refusals against {cmd}: {refused}"
            );
        }
    }
    common::assert_no_mismatches(&format!("{flavor}: class escapes"), "", &mismatches, 40);
}

#[test]
fn python_class_escapes_agree_across_engines_and_with_cpython() {
    // Plain python, compared with the CPython of the release it names.
    let release = Flavor::PYTHON.py_version().expect("a Python flavor");
    let python = common::python_release(
        release.number(),
        "the class escapes are not compared with CPython",
    );
    fuzz(
        Flavor::PYTHON,
        0x5EED_C1A5,
        python.as_deref().map(|p| (p, "py_oracle.py")),
    );
}

#[test]
fn js_class_escapes_agree_across_engines_and_with_node() {
    // Plain js, compared with the node of the release it names.
    let release = Flavor::JS.node_version().expect("a JavaScript flavor");
    let node = common::node_release(
        u32::from(release.major()),
        "the class escapes are not compared with node",
    );
    fuzz(
        Flavor::JS,
        0x5EED_C1A6,
        node.as_deref().map(|n| (n, "js_oracle.js")),
    );
}

#[test]
fn rust_class_escapes_agree_across_engines() {
    fuzz(Flavor::Rust, 0x5EED_C1A7, None);
}
