//! The ReDoS corpus (tests/data/redos_corpus.jsonl): patterns from the ReDoS literature and from
//! real projects' fixes, each labelled by timing CPython or node on attack strings
//! (benches/redos_label.py). rxw's verdicts must agree with the real engines' on at least 98%
//! of the rows, with precision and recall of "vulnerable" at 0.98 or more, never call linear a
//! pattern the real engine shows exponential, nor one whose literature attack slows the real
//! engine down. A second test feeds a sample of rxw's own attacks to the real engines.

use rxw::engine::redos::{RedosOptions, RedosReport, Verdict};
use rxw::{Flags, Flavor, Regex};
use serde_json::Value;
use std::process::Command;
use std::time::Duration;

struct Row {
    id: String,
    flavor: Flavor,
    flags: String,
    pattern: String,
    label: String,
    label_from: Option<String>,
    /// Why rxw's verdict is known to differ from the real engine's, when it is.
    gap: Option<String>,
}

fn corpus() -> Vec<Row> {
    let text = include_str!("data/redos_corpus.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Row {
                id: v["id"].as_str().unwrap().to_string(),
                flavor: labelled_flavor(
                    v["flavor"].as_str().unwrap(),
                    v["label"]["engine"].as_str().unwrap_or(""),
                ),
                flags: v["flags"].as_str().unwrap_or("").to_string(),
                pattern: v["pattern"].as_str().unwrap().to_string(),
                label: v["label"]["verdict"].as_str().unwrap().to_string(),
                label_from: v["label"]["attack_from"].as_str().map(str::to_string),
                gap: v["gap"].as_str().map(str::to_string),
            }
        })
        .collect()
}

/// rxw's verdict, with the step caps (not the clock) deciding: the same on any machine. The
/// clock is only a guard against a runaway: a debug build in a loaded test run needs about a
/// minute for the 40 million screening steps of the slowest row (regexlib #2758), where a
/// release build needs seconds, and a 60 s clock made that row "not proved" under load.
fn verdict(row: &Row) -> Option<RedosReport> {
    let flags = Flags::parse(&row.flags, row.flavor).ok()?;
    let re = Regex::new(&row.pattern, row.flavor, flags).ok()?;
    re.redos(RedosOptions {
        time: Duration::from_secs(900),
        cancel: None,
    })
    .ok()
}

fn vulnerable(label: &str) -> bool {
    label != "linear"
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn verdicts_agree_with_the_real_engines_on_the_corpus() {
    let rows = corpus();
    assert!(rows.len() >= 200, "{}", rows.len());
    let (mut agree, mut checked, mut skipped) = (0usize, 0usize, Vec::new());
    let (mut tp, mut fp, mut fn_, mut tn) = (0usize, 0usize, 0usize, 0usize);
    let mut missed_known = Vec::new();
    let mut missed_exponential = Vec::new();
    let mut disagreements = Vec::new();
    for row in &rows {
        let Some(r) = verdict(row) else {
            skipped.push(row.id.clone());
            continue;
        };
        checked += 1;
        let ours = r.verdict.name();
        if ours == row.label {
            agree += 1;
        } else {
            disagreements.push(format!(
                "{}: rxw {} ({:?}), real engine {} (attack from {:?})",
                row.id, ours, r.degree, row.label, row.label_from
            ));
        }
        match (r.verdict.is_vulnerable(), vulnerable(&row.label)) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, true) => fn_ += 1,
            (false, false) => tn += 1,
        }
        if r.verdict == Verdict::Linear && row.label == "exponential" {
            missed_exponential.push(row.id.clone());
        }
        if r.verdict == Verdict::Linear
            && vulnerable(&row.label)
            && row.label_from.as_deref() == Some("literature")
        {
            match &row.gap {
                Some(why) => eprintln!("KNOWN GAP {}: {why}", row.id),
                None => missed_known.push(row.id.clone()),
            }
        }
    }
    let rate = agree as f64 / checked as f64;
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    let recall = tp as f64 / (tp + fn_).max(1) as f64;
    eprintln!(
        "redos corpus: {checked} checked, {} not compiled by rxw {skipped:?}; class agreement {agree}/{checked} = {:.1}%; vulnerable vs not: tp {tp} fp {fp} fn {fn_} tn {tn}, precision {:.3}, recall {:.3}",
        skipped.len(),
        rate * 100.0,
        precision,
        recall
    );
    for d in &disagreements {
        eprintln!("  {d}");
    }
    assert!(
        skipped.len() * 20 <= rows.len(),
        "too many rows rxw cannot compile: {skipped:?}"
    );
    assert!(rate >= 0.98, "agreement {:.1}% < 98%", rate * 100.0);
    assert!(precision >= 0.98, "precision {precision:.3} < 0.98");
    assert!(recall >= 0.98, "recall {recall:.3} < 0.98");
    assert!(
        missed_exponential.is_empty(),
        "exponential on the real engine, reported linear: {missed_exponential:?}"
    );
    assert!(
        missed_known.is_empty(),
        "vulnerable with a known attack, reported linear: {missed_known:?}"
    );
}

/// The release a row was labelled on: a row that names a release keeps it; a plain `python` or
/// `js` row (the corpus's own spelling) is the release its label's engine was (`cpython
/// 3.11.7`, `node v20.20.2`), so no row is checked as a release it was not timed on.
fn labelled_flavor(name: &str, engine: &str) -> Flavor {
    let flavor: Flavor = name.parse().unwrap();
    if name.contains('@') {
        return flavor;
    }
    let release = |prefix: &str| {
        engine
            .strip_prefix(prefix)
            .map(|v| {
                v.split([' ', '.'])
                    .take(if prefix == "node v" { 1 } else { 2 })
            })
            .map(|parts| parts.collect::<Vec<_>>().join("."))
    };
    let named = match flavor {
        Flavor::Python(_) => release("cpython ").map(|v| format!("python@{v}")),
        Flavor::Js(_) => release("node v").map(|v| format!("js@node{v}")),
        _ => None,
    };
    named.map_or(flavor, |n| {
        n.parse()
            .unwrap_or_else(|e| panic!("a row labelled on {engine}: {e}"))
    })
}

/// The real engine of a flavor's release, as the labelling script's `RXW_REDOS_ENGINE`: `None`
/// for the flavors without an external engine here, and (after `missing` names it) for a
/// release not installed.
fn engine(flavor: Flavor) -> Option<Option<String>> {
    let consequence = format!("{flavor}: rxw's attack is not timed on the real engine");
    match flavor {
        Flavor::Python(v) => Some(rxw_testkit::python_release(v.number(), &consequence)),
        Flavor::Js(v) => Some(rxw_testkit::node_release(
            u32::from(v.major()),
            &consequence,
        )),
        _ => None,
    }
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn real_engines_slow_down_on_rxws_attacks_as_predicted() {
    // Every eighth vulnerable row: rxw's attack, timed on the row's own engine by the labelling
    // script at growing n, must show the growth class rxw predicted.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/redos_label.py");
    let rows = corpus();
    let mut probed = 0;
    let mut failures = Vec::new();
    for row in rows.iter().filter(|r| vulnerable(&r.label)).step_by(8) {
        let Some(exe) = engine(row.flavor) else {
            eprintln!(
                "SKIPPED {}: no interpreter for {} on this machine",
                row.id, row.flavor
            );
            continue;
        };
        let Some(exe) = exe else { continue };
        // The script is run by the CPython the corpus's Python rows name; it times the
        // attack on the row's own release (RXW_REDOS_ENGINE).
        let Some(runner) = rxw_testkit::python_release(
            "3.11",
            &format!("{script} is not run: rxw's attacks are not timed on the real engines"),
        ) else {
            return;
        };
        let Some(r) = verdict(row) else { continue };
        let Some(a) = &r.attack else { continue };
        let out = Command::new(runner)
            .env("RXW_REDOS_ENGINE", &exe)
            .args([script, "probe", "--flavor", row.flavor.family_name()])
            .args(["--flags", &row.flags, "--pattern", &row.pattern])
            .args([
                "--prefix", &a.prefix, "--pump", &a.pump, "--suffix", &a.suffix,
            ])
            .output()
            .unwrap();
        let v: Value = match serde_json::from_slice(&out.stdout) {
            Ok(v) => v,
            Err(e) => panic!("{}: {e}: {}", row.id, String::from_utf8_lossy(&out.stderr)),
        };
        probed += 1;
        let real = v["verdict"].as_str().unwrap_or("none");
        // The real engine must slow down at least as predicted (a polynomial prediction that
        // the engine shows exponential is still a slowdown).
        let ok = match r.verdict {
            Verdict::Exponential => real == "exponential",
            Verdict::Polynomial => real == "polynomial" || real == "exponential",
            Verdict::Linear | Verdict::NotProved => true,
        };
        if !ok {
            failures.push(format!(
                "{}: rxw {} with {:?}, {} took {}",
                row.id,
                r.verdict.name(),
                a,
                exe,
                v
            ));
        }
    }
    eprintln!(
        "probed {probed} attacks on the real engines, {} not slowed down as predicted: {failures:#?}",
        failures.len()
    );
    assert!(failures.len() * 10 <= probed.max(1), "{failures:#?}");
}
