//! Many logs as one input, on the command line: compressed archives told by their bytes,
//! truncated and corrupt ones reported with where they broke, logs merged by time with each
//! record naming its source and line, jobs paired across logs. Logs are generated here.

use serde_json::Value;
use std::io::Write;
use std::path::Path;

mod common;
use common::{fails_saying, find_json_in, gzip, run, run_json, rxw, stamp, write_file};

/// A log of `lines` lines: stamped lines with protocol tags, a continuation line now and
/// then, deterministic.
fn agent_log(agent: &str, lines: usize, start_s: u64) -> String {
    let mut s = String::new();
    for k in 0..lines as u64 {
        let t = start_s + k * 2;
        let stamp = stamp(t);
        let tag = match k % 4 {
            0 => format!("[CLAIM {agent}-{k}]"),
            1 => format!("[RESULT {agent}-{}] OK", k - 1),
            2 => "heartbeat".to_string(),
            _ => format!("[NUDGE {agent}-{}]", k - 3),
        };
        s.push_str(&format!("{stamp} {agent}: {tag} é\n"));
        if k % 5 == 0 {
            s.push_str("  continued without a stamp\n");
        }
    }
    s
}

fn zstd(data: &[u8]) -> Vec<u8> {
    let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    e.include_checksum(true).unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn bzip2(data: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut w =
        lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6)).unwrap();
    w.write_all(data).unwrap();
    w.finish().unwrap()
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn every_codec_gives_the_plain_logs_answers() {
    let dir = tempfile::tempdir().unwrap();
    let text = agent_log("a", 20_000, 0);
    let plain = write_file(dir.path(), "day.log", text.as_bytes());
    let mut members = gzip(&text.as_bytes()[..text.len() / 3]);
    members.extend(gzip(&text.as_bytes()[text.len() / 3..]));
    let archives = [
        write_file(dir.path(), "day.log.gz", gzip(text.as_bytes())),
        // `cat part1.gz part2.gz`: every member is read.
        write_file(dir.path(), "members.gz", &members),
        // Told by its bytes, not its name.
        write_file(dir.path(), "day.log.1", gzip(text.as_bytes())),
        write_file(dir.path(), "day.log.zst", zstd(text.as_bytes())),
        write_file(dir.path(), "day.log.bz2", bzip2(text.as_bytes())),
        write_file(dir.path(), "day.log.xz", xz(text.as_bytes())),
    ];
    let answers = |file: &Path| {
        let (code, count, err) = run(rxw(dir.path())
            .args(["find", "--count", "--file"])
            .arg(file)
            .arg(r"\[CLAIM [\w-]+\]"));
        assert_eq!(code, 0, "{err}");
        let (_, parse, _) = run(rxw(dir.path())
            .args(["parse", "--count", "--json", "--file"])
            .arg(file));
        let (_, timeline, _) = run(rxw(dir.path())
            .args(["timeline", "--json", "NUDGE"])
            .arg(file));
        let (_, jobs, _) = run(rxw(dir.path()).args(["jobs", "--json"]).arg(file));
        // The jobs' events name their file: compare the rest.
        let jobs = jobs.replace(&file.display().to_string(), "LOG");
        (count, parse, timeline, jobs)
    };
    let expected = answers(&plain);
    assert_eq!(expected.0, "5000\n");
    for archive in &archives {
        assert_eq!(answers(archive), expected, "{}", archive.display());
    }
    // The matches themselves, offsets included, are the plain file's.
    let find = |file: &Path| {
        run(&mut find_json_in(dir.path(), &[file], r"é\n  (\w+)"))
            .1
            .replace(&file.display().to_string(), "LOG")
    };
    assert_eq!(find(&archives[3]), find(&plain));
}

/// Regression: a file without line breaks (a disk image, a blob of gigabytes) was read as one
/// line held whole, so `find --count` on 20 GB of it grew past 16 GB of memory. A line over
/// 64 MiB is cut to its head, the rest of it skipped, and the run exits 2 saying where.
#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn a_line_longer_than_64_mib_is_cut_said_and_the_lines_after_it_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"ok RESULT one\n".to_vec();
    bytes.resize(bytes.len() + (64 << 20) + 10, b'x');
    bytes.extend_from_slice(b"RESULT hidden in the skipped rest\nRESULT after\n");
    let blob = write_file(dir.path(), "blob.log", &bytes);
    let (code, out, err) = run(rxw(dir.path())
        .args(["find", "--count", "--file"])
        .arg(&blob)
        .arg("RESULT"));
    assert_eq!(code, 2, "{err}");
    assert_eq!(out.trim(), "2", "the lines before and after the long one");
    assert!(
        err.contains(&format!(
            "{}: the line at byte 14 is longer than 64 MiB, the most rxw reads of one line",
            blob.display()
        )),
        "{err}"
    );
    let (code, out, err) = run(rxw(dir.path()).arg("jobs").arg(&blob));
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("longer than 64 MiB"), "{err}");
    // JSON stays one document: the error alone.
    let (doc, _) = run_json(&mut find_json_in(dir.path(), &[&blob], "RESULT"), 2);
    assert!(doc["error"]["message"].as_str().unwrap().contains("64 MiB"));
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn truncated_and_corrupt_archives_exit_2_saying_where_after_what_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = agent_log("a", 40_000, 0);
    let gz = gzip(text.as_bytes());
    let cut = write_file(dir.path(), "cut.log.gz", &gz[..gz.len() / 2]);
    let (code, out, err) = run(rxw(dir.path())
        .args(["find", "--count", "--file"])
        .arg(&cut)
        .arg("CLAIM"));
    assert_eq!(code, 2, "{err}");
    let partial: usize = out.trim().parse().unwrap();
    assert!(partial > 1000 && partial < 10_000, "{partial}");
    assert!(
        err.contains(&format!(
            "{}: the gzip data is truncated: decoding stopped at compressed byte {}",
            cut.display(),
            gz.len() / 2
        )),
        "{err}"
    );
    // JSON stays one document: the error alone.
    let (doc, _) = run_json(&mut find_json_in(dir.path(), &[&cut], "CLAIM"), 2);
    assert_eq!(doc["error"]["kind"], "io");
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("truncated")
    );
    // The jobs table of what was read, then the error.
    let (code, out, err) = run(rxw(dir.path()).arg("jobs").arg(&cut));
    assert_eq!(code, 2);
    assert!(out.starts_with("JOB "), "{out}");
    assert!(err.contains("is truncated"), "{err}");
    // Damaged in the middle: an xz archive's check fails.
    let mut bad = xz(text.as_bytes());
    let mid = bad.len() / 2;
    for b in &mut bad[mid..mid + 32] {
        *b ^= 0xa5;
    }
    let bad = write_file(dir.path(), "bad.log.xz", &bad);
    fails_saying(
        rxw(dir.path())
            .args(["parse", "--count", "--file"])
            .arg(&bad),
        "bad.log.xz: the xz data is corrupt",
    );
}

#[test]
fn logs_merge_by_time_and_every_record_names_its_source_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let a_text =
        b"2026-10-05T00:00:01Z a [CLAIM j1]\n  trace of a\n2026-10-05T00:00:03Z a [CLAIM j3]\n";
    let a = write_file(dir.path(), "a.log", a_text);
    let b_text = b"2026-10-05T00:00:01Z b [CLAIM j2]\n2026-10-05T00:00:02Z b [CLAIM j4]\n";
    let b = write_file(dir.path(), "b.log.gz", gzip(b_text));
    let (code, out, err) = run(&mut find_json_in(
        dir.path(),
        &[&a, &b],
        r"CLAIM (\w+)|trace",
    ));
    assert_eq!(code, 0, "{err}");
    let records: Vec<Value> = serde_json::from_str(&out).unwrap();
    let seen: Vec<(String, u64, String)> = records
        .iter()
        .map(|r| {
            let source = r["source"].as_str().unwrap();
            let name = Path::new(source).file_name().unwrap().to_string_lossy();
            (
                name.into_owned(),
                r["line"].as_u64().unwrap(),
                r["match"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expect = |v: [(&str, u64, &str); 5]| -> Vec<(String, u64, String)> {
        v.iter()
            .map(|(s, l, m)| (s.to_string(), *l, m.to_string()))
            .collect()
    };
    // Equal stamps in the order named; the unstamped line stays under its stamp.
    assert_eq!(
        seen,
        expect([
            ("a.log", 1, "CLAIM j1"),
            ("a.log", 2, "trace"),
            ("b.log.gz", 1, "CLAIM j2"),
            ("b.log.gz", 2, "CLAIM j4"),
            ("a.log", 3, "CLAIM j3"),
        ])
    );
    // Offsets count in the record's own log (`b [CLAIM j2]` after a 20-byte stamp there).
    assert_eq!(records[2]["index"], 24);
    // Human output tags each line with its source; standard input is `-`.
    let (_, out, _) = run(rxw(dir.path())
        .args(["find", "--file", "-", "--file"])
        .arg(&b)
        .arg("CLAIM j[12]")
        .write_stdin(std::fs::read(&a).unwrap()));
    assert_eq!(
        out,
        format!("-:1:25: CLAIM j1\n{}:1:25: CLAIM j2\n", b.display())
    );
    // A directory is its logs, and parse names sources too.
    let (_, out, _) = run(rxw(dir.path())
        .args(["parse", "--jsonl", "--only", "verb", "--file"])
        .arg(dir.path()));
    let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["source"], a.display().to_string());
    assert_eq!(first["line"], 1);
}

#[test]
fn a_pattern_that_crosses_lines_sees_the_merged_text() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_file(dir.path(), "a.log", b"2026-10-05T00:00:01Z first\n");
    let b = write_file(dir.path(), "b.log", b"2026-10-05T00:00:02Z second");
    let (code, out, _) = run(rxw(dir.path())
        .args(["find", "--flavor", "rust", "--count", "--file"])
        .arg(&a)
        .arg("--file")
        .arg(&b)
        .arg(r"first\n\S+ second\z"));
    assert_eq!((code, out.as_str()), (0, "1\n"));
}

#[test]
fn jobs_pair_across_logs() {
    let dir = tempfile::tempdir().unwrap();
    let a_text = b"2026-10-05T00:00:00Z a: [CLAIM j1]\n2026-10-05T00:00:30Z a: [RESULT j2] OK\n";
    let a = write_file(dir.path(), "a.log", a_text);
    let b_text = b"2026-10-05T00:00:10Z b: [CLAIM j2]\n2026-10-05T00:01:00Z b: [RESULT j1] FAIL\n";
    let b = write_file(dir.path(), "b.log.gz", gzip(b_text));
    let (code, out, err) = run(rxw(dir.path())
        .args(["jobs", "--json"])
        .arg(&a)
        .arg("--file")
        .arg(&b));
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    let row = |id: &str| rows.iter().find(|r| r["job"] == id).unwrap().clone();
    assert_eq!(row("j1")["status"], "FAIL");
    assert_eq!(row("j1")["claim_to_result_s"], 60.0);
    assert_eq!(row("j1")["flags"], serde_json::json!([]));
    assert_eq!(row("j2")["claim_to_result_s"], 20.0);
    let resolution = &row("j1")["events"][1];
    assert_eq!(resolution["source"], b.display().to_string());
    assert_eq!(resolution["line"], 2);
    // The table names the log of each job's first line.
    let (_, out, _) = run(rxw(dir.path()).arg("jobs").arg(&a).arg(&b));
    assert!(out.contains(&format!("{}:1", b.display())), "{out}");
}

#[test]
fn audit_reads_compressed_files_as_their_text_and_says_where_one_broke() {
    let dir = tempfile::tempdir().unwrap();
    let text = agent_log("a", 5000, 0);
    write_file(dir.path(), "a.log.zst", zstd(text.as_bytes()));
    let gz = gzip(text.as_bytes());
    write_file(dir.path(), "cut.log.gz", &gz[..gz.len() / 2]);
    let (doc, _) = run_json(
        rxw(dir.path()).current_dir(dir.path()).args([
            "audit",
            "--format",
            "json",
            "a.log.zst",
            "cut.log.gz",
            "-p",
            "heartbeat",
        ]),
        2,
    );
    assert_eq!(doc["rows"][0]["matches"]["heartbeat"], true);
    assert_eq!(doc["rows"][1]["error_kind"], "file_unreadable");
    assert!(
        doc["rows"][1]["error"]
            .as_str()
            .unwrap()
            .starts_with("the gzip data is truncated: decoding stopped at compressed byte"),
        "{}",
        doc["rows"][1]["error"]
    );
}

/// One log of several that cannot be opened is said, and the others are still read: the
/// run prints what they hold and exits 2, as for a broken archive (grep does the same).
/// A single log, or logs none of which opens, is refused as before.
#[test]
fn a_missing_log_among_several_is_said_and_the_others_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let a_text = b"2026-10-05T00:00:00Z a: [CLAIM j1]\n2026-10-05T00:00:30Z a: [RESULT j1] OK\n";
    let a = write_file(dir.path(), "a.log", a_text);
    let missing = dir.path().join("gone.log");
    let b_text = b"2026-10-05T00:00:10Z b: [CLAIM j2]\n";
    let b = write_file(dir.path(), "b.log.gz", gzip(b_text));
    let (code, out, err) = run(rxw(dir.path())
        .args(["find", "--count", "--file"])
        .arg(&a)
        .arg("--file")
        .arg(&missing)
        .arg("--file")
        .arg(&b)
        .arg("CLAIM"));
    assert_eq!((code, out.as_str()), (2, "2\n"), "{err}");
    assert!(err.contains("gone.log"), "{err}");
    // Sources keep their numbers: b's line is named as b's.
    let (code, out, _) = run(rxw(dir.path())
        .args(["find", "--file"])
        .arg(&a)
        .arg("--file")
        .arg(&missing)
        .arg("--file")
        .arg(&b)
        .arg("CLAIM j2"));
    assert_eq!(code, 2);
    assert!(out.starts_with(&format!("{}:1:", b.display())), "{out}");
    // Under --json, the error document names the log.
    let (doc, _) = run_json(&mut find_json_in(dir.path(), &[&a, &missing], "CLAIM"), 2);
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("gone.log"),
        "{doc}"
    );
    let (code, out, err) = run(rxw(dir.path()).arg("jobs").arg(&missing).arg(&a));
    assert_eq!(code, 2, "{err}");
    assert!(out.contains("j1"), "{out}");
    // None opens: refused, naming the first.
    let other = dir.path().join("also-gone.log");
    let (code, out, err) = run(rxw(dir.path()).arg("jobs").arg(&missing).arg(&other));
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("gone.log"), "{err}");
}

/// Regression: every merged log is open at once, so 3,000 logs under `ulimit -n 256` gave
/// 2,875 "Too many open files" and exit 2. The soft limit is raised towards the hard one;
/// past the hard one the command says how many files it needs.
#[test]
fn many_logs_under_a_low_soft_limit_on_open_files_are_all_read() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    for k in 0..400 {
        std::fs::write(
            logs.join(format!("agent-{k:03}.log")),
            format!("2026-10-05T00:00:{:02}Z CLAIM {k}\n", k % 60),
        )
        .unwrap();
    }
    let hard = std::process::Command::new("sh")
        .args(["-c", "ulimit -Hn"])
        .output()
        .unwrap();
    let hard = String::from_utf8_lossy(&hard.stdout).trim().to_string();
    let bin = assert_cmd::cargo::cargo_bin("rxw");
    let run = |soft: u32| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -Sn {soft} && \"$0\" find --count CLAIM \"$1\""
            ))
            .arg(&bin)
            .arg(&logs)
            .output()
            .unwrap()
    };
    if hard == "unlimited" || hard.parse::<u64>().is_ok_and(|h| h >= 1264) {
        let out = run(256);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "400\n");
    }
    // A hard limit below what the logs need is said, not 400 failures.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 200 && \"$0\" find --count CLAIM \"$1\"")
        .arg(&bin)
        .arg(&logs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("need about 1264 open files"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Regression: a small zstd that decodes to gigabytes (a decompression bomb) made
/// `parse --count` abort ("memory allocation of 4294852608 bytes failed") and `find` with a
/// line-crossing pattern and `timeline '(?s)CLAIM.'` print "out of memory": a text read
/// whole grew without a cap. The cap is stated, the reads stop there and say so, exit 2.
#[test]
fn a_decompression_bomb_is_bounded_and_said_never_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let line = "2026-10-05T00:00:01Z agent [CLAIM 7fce46e0] [WO:7fce46e0] [from super] x\n";
    let text = line.repeat(8 << 20 >> 6); // 8 MiB of lines
    let bomb = write_file(dir.path(), "bomb.log.zst", zstd(text.as_bytes()));
    assert!(std::fs::metadata(&bomb).unwrap().len() < 100_000);
    let two = write_file(dir.path(), "two.log.zst", zstd(text.as_bytes()));
    for args in [
        vec!["parse", "--count"],
        vec!["find", "--count", "(?s)CLAIM."],
        vec!["timeline", "(?s)CLAIM."],
    ] {
        for inputs in [vec![&bomb], vec![&bomb, &two]] {
            let (code, _, err) = run(rxw(dir.path())
                .env("RXW_MAX_DECODED", "1M")
                .args(&args)
                .args(&inputs));
            assert_eq!(code, 2, "{args:?} {inputs:?}: {err}");
            assert!(
                err.contains("passed 1 MB, the most a text read whole may hold in memory"),
                "{args:?}: {err}"
            );
        }
    }
    // The flag outranks the environment, and a line-by-line search reads any size.
    let (code, out, err) = run(rxw(dir.path())
        .env("RXW_MAX_DECODED", "1M")
        .args(["find", "--count", "--max-decoded", "64M", "(?s)CLAIM."])
        .arg(&bomb));
    assert_eq!(
        (code, out.trim()),
        (0, (8 << 20 >> 6).to_string().as_str()),
        "{err}"
    );
    let (code, out, _) = run(rxw(dir.path())
        .env("RXW_MAX_DECODED", "1M")
        .args(["find", "--count", "CLAIM"])
        .arg(&bomb));
    assert_eq!((code, out.trim()), (0, (8 << 20 >> 6).to_string().as_str()));
}
