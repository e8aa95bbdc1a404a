//! `rxw explain`: text and JSON output, lints with carets, errors with exit code 2.

use assert_cmd::Command;
use rxw_testkit::rxw_without_user_files as rxw;

const WORK_ORDER: &str = r"^\[WO:(?P<wo_id>[a-f0-9-]+)\]\s+\[from\s+(?P<sender>[a-zA-Z0-9_-]+)\]\s+(?P<title>[^—\n]+?)\s*—\s*(?P<body>.+)$";

/// `rxw explain --json ARGS`, which must exit with `code`: its JSON document.
fn explain_json(args: &[&str], code: i32) -> serde_json::Value {
    rxw_testkit::run_json(rxw().args(["explain", "--json"]).args(args), code).0
}

#[test]
fn text_form_is_an_aligned_tree_with_lints() {
    let out = rxw()
        .args(["explain", r"\d{4}-\d{2}", "--flavor", "js"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with(r"\d{4}-\d{2}  In sequence:"), "{text}");
    assert_eq!(lines[1], "  \\d{4}      A digit 0-9, exactly 4 times");
    assert_eq!(lines[2], "    \\d       An ASCII digit 0-9");
    assert!(!text.contains('\x1b'));
}

#[test]
fn work_order_lint_has_a_caret() {
    let out = rxw()
        .args(["explain", WORK_ORDER, "--flavor", "python", "--flags", "ms"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let i = text
        .find("warning[greedy-dotall-swallows-lines]")
        .expect(&text);
    let tail: Vec<&str> = text[i..].lines().collect();
    assert_eq!(tail[1], format!("  {WORK_ORDER}"));
    let caret_at = tail[2].find('^').unwrap() - 2;
    let body = WORK_ORDER.find(".+)$").unwrap();
    assert_eq!(caret_at, WORK_ORDER[..body].chars().count());
    assert_eq!(tail[2].trim(), "^^^^");
}

#[test]
fn json_has_tree_nodes_and_lints() {
    let v = explain_json(&["(?P<x>a+)+$", "--flavor", "python"], 0);
    assert_eq!(v["tree"]["kind"], "sequence");
    assert_eq!(v["tree"]["span"]["end"], 11);
    let nodes = v["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["text"], "(?P<x>a+)+$");
    let kinds: Vec<&str> = nodes.iter().map(|n| n["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "sequence",
            "quantifier",
            "named-group",
            "quantifier",
            "literal",
            "anchor"
        ]
    );
    for n in nodes {
        let keys: Vec<&String> = n.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["kind", "text", "meaning", "span"]);
    }
    assert_eq!(v["lints"][0]["code"], "nested-quantifier");
    assert_eq!(v["lints"][0]["severity"], "warning");
    assert_eq!(v["lints"][0]["span"]["start"], 0);
}

#[test]
fn color_flag_paints_by_kind() {
    let out = rxw().args(["explain", "a+", "--color"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("\x1b["));
    let out = rxw()
        .args(["explain", "a+", "--color", "never"])
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout).unwrap().contains("\x1b["));
}

#[test]
fn pattern_may_start_with_a_dash() {
    rxw().args(["explain", r"-?\d+"]).assert().code(0);
}

#[test]
fn errors_exit_2_with_caret_or_json() {
    for (pat, flavor, msg) in [
        ("(ab", "python", "missing ), unterminated subpattern"),
        ("[ab", "js", "Unterminated character class"),
        (r"\q", "python", r"bad escape \q"),
        ("a**", "python", "multiple repeat"),
    ] {
        let out = rxw()
            .args(["explain", pat, "--flavor", flavor])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{pat}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with(&format!("rxw: {msg}")), "{err}");
        assert!(
            err.contains(&format!("  {pat}\n")) && err.contains('^'),
            "{err}"
        );
        let v = explain_json(&[pat, "--flavor", flavor], 2);
        assert_eq!(v["error"]["kind"], "pattern_invalid");
        assert_eq!(v["error"]["message"], msg);
        assert!(v["error"]["span"]["start"].is_u64(), "{v}");
    }
}

#[test]
fn too_complex_is_an_error() {
    let pat = "a|".repeat(5000);
    let v = explain_json(&[&pat], 2);
    assert_eq!(v["error"]["kind"], "explain_too_complex");
    assert_eq!(v["error"]["message"], "explain: pattern too complex");
}

#[test]
fn bad_flag_is_an_error() {
    rxw()
        .args(["explain", "a", "--flavor", "js", "--flags", "q"])
        .assert()
        .code(2);
}

#[test]
fn regression_js_surrogate_escape_is_explained_as_the_code_unit_written() {
    let out = Command::cargo_bin("rxw")
        .unwrap()
        .args(["explain", "--flavor", "js", r"\uD83D"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("code unit U+D83D"), "{text}");
    assert!(!text.contains("U+F003D"), "{text}");
}

#[test]
fn redos_lint_points_at_the_culprit_with_its_attack() {
    let v = explain_json(&["--flavor", "js", "^(a|a)*$"], 0);
    let lint = v["lints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["code"] == "redos")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(lint["span"], serde_json::json!({"start": 1, "end": 7}));
    let message = lint["message"].as_str().unwrap();
    assert!(message.starts_with("exponential backtracking"), "{message}");
    assert!(message.contains("\"a\" × n"), "{message}");
    let v = explain_json(&["--flavor", "js", "^(ab)*$"], 0);
    assert!(
        v["lints"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["code"] != "redos"),
        "{v}"
    );
}

/// Explain in the flavors with readers of their own says what the engine means: Ruby's and
/// Oniguruma's `\h` is a hex digit, PCRE2's a horizontal space; Ruby's `m` is dot-all; a plain
/// `-` is the character the user wrote.
#[test]
fn explain_says_each_new_flavors_meaning() {
    let explain = |flavor: &str, pattern: &str| {
        explain_json(&["--flavor", flavor, "--", pattern], 0)["tree"].clone()
    };
    for flavor in ["ruby", "oniguruma"] {
        let tree = explain(flavor, r"\h");
        let meaning = tree["meaning"].as_str().unwrap();
        assert!(meaning.contains("`A` to `F`"), "{flavor}: {meaning}");
    }
    let tree = explain("pcre2", r"\h");
    let meaning = tree["meaning"].as_str().unwrap();
    assert!(meaning.contains("a tab, a space, U+00A0"), "{meaning}");
    assert!(!meaning.contains("`A` to `F`"), "{meaning}");
    // Regression: the readers write a plain `-` as `\-` for the sre grammar, and explain
    // called it "a literal backslash".
    for flavor in ["ruby", "oniguruma", "pcre2", "java"] {
        let tree = explain(flavor, "a-b");
        let dash = &tree["children"][1];
        assert_eq!(dash["text"], "-", "{flavor}");
        assert_eq!(dash["kind"], "literal", "{flavor}: {dash}");
        assert_eq!(dash["meaning"], "The character `-`", "{flavor}: {dash}");
    }
    // Ruby's `m` flag: the dot takes a line break too.
    let out = rxw()
        .args([
            "find", "--flavor", "ruby", "--flags", "m", "--count", "--", "a.b",
        ])
        .write_stdin("a\nb\n")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
}
