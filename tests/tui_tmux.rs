//! End to end in a real terminal: runs the `rxw` binary inside tmux, types a pattern and reads
//! the match count off the screen; then quits with Ctrl-C and finds the session saved.
//! Skips (with a notice; a failure under `RXW_REQUIRE_ORACLES=1`) when tmux is not installed.
#![cfg(feature = "app")]

use rxw::{Flags, Flavor, Regex};
use rxw_testkit::tmux::Terminal;
use rxw_testkit::{append, temp_file, write_file};
use std::process::Command;
use std::time::{Duration, Instant};

/// `rxw --fresh ARGS` in a 120x34 terminal of its own, its state and config in `state`, with
/// more `NAME=value` settings (`env`) in its environment; the shell stays 20 s after it ends
/// (its last screen can be read). `None` when tmux is missing (said by
/// [`rxw_testkit::missing`], which fails the test under `RXW_REQUIRE_ORACLES=1`).
fn workbench(tag: &str, state: &std::path::Path, env: &str, args: &str) -> Option<Terminal> {
    Terminal::start(
        tag,
        120,
        34,
        &format!("{}; sleep 20", rxw(state, env, args)),
    )
}

/// The demo (`rxw --fresh`) in a [`workbench`] with a new state folder, once it shows its 44
/// matches: the terminal and the folder.
fn demo(tag: &str) -> Option<(Terminal, tempfile::TempDir)> {
    let dir = tempfile::tempdir().unwrap();
    let t = workbench(tag, dir.path(), "", "")?;
    t.expect("44 matches");
    Some((t, dir))
}

/// The shell command `rxw --fresh ARGS` with its state and config in `state`, more
/// `NAME=value` settings (`env`) in its environment, and xterm's TERM. A spill may write what
/// its disk has free (`RXW_SPILL_ROOM`; `env` may set less): the tests must not depend on how
/// full the machine's disk is.
fn rxw(state: &std::path::Path, env: &str, args: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_rxw");
    format!(
        "env XDG_STATE_HOME='{0}' XDG_CONFIG_HOME='{0}' TERM=xterm-256color RXW_SPILL_ROOM=1T {env} '{bin}' --fresh {args}",
        state.display()
    )
}

#[test]
fn typing_a_pattern_in_tmux_updates_the_match_count() {
    let state = tempfile::tempdir().unwrap();
    let Some(t) = Terminal::start("e2e", 120, 34, &rxw(state.path(), "", "")) else {
        return;
    };
    t.expect("44 matches");

    // Replace the pattern: Ctrl-U clears the line, then type.
    t.keys(&["C-u"]);
    t.type_text(r"\[RESULT [0-9a-f]+\]");
    let expected = Regex::new(r"\[RESULT [0-9a-f]+\]", Flavor::PYTHON, Flags::default())
        .unwrap()
        .count(rxw::workbench::DEMO_LOG)
        .unwrap();
    assert!(expected > 3);
    t.expect(&format!("{expected} matches"));

    t.keys(&["C-c"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    let saved = state.path().join("rxw/session.json");
    while !saved.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(t);
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
    let state = tempfile::tempdir().unwrap();
    let cmd = format!("exec {}", rxw(state.path(), "", ""));
    let Some(t) = Terminal::start("hup", 100, 30, &cmd) else {
        return;
    };
    std::thread::sleep(Duration::from_millis(800));
    let pid = String::from_utf8_lossy(
        &t.tmux(&["display-message", "-p", "-t", "hup", "#{pane_pid}"])
            .stdout,
    )
    .trim()
    .to_string();
    assert!(!pid.is_empty(), "no pane pid");
    let proc_dir = format!("/proc/{pid}");
    assert!(
        std::path::Path::new(&proc_dir).exists(),
        "rxw did not start"
    );
    t.tmux(&["kill-server"]);
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

/// Regression ("paste burst without bracketed paste"): tmux's `paste-buffer` (without `-p`)
/// types the text as keys, with CR line ends, as a terminal without bracketed paste does.
/// 200 KB used to take minutes (every key recompiled the pattern; tabs moved the focus). It
/// must land whole in the focused editor, and Ctrl-C after it must quit.
#[test]
fn a_paste_burst_without_bracketed_paste_lands_whole_and_ctrl_c_quits() {
    let (dir, log) = temp_file("small.log", "[CLAIM 7fce46e0]\n");
    let line = "2026-11-30T10:00:00Z\t[CLAIM 7fce46e0]\tworker took the job\n";
    let mut pasted = line.repeat(200_000 / line.len());
    pasted.push_str("END-OF-PASTE");
    let paste_file = dir.path().join("paste.txt");
    std::fs::write(&paste_file, &pasted).unwrap();

    let cmd = format!(
        "{}; echo RXW-EXITED $?; sleep 20",
        rxw(dir.path(), "", &format!("-e 'x' '{}'", log.display()))
    );
    let Some(t) = Terminal::start("paste", 120, 34, &cmd) else {
        return;
    };
    t.expect("0 matches");
    let buffer = "paste-buf";
    let loaded = t.tmux(&[
        "load-buffer",
        "-b",
        buffer,
        &paste_file.display().to_string(),
    ]);
    assert!(loaded.status.success());
    // No -p: the text is typed as keys even though rxw asked for bracketed paste.
    t.tmux(&["paste-buffer", "-d", "-b", buffer, "-t", "paste"]);
    let (after, landed) = t.wait(|s| s.contains("END-OF-PASTE"));
    t.keys(&["C-c"]);
    let (exited, quit) = t.wait(|s| s.contains("RXW-EXITED 0"));
    drop(t);
    assert!(landed, "the end of the paste is on screen:\n{after}");
    assert!(quit, "Ctrl-C quit:\n{exited}");
    // Saved on the way out (an autosave during the paste may have written a part before).
    let saved = dir.path().join("rxw/session.json");
    let json = std::fs::read_to_string(&saved).expect("Ctrl-C quit and saved the session");
    let s: serde_json::Value = serde_json::from_str(&json).unwrap();
    // The pattern editor keeps the paste's line breaks; tabs stay, so none moved the focus.
    let want = format!("x{pasted}");
    assert_eq!(s["pattern"].as_str().map(str::len), Some(want.len()));
    assert!(s["pattern"] == want.as_str(), "the paste landed whole");
}

/// The Lens tab in a real terminal: Alt-9 scans every preset over the demo log, the legend
/// counts each key, `j` selects a key, `n` jumps to its hits (the status bar counts them and
/// the fields table shows the cursor line's), Space hides the key.
#[test]
fn the_lens_in_tmux_counts_every_key_and_jumps_through_one() {
    let Some((s, _dir)) = demo("lens") else {
        return;
    };
    s.keys(&["M-9"]);
    // On the demo's NetVM records: work_order finds its 22 work orders (on the raw text, 0).
    let screen = s.expect("346 hits");
    for want in [
        "verb",
        "44",
        "short_hex",
        "165",
        "result",
        "17",
        "work_order",
        "22",
    ] {
        assert!(screen.contains(want), "{want}:\n{screen}");
    }
    // work_order, ack, verb: the third key.
    s.keys(&["j", "j"]);
    let screen = s.press(&["n"], "verb: hit 1 of 44");
    assert!(screen.contains("verb=CLAIM  job_id=7fce46e0"), "{screen}");
    s.press(&["n"], "verb: hit 2 of 44");
    s.keys(&["Space"]);
    s.press(&["n"], "verb is hidden: Space shows it");
}

/// The Jobs tab in a real terminal: Alt-0 lists the demo log's jobs, `s` sorts, Enter jumps
/// to the selected job's lines.
#[test]
fn the_jobs_view_in_tmux_lists_sorts_and_jumps() {
    let Some((s, _dir)) = demo("jobs") else {
        return;
    };
    let screen = s.press(&["M-0"], "24 jobs · 9 flagged · sorted by first");
    assert!(screen.contains("▶7fce46e0"), "{screen}");
    assert!(screen.contains("CLAIM→END"), "{screen}");
    let screen = s.press(&["s", "s", "s"], "sorted by duration");
    assert!(screen.contains(" fae923d5  OK"), "longest first:\n{screen}");
    assert!(
        screen.contains("▶7fce46e0"),
        "the selection stays:\n{screen}"
    );
    s.press(&["g"], "▶fae923d5");
    let screen = s.press(&["Enter"], "job fae923d5: event 1 of");
    assert!(
        screen.contains("· 21:1 "),
        "the cursor on its first line:\n{screen}"
    );
}

fn numbered_lines(n: usize, marked: &[usize]) -> String {
    (1..=n)
        .map(|i| {
            if marked.contains(&i) {
                format!("line {i:02} ERR\n")
            } else {
                format!("line {i:02} ok\n")
            }
        })
        .collect()
}

#[test]
fn the_filter_in_tmux_shows_matching_lines_with_context_then_the_others() {
    let (dir, log) = temp_file("app.log", numbered_lines(30, &[5, 17]));
    let Some(s) = workbench(
        "filter",
        dir.path(),
        "",
        &format!("-e ERR '{}'", log.display()),
    ) else {
        return;
    };
    s.expect("2 matches");
    let screen = s.press(&["C-l"], "filter: 2 with a match");
    assert!(screen.contains(" 5 line 05 ERR"), "{screen}");
    assert!(
        screen.contains("17 line 17 ERR"),
        "the file's line numbers:\n{screen}"
    );
    assert!(!screen.contains("line 06 ok"), "{screen}");
    let screen = s.press(&["M-+"], "filter: 6 shown: 2 with a match ±1");
    for want in [
        " 4 line 04 ok",
        " 6 line 06 ok",
        "16 line 16 ok",
        "18 line 18 ok",
    ] {
        assert!(screen.contains(want), "{want}:\n{screen}");
    }
    assert!(!screen.contains("line 07 ok"), "{screen}");
    let screen = s.press(&["C-l"], "filters: without a match");
    assert!(screen.contains("28 shown"), "{screen}");
    assert!(!screen.contains("line 05 ERR"), "{screen}");
    assert!(screen.contains(" 6 line 06 ok"), "{screen}");
    s.keys(&["C-l"]);
    let (screen, ok) = s.wait(|s| s.contains("line 05 ERR") && !s.contains("filter:"));
    assert!(ok, "every line again:\n{screen}");
}

/// `rxw -f FILE -e ERR` on 40 lines with one match (`app.log` in a new folder), waiting until
/// it shows: the terminal, the log and its folder.
fn follow_session(tag: &str) -> Option<(Terminal, std::path::PathBuf, tempfile::TempDir)> {
    let (dir, log) = temp_file("app.log", numbered_lines(40, &[3]));
    let s = workbench(
        tag,
        dir.path(),
        "",
        &format!("-e ERR -f '{}'", log.display()),
    )?;
    s.expect("following");
    s.expect("1 match ");
    Some((s, log, dir))
}

#[test]
fn following_in_tmux_shows_appended_lines_and_their_matches_at_the_end() {
    let Some((s, log, _dir)) = follow_session("follow-append") else {
        return;
    };
    append(&log, "line 41 ERR new\nline 42 ok\n");
    let screen = s.expect("2 matches");
    assert!(screen.contains("41 line 41 ERR new"), "{screen}");
    assert!(screen.contains("42 lines"), "{screen}");
    // A line written in two parts is matched once it is whole.
    append(&log, "line 43 E");
    s.expect("line 43 E");
    append(&log, "RR late\n");
    let screen = s.expect("3 matches");
    assert!(screen.contains("43 line 43 ERR late"), "{screen}");
}

#[test]
fn following_in_tmux_reloads_a_truncated_file_and_says_so() {
    let Some((s, log, _dir)) = follow_session("follow-truncate") else {
        return;
    };
    // As logrotate's copytruncate: the same file, emptied, then written again.
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&log)
        .unwrap();
    append(&log, "after ERR ERR\n");
    s.expect("was truncated");
    let (screen, ok) = s.wait(|sc| sc.contains("2 matches") && sc.contains("after ERR ERR"));
    assert!(ok, "the new content and its count:\n{screen}");
    assert!(!screen.contains("line 03 ERR"), "{screen}");
    append(&log, "more ERR\n");
    s.expect("3 matches");
}

#[test]
fn following_in_tmux_moves_to_the_new_file_after_a_rotation() {
    let Some((s, log, dir)) = follow_session("follow-rotate") else {
        return;
    };
    // As logrotate's default: rename the file away, create a new one at the path.
    std::fs::rename(&log, dir.path().join("app.log.1")).unwrap();
    std::fs::write(&log, "rotated ERR\n").unwrap();
    let (screen, ok) = s.wait(|sc| sc.contains("rotated): following the new file"));
    assert!(ok, "{screen}");
    s.expect("rotated ERR");
    append(&log, "then ERR ERR\n");
    let screen = s.expect("3 matches");
    assert!(screen.contains("then ERR ERR"), "{screen}");
    // The old file's later writes are not shown.
    append(&dir.path().join("app.log.1"), "old ERR\n");
    append(&log, "last ok\n");
    let screen = s.expect("last ok");
    assert!(!screen.contains("old ERR"), "{screen}");
}

#[test]
fn a_file_larger_than_the_head_is_read_whole_and_then_followed() {
    // Over the 4 MiB head: the workbench opens on the first lines and reads the rest behind.
    let line = "2026-11-30T10:00:00Z agent-7: [CLAIM 7fce46e0] taking this one\n";
    let n = (5 << 20) / line.len() + 1;
    let (dir, log) = temp_file("big.log", line.repeat(n));
    let Some(s) = workbench(
        "big",
        dir.path(),
        "",
        &format!("-e CLAIM -f '{}'", log.display()),
    ) else {
        return;
    };
    let want = format!(" {n} matches ");
    let screen = s.expect(&want);
    assert!(!screen.contains("indexing"), "{screen}");
    s.expect("following");
    append(&log, "last CLAIM\n");
    let screen = s.expect(&format!(" {} matches ", n + 1));
    assert!(screen.contains("last CLAIM"), "{screen}");
}

/// The status bar's match count: ` 1,234 matches` or ` 1,234+ matches · counting…`.
fn status_count(screen: &str) -> Option<(usize, bool)> {
    screen.lines().find_map(|l| {
        let rest = l.strip_prefix(' ')?;
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .collect();
        let after = &rest[digits.len()..];
        let settled = after.starts_with(" match");
        if digits.is_empty() || !(settled || after.starts_with("+ match")) {
            return None;
        }
        Some((
            digits.replace(',', "").parse().ok()?,
            settled && !l.contains("counting"),
        ))
    })
}

/// Regression: following a log with a pattern that can cross lines (`\s+`), every append
/// restarted the count from byte 0, so the count on screen fell back (to 0) and climbed again,
/// and on a large log never settled. Growth now extends the count: it never goes back and
/// settles on each append.
#[test]
fn following_in_tmux_extends_the_count_of_a_pattern_crossing_lines() {
    let line = "2026-11-30T12:00:00Z agent-7: [CLAIM 7fce46e0] on it\n  details: ok\n";
    let lines = 200_000;
    let (dir, log) = temp_file("big.log", line.repeat(lines));
    let args = format!(r"-e '\[CLAIM\s+\w+\]' -f '{}'", log.display());
    let Some(s) = workbench("follow-grow", dir.path(), "", &args) else {
        return;
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    let settled = |want: usize| loop {
        let sc = s.screen();
        if let Some((n, true)) = status_count(&sc)
            && n >= want
        {
            return n;
        }
        assert!(Instant::now() < deadline, "never settled at {want}:\n{sc}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(settled(lines), lines);
    s.expect("following");
    let mut low = usize::MAX;
    for i in 0..5 {
        append(&log, &format!("x [CLAIM grow{i}] new\n"));
        // Watch the count while the growth is scanned.
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Some((n, _)) = status_count(&s.screen()) {
                low = low.min(n);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    assert!(low >= lines, "the count went back to {low} (of {lines})");
    assert_eq!(settled(lines + 5), lines + 5);
}

/// A plain log and a gzipped one merged and read in pages (RXW_PAGED_BYTES=0 pages any
/// size): the lines interleave by time, the gutter names each line's log and its own line,
/// the count covers both, the status bar says where the spill is, and the spill is gone once
/// the workbench quits.
#[test]
fn a_gz_and_a_plain_log_merged_in_pages_name_their_sources_and_leave_no_spill() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("alpha.log");
    let b = dir.path().join("beta.log.gz");
    let mut plain = String::new();
    let mut zipped = String::new();
    for k in 0..200 {
        plain.push_str(&format!(
            "2026-10-05T00:{:02}:{:02}Z [CLAIM a{k}]\n",
            k / 60,
            k % 60
        ));
        zipped.push_str(&format!(
            "2026-10-05T00:{:02}:{:02}Z [CLAIM b{k}] z\n",
            k / 60,
            k % 60
        ));
    }
    std::fs::write(&a, plain).unwrap();
    std::fs::write(&b, rxw_testkit::gzip(zipped)).unwrap();
    let spills = dir.path().join("tmp");
    std::fs::create_dir(&spills).unwrap();
    let args = format!("-e 'CLAIM [ab]1\\b' '{}' '{}'", a.display(), b.display());
    let Some(s) = workbench(
        "paged-merge",
        dir.path(),
        &format!("TMPDIR='{}' RXW_PAGED_BYTES=0", spills.display()),
        &args,
    ) else {
        return;
    };
    let screen = s.expect("2 matches");
    assert!(screen.contains("spill"), "{screen}");
    // The first lines, a's then b's at each stamp, each with its log and its own line.
    let rows: Vec<&str> = screen
        .lines()
        .filter(|l| {
            l.contains("[CLAIM a0]") || l.contains("[CLAIM b0]") || l.contains("[CLAIM b1]")
        })
        .collect();
    assert!(
        rows.iter()
            .any(|r| r.contains("alpha") && r.contains("[CLAIM a0]")),
        "{screen}"
    );
    assert!(
        rows.iter()
            .any(|r| r.contains("beta") && r.contains("[CLAIM b0]")),
        "{screen}"
    );
    // The Matches list names each match's log and its line there.
    assert!(screen.contains("alpha:2:23"), "{screen}");
    assert!(screen.contains("beta:2:23"), "{screen}");
    // Ctrl-O: only the first log's lines; Ctrl-T: all but the first log's.
    // The input's title counts the lines shown; the status bar names the filter.
    let only = s.press(&["C-o"], "filters: 200 shown");
    assert!(
        only.contains("only alpha") && !only.contains("[CLAIM b0]") && only.contains("[CLAIM a3]"),
        "{only}"
    );
    let hidden = s.press(&["C-t"], "hiding alpha");
    assert!(
        hidden.contains("filters: 200 shown")
            && !hidden.contains("[CLAIM a0]")
            && hidden.contains("[CLAIM b3]"),
        "{hidden}"
    );
    let spilled = || std::fs::read_dir(&spills).unwrap().count();
    // The spill's files are unlinked as soon as they are open: even a killed workbench
    // leaves nothing behind.
    assert_eq!(spilled(), 0, "no spill directory on disk while it runs");
    s.keys(&["C-c"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while spilled() > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(spilled(), 0, "the spill is removed on exit");
}

/// `--follow` on a compressed log: such a log is read whole and never appended to, so the
/// workbench refuses it before taking the terminal, saying why and what to follow instead (it
/// once read the whole decoded text into memory, then read it in pages unfollowed and said
/// nothing).
#[test]
fn a_followed_compressed_log_is_refused_before_the_terminal_is_taken() {
    let (dir, b) = temp_file(
        "beta.log.gz",
        rxw_testkit::gzip("2026-10-05T00:00:00Z [CLAIM b1]\n"),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rxw"))
        .args(["--fresh", "--follow", "-e", "CLAIM b1"])
        .arg(&b)
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "nothing drawn or printed");
    assert!(
        err.contains("cannot follow") && err.contains("gzip compressed"),
        "{err}"
    );
    assert!(err.contains("follow the plain log"), "{err}");
}

/// A paged input is searched in chunks of whole lines, and what a chunk leaves unsettled is
/// carried into the next, so a match across lines is counted; where that cannot be done (a
/// look-behind of unbounded length) the status bar says so instead of counting silently short.
#[test]
fn a_paged_input_counts_matches_across_lines_and_warns_where_it_cannot() {
    let (dir, log) = temp_file("one.log", "a\nb\n[CLAIM x]\n".repeat(50));
    // A match across lines is carried from chunk to chunk: counted, no warning.
    for (name, pattern) in [("paged-cross", r"a\s+b"), ("paged-line", r"CLAIM \w")] {
        let args = format!("-e '{pattern}' '{}'", log.display());
        let Some(s) = workbench(name, dir.path(), "RXW_PAGED_BYTES=0", &args) else {
            return;
        };
        let screen = s.expect("50 matches");
        assert!(!screen.contains("may be missed"), "{screen}");
    }
    // A look-behind of unbounded length cannot be carried: the status bar says so.
    let args = format!(r"--flavor js -e '(?<=a\s*)b' '{}'", log.display());
    let Some(s) = workbench("paged-behind", dir.path(), "RXW_PAGED_BYTES=0", &args) else {
        return;
    };
    s.expect("may be missed");
}

/// Regression: `rxw logs/` failed with "is a directory" and `rxw 'logs/*.gz'` with "No such
/// file", though both worked once a second log was named. One directory or glob opens the
/// logs it names, merged by time.
#[test]
fn one_directory_or_one_glob_opens_the_logs_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    write_file(
        dir.path(),
        "logs/a.log",
        "2026-10-05T00:00:01Z alpha ERR one\n2026-10-05T00:00:03Z alpha ERR three\n",
    );
    write_file(
        dir.path(),
        "logs/b.log",
        "2026-10-05T00:00:02Z beta ERR two\n",
    );
    for (tag, arg) in [
        ("one-dir", format!("-e ERR '{}'", logs.display())),
        ("one-glob", format!("-e ERR '{}/*.log'", logs.display())),
    ] {
        let Some(s) = workbench(tag, dir.path(), "", &arg) else {
            return;
        };
        let screen = s.expect("3 matches");
        let (alpha, beta) = (
            screen.find("alpha ERR one").expect("a.log's first line"),
            screen.find("beta ERR two").expect("b.log's line"),
        );
        assert!(alpha < beta, "merged by time:\n{screen}");
        assert!(!screen.contains("is a directory"), "{screen}");
    }
}

/// Regression: 90 copies of a bomb (8.8 MB decoding to 90 GB) filled the spill's file system
/// to 100% before the status bar said "cannot write the spill", and a bomb under 8 MiB was
/// read whole into memory. The spill stops while room is left, said; the workbench stays.
#[test]
fn a_spill_stops_before_its_disk_is_full_and_says_so() {
    let line = "2026-10-05T00:00:01Z agent [CLAIM 7fce46e0] x\n";
    let decoded = line.repeat((24 << 20) / line.len());
    let (dir, bomb) = temp_file("bomb.log.gz", rxw_testkit::gzip(decoded));
    let args = format!("-e CLAIM '{}'", bomb.display());
    let Some(s) = workbench(
        "spill-room",
        dir.path(),
        "RXW_SPILL_ROOM=10M RXW_MAX_DECODED=1M",
        &args,
    ) else {
        return;
    };
    let screen = s.expect("the spill stopped at");
    assert!(screen.contains("to leave room on"), "{screen}");
    assert!(
        screen.contains("[CLAIM 7fce46e0]"),
        "what was written is shown:\n{screen}"
    );
}

/// Regression: with standard output redirected the workbench refused to start ("needs a
/// terminal"), so `PAT=$(rxw)` was impossible. It draws on the terminal and, as fzf does,
/// prints the pattern Enter accepts where the output goes, with nothing else (not even the
/// cursor's escape sequence); leaving with Ctrl-C prints nothing and exits 130, and
/// `--print=json` prints the pattern with its flavor and flags.
#[test]
fn with_output_redirected_the_workbench_draws_on_the_terminal_and_prints_the_pattern() {
    if !rxw_testkit::tmux::available("the pipeline test is skipped") {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    // Runs the workbench with its output in a file, types `keys`, and returns what it
    // printed and its exit status.
    let run = |name: &str, extra: &str, keys: &[&str]| -> (String, String) {
        let out_file = state.path().join(format!("{name}.out"));
        let status_file = state.path().join(format!("{name}.status"));
        let cmd = format!(
            "{} > '{}'; echo $? > '{}'",
            rxw(state.path(), "", &format!("{extra} -e CLAIM")),
            out_file.display(),
            status_file.display()
        );
        let t = Terminal::start(&format!("pipe-{name}"), 100, 30, &cmd).expect("tmux runs");
        let (shown, _) = t.wait(|s| s.contains("matches"));
        assert!(
            shown.contains("CLAIM") && shown.contains("Enter prints it"),
            "the workbench is on the terminal and says how to answer:\n{shown}"
        );
        t.keys(&[" [0-9a-f]+"]);
        t.wait(|s| s.contains("CLAIM [0-9a-f]+"));
        for k in keys {
            t.keys(&[k]);
        }
        t.wait_for_exit();
        drop(t);
        let printed = std::fs::read(&out_file).expect("the output file");
        let status = std::fs::read_to_string(&status_file).unwrap_or_default();
        (
            String::from_utf8_lossy(&printed).into_owned(),
            status.trim().to_string(),
        )
    };
    assert_eq!(
        run("accept", "", &["Enter"]),
        ("CLAIM [0-9a-f]+\n".to_string(), "0".to_string())
    );
    assert_eq!(
        run("cancel", "", &["C-c"]),
        (String::new(), "130".to_string()),
        "Ctrl-C prints nothing"
    );
    let (json, status) = run("json", "--print=json --flags i", &["Enter"]);
    assert_eq!(status, "0");
    let doc: serde_json::Value = serde_json::from_str(&json).expect(&json);
    assert_eq!(
        doc,
        // The embedded demo is a NetVM log, so the workbench starts on the registry's release.
        serde_json::json!({"pattern": "CLAIM [0-9a-f]+", "flavor": "python@3.11", "flags": "i"})
    );
}

/// `--theme auto` in a real terminal: tmux answers the background query (OSC 11) with the
/// window's background, and rxw draws the light palette's inks on white and the terminal's
/// own ANSI colours on black; `--theme dark` asks nothing. No byte of the answer reaches the
/// pattern pane (the focus is there, so a leaked byte would be typed into the pattern).
#[test]
fn the_theme_follows_the_background_tmux_answers() {
    let dir = tempfile::tempdir().unwrap();
    // A server of the test's own (its options are this test's alone): one session, "base",
    // that rxw's windows are opened in.
    let Some(server) = Terminal::start("base", 120, 34, "sleep 120") else {
        return;
    };
    // The blue of the pattern's groups: the light palette's ink (xterm 25), the terminal's own
    // blue (ANSI 4) in the dark one.
    let light_blue_ink = "\x1b[38;5;25m(?P<verb>";
    let ansi_blue = "\x1b[38;5;4m(?P<verb>";
    for (n, (background, args, want, not)) in [
        ("#ffffff", "", light_blue_ink, ansi_blue),
        ("#000000", "", ansi_blue, light_blue_ink),
        ("#ffffff", "--theme dark", ansi_blue, light_blue_ink),
        ("#000000", "--theme light", light_blue_ink, ansi_blue),
    ]
    .into_iter()
    .enumerate()
    {
        let window = format!("w{n}");
        server.tmux(&[
            "set-option",
            "-g",
            "window-style",
            &format!("bg={background}"),
        ]);
        let cmd = format!("{}; sleep 20", rxw(dir.path(), "", args));
        let opened = server.tmux(&["new-window", "-d", "-t", "base", "-n", &window, &cmd]);
        assert!(
            opened.status.success(),
            "{}",
            String::from_utf8_lossy(&opened.stderr)
        );
        let target = format!("base:{window}");
        let deadline = Instant::now() + Duration::from_secs(60);
        let (plain, coloured) = loop {
            let plain = server.tmux(&["capture-pane", "-p", "-t", &target]).stdout;
            let coloured = server
                .tmux(&["capture-pane", "-p", "-e", "-t", &target])
                .stdout;
            let plain = String::from_utf8_lossy(&plain).into_owned();
            if plain.contains(" matches") || Instant::now() > deadline {
                break (plain, String::from_utf8_lossy(&coloured).into_owned());
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let pattern_row = plain.lines().nth(1).unwrap_or_default();
        assert!(
            pattern_row.starts_with(
                r"│\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]  "
            ),
            "{background} {args}: the pattern changed:\n{plain}"
        );
        assert!(
            coloured.contains(want) && !coloured.contains(not),
            "{background} {args}: {:?}",
            coloured.lines().nth(1)
        );
        server.tmux(&["kill-window", "-t", &target]);
    }
}

/// The Timeline zoomed as a user does it: Alt-L shows the demo's minutes, `+` twice zooms to
/// one second a bucket around the fullest minute (the title says so, the time axis labels
/// seconds, the count axis the fullest bucket on screen), `-` zooms out again, and Enter
/// makes the selected bucket's time the time range, which the status bar names (and counts
/// among the filters).
#[test]
fn the_zoomed_timeline_in_tmux_has_its_axes_and_enter_sets_the_time_range() {
    let Some((s, _dir)) = demo("timeline-zoom") else {
        return;
    };
    let screen = s.press(&["M-l"], "buckets of 1m");
    assert!(screen.contains("┤"), "a count axis:\n{screen}");
    s.press(&["+"], "buckets of 10s (zoomed");
    let screen = s.press(&["+"], "buckets of 1s (zoomed");
    // The time axis labels seconds: `18:mm:ss` under the rule.
    let labels = screen
        .lines()
        .find(|l| l.contains("18:") && !l.contains("2026-"))
        .unwrap_or_default();
    assert!(
        labels
            .split_whitespace()
            .any(|w| w.len() == 8 && w.starts_with("18:")),
        "second labels:\n{screen}"
    );
    s.press(&["-"], "buckets of 10s (zoomed");
    let screen = s.press(
        &["Enter"],
        "time range 2026-11-30T18:00:00Z..2026-11-30T18:00:10Z",
    );
    // The answer names the range; the filters, which do not fit beside it, are counted.
    assert!(
        screen.contains("1 filter (Alt-k)"),
        "the status bar counts it:\n{screen}"
    );
}
