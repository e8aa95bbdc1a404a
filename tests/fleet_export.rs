//! `rxw registry export` and `rxw registry verify` on each target's own component: ClickHouse
//! (chDB), DuckDB and Spark SQL (pyspark) through their Python packages, the Vector remap
//! program on the vrl crate (tools/vrl-check), Loki's stages on Go's regexp, grok on joni.
//! A test whose component is missing says so loudly and skips (or, where it says so, checks
//! the stand-in rxw then names); it never fakes an engine. The registries are the built-in
//! one and a hostile one written here.

use assert_cmd::Command;
use rxw_testkit::have;
use rxw_testkit::temp_file;
use rxw_testkit::{run, run_fresh};
use serde_json::Value;
use std::path::Path;

/// rxw with a private config directory (no user registry), the caller's PATH (python3, go,
/// java) and the Vector checker where one is built.
fn rxw(config: &Path) -> Command {
    let mut c = Command::cargo_bin("rxw").unwrap();
    c.env("XDG_CONFIG_HOME", config).env("NO_COLOR", "1");
    if let Some(checker) = vrl_checker() {
        c.env("RXW_VRL_CHECK", checker);
    }
    c
}

/// The Vector checker (tools/vrl-check): `RXW_VRL_CHECK`, else where `.ci/run` or a plain
/// `cargo build` in tools/vrl-check puts it.
fn vrl_checker() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("RXW_VRL_CHECK").filter(|p| !p.is_empty()) {
        return Some(p.into()).filter(|p: &std::path::PathBuf| p.is_file());
    }
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    [
        home.map(|h| h.join(".cache/rxw-ci/vrl-check-target/debug/rxw-vrl-check")),
        Some(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tools/vrl-check/target/debug/rxw-vrl-check"),
        ),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.is_file())
}

/// Whether Debian's joni and jcodings (or `RXW_JONI_CLASSPATH`) are there; when not,
/// [`rxw_testkit::missing`] says so.
fn have_joni() -> bool {
    let ok = std::env::var("RXW_JONI_CLASSPATH").is_ok_and(|c| !c.is_empty())
        || ["/usr/share/java/joni.jar", "/usr/share/java/jcodings.jar"]
            .iter()
            .all(|j| Path::new(j).is_file());
    if !ok {
        rxw_testkit::missing(
            "joni",
            "the grok verification on Elasticsearch's regex engine is skipped (apt-get install \
             libjruby-joni-java libjcodings-java, or set RXW_JONI_CLASSPATH)",
        );
    }
    ok && have_java()
}

/// Every record names `engine` (the component that ran) and no stand-in.
fn ran_on(records: &[Value], engine: &str) {
    for r in records {
        let e = r["engine"].as_str().unwrap();
        assert!(e.contains(engine), "{e} (want {engine}): {r}");
        assert!(!e.contains("STAND-IN"), "{r}");
    }
}

/// Real hits came back from the engine for each of `records`: it ran the pattern on the rows.
fn engine_found_hits<'a>(records: impl IntoIterator<Item = &'a Value>) {
    assert!(
        records
            .into_iter()
            .all(|r| r["hits_engine"].as_u64().unwrap() > 0)
    );
}

/// Whether python3 can import `module`; when not, [`rxw_testkit::missing`] names `package`.
fn python_has(module: &str, package: &str) -> bool {
    rxw_testkit::python_has(
        module,
        package,
        &format!("this engine test is skipped (python3 -m pip install {package})"),
    )
}

/// `rxw registry verify --to TARGET --json` (with extra arguments): the records.
fn verify(config: &Path, target: &str, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["registry", "verify", "--to", target, "--json"];
    args.extend_from_slice(extra);
    let (code, out, err) = run(rxw(config).args(&args));
    assert_eq!(code, 0, "verify --to {target} exited {code}: {out}{err}");
    serde_json::from_str::<Value>(&out)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// (agree, refused, rewrites) over the records; no record may differ.
fn tally(records: &[Value]) -> (usize, usize, usize) {
    for r in records {
        assert_ne!(r["verdict"], "differ", "{r}");
        if r["verdict"] == "agree" {
            assert_eq!(r["hits_rxw"], r["hits_engine"], "{r}");
        }
    }
    let count = |k: &str, v: &str| records.iter().filter(|r| r[k] == v).count();
    (
        count("verdict", "agree"),
        count("verdict", "refused"),
        count("form", "rewrite"),
    )
}

fn builtin_on(target: &str) -> Option<Vec<Value>> {
    let dir = tempfile::tempdir().unwrap();
    let needs = match target {
        "clickhouse" => Some(("chdb", "chdb")),
        "duckdb" => Some(("duckdb", "duckdb")),
        _ => None,
    };
    if let Some((module, package)) = needs
        && !python_has(module, package)
    {
        return None;
    }
    let records = verify(dir.path(), target, &[]);
    assert_eq!(records.len(), 12);
    Some(records)
}

#[test]
fn clickhouse_runs_every_preset_and_the_result_rewrite_agrees() {
    let Some(records) = builtin_on("clickhouse") else {
        return;
    };
    assert_eq!(tally(&records), (12, 0, 1));
    let result = records.iter().find(|r| r["preset"] == "result").unwrap();
    assert_eq!(result["form"], "rewrite");
    // Real hits came back: the engine ran the views on the rows.
    engine_found_hits(&records);
}

#[test]
fn duckdb_runs_every_preset_and_the_result_rewrite_agrees() {
    let Some(records) = builtin_on("duckdb") else {
        return;
    };
    assert_eq!(tally(&records), (12, 0, 1));
    engine_found_hits(&records);
}

#[test]
fn loki_regexp_stages_agree_on_go_regexp_and_the_look_ahead_is_refused() {
    if !have(
        "go",
        &["version"],
        "the Loki verification on Go's regexp is skipped",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let records = verify(dir.path(), "loki", &[]);
    assert_eq!(records.len(), 12);
    ran_on(&records, "Go's regexp");
    assert_eq!(tally(&records), (11, 1, 0));
    let result = records.iter().find(|r| r["preset"] == "result").unwrap();
    assert!(
        result["reason"]
            .as_str()
            .unwrap()
            .contains("look-around is not in Go's RE2 syntax"),
        "{result}"
    );
    engine_found_hits(records.iter().filter(|r| r["verdict"] == "agree"));
}

#[test]
fn vector_remap_program_agrees_on_vrl() {
    let Some(checker) = vrl_checker() else {
        rxw_testkit::missing(
            "tools/vrl-check",
            "the Vector verification on Vector's own language is skipped (cargo build \
             --manifest-path tools/vrl-check/Cargo.toml, or set RXW_VRL_CHECK); rxw verify \
             falls back to the regex crate and says so",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let records = verify(dir.path(), "vector", &[]);
    assert_eq!(records.len(), 12, "{}", checker.display());
    ran_on(&records, "vrl crate");
    assert_eq!(tally(&records), (11, 1, 0));
    engine_found_hits(records.iter().filter(|r| r["verdict"] == "agree"));
}

#[test]
fn without_the_vrl_checker_the_regex_crate_stands_in_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(rxw(dir.path())
        .env("RXW_VRL_CHECK", dir.path().join("missing"))
        .args(["registry", "verify", "--to", "vector", "--json"]));
    assert_eq!(code, 0, "{err}");
    let records: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(tally(&records), (11, 1, 0));
    for r in &records {
        let e = r["engine"].as_str().unwrap();
        assert!(
            e.starts_with("the regex crate (a STAND-IN: RXW_VRL_CHECK="),
            "{e}"
        );
    }
}

/// Whether `java` runs; [`rxw_testkit::missing`] when not.
fn have_java() -> bool {
    have(
        "java",
        &["-version"],
        "the Spark and grok verification on the JVM is skipped",
    )
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn spark_sql_agrees_on_a_local_spark_session() {
    if !python_has("pyspark", "pyspark") || !have_java() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let records = verify(dir.path(), "spark", &["--spark-session"]);
    ran_on(&records, "Spark SQL");
    // Java has look-ahead: every preset is exact, `result` included.
    assert_eq!(tally(&records), (12, 0, 0));
    engine_found_hits(&records);
}

#[test]
fn spark_patterns_agree_on_java_with_the_views_semantics_by_default() {
    if !have_java() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let records = verify(dir.path(), "spark", &[]);
    ran_on(
        &records,
        "java.util.regex with the views' regexp_extract_all semantics",
    );
    // `result`'s optional `status`: unset reads as '' in regexp_extract_all and nullif turns
    // it back into null, as rxw's unset group.
    assert_eq!(tally(&records), (12, 0, 0));
}

#[test]
fn verify_runs_every_target_at_once_and_reports_each() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(rxw(dir.path()).args([
        "registry",
        "verify",
        "--to",
        "all",
        "--json",
        "--preset",
        "ack,result",
    ]));
    // 2: an engine that cannot be run here (said on stderr); otherwise every record agrees
    // or is refused.
    assert!(code == 0 || code == 2, "{code}: {out}{err}");
    let records: Vec<Value> = serde_json::from_str(&out).unwrap();
    let targets: std::collections::BTreeSet<&str> = records
        .iter()
        .map(|r| r["target"].as_str().unwrap())
        .collect();
    if code == 0 {
        assert_eq!(records.len(), 12, "{out}");
        assert_eq!(targets.len(), 6, "{targets:?}");
    } else {
        rxw_testkit::missing(
            "an engine `rxw registry verify --to all` runs",
            &format!("not every target's records are checked: {}", err.trim()),
        );
    }
    // A target whose own component is not here ran on the stand-in its records name.
    let stand_ins: std::collections::BTreeSet<(&str, &str)> = records
        .iter()
        .filter_map(|r| Some((r["target"].as_str()?, r["engine"].as_str()?)))
        .filter(|(_, engine)| engine.contains("STAND-IN"))
        .collect();
    for (target, engine) in stand_ins {
        rxw_testkit::missing(
            &format!("the {target} engine"),
            &format!("its records in `verify --to all` come from {engine}"),
        );
    }
    tally(&records);
    // The human report names each engine with its time.
    let (_, text, _) = run(rxw(dir.path()).args([
        "registry",
        "verify",
        "--to",
        "vector,loki",
        "--preset",
        "ack",
    ]));
    assert!(text.starts_with("vector: "), "{text}");
    assert!(text.contains("\nloki: "), "{text}");
    // An export writes one engine's file.
    let (code, _, err) = run(rxw(dir.path()).args(["registry", "export", "--to", "all"]));
    assert_eq!(code, 2);
    assert!(err.contains("one engine's file at a time"), "{err}");
}

#[test]
fn grok_pipelines_agree_on_joni() {
    if !have_joni() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let records = verify(dir.path(), "elasticsearch", &[]);
    ran_on(&records, "joni");
    // Oniguruma has look-ahead: every preset is exact; grok shows the first hit.
    assert_eq!(tally(&records), (12, 0, 0));
    engine_found_hits(&records);
}

#[test]
fn a_refusal_shows_the_construct_under_a_caret() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) =
        run(rxw(dir.path()).args(["registry", "export", "--to", "loki", "--preset", "result"]));
    assert_eq!(code, 1, "nothing was exported: {out}{err}");
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("refused: cannot write this pattern for Loki"))
        .unwrap();
    let (pattern, caret) = (lines[at + 1], lines[at + 2]);
    let start = caret.find('^').unwrap();
    let width = caret.trim().len();
    assert_eq!(&pattern[start..start + width], r"(?=\[RESULT\s|\Z)");
    // The script carries the same refusal as a comment.
    assert!(
        out.contains("# refused: cannot write this pattern for Loki"),
        "{out}"
    );
}

/// A registry whose texts carry every character that ends a string, an identifier or a
/// comment in one of the targets.
const HOSTILE: &str = r#"
[[preset]]
key = "hostile-1"
purpose = "quotes ' \" ` and */ -- ; ''' \"\"\" %{X} \\ and a\nnew line\r\tand \u2028 separator"
notes = "*/ ''' \"\"\""
flavor = "python"
flags = ""
pattern = '''(?P<q>'[^'\n]*')\s(?P<bt>`[a-z]+`)\s(?P<pc>%\{[A-Z]+\})\s(?P<semi>;--)\s(?P<bs>"x\\y")'''
[[preset.examples]]
text = '''say 'hi' `cmd` %{WORD} ;-- "x\y" end'''
groups = { q = "'hi'", bt = "`cmd`", pc = "%{WORD}", semi = ";--", bs = '"x\y"' }

[[preset]]
key = "hostile_2"
purpose = "a Unicode group name"
flavor = "python"
flags = ""
pattern = '''(?P<café>'{2,3}\*/)'''
[[preset.examples]]
text = "x '''*/ y"
groups = { "café" = "'''*/" }

[[preset]]
key = "hostile-3"
purpose = "NUL \u0000, ${HOME}, $HOME, {{x}}, $$ and \\ in the text"
flavor = "python"
flags = ""
pattern = "\\$\\{(?P<var>[A-Z_]+)\\}\u0000?(?P<tpl>\\{\\{[a-z]+\\}\\})?\\\\\\$HOME"
[[preset.examples]]
text = "echo ${PATH}\u0000{{name}}\\$HOME"
groups = { var = "PATH", tpl = "{{name}}" }
"#;

fn hostile_registry(dir: &Path) -> String {
    let path = dir.join("hostile.toml");
    std::fs::write(&path, HOSTILE).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs python3 on `script` with `input` on standard input; its standard output.
fn python(script: &str, input: &str) -> String {
    rxw_testkit::run_with_stdin(
        std::process::Command::new("python3").args(["-c", script]),
        input,
    )
}

#[test]
fn hostile_texts_are_escaped_so_every_output_parses() {
    let dir = tempfile::tempdir().unwrap();
    let reg = hostile_registry(dir.path());
    let export = |target: &str| {
        let (code, out, err) = run(rxw(dir.path()).args([
            "registry",
            "export",
            "--registry",
            &reg,
            "--to",
            target,
            "--preset",
            "hostile-1,hostile_2,hostile-3",
        ]));
        assert_eq!(code, 0, "{err}");
        out
    };
    // TOML, read by Python's own parser: the VRL program comes back whole.
    let program = python(
        "import sys, tomllib; print(tomllib.loads(sys.stdin.read())['transforms']['rxw_presets']['source'])",
        &export("vector"),
    );
    assert!(program.contains(r#"."rxw_hostile-1" = parse_regex_all!(string!(.message), r'"#));
    assert!(program.contains(r"\x{27}"), "{program}");
    // Regression: Vector reads `$NAME` and `${NAME}` anywhere in its config file as
    // environment variables (`$$` is a `$`): the pattern for a literal `${…}` and `$HOME`
    // and the purpose's `${HOME}` must reach it as written.
    let config = export("vector");
    let mut rest = config.as_str();
    while let Some(i) = rest.find('$') {
        let after = &rest[i + 1..];
        if let Some(more) = after.strip_prefix('$') {
            rest = more;
            continue;
        }
        let next = after.chars().next().unwrap_or(' ');
        assert!(
            !(next == '{' || next == '_' || next.is_alphanumeric()),
            "a variable for Vector at {:?}\n{config}",
            &rest[i..(i + 12).min(rest.len())]
        );
        rest = after;
    }
    assert!(program.contains(r"\\\x{24}HOME)')"), "{program}");
    // JSON, read by Python's json: the grok definition keeps its pattern and hides `%{`.
    let names = python(
        "import sys, json; d = json.load(sys.stdin); print(sorted(d['pipelines']), sorted(d['refused']), d['pipelines']['rxw_hostile-1']['processors'][0]['grok']['pattern_definitions'])",
        &export("elasticsearch"),
    );
    assert!(
        names.starts_with("['rxw_hostile-1', 'rxw_hostile-3'] ['hostile_2']"),
        "{names}"
    );
    assert!(!names.contains("%{[A-Z]"), "{names}");
    // LogQL: one query per exported preset, each line whole (no newline leaked out of a
    // comment), the backtick spelled as an escape inside the raw string.
    let loki = export("loki");
    for line in loki.lines() {
        assert!(
            line.is_empty()
                || line.starts_with('#')
                || line.starts_with("{job=~\".+\"} | regexp `"),
            "{line}"
        );
    }
    assert_eq!(loki.matches("| regexp `").count(), 2);
    // SQL comments stay comments: every line is a comment, a statement line, or empty.
    for target in ["clickhouse", "duckdb", "spark"] {
        let sql = export(target);
        assert!(sql.contains("-- preset hostile-1: quotes ' \" ` and */ -- ; ''' \"\"\" %{X} \\ and a\\nnew line\\r\\tand \\u{2028} separator"), "{sql}");
    }
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn hostile_presets_run_on_the_real_engines() {
    let dir = tempfile::tempdir().unwrap();
    let reg = hostile_registry(dir.path());
    let extra = [
        "--registry",
        reg.as_str(),
        "--preset",
        "hostile-1,hostile_2,hostile-3",
    ];
    let mut ran = 0;
    // Each target on its own component where it is here, else on the stand-in rxw names.
    let go = have(
        "go",
        &["version"],
        "the hostile presets are not run on Go's regexp (google-re2 stands in)",
    );
    let joni = have_joni();
    for (target, needs, agree, refused) in [
        ("clickhouse", Some(("chdb", "chdb")), 3, 0),
        ("duckdb", Some(("duckdb", "duckdb")), 3, 0),
        // The Unicode group name cannot be a label or a VRL field.
        ("loki", (!go).then_some(("re2", "google-re2")), 2, 1),
        ("vector", None, 2, 1),
        ("spark", None, 3, 0),
        (
            "elasticsearch",
            (!joni).then_some(("onigurumacffi", "onigurumacffi")),
            2,
            1,
        ),
    ] {
        if let Some((module, package)) = needs
            && !python_has(module, package)
        {
            continue;
        }
        if target == "spark" && !have_java() {
            continue;
        }
        if target == "vector" && vrl_checker().is_none() {
            rxw_testkit::missing(
                "tools/vrl-check",
                "the hostile presets are not run on vrl (the regex crate stands in)",
            );
        }
        let records = verify(dir.path(), target, &extra);
        assert_eq!(tally(&records).0, agree, "{target}: {records:?}");
        assert_eq!(tally(&records).1, refused, "{target}: {records:?}");
        ran += 1;
    }
    assert!(ran >= 1);
}

#[test]
fn the_clickhouse_cluster_variant_parses_in_chdb() {
    if !python_has("chdb", "chdb") {
        return;
    }
    let (code, out, err) = run_fresh(&[
        "registry",
        "export",
        "--to",
        "clickhouse",
        "--cluster",
        "fleet's `main`",
        "--preset",
        "ack,result",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ENGINE = Distributed("), "{out}");
    // Each statement through ClickHouse's own parser (EXPLAIN AST runs no DDL).
    let parsed = python(
        r#"
import sys, chdb
script = sys.stdin.read()
n = 0
for chunk in script.split(";\n\n"):
    body = "\n".join(l for l in chunk.splitlines() if not l.startswith("-- "))
    if body.strip():
        chdb.query("EXPLAIN AST " + body, "TSV")
        n += 1
print(n)
"#,
        &out,
    );
    assert_eq!(parsed.trim(), "5", "logs_local, logs, messages, two views");
}

/// A generated fleet log: the registry's examples (multi-line ones too) among stamped noise
/// lines, ending with a line break like a file a program wrote.
fn generated_log() -> String {
    let examples: Vec<String> = rxw::presets::builtin()
        .iter()
        .flat_map(|e| e.preset.examples.iter().map(|x| x.text.clone()))
        .collect();
    let mut log = String::new();
    for i in 0..600usize {
        let stamp = format!("2026-10-05T10:{:02}:{:02}Z box-{}: ", i / 60, i % 60, i % 7);
        let body = match i % 5 {
            0 | 2 => examples[(i * 7) % examples.len()].clone(),
            1 => format!("heartbeat ok, {} jobs queued", i % 13),
            3 => format!("note 7fce46e{} and [RESULT] without an id", i % 10),
            _ => examples[(i * 3) % examples.len()].replace('\n', " "),
        };
        log.push_str(&stamp);
        log.push_str(body.trim_end_matches('\n'));
        log.push('\n');
    }
    log
}

/// The SQL engines (`duckdb`, and `clickhouse` as chDB) whose Python module is installed
/// here; each missing one is said ([`python_has`]).
fn sql_engines_here() -> Vec<&'static str> {
    [
        ("duckdb", "duckdb", "duckdb"),
        ("clickhouse", "chdb", "chdb"),
    ]
    .into_iter()
    .filter(|(_, module, package)| python_has(module, package))
    .map(|(target, ..)| target)
    .collect()
}

/// `rxw parse --count --json ARGS --file LOG` in `dir`, which must succeed: its counts by key.
fn counts_by_key(dir: &Path, args: &[&str], log: &str) -> serde_json::Map<String, Value> {
    let (code, out, err) = run(rxw(dir)
        .args(["parse", "--count", "--json"])
        .args(args)
        .args(["--file", log]));
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    doc["by_key"].as_object().unwrap().clone()
}

/// The counting of the registry's SQL in DuckDB and chDB that the benchmarks time too: its
/// `views` command loads a log the documented way, runs an exported script and counts each
/// view's rows; its `loaded` command loads `hits.jsonl` with `rxw parse --schema`'s statement
/// and counts the hits per key. Each prints `{key: count}` as JSON.
const SQL_COUNTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/sql_counts.py");

#[test]
fn the_sql_views_count_what_rxw_parse_counts_on_a_whole_log() {
    let (dir, log) = temp_file("app.log", generated_log());
    let log = log.to_str().unwrap();
    // The views run on the log's lines as they are (not yet on NetVM records): they agree
    // with `rxw parse --format lines`.
    let want = counts_by_key(dir.path(), &["--format", "lines"], log);
    assert!(want["result"].as_u64().unwrap() > 0 && want["ack"].as_u64().unwrap() > 0);
    let keys: Vec<&str> = want.keys().map(String::as_str).collect();
    for target in sql_engines_here() {
        let script = dir.path().join(format!("{target}.sql"));
        let (code, _, err) = run(rxw(dir.path()).args([
            "registry",
            "export",
            "--to",
            target,
            "-o",
            script.to_str().unwrap(),
        ]));
        assert_eq!(code, 0, "{err}");
        let out = rxw_testkit::output_ok(
            std::process::Command::new("python3").args([
                SQL_COUNTS,
                "views",
                target,
                script.to_str().unwrap(),
                log,
                &keys.join(","),
            ]),
            "",
        );
        let got: Value = serde_json::from_slice(&out.stdout).unwrap();
        for k in &keys {
            assert_eq!(got[k], want[*k], "{target}: hits of {k}");
        }
    }
}

#[test]
fn parse_jsonl_loaded_into_chdb_and_duckdb_counts_what_rxw_parse_counts() {
    let (dir, log) = temp_file("app.log", generated_log());
    let log = log.to_str().unwrap();
    let want = counts_by_key(dir.path(), &[], log);
    let (code, jsonl, err) = run(rxw(dir.path()).args(["parse", "--jsonl", "--file", log]));
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.path().join("hits.jsonl"), &jsonl).unwrap();
    let (code, schema, err) = run(rxw(dir.path()).args(["parse", "--schema"]));
    assert_eq!(code, 0, "{err}");
    let schema: Value = serde_json::from_str(&schema).unwrap();
    let mut ran = 0;
    for target in sql_engines_here() {
        let out = rxw_testkit::output_ok(
            std::process::Command::new("python3")
                .args([
                    SQL_COUNTS,
                    "loaded",
                    target,
                    schema["load"][target].as_str().unwrap(),
                ])
                .current_dir(dir.path()),
            &format!("{target}: "),
        );
        let got: Value = serde_json::from_slice(&out.stdout).unwrap();
        for (k, n) in &want {
            // A key without hits has no row to count.
            let got_n = got.get(k).cloned().unwrap_or(Value::from(0));
            assert_eq!(&got_n, n, "{target}: hits of {k}");
        }
        assert_eq!(
            got.as_object().unwrap().len(),
            want.values().filter(|n| *n != 0).count()
        );
        ran += 1;
    }
    assert!(ran > 0 || !python_has("duckdb", "duckdb"));
}

#[test]
fn a_definition_the_engine_rejects_is_reported_for_its_preset_alone() {
    if !python_has("re2", "google-re2") {
        return;
    }
    // The driver `rxw registry verify` runs: one pattern RE2 rejects, one it runs.
    let driver = include_str!("../crates/rxw-core/src/fleet/drivers/fleet_driver.py");
    let request = serde_json::json!({
        "target": "loki",
        "rows": ["a1", "b"],
        "statements": [],
        "views": [],
        "patterns": [
            {"key": "bad", "pattern": "(?:a{2,30}){40,50}", "fields": []},
            {"key": "good", "pattern": "(?P<d>[0-9])", "fields": ["d"]},
        ],
    });
    let reply: Value = serde_json::from_str(&python(driver, &request.to_string())).unwrap();
    assert!(
        reply["rejected"]["bad"]
            .as_str()
            .unwrap()
            .contains("invalid repetition size"),
        "{reply}"
    );
    assert_eq!(
        reply["hits"]["good"],
        serde_json::json!([[1, {"d": "1", "match_text": "1"}]])
    );
}

/// Regression: a preset with 300 named groups, which ClickHouse rejects (at most 127), and
/// a 10,000-character key, whose view name ClickHouse refuses, were exported as exact;
/// only `verify` found them. The export checks the target's limits and refuses them.
#[test]
fn an_export_refuses_what_clickhouse_would_refuse() {
    let dir = tempfile::tempdir().unwrap();
    let groups: String = (0..300).map(|k| format!("(?P<g{k}>a)")).collect();
    let long_key = "k".repeat(10_000);
    let registry = format!(
        "[[preset]]\nkey = \"many\"\npurpose = \"300 groups\"\nflavor = \"python\"\nflags = \"\"\npattern = '{groups}'\n\n\
         [[preset]]\nkey = \"{long_key}\"\npurpose = \"a long key\"\nflavor = \"python\"\nflags = \"\"\npattern = 'CLAIM'\n\n\
         [[preset]]\nkey = \"fine\"\npurpose = \"within the limits\"\nflavor = \"python\"\nflags = \"\"\npattern = '(?P<v>CLAIM) (?P<id>[0-9a-f]+)'\n"
    );
    let reg = dir.path().join("limits.toml");
    std::fs::write(&reg, registry).unwrap();
    let (code, out, err) = run(rxw(dir.path()).args([
        "registry",
        "export",
        "--registry",
        reg.to_str().unwrap(),
        "--preset",
        &format!("many,{long_key},fine"),
        "--to",
        "clickhouse",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("many: refused: 301 capturing groups"), "{err}");
    assert!(err.contains("ClickHouse refuses table names"), "{err}");
    assert!(out.contains("rxw_fine"), "{out}");
    assert!(!out.contains("CREATE OR REPLACE VIEW rxw_many"), "{out}");
    // DuckDB has no such limit: both export there.
    let (_, out, err) = run(rxw(dir.path()).args([
        "registry",
        "export",
        "--registry",
        reg.to_str().unwrap(),
        "--preset",
        "many",
        "--to",
        "duckdb",
    ]));
    assert!(!err.contains("refused"), "{err}");
    assert!(out.contains("rxw_many"), "{out}");
}
