//! `rxw find --follow` over a merged set of logs: files appended to while `rxw` runs, with
//! bounded waits for its output (never a timed assertion), and the errors of what cannot be
//! followed.

use rxw_testkit::{append, fails_saying, rxw, stamp, write_file};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long a line `rxw` should print may take to come (a loaded debug build); a test that
/// waits this long has failed.
const PATIENCE: Duration = Duration::from_secs(30);

/// A running `rxw find --follow`, its output read line by line on threads.
struct Following {
    child: Child,
    out: Receiver<String>,
    err: Receiver<String>,
    /// Every line read so far, for the failure message.
    seen_out: Vec<String>,
    seen_err: Vec<String>,
}

fn lines_of(stream: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl Following {
    fn start(dir: &Path, args: &[&str]) -> Following {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rxw"))
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rxw starts");
        let out = lines_of(child.stdout.take().unwrap());
        let err = lines_of(child.stderr.take().unwrap());
        Following {
            child,
            out,
            err,
            seen_out: Vec::new(),
            seen_err: Vec::new(),
        }
    }

    /// Waits (at most [`PATIENCE`]) for the next `n` lines on standard output.
    fn next_out(&mut self, n: usize) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut got = Vec::new();
        while got.len() < n {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(left) {
                Ok(line) => {
                    self.seen_out.push(line.clone());
                    got.push(line);
                }
                Err(_) => self.fail(&format!("{n} lines on standard output, got {got:?}")),
            }
        }
        got
    }

    /// Waits (at most [`PATIENCE`]) for a line on standard error holding `what`.
    fn err_saying(&mut self, what: &str) -> String {
        if let Some(line) = self.seen_err.iter().find(|l| l.contains(what)) {
            return line.clone();
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.err.recv_timeout(left) {
                Ok(line) => {
                    self.seen_err.push(line.clone());
                    if line.contains(what) {
                        return line;
                    }
                }
                Err(_) => self.fail(&format!("a line on standard error saying {what:?}")),
            }
        }
    }

    fn fail(&mut self, wanted: &str) -> ! {
        let _ = self.child.kill();
        panic!(
            "waited {PATIENCE:?} for {wanted}\nstdout: {:#?}\nstderr: {:#?}",
            self.seen_out, self.seen_err
        );
    }

    /// Waits for the process to end by itself; its exit code.
    fn exit_code(&mut self) -> i32 {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().expect("an exit code");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.fail("the process to end")
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two logs of a directory followed merged: appends to both come with their log's name and
/// their line in it; a record stamped before one printed is printed at arrival and counted;
/// a truncated log and a rotated one are read again from their start, said on standard
/// error; a log's continuation lines keep their numbers.
#[test]
fn a_merged_set_is_followed_through_appends_a_late_record_truncation_and_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let a = logs.join("a.log");
    let b = logs.join("b.log");
    std::fs::write(&a, format!("{} a: [CLAIM one]\n", stamp(60))).unwrap();
    std::fs::write(
        &b,
        format!(
            "{} b: [CLAIM two]\n{} b: nothing\n",
            stamp(2 * 60),
            stamp(2 * 60)
        ),
    )
    .unwrap();
    let mut f = Following::start(dir.path(), &["find", "--follow", r"CLAIM \w+", "logs"]);
    // The text already there, merged by time, then the rule said.
    assert_eq!(
        f.next_out(2),
        ["logs/a.log:1:26: CLAIM one", "logs/b.log:1:26: CLAIM two"]
    );
    let rule = f.err_saying("following 2 logs");
    assert!(rule.contains("shown at arrival"), "{rule}");

    append(&b, &format!("{} b: [CLAIM five]\n", stamp(5 * 60)));
    assert_eq!(f.next_out(1), ["logs/b.log:3:26: CLAIM five"]);
    // Stamped 00:03, after 00:05 was printed: printed at arrival, counted. Its continuation
    // line is part of its record and keeps its own line number.
    append(
        &a,
        &format!("{} a: [CLAIM late]\n  and [CLAIM cont]\n", stamp(3 * 60)),
    );
    assert_eq!(
        f.next_out(2),
        ["logs/a.log:2:26: CLAIM late", "logs/a.log:3:8: CLAIM cont"]
    );
    f.err_saying("1 late record shown at arrival");

    // a is truncated (copytruncate) and written again: read from its start, line 1.
    std::fs::write(&a, format!("{} a: [CLAIM cut]\n", stamp(6 * 60))).unwrap();
    f.err_saying("logs/a.log was truncated");
    assert_eq!(f.next_out(1), ["logs/a.log:1:26: CLAIM cut"]);

    // b is rotated (renamed, a new file created): the new file is followed from its start.
    std::fs::rename(&b, logs.join("b.log.1")).unwrap();
    std::fs::write(&b, format!("{} b: [CLAIM turned]\n", stamp(7 * 60))).unwrap();
    assert_eq!(f.next_out(1), ["logs/b.log:1:26: CLAIM turned"]);
    f.err_saying("logs/b.log was replaced (rotated)");

    // Both logs go on; in order of arrival, each with its log's name.
    append(&a, &format!("{} a: [CLAIM after]\n", stamp(8 * 60)));
    assert_eq!(f.next_out(1), ["logs/a.log:2:26: CLAIM after"]);
    append(&b, &format!("{} b: [CLAIM last]\n", stamp(9 * 60)));
    assert_eq!(f.next_out(1), ["logs/b.log:2:26: CLAIM last"]);
    assert_eq!(f.seen_err.iter().filter(|l| l.contains("late")).count(), 1);
}

/// A glob of logs followed with a record format and a time range: the pattern runs on each
/// new record's message (`^` at the message), records outside the range are not printed, and
/// `--limit` ends the run once it has printed that many matches in all.
#[test]
fn a_glob_follows_records_within_the_time_range_until_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_file(dir.path(), "x.log", format!("{} a: job one\n", stamp(60)));
    let b = write_file(
        dir.path(),
        "y.log",
        format!("{} b: job two\n", stamp(2 * 60)),
    );
    let mut f = Following::start(
        dir.path(),
        &[
            "find",
            "--follow",
            "--format",
            "netvm",
            "--since",
            "2026-10-05T00:02:00Z",
            "--limit",
            "3",
            r"^job \w+",
            "*.log",
        ],
    );
    assert_eq!(f.next_out(1), ["y.log:1:25: job two"]);
    f.err_saying("following 2 logs");
    // Before the range: not printed (and not late-printed either).
    append(&a, &format!("{} a: job early\n", stamp(0)));
    append(&a, &format!("{} a: job three\n", stamp(3 * 60)));
    assert_eq!(f.next_out(1), ["x.log:3:25: job three"]);
    append(&b, &format!("{} b: job four\n", stamp(4 * 60)));
    assert_eq!(f.next_out(1), ["y.log:2:25: job four"]);
    assert_eq!(f.exit_code(), 0, "three matches in all: --limit 3 ends it");
}

/// What cannot be followed is refused before anything is printed, saying why.
#[test]
fn what_cannot_be_followed_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let log = dir.path().join("a.log");
    std::fs::write(&log, format!("{} a: [CLAIM one]\n", stamp(60))).unwrap();
    let config = dir.path().join("config");
    let cmd = |args: &[&str]| {
        let mut c = rxw(&config);
        c.current_dir(dir.path()).args(args);
        c
    };
    // (what is named to follow, what the refusal says)
    for (path, says) in [
        ("empty", "empty: no file in the directory"),
        ("nothing-*.log", "nothing-*.log: no file matches"),
        ("log[", "not a valid glob"),
        ("gone.log", "gone.log"),
    ] {
        fails_saying(&mut cmd(&["find", "--follow", "CLAIM", path]), says);
    }
    // A pattern whose matches in one new record could differ from the whole text's.
    fails_saying(
        &mut cmd(&["find", "--follow", r"CLAIM\s+one", "a.log"]),
        "keep its matches inside one line",
    );
    fails_saying(
        &mut cmd(&["find", "--follow", r"\A20", "a.log"]),
        "--follow matches each new record as it arrives",
    );
    // A compressed log is read whole, never appended to.
    std::fs::write(dir.path().join("old.log.gz"), rxw_testkit::gzip("CLAIM\n")).unwrap();
    fails_saying(
        &mut cmd(&["find", "--follow", "CLAIM", "a.log", "old.log.gz"]),
        "cannot follow old.log.gz",
    );
    // Standard input, and options whose answer comes only at the end.
    let mut stdin = cmd(&["find", "--follow", "CLAIM"]);
    stdin.write_stdin("CLAIM\n");
    fails_saying(&mut stdin, "standard input cannot be followed");
    for option in ["--count", "--json"] {
        let (code, _, err) =
            rxw_testkit::run(&mut cmd(&["find", "--follow", option, "CLAIM", "a.log"]));
        assert_eq!(code, 2, "{option}: {err}");
        assert!(err.contains("cannot be used with"), "{option}: {err}");
    }
}
