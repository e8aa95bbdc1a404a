//! Regression: terminal injection through the command line. Text from an untrusted log (or
//! registry, tests file, path) reached the terminal raw: an OSC 52 sequence set the
//! clipboard, `ESC [ 2 J` cleared the screen, C1 and bidirectional controls reordered or
//! drove the terminal. Every human-readable output now shows them as escapes; JSON keeps the
//! exact text.
#![cfg(feature = "app")]

use assert_cmd::Command;
use rxw_testkit::temp_file;

/// An OSC 52 clipboard write (ended by BEL), a screen clear, a C1 CSI and a right-to-left
/// override.
const HOSTILE: &str = "id=\u{1b}]52;c;cHduZWQ=\u{7}X\u{1b}[2JY\u{9b}6nZ\u{202e}W";

fn rxw(dir: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("rxw").unwrap();
    c.env_remove("NO_COLOR")
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .current_dir(dir);
    c
}

/// What `rxw ARGS` (words for the shell) shows on a pseudo-terminal (`script` gives it one);
/// `None` where `script` cannot run, said with what is then not checked (`unchecked`).
fn on_a_terminal(args: &str, unchecked: &str) -> Option<String> {
    let bin = assert_cmd::cargo::cargo_bin("rxw");
    let command = format!("{} {args}", bin.display());
    let Ok(out) = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
    else {
        rxw_testkit::missing("script", unchecked);
        return None;
    };
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The first raw control a terminal would act on, if any.
fn raw_control(s: &str) -> Option<char> {
    s.chars().find(|&c| {
        (c.is_control() && c != '\n')
            || matches!(c as u32, 0x061c | 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069)
    })
}

/// Runs the command; both streams must be free of raw controls. Returns (code, stdout, stderr).
fn inert_run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    for (name, s) in [("stdout", &stdout), ("stderr", &stderr)] {
        if let Some(c) = raw_control(s) {
            panic!("raw U+{:04X} on {name} of {cmd:?}:\n{s:?}", c as u32);
        }
    }
    (out.status.code().unwrap(), stdout, stderr)
}

fn log_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("x.log");
    std::fs::write(&path, format!("line one\n{HOSTILE}\nline three\n")).unwrap();
    path
}

#[test]
fn find_escapes_controls_in_matches_and_groups() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_file(dir.path());
    let (code, out, _) = inert_run(
        rxw(dir.path())
            .args(["find", "--color", "never", r"id=(.*)"])
            .arg("--file")
            .arg(&log),
    );
    assert_eq!(code, 0);
    assert!(
        out.contains(r"2:1: id=\x1b]52;c;cHduZWQ=\x07X\x1b[2JY\u{9b}6nZ\u{202e}W"),
        "{out}"
    );
    // Colour on: rxw's own SGR codes, and nothing else raw.
    let out = rxw(dir.path())
        .args(["find", "--color", "always", r"id=.*"])
        .arg("--file")
        .arg(&log)
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    let without_sgr = out
        .replace("\u{1b}[2m", "")
        .replace("\u{1b}[1;31m", "")
        .replace("\u{1b}[0m", "");
    assert_eq!(raw_control(&without_sgr), None, "{out:?}");
}

#[test]
fn json_keeps_the_exact_text() {
    let dir = tempfile::tempdir().unwrap();
    let out = rxw(dir.path())
        .args(["find", "--json", r"id=.*", "--text", HOSTILE])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["match"], HOSTILE);
}

#[test]
fn parse_escapes_the_match_column_and_groups() {
    let dir = tempfile::tempdir().unwrap();
    let log = log_file(dir.path());
    let reg = dir.path().join("reg.toml");
    std::fs::write(
        &reg,
        "[[preset]]\nkey = \"k\"\nflavor = \"python\"\npattern = 'id=(?P<rest>.*)'\npurpose = \"p\\u202e\"\n",
    )
    .unwrap();
    let (code, out, _) = inert_run(
        rxw(dir.path())
            .args(["parse", "--color", "never", "--only", "k"])
            .arg("--registry")
            .arg(&reg)
            .arg("--file")
            .arg(&log),
    );
    assert_eq!(code, 0);
    assert!(out.contains(r"2:1: k id=\x1b]52"), "{out}");
    assert!(out.contains(r#"rest="\u{1b}]52"#), "{out}");
}

#[test]
fn debug_trace_and_summary_escape_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, _) =
        inert_run(rxw(dir.path()).args(["debug", "--color", "never", r"X.*W", HOSTILE]));
    assert_eq!(code, 0);
    assert!(out.contains(r"\x1b[2J"), "{out}");
    let (code, out, _) = inert_run(rxw(dir.path()).args([
        "debug",
        "--summary",
        "--color",
        "never",
        r"X.*W",
        HOSTILE,
    ]));
    assert_eq!(code, 0);
    assert!(out.contains("hottest positions"), "{out}");
}

#[test]
fn tests_file_fail_lines_escape_the_case() {
    let (dir, file) = temp_file("t\u{1b}[2J.txt", format!("pattern: ^nope\n+ {HOSTILE}\n"));
    let (code, out, _) = inert_run(rxw(dir.path()).arg("tests").arg(&file));
    assert_eq!(code, 1);
    assert!(out.contains(r"FAIL "), "{out}");
    assert!(out.contains(r"t\x1b[2J.txt:2: + id=\x1b]52"), "{out}");
}

#[test]
fn preset_list_and_show_escape_a_user_registry() {
    let (dir, reg) = temp_file(
        "reg\u{9b}.toml",
        "[[preset]]\nkey = \"evil\"\nflavor = \"python\"\n\
         pattern = 'a\\x1b(?P<g>b)'\npurpose = \"clears\\u001b[2J the screen\\u202e\"\n\
         notes = \"line one\\nline\\u009b two\"\n\
         groups = [{ name = \"g\", description = \"desc\\u001b[31m\" }]\n",
    );
    let (code, out, _) = inert_run(
        rxw(dir.path())
            .args(["preset", "list"])
            .arg("--registry")
            .arg(&reg),
    );
    assert_eq!(code, 0);
    assert!(out.contains(r"evil"), "{out}");
    assert!(out.contains(r"clears\x1b[2J the screen\u{202e}"), "{out}");
    for color in ["never", "always"] {
        let out = rxw(dir.path())
            .args(["preset", "show", "--color", color, "evil"])
            .arg("--registry")
            .arg(&reg)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let out = String::from_utf8(out.stdout).unwrap();
        let mut plain = out.clone();
        for code in [
            "1", "0", "2", "33", "36", "35", "34", "32", "1;32", "1;35", "1;33",
        ] {
            plain = plain.replace(&format!("\u{1b}[{code}m"), "");
        }
        assert_eq!(raw_control(&plain), None, "{out:?}");
        assert!(plain.contains(r"desc\x1b[31m"), "{plain}");
        assert!(plain.contains(r"line\u{9b} two"), "{plain}");
    }
}

#[test]
fn audit_require_all_lists_paths_inert() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    std::fs::create_dir(&tree).unwrap();
    std::fs::write(tree.join("a\u{1b}]0;pwned\u{7}.log"), "nothing\n").unwrap();
    let (code, _, err) = inert_run(
        rxw(dir.path())
            .args(["audit", "--require-all", "-p", "needle\u{202e}"])
            .arg(&tree),
    );
    assert_eq!(code, 1);
    assert!(
        err.contains(r"a\x1b]0;pwned\x07.log × needle\u{202e}"),
        "{err}"
    );
}

#[test]
fn errors_that_echo_a_path_are_inert() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = inert_run(rxw(dir.path()).args([
        "find",
        "x",
        "--file",
        "missing\u{1b}]52;c;eA==\u{7}\u{202e}.log",
    ]));
    assert_eq!(code, 2);
    assert!(
        err.contains(r"missing\x1b]52;c;eA==\x07\u{202e}.log"),
        "{err}"
    );
    let (code, _, err) = inert_run(rxw(dir.path()).args(["jobs", "gone\u{9b}2J.log"]));
    assert_eq!(code, 2);
    assert!(err.contains(r"gone\u{9b}2J.log"), "{err}");
}

/// `replace` hands its result on as is into a pipe, and shows it inert on a terminal (run
/// under `script`, which gives it a pseudo-terminal; skipped where `script` is missing).
#[cfg(unix)]
#[test]
fn replace_is_raw_into_a_pipe_and_inert_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = rxw(dir.path())
        .args(["replace", "X", "x", "--text", HOSTILE])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", HOSTILE.replace('X', "x"))
    );
    let text_file = dir.path().join("t.txt");
    std::fs::write(&text_file, HOSTILE).unwrap();
    let Some(shown) = on_a_terminal(
        &format!("replace X x --file {}", text_file.display()),
        "the replacement shown on a terminal is not checked",
    ) else {
        return;
    };
    assert!(
        shown.contains(r"\x1b]52;c;cHduZWQ=\x07x\x1b[2JY\u{9b}6nZ\u{202e}W"),
        "{shown:?}"
    );
    assert_eq!(raw_control(&shown.replace("\r\n", "\n")), None, "{shown:?}");
}

/// Regression: clap's usage errors echoed a bad value as given, so
/// `rxw find --limit "$(printf 'x\e]0;PWNED\a')" a a` retitled the terminal; so did a bad
/// `--to`, a bad `--flavor`, an unknown option and a file name with escapes.
#[test]
fn usage_errors_show_the_arguments_they_echo_inert() {
    let dir = tempfile::tempdir().unwrap();
    let evil = "x\u{1b}]0;PWNED\u{7}\u{9b}2J";
    for args in [
        vec!["find", "--limit", evil, "a", "--text", "a"],
        vec!["registry", "export", "--to", evil],
        vec!["explain", "--flavor", evil, "a"],
        vec!["find", &format!("--{evil}"), "a"],
    ] {
        let (code, _, err) = inert_run(rxw(dir.path()).args(&args));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("error") || err.contains("\"error\""),
            "{args:?}: {err}"
        );
    }
    // With --json the error is one JSON document (exact, as JSON output is for programs);
    // the usage text on standard error is inert.
    let out = rxw(dir.path())
        .args(["find", "--json", "--limit", evil, "a", "--text", "a"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["error"]["kind"], "arguments_invalid");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(raw_control(&stderr), None, "{stderr:?}");
    // A file name with escapes, as a shell glob would pick it up.
    let (code, _, err) = inert_run(rxw(dir.path()).args(["find", "a", evil]));
    assert_eq!(code, 2, "{err}");
}

/// Regression: `registry export --to elasticsearch` printed to a terminal passed a raw
/// U+009B (8-bit CSI) and DEL from a preset's `purpose`. Into a pipe the file stays exact.
#[test]
fn a_registry_export_shown_on_a_terminal_is_inert() {
    let (dir, reg) = temp_file(
        "reg.toml",
        "[[preset]]\nkey = \"evil\"\nflavor = \"python\"\npattern = 'a(?P<g>b)'\n\
         purpose = \"clears\\u009b2J the screen\\u007f\"\n",
    );
    let piped = rxw(dir.path())
        .args(["registry", "export", "--to", "elasticsearch", "--registry"])
        .arg(&reg)
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0), "{piped:?}");
    assert!(String::from_utf8_lossy(&piped.stdout).contains('\u{9b}'));
    let Some(shown) = on_a_terminal(
        &format!(
            "registry export --to elasticsearch --registry {}",
            reg.display()
        ),
        "the export shown on a terminal is not checked",
    ) else {
        return;
    };
    assert!(shown.contains("evil"), "{shown:?}");
    assert_eq!(raw_control(&shown.replace("\r\n", "\n")), None, "{shown:?}");
}
