//! The helpers every integration test shares live in the dev-only `rxw-testkit` crate.

#[allow(unused_imports)]
pub use rxw_testkit::*;

/// A pattern compiled in `flavor` and run over `text`, for a differential test: the regex and
/// its matches, or the answer already made: `{"refused": …}` for what rxw cannot reproduce or
/// what passes its own limits (counted apart, never passed as agreement), `{"error": …}` for a
/// pattern the flavor rejects.
#[allow(dead_code)]
pub fn compile_and_find(
    pattern: &str,
    flavor: rxw_syntax::flavor::Flavor,
    flags: rxw_syntax::flavor::Flags,
    text: &str,
) -> Result<(rxw_engine::Regex, Vec<rxw_engine::Match>), serde_json::Value> {
    use rxw_syntax::ErrorKind;
    use serde_json::json;
    let re = match rxw_engine::Regex::new(pattern, flavor, flags) {
        Ok(re) => re,
        Err(e)
            if matches!(
                e.kind,
                ErrorKind::LimitExceeded | ErrorKind::ConstructUnsupported
            ) =>
        {
            return Err(json!({ "refused": e.message }));
        }
        Err(e) => return Err(json!({ "error": e.message })),
    };
    match re.find_all(text, None) {
        Ok(ms) => Ok((re, ms)),
        Err(e) => Err(json!({ "refused": e.message })),
    }
}

/// A match's spans as the project's node oracle writes them: UTF-8 byte offsets, and `-1` for
/// a position between the two halves of a surrogate pair (a JavaScript match without `u` that
/// cuts a pair, which rxw answers in UTF-16 units: [`rxw_engine::Match::pair_cut`]).
#[allow(dead_code)]
pub fn node_spans(m: &rxw_engine::Match, text: &str) -> serde_json::Value {
    let Some(cut) = &m.pair_cut else {
        return group_spans(&m.groups);
    };
    // UTF-16 index -> byte offset, -1 inside a pair (the oracle's byteOffsets).
    let mut bytes = Vec::with_capacity(text.len() + 1);
    let mut b = 0i64;
    for c in text.chars() {
        bytes.push(b);
        if c.len_utf16() == 2 {
            bytes.push(-1);
        }
        b += c.len_utf8() as i64;
    }
    bytes.push(b);
    serde_json::Value::from(
        cut.utf16
            .iter()
            .map(|g| {
                g.map_or(serde_json::Value::Null, |(s, e)| {
                    serde_json::json!([bytes[s], bytes[e]])
                })
            })
            .collect::<Vec<_>>(),
    )
}

/// A ReDoS check whose verdict the step caps decide, not the clock (the 900 ms default is the
/// agent tool's; a debug build in a loaded test run needs more for the same steps).
#[allow(dead_code)]
pub fn steps_decide() -> rxw_engine::redos::RedosOptions<'static> {
    rxw_engine::redos::RedosOptions {
        time: std::time::Duration::from_secs(120),
        ..rxw_engine::redos::RedosOptions::default()
    }
}

/// rxw's verdict on `pattern`, asserted exponential, and the attack it proves it with.
#[allow(dead_code)]
pub fn exponential_attack(
    pattern: &str,
    flavor: rxw_syntax::flavor::Flavor,
) -> rxw_engine::redos::Attack {
    let flags = rxw_syntax::flavor::Flags::default();
    let re = rxw_engine::Regex::new(pattern, flavor, flags).expect("compiles");
    let report = re.redos(steps_decide()).expect("a verdict");
    assert_eq!(
        report.verdict,
        rxw_engine::redos::Verdict::Exponential,
        "{pattern}"
    );
    report.attack.expect("an attack")
}

/// rxw's attack on the exponential `pattern` slows the real C engine `engine` (`pcre2`,
/// `oniguruma`: `tests/oracle/redos_timing.py` under `python`, its work limit lifted) down
/// exponentially: timed at growing n, the slowest search (over 0.3 s) takes at least twice the
/// one two pumps before.
#[allow(dead_code)]
pub fn assert_attack_slows_down(
    python: &std::path::Path,
    engine: &str,
    pattern: &str,
    flavor: rxw_syntax::flavor::Flavor,
) {
    let a = exponential_attack(pattern, flavor);
    let times = redos_timing(python, engine, pattern, &a.prefix, &a.pump, &a.suffix);
    let (n_last, t_last, outcome) = times.last().cloned().expect("a time");
    let (_, t_before, _) = times[times.len().saturating_sub(2)].clone();
    eprintln!("{pattern}: {engine} took {t_last:.3} s at n = {n_last} ({t_before:.3} s at n - 2)");
    assert_eq!(outcome, "no match", "{pattern}: {times:?}");
    assert!(
        t_last > 0.3 && t_last >= 2.0 * t_before,
        "{pattern}: {engine} is not slowed down exponentially by {a:?}: {times:?}"
    );
}

/// The differential comparison of the flavors whose oracles answer in characters (Ruby,
/// Oniguruma, .NET on texts of BMP characters, where UTF-16 units are characters).
#[allow(dead_code)]
mod by_chars {
    use rxw_engine::Limits;
    use rxw_syntax::ErrorKind;
    use rxw_syntax::flavor::{Flags, Flavor};
    use serde_json::{Value, json};

    /// rxw's answer in the oracles' shape: `{"refused"}`, `{"error"}` or `{"names", "bytes",
    /// "matches" (characters), "replaced" | "replace_error"?}`.
    pub fn rxw_answer(flavor: Flavor, case: &Value) -> Value {
        let pattern = case["pattern"].as_str().expect("a pattern");
        let text = case["text"].as_str().expect("a text");
        let flags = Flags::parse(case["flags"].as_str().unwrap_or(""), flavor).expect("flags");
        let (re, matches) = match super::compile_and_find(pattern, flavor, flags, text) {
            Ok(found) => found,
            Err(answer) => return answer,
        };
        let chars = |b: usize| text[..b].chars().count();
        let bytes: Vec<Value> = matches
            .iter()
            .map(|m| rxw_testkit::group_spans(&m.groups))
            .collect();
        let in_chars: Vec<Value> = matches
            .iter()
            .map(|m| {
                let g: Vec<Option<(usize, usize)>> = m
                    .groups
                    .iter()
                    .map(|g| g.map(|(s, e)| (chars(s), chars(e))))
                    .collect();
                rxw_testkit::group_spans(&g)
            })
            .collect();
        let names: Vec<Value> = std::iter::once(json!(""))
            .chain(re.group_names().iter().map(|n| json!(n)))
            .collect();
        let mut out = json!({ "names": names, "bytes": bytes, "matches": in_chars });
        if let Some(t) = case.get("replace").and_then(Value::as_str) {
            match re.replace(text, t, None, &Limits::human()) {
                Ok(r) => out["replaced"] = Value::from(r.result),
                Err(e) if e.kind == ErrorKind::ConstructUnsupported => {
                    return json!({ "refused": e.message });
                }
                Err(e) => out["replace_error"] = Value::from(e.message),
            }
        }
        out
    }

    /// Compares rxw with an engine's answers; returns (agree, refused, wrong) as lists of labels.
    pub fn compare(
        flavor: Flavor,
        cases: &[Value],
        answers: &[Value],
        keys: &[&str],
    ) -> (usize, Vec<String>, Vec<String>) {
        let (mut agree, mut refused, mut wrong) = (0, Vec::new(), Vec::new());
        for (c, want) in cases.iter().zip(answers) {
            let got = rxw_answer(flavor, c);
            let label = format!(
                "{:?} /{}/ on {:?}{}",
                c["pattern"].as_str().unwrap_or_default(),
                c["flags"].as_str().unwrap_or_default(),
                c["text"].as_str().unwrap_or_default(),
                c.get("replace")
                    .map(|t| format!(" replace {t}"))
                    .unwrap_or_default()
            );
            if want.get("timeout").is_some() {
                refused.push(format!("{label}: the engine timed out"));
                continue;
            }
            if let Some(e) = want.get("engine_error") {
                refused.push(format!("{label}: the engine itself fails ({e})"));
                continue;
            }
            if let Some(r) = got.get("refused") {
                refused.push(format!(
                    "{label}: {r} (engine: {})",
                    want.get("error").unwrap_or(&json!("compiles"))
                ));
                continue;
            }
            match (got.get("error"), want.get("error")) {
                (Some(g), Some(w)) if g == w => {
                    agree += 1;
                    continue;
                }
                (Some(g), Some(w)) => {
                    wrong.push(format!("{label}: error {g} where the engine says {w}"));
                    continue;
                }
                (Some(g), None) => {
                    wrong.push(format!(
                        "{label}: rxw refused ({g}), the engine compiles it"
                    ));
                    continue;
                }
                (None, Some(w)) => {
                    wrong.push(format!("{label}: rxw compiles it, the engine says {w}"));
                    continue;
                }
                (None, None) => {}
            }
            let mut same = true;
            for key in keys {
                if got.get(*key) != want.get(*key) {
                    same = false;
                    wrong.push(format!(
                        "{label} [{key}]:\n    rxw    {}\n    engine {}",
                        got.get(*key).unwrap_or(&Value::Null),
                        want.get(*key).unwrap_or(&Value::Null)
                    ));
                }
            }
            agree += usize::from(same);
        }
        (agree, refused, wrong)
    }

    pub fn report(name: &str, total: usize, agree: usize, refused: &[String], wrong: &[String]) {
        let mut patterns: Vec<&str> = refused
            .iter()
            .map(|r| r.split(" /").next().unwrap_or(r))
            .collect();
        patterns.sort_unstable();
        patterns.dedup();
        eprintln!(
            "{name}: {agree} of {total} cases agree, {} refused by rxw ({} patterns), {} differ:\n  {}",
            refused.len(),
            patterns.len(),
            wrong.len(),
            refused.join("\n  ")
        );
        assert!(
            wrong.is_empty(),
            "{} disagreements with {name}:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
        assert!(
            agree * 10 >= total * 7,
            "{name}: only {agree} of {total} cases agree (the rest refused)"
        );
    }
}
#[allow(unused_imports)]
pub use by_chars::{compare, report, rxw_answer};

/// The constructs a differential test draws random patterns from: atoms, quantifiers, group
/// openings, and which atoms may take a quantifier.
#[allow(dead_code)]
pub struct Grammar<'a> {
    pub atoms: &'a [&'a str],
    pub quantifiers: &'a [&'a str],
    pub opens: &'a [&'a str],
    pub repeatable: fn(&str) -> bool,
}

/// A random pattern of `grammar`: one or two branches of one to three (quantified) atoms and
/// groups, groups nested at most twice.
#[allow(dead_code)]
pub fn random_pattern(rng: &mut rxw_testkit::Rng, depth: usize, grammar: &Grammar) -> String {
    let mut out = String::new();
    let branches = 1 + rng.below(2);
    for b in 0..branches {
        if b > 0 {
            out.push('|');
        }
        for _ in 0..1 + rng.below(3) {
            let atom = if depth < 2 && rng.below(4) == 0 {
                let inner = random_pattern(rng, depth + 1, grammar);
                let open = *rng.pick(grammar.opens);
                format!("{open}{inner})")
            } else {
                rng.pick(grammar.atoms).to_string()
            };
            out.push_str(&atom);
            if (grammar.repeatable)(&atom) {
                let quantifier: &&str = rng.pick(grammar.quantifiers);
                out.push_str(quantifier);
            }
        }
    }
    out
}

/// rxw's attack on the exponential `pattern` (in `flavor`) slows a real engine down
/// exponentially: `timer` (a program that reads `{"pattern", "prefix", "pump", "suffix"}` and
/// prints `[[n, seconds], …]` for growing n) runs it, and the slowest search (over 0.3 s)
/// takes at least twice the one two pumps before.
#[allow(dead_code)]
pub fn assert_timed_attack_slows_down(
    mut timer: std::process::Command,
    engine: &str,
    pattern: &str,
    flavor: rxw_syntax::flavor::Flavor,
) {
    use std::io::Write;
    let attack = exponential_attack(pattern, flavor);
    let input = serde_json::json!({
        "pattern": pattern, "prefix": attack.prefix, "pump": attack.pump,
        "suffix": attack.suffix,
    });
    let mut child = timer
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{engine} runs: {e}"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.to_string().as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("the engine answers");
    let times: Vec<(u64, f64)> = serde_json::from_slice(&out.stdout).expect("JSON times");
    let (n_last, t_last) = *times.last().expect("a time");
    // Only the slow end is measured: the last point and the one two pumps before.
    let (_, t_before) = times[times.len().saturating_sub(2)];
    eprintln!("{pattern}: {engine} took {t_last:.3} s at n = {n_last} ({t_before:.3} s at n - 2)");
    assert!(
        t_last > 0.3 && t_last >= 2.0 * t_before,
        "{pattern}: {engine} is not slowed down exponentially by {attack:?}: {times:?}"
    );
}
