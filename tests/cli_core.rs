//! The command line of the core: `rxw test`, `rxw find`, `rxw replace`.

use rxw_testkit::{json_of, rxw_without_user_files as rxw, temp_file};
use serde_json::{Value, json};

#[test]
fn test_exit_codes_and_json() {
    rxw()
        .args(["test", r"\d+", "--text", "abc123"])
        .assert()
        .code(0)
        .stdout("match\n");
    rxw()
        .args(["test", r"\d+", "--text", "abc"])
        .assert()
        .code(1)
        .stdout("no match\n");
    let out = rxw()
        .args(["test", "--json", r"\d+", "--text", "abc123"])
        .output()
        .unwrap();
    assert_eq!(json_of(&out.stdout), json!({"matched": true}));
}

/// `rxw find --json --flavor FLAVOR PATTERN --text TEXT`, which must exit with `code`: its
/// standard output, one JSON document.
fn find_json(flavor: &str, pattern: &str, text: &str, code: i32) -> Value {
    let find = [
        "find", "--json", "--flavor", flavor, pattern, "--text", text,
    ];
    rxw_testkit::run_json(rxw().args(find), code).0
}

#[test]
fn find_json_has_the_documented_shape() {
    assert_eq!(
        find_json("python", r"(?P<user>\w+)@(\w+)", "é a@b x c@d", 0),
        json!([
            {"index": 3, "end": 6, "char_index": 2, "match": "a@b", "captures": ["a", "b"], "groups": {"user": "a"},
             "spans": {"bytes": [[3, 6], [3, 4], [5, 6]], "code_points": [[2, 5], [2, 3], [4, 5]]}},
            {"index": 9, "end": 12, "char_index": 8, "match": "c@d", "captures": ["c", "d"], "groups": {"user": "c"},
             "spans": {"bytes": [[9, 12], [9, 10], [11, 12]], "code_points": [[8, 11], [8, 9], [10, 11]]}}
        ])
    );
}

/// The spans of the match and its groups in the flavor's own unit beside bytes: UTF-16 code
/// units for JavaScript (what `match.indices` says), code points for Python, bytes alone for
/// the byte-counting flavors; a group that did not take part is null.
#[test]
fn find_json_spans_count_in_the_flavors_unit() {
    let run = |flavor: &str, pattern: &str, text: &str| find_json(flavor, pattern, text, 0);
    // 😀 is 4 bytes, 1 code point, 2 UTF-16 units; é 2 bytes, 1 code point, 1 unit.
    let js = run("js", "(b)(x)?(c)", "😀é bc");
    assert_eq!(
        js[0]["spans"],
        json!({"bytes": [[7, 9], [7, 8], null, [8, 9]], "utf16": [[4, 6], [4, 5], null, [5, 6]]})
    );
    let py = run("python", "(?<=(é)) (b)", "😀é bc");
    assert_eq!(
        py[0]["spans"],
        json!({"bytes": [[6, 8], [4, 6], [7, 8]], "code_points": [[2, 4], [1, 2], [3, 4]]})
    );
    let rust = run("rust", "(b)c", "😀é bc");
    assert_eq!(rust[0]["spans"], json!({"bytes": [[7, 9], [7, 8]]}));
    // A log file read in chunks counts from the file's start.
    let (_dir, log) = temp_file("a.log", "😀😀\nx 😀 y\n");
    let out = rxw()
        .args(["find", "--json", "--flavor", "js", "(y)"])
        .arg(&log)
        .output()
        .unwrap();
    let v = json_of(&out.stdout);
    assert_eq!(v[0]["spans"]["utf16"], json!([[10, 11], [10, 11]]), "{v}");
    assert_eq!(v[0]["spans"]["bytes"], json!([[16, 17], [16, 17]]), "{v}");
}

/// node 24's duplicate named groups: the `groups` object names the group that took part, and
/// `$<a>` in a replacement is its text; Go names the first group of a name.
#[test]
fn a_name_given_twice_answers_as_each_engine_does() {
    let v = find_json("js@node24", "(?<a>x)|(?<a>y)", "xy", 0);
    assert_eq!(v[0]["groups"], json!({"a": "x"}), "{v}");
    assert_eq!(v[1]["groups"], json!({"a": "y"}), "{v}");
    let out = rxw()
        .args([
            "replace",
            "--flavor",
            "js@node24",
            "(?<a>x)|(?<a>y)",
            "[$<a>]",
            "--text",
            "xy",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), "[x][y]");
    let v = find_json("go", "(?P<n>x)|(?P<n>y)", "y", 0);
    assert_eq!(v[0]["groups"], json!({"n": null}), "{v}");
}

#[test]
fn find_groups_null_without_names_and_unset_capture_null() {
    assert_eq!(
        find_json("js", "(a)|b", "b", 0),
        json!([{"index":0,"end":1,"char_index":0,"match":"b","captures":[null],"groups":null,
                 "spans":{"bytes":[[0,1],null],"utf16":[[0,1],null]}}])
    );
}

#[test]
fn find_listing_shows_line_and_column() {
    rxw()
        .args([
            "find",
            "--color",
            "never",
            "--flavor",
            "python",
            r"\[ACK (?P<id>\w+)\]",
            "--text",
            "x\n  [ACK 7f]",
        ])
        .assert()
        .code(0)
        .stdout("2:3: [ACK 7f]  id=\"7f\"\n");
}

#[test]
fn find_count_and_limit() {
    rxw()
        .args(["find", "--count", "a", "--text", "banana"])
        .assert()
        .code(0)
        .stdout("3\n");
    rxw()
        .args(["find", "--count", "--limit", "2", "a", "--text", "banana"])
        .assert()
        .code(0)
        .stdout("2\n");
    rxw()
        .args(["find", "--count", "z", "--text", "banana"])
        .assert()
        .code(1)
        .stdout("0\n");
}

#[test]
fn text_from_stdin_and_file() {
    rxw()
        .args(["find", "--count", "a"])
        .write_stdin("aaa")
        .assert()
        .code(0)
        .stdout("3\n");
    let (_dir, p) = temp_file("in.txt", "xax\n");
    rxw()
        .args(["find", "--count", "a", "--file"])
        .arg(&p)
        .assert()
        .code(0)
        .stdout("1\n");
}

#[test]
fn invalid_utf8_is_said_not_a_crash() {
    let (_dir, p) = temp_file("bad.txt", b"ok \xff ok");
    rxw()
        .args(["find", "--count", "ok", "--file"])
        .arg(&p)
        .assert()
        .code(0)
        .stdout("2\n")
        .stderr(predicates::str::contains("not valid UTF-8"));
}

#[test]
fn missing_file_is_an_error_with_the_path() {
    rxw()
        .args(["find", "a", "--file", "/definitely/not/here.log"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("/definitely/not/here.log"));
}

#[test]
fn replace_in_each_flavor_syntax() {
    rxw()
        .args([
            "replace",
            "--flavor",
            "python",
            r"(\w+) (?P<b>\w+)",
            r"\g<b> \1",
            "--text",
            "hello world",
        ])
        .assert()
        .stdout("world hello\n");
    rxw()
        .args([
            "replace",
            "--flavor",
            "js",
            r"(\w+) (?<b>\w+)",
            "$<b> $1 $$",
            "--text",
            "hello world",
        ])
        .assert()
        .stdout("world hello $\n");
    rxw()
        .args([
            "replace",
            "--flavor",
            "rust",
            "(\\w+) (?P<b>\\w+)",
            "${b} $1",
            "--text",
            "hello world",
        ])
        .assert()
        .stdout("world hello\n");
    let out = rxw()
        .args(["replace", "--json", "o", "0", "--text", "foo"])
        .output()
        .unwrap();
    assert_eq!(
        json_of(&out.stdout),
        json!({"result": "f00", "replaced": 2})
    );
}

#[test]
fn errors_draw_a_caret_or_print_json() {
    rxw()
        .args(["find", "--flavor", "python", "ab(cd", "--text", "x"])
        .assert()
        .code(2)
        .stderr("rxw: missing ), unterminated subpattern\n  ab(cd\n    ^^^\n");
    let out = rxw()
        .args([
            "find", "--json", "--flavor", "python", "a{2,1}", "--text", "x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        json_of(&out.stdout),
        json!({"error": {"kind": "pattern_invalid", "message": "min repeat greater than max repeat", "span": {"start": 1, "end": 6}}})
    );
}

#[test]
fn flags_are_validated() {
    for (flags, message) in [
        ("gq", "invalid flag \"q\""),
        ("gig", "duplicate flag \"g\""),
    ] {
        let out = rxw()
            .args([
                "test", "--json", "--flavor", "js", "--flags", flags, "a", "a",
            ])
            .output()
            .unwrap();
        assert_eq!(json_of(&out.stdout)["error"]["message"], message, "{flags}");
    }
    rxw()
        .args([
            "test", "--flavor", "python", "--flags", "u", "a", "--text", "a",
        ])
        .assert()
        .code(2);
}

#[test]
fn python_traps_behave_as_cpython() {
    // \Z is the absolute end; $ also matches before a final newline.
    rxw()
        .args(["test", "--flavor", "python", r"a\Z", "--text", "a\n"])
        .assert()
        .code(1);
    rxw()
        .args(["test", "--flavor", "python", r"a$", "--text", "a\n"])
        .assert()
        .code(0);
    rxw()
        .args([
            "find",
            "--count",
            "--flavor",
            "python",
            r"\N{EM DASH}",
            "--text",
            "a — b",
        ])
        .assert()
        .stdout("1\n");
    rxw()
        .args([
            "find", "--count", "--flavor", "python", "a{,2}", "--text", "aaa",
        ])
        .assert()
        .stdout("3\n");
}

#[test]
fn broken_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command as Std, Stdio};
    let bin = assert_cmd::cargo::cargo_bin("rxw");
    let text = "a\n".repeat(200_000);
    let (_dir, p) = temp_file("many.txt", text);
    let mut child = Std::new(bin)
        .args(["find", "--color", "never", "a", "--file"])
        .arg(&p)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    // Exit 0, and nothing on stderr.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), stderr.as_ref()), (Some(0), ""));
}

#[test]
fn stats_report_the_engine() {
    rxw()
        .args([
            "find", "--stats", "--count", "--flavor", "python", r"a(?=b)", "--text", "ab ab",
        ])
        .assert()
        .code(0)
        .stdout("2\n")
        .stderr(predicates::str::contains(
            "2 matches · engine rxw matcher (backtracking) · ",
        ));
    rxw()
        .args(["test", "--stats", r"\d", "--text", "1"])
        .assert()
        .stderr(predicates::str::contains("engine regex (linear)"));
}

#[test]
fn regression_find_json_is_one_document_when_an_error_follows_matches() {
    // `b` matches first; the attempt after it backtracks catastrophically. The output used to
    // be half an array followed by an error object.
    let text = format!("b{}c", "a".repeat(40));
    // Not one JSON document: find_json says so.
    let doc = find_json("python", r"b|(a+)+\1$", &text, 2);
    assert_eq!(doc["error"]["kind"], "backtrack_limit", "{doc}");
}

/// Regression: the caret under `日本(` stood at column 4 (characters, plus the indent)
/// where the group opens at display column 6.
#[test]
fn caret_under_wide_characters_counts_display_columns() {
    let out = rxw()
        .args(["find", "日本(", "--text", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    let shown = lines
        .iter()
        .position(|l| *l == "  日本(")
        .expect("the pattern line");
    assert_eq!(lines[shown + 1], "      ^", "{err}");
}

/// Regression: a clap usage error ignored `--json` (text on stderr, nothing on stdout).
#[test]
fn usage_error_with_json_prints_a_json_error_object() {
    let out = rxw()
        .args(["find", "--json", "--no-such-option", "a", "--text", "abc"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v = json_of(&out.stdout);
    assert_eq!(v["error"]["kind"], "arguments_invalid", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--no-such-option"),
        "{v}"
    );
    let out = rxw()
        .args(["audit", "--format", "json", "-p"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(json_of(&out.stdout)["error"]["kind"], "arguments_invalid");
    // Without --json: clap's text on stderr, nothing on stdout; help still exits 0.
    let out = rxw()
        .args(["find", "--no-such-option", "a", "--text", "abc"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-such-option"));
    rxw().args(["find", "--help", "--json"]).assert().code(0);
}

fn sh(script: &str) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("rxw");
    std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .output()
        .unwrap()
}

/// Regression: writing to a closed standard output exited 0 silently.
#[test]
fn closed_stdout_is_an_error_but_dev_null_is_not() {
    let out = sh(r#""$0" find a --text abc >&-"#);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Bad file descriptor"));
    let out = sh(r#""$0" find a --text abc >/dev/null"#);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // /dev/null opened read-write, as Python's subprocess.DEVNULL and node's "ignore" give
    // it: was taken for a closed output (the runtime reopens a closed one that way) and
    // exited 2.
    let out = sh(r#""$0" find a --text abc 1<>/dev/null"#);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import subprocess, sys; sys.exit(subprocess.run([sys.argv[1], 'find', 'a', '--text', 'abc'], stdout=subprocess.DEVNULL).returncode)",
            env!("CARGO_BIN_EXE_rxw"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // A reader that goes away (EPIPE) stays not-an-error: `broken_pipe_is_not_an_error`.
}

/// Regression: `--file -` was taken as a file named `-`.
#[test]
fn file_dash_reads_standard_input() {
    for (args, input, want) in [
        (&["find", "b", "--file", "-"][..], "abc", "1:2: b\n"),
        (
            &["parse", "--count", "--file", "-"],
            "[CLAIM 7fce46e0]",
            "2\n",
        ),
    ] {
        rxw()
            .args(args)
            .write_stdin(input)
            .assert()
            .code(0)
            .stdout(want);
    }
}

#[test]
fn completions_and_man_page_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = rxw().args(["completions", shell]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let text = String::from_utf8(out.stdout).unwrap();
        for sub in ["audit", "parse", "preset", "explain", "completions"] {
            assert!(text.contains(sub), "{shell} completions lack {sub}");
        }
    }
    let out = rxw().arg("man").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.starts_with(".ie") || page.contains(".TH rxw"),
        "{page}"
    );
    for sub in ["audit", "parse", "preset", "find", "replace"] {
        assert!(page.contains(sub), "man page lacks {sub}");
    }
    let out = rxw().args(["man", "audit"]).output().unwrap();
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.contains("rxw-audit") && page.contains("paths\\-from"),
        "{page}"
    );
    rxw().args(["man", "nope"]).assert().code(2);
}

/// Regression: the step budget bounded one search attempt, not the scan: on 32 KB of lines
/// of 14 `a`s, `(a|a)*c(?<=c)` stays under it at every start position (about 600,000 steps a
/// line) and ran on for a billion steps without a word. The scan's total budget stops it with
/// an error naming the option that raises it.
#[test]
fn a_scan_has_a_total_step_budget_and_a_timeout() {
    let (_dir, file) = temp_file("a.txt", "aaaaaaaaaaaaaa\n".repeat(32 * 1024 / 15));
    let pattern = "(a|a)*c(?<=c)";
    let run = |extra: &[&str]| {
        let out = rxw()
            .args(["find", "--flavor", "python"])
            .args(extra)
            .arg(pattern)
            .arg("--file")
            .arg(&file)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for extra in [&["--count"][..], &[], &["--json"]] {
        let mut args = extra.to_vec();
        args.extend(["--max-total-steps", "3000000"]);
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        let said = if extra == ["--json"] { &out } else { &err };
        assert!(said.contains("total step budget exceeded"), "{said}");
        assert!(said.contains("--max-total-steps 3000000"), "{said}");
        if extra == ["--json"] {
            let v: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["error"]["kind"], "backtrack_limit");
        }
    }
    // The wall-clock budget, with the step budget lifted.
    let (code, _, err) = run(&["--count", "--max-total-steps", "0", "--timeout", "0.2"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the scan ran out of time: --timeout 0.2 s"),
        "{err}"
    );
    // `test` and `replace` scan under the same budget.
    let out = rxw()
        .args([
            "replace",
            "--flavor",
            "python",
            "--max-total-steps",
            "3000000",
        ])
        .args([pattern, "x", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-total-steps 3000000"));
    // A pattern within the budget is untouched by it.
    rxw()
        .args([
            "find",
            "--count",
            "--max-total-steps",
            "1000",
            "a",
            "--text",
            "aaa",
        ])
        .assert()
        .code(0)
        .stdout("3\n");
}

/// Regression: `rxw find CLAIM agent.log` searched the word `agent.log` and printed nothing
/// (exit 1): the word after the pattern was the text. Paths come after the pattern, as grep
/// and ripgrep take them; a path that does not exist is an error naming it, never text.
#[test]
fn paths_after_the_pattern_are_read_as_grep_reads_them() {
    let text = "[CLAIM 7fce46e0] x\n[ACK 1] CLAIM again\nnothing\n[CLAIM 8a] CLAIMCLAIM\n";
    let (dir, log) = temp_file("agent.log", text);
    let grep = std::process::Command::new("sh")
        .arg("-c")
        .arg("grep -o CLAIM \"$0\" | wc -l")
        .arg(&log)
        .output()
        .unwrap();
    let grep_count = String::from_utf8_lossy(&grep.stdout).trim().to_string();
    assert_eq!(grep_count, "5");
    // `rxw find --count CLAIM PATHS…`, exit 0.
    let count = |paths: &[&std::path::Path]| {
        rxw()
            .args(["find", "--count", "CLAIM"])
            .args(paths)
            .assert()
            .code(0)
    };
    count(&[&log]).stdout(format!("{grep_count}\n"));
    // Several paths, a directory and `-` among them.
    let other = dir.path().join("more.log");
    std::fs::write(&other, "CLAIM\n").unwrap();
    count(&[&log, &other]).stdout("6\n");
    rxw()
        .args(["find", "--count", "CLAIM", "-"])
        .write_stdin("CLAIM CLAIM\n")
        .assert()
        .stdout("2\n");
    // A missing path: exit 2, named; never searched as the text "nope.log".
    let out = rxw()
        .args(["find", "--count", "nope", "nope.log"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("nope.log"),
        "{out:?}"
    );
    // The text itself, when that is what is meant; not together with a path.
    rxw()
        .args(["test", "CLAIM", "--text", "[CLAIM 1]"])
        .assert()
        .code(0);
    rxw()
        .args(["replace", "CLAIM", "ACK", "--text", "CLAIM"])
        .assert()
        .stdout("ACK\n");
    rxw()
        .args(["find", "CLAIM", "--text", "x"])
        .arg(&log)
        .assert()
        .code(2);
    rxw().args(["parse", "--count"]).arg(&log).assert().code(0);
}

/// With no path and a terminal on standard input, the command says what it needs instead of
/// waiting for text nobody knows to type.
#[test]
fn no_input_on_a_terminal_is_an_error_not_a_wait() {
    if !rxw_testkit::have(
        "script",
        &["--version"],
        "the terminal case of a missing input is not checked",
    ) {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_rxw");
    let out = std::process::Command::new("script")
        .args([
            "-qfec",
            &format!("{bin} find CLAIM; echo \"exit=$?\""),
            "/dev/null",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("no input"), "{shown}");
    assert!(shown.contains("exit=2"), "{shown}");
}

/// Regression: a JavaScript match without `u` that starts or ends between the two halves of
/// a surrogate pair was refused ("the match cuts U+1F600 … add the u flag"), where node
/// answers at a UTF-16 index. `find` answers as node does (an empty match at UTF-16 index 1,
/// inside the pair), names the character cut and its bytes, writes a lone half as U+FFFD and
/// gives the exact spans in `spans.utf16`; `replace` works on code units as node's
/// `String.prototype.replace` does; `test` answers.
#[test]
fn a_javascript_match_cutting_a_surrogate_pair_is_answered_as_node_answers_it() {
    let out = rxw()
        .args(["find", "--flavor", "js", r"(?:\s|\/\/.*)*", "--text", "😀"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("(cuts U+1F600 at bytes 0..4 between its UTF-16 halves"),
        "{shown}"
    );
    assert_eq!(shown.lines().count(), 3, "{shown}");
    let doc = find_json("js", ".", "a😀", 0);
    assert_eq!(doc.as_array().map(Vec::len), Some(3), "{doc}");
    assert_eq!(doc[1]["match"], "\u{FFFD}");
    assert_eq!(doc[1]["spans"]["utf16"], json!([[1, 2]]));
    assert_eq!(doc[2]["spans"]["utf16"], json!([[2, 3]]));
    assert_eq!(doc[2]["spans"]["bytes"], json!([[1, 5]]));
    assert_eq!(
        doc[2]["pair_cut"]["characters"],
        json!([{"code_point": "U+1F600", "bytes": [1, 5], "utf16": [1, 3]}])
    );
    // node: 'a😀b'.replace(/(?:)/g, '-') is "-a-\uD83D-\uDE00-b-".
    let out = rxw()
        .args([
            "replace", "--json", "--flavor", "js", "", "-", "--text", "a😀b",
        ])
        .output()
        .unwrap();
    assert_eq!(
        json_of(&out.stdout),
        json!({"result": "-a-\u{FFFD}-\u{FFFD}-b-", "replaced": 5,
               "utf16": [45, 97, 45, 0xD83D, 45, 0xDE00, 45, 98, 45]})
    );
    rxw()
        .args(["test", "--flavor", "js", r"\uDE00", "--text", "😀"])
        .assert()
        .code(0);
}
