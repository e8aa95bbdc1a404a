//! The helpers every integration test shares live in the dev-only `rxw-testkit` crate.

#[allow(unused_imports)]
pub use rxw_testkit::*;
use serde_json::{Value, json};

/// The cases of a JSON-lines file under `tests/data/`, each line one case; blank lines and
/// lines starting with `//` (comments that group the cases) are skipped.
#[allow(dead_code)]
pub fn jsonl<T: serde::de::DeserializeOwned>(text: &str) -> Vec<T> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("//"))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("a JSON case: {e}: {l}")))
        .collect()
}

/// The cases a recording script wrote to a JSON-lines file under `tests/data/`: its first line
/// says what answered them (the interpreters, the release), each other line is a case.
#[allow(dead_code)]
pub fn recorded(text: &str) -> Vec<Value> {
    text.lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).expect("a recorded case"))
        .collect()
}

/// The spans (bytes) of every match of `pattern` under `flags` in `flavor` on `text`: the
/// regression tests' question.
#[allow(dead_code)]
pub fn find_spans(
    flavor: rxw_syntax::flavor::Flavor,
    pattern: &str,
    flags: &str,
    text: &str,
) -> Result<Vec<(usize, usize)>, rxw_syntax::Error> {
    let flags = rxw_syntax::flavor::Flags::parse(flags, flavor)?;
    let re = rxw_engine::Regex::new(pattern, flavor, flags)?;
    Ok(re
        .find_all(text, None)?
        .iter()
        .map(|m| m.groups[0].expect("the whole match"))
        .collect())
}

/// The installed CPython releases rxw names, each with its interpreter; each missing one is
/// said by [`rxw_testkit::missing`] (`python@3.X is NOT compared with CPython{on}`).
#[allow(dead_code)]
pub fn python_interpreters(on: &str) -> Vec<(rxw_syntax::PyVersion, std::path::PathBuf)> {
    let mut found = Vec::new();
    for v in rxw_syntax::PyVersion::ALL {
        match python_interpreter(v.number()) {
            Some(p) => found.push((v, p)),
            None => missing(
                &format!("CPython {}", v.number()),
                &format!("python@{} is NOT compared with CPython{on}", v.number()),
            ),
        }
    }
    found
}

/// The answers of the CPython at `python` to `cases` (`{"pattern", "flags", "input"}` each),
/// through the shared oracle script, one a case.
#[allow(dead_code)]
pub fn python_answers(python: &std::path::Path, cases: Vec<Value>) -> Vec<Value> {
    let script = oracle_script("py_oracle.py");
    let total = cases.len();
    let cmd = python.to_str().expect("a UTF-8 path");
    let answers = oracle(cmd, &script, &Value::from(cases)).expect("the interpreter runs");
    let answers = answers.as_array().expect("one answer per case").clone();
    assert_eq!(answers.len(), total);
    answers
}

/// Says `summary` with how many mismatches it found, and fails when there are any, listing the
/// first `shown` of them (`N mismatches{with}:`).
#[allow(dead_code)]
pub fn assert_no_mismatches(summary: &str, with: &str, mismatches: &[String], shown: usize) {
    eprintln!("{summary}, {} mismatches", mismatches.len());
    assert!(
        mismatches.is_empty(),
        "{} mismatches{with}:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(shown)].join("\n")
    );
}

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

/// rxw's matches in the shape of the oracles that answer flat offsets (PCRE2, Java, Go):
/// `{"names": ["", each group's name or ""…], "matches": [[start, end, group 1's start, …], …]}`
/// with -1 for an unset group's offsets, each offset through `at`.
#[allow(dead_code)]
pub fn flat_matches(
    re: &rxw_engine::Regex,
    matches: &[rxw_engine::Match],
    at: impl Fn(usize) -> usize,
) -> Value {
    let flat: Vec<Value> = matches
        .iter()
        .map(|m| flat_spans(&groups_at(m, &at)))
        .collect();
    let names: Vec<String> = std::iter::once(String::new())
        .chain(
            re.group_names()
                .iter()
                .map(|n| n.clone().unwrap_or_default()),
        )
        .collect();
    json!({ "names": names, "matches": flat })
}

/// A match's group spans, each offset through `at` (a byte offset to the oracle's unit).
#[allow(dead_code)]
pub fn groups_at(
    m: &rxw_engine::Match,
    at: impl Fn(usize) -> usize,
) -> Vec<Option<(usize, usize)>> {
    m.groups
        .iter()
        .map(|g| g.map(|(s, e)| (at(s), at(e))))
        .collect()
}

/// rxw's answer to `case` in the shape of PCRE2's and Java's oracles: `{"refused"}`,
/// `{"error"}`, or [`flat_matches`] (offsets in UTF-16 units when `utf16`, else in bytes) with
/// `replace`'s result as `"replaced"`, or an invalid template's `"replace_error"`.
#[allow(dead_code)]
pub fn flat_answer(
    flavor: rxw_syntax::flavor::Flavor,
    flags: rxw_syntax::flavor::Flags,
    case: &Value,
    utf16: bool,
) -> Value {
    let pattern = case["pattern"].as_str().expect("a pattern");
    let text = case["text"].as_str().expect("a text");
    let (re, matches) = match compile_and_find(pattern, flavor, flags, text) {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let units = utf16_offsets(text);
    let mut out = flat_matches(&re, &matches, |b| if utf16 { units[b] } else { b });
    if let Some(t) = case.get("replace").and_then(Value::as_str) {
        match re.replace(text, t, None, &rxw_engine::Limits::human()) {
            Ok(r) => out["replaced"] = Value::from(r.result),
            Err(e) if e.kind == rxw_syntax::ErrorKind::ReplacementInvalid => {
                out["replace_error"] = Value::from(e.message)
            }
            Err(e) => return json!({ "refused": e.message }),
        }
    }
    out
}

/// UTF-16 offset of each byte offset of `text` that starts a character (and of its end).
#[allow(dead_code)]
pub fn utf16_offsets(text: &str) -> Vec<usize> {
    let mut at = vec![0; text.len() + 1];
    let mut units = 0;
    for (i, c) in text.char_indices() {
        at[i] = units;
        units += c.len_utf16();
    }
    at[text.len()] = units;
    at
}

/// A case's label in what a differential test says: the pattern (first, for
/// [`Tally::refused_patterns`] with `" flags "`), its flags, the text and the template, if any.
#[allow(dead_code)]
pub fn flat_label(case: &Value) -> String {
    format!(
        "{:?} flags {:?} on {:?}{}",
        case["pattern"].as_str().unwrap_or_default(),
        case.get("flags").and_then(Value::as_str).unwrap_or(""),
        case["text"].as_str().unwrap_or_default(),
        case.get("replace")
            .map(|t| format!(" replace {t}"))
            .unwrap_or_default()
    )
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

/// The workbench's tools on `flavor`: `pattern` parses, is explained and drawn as a railroad,
/// the step debugger finds its one match in `text`, a nested quantifier is exponential (with an
/// attack that proves it) and `\Ab+c` is not vulnerable. Returns the parsed pattern, for the
/// flavor's own checks of its spans, and the quick reference's rows (`syntax meaning`).
#[allow(dead_code)]
pub fn workbench_tools_work(
    flavor: rxw_syntax::flavor::Flavor,
    pattern: &str,
    text: &str,
) -> (rxw_syntax::ast::Ast, Vec<String>) {
    use rxw_engine::Regex;
    use rxw_engine::redos::Verdict;
    let flags = rxw_syntax::flavor::Flags::default();
    let ast = rxw_syntax::parse::parse(pattern, flavor, flags).expect("it parses");
    let explained = rxw_syntax::explain::explain(&ast, pattern, flavor, 1000).expect("explain");
    assert!(!explained.tree.children.is_empty(), "{flavor}");
    let rail = rxw_syntax::railroad::railroad(&ast, pattern, flavor).expect("railroad");
    assert!(!rail.is_empty(), "{flavor}");
    let re = Regex::new(pattern, flavor, flags).expect("compiles");
    let trace = re
        .trace(text, rxw_engine::trace::TraceOptions::default())
        .expect("a trace");
    assert_eq!(trace.matches.len(), 1, "{flavor}");
    assert!(trace.total_steps > 0 && !trace.steps.is_empty(), "{flavor}");
    let evil = Regex::new("(a+)+$", flavor, flags).expect("compiles");
    let report = evil.redos(steps_decide()).expect("a verdict");
    assert_eq!(report.verdict, Verdict::Exponential, "{flavor}: {report:?}");
    assert!(report.attack.is_some(), "{flavor}");
    let safe = Regex::new(r"\Ab+c", flavor, flags).expect("compiles");
    let report = safe.redos(steps_decide()).expect("a verdict");
    assert!(!report.verdict.is_vulnerable(), "{flavor}: {report:?}");
    let rows = rxw_engine::reference::quick_reference(flavor)
        .iter()
        .map(|r| format!("{} {}", r.syntax, r.meaning))
        .collect();
    (ast, rows)
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

/// What a flavor answered on a corpus, against a real engine: the cases that agree, those rxw
/// refuses (each said with its label, the pattern first), those the engine gives no answer to,
/// and the disagreements, said.
#[allow(dead_code)]
#[derive(Default)]
pub struct Tally {
    pub agree: usize,
    pub refused: Vec<String>,
    pub unanswered: usize,
    pub wrong: Vec<String>,
}

#[allow(dead_code)]
impl Tally {
    /// Counts one case, `label`, on which rxw answered `got` and the engine (`engine` in what
    /// is said) `want`, both in the oracle's shape: `{"refused"}` from rxw is counted apart;
    /// an `"error"` on either side must be the same text on both; then each of `keys` must be
    /// the same.
    pub fn add(&mut self, label: &str, engine: &str, got: &Value, want: &Value, keys: &[&str]) {
        if let Some(r) = got.get("refused") {
            self.refused.push(format!(
                "{label}: {r} ({engine}: {})",
                want.get("error").unwrap_or(&json!("compiles"))
            ));
            return;
        }
        let wrong = match (got.get("error"), want.get("error")) {
            (Some(g), Some(w)) if g == w => Vec::new(),
            (Some(g), Some(w)) => vec![format!("{label}: error {g} where {engine} says {w}")],
            (Some(g), None) => vec![format!("{label}: rxw refused ({g}), {engine} compiles it")],
            (None, Some(w)) => vec![format!("{label}: rxw compiles it, {engine} refuses: {w}")],
            (None, None) => {
                let width = engine.len().max(3);
                keys.iter()
                    .filter(|key| got.get(**key) != want.get(**key))
                    .map(|key| {
                        format!(
                            "{label} [{key}]:\n    {:<width$} {}\n    {engine:<width$} {}",
                            "rxw",
                            got.get(*key).unwrap_or(&Value::Null),
                            want.get(*key).unwrap_or(&Value::Null)
                        )
                    })
                    .collect()
            }
        };
        self.agree += usize::from(wrong.is_empty());
        self.wrong.extend(wrong);
    }

    /// The refused patterns, each once: each refusal's label up to `separator`.
    pub fn refused_patterns(&self, separator: &str) -> Vec<&str> {
        let mut patterns: Vec<&str> = self
            .refused
            .iter()
            .map(|r| r.split(separator).next().unwrap_or(r))
            .collect();
        patterns.sort_unstable();
        patterns.dedup();
        patterns
    }

    /// Fails, listing them, when any case differs.
    pub fn assert_none_wrong(&self, name: &str) {
        assert!(
            self.wrong.is_empty(),
            "{} disagreements with {name}:\n{}",
            self.wrong.len(),
            self.wrong.join("\n")
        );
    }
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
            .map(|m| rxw_testkit::group_spans(&super::groups_at(m, chars)))
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

    /// Compares rxw with an engine's answers, the engine named `engine` in what is said; a case
    /// the engine timed out on or failed itself is counted with rxw's refusals.
    pub fn compare(
        flavor: Flavor,
        engine: &str,
        cases: &[Value],
        answers: &[Value],
        keys: &[&str],
    ) -> super::Tally {
        let mut tally = super::Tally::default();
        for (c, want) in cases.iter().zip(answers) {
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
                tally.refused.push(format!("{label}: the engine timed out"));
                continue;
            }
            if let Some(e) = want.get("engine_error") {
                tally
                    .refused
                    .push(format!("{label}: the engine itself fails ({e})"));
                continue;
            }
            tally.add(&label, engine, &rxw_answer(flavor, c), want, keys);
        }
        tally
    }

    /// Says the figures of `tally` and asserts that no case differs and that at least 70 % of
    /// the cases agree (the rest refused).
    pub fn report(name: &str, total: usize, tally: &super::Tally) {
        let patterns = tally.refused_patterns(" /");
        eprintln!(
            "{name}: {} of {total} cases agree, {} refused by rxw ({} patterns), {} differ:\n  {}",
            tally.agree,
            tally.refused.len(),
            patterns.len(),
            tally.wrong.len(),
            tally.refused.join("\n  ")
        );
        tally.assert_none_wrong(name);
        assert!(
            tally.agree * 10 >= total * 7,
            "{name}: only {} of {total} cases agree (the rest refused)",
            tally.agree
        );
    }
}
#[allow(unused_imports)]
pub use by_chars::{compare, report, rxw_answer};

/// The constructs a differential test draws random patterns from: atoms (in groups, taken
/// one after the other), quantifiers, group openings, and which atoms may take a quantifier.
#[allow(dead_code)]
pub struct Grammar<'a> {
    pub atoms: &'a [&'a [&'a str]],
    pub quantifiers: &'a [&'a str],
    pub opens: &'a [&'a str],
    pub repeatable: fn(&str) -> bool,
}

/// The atoms every grammar starts with: literals, `.` and the shorthands for digits, word
/// characters and spaces.
#[allow(dead_code)]
pub const PLAIN_ATOMS: &[&str] = &["a", "b", "ab", ".", r"\d", r"\w", r"\s"];

/// The anchors (`\A`, `\z`, `\Z`, `^`, `$`, `\b`) and escaped literals .NET's and Onigmo's
/// grammars share.
#[allow(dead_code)]
pub const ANCHORS_AND_LITERALS: &[&str] = &[
    r"\A", r"\z", r"\Z", "^", "$", r"\b", r"\x41", "x", r"\n", r"\.",
];

/// The texts random patterns run on: lines, both cases, digits, and the empty text.
#[allow(dead_code)]
pub const TEXTS: &[&str] = &["ab\nAB 12ax", "aab.b\n\n", "x9 b_a\nab", ""];

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
                rng.pick(&grammar.atoms.concat()).to_string()
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

/// The cases of a differential test from hand-written quirks and random patterns.
#[allow(dead_code)]
pub struct Corpus<'a> {
    /// Each quirk's pattern, its flags, and the texts it runs on.
    pub quirks: Vec<(String, String, Vec<String>)>,
    /// Replacement templates: each quirk is tried with each of them on its first text, every
    /// fourth random pattern with one drawn at random, on the first of `texts` (none: no
    /// replacement is tried).
    pub templates: &'a [&'a str],
    /// What the random patterns are drawn from: `random` of them, from `seed`.
    pub grammar: &'a Grammar<'a>,
    pub seed: u64,
    pub random: usize,
    /// The flags a random pattern is drawn with, and the texts it runs on.
    pub flags: &'a [&'a str],
    pub texts: &'a [&'a str],
}

#[allow(dead_code)]
impl Corpus<'_> {
    /// Every case, `{"pattern", "flags", "text", "replace"?}`.
    pub fn cases(&self) -> Vec<Value> {
        let case = |pattern: &str, flags: &str, text: &str| json!({ "pattern": pattern, "flags": flags, "text": text });
        let replace = |pattern: &str, flags: &str, text: &str, t: &str| json!({ "pattern": pattern, "flags": flags, "text": text, "replace": t });
        let mut cases = Vec::new();
        for (pattern, flags, texts) in &self.quirks {
            for text in texts {
                cases.push(case(pattern, flags, text));
            }
            for t in self.templates {
                cases.push(replace(pattern, flags, &texts[0], t));
            }
        }
        let mut rng = rxw_testkit::Rng(self.seed);
        for k in 0..self.random {
            let pattern = random_pattern(&mut rng, 0, self.grammar);
            let flags = *rng.pick(self.flags);
            for text in self.texts {
                cases.push(case(&pattern, flags, text));
            }
            if !self.templates.is_empty() && k % 4 == 0 {
                let t = rng.pick(self.templates);
                cases.push(replace(&pattern, flags, self.texts[0], t));
            }
        }
        cases
    }
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
