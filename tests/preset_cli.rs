//! `rxw preset …` and `rxw parse` end to end, with a scrubbed config directory.

mod common;
use common::{fails_saying, lifecycle_log, run, run_fresh, run_json, rxw, temp_file, write_file};

#[test]
fn preset_check_passes_the_shipped_examples_and_flags_two_polynomial_presets() {
    // Every example and counter-example of the shipped registry passes; the ReDoS check finds
    // two presets polynomial on CPython: work_order (its `\]\s+`, lazy title and `\s*` all
    // match the spaces of a line without its em dash) and tool_call (`\{.*?\}` scans to the
    // end of the line from every `[TOOL x {` that is never closed).
    let (code, out, err) = run_fresh(&["preset", "check"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("ok    ack counter-example 1: [ack 7fce46e0]"),
        "{out}"
    );
    let failed: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(failed.len(), 2, "{out}");
    assert!(
        failed[0].starts_with("FAIL  work_order redos polynomial"),
        "{out}"
    );
    assert!(
        failed[1].starts_with("FAIL  tool_call redos polynomial"),
        "{out}"
    );
    assert!(out.contains("ok    ack redos linear"), "{out}");
    assert!(out.trim_end().ends_with(" passed, 2 failed"), "{out}");
}

#[test]
fn preset_check_json_carries_each_presets_redos_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let (v, _) = run_json(rxw(dir.path()).args(["preset", "check", "--json"]), 1);
    let redos: Vec<&serde_json::Value> = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "redos")
        .collect();
    assert_eq!(redos.len(), 12);
    for c in &redos {
        let expected = if c["key"] == "work_order" || c["key"] == "tool_call" {
            "polynomial"
        } else {
            "linear"
        };
        assert_eq!(c["redos"]["verdict"], expected, "{c}");
    }
    let wo = redos.iter().find(|c| c["key"] == "work_order").unwrap();
    assert_eq!(wo["redos"]["degree"], 3, "{wo}");
    assert!(wo["redos"]["attack"]["pump"].is_string());
}

#[test]
fn preset_check_fails_a_vulnerable_preset() {
    let (dir, reg) = temp_file(
        "evil.toml",
        r#"[[preset]]
key = "evil"
flavor = "js"
pattern = '^(a+)+$'
[[preset.examples]]
text = "aaa"
"#,
    );
    let (code, out, _) = run(rxw(dir.path())
        .args(["preset", "check", "--registry"])
        .arg(&reg));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("ok    evil example 1: aaa"), "{out}");
    assert!(out.contains("FAIL  evil redos exponential"), "{out}");
}

#[test]
fn preset_check_fails_on_a_wrong_example() {
    let (dir, reg) = temp_file(
        "mine.toml",
        "[[preset]]\nkey = \"num\"\nflavor = \"python\"\npattern = '(?P<n>[0-9]+)'\ngroups = [{ name = \"n\", description = \"digits\" }]\ncounter_examples = [\"a1\"]\n[[preset.examples]]\ntext = \"x 42\"\ngroups = { n = \"43\" }\n",
    );
    let (code, out, _) = run(rxw(dir.path())
        .args(["preset", "check", "--registry"])
        .arg(&reg));
    assert_eq!(code, 1);
    assert!(
        out.contains("FAIL  num example 1: x 42\n      group n is \"42\", expected \"43\""),
        "{out}"
    );
    assert!(
        out.contains("FAIL  num counter-example 1: a1\n      matched \"1\" at byte 1"),
        "{out}"
    );
}

#[test]
fn list_show_get_and_test() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, _) = run(rxw(dir.path()).args(["preset", "list"]));
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 13);
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .starts_with("work_order       python@3.11  ms     Parses [WO:"),
        "{out}"
    );

    let (_, out, _) = run(rxw(dir.path()).args(["preset", "list", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 12);
    assert_eq!(v[3]["key"], "result");
    assert_eq!(v[3]["flags"], "s");
    assert_eq!(v[3]["origin"], "built-in");

    let (code, out, _) = run(rxw(dir.path()).args(["preset", "show", "nudge"]));
    assert_eq!(code, 0);
    // The registry names the release it was written for.
    assert!(out.contains("flavor   python@3.11"));
    assert!(
        out.contains("   4  deadline  The SLA deadline, H:MM or HH:MM."),
        "{out}"
    );

    let (_, out, _) = run(rxw(dir.path()).args(["preset", "get", "work_order", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["flags"], "ms");
    assert_eq!(v["flavor"], "python@3.11");
    assert_eq!(v["groups"][0]["name"], "wo_id");
    assert_eq!(v["examples"][0]["groups"]["sender"], "super");

    let (code, out, _) = run(rxw(dir.path()).args([
        "preset",
        "test",
        "result",
        "[RESULT 7fce46e0] OK Task complete",
    ]));
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "match at 1:1: [RESULT 7fce46e0] OK Task complete\n  job_id   \"7fce46e0\"\n  status   \"OK\"\n  summary  \"Task complete\"\n"
    );
    let (code, out, _) = run(rxw(dir.path())
        .args(["preset", "test", "ack"])
        .write_stdin("[ack 7fce46e0]\n"));
    assert_eq!((code, out.as_str()), (1, "no match\n"));
    fails_saying(
        rxw(dir.path()).args(["preset", "test", "wo", "x"]),
        "unknown preset \"wo\" (known: work_order, ack",
    );
}

#[test]
fn parse_json_shape_is_pinned() {
    let text = "[CLAIM 7fce46e0] é [fleet-alert] INFO: ok";
    let (code, out, _) = run_fresh(&["parse", "--json", "--text", text]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim_end(),
        r#"[{"key":"verb","index":0,"end":16,"match":"[CLAIM 7fce46e0]","groups":{"verb":"CLAIM","job_id":"7fce46e0"}},{"key":"short_hex","index":7,"end":15,"match":"7fce46e0","groups":{}},{"key":"fleet_alert","index":20,"end":42,"match":"[fleet-alert] INFO: ok","groups":{"level":"INFO","message":"ok"}}]"#
    );
}

#[test]
fn parse_text_only_and_count() {
    let dir = tempfile::tempdir().unwrap();
    let log = "[JOB swarm-99a/1]\n[RESULT 7fce46e0] OK 14 endpoints healthy\n";
    let (code, out, _) = run(rxw(dir.path()).arg("parse").write_stdin(log));
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r#"1:1: job_tag [JOB swarm-99a/1]  job_id="swarm-99a/1""#
    );
    assert_eq!(
        lines[1],
        r#"1:1: swarm_slot [JOB swarm-99a/1]  tag="JOB"  swarm="swarm-99a"  slot="1""#
    );
    assert!(lines[2].starts_with("2:1: verb [RESULT 7fce46e0]"), "{out}");

    let (code, out, _) = run(rxw(dir.path())
        .args(["parse", "--only", "result,job_tag", "--count", "--json"])
        .write_stdin(log));
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        r#"{"count":2,"by_key":{"result":1,"job_tag":1}}"#
    );

    let (code, out, _) = run(rxw(dir.path()).args(["parse", "--count", "--text", "nothing here"]));
    assert_eq!((code, out.as_str()), (1, "0\n"));

    fails_saying(
        rxw(dir.path()).args(["parse", "--only", "nope", "--text", "x"]),
        "unknown preset \"nope\"",
    );
}

fn with_registry(body: &str, name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, body).unwrap();
    (dir, path)
}

#[test]
fn malformed_registry_given_with_registry_is_an_error_that_says_where() {
    let cases = [
        (
            "[[preset]]\nkey = \"k\nflavor = \"python\"\n",
            "bad.toml:2:",
        ),
        (
            "[[preset]]\nkey = \"k\"\nflavor = \"python\"\nflags = \"mq\"\npattern = 'a'\n",
            "bad.toml:4:11: invalid flag \"q\" for python",
        ),
        (
            "[[preset]]\nkey = \"k\"\nflavor = \"python\"\npattern = 'ab(c'\n",
            "bad.toml:4:14: pattern does not compile: missing ), unterminated subpattern",
        ),
        (
            "[[preset]]\nkey = \"k\"\nflavor = \"python\"\npattern = 'a'\n[[preset]]\nkey = \"k\"\nflavor = \"python\"\npattern = 'b'\n",
            "bad.toml:6:7: duplicate key \"k\" (first defined on line 2)",
        ),
    ];
    for (body, want) in cases {
        let (dir, path) = with_registry(body, "bad.toml");
        let (code, out, err) = run(rxw(dir.path())
            .args([
                "preset",
                "test",
                "ack",
                "[ACK:7fce46e0] [from 646]",
                "--registry",
            ])
            .arg(&path));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(want), "expected {want:?} in {err}");
        assert!(err.contains('^'), "a caret under the place: {err}");
        // The registry the user asked for is broken: the command does not run.
        assert_eq!(out, "", "{out}");
    }
}

/// Regression: `audit --registry bad.toml` exited 0 and `parse --json --registry
/// bad.toml` printed normal results with exit 2 and no error object.
#[test]
fn broken_explicit_registry_exits_2_everywhere_with_a_json_error() {
    let (dir, bad) = with_registry("[[preset]]\nkey = oops\n", "bad.toml");
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "x\n").unwrap();
    let (code, out, err) = run(rxw(dir.path())
        .args(["audit", "-p", "x", "--registry"])
        .arg(&bad)
        .arg(&file));
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("bad.toml:2:"), "{err}");
    assert_eq!(out, "");

    for args in [
        vec!["parse", "--json", "--text", "[CLAIM 7fce46e0]"],
        vec!["parse", "--json", "--count", "--text", "[CLAIM 7fce46e0]"],
        vec!["preset", "list", "--json"],
        vec!["preset", "check", "--json"],
    ] {
        let (code, out, _) = run(rxw(dir.path()).args(&args).arg("--registry").arg(&bad));
        assert_eq!(code, 2, "{args:?}: {out}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
        assert_eq!(v["error"]["kind"], "registry_invalid", "{args:?}: {out}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("bad.toml:2:")
        );
    }
    let (v, _) = run_json(
        rxw(dir.path())
            .args(["audit", "-p", "x", "--format", "json", "--registry"])
            .arg(&bad)
            .arg(&file),
        2,
    );
    assert_eq!(v["error"]["kind"], "registry_invalid");
}

#[test]
fn broken_auto_loaded_registry_is_a_warning_and_builtins_keep_working() {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("rxw");
    std::fs::create_dir_all(&conf).unwrap();
    std::fs::write(conf.join("broken.toml"), "[[preset]]\nkey = oops\n").unwrap();
    let (code, out, err) =
        run(rxw(dir.path()).args(["preset", "test", "ack", "[ACK:7fce46e0] [from 646]"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("match at 1:1"), "{out}");
    assert!(err.contains("rxw: warning: skipped registry") && err.contains("broken.toml:2:"));

    // The broken registry is said in the JSON too, as its first warning.
    let warns_of_the_broken_registry = |v: &serde_json::Value| {
        v["warnings"][0]
            .as_str()
            .is_some_and(|w| w.contains("broken.toml:2:"))
    };
    let (code, out, _) =
        run(rxw(dir.path()).args(["parse", "--json", "--count", "--text", "[CLAIM 7fce46e0]"]));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"], 2);
    assert!(warns_of_the_broken_registry(&v), "{out}");

    let file = dir.path().join("f.txt");
    std::fs::write(&file, "[CLAIM 7fce46e0]\n").unwrap();
    let (code, out, _) = run(rxw(dir.path())
        .args(["audit", "--preset", "verb", "--format", "json"])
        .arg(&file));
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rows"][0]["matches"]["verb"], true);
    assert!(warns_of_the_broken_registry(&v), "{out}");
}

#[test]
fn config_dir_registry_shadows_a_builtin_once_and_json_registries_load() {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("rxw");
    write_file(
        dir.path(),
        "rxw/mine.toml",
        "[[preset]]\nkey = \"ack\"\npurpose = \"mine\"\nflavor = \"rust\"\npattern = 'ack'\n",
    );
    let extra = write_file(
        dir.path(),
        "extra.json",
        r#"{"preset": [{"key": "word", "purpose": "a word", "flavor": "js", "flags": "i", "pattern": "\\bhello\\b"}]}"#,
    );
    let (code, out, err) = run(rxw(dir.path())
        .args(["preset", "list", "--registry"])
        .arg(&extra));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.matches("rxw: note: preset \"ack\" from").count(),
        1,
        "{err}"
    );
    assert!(err.contains("replaces the built-in one"));
    assert!(
        out.contains("ack              rust                mine"),
        "{out}"
    );
    assert!(
        out.contains("word             js           i      a word"),
        "{out}"
    );

    // A broken file in the config directory is a warning; the command still succeeds.
    std::fs::write(conf.join("broken.json"), "{\"preset\": [").unwrap();
    let (code, out, err) = run(rxw(dir.path())
        .args(["parse", "--only", "word", "--registry"])
        .arg(&extra)
        .args(["--text", "say HELLO"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("rxw: warning: skipped registry") && err.contains("broken.json:1:"),
        "{err}"
    );
    assert_eq!(out, "1:5: word HELLO\n");
}

#[test]
fn show_includes_the_explain_tree_and_the_work_order_lint() {
    let (code, out, _) = run_fresh(&["preset", "show", "work_order"]);
    assert_eq!(code, 0);
    assert!(out.contains("explain"), "{out}");
    assert!(
        out.contains("Named capturing group `wo_id` (group 1)"),
        "{out}"
    );
    assert!(out.contains("greedy-dotall-swallows-lines"), "{out}");
}

#[test]
fn parse_schema_lists_the_record_and_each_presets_groups_and_loads_into_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) =
        run(rxw(dir.path()).args(["parse", "--schema", "--only", "result,uuid"]));
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let record: Vec<&str> = rxw_testkit::strings_of(&doc["record"], "name");
    assert_eq!(
        record,
        ["key", "index", "end", "match", "groups", "source", "line"]
    );
    assert_eq!(doc["presets"][0]["key"], "result");
    let status = doc["presets"][0]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "status")
        .unwrap();
    assert_eq!(status["nullable"], true, "{status}");
    assert_eq!(status["type"], "string");
    assert_eq!(doc["presets"][1]["groups"], serde_json::json!([]));
    let (code, _, _) = run(rxw(dir.path()).args(["parse", "--schema", "--text", "some text"]));
    assert_eq!(code, 2, "--schema reads no text");

    // The DuckDB statement loads `rxw parse --jsonl` as written.
    if !rxw_testkit::python_has(
        "duckdb",
        "duckdb",
        "the load of --jsonl into DuckDB is skipped",
    ) {
        return;
    }
    let log = dir.path().join("app.log");
    std::fs::write(
        &log,
        "[RESULT 7fce46e0] OK done\n[RESULT 8a12bc44]\nid 7fce46e0-1111-2222-3333-444455556666\n",
    )
    .unwrap();
    let (code, jsonl, _) = run(rxw(dir.path()).args([
        "parse",
        "--jsonl",
        "--only",
        "result,uuid",
        "--file",
        log.to_str().unwrap(),
    ]));
    assert_eq!(code, 0);
    std::fs::write(dir.path().join("hits.jsonl"), &jsonl).unwrap();
    let script = format!(
        "import duckdb\ncon = duckdb.connect()\ncon.execute({:?})\nprint(con.execute(\"SELECT count(*), count(groups['status']) FROM rxw_hits\").fetchone())\n",
        doc["load"]["duckdb"].as_str().unwrap()
    );
    let out = rxw_testkit::output_ok(
        std::process::Command::new("python3")
            .args(["-c", &script])
            .current_dir(dir.path()),
        "",
    );
    let hits = jsonl.lines().count();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("({hits}, 1)"),
        "{jsonl}"
    );
}

/// The CPython reference of the registry on records (`benches/records_ref.py`): its output
/// as JSON lines, or `None` when no CPython 3.11+ (tomllib) is here.
fn records_reference(log: &std::path::Path, args: &[&str]) -> Option<Vec<serde_json::Value>> {
    let python = rxw_testkit::python_interpreter("3.11")
        .or_else(|| rxw_testkit::python_interpreter("3.12"))
        .or_else(|| rxw_testkit::python_interpreter("3.13"));
    let Some(python) = python else {
        rxw_testkit::missing(
            "CPython 3.11 or later",
            "the registry on records is not compared with CPython's re",
        );
        return None;
    };
    let out = rxw_testkit::output_ok(
        std::process::Command::new(python)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("benches/records_ref.py")
            .arg(log)
            .args(args),
        "",
    );
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

/// (key, match, groups) of each hit, and the line when `with_line`.
fn hit_keys(hits: &[serde_json::Value], with_line: bool) -> Vec<String> {
    hits.iter()
        .map(|h| {
            let line = if with_line {
                h["line"].to_string()
            } else {
                String::new()
            };
            format!("{} {} {} {}", h["key"], line, h["match"], h["groups"])
        })
        .collect()
}

#[test]
fn the_registry_runs_on_each_record_as_cpython_re_on_each_message() {
    let dir = tempfile::tempdir().unwrap();
    for (seed, bytes) in [(1u64, 300_000usize), (7, 120_000), (42, 40_000)] {
        let log = lifecycle_log(dir.path(), bytes, seed);
        let jsonl = dir.path().join(format!("agent-{seed}.jsonl"));
        let Some(reference) = records_reference(&log, &["--to-jsonl", jsonl.to_str().unwrap()])
        else {
            return;
        };
        let (code, out, err) = run(rxw(dir.path())
            .args(["parse", "--count", "--json"])
            .arg(&log));
        assert_eq!(code, 0, "{err}");
        let counts: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(counts["by_key"], reference[0]["by_key"], "seed {seed}");
        assert_eq!(counts["format"], "netvm");
        // NetVM runs work_order on each message: thousands of hits, not one.
        assert!(counts["by_key"]["work_order"].as_u64().unwrap() > 10);
        assert!(err.is_empty(), "no read-whole note: {err}");

        // Every hit's groups, in order.
        let expected = records_reference(&log, &["--hits"]).unwrap();
        let (code, out, _) = run(rxw(dir.path()).args(["parse", "--jsonl"]).arg(&log));
        assert_eq!(code, 0);
        let got: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            hit_keys(&got, true),
            hit_keys(&expected, true),
            "seed {seed}"
        );
        // A hit's offsets are the file's: the match is there.
        let text = std::fs::read_to_string(&log).unwrap();
        for h in got.iter().step_by(97) {
            let (s, e) = (
                h["index"].as_u64().unwrap() as usize,
                h["end"].as_u64().unwrap() as usize,
            );
            assert_eq!(&text[s..e], h["match"].as_str().unwrap());
        }

        // The same log as JSON Lines: the same counts and groups, offsets in the message.
        let (code, out, _) = run(rxw(dir.path())
            .args(["parse", "--count", "--json"])
            .arg(&jsonl));
        assert_eq!(code, 0);
        let counts: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            counts["by_key"], reference[0]["by_key"],
            "seed {seed} as JSON"
        );
        assert_eq!(counts["format"], "jsonl");
        let (_, out, _) = run(rxw(dir.path()).args(["parse", "--jsonl"]).arg(&jsonl));
        let got: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(hit_keys(&got, false), hit_keys(&expected, false));
        assert!(got.iter().all(|h| h["offsets"] == "message"));
    }
}

#[test]
fn format_lines_keeps_the_whole_text_and_a_wrong_format_is_said() {
    let (dir, log) = temp_file(
        "a.log",
        "2026-10-05T00:01:53Z harvester: [WO:2d409dd3] [from super] Sweep — a\n  - b\n[WO:aa11bb22] [from box] Deploy — c\n",
    );
    let count = |format: &str| -> serde_json::Value {
        let (code, out, err) = run(rxw(dir.path())
            .args([
                "parse",
                "--count",
                "--json",
                "--only",
                "work_order",
                "--format",
                format,
            ])
            .arg(&log));
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    assert_eq!(count("netvm")["count"], 2);
    // As is: `^\[WO:` starts only the third line, and DOTALL runs its body to the end.
    let lines = count("lines");
    assert_eq!(lines["count"], 1);
    assert!(lines.get("format").is_none());
    fails_saying(
        rxw(dir.path())
            .args(["parse", "--format", "yaml"])
            .arg(&log),
        "unknown log format \"yaml\": the formats are netvm, jsonl, lines",
    );
}

#[test]
fn json_lines_that_are_not_records_are_counted_and_said() {
    let (dir, log) = temp_file(
        "a.jsonl",
        "{\"ts\":\"2026-10-05T00:00:01Z\",\"msg\":\"[CLAIM 7fce46e0] on it\"}\n{\"msg\":\"[ACK 7fce46e0]\"}\n{truncated\n\u{1b}[31mnot json\n{\"level\":\"info\"}\n{\"msg\":\"[CLAIM abcdef12]\"}\n",
    );
    let (v, err) = run_json(
        rxw(dir.path())
            .args(["parse", "--count", "--json", "--only", "verb"])
            .arg(&log),
        0,
    );
    assert_eq!(v["by_key"]["verb"], 3);
    assert_eq!(v["format"], "jsonl");
    assert!(
        err.contains("3 lines are no record and were skipped (the first, line 3: not JSON)"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "said inertly: {err:?}");
}

#[test]
fn find_with_a_record_format_matches_each_message() {
    let text = "2026-10-05T00:01:53Z harvester: [WO:2d409dd3] [from super] Sweep\n  - b\n[WO:aa11bb22] [from box] Deploy\n2026-10-05T00:02:00Z x: see [WO:ffff0000]\n";
    let (dir, log) = temp_file("a.log", text);
    let count = |extra: &[&str]| {
        let (code, out, err) = run(rxw(dir.path())
            .args(["find", "--count", r"^\[WO:\w+\]"])
            .args(extra)
            .arg(&log));
        assert!(code <= 1, "{err}");
        out.trim().to_string()
    };
    // As is, `^` without MULTILINE is the text's start only: the first line has a prefix.
    assert_eq!(count(&[]), "0");
    assert_eq!(count(&["--format", "lines"]), "0");
    // On messages: the two work orders that begin their message, not the one inside one.
    assert_eq!(count(&["--format", "netvm"]), "2");
    let (v, _) = run_json(
        rxw(dir.path())
            .args([
                "find",
                "--json",
                "--format",
                "netvm",
                r"(?s)^\[WO:(\w+)\].*",
            ])
            .arg(&log),
        0,
    );
    let first = &v[0];
    let (s, e) = (
        first["index"].as_u64().unwrap() as usize,
        first["end"].as_u64().unwrap() as usize,
    );
    // The file's offsets, and DOTALL stops at the record's end.
    assert_eq!(&text[s..e], "[WO:2d409dd3] [from super] Sweep\n  - b");
    assert_eq!(first["char_index"], 0);
    assert_eq!(v[1]["line"], 3);
    fails_saying(
        rxw(dir.path())
            .args(["find", "--format", "csv", "x"])
            .arg(&log),
        "unknown log format",
    );
}
