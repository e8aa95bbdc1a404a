//! Regression ("SIGBUS on truncation"): a file that shrinks while rxw reads it
//! (logrotate's copytruncate) used to kill the process with SIGBUS (exit 135) because large
//! files were memory-mapped. Whatever the timing, rxw must now end with 0, 1 or 2.
#![cfg(all(unix, feature = "app"))]

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A log of `bytes` bytes whose lines hold a doubled word (`the the`) and a NetVM verb.
fn write_log(path: &std::path::Path, bytes: usize) {
    let line = "2026-11-30T10:00:00Z [CLAIM 7fce46e0] worker took the the job from 646\n";
    let text = line.repeat(bytes / line.len() + 1);
    std::fs::write(path, text).unwrap();
}

/// Runs `rxw args… path` and, `delay_ms` later, cuts the file to 1,000 bytes as copytruncate
/// does under a reader: what rxw printed and how it ended.
fn truncated_under(args: &[&str], path: &std::path::Path, delay_ms: u64) -> std::process::Output {
    let child = Command::new(env!("CARGO_BIN_EXE_rxw"))
        .args(args)
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(delay_ms));
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(1000)
        .unwrap();
    child.wait_with_output().unwrap()
}

fn run_while_truncating(args: &[&str], path: &std::path::Path, delay_ms: u64) {
    write_log(path, 8 << 20);
    let out = truncated_under(&[args, &["--file"]].concat(), path, delay_ms);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.signal(),
        None,
        "rxw {args:?} was killed by a signal (delay {delay_ms} ms): {stderr}"
    );
    let code = out.status.code().unwrap();
    assert!(
        [0, 1, 2].contains(&code),
        "rxw {args:?} exited {code} (delay {delay_ms} ms): {stderr}"
    );
    if code == 2 {
        assert!(
            stderr.contains("changed while it was read"),
            "a truncation mid-read is a clear io error: {stderr}"
        );
    }
}

#[test]
fn sigbus_on_truncation_find_count_survives_a_file_truncated_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.log");
    for delay_ms in [0, 2, 5, 10, 20, 40] {
        run_while_truncating(
            &["find", "--count", "--flavor", "python", r"(\w+)\s\1"],
            &path,
            delay_ms,
        );
    }
}

#[test]
fn sigbus_on_truncation_parse_survives_a_file_truncated_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.log");
    for delay_ms in [0, 2, 5, 10, 20, 40] {
        run_while_truncating(&["parse", "--count"], &path, delay_ms);
    }
}

/// Regression: `rxw jobs` on a file truncated while it was read printed the table of the
/// part it had read, exit 0, without a word. Now, as `find`, `parse` and `timeline`: the
/// table of the whole file (or of the short file, when the cut came first), else exit 2 with
/// "the file changed while it was read".
#[test]
fn jobs_says_the_file_changed_when_truncated_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.log");
    let table_of = |path: &std::path::Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_rxw"))
            .arg("jobs")
            .arg(path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        out.stdout
    };
    // A log whose job ids change along the file, so a table of a part differs from both.
    let log: String = (0..160_000)
        .map(|i| format!("2026-11-30T10:00:00Z [CLAIM {:08x}] worker {i}\n", i / 1000))
        .collect();
    std::fs::write(&path, &log).unwrap();
    let whole = table_of(&path);
    std::fs::write(&path, &log.as_bytes()[..1000]).unwrap();
    let short = table_of(&path);
    for delay_ms in [2, 5, 10, 20, 40, 80] {
        std::fs::write(&path, &log).unwrap();
        let out = truncated_under(&["jobs"], &path, delay_ms);
        let stderr = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0) => assert!(
                out.stdout == whole || out.stdout == short,
                "a partial table, exit 0, no warning (delay {delay_ms} ms)"
            ),
            Some(2) => {
                assert!(
                    stderr.contains("the file changed while it was read"),
                    "{stderr}"
                );
            }
            other => panic!("exit {other:?} (delay {delay_ms} ms): {stderr}"),
        }
    }
}
