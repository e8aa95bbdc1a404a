//! The single-character case-folding matrix: every BMP character that has a case mapping, as a
//! case-insensitive pattern (a literal and a one-member class), against every such character,
//! compared with the real engine of each flavor. node decides JavaScript (`Canonicalize`
//! without `u`: upper case through one code unit, never from non-ASCII to ASCII; with `u`:
//! simple case folding), CPython decides Python (lower cases plus the characters sharing an
//! upper case). When an interpreter is missing, its half is skipped with a loud notice.

mod common;

use rxw_engine::Regex;
use rxw_syntax::flavor::{Flags, Flavor};
use serde_json::{Value, json};

// Each oracle keeps the candidates that are cased in its own Unicode version, writes each as
// a literal and as a one-member class, and reports where each pattern matches in the text of
// all kept characters (as character indices; every character is in the BMP).
const NODE_MATRIX: &str = r#"
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const chars = input.chars.filter((c) => {
  const s = String.fromCodePoint(c);
  return s.toLowerCase() !== s || s.toUpperCase() !== s;
});
const text = String.fromCodePoint(...chars);
const results = chars.flatMap((c) => {
  const esc = "\\u" + c.toString(16).toUpperCase().padStart(4, "0");
  return [esc, "[" + esc + "]"].map((p) =>
    [...text.matchAll(new RegExp(p, input.flags + "g"))].map((m) => m.index));
});
process.stdout.write(JSON.stringify({ chars, results }));
"#;

const PYTHON_MATRIX: &str = r#"
import json, re, sys
inp = json.load(sys.stdin)
chars = [c for c in inp["chars"] if chr(c).lower() != chr(c) or chr(c).upper() != chr(c)]
text = "".join(map(chr, chars))
flags = re.I if "i" in inp["flags"] else 0
results = []
for c in chars:
    esc = "\\u%04X" % c
    for p in (esc, "[" + esc + "]"):
        results.append([m.start() for m in re.finditer(p, text, flags)])
json.dump({"chars": chars, "results": results}, sys.stdout)
"#;

// A case-insensitive backreference to each kept character, on the text of that character
// paired with every kept character: where it matches, node's backreference takes the second
// member of the pair as equal to the first (indices in UTF-16 code units, all in the BMP).
const NODE_BACKREFS: &str = r#"
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const chars = input.chars.filter((c) => {
  const s = String.fromCodePoint(c);
  return s.toLowerCase() !== s || s.toUpperCase() !== s;
});
const results = chars.map((c) => {
  const esc = "\\u" + c.toString(16).toUpperCase().padStart(4, "0");
  const text = chars.map((d) => String.fromCodePoint(c, d)).join("");
  return [...text.matchAll(new RegExp("(" + esc + ")\\1", input.flags + "g"))].map((m) => m.index);
});
process.stdout.write(JSON.stringify({ chars, results }));
"#;

/// BMP characters with a lower- or upper-case mapping other than themselves, among those the
/// `regex` crate's Unicode tables know (a character added in a later Unicode version than
/// theirs folds differently only because of the version).
fn cased_chars() -> Vec<u32> {
    let unassigned = rxw_engine::vm::charset::from_regex_syntax(r"\p{Cn}").expect("a table");
    (0..=0xFFFFu32)
        .filter(|&c| !unassigned.contains(c))
        .filter_map(char::from_u32)
        .filter(|&c| {
            let lower: String = c.to_lowercase().collect();
            let upper: String = c.to_uppercase().collect();
            lower != c.to_string() || upper != c.to_string()
        })
        .map(|c| c as u32)
        .collect()
}

/// The oracle `script` run by `cmd` on the [`cased_chars`] with `flags`: the characters cased
/// in both Unicode versions, in the oracle's order, and its results; `None` when it cannot run.
fn ask(cmd: &str, script: &str, flags: &str) -> Option<(Vec<char>, Vec<Value>)> {
    let input = json!({ "chars": cased_chars(), "flags": flags });
    let answer = common::oracle(cmd, script, &input)?;
    let chars: Vec<char> = answer["chars"]
        .as_array()
        .expect("the kept characters")
        .iter()
        .map(|c| char::from_u32(c.as_u64().unwrap() as u32).unwrap())
        .collect();
    assert!(chars.len() > 2_000, "{} cased characters", chars.len());
    let results = answer["results"].as_array().expect("a list of results");
    Some((chars, results.clone()))
}

fn matrix(flavor: Flavor, flags: &str, cmd: &str, script: &str) {
    let Some((chars, expected)) = ask(cmd, script, flags) else {
        return;
    };
    let text: String = chars.iter().collect();
    // Byte offset -> character index.
    let mut index_of = std::collections::HashMap::new();
    for (i, (b, _)) in text.char_indices().enumerate() {
        index_of.insert(b, i);
    }
    let patterns: Vec<String> = chars
        .iter()
        .flat_map(|&c| {
            let esc = format!("\\u{:04X}", c as u32);
            [esc.clone(), format!("[{esc}]")]
        })
        .collect();
    assert_eq!(expected.len(), patterns.len());
    let parsed = Flags::parse(flags, flavor).expect("flags");
    let mut mismatches = Vec::new();
    for (p, want) in patterns.iter().zip(&expected) {
        let re = Regex::new(p, flavor, parsed).expect("pattern compiles");
        let got: Vec<Value> = re
            .find_all(&text, None)
            .expect("search")
            .iter()
            .map(|m| json!(index_of[&m.start()]))
            .collect();
        if &Value::from(got.clone()) != want {
            let show = |v: &[Value]| -> String {
                v.iter()
                    .map(|i| format!("U+{:04X}", chars[i.as_u64().unwrap() as usize] as u32))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            mismatches.push(format!(
                "/{p}/{flags}: rxw [{}], {cmd} [{}]",
                show(&got),
                show(want.as_array().unwrap())
            ));
        }
    }
    let summary = format!(
        "{flavor} /…/{flags}: {} patterns over {} characters",
        patterns.len(),
        chars.len()
    );
    common::assert_no_mismatches(&summary, &format!(" with {cmd}"), &mismatches, 40);
}

/// Regression: JavaScript `i` without `u` on the linear engine folded with Unicode simple
/// case folding, so `/k/i` matched the Kelvin sign, `s` matched `ſ`, `ß` matched `ẞ`.
#[test]
fn js_ignore_case_without_u_matches_node_on_every_cased_character() {
    let Some(node) = plain_node() else { return };
    matrix(Flavor::JS, "i", &node, NODE_MATRIX);
}

#[test]
fn js_ignore_case_with_u_matches_node_on_every_cased_character() {
    let Some(node) = plain_node() else { return };
    matrix(Flavor::JS, "iu", &node, NODE_MATRIX);
}

/// Runs [`NODE_BACKREFS`] with `flags` and compares rxw's matches with node's.
fn backref_matrix(flags: &str) {
    let Some(node) = plain_node() else { return };
    let Some((chars, results)) = ask(&node, NODE_BACKREFS, flags) else {
        return;
    };
    let parsed = Flags::parse(flags, Flavor::JS).expect("flags");
    let mut mismatches = Vec::new();
    for (&c, want) in chars.iter().zip(&results) {
        let text: String = chars.iter().flat_map(|&d| [c, d]).collect();
        let pattern = format!("(\\u{:04X})\\1", c as u32);
        let re = Regex::new(&pattern, Flavor::JS, parsed).expect("pattern compiles");
        // Every character is in the BMP: a UTF-16 index is the character index.
        let got: Vec<Value> = re
            .find_all(&text, None)
            .expect("search")
            .iter()
            .map(|m| json!(text[..m.start()].chars().count()))
            .collect();
        if &Value::from(got.clone()) != want {
            mismatches.push(format!("/{pattern}/{flags}: rxw {got:?}, node {want}"));
        }
    }
    let summary = format!("js backreferences /…/{flags}: {} characters", chars.len());
    common::assert_no_mismatches(&summary, " with node", &mismatches, 20);
}

/// Regression: a case-insensitive backreference under `u` compared lower cases, so `(s)\1`
/// missed `sſ` and `(ς)\1` missed `ςσ`, where node compares simple case foldings.
#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn js_backreferences_with_u_fold_as_node_on_every_cased_character() {
    backref_matrix("iu");
    backref_matrix("iv");
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn js_backreferences_without_u_fold_as_node_on_every_cased_character() {
    backref_matrix("i");
}

/// Regression: Python `i` on the linear engine missed `ı` and `İ` for `i` (CPython folds
/// through lower cases and shared upper cases).
#[test]
fn python_ignore_case_matches_cpython_on_every_cased_character() {
    let release = Flavor::PYTHON.py_version().expect("a Python flavor");
    let Some(python) = common::python_release(
        release.number(),
        "plain python's case folding is not compared with its CPython",
    ) else {
        return;
    };
    matrix(Flavor::PYTHON, "i", &python, PYTHON_MATRIX);
}

/// The node of the release plain `js` names: the engine each JavaScript matrix compares with.
fn plain_node() -> Option<String> {
    let release = Flavor::JS.node_version().expect("a JavaScript flavor");
    common::node_release(
        u32::from(release.major()),
        "plain js's case folding is not compared with its node",
    )
}
