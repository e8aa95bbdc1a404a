//! Differential test of the `re2` flavor against RE2 itself, as the `google-re2` package runs
//! it (`tests/oracle/re2_oracle.py`): each case (pattern, text, optional `RE2::Rewrite`
//! template) runs through RE2 and through rxw. They must agree on whether the pattern compiles
//! and, if not, on RE2's error text; on every match of RE2's own find-all loop (the one of
//! `RE2::GlobalReplace`: byte offsets of the match and of every group, unset groups included);
//! on the group names; and on the rewritten text or the template's error. A pattern rxw
//! refuses as a construct it cannot reproduce (`\C`, a program size only RE2's compiler can
//! judge) or past its own limits is counted and listed apart, never passed as agreement. A
//! missing oracle is said loudly and the test skipped (under `RXW_REQUIRE_ORACLES=1` it fails).

mod common;

use rxw_engine::Limits;
use rxw_syntax::flavor::{Flags, Flavor};
use serde_json::{Value, json};

// PATTERNS and TEXTS: the RE2 grammar cases Go and RE2 share.
include!("data/re2_family.rs");

/// `RE2::Rewrite` templates tried on every compiled pattern: groups, the whole match, a
/// backslash, and the three refusals.
const REWRITES: &[&str] = &["<\\0>", "[\\1|\\2\\\\x]", "\\9", "a\\q", "end\\"];

/// rxw's answer in the oracle's shape.
fn rxw_answer(pattern: &str, text: &str, rewrite: Option<&str>) -> Value {
    let (re, matches) = match common::compile_and_find(pattern, Flavor::Re2, Flags::default(), text)
    {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let flat: Vec<Value> = matches
        .iter()
        .map(|m| rxw_testkit::flat_spans(&m.groups))
        .collect();
    // The package names a repeated name's first group only (`groupindex`); so does this.
    let mut names = vec![String::new()];
    for n in re.group_names() {
        let n = n.clone().unwrap_or_default();
        names.push(if names.contains(&n) { String::new() } else { n });
    }
    let mut out = json!({ "names": names, "global": flat });
    if let Some(t) = rewrite {
        match re.replace(text, t, None, &Limits::human()) {
            Ok(r) => out["rewritten"] = Value::from(r.result),
            Err(e) => out["rewrite_error"] = Value::from(e.message),
        }
    }
    out
}

#[test]
fn the_re2_flavor_agrees_with_re2() {
    let Some(_) = rxw_testkit::re2_oracle() else {
        // `re2_oracle` has said so (and failed the test under the strict switch).
        return;
    };
    // With the hand-written corpus (data/record_re2_cases.py); its package-`sub` templates
    // are not RE2's, so its cases are asked for matches only.
    let mut cases = family_cases(
        REWRITES,
        "rewrite",
        include_str!("data/re2_cases.jsonl"),
        500,
    );
    for c in &mut cases {
        c.as_object_mut().expect("an object").remove("replace");
    }
    let answers = rxw_testkit::re2_oracle_answers(&cases);
    assert_eq!(answers.len(), cases.len(), "one answer a case");
    let mut tally = common::Tally::default();
    let keys = ["names", "global", "rewritten", "rewrite_error"];
    for (c, want) in cases.iter().zip(&answers) {
        let pattern = c["pattern"].as_str().unwrap();
        let text = c["text"].as_str().unwrap();
        let rewrite = c.get("rewrite").and_then(Value::as_str);
        let got = rxw_answer(pattern, text, rewrite);
        let label = format!("{pattern:?} on {text:?} rewrite {rewrite:?}");
        tally.add(&label, "RE2", &got, want, &keys);
    }
    eprintln!(
        "re2 ({}): {} of {} cases agree with RE2, {} refused by rxw:\n  {}",
        rxw_testkit::re2_oracle_version().unwrap_or_default(),
        tally.agree,
        cases.len(),
        tally.refused.len(),
        tally.refused.join("\n  ")
    );
    // By pattern: `\C` (9 patterns), the program-size probes around RE2's limit (4) and the
    // deepest nesting (2), and a lone surrogate escape (1).
    let patterns = tally.refused_patterns(" on ");
    assert!(
        patterns.len() <= 16,
        "{} patterns refused: {patterns:?}",
        patterns.len()
    );
    tally.assert_none_wrong("RE2");
}
