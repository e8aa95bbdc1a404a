//! sre's groups across CPython releases: random small patterns of the shapes on which 3.11
//! changed sre's answers (repeated groups holding alternations, lazy and greedy repeats,
//! look-arounds holding groups, conditionals, backreferences), recorded in
//! `data/sre_marks.jsonl` by `data/record_sre_marks.py` with the answers of CPython 3.8–3.13.
//! Before 3.11 sre keeps a failed path's marks in several places, so 3.8–3.10 report stale
//! groups (even a group ending before it starts); `python@3.X` must answer each case as
//! CPython 3.X did, and again as the installed interpreter does when it is there.

mod common;

use rxw_engine::Regex;
use rxw_syntax::{Flags, Flavor, PyVersion};
use serde_json::{Value, json};

struct Case {
    pattern: String,
    input: String,
    /// The recorded answer of each release, by its number (`3.8` …).
    answers: Vec<(String, Value)>,
}

fn recorded() -> Vec<Case> {
    common::recorded(include_str!("data/sre_marks.jsonl"))
        .into_iter()
        .map(|v| {
            let mut answers = Vec::new();
            for group in v["answers"].as_array().expect("answers") {
                for release in group[0].as_array().expect("releases") {
                    answers.push((release.as_str().unwrap().to_string(), group[1].clone()));
                }
            }
            Case {
                pattern: v["pattern"].as_str().unwrap().to_string(),
                input: v["input"].as_str().unwrap().to_string(),
                answers,
            }
        })
        .collect()
}

/// rxw's answer in the oracle's shape: `{"matches": [[[start, end] | null, …], …]}` or
/// `{"error": …}`.
fn rxw_answer(v: PyVersion, pattern: &str, input: &str) -> Value {
    let flavor = Flavor::Python(v);
    let re = match Regex::new(pattern, flavor, Flags::default()) {
        Ok(re) => re,
        Err(e) => return json!({ "error": e.message }),
    };
    match re.find_all(input, None) {
        Ok(ms) => json!({
            "matches": ms
                .iter()
                .map(|m| common::group_spans(&m.groups))
                .collect::<Vec<_>>()
        }),
        Err(e) => json!({ "error": e.message, "kind": e.kind.name() }),
    }
}

/// Whether rxw's answer agrees with CPython's: the same matches, or both refuse.
fn agrees(got: &Value, want: &Value) -> bool {
    match (got.get("error"), want.get("error")) {
        (Some(_), Some(_)) => true,
        (None, None) => got["matches"] == want["matches"],
        _ => false,
    }
}

/// The disagreements of `python@v` with `expected` (one answer per case), described. A search
/// rxw's step budget stopped (catastrophic backtracking, which rxw refuses by design where
/// CPython runs on) is named loudly on standard error, not counted.
fn disagreements(v: PyVersion, cases: &[Case], expected: &[&Value]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (c, want) in cases.iter().zip(expected) {
        let got = rxw_answer(v, &c.pattern, &c.input);
        if got["kind"] == "backtrack_limit" {
            eprintln!(
                "*** python@{v} /{}/ on {:?}: stopped by rxw's step budget; CPython answers {want} ***",
                c.pattern, c.input
            );
        } else if !agrees(&got, want) {
            wrong.push(format!(
                "python@{v} /{}/ on {:?}:\n    rxw     {got}\n    CPython {want}",
                c.pattern, c.input
            ));
        }
    }
    wrong
}

fn report(what: &str, total: usize, wrong: &[String]) {
    eprintln!(
        "sre marks: {} of {total} cases agree with {what}, {} differ",
        total - wrong.len(),
        wrong.len()
    );
    for w in wrong.iter().take(60) {
        eprintln!("  {w}");
    }
}

#[test]
fn rxw_agrees_with_the_recorded_answers_of_every_release() {
    let cases = recorded();
    assert!(cases.len() > 500, "the recorded cases are there");
    let telling = cases
        .iter()
        .filter(|c| c.answers.iter().any(|(_, a)| *a != c.answers[0].1))
        .count();
    assert!(
        telling > 100,
        "the file holds cases that tell releases apart"
    );
    let mut all = Vec::new();
    for v in PyVersion::ALL {
        let expected: Vec<&Value> = cases
            .iter()
            .map(|c| {
                &c.answers
                    .iter()
                    .find(|(r, _)| r == v.number())
                    .unwrap_or_else(|| panic!("no answer of {v} for /{}/", c.pattern))
                    .1
            })
            .collect();
        let wrong = disagreements(v, &cases, &expected);
        report(&format!("the recorded CPython {v}"), cases.len(), &wrong);
        all.extend(wrong);
    }
    assert!(all.is_empty(), "{} disagreements", all.len());
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn rxw_agrees_with_every_installed_cpython_on_the_sre_marks_cases() {
    let cases = recorded();
    let mut all = Vec::new();
    for (v, python) in common::python_interpreters(" on the sre marks cases") {
        let input = cases
            .iter()
            .map(|c| json!({"pattern": c.pattern, "flags": "", "input": c.input}))
            .collect();
        let answers = common::python_answers(&python, input);
        let answers: Vec<&Value> = answers.iter().collect();
        let wrong = disagreements(v, &cases, &answers);
        report(
            &format!("CPython {v} ({})", python.display()),
            cases.len(),
            &wrong,
        );
        all.extend(wrong);
    }
    assert!(all.is_empty(), "{} disagreements", all.len());
}
