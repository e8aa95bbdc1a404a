//! The authoring commands: `rxw code`, `rxw generate`, `rxw tests` (and its exports, run with
//! python3 and `node --test`).

use assert_cmd::Command;
use predicates::prelude::*;
use rxw_testkit::rxw_without_user_files as rxw;
use rxw_testkit::write_file as write;
use std::path::Path;

/// `rxw code ARGS` (see [`rxw`]).
fn code(args: &[&str]) -> Command {
    let mut c = rxw();
    c.arg("code").args(args);
    c
}

/// Regression: a case-insensitive Rust pattern was refused for every other language, though
/// only some letters fold differently; each letter is now written as the set Rust matches.
#[test]
fn code_writes_case_insensitive_letters_as_their_sets() {
    for lang in ["python", "js", "java", "go", "csharp"] {
        let out = run_code(lang, "rust", r"(?i)result\s+([0-9a-f]+)");
        assert_eq!(out.status.code(), Some(0), "{lang}");
        let code = String::from_utf8_lossy(&out.stdout);
        assert!(code.contains("[Rr][Ee][Ss"), "{lang}: {code}");
        assert!(code.contains("[0-9A-Fa-f]+"), "{lang}: {code}");
    }
}

/// `--nearest`: the closest program, exit 0, its differences at its top and on stderr; what
/// cannot be written even approximately is still refused.
#[test]
fn code_nearest_writes_the_closest_program_and_lists_the_differences() {
    let nearest = |lang: &str, pattern: &str| {
        code(&[
            "--nearest",
            "--lang",
            lang,
            "--flavor",
            "python",
            "--",
            pattern,
        ])
    };
    let out = nearest("js", "ab++c").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let code = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        code.contains("// NEAREST PROGRAM, NOT EXACT: 1 construct(s)"),
        "{code}"
    );
    assert!(
        code.contains("// - `++` (pattern bytes 2..4): inputs where the rest"),
        "{code}"
    );
    assert!(code.contains("new RegExp(\"ab+c\""), "{code}");
    assert!(
        err.contains("warning: no exact JavaScript program"),
        "{err}"
    );
    // Exact programs carry no warning.
    nearest("js", "ab+c")
        .assert()
        .code(0)
        .stderr("")
        .stdout(predicate::str::contains("NEAREST").not());
    nearest("go", "a(?=b)")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("look-around"));
}

/// `rxw code --json` (asked for by scripts and agents, which got "unexpected argument"):
/// one document with the program, its language, file name and compiled pattern; with
/// `--nearest` the differences; a refusal is `{"error": …}` with exit 2. A pattern with a
/// quote and a backslash comes back as written.
#[test]
fn code_json_is_one_document_with_the_program() {
    let doc = |args: &[&str]| -> (Option<i32>, serde_json::Value) {
        let out = code(args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        (out.status.code(), serde_json::from_str(&text).unwrap())
    };
    let (status, d) = doc(&["--json", "--lang", "java", "--", r#"a"b\\(\d+)"#]);
    assert_eq!(status, Some(0));
    assert_eq!(d["language"], "java");
    assert_eq!(d["file_name"], "Main.java");
    assert_eq!(d["nearest"], false);
    assert_eq!(d["differences"], serde_json::json!([]));
    let program = d["code"].as_str().unwrap();
    assert!(program.contains("Pattern.compile("), "{program}");
    assert!(d["pattern"].as_str().unwrap().contains(r#"a"b\\("#), "{d}");
    let (status, d) = doc(&["--json", "--nearest", "--lang", "js", "--", "ab++c"]);
    assert_eq!(status, Some(0));
    assert_eq!(d["nearest"], true);
    assert_eq!(d["differences"][0]["construct"], "++");
    assert!(d["code"].as_str().unwrap().contains("new RegExp(\"ab+c\""));
    let (status, d) = doc(&["--json", "--lang", "go", "a(?=b)"]);
    assert_eq!(status, Some(2));
    assert!(
        d["error"]["message"]
            .as_str()
            .unwrap()
            .contains("look-around"),
        "{d}"
    );
    let (status, d) = doc(&["--json", "--flavor", "js", "--flags", "q", "x"]);
    assert_eq!(status, Some(2));
    assert_eq!(d["error"]["kind"], "flag_invalid");
}

/// One refusal per language: exit 2, the reason, and a caret under the construct.
#[test]
fn code_refuses_what_each_language_would_mean_differently() {
    let cases = [
        // (lang, flavor, pattern, reason, caret line)
        ("rust", "js", r"(a)\1", "did not take part", "   ^^"),
        (
            "python",
            "fancy",
            r"(?i)(a)\1",
            "case-insensitive backreference",
            "       ^^",
        ),
        ("js", "python", r"ab++", "no possessive quantifiers", "  ^^"),
        ("go", "python", r"a(?<=a)b", "look-around", " ^^^^^^"),
        ("java", "js", r"(?:(a)|b)+", "JS forgets it", "   ^^^"),
        ("csharp", "js", r"(a)\1", "did not take part", "   ^^"),
    ];
    for (lang, flavor, pattern, reason, caret) in cases {
        let out = code(&["--lang", lang, "--flavor", flavor, pattern])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{lang}: {err}");
        assert!(out.stdout.is_empty(), "{lang}");
        assert!(err.contains("cannot write this pattern"), "{lang}: {err}");
        assert!(err.contains(reason), "{lang}: {err}");
        let caret_line = err.lines().last().unwrap_or("");
        assert_eq!(
            caret_line.strip_prefix("  ").unwrap_or(caret_line),
            caret,
            "{lang}: {err}"
        );
    }
    // A flag has no span in the pattern: the message names it.
    code(&["--lang", "go", "--flavor", "js", "--flags", "y", "abc"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("sticky mode (flag y)"));
    // An invalid pattern is an error too, with its caret.
    code(&["--lang", "go", "(a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("^"));
}

#[test]
fn code_colours_only_when_asked() {
    let plain = code(&["--lang", "python", "--flavor", "python", r"\d+"])
        .output()
        .unwrap();
    assert!(plain.status.success());
    let text = String::from_utf8(plain.stdout).unwrap();
    assert!(text.contains(r#"PATTERN = re.compile(r"\d+")"#), "{text}");
    assert!(!text.contains('\x1b'));
    // 24-bit colours only when COLORTERM says the terminal draws them; xterm's 256 otherwise.
    let truecolor = rxw()
        .env("COLORTERM", "truecolor")
        .args(["code", "--lang", "python", "--color", "always", r"\d+"])
        .output()
        .unwrap();
    let truecolor = String::from_utf8(truecolor.stdout).unwrap();
    assert!(truecolor.contains("\x1b[38;2;"), "{truecolor}");
    let coloured = code(&["--lang", "python", "--color", "always", r"\d+"])
        .output()
        .unwrap();
    let coloured = String::from_utf8(coloured.stdout).unwrap();
    assert!(coloured.contains("\x1b[38;5;"), "{coloured}");
    assert!(!coloured.contains("\x1b[38;2;"), "{coloured}");
    // Stripped of its escapes, the coloured program is the plain one.
    let stripped = regex::Regex::new("\x1b\\[[0-9;]*m")
        .unwrap()
        .replace_all(&coloured, "");
    let plain_rust_flavor = code(&["--lang", "python", "--color", "never", r"\d+"])
        .output()
        .unwrap();
    assert_eq!(
        stripped,
        String::from_utf8(plain_rust_flavor.stdout).unwrap()
    );
    rxw()
        .env("NO_COLOR", "1")
        .args(["code", "--lang", "go", r"\d+"])
        .assert()
        .success()
        .stdout(predicate::str::contains('\x1b').not());
}

#[test]
fn generate_from_arguments_and_standard_input() {
    let out = rxw()
        .args([
            "generate",
            "--digits",
            "--repetitions",
            "[CLAIM 12]",
            "[ACK 345]",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let pattern = String::from_utf8(out.stdout).unwrap();
    let pattern = pattern.trim_end();
    assert!(
        pattern.starts_with('^') && pattern.ends_with('$'),
        "{pattern}"
    );
    for line in ["[CLAIM 12]", "[ACK 345]"] {
        rxw()
            .args(["test", pattern, "--text", line])
            .assert()
            .code(0);
    }
    let out = rxw()
        .args(["generate", "--no-anchors"])
        .write_stdin("abc\nabd\n")
        .output()
        .unwrap();
    let pattern = String::from_utf8(out.stdout).unwrap();
    assert!(!pattern.starts_with('^'), "{pattern}");
    rxw()
        .args(["test", pattern.trim_end(), "--text", "xx abd yy"])
        .assert()
        .code(0);
    rxw()
        .arg("generate")
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no examples"));
}

/// Regression: `rxw generate` on 10,000 distinct lines gave no output in 300 s and one 20 KB
/// example aborted on a 16 GB allocation; the input is bounded with a clear error.
#[test]
fn generate_refuses_input_over_its_bounds() {
    let many: String = (0..10_000).map(|i| format!("line {i}\n")).collect();
    rxw()
        .arg("generate")
        .write_stdin(many)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("over the limit"));
    rxw()
        .args(["generate", "--repetitions"])
        .arg("ab".repeat(10_000))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "example 1 is 20000 bytes, over the limit of 1000 bytes",
        ));
    rxw()
        .arg("generate")
        .write_stdin("x".repeat(1 << 20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("standard input is over the limit"));
    // At the bounds it works.
    let lines: String = (0..1000).map(|i| format!("id-{i:04}\n")).collect();
    rxw()
        .args(["generate", "--digits"])
        .write_stdin(lines)
        .assert()
        .code(0);
}

const SUITE: &str = r"# NetVM verbs
pattern: \[(?P<verb>ACK|CLAIM|RESULT)\s+(?P<job_id>[\w/-]+)\]
flavor: python@3.11
replace: \g<job_id>:\g<verb>
+ [CLAIM 7fce46e0] => verb=CLAIM, job_id=7fce46e0
+ x [ACK 12] y => ACK, 12
- [claim 7fce46e0]
~ go [ACK 12] now => go 12:ACK now
";

/// `rxw code --lang LANG --flavor FLAVOR -- PATTERN`, run.
fn run_code(lang: &str, flavor: &str, pattern: &str) -> std::process::Output {
    code(&["--lang", lang, "--flavor", flavor, "--", pattern])
        .output()
        .unwrap()
}

/// `rxw tests FILE`.
fn tests(file: &Path) -> Command {
    let mut c = rxw();
    c.arg("tests").arg(file);
    c
}

#[test]
fn tests_file_passes_fails_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.rxwt", SUITE);
    tests(&good).assert().code(0).stdout("4 passed, 0 failed\n");
    let bad = write(
        dir.path(),
        "bad.rxwt",
        format!("{SUITE}+ [RESULT 9] => verb=ACK\n~ [ACK 1] => ACK:1\n- [ACK 3]\n"),
    );
    let (status, text, _) = rxw_testkit::run(&mut tests(&bad));
    assert_eq!(status, 1);
    for failure in [
        "bad.rxwt:9: + [RESULT 9] => verb=ACK",
        "got \"1:ACK\"",
        ":11: - [ACK 3]",
    ] {
        assert!(text.contains(failure), "{text}");
    }
    assert!(text.ends_with("4 passed, 3 failed\n"), "{text}");
    let broken = write(dir.path(), "broken.rxwt", "pattern: (a\n+ a\n");
    tests(&broken)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("^"));
    let no_pattern = write(dir.path(), "none.rxwt", "+ a\n");
    tests(&no_pattern).assert().code(2);
}

/// The exported files run with the real interpreters, and fail when a case is wrong.
#[test]
fn exported_tests_run_in_python_and_node() {
    let dir = tempfile::tempdir().unwrap();
    for (name, suite, should_pass) in [
        ("good", SUITE.to_string(), true),
        ("bad", format!("{SUITE}+ [RESULT 9] => verb=ACK\n"), false),
    ] {
        let file = write(dir.path(), &format!("{name}.rxwt"), &suite);
        // `rxw tests --export LANG FILE`, written to `to`.
        let export = |lang: &str, to: &str| {
            let out = tests(&file).args(["--export", lang]).output().unwrap();
            assert!(out.status.success());
            write(dir.path(), to, String::from_utf8(out.stdout).unwrap())
        };
        let module = format!("test_{name}");
        export("python", &format!("{module}.py"));
        // What pytest does, without needing pytest: call every test_* function.
        let runner = format!(
            "import {module} as m\nnames = [n for n in dir(m) if n.startswith('test_')]\nassert len(names) == 4 + (0 if {should_pass} else 1), names\nfor n in names:\n    getattr(m, n)()\n",
            should_pass = if should_pass { "True" } else { "False" }
        );
        // The suite names python@3.11 (NetVM's Python): its export runs on CPython 3.11.
        let Some(python) = rxw_testkit::python_release(
            "3.11",
            "the exported Python tests are not run on the release they name",
        ) else {
            return;
        };
        let status = std::process::Command::new(python)
            .args(["-c", &runner])
            .current_dir(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.success(), should_pass, "python {name}");
        let js_file = export("js", &format!("{name}.test.js"));
        let out = std::process::Command::new("node")
            .arg("--test")
            .arg(&js_file)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.success(), should_pass, "node {name}: {report}");
        assert!(
            report.contains(if should_pass { "# pass 4" } else { "# fail 1" }),
            "{report}"
        );
    }
    let rust = tests(&write(dir.path(), "r.rxwt", SUITE))
        .args(["--export", "rust"])
        .output()
        .unwrap();
    let code = String::from_utf8(rust.stdout).unwrap();
    assert_eq!(code.matches("#[test]").count(), 4, "{code}");
    rxw()
        .args(["tests", "--export", "go"])
        .arg(dir.path().join("r.rxwt"))
        .assert()
        .code(2);
}

/// `rxw code` for Ruby: a ruby pattern is its own language by default and is carried over as
/// written, its hostile characters quoted so that Ruby reads the very pattern back (`"`, `#{`,
/// `#@`, `#$`, `/`, backslashes, a line break); its flags become `Regexp` options.
#[test]
fn code_carries_a_ruby_pattern_over_to_ruby_quoted() {
    let hostile = "\"#{x}\"|#@y|#$z|/|\\\\|'|a\nb";
    let out = code(&["--flavor", "ruby", "--flags", "mi", "--", hostile])
        .output()
        .unwrap();
    let code = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(code.starts_with("#!/usr/bin/env ruby\n"), "{code}");
    assert!(
        code.contains(
            r#"PATTERN = Regexp.new("\"\#{x}\"|\#@y|\#$z|/|\\\\|'|a\nb", Regexp::IGNORECASE | Regexp::MULTILINE)"#
        ),
        "{code}"
    );
    assert!(code.contains("text.scan(PATTERN)"), "{code}");
}

/// `rxw code --lang ruby` from other flavors: translated with the meanings explicit, or
/// refused with the reason and a caret; an Oniguruma pattern whose classes are Unicode's
/// (Onigmo's are ASCII) is refused rather than carried over verbatim.
#[test]
fn code_for_ruby_translates_other_flavors_or_refuses() {
    let out = run_code("rb", "python", r"^\d+$");
    let code = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    // Python's `^` is the text's start; its `$` allows a final newline; its `\d` is Unicode's.
    assert!(code.contains(r#"Regexp.new("\\A[\\p{Nd}]+\\Z")"#), "{code}");
    for (flavor, pattern, reason, caret) in [
        ("js", r"(a)\1", "did not take part", "   ^^"),
        (
            "python",
            r"(?i)(a)\1",
            "case-insensitive backreference",
            "       ^^",
        ),
    ] {
        let out = run_code("ruby", flavor, pattern);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flavor}: {err}");
        assert!(err.contains("cannot write this pattern for Ruby"), "{err}");
        assert!(err.contains(reason), "{err}");
        assert!(err.lines().last().unwrap_or("").ends_with(caret), "{err}");
    }
    let out = run_code("ruby", "oniguruma", r"\w+");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("Unicode classes"), "{err}");
}

/// A PCRE2 pattern to every language: each writes it out (PCRE2's `\h` as its set, `(?i:x)` as
/// the letters it matches) or refuses with the reason; what rxw does not reproduce (`\K`) is
/// refused for all, naming the construct.
#[test]
fn code_writes_a_pcre2_pattern_for_every_language_or_refuses() {
    for lang in ["rust", "python", "js", "go", "java", "csharp", "ruby"] {
        let out = run_code(lang, "pcre2", r"(?<y>\d{4})-\h+(?i:x)");
        let code = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{lang}");
        assert!(code.contains("[0-9]{4}"), "{lang}: {code}");
        assert!(code.contains("[Xx]"), "{lang}: {code}");
        assert!(code.contains("2000"), "{lang}: \\h's set: {code}");
        let out = run_code(lang, "pcre2", r"a\Kb");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{lang}: {err}");
        assert!(err.contains(r"\K"), "{lang}: {err}");
    }
    for (lang, pattern, reason) in [
        ("go", "a(?=b)", "look-around"),
        ("js", "a++", "no possessive quantifiers"),
    ] {
        let out = run_code(lang, "pcre2", pattern);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{lang}: {err}");
        assert!(err.contains(reason), "{lang}: {err}");
    }
}
