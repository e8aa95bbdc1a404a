//! A newcomer's first hour, scripted on the built binary and the sample fleet the repository
//! ships (`examples/fleet/logs/`): the first commands a new user types, then the workbench in a
//! real terminal (tmux, 200x60), opened as the README's example opens it, as a new user meets
//! it: the count `rxw find` gives, the tab names and the footer, F1's quick reference, a
//! verbose pattern pasted, the Explain tab's attack and Ctrl-Z, the pattern history, and
//! `rxw -p > FILE`. Each step is a feature of its own, tested alone elsewhere;
//! this proves them together, in the order a newcomer meets them.
//!
//! tmux, grep and the CPython of the release plain `python` names (its `m.span`) are the
//! oracles: when one is missing the step says so loudly and is skipped, and under
//! `RXW_REQUIRE_ORACLES=1` the test fails naming it.
#![cfg(feature = "app")]

use rxw_testkit::tmux::Terminal;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The log a newcomer opens first: one agent's day, as the README's examples use it.
const LOG: &str = "examples/fleet/logs/agent-7.log";

/// The README's workbench example, which a newcomer copies (its pattern and log).
const README_PATTERN: &str = r"\[(?P<verb>ACK|CLAIM|RESULT)\s+(?P<job_id>[\w/-]+)\]";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `rxw` in the repository root, with its config and state in `home`.
fn rxw(home: &Path) -> assert_cmd::Command {
    let mut c = rxw_testkit::rxw(home);
    c.current_dir(repo());
    c
}

/// The shell command that runs `rxw ARGS` in the repository root for tmux, with its config
/// and state in `home`.
fn workbench(home: &Path, args: &str) -> String {
    format!(
        "cd '{}' && exec env HOME='{h}' XDG_STATE_HOME='{h}' XDG_CONFIG_HOME='{h}' \
         TERM=xterm-256color '{}' --fresh {args}",
        repo().display(),
        env!("CARGO_BIN_EXE_rxw"),
        h = home.display(),
    )
}

#[test]
fn a_newcomers_first_commands_count_as_grep_does_and_name_a_missing_path() {
    let home = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo().join(LOG)).unwrap();
    let (code, out, err) =
        rxw_testkit::run(rxw(home.path()).args(["find", "--count", "CLAIM", LOG]));
    assert_eq!(code, 0, "{err}");
    let claims = text.matches("CLAIM").count();
    assert!(claims > 50, "{claims}");
    assert_eq!(out.trim(), claims.to_string());
    // As grep counts them: `grep -o CLAIM FILE | wc -l`.
    match Command::new("sh")
        .arg("-c")
        .arg(format!("grep -o CLAIM '{LOG}' | wc -l"))
        .current_dir(repo())
        .output()
    {
        Ok(grep) if grep.status.success() => {
            assert_eq!(out.trim(), String::from_utf8_lossy(&grep.stdout).trim());
        }
        _ => rxw_testkit::missing("grep", "rxw's count is not compared with grep's"),
    }
    // A path that is not there: exit 2, the path named, nothing on standard output; the same
    // for the workbench, which says it before it takes the terminal.
    let gone = "examples/fleet/logs/agent-99.log";
    for args in [vec!["find", "--count", "CLAIM", gone], vec![gone]] {
        let (code, out, err) = rxw_testkit::run(rxw(home.path()).args(&args));
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.starts_with("rxw: ") && err.contains(gone),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_newcomers_session_in_the_workbench() {
    let home = tempfile::tempdir().unwrap();
    // The README's example, copied: it is the README's, and counts what `rxw find` counts.
    let args = format!("--flavor python -e '{README_PATTERN}' {LOG}");
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(
        readme.lines().any(|l| l == format!("rxw {args}")),
        "the README's workbench example is no longer `rxw {args}`"
    );
    let (code, count, err) = rxw_testkit::run(rxw(home.path()).args([
        "find",
        "--count",
        "--flavor",
        "python",
        README_PATTERN,
        LOG,
    ]));
    assert_eq!(code, 0, "{err}");
    let Some(t) = Terminal::start("newcomer", 200, 60, &workbench(home.path(), &args)) else {
        return;
    };
    let text = std::fs::read_to_string(repo().join(LOG)).unwrap();
    let first_line = text.lines().next().unwrap();
    let lines = format!("{} lines", text.lines().count());
    let matches = format!(" {} matches ", count.trim());
    let (screen, ok) =
        t.wait(|s| s.contains(first_line) && s.contains(&matches) && s.contains(&lines));
    assert!(
        ok,
        "the log opened and counted{matches}as rxw find does:\n{screen}"
    );

    // (Every check waits for its whole screen: tmux may be caught between a frame's first
    // rows and its last.)
    // 200 columns show every tab's whole name, numbered as Alt picks them.
    let app = rxw::tui::screens::demo(200, 60);
    let names: Vec<String> = app
        .tabs()
        .enumerate()
        .map(|(i, tab)| match i {
            0..=8 => format!("{} {}", i + 1, tab.title()),
            9 => format!("0 {}", tab.title()),
            _ => tab.title().to_string(),
        })
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    let bar = names.join(" │ ");
    let (screen, ok) = t.wait(|s| s.contains(&bar));
    assert!(ok, "expected the tab bar {bar:?}:\n{screen}");
    // The footer ends on a whole hint: it is the first k hints of the focused pane's (the
    // pattern's, as in a workbench just opened).
    let hints = rxw::tui::keymap::footer_hints(app.context(), app.active_tab());
    let runs: Vec<String> = (1..=hints.len())
        .map(|k| {
            hints[..k]
                .iter()
                .map(|(key, help)| format!(" {key} {help} "))
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    let footer = |s: &str| -> String {
        let last = s.lines().rev().find(|l| !l.trim().is_empty());
        last.unwrap_or("").trim_end().to_string()
    };
    let (screen, ok) = t.wait(|s| runs.iter().skip(3).any(|r| *r == footer(s)));
    assert!(
        ok,
        "the footer is not a run of whole hints:\n{:?}\nhints: {hints:?}\n{screen}",
        footer(&screen)
    );

    // F1: the quick reference of the flavor's constructs, then the keys; Esc closes it.
    t.keys(&["F1"]);
    let flavor = rxw::Flavor::PYTHON;
    let title = format!("Syntax of {} ({})", flavor.label(), flavor.rules().engine);
    let reference: Vec<String> = rxw::engine::reference::quick_reference(flavor)
        .into_iter()
        .map(|r| r.syntax)
        .collect();
    assert!(reference.len() > 10, "{reference:?}");
    let listed = |s: &str| reference.iter().all(|c| s.contains(c.as_str()));
    let (help, ok) = t.wait(|s| s.contains(&title) && listed(s));
    let unlisted: Vec<&String> = reference
        .iter()
        .filter(|c| !help.contains(c.as_str()))
        .collect();
    assert!(ok, "{title}, then {unlisted:?} are missing:\n{help}");
    t.keys(&["Escape"]);
    let (screen, ok) = t.wait(|s| !s.contains(&title));
    assert!(ok, "Esc closes the help:\n{screen}");

    // A two-line verbose pattern pasted (bracketed paste): the line break ends the first
    // line's comment, so both groups stay.
    let verbose =
        "(?x)\\[(?P<verb>CLAIM|RESULT)\\s+  # the tag\n(?P<id>[0-9a-f]+)\\]  # the job id";
    t.keys(&["C-u"]);
    t.paste(verbose);
    t.expect("# the tag␊(?P<id>");
    // Tab leaves the pattern (and keeps it in the history); Alt-2 shows the Groups tab.
    t.keys(&["Tab"]);
    t.keys(&["M-2"]);
    let (screen, ok) = t.wait(|s| {
        s.contains("  1  verb ")
            && s.contains("  2  id ")
            && !s.contains("  3  ")
            && s.contains("└ 2 groups")
    });
    assert!(
        ok,
        "the Groups tab lists the two groups, no third:\n{screen}"
    );

    // The Explain tab on a pattern that backtracks: `a` loads its attack into the input, and
    // Ctrl-Z in the input brings the file back.
    // Tab from the results goes round to the pattern.
    t.keys(&["Tab"]);
    t.keys(&["C-u", "BSpace", "C-u"]);
    let redos = r"^(\w+\s?)*$";
    t.type_text(redos);
    t.expect(&format!("│{redos} "));
    t.keys(&["Tab"]);
    t.press(&["M-3"], "attack:");
    t.keys(&["a"]);
    let (screen, ok) = t.wait(|s| {
        s.contains("loaded the ReDoS attack") && s.contains("│ 1 aaaa") && !s.contains(first_line)
    });
    assert!(ok, "the attack is the input:\n{screen}");
    t.keys(&["BTab"]);
    t.keys(&["C-z"]);
    let (screen, ok) = t.wait(|s| s.contains(first_line) && s.contains(&lines));
    assert!(ok, "Ctrl-Z restores the file's text:\n{screen}");

    // Up in the pattern pane recalls the last pattern, then the one before.
    t.keys(&["BTab"]);
    t.keys(&["C-u"]);
    let (screen, ok) = t.wait(|s| !s.contains(&format!("│{redos} ")));
    assert!(ok, "Ctrl-U clears the pattern:\n{screen}");
    t.press(&["Up"], &format!("│{redos} "));
    t.press(&["Up"], "│(?x)\\[(?P<verb>CLAIM|RESULT)");

    t.keys(&["C-c"]);
    assert!(t.wait_for_exit(), "Ctrl-C quits:\n{}", t.screen());
}

/// `rxw -p > FILE`: the workbench draws on the terminal and the pattern accepted there lands in
/// the file; on the way, the Groups tab gives `body` the span CPython's `m.span('body')` gives
/// (code points: `35..94` on a line whose bytes say `37..101`; the regression of
/// `tests/tui_app.rs`' `the_groups_tab_shows_spans_in_the_flavors_units`, its pattern).
#[test]
fn a_newcomers_pattern_printed_to_a_file_and_its_spans_as_cpython_counts() {
    let home = tempfile::tempdir().unwrap();
    let line = "10:15 — [WO:7fce46e0] [from super] Audit — 😀 check stats on nv-646, post p99 latency by 11:00.";
    let input = home.path().join("one.log");
    std::fs::write(&input, format!("{line}\n")).unwrap();
    let out = home.path().join("pattern.txt");
    let pattern = r"\[WO:(?P<id>[0-9a-f]+)\].*?(?P<body>Audit.*)";
    let args = format!(
        "-p --flavor python -e '{pattern}' '{}' > '{}'",
        input.display(),
        out.display()
    );
    let Some(t) = Terminal::start("newcomer-print", 200, 60, &workbench(home.path(), &args)) else {
        return;
    };
    t.expect("1 match");
    t.keys(&["M-2"]);
    let body = line.find("Audit").unwrap();
    let (start, end) = (line[..body].chars().count(), line.chars().count());
    assert_eq!(
        (start, end),
        (35, 94),
        "the line was written for these spans"
    );
    assert_eq!((body, line.len()), (37, 101), "bytes say otherwise");
    let span = format!(" {start}..{end} ");
    let (screen, ok) = t.wait(|s| {
        s.contains("(spans in code points)")
            && s.lines()
                .any(|l| l.contains("  2  body ") && l.contains(&span))
    });
    assert!(ok, "the Groups tab gives body{span}:\n{screen}");
    // Plain `python` is compared with the CPython of the release it names.
    let release = rxw::Flavor::PYTHON.py_version().expect("a Python flavor");
    if let Some(python) = rxw_testkit::python_release(
        release.number(),
        "CPython's own m.span('body') is not compared",
    ) {
        let said = Command::new(python)
            .args([
                "-c",
                "import re,sys; m=re.search(sys.argv[1], sys.argv[2]); print(m.span('body'))",
                pattern,
                line,
            ])
            .output()
            .unwrap();
        assert!(said.status.success(), "{:?}", said);
        assert_eq!(
            String::from_utf8_lossy(&said.stdout).trim(),
            format!("({start}, {end})")
        );
    }
    // The newcomer anchors the pattern at the line's end and accepts it with Enter (as in
    // fzf): that pattern is printed.
    t.keys(&["BTab", "BTab"]);
    t.keys(&["End"]);
    t.type_text("$");
    let accepted = format!("{pattern}$");
    t.expect(&format!("│{accepted} "));
    t.keys(&["Enter"]);
    assert!(t.wait_for_exit(), "Enter accepts:\n{}", t.screen());
    let printed = std::fs::read_to_string(&out).expect("the output file");
    assert_eq!(printed, format!("{accepted}\n"));
}
