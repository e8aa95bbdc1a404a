//! `--since` / `--until` on `find`, `parse`, `jobs`, `timeline` and `audit`: the answer on a
//! time range is the answer on the same logs with the records outside it taken out, by each
//! record's time (continuation lines with their record), the start inclusive and the end
//! exclusive; bad times and empty ranges are errors that say what a time may be.

mod common;
use common::{fails_saying, run, rxw, write_file};
use std::path::Path;

/// 2026-10-05T00:00:00Z in seconds.
const BASE_S: i64 = 1_791_158_400;

fn utc(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let s = seconds.rem_euclid(86_400);
    // Days after 2026-10-05, within October for the logs here.
    assert!((days - BASE_S / 86_400) < 26);
    let day = 5 + (days - BASE_S / 86_400);
    format!(
        "2026-10-{day:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// One record of a log: its time (`None`: a line with no stamp) and its lines.
struct Rec {
    time: Option<i64>,
    text: String,
}

/// A NetVM log: records a few seconds apart, some with continuation lines, some unstamped
/// (they take the time before them), a few untimed lines at the head when `head`.
fn netvm_records(seed: u64, n: usize, head: bool) -> Vec<Rec> {
    let mut x = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut next = || {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        x >> 33
    };
    let mut out = Vec::new();
    if head {
        out.push(Rec {
            time: None,
            text: "[CLAIM head] before any stamp\n".into(),
        });
    }
    let mut t = BASE_S + (seed as i64 % 7);
    for k in 0..n {
        t += (next() % 5) as i64;
        let id = format!("{:x}", next() % 4096);
        let text = match next() % 5 {
            0 => format!("{} agent-{}: [CLAIM {id}] start\n", utc(t), k % 3),
            1 => format!(
                "{} agent-{}: [RESULT {id}] OK\n  - detail [CLAIM {id}x]\n\t- more\n",
                utc(t),
                k % 3
            ),
            2 => format!("[ACK:{id}] [from agent-{}] [CLAIM {id}y]\n", k % 3),
            3 => format!("{} agent-{}: [WO:{id}] [from super] task\n", utc(t), k % 3),
            _ => format!("{} agent-{}: note [CLAIM {id}z]\n", utc(t), k % 3),
        };
        let stamped = !text.starts_with('[');
        out.push(Rec {
            time: stamped.then_some(t),
            text,
        });
    }
    out
}

/// Each record's time as the rule gives it: its own, else the one before it in its log.
fn carried(recs: &[Rec]) -> Vec<Option<i64>> {
    let mut last = None;
    recs.iter()
        .map(|r| {
            last = r.time.or(last);
            last
        })
        .collect()
}

fn joined(recs: &[Rec]) -> String {
    recs.iter().map(|r| r.text.as_str()).collect()
}

/// The records of `recs` in `[since, until)` (seconds; `None`: open).
fn within(recs: &[Rec], since: Option<i64>, until: Option<i64>) -> String {
    recs.iter()
        .zip(carried(recs))
        .filter(|(_, t)| {
            t.is_some_and(|t| since.is_none_or(|s| s <= t) && until.is_none_or(|u| t < u))
        })
        .map(|(r, _)| r.text.as_str())
        .collect()
}

fn edge_args(since: Option<i64>, until: Option<i64>) -> Vec<String> {
    let mut a = Vec::new();
    if let Some(s) = since {
        a.extend(["--since".to_string(), utc(s)]);
    }
    if let Some(u) = until {
        a.extend(["--until".to_string(), utc(u)]);
    }
    a
}

/// The arguments of `rxw parse --count --json --file F1 --file F2 …`.
fn parse_count_json(files: &[&Path]) -> Vec<String> {
    let mut args = vec!["parse".to_string(), "--count".into(), "--json".into()];
    for file in files {
        args.extend(["--file".to_string(), file.display().to_string()]);
    }
    args
}

fn stdout_of(config: &Path, args: &[String]) -> String {
    let (code, out, err) = run(rxw(config).args(args));
    assert!(code == 0 || code == 1, "{args:?}: {code} {out}{err}");
    out
}

/// Ranges whose edges fall exactly on records' times, between them, and outside the log.
fn ranges(recs: &[Rec]) -> Vec<(Option<i64>, Option<i64>)> {
    let times: Vec<i64> = recs.iter().filter_map(|r| r.time).collect();
    let (first, last) = (times[0], *times.last().unwrap());
    let mid = times[times.len() / 2];
    let q = times[times.len() / 4];
    vec![
        (Some(q), Some(mid)),
        (Some(mid), None),
        (None, Some(mid)),
        (Some(first), Some(last)),
        (Some(first), Some(last + 1)),
        (Some(q + 1), Some(mid + 1)),
        (Some(last + 10), None),
        (None, Some(first)),
    ]
}

#[test]
fn find_and_parse_on_a_range_equal_the_log_with_the_other_records_taken_out() {
    let dir = tempfile::tempdir().unwrap();
    let recs = netvm_records(3, 400, true);
    let log = write_file(dir.path(), "agent.log", joined(&recs));
    let mut checked = 0;
    for (since, until) in ranges(&recs) {
        let kept = within(&recs, since, until);
        let cut = write_file(dir.path(), "cut.log", &kept);
        let edges = edge_args(since, until);
        for (cmd, pattern) in [
            (vec!["find", "--count", r"\[CLAIM \w+\]"], true),
            (
                vec!["find", "--count", "--format", "netvm", r"^\[\w+"],
                true,
            ),
            (vec!["parse", "--count", "--json"], false),
        ] {
            let mut on_range: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
            let mut on_cut = on_range.clone();
            if pattern {
                on_range.push(log.display().to_string());
                on_cut.push(cut.display().to_string());
            } else {
                on_range.extend(["--file".into(), log.display().to_string()]);
                on_cut.extend(["--file".into(), cut.display().to_string()]);
            }
            on_range.extend(edges.iter().cloned());
            let got = stdout_of(dir.path(), &on_range);
            let want = stdout_of(dir.path(), &on_cut);
            assert_eq!(got, want, "{on_range:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
    // Not every range is empty, nor every range everything.
    let claims = |extra: &[String]| -> usize {
        let mut args = vec!["find".into(), "--count".into(), r"\[CLAIM".into()];
        args.push(log.display().to_string());
        args.extend_from_slice(extra);
        stdout_of(dir.path(), &args).trim().parse().unwrap()
    };
    let all = claims(&[]);
    let some = claims(&["--since".into(), utc(ranges(&recs)[1].0.unwrap())]);
    assert!(0 < some && some < all, "{some} of {all}");
}

#[test]
fn merged_logs_keep_each_log_s_records_by_their_own_times() {
    let dir = tempfile::tempdir().unwrap();
    let a = netvm_records(11, 200, false);
    let b = netvm_records(12, 200, true);
    let la = write_file(dir.path(), "a.log", joined(&a));
    let lb = write_file(dir.path(), "b.log", joined(&b));
    for (since, until) in ranges(&a) {
        let ca = write_file(dir.path(), "cut-a.log", within(&a, since, until));
        let cb = write_file(dir.path(), "cut-b.log", within(&b, since, until));
        let mut on_range = parse_count_json(&[&la, &lb]);
        on_range.extend(edge_args(since, until));
        let on_cut = parse_count_json(&[&ca, &cb]);
        assert_eq!(
            stdout_of(dir.path(), &on_range),
            stdout_of(dir.path(), &on_cut),
            "{on_range:?}"
        );
        // The jobs a range holds are the jobs of the logs cut to it.
        let jobs = |files: [&Path; 2], extra: &[String]| -> Vec<(String, String)> {
            let mut args = vec!["jobs".to_string(), "--json".into()];
            args.extend(files.iter().map(|f| f.display().to_string()));
            args.extend(extra.iter().cloned());
            let out = stdout_of(dir.path(), &args);
            let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
            let mut rows: Vec<(String, String)> = rows
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (r["job"].to_string(), r["status"].to_string()))
                .collect();
            rows.sort();
            rows
        };
        assert_eq!(
            jobs([&la, &lb], &edge_args(since, until)),
            jobs([&ca, &cb], &[])
        );
    }
}

#[test]
fn json_lines_are_timed_by_their_time_field() {
    let dir = tempfile::tempdir().unwrap();
    let recs = netvm_records(5, 300, false);
    // The same messages as JSON Lines; an unstamped record has no `ts` and takes the time
    // before it.
    let json: Vec<Rec> = recs
        .iter()
        .map(|r| {
            let (stamp, msg) = match r.time {
                Some(_) => {
                    let (_, rest) = r.text.split_once(": ").unwrap();
                    (r.time, rest)
                }
                None => (None, r.text.as_str()),
            };
            let msg = msg.strip_suffix('\n').unwrap();
            let mut obj = serde_json::json!({"agent": "a", "msg": msg});
            if let Some(t) = stamp {
                obj["ts"] = utc(t).into();
            }
            Rec {
                time: r.time,
                text: format!("{obj}\n"),
            }
        })
        .collect();
    let log = write_file(dir.path(), "a.jsonl", joined(&json));
    for (since, until) in ranges(&json) {
        let cut = write_file(dir.path(), "cut.jsonl", within(&json, since, until));
        let mut on_range = parse_count_json(&[&log]);
        on_range.extend(edge_args(since, until));
        let args = parse_count_json(&[&cut]);
        let got = stdout_of(dir.path(), &on_range);
        // An empty cut log is no JSON log: compare the counts alone.
        let counts = |doc: &str| -> serde_json::Value {
            serde_json::from_str::<serde_json::Value>(doc).unwrap()["by_key"].clone()
        };
        assert_eq!(
            counts(&got),
            counts(&stdout_of(dir.path(), &args)),
            "{on_range:?}"
        );
        if !within(&json, since, until).is_empty() {
            let doc: serde_json::Value = serde_json::from_str(&got).unwrap();
            assert_eq!(doc["format"], "jsonl");
        }
    }
}

#[test]
fn timeline_and_audit_count_only_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let recs = netvm_records(7, 300, true);
    let log = write_file(dir.path(), "agent.log", joined(&recs));
    for (since, until) in ranges(&recs).into_iter().take(4) {
        let kept = within(&recs, since, until);
        let cut = write_file(dir.path(), "cut.log", &kept);
        let total = |args: Vec<String>| -> u64 {
            let out = stdout_of(dir.path(), &args);
            let buckets: serde_json::Value = serde_json::from_str(&out).unwrap();
            buckets
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b["count"].as_u64().unwrap())
                .sum()
        };
        let mut on_range: Vec<String> = ["timeline", "--json", r"\[CLAIM"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        on_range.push(log.display().to_string());
        on_range.extend(edge_args(since, until));
        let on_cut = vec![
            "timeline".to_string(),
            "--json".into(),
            r"\[CLAIM".into(),
            cut.display().to_string(),
        ];
        assert_eq!(total(on_range), total(on_cut));
        // The audit's counts of one file on a range are its counts on the cut file.
        let audit = |file: &Path, extra: &[String]| -> String {
            let mut args = vec![
                "audit".to_string(),
                "--counts".into(),
                "--format".into(),
                "csv".into(),
                "-p".into(),
                r"\[CLAIM".into(),
                "-p".into(),
                "RESULT".into(),
            ];
            args.push(file.display().to_string());
            args.extend(extra.iter().cloned());
            let out = stdout_of(dir.path(), &args);
            out.lines()
                .nth(1)
                .unwrap()
                .split_once(',')
                .unwrap()
                .1
                .to_string()
        };
        assert_eq!(audit(&log, &edge_args(since, until)), audit(&cut, &[]));
    }
}

#[test]
fn lines_before_a_log_s_first_time_are_left_out_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let log_text = "[CLAIM 1] no time yet\n  still none\n2026-10-05T00:00:00Z a: [CLAIM 2]\n";
    let log = write_file(dir.path(), "a.log", log_text);
    let (code, out, err) = run(rxw(dir.path()).args([
        "find",
        "--count",
        r"\[CLAIM",
        log.to_str().unwrap(),
        "--since",
        "2026-10-05",
    ]));
    assert_eq!((code, out.trim()), (0, "1"), "{err}");
    assert!(
        err.contains("2 lines before the log's first time left out"),
        "{err}"
    );
    // Without an edge nothing is left out and nothing is said.
    let (_, out, err) =
        run(rxw(dir.path()).args(["find", "--count", r"\[CLAIM", log.to_str().unwrap()]));
    assert_eq!(out.trim(), "2");
    assert!(!err.contains("left out"), "{err}");
}

#[test]
fn relative_times_count_back_from_now() {
    let dir = tempfile::tempdir().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    // Written with the epoch's calendar: days since 1970 to a date, the inverse of the
    // stamp reader's (checked by reading the stamps back through --since below).
    let stamp = |t: i64| {
        let z = t.div_euclid(86_400) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        let s = t.rem_euclid(86_400);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    };
    let log = format!(
        "{} a: [CLAIM old] three hours ago\n{} a: [CLAIM recent] ten minutes ago\n{} a: [CLAIM soon] in an hour\n",
        stamp(now - 3 * 3600),
        stamp(now - 600),
        stamp(now + 3600)
    );
    let log = write_file(dir.path(), "a.log", &log);
    let found = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["find", "--json", r"\[CLAIM \w+", log.to_str().unwrap()];
        args.extend(extra);
        let (code, out, err) = run(rxw(dir.path()).args(&args));
        assert!(code == 0 || code == 1, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|m| m["match"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(found(&["--since", "-1h"]), ["[CLAIM recent", "[CLAIM soon"]);
    assert_eq!(found(&["--since=-1h", "--until", "now"]), ["[CLAIM recent"]);
    assert_eq!(found(&["--until", "-2h"]), ["[CLAIM old"]);
    assert_eq!(
        found(&["--since", "-1d", "--until", "-1h30m"]),
        ["[CLAIM old"]
    );
}

#[test]
fn bad_times_and_empty_ranges_are_errors_that_say_what_a_time_is() {
    let dir = tempfile::tempdir().unwrap();
    let log = write_file(dir.path(), "a.log", "2026-10-05T00:00:00Z a: x\n");
    let log = log.to_str().unwrap();
    for (args, says) in [
        (
            vec!["find", "x", log, "--since", "yesterday"],
            "--since: \"yesterday\" is not a time",
        ),
        (
            vec!["find", "x", log, "--until", "2026-13-01"],
            "--until: \"2026-13-01\"",
        ),
        (
            vec!["parse", "--file", log, "--since", "-5x"],
            "-15m, -2h, -1d",
        ),
        (
            vec!["jobs", log, "--since", "-1h", "--until", "-2h"],
            "the time range is empty",
        ),
        (
            vec![
                "timeline",
                "x",
                log,
                "--since",
                "2026-10-06",
                "--until",
                "2026-10-05",
            ],
            "empty",
        ),
        (
            vec!["audit", "-p", "x", log, "--since", "later"],
            "is not a time",
        ),
        (
            vec!["find", "x", "--text", "t", "--since", "-1h"],
            "--text is matched as given",
        ),
    ] {
        fails_saying(rxw(dir.path()).args(&args), says);
    }
    // With --json the error is the JSON document.
    let (code, out, _) =
        run(rxw(dir.path()).args(["parse", "--json", "--file", log, "--since", "x"]));
    assert_eq!(code, 2);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["error"]["kind"], "arguments_invalid", "{out}");
}
