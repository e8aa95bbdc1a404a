//! `rxw redos`: the verdict, its JSON document, the caret under the culprit and the exit codes.

use assert_cmd::Command;
use serde_json::Value;

fn redos(args: &[&str]) -> (String, i32) {
    let out = Command::cargo_bin("rxw")
        .unwrap()
        .arg("redos")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap(),
    )
}

fn redos_json(args: &[&str]) -> (Value, i32) {
    let (out, code) = redos(&[&["--json"], args].concat());
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (v, code)
}

#[test]
fn exponential_pattern_exits_1_with_the_documented_json_shape() {
    let (v, code) = redos_json(&["--flavor", "python", "--", "^(a+)+$"]);
    assert_eq!(code, 1);
    assert_eq!(v["verdict"], "exponential");
    assert_eq!(v["degree"], Value::Null);
    assert_eq!(v["attack"]["pump"], "a");
    assert!(v["attack"]["prefix"].is_string() && v["attack"]["suffix"].is_string());
    assert_eq!(v["span"], serde_json::json!({"start": 1, "end": 6}));
    let steps = v["steps"].as_array().unwrap();
    assert!(steps.len() >= 3);
    for s in steps {
        assert!(s["n"].is_u64() && s["steps"].is_u64(), "{s}");
    }
    assert!(v["reason"].as_str().unwrap().contains("(a+)+"));
}

#[test]
fn polynomial_pattern_reports_its_degree() {
    let (v, code) = redos_json(&["--flavor", "js", "--", r"^\d+\d+$"]);
    assert_eq!(code, 1);
    assert_eq!(v["verdict"], "polynomial");
    assert_eq!(v["degree"], 2);
}

#[test]
fn linear_pattern_exits_0_with_no_attack() {
    let (v, code) = redos_json(&["--flavor", "python", "--", r"^\w+@\w+\.com$"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "linear");
    assert_eq!(v["attack"], Value::Null);
    let (v, code) = redos_json(&["--flavor", "rust", "--", "(a+)+$"]);
    assert_eq!(code, 0);
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("linear by construction")
    );
}

#[test]
fn invalid_pattern_exits_2_with_one_json_document() {
    let (v, code) = redos_json(&["--flavor", "python", "--", "(a+"]);
    assert_eq!(code, 2);
    assert!(v["error"].is_object() || v["error"].is_string(), "{v}");
}

#[test]
fn human_output_draws_a_caret_under_the_culprit_and_escapes_the_attack() {
    let (out, code) = redos(&["--flavor", "python", "--color", "never", "--", r"x(\s*)*$"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_end() == r"  x(\s*)*$")
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(lines[at + 1].trim_end(), "   ^^^^^^");
    let attack = lines.iter().find(|l| l.starts_with("attack:")).unwrap();
    // The pump is a space or a tab; either way it is printed so it can be seen.
    assert!(attack.contains("\" × n"), "{attack}");
    assert!(!out.contains('\t'), "control characters are escaped: {out}");
}

/// The backtracking flavors with readers of their own get measured verdicts with an attack,
/// the culprit's span in the pattern as written: PCRE2, Ruby and Oniguruma.
#[test]
fn pcre2_ruby_and_oniguruma_patterns_get_verdicts_with_attacks() {
    for flavor in ["pcre2", "ruby", "oniguruma"] {
        let (v, code) = redos_json(&["--flavor", flavor, "--", r"(?<w>a+)+\z"]);
        assert_eq!(code, 1, "{flavor}: {v}");
        assert_eq!(v["verdict"], "exponential", "{flavor}");
        assert_eq!(v["attack"]["pump"], "a", "{flavor}");
        // `(?<w>a+)+`: the span is the reader flavor's own text, not its sre rewrite.
        assert_eq!(
            v["span"],
            serde_json::json!({"start": 0, "end": 9}),
            "{flavor}"
        );
        let (v, code) = redos_json(&["--flavor", flavor, "--", r"\Ab+c"]);
        assert_eq!(code, 0, "{flavor}: {v}");
        assert_eq!(v["verdict"], "linear", "{flavor}");
        // Polynomial: two adjacent loops over the same characters.
        let (v, code) = redos_json(&["--flavor", flavor, "--", r"\A\d+\d+\z"]);
        assert_eq!(code, 1, "{flavor}: {v}");
        assert_eq!(v["verdict"], "polynomial", "{flavor}");
        assert_eq!(v["degree"], 2, "{flavor}");
    }
}
