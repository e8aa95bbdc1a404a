//! The progress line of long command-line runs: drawn on standard error when it is a
//! terminal (a pseudo-terminal made by `script`), never when it is piped.

use rxw_testkit::temp_file;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// A log of `lines` lines, three of them matching `RESULT` in every ten.
fn log(lines: usize) -> String {
    (0..lines)
        .map(|k| {
            if k % 10 < 3 {
                format!("2026-10-05T00:00:{:02}Z [RESULT j{k}] OK\n", k % 60)
            } else {
                format!("2026-10-05T00:00:{:02}Z [ACK j{k}] working\n", k % 60)
            }
        })
        .collect()
}

/// Whether `script` (util-linux) is here to give rxw a pseudo-terminal; when not, the test
/// says what is not checked (`consequence`).
fn have_script(consequence: &str) -> bool {
    rxw_testkit::have("script", &["--version"], consequence)
}

/// `command` run by `sh` inside a pseudo-terminal: what the terminal received (standard
/// output and standard error both).
fn in_terminal(command: &str) -> String {
    let out = Command::new("script")
        .args(["-qfec", command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("run script");
    assert!(out.status.success(), "{command}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `rxw ARGS` (a redirection may follow them) inside a pseudo-terminal, reading the
/// log at `path` on standard input and the rest of its input a second late: what the terminal
/// received.
fn slow_input_in_terminal(path: &std::path::Path, args: &str) -> String {
    let rxw = env!("CARGO_BIN_EXE_rxw");
    in_terminal(&format!(
        "(cat '{}'; sleep 1) | '{rxw}' {args}",
        path.display()
    ))
}

/// A run that lasts past the progress delay (the log arrives on standard input, the rest of
/// it a second late) shows `counting … MB` with its rate on the terminal, then clears the
/// line before the count is printed.
#[test]
fn a_long_count_shows_its_progress_on_a_terminal_and_clears_it() {
    if !have_script("the progress line on a pseudo-terminal is not checked") {
        return;
    }
    let (_dir, path) = temp_file("a.log", log(100_000));
    let seen = slow_input_in_terminal(&path, "find --count RESULT");
    let line = seen
        .split('\r')
        .find(|s| s.starts_with("counting "))
        .unwrap_or_else(|| panic!("no progress line in {seen:?}"));
    assert!(line.contains(" MB"), "{line:?}");
    // The line is erased before the count, which is the last thing on the terminal.
    let cleared = seen.rfind("\r\x1b[K").expect("the line is cleared");
    assert_eq!(
        seen[cleared..].trim_start_matches("\r\x1b[K").trim(),
        "30000"
    );
}

/// Regression guard: piped standard error never gets a progress line, however long the run.
#[test]
fn piped_standard_error_stays_clean() {
    let rxw = env!("CARGO_BIN_EXE_rxw");
    let mut child = Command::new(rxw)
        .args(["find", "--count", "RESULT"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(log(100_000).as_bytes()).unwrap();
    // Past the progress delay before the input ends.
    std::thread::sleep(std::time::Duration::from_millis(600));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    // The count, and nothing on stderr.
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!((stdout.trim(), stderr.as_ref()), ("30000", ""));
}

/// The same for `rxw jobs` and `rxw timeline`, which read the logs through the same layer:
/// a terminal sees their progress, cleared before their output.
#[test]
fn jobs_and_timeline_show_their_progress_on_a_terminal() {
    if !have_script("the progress of jobs and timeline on a pseudo-terminal is not checked") {
        return;
    }
    let (_dir, path) = temp_file("a.log", log(100_000));
    for (args, label) in [
        ("jobs --sort job", "pairing jobs "),
        ("timeline RESULT", "counting "),
    ] {
        let seen = slow_input_in_terminal(&path, &format!("{args} >/dev/null"));
        assert!(
            seen.split('\r').any(|s| s.starts_with(label)),
            "{args}: no progress line in {seen:?}"
        );
        assert!(seen.ends_with("\r\x1b[K"), "{args}: not cleared: {seen:?}");
    }
}
