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

/// Issue #14, "paste burst without bracketed paste": tmux's `paste-buffer` (without `-p`)
/// types the text as keys, with CR line ends, as a terminal without bracketed paste does.
/// 200 KB used to take minutes (every key recompiled the pattern; tabs moved the focus). It
/// must land whole in the focused editor, and Ctrl-C after it must quit.
#[test]
fn a_paste_burst_without_bracketed_paste_lands_whole_and_ctrl_c_quits() {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("NOTICE: tmux is not installed; skipping the paste-burst test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("small.log");
    std::fs::write(&log, "[CLAIM 7fce46e0]\n").unwrap();
    let line = "2026-11-30T10:00:00Z\t[CLAIM 7fce46e0]\tworker took the job\n";
    let mut pasted = line.repeat(200_000 / line.len());
    pasted.push_str("END-OF-PASTE");
    let paste_file = dir.path().join("paste.txt");
    std::fs::write(&paste_file, &pasted).unwrap();

    let session = format!("rxw-paste-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_rxw");
    let cmd = format!(
        "env XDG_STATE_HOME='{}' TERM=xterm-256color '{bin}' --fresh -e 'x' '{}'; echo RXW-EXITED $?; sleep 20",
        dir.path().display(),
        log.display()
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
    let first = wait_for(&session, "0 matches");
    assert!(first.contains("0 matches"), "start:\n{first}");
    let buffer = format!("{session}-buf");
    let loaded = tmux(&[
        "load-buffer",
        "-b",
        &buffer,
        &paste_file.display().to_string(),
    ]);
    assert!(loaded.status.success());
    // No -p: the text is typed as keys even though rxw asked for bracketed paste.
    tmux(&["paste-buffer", "-d", "-b", &buffer, "-t", &session]);
    let after = wait_for(&session, "END-OF-PASTE");
    let landed = after.contains("END-OF-PASTE");
    tmux(&["send-keys", "-t", &session, "C-c"]);
    let exited = wait_for(&session, "RXW-EXITED 0");
    let _ = tmux(&["kill-session", "-t", &session]);
    assert!(landed, "the end of the paste is on screen:\n{after}");
    assert!(exited.contains("RXW-EXITED 0"), "Ctrl-C quit:\n{exited}");
    // Saved on the way out (an autosave during the paste may have written a part before).
    let saved = dir.path().join("rxw/session.json");
    let json = std::fs::read_to_string(&saved).expect("Ctrl-C quit and saved the session");
    let s: serde_json::Value = serde_json::from_str(&json).unwrap();
    // The one-line pattern editor makes line breaks spaces; tabs stay, so none moved the focus.
    let want = format!("x{}", pasted.replace('\n', " "));
    assert_eq!(s["pattern"].as_str().map(str::len), Some(want.len()));
    assert!(s["pattern"] == want.as_str(), "the paste landed whole");
}
