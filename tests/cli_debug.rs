//! `rxw debug`: traces end on the real engine's match; growth classes as the pattern behaves.

use assert_cmd::Command;
use serde_json::Value;

/// Runs `rxw debug ARGS` without colour: its exit code and standard output.
fn debug(args: &[&str]) -> (i32, String) {
    let mut cmd = Command::cargo_bin("rxw").unwrap();
    let (code, out, _) = rxw_testkit::run(cmd.env("NO_COLOR", "1").arg("debug").args(args));
    (code, out)
}

/// Runs `rxw debug ARGS` (`--json` among them): its JSON document and exit code.
fn debug_json(args: &[&str]) -> (Value, i32) {
    let (code, out) = debug(args);
    (rxw_testkit::json_of(out.as_bytes()), code)
}

#[test]
fn python_trace_ends_on_cpythons_match() {
    // The release this test compares with CPython 3.11, named.
    let (v, code) = debug_json(&[
        "--json",
        "--flavor",
        "python@3.11",
        "(a|ab)(c|bcd)(d*)",
        "abcd",
    ]);
    assert_eq!(code, 0);
    // CPython: re.search('(a|ab)(c|bcd)(d*)', 'abcd') -> (0,4), groups 'a', 'bcd', ''.
    let m = &v["matches"][0];
    assert_eq!(m["match"], "abcd");
    assert_eq!(m["captures"], serde_json::json!(["a", "bcd", ""]));
    let trace = v["trace"].as_array().unwrap();
    assert_eq!(trace.len() as u64, v["steps"].as_u64().unwrap());
    assert_eq!(v["truncated"], false);
    let last = trace.last().unwrap();
    assert_eq!(last["op"], "match");
    assert_eq!(last["pos"], 4);
    assert!(
        trace
            .iter()
            .any(|s| s["op"].as_str().unwrap().starts_with("backtrack"))
    );
    for key in ["step", "op", "span", "pos", "depth", "captures"] {
        assert!(last.get(key).is_some(), "trace step lacks {key}");
    }
    if let Some(python) = rxw_testkit::python_release(
        "3.11",
        "the spans of the traced match are not compared with CPython's",
    ) {
        let out = std::process::Command::new(python)
            .args([
                "-c",
                "import re; m = re.search('(a|ab)(c|bcd)(d*)', 'abcd'); print(m.span(), m.groups())",
            ])
            .output()
            .unwrap();
        let s = String::from_utf8_lossy(&out.stdout);
        assert_eq!(s.trim(), "(0, 4) ('a', 'bcd', '')");
    }
}

#[test]
fn max_steps_cuts_the_trace_and_says_so() {
    let (v, _) = debug_json(&[
        "--json",
        "--max-steps",
        "5",
        "--flavor",
        "js",
        r"(\w+)\s\1",
        "abc abd abc abc",
    ]);
    assert_eq!(v["trace"].as_array().unwrap().len(), 5);
    assert_eq!(v["truncated"], true);
    assert!(v["steps"].as_u64().unwrap() > 5);
}

#[test]
fn exponential_pattern_is_classified_exponential() {
    let text = format!("{}c", "a".repeat(40));
    let (v, code) = debug_json(&["--summary", "--json", "--flavor", "python", "(a+)+b", &text]);
    assert_eq!(code, 1);
    assert_eq!(v["growth"], "exponential", "{v}");
    assert!(v["stopped"].is_string());
    assert_eq!(v["culprits"][0]["text"], "(a+)+", "{v}");
}

#[test]
fn nested_word_repeat_grows_as_it_truly_does() {
    let text = format!("{}!", "word ".repeat(30));
    let (v, _) = debug_json(&[
        "--summary",
        "--json",
        "--flavor",
        "python",
        r"(\w+\s?)+$",
        &text,
    ]);
    let g = v["growth"].as_str().unwrap();
    assert!(g == "polynomial" || g == "exponential", "{v}");
}

#[test]
fn linear_pattern_is_linear() {
    let text = "id 12 and 345, then 6789 ".repeat(200);
    let (v, code) = debug_json(&["--summary", "--json", "--flavor", "js", r"\d+", &text]);
    assert_eq!(code, 0);
    assert_eq!(v["growth"], "linear", "{v}");
    assert_eq!(v["degree"], 1);
    assert_eq!(v["per_match"].as_array().unwrap().len(), 600);
}

/// Regression: `debug --json` held every step as a JSON tree (about 2 KB a step) with no cap:
/// `--max-steps 30000000` was killed at 24 GB. The recording now stops at its cap, says so,
/// and the JSON is streamed.
#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn debug_json_caps_the_recorded_trace_and_says_so() {
    let text = "aaaaaaaaaaaaaa\n".repeat(2);
    let out = assert_cmd::Command::cargo_bin("rxw")
        .unwrap()
        .args([
            "debug",
            "--json",
            "--flavor",
            "python",
            "--max-steps",
            "30000000",
        ])
        .arg("(a|a)*c(?<=c)")
        .arg(&text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cap = rxw::cli::debug::RECORDED_STEPS_CAP;
    assert_eq!(v["trace"].as_array().unwrap().len(), cap);
    assert_eq!(v["recorded_limit"], cap);
    assert_eq!(v["cap_cut"], 30_000_000);
    assert_eq!(v["truncated"], true);
    assert!(v["steps"].as_u64().unwrap() > cap as u64);
    // Within --max-steps below the cap nothing is said.
    let out = assert_cmd::Command::cargo_bin("rxw")
        .unwrap()
        .args(["debug", "--json", "--max-steps", "5", "a+", "aaa"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cap_cut"], serde_json::Value::Null);
    assert_eq!(v["recorded_limit"], 5);
    // The text trace says it too.
    let out = assert_cmd::Command::cargo_bin("rxw")
        .unwrap()
        .args(["debug", "--flavor", "python", "--max-steps", "30000000"])
        .arg("(a|a)*c(?<=c)")
        .arg(&text)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.contains(&format!(
            "the recording stopped at its cap of {cap} steps (--max-steps 30000000"
        )),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
}

/// Regression: `rxw debug --flavor python 'a+b' aaac` ended with "6 steps in all" and no
/// verdict. A trace ends with one: no match after how many steps and attempts from which
/// positions, or the match and where, in the flavor's units (code points for Python).
#[test]
fn a_trace_ends_with_a_verdict_in_the_flavors_units() {
    let run = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("rxw")
            .unwrap()
            .env("NO_COLOR", "1")
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, out) = run(&["debug", "--flavor", "python", "a+b", "aaac"]);
    assert_eq!(code, Some(1));
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with(
            "verdict: no match (code points) after 12 steps and 3 attempts (at 0, 1, 2)"
        ),
        "{out}"
    );
    // Positions in code points: the second attempt on `ééc` starts at 1, not byte 2.
    let (_, out) = run(&["debug", "--flavor", "python", "é+b", "ééc"]);
    assert!(out.lines().last().unwrap().contains("(at 0, 1)"), "{out}");
    let (code, out) = run(&["debug", "--flavor", "python", "é+b", "xééb"]);
    assert_eq!(code, Some(0));
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("verdict: match at 1..4 (code points)"),
        "{out}"
    );
    // The same as data.
    let (_, out) = run(&["debug", "--json", "--flavor", "js", "a+b", "aaac"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["verdict"]["matched"], false);
    assert_eq!(doc["verdict"]["unit"], "UTF-16 units");
    // node tries every start, the end of the text included (sre skips those too short).
    assert_eq!(doc["verdict"]["attempts"], 5);
    assert_eq!(
        doc["verdict"]["attempt_starts"],
        serde_json::json!([0, 1, 2, 3, 4])
    );
}

/// `rxw debug` as text, without colour: the exit code and the lines.
fn debug_text(args: &[&str]) -> (Option<i32>, Vec<String>) {
    let (code, text) = debug(args);
    (Some(code), text.lines().map(str::to_string).collect())
}

/// The text trace of `x` in `flavor` on `text`, checked to say positions in `unit` and to
/// end on a match: its lines, and the position of the step that matched `x`.
fn x_found_at(flavor: &str, text: &str, unit: &str) -> (Vec<String>, usize) {
    let (code, lines) = debug_text(&["--flavor", flavor, "x", text]);
    assert_eq!(code, Some(0), "{flavor}");
    assert!(
        lines[0].contains(&format!("(pos in {unit})")),
        "{}",
        lines[0]
    );
    let x = rows(&lines)
        .into_iter()
        .find(|r| r.2 == "✓ try `x`")
        .unwrap_or_else(|| panic!("{flavor}: {lines:#?}"));
    (lines, x.1)
}

/// The step rows of a text trace: (step, pos, the rest after the mark), the mark included.
fn rows(lines: &[String]) -> Vec<(u64, usize, String)> {
    lines
        .iter()
        .skip(1)
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let step = f.next()?.parse().ok()?;
            let pos = f.next()?.parse().ok()?;
            let mark = l.find(['✓', '✗', '·'])?;
            Some((step, pos, l[mark..].to_string()))
        })
        .collect()
}

/// The failed steps of a JSON trace: (step, unit_pos, action).
fn failed_steps(v: &Value) -> Vec<(u64, u64, String)> {
    v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["outcome"] == "failed")
        .map(|s| {
            (
                s["step"].as_u64().unwrap(),
                s["unit_pos"].as_u64().unwrap(),
                s["action"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Regression: `rxw debug --flavor python 'a+b' aaac` showed six rows that said neither what
/// they tried nor that they failed, and the verdict named `a+`, which had succeeded. Each
/// give-back and each try of `b` is a step now, the failing ones marked, and the verdict names
/// the last one.
#[test]
fn a_search_that_finds_nothing_marks_its_failing_steps() {
    let (code, lines) = debug_text(&["--flavor", "python", "a+b", "aaac"]);
    assert_eq!(code, Some(1));
    let failing: Vec<(u64, usize, String)> = rows(&lines)
        .into_iter()
        .filter(|r| r.2.starts_with('✗'))
        .collect();
    let steps: Vec<u64> = failing.iter().map(|r| r.0).collect();
    assert_eq!(steps, [2, 3, 4, 7, 8, 11], "{lines:#?}");
    assert_eq!(failing[0].2, "✗ try `b`: failed, found `c`");
    assert_eq!(
        failing[1].2,
        "✗ give back one `a`, then try `b`: failed, found `a`"
    );
    assert_eq!((failing[1].1, failing[2].1), (2, 1));
    let verdict = lines.last().unwrap();
    assert!(
        verdict.starts_with("verdict: no match (code points)"),
        "{verdict}"
    );
    assert!(
        verdict.contains("the last failing step was step 11, try `b` at 3 (found `c`)"),
        "{verdict}"
    );
    let (v, code) = debug_json(&["--json", "--flavor", "python", "a+b", "aaac"]);
    assert_eq!(code, 1);
    let failed = failed_steps(&v);
    assert_eq!(
        failed.iter().map(|f| f.0).collect::<Vec<_>>(),
        [2, 3, 4, 7, 8, 11]
    );
    assert_eq!(v["verdict"]["last_failed_step"], 11);
    assert_eq!(v["verdict"]["matched"], false);
    // The fields there were before are all still there.
    for key in [
        "step",
        "op",
        "span",
        "pc",
        "pos",
        "depth",
        "backtrack",
        "captures",
    ] {
        assert!(v["trace"][3].get(key).is_some(), "a step lacks {key}");
    }
    assert_eq!(v["trace"][3]["op"], "backtrack to char");
    assert_eq!(v["trace"][3]["resume"], "give_back");
    assert_eq!(v["trace"][2]["result"], "found `c`");
    assert_eq!(v["trace"][5]["action"], "retry from position 1");
}

/// Regression: on `ééc` the greedy `é+` gave back to where `b` could not start inside one
/// step, so the failed `b` after it was never a step. It is one now, at code point 2.
#[test]
fn the_failing_b_after_a_run_of_two_byte_characters_is_a_step_at_code_point_2() {
    let (code, lines) = debug_text(&["--flavor", "python", "é+b", "ééc"]);
    assert_eq!(code, Some(1));
    assert!(lines[0].contains("(pos in code points)"), "{}", lines[0]);
    let rows = rows(&lines);
    let b = rows
        .iter()
        .find(|r| r.2 == "✗ try `b`: failed, found `c`")
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert_eq!(b.1, 2);
    let (v, _) = debug_json(&["--json", "--flavor", "python", "é+b", "ééc"]);
    let step = v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["action"] == "try `b`")
        .unwrap();
    assert_eq!(step["outcome"], "failed");
    assert_eq!(step["unit_pos"], 2);
    assert_eq!(step["pos"], 4, "pos stays in bytes");
    assert_eq!(v["verdict"]["unit"], "code points");
}

#[test]
fn a_greedy_loop_gives_back_one_character_per_step() {
    // Nothing to give back: `b` follows the run.
    let (v, code) = debug_json(&["--json", "--flavor", "python", "a+b", "aaab"]);
    assert_eq!(code, 0);
    assert!(failed_steps(&v).is_empty(), "{v}");
    // `a+ab` must give one `a` back for the `a` after it.
    let (code, lines) = debug_text(&["--flavor", "python", "a+ab", "aaab"]);
    assert_eq!(code, Some(0));
    let said: Vec<String> = rows(&lines).into_iter().map(|r| r.2).collect();
    assert!(
        said.contains(&"✗ try `a`: failed, found `b`".to_string()),
        "{said:#?}"
    );
    assert!(
        said.contains(&"✓ give back one `a`, then try `a`".to_string()),
        "{said:#?}"
    );
}

/// Regression: `rxw debug --flavor python 'a+?b' aaab` went from 0 to 3 in one step. Each
/// extension of the lazy loop is a step, and so is each failed try of `b` before it.
#[test]
fn a_lazy_loop_is_extended_one_step_at_a_time() {
    let (code, lines) = debug_text(&["--flavor", "python", "a+?b", "aaab"]);
    assert_eq!(code, Some(0));
    let ext: Vec<(usize, String)> = rows(&lines)
        .into_iter()
        .filter(|r| r.2.contains("extend the lazy `a+?` by one"))
        .map(|r| (r.1, r.2))
        .collect();
    assert_eq!(
        ext,
        [
            (
                2,
                "✗ extend the lazy `a+?` by one, then try `b`: failed, found `a`".to_string()
            ),
            (
                3,
                "✓ extend the lazy `a+?` by one, then try `b`".to_string()
            ),
        ],
        "{lines:#?}"
    );
    let (v, _) = debug_json(&["--json", "--flavor", "python", "a+?b", "aaab"]);
    let resumed: Vec<&str> = v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["resume"].as_str())
        .collect();
    assert_eq!(resumed, ["lazy_extend", "lazy_extend"]);
}

#[test]
fn an_alternation_tries_the_next_alternative() {
    let (code, lines) = debug_text(&["--flavor", "python", "ab|cd", "cd"]);
    assert_eq!(code, Some(0));
    let said: Vec<(usize, String)> = rows(&lines).into_iter().map(|r| (r.1, r.2)).collect();
    assert!(
        said.contains(&(0, "✗ try `a`: failed, found `c`".to_string())),
        "{said:#?}"
    );
    assert!(
        said.contains(&(
            0,
            "✓ try the next alternative of `ab|cd`, then try `c`".to_string()
        )),
        "{said:#?}"
    );
    // sre's parser hoists the common prefix of `ab|ac` (`a(?:b|c)`) and makes the single
    // characters left a class: CPython tries `a` once and never backs into a next alternative.
    let (code, lines) = debug_text(&["--flavor", "python", "ab|ac", "ac"]);
    assert_eq!(code, Some(0));
    let said: Vec<String> = rows(&lines).into_iter().map(|r| r.2).collect();
    assert!(
        !said.iter().any(|s| s.contains("next alternative")),
        "{said:#?}"
    );
    assert_eq!(
        said.iter().filter(|s| s.as_str() == "✓ try `a`").count(),
        1,
        "{said:#?}"
    );
    // node also tries at the end of the text, after the match: a second attempt, with its
    // own next alternative.
    let (v, _) = debug_json(&["--json", "--flavor", "js", "ab|ac", "ac"]);
    let resumed: Vec<(u64, &str)> = v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| Some((s["unit_pos"].as_u64()?, s["resume"].as_str()?)))
        .collect();
    assert_eq!(resumed, [(0, "next_alternative"), (2, "next_alternative")]);
}

#[test]
fn javascript_steps_count_utf16_units() {
    let (lines, x_at) = x_found_at("js", "😀éx", "UTF-16 units");
    assert_eq!(x_at, 3, "😀 is two units, é one");
    // The second unit of 😀 is tried on its own, and said so.
    assert!(
        rows(&lines)
            .iter()
            .any(|r| r.1 == 1 && r.2 == "✗ try `x`: failed, found the second half of `😀`"),
        "{lines:#?}"
    );
    let (v, _) = debug_json(&["--json", "--flavor", "js", "x", "😀éx"]);
    assert_eq!(
        v["verdict"]["attempt_starts"],
        serde_json::json!([0, 1, 2, 3, 4])
    );
    let last = v["trace"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["action"] == "try `x`" && s["outcome"] == "succeeded")
        .unwrap();
    assert_eq!(
        (last["unit_pos"].as_u64(), last["pos"].as_u64()),
        (Some(3), Some(6))
    );
}

#[test]
fn rust_steps_count_bytes() {
    assert_eq!(x_found_at("rust", "éx", "bytes").1, 2);
    // Python counts the same position in code points.
    assert_eq!(x_found_at("python", "éx", "code points").1, 1);
}

/// The debugger in the flavors with readers of their own counts in their engines' units:
/// PCRE2 and Oniguruma in bytes, Ruby in characters; the verdict says the unit and where each
/// attempt started.
#[test]
fn pcre2_and_oniguruma_steps_count_bytes_ruby_steps_count_characters() {
    for (flavor, unit, x_at, attempts) in [
        ("pcre2", "bytes", 2, "(at 4, 5)"),
        ("oniguruma", "bytes", 2, "(at 4, 5)"),
        ("ruby", "code points", 1, "(at 2, 3)"),
    ] {
        assert_eq!(x_found_at(flavor, "éx", unit).1, x_at, "{flavor}");
        let (code, lines) = debug_text(&["--flavor", flavor, "a+b", "ééaac"]);
        assert_eq!(code, Some(1), "{flavor}");
        let last = lines.last().unwrap();
        assert!(
            last.starts_with(&format!(
                "verdict: no match ({unit}) after 7 steps and 2 attempts {attempts}"
            )),
            "{flavor}: {last}"
        );
    }
}

/// The debugger runs each flavor's own constructs: `\h` is a hex digit in Ruby, a horizontal
/// space in PCRE2; the match and its spans are given in the engine's unit beside bytes.
#[test]
fn the_debugger_runs_each_new_flavors_own_h() {
    let (v, code) = debug_json(&["--json", "--flavor", "ruby", r"\h+", "é xaF"]);
    assert_eq!(code, 0);
    assert_eq!(v["matches"][0]["match"], "aF");
    assert_eq!(v["verdict"]["unit"], "code points");
    assert_eq!(v["verdict"]["first_match"], serde_json::json!([3, 5]));
    assert_eq!(
        v["matches"][0]["spans"]["bytes"],
        serde_json::json!([[4, 6]])
    );
    let (v, code) = debug_json(&["--json", "--flavor", "pcre2", r"\h+", "é \txaF"]);
    assert_eq!(code, 0);
    assert_eq!(v["matches"][0]["match"], " \t");
    assert_eq!(v["verdict"]["unit"], "bytes");
    assert_eq!(v["verdict"]["first_match"], serde_json::json!([2, 4]));
}

/// A backtracking trace in Ruby ends on Ruby's own match: `(a|ab)(c|bcd)(d*)` takes `a`, fails
/// `c`, backtracks into the second alternative; the groups are Ruby's.
#[test]
fn ruby_trace_backtracks_and_ends_on_rubys_match() {
    let (v, code) = debug_json(&["--json", "--flavor", "ruby", "(a|ab)(c|bcd)(d*)", "abcd"]);
    assert_eq!(code, 0);
    let m = &v["matches"][0];
    assert_eq!(m["match"], "abcd");
    assert_eq!(m["captures"], serde_json::json!(["a", "bcd", ""]));
    let trace = v["trace"].as_array().unwrap();
    assert!(
        trace
            .iter()
            .any(|s| s["op"].as_str().unwrap().starts_with("backtrack")),
        "{trace:#?}"
    );
    assert_eq!(trace.last().unwrap()["op"], "match");
    if let Some(ruby) = rxw_testkit::ruby_oracle() {
        let out = std::process::Command::new(ruby)
            .args([
                "-e",
                "m = /(a|ab)(c|bcd)(d*)/.match('abcd'); p [m.offset(0), m.captures]",
            ])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            r#"[[0, 4], ["a", "bcd", ""]]"#
        );
    }
}
