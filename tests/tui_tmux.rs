//! End to end in a real terminal: runs the `rxw` binary inside tmux, types a pattern and reads
//! the match count off the screen; then quits with Ctrl-C and finds the session saved.
//! Skips (with a notice) when tmux is not installed.
#![cfg(feature = "app")]

use rxw::{Flags, Flavor, Regex};
use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> std::process::Output {
    Command::new("tmux").args(args).output().expect("run tmux")
}

fn screen(session: &str) -> String {
    String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", session]).stdout).into_owned()
}

fn wait_for(session: &str, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let s = screen(session);
        if s.contains(what) || Instant::now() > deadline {
            return s;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn typing_a_pattern_in_tmux_updates_the_match_count() {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("NOTICE: tmux is not installed; skipping the end-to-end TUI test");
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let session = format!("rxw-e2e-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_rxw");
    let cmd = format!(
        "env XDG_STATE_HOME='{}' TERM=xterm-256color '{bin}' --fresh",
        state.path().display()
    );
    let out = tmux(&[
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "120",
        "-y",
        "34",
        &cmd,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = wait_for(&session, "44 matches");
    assert!(first.contains("44 matches"), "demo start:\n{first}");

    // Replace the pattern: Ctrl-U clears the line, then type.
    tmux(&["send-keys", "-t", &session, "C-u"]);
    tmux(&["send-keys", "-t", &session, "-l", r"\[RESULT [0-9a-f]+\]"]);
    let expected = Regex::new(r"\[RESULT [0-9a-f]+\]", Flavor::Python, Flags::default())
        .unwrap()
        .count(rxw::workbench::DEMO_LOG)
        .unwrap();
    assert!(expected > 3);
    let want = format!("{expected} matches");
    let after = wait_for(&session, &want);
    assert!(after.contains(&want), "expected {want}:\n{after}");

    tmux(&["send-keys", "-t", &session, "C-c"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    let saved = state.path().join("rxw/session.json");
    while !saved.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = tmux(&["kill-session", "-t", &session]);
    let json = std::fs::read_to_string(&saved).expect("the session was saved on quit");
    assert!(
        json.contains(r#""pattern": "\\[RESULT [0-9a-f]+\\]""#),
        "{json}"
    );
}

/// Regression: when its terminal hung up (the tmux server killed), rxw used to spin inside
/// crossterm's read at 30% CPU forever. It must end instead.
#[test]
fn a_hung_up_terminal_ends_the_process() {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("NOTICE: tmux is not installed; skipping the hang-up test");
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let socket = format!("rxw-hup-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_rxw");
    let cmd = format!(
        "exec env XDG_STATE_HOME='{}' '{bin}' --fresh",
        state.path().display()
    );
    let run = |args: &[&str]| {
        Command::new("tmux")
            .arg("-L")
            .arg(&socket)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "hup",
        "-x",
        "100",
        "-y",
        "30",
        &cmd,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::thread::sleep(Duration::from_millis(800));
    let pid = String::from_utf8_lossy(
        &run(&["display-message", "-p", "-t", "hup", "#{pane_pid}"]).stdout,
    )
    .trim()
    .to_string();
    assert!(!pid.is_empty(), "no pane pid");
    let proc_dir = format!("/proc/{pid}");
    assert!(
        std::path::Path::new(&proc_dir).exists(),
        "rxw did not start"
    );
    run(&["kill-server"]);
    let deadline = Instant::now() + Duration::from_secs(5);
    while std::path::Path::new(&proc_dir).exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let alive = std::fs::read_to_string(format!("{proc_dir}/stat")).ok();
    // A zombie (state Z) has ended; only a running process fails the test.
    let running = alive.as_deref().is_some_and(|s| !s.contains(") Z "));
    if running {
        let _ = Command::new("kill").arg("-9").arg(&pid).status();
    }
    assert!(!running, "rxw still running 5 s after its terminal hung up");
}
