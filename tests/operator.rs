//! Operator mode end to end: `rxw jobs`, `rxw parse --jsonl` / `--csv` / `--output`,
//! `rxw timeline`. Logs come from the project's own generator (`benches/gen_log.py`).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

mod common;
use common::{fails_saying, lifecycle_log, mkfifo, run, run_json, rxw, temp_file};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `rxw parse ARGS… --file LOG`: its exit code and standard output.
fn parse_file(config: &Path, log: &Path, args: &[&str]) -> (i32, String) {
    let (code, out, _) = run(rxw(config).arg("parse").args(args).arg("--file").arg(log));
    (code, out)
}

/// Lines the generator does not write: no stamp before the first, offsets and fractions,
/// every tag form for one id, a job resolved twice, one never resolved, invalid UTF-8, CRLF.
const EDGES: &[u8] = b"[CLAIM before-stamp] no time yet\n\
2026-10-06T10:00:00.250+02:00 ml-7: [WO:e1] [from super] Edge \xe2\x80\x94 all forms\n\
[ACK:e1] [from ml-7]\n\
2026-10-06T08:00:05Z pip: [ACK e1] [NUDGE e1]\r\n\
\xff\xfe garbage [CLAIM e1] \xc3 still a claim\n\
2026-10-06 08:01:05Z pip: [RESULT e1] SUCCESS done [RESULT e1]FAIL glued\n\
2026-10-06T08:02:00Z pip: [CLAIM e2]\n\
[result e3] [RESULT] [WO e3] [ACK:] not tags\n\
[NO-ACTION swarm-9a/3]\n";

/// Rows as the reference script writes them: events without the `source` it does not know.
fn without_sources(mut rows: Value) -> Value {
    for row in rows.as_array_mut().unwrap() {
        for event in row["events"].as_array_mut().unwrap() {
            event.as_object_mut().unwrap().remove("source");
        }
    }
    rows
}

fn reference(log: &Path) -> Value {
    let out = rxw_testkit::output_ok(
        std::process::Command::new("python3")
            .arg(repo().join("tests/jobs_ref.py"))
            .arg(log),
        "",
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn jobs_json_agrees_with_the_reference_script() {
    let dir = tempfile::tempdir().unwrap();
    let log = lifecycle_log(dir.path(), 400_000, 11);
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(EDGES);
    std::fs::write(&log, &bytes).unwrap();
    let (code, out, err) = run(rxw(dir.path()).arg("jobs").arg("--json").arg(&log));
    assert_eq!(code, 0, "{err}");
    let ours: Value = without_sources(serde_json::from_str(&out).unwrap());
    let theirs = reference(&log);
    let (a, b) = (ours.as_array().unwrap(), theirs.as_array().unwrap());
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x, y);
    }
    // The log has every kind of row, so the comparison covers them.
    let count = |f: &dyn Fn(&Value) -> bool| a.iter().filter(|r| f(r)).count();
    assert!(count(&|r| r["flags"] == json!(["unresolved"])) > 10);
    assert!(count(&|r| r["flags"] == json!(["resolved-twice"])) > 10);
    assert!(count(&|r| r["status"] == "RESULT") > 10);
    assert!(count(&|r| r["claim_to_result_s"].is_f64()) > 100);
    assert!(a.len() > 500, "{}", a.len());
}

#[test]
fn jobs_edge_cases_exactly() {
    let (dir, log) = temp_file("edges.log", EDGES);
    let (rows, _) = run_json(rxw(dir.path()).arg("jobs").arg("--json").arg(&log), 0);
    assert!(
        rows.as_array().unwrap().iter().all(|r| r["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["source"] == log.display().to_string())),
        "every event names its log"
    );
    let rows = without_sources(rows);
    assert_eq!(rows, reference(&log));
    let t0 = "2026-10-06T08:00:00.250Z";
    assert_eq!(
        rows,
        json!([
            {"job":"before-stamp","status":"CLAIMED","events":[{"tag":"CLAIM","line":1,"time":null}],
             "claim_to_result_s":null,"flags":["unresolved"]},
            {"job":"e1","status":"FAIL","events":[
                {"tag":"WO","line":2,"time":t0},
                {"tag":"ACK","line":3,"time":t0},
                {"tag":"ACK","line":4,"time":"2026-10-06T08:00:05Z"},
                {"tag":"NUDGE","line":4,"time":"2026-10-06T08:00:05Z"},
                {"tag":"CLAIM","line":5,"time":"2026-10-06T08:00:05Z"},
                {"tag":"RESULT","line":6,"time":"2026-10-06T08:01:05Z"},
                {"tag":"RESULT","line":6,"time":"2026-10-06T08:01:05Z"}],
             "claim_to_result_s":60.0,"flags":["resolved-twice"]},
            {"job":"e2","status":"CLAIMED","events":[{"tag":"CLAIM","line":7,"time":"2026-10-06T08:02:00Z"}],
             "claim_to_result_s":null,"flags":["unresolved"]},
            {"job":"swarm-9a/3","status":"NO-ACTION","events":[{"tag":"NO-ACTION","line":9,"time":"2026-10-06T08:02:00Z"}],
             "claim_to_result_s":null,"flags":[]}
        ])
    );
}

#[test]
fn jobs_on_an_empty_log_and_from_standard_input() {
    let (dir, empty) = temp_file("empty.log", "");
    let (code, out, _) = run(rxw(dir.path()).arg("jobs").arg("--json").arg(&empty));
    assert_eq!((code, out.as_str()), (1, "[]\n"));
    let (code, out, _) = run(rxw(dir.path()).arg("jobs").arg(&empty));
    assert_eq!(code, 1);
    assert!(out.starts_with("JOB "), "{out}");
    let (code, out, _) = run(rxw(dir.path())
        .args(["jobs", "--sort", "duration"])
        .write_stdin(
            "2026-10-05T00:00:00Z [CLAIM fast] [CLAIM slow]\n\
             2026-10-05T00:00:02Z [RESULT fast] OK\n\
             2026-10-05T01:00:00Z [RESULT slow] ERROR\n[WO:open1]\n",
        ));
    assert_eq!(code, 0);
    let ids: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(ids, ["slow", "fast", "open1"], "{out}");
    assert!(out.contains("1h00m"), "{out}");
    // A directory is read as its logs; one without any is an error.
    let none = dir.path().join("none");
    std::fs::create_dir(&none).unwrap();
    fails_saying(
        rxw(dir.path()).args(["jobs"]).arg(&none),
        "no file in the directory",
    );
}

#[test]
fn jobs_output_is_written_atomically() {
    let (dir, log) = temp_file("edges.log", EDGES);
    let dest = dir.path().join("jobs.json");
    let (code, out, _) = run(rxw(dir.path())
        .args(["jobs", "--json", "--output"])
        .arg(&dest)
        .arg(&log));
    assert_eq!((code, out.as_str()), (0, ""));
    let written: Value = serde_json::from_slice(&std::fs::read(&dest).unwrap()).unwrap();
    assert_eq!(written.as_array().unwrap().len(), 4);
    let missing = dir.path().join("no/such/dir/jobs.json");
    let (code, out, _) = run(rxw(dir.path())
        .args(["jobs", "--json", "-o"])
        .arg(&missing)
        .arg(&log));
    assert_eq!(code, 2);
    // With --json the error is JSON on standard output.
    let error: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(error["error"]["kind"], "io");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("jobs.json"),
        "{out}"
    );
    assert!(!missing.parent().unwrap().exists());
}

#[test]
fn parse_jsonl_is_parse_json_one_hit_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let log = lifecycle_log(dir.path(), 60_000, 3);
    let (code, array) = parse_file(dir.path(), &log, &["--json"]);
    assert_eq!(code, 0);
    let array: Vec<Value> = serde_json::from_str(&array).unwrap();
    let (code, lines) = parse_file(dir.path(), &log, &["--jsonl"]);
    assert_eq!(code, 0);
    let lines: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() > 500, "{}", lines.len());
    assert_eq!(lines, array);
    // --only, and no hit at all (exit 1, nothing printed).
    let (code, out, _) = run(rxw(dir.path())
        .args(["parse", "--jsonl", "--only", "verb"])
        .write_stdin("[CLAIM a1]\n[ack a1]\n"));
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"key\":\"verb\",\"index\":0,\"end\":10,\"match\":\"[CLAIM a1]\",\"groups\":{\"verb\":\"CLAIM\",\"job_id\":\"a1\"},\"source\":\"-\",\"line\":1}\n"
    );
    let (code, out, _) = run(rxw(dir.path())
        .args(["parse", "--jsonl"])
        .write_stdin("nothing here"));
    assert_eq!((code, out.as_str()), (1, ""));
}

#[test]
fn parse_jsonl_into_a_closed_pipe_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let log = lifecycle_log(dir.path(), 3_000_000, 4);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("rxw"))
        .args(["parse", "--jsonl", "--file"])
        .arg(&log)
        .env("XDG_CONFIG_HOME", dir.path())
        .env("HOME", dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    let hit: Value = serde_json::from_str(&first).unwrap();
    assert!(hit["key"].is_string());
    drop(reader);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn parse_exports_to_a_file_as_jsonl_or_csv() {
    let dir = tempfile::tempdir().unwrap();
    let text = "2026-10-05T00:00:00Z a: [RESULT 7fce46e0] OK \"quoted\", done\n";
    let jsonl = dir.path().join("hits.jsonl");
    let (code, out, _) = run(rxw(dir.path())
        .args(["parse", "--jsonl", "--only", "verb,result", "--output"])
        .arg(&jsonl)
        .write_stdin(text));
    assert_eq!((code, out.as_str()), (0, ""));
    let written = std::fs::read_to_string(&jsonl).unwrap();
    let keys: Vec<String> = written
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["key"].to_string())
        .collect();
    assert_eq!(keys, ["\"verb\"", "\"result\""]);
    let csv = dir.path().join("hits.csv");
    let (code, _, _) = run(rxw(dir.path())
        .args(["parse", "--only", "verb", "-o"])
        .arg(&csv)
        .write_stdin(text));
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "key,index,end,match,groups,source,line\r\n\
         verb,24,41,[RESULT 7fce46e0],\"{\"\"verb\"\":\"\"RESULT\"\",\"\"job_id\"\":\"\"7fce46e0\"\"}\",-,1\r\n"
    );
    // --csv to standard output.
    let (_, out, _) = run(rxw(dir.path())
        .args(["parse", "--csv", "--only", "verb"])
        .write_stdin(text));
    assert!(
        out.starts_with("key,index,end,match,groups,source,line\r\nverb,24,"),
        "{out}"
    );
}

/// A user registry in `dir` of one Python preset, `slow`, whose pattern is `pattern` (one that
/// backtracks on the test's text): its path.
fn slow_preset(dir: &std::path::Path, pattern: &str) -> std::path::PathBuf {
    let reg = dir.join("slow.toml");
    std::fs::write(
        &reg,
        format!("[[preset]]\nkey = \"slow\"\nflavor = \"python\"\npattern = '{pattern}'\n"),
    )
    .unwrap();
    reg
}

#[test]
fn a_failed_parse_export_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    // A user preset whose backtracking exhausts its budget on the text: the scan fails
    // after the first hits were written to the temporary file.
    let reg = slow_preset(dir.path(), "(?=a)(?:a|aa)*c");
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let dest = out_dir.join("hits.jsonl");
    let mut text = String::from("ac\n");
    text.push_str(&"a".repeat(40));
    let mut cmd = rxw(dir.path());
    cmd.args(["parse", "--only", "slow", "--registry"])
        .arg(&reg)
        .arg("--output")
        .arg(&dest)
        .write_stdin(text);
    let (code, _, err) = run(&mut cmd);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("slow"), "{err}");
    assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 0);
}

#[test]
fn timeline_as_json_and_as_a_chart() {
    let (dir, log) = temp_file(
        "t.log",
        "[CLAIM early]\n\
         2026-10-05T00:00:03Z a: [CLAIM a1] [RESULT a1] OK\n\
         2026-10-05T00:00:15Z a: [CLAIM b2]\n\
         [CLAIM c3] no stamp\n\
         2026-10-05T00:01:10Z a: nothing\n\
         2026-10-05T00:01:59Z a: [DECLINE c3]\n",
    );
    let (code, out, err) = run(rxw(dir.path())
        .args(["timeline", "--json", r"\[CLAIM"])
        .arg(&log));
    assert_eq!(code, 0);
    assert!(
        err.contains("1 match before the first timestamped line"),
        "{err}"
    );
    let buckets: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        buckets,
        json!([
            {"start":"2026-10-05T00:00:00Z","end":"2026-10-05T00:00:10Z","count":1,"first_line":2,"last_line":2},
            {"start":"2026-10-05T00:00:10Z","end":"2026-10-05T00:00:20Z","count":2,"first_line":3,"last_line":4},
            {"start":"2026-10-05T00:00:20Z","end":"2026-10-05T00:00:30Z","count":0,"first_line":null,"last_line":null},
            {"start":"2026-10-05T00:00:30Z","end":"2026-10-05T00:00:40Z","count":0,"first_line":null,"last_line":null},
            {"start":"2026-10-05T00:00:40Z","end":"2026-10-05T00:00:50Z","count":0,"first_line":null,"last_line":null},
            {"start":"2026-10-05T00:00:50Z","end":"2026-10-05T00:01:00Z","count":0,"first_line":null,"last_line":null},
            {"start":"2026-10-05T00:01:00Z","end":"2026-10-05T00:01:10Z","count":0,"first_line":null,"last_line":null},
            {"start":"2026-10-05T00:01:10Z","end":"2026-10-05T00:01:20Z","count":0,"first_line":5,"last_line":5},
            {"start":"2026-10-05T00:01:20Z","end":"2026-10-05T00:01:30Z","count":0,"first_line":null,"last_line":null},
            {"start":"2026-10-05T00:01:30Z","end":"2026-10-05T00:01:40Z","count":0,"first_line":null,"last_line":null},
            {"start":"2026-10-05T00:01:40Z","end":"2026-10-05T00:01:50Z","count":0,"first_line":null,"last_line":null},
            {"start":"2026-10-05T00:01:50Z","end":"2026-10-05T00:02:00Z","count":0,"first_line":6,"last_line":6}
        ])
    );
    // A preset key, from standard input, as a chart.
    let (code, out, _) = run(rxw(dir.path())
        .args(["timeline", "--preset", "verb", "--buckets", "3"])
        .write_stdin(std::fs::read(&log).unwrap()));
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "6 matches of preset verb, 2 buckets of 1m, 2026-10-05T00:00:00Z to 2026-10-05T00:02:00Z\n\
         2026-10-05T00:00:00Z  4  ████████████████████████████████████████  lines 2-4\n\
         2026-10-05T00:01:00Z  1  ██████████                                lines 5-6\n"
    );
    fails_saying(
        rxw(dir.path()).args(["timeline"]),
        "give a PATTERN or --preset KEY",
    );
    let (code, out, _) = run(rxw(dir.path()).args(["timeline", "zzz"]).arg(&log));
    assert_eq!(code, 1);
    assert!(out.starts_with("0 matches of `zzz`"), "{out}");
}

#[test]
fn parse_line_buffered_gives_the_same_lines() {
    let dir = tempfile::tempdir().unwrap();
    let log = lifecycle_log(dir.path(), 20_000, 8);
    let (_, plain) = parse_file(dir.path(), &log, &["--jsonl"]);
    let (code, buffered) = parse_file(dir.path(), &log, &["--jsonl", "--line-buffered"]);
    assert_eq!(code, 0);
    assert!(plain.lines().count() > 100);
    assert_eq!(plain, buffered);
}

/// Regression: `-o` replaced what was at the path: `-o link.jsonl` replaced the link itself
/// and `-o fifo` the FIFO. A link's file is replaced and the link kept; a FIFO is written.
#[cfg(unix)]
#[test]
fn output_follows_links_and_writes_into_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let (dir, log) = temp_file("edges.log", EDGES);
    let real = dir.path().join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let (code, _, err) = run(rxw(dir.path())
        .args(["jobs", "--json", "-o"])
        .arg(&link)
        .arg(&log));
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let written: Value = serde_json::from_slice(&std::fs::read(&real).unwrap()).unwrap();
    assert_eq!(written.as_array().unwrap().len(), 4);

    // A link such as /dev/stdout, onto this process's standard output (a pipe here): the
    // output goes down the pipe and the link stays.
    let stdout_link = dir.path().join("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &stdout_link).unwrap();
    let (code, out, err) = run(rxw(dir.path())
        .arg("jobs")
        .arg(&log)
        .arg("-o")
        .arg(&stdout_link));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("JOB "), "{out}");
    assert!(
        std::fs::symlink_metadata(&stdout_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );

    let fifo = dir.path().join("hits.fifo");
    assert!(mkfifo(&fifo));
    let mut reader = std::process::Command::new("cat")
        .arg(&fifo)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (code, _, err) = run(rxw(dir.path())
        .args(["parse", "--only", "verb", "-o"])
        .arg(&fifo)
        .arg("--file")
        .arg(&log));
    let still_fifo = std::fs::symlink_metadata(&fifo)
        .map(|m| m.file_type().is_fifo())
        .unwrap_or(false);
    if !still_fifo {
        let _ = reader.kill();
    }
    let piped = reader.wait_with_output().unwrap();
    assert!(still_fifo, "the FIFO was replaced ({err})");
    assert_eq!(code, 0, "{err}");
    let piped = String::from_utf8(piped.stdout).unwrap();
    assert!(piped.lines().count() >= 4, "{piped}");
    assert!(
        piped.lines().all(|l| l.contains("\"key\":\"verb\"")),
        "{piped}"
    );
}

/// `rxw parse` scans under the same total budget as `find` (a user preset that backtracks
/// at every position stops with the error naming `--max-total-steps`).
#[test]
fn parse_has_a_total_step_budget() {
    let dir = tempfile::tempdir().unwrap();
    let reg = slow_preset(dir.path(), "(a|a)*c(?<=c)");
    let (code, _, err) = run(rxw(dir.path())
        .args([
            "parse",
            "--only",
            "slow",
            "--max-total-steps",
            "3000000",
            "--registry",
        ])
        .arg(&reg)
        .write_stdin("aaaaaaaaaaaaaa\n".repeat(32 * 1024 / 15)));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("total step budget exceeded"), "{err}");
    assert!(err.contains("--max-total-steps 3000000"), "{err}");
}

/// Regression: following a FIFO blocked in `open()`, and a device was read without end;
/// `rxw -f` refuses what is not a regular file, at once.
#[cfg(unix)]
#[test]
fn follow_refuses_a_fifo_or_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("f.log");
    assert!(mkfifo(&fifo));
    let link = dir.path().join("zero.log");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    for (flag, path, says) in [
        ("-f", &fifo, "it is a FIFO, not a regular file"),
        ("--follow", &link, "it is a character device"),
    ] {
        let (code, _, err) = run(rxw(dir.path())
            .arg(flag)
            .arg(path)
            .timeout(std::time::Duration::from_secs(20)));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
}
