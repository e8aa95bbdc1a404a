//! `rxw audit` end to end, on a fixture tree each test builds in a temporary directory.
//!
//! "Unreadable" honestly: `chmod 000` does not stop root, and tests often run as root. The
//! pinned matrix therefore uses a dangling symbolic link (unreadable for everyone: opening it
//! fails), a `chmod 000` test checks whichever outcome the current user really gets, and on
//! Linux `/proc/self/mem` (opens, but reading offset 0 fails with EIO even for root) checks the
//! "could not be read" row.

use assert_cmd::Command;
use rxw_testkit::fails_saying;
use std::path::Path;

const EDGE: usize = 64 * 1024;
const BIG: usize = 1 << 20;

/// The fixture tree: every kind of row the matrix must survive.
fn fixture() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let w = |name: &str, bytes: &[u8]| std::fs::write(p.join(name), bytes).unwrap();
    w(
        "a.md",
        "intro\n[WO:ab-12] then ACK: and ACK: again\nÄrger im Büro\n".as_bytes(),
    );
    w("b.md", b"nothing to see\n");
    w("empty.txt", b"");
    w("invalid.txt", b"\xff\xfe ACK: \xc3( [WO:ff] \xe2\x82\n");
    w("binary.bin", b"ACK:\x00\x01\x02");
    // The only match straddles the 64 KiB boundary: bytes EDGE-4 .. EDGE+5.
    let mut edge = vec![b'x'; EDGE - 4];
    edge.extend_from_slice(b"EDGE-MARK");
    edge.extend_from_slice(&[b'y'; 100]);
    w("edge.txt", &edge);
    // Over 1 MiB, so it is memory-mapped; the match straddles the 1 MiB boundary.
    let mut big = vec![b'z'; BIG - 3];
    big.extend_from_slice(b"EDGE-MARK\n");
    w("big.txt", &big);
    std::fs::create_dir(p.join("sub")).unwrap();
    w("sub/c.md", b"ACK:\n");
    std::os::unix::fs::symlink("nowhere", p.join("dangling.lnk")).unwrap();
    w(
        "list.txt",
        b"a.md\nb.md\nempty.txt\ninvalid.txt\nbinary.bin\nedge.txt\nsub\nmissing.md\ndangling.lnk\nbig.txt\n",
    );
    d
}

/// Runs `rxw audit ARGS` in a new [`fixture`] folder: as [`rxw`].
fn audit_fixture(args: &[&str]) -> (String, String, i32) {
    let d = fixture();
    rxw(d.path(), args)
}

/// `rxw audit ARGS` in `dir`, without colour.
fn rxw_audit(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::cargo_bin("rxw").unwrap();
    c.current_dir(dir)
        .env("NO_COLOR", "1")
        .arg("audit")
        .args(args);
    c
}

/// Runs `rxw audit ARGS` in `dir`: its standard output, standard error and exit code.
fn rxw(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = rxw_audit(dir, args).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

const PATTERNS: [&str; 6] = [
    "--paths-from",
    "list.txt",
    "-p",
    "ACK:",
    "-p",
    r"wo=/\[WO:[0-9a-f-]+\]/",
];

fn fixture_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = PATTERNS.to_vec();
    v.extend_from_slice(&["-p", "edge=EDGE-MARK"]);
    v.extend_from_slice(extra);
    v
}

const ERROR_LINES: &str =
    "⚠️ `binary.bin`: binary file (NUL byte at offset 4); use --binary to audit it anyway
⚠️ `sub`: is a directory
⚠️ `missing.md`: No such file or directory (os error 2)
⚠️ `dangling.lnk`: dangling symbolic link (its target does not exist)
";

#[test]
fn table_on_the_fixture_tree() {
    let (out, err, code) = audit_fixture(&fixture_args(&[]));
    let expected = format!(
        "| Path | ACK: | wo | edge |
|---|---|---|---|
| `a.md` | ✅ | ✅ | ❌ |
| `b.md` | ❌ | ❌ | ❌ |
| `empty.txt` | ❌ | ❌ | ❌ |
| `invalid.txt` | ✅ | ✅ | ❌ |
| `binary.bin` | ⚠️ | ⚠️ | ⚠️ |
| `edge.txt` | ❌ | ❌ | ✅ |
| `sub` | ⚠️ | ⚠️ | ⚠️ |
| `missing.md` | ⚠️ | ⚠️ | ⚠️ |
| `dangling.lnk` | ⚠️ | ⚠️ | ⚠️ |
| `big.txt` | ❌ | ❌ | ✅ |

{ERROR_LINES}
usage: files_scanned=10 patterns_evaluated=3 matches_total=6 (✅ cells)
"
    );
    assert_eq!(out, expected);
    assert_eq!(
        code, 2,
        "rows that could not be read exit 2 after the matrix"
    );
    assert!(err.contains("4 row(s) have unknown"), "{err}");
}

#[test]
fn counts_table_on_the_fixture_tree() {
    let (out, _, code) = audit_fixture(&fixture_args(&["--format", "counts"]));
    let expected = format!(
        "| Path | ACK: | wo | edge |
|---|---|---|---|
| `a.md` | 2 | 1 | 0 |
| `b.md` | 0 | 0 | 0 |
| `empty.txt` | 0 | 0 | 0 |
| `invalid.txt` | 1 | 1 | 0 |
| `binary.bin` | ⚠️ | ⚠️ | ⚠️ |
| `edge.txt` | 0 | 0 | 1 |
| `sub` | ⚠️ | ⚠️ | ⚠️ |
| `missing.md` | ⚠️ | ⚠️ | ⚠️ |
| `dangling.lnk` | ⚠️ | ⚠️ | ⚠️ |
| `big.txt` | 0 | 0 | 1 |

{ERROR_LINES}
usage: files_scanned=10 patterns_evaluated=3 matches_total=7 (occurrences)
"
    );
    assert_eq!(out, expected);
    assert_eq!(code, 2);
}

#[test]
fn json_on_the_fixture_tree() {
    let (out, _, code) = audit_fixture(&fixture_args(&["--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let compact = |path: &str| {
        let row = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["path"] == path)
            .unwrap();
        serde_json::to_string(row).unwrap()
    };
    assert_eq!(
        compact("a.md"),
        r#"{"path":"a.md","matches":{"ACK:":true,"wo":true,"edge":false}}"#
    );
    assert_eq!(
        compact("empty.txt"),
        r#"{"path":"empty.txt","matches":{"ACK:":false,"wo":false,"edge":false}}"#
    );
    assert_eq!(
        compact("edge.txt"),
        r#"{"path":"edge.txt","matches":{"ACK:":false,"wo":false,"edge":true}}"#
    );
    assert_eq!(
        compact("sub"),
        r#"{"path":"sub","matches":{"ACK:":null,"wo":null,"edge":null},"error":"is a directory","error_kind":"path_directory"}"#
    );
    assert_eq!(
        compact("missing.md"),
        r#"{"path":"missing.md","matches":{"ACK:":null,"wo":null,"edge":null},"error":"No such file or directory (os error 2)","error_kind":"path_missing"}"#
    );
    let paths: Vec<&str> = rxw_testkit::strings_of(&v["rows"], "path");
    assert_eq!(
        paths,
        [
            "a.md",
            "b.md",
            "empty.txt",
            "invalid.txt",
            "binary.bin",
            "edge.txt",
            "sub",
            "missing.md",
            "dangling.lnk",
            "big.txt"
        ]
    );
    assert_eq!(
        v["usage"],
        serde_json::json!({"files_scanned": 10, "patterns_evaluated": 3, "matches_total": 6})
    );
    assert_eq!(code, 2);
    // The whole document, pinned (indented like Python's json.dumps(indent=2)).
    assert!(out.starts_with("{\n  \"rows\": [\n    {\n      \"path\": \"a.md\",\n      \"matches\": {\n        \"ACK:\": true,"));
}

#[test]
fn json_counts_on_the_fixture_tree() {
    let (out, _, _) = audit_fixture(&fixture_args(&["--format", "json", "--counts"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["rows"][0]["matches"],
        serde_json::json!({"ACK:": 2, "wo": 1, "edge": 0})
    );
    assert_eq!(
        v["rows"][4]["matches"],
        serde_json::json!({"ACK:": null, "wo": null, "edge": null})
    );
    assert_eq!(v["usage"]["matches_total"], 7);
}

#[test]
fn csv_on_the_fixture_tree() {
    let d = fixture();
    let (out, _, code) = rxw(d.path(), &fixture_args(&["--format", "csv"]));
    assert_eq!(
        out,
        "path,ACK:,wo,edge,error,path_escaped\r
a.md,true,true,false,,\r
b.md,false,false,false,,\r
empty.txt,false,false,false,,\r
invalid.txt,true,true,false,,\r
binary.bin,,,,binary file (NUL byte at offset 4); use --binary to audit it anyway,\r
edge.txt,false,false,true,,\r
sub,,,,is a directory,\r
missing.md,,,,No such file or directory (os error 2),\r
dangling.lnk,,,,dangling symbolic link (its target does not exist),\r
big.txt,false,false,true,,\r
"
    );
    assert_eq!(code, 2);
    let (counts, _, _) = rxw(d.path(), &fixture_args(&["--format", "csv", "--counts"]));
    assert!(counts.contains("\r\na.md,2,1,0,,\r\n"), "{counts}");
}

#[test]
fn binary_option_reads_files_with_nul_bytes() {
    let (out, _, code) = audit_fixture(&["binary.bin", "-p", "ACK:", "--binary"]);
    assert!(out.contains("| `binary.bin` | ✅ |"), "{out}");
    assert_eq!(code, 0);
}

#[test]
fn max_filesize_makes_a_row_not_an_abort() {
    let (out, _, code) =
        audit_fixture(&["big.txt", "a.md", "-p", "EDGE-MARK", "--max-filesize", "1M"]);
    assert!(out.contains("| `big.txt` | ⚠️ |\n| `a.md` | ❌ |"), "{out}");
    assert!(
        out.contains("⚠️ `big.txt`: file is 1048583 bytes, over the maximum of 1048576 bytes"),
        "{out}"
    );
    assert_eq!(code, 2);
}

#[test]
fn directories_are_walked_sorted_with_gitignore_and_hidden() {
    let d = fixture();
    let p = d.path();
    std::fs::write(p.join(".gitignore"), "b.md\n*.txt\n").unwrap();
    std::fs::write(p.join(".hidden.md"), "ACK:").unwrap();
    let (out, _, _) = rxw(p, &[".", "-p", "ACK:", "--format", "csv"]);
    let paths: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(
        paths,
        ["./a.md", "./binary.bin", "./dangling.lnk", "./sub/c.md"]
    );
    let (out, _, _) = rxw(
        p,
        &[
            ".",
            "-p",
            "ACK:",
            "--format",
            "csv",
            "--hidden",
            "--glob",
            "*.md",
            "--max-depth",
            "1",
        ],
    );
    let paths: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    // As in ripgrep, a file a --glob selects is audited even when an ignore file lists it.
    assert_eq!(paths, ["./.hidden.md", "./a.md", "./b.md"]);
}

#[test]
fn ignore_case_including_non_ascii() {
    let d = fixture();
    let args = [
        "a.md",
        "b.md",
        "-p",
        "up=ÄRGER",
        "-p",
        "low=büro",
        "-p",
        r"re=/ärger\s+IM/",
        "-p",
        "ack=ack:",
    ];
    let (out, _, code) = rxw(d.path(), &args);
    assert!(
        out.contains("| `a.md` | ❌ | ❌ | ❌ | ❌ |"),
        "case-sensitive by default: {out}"
    );
    assert_eq!(code, 0);
    let mut ci = args.to_vec();
    ci.push("-i");
    let (out, _, _) = rxw(d.path(), &ci);
    assert!(
        out.contains("| `a.md` | ✅ | ✅ | ✅ | ✅ |\n| `b.md` | ❌ | ❌ | ❌ | ❌ |"),
        "{out}"
    );
    ci.extend(["--format", "counts"]);
    let (out, _, _) = rxw(d.path(), &ci);
    assert!(out.contains("| `a.md` | 1 | 1 | 1 | 2 |"), "{out}");
}

#[test]
fn require_all_and_forbid_any_are_ci_gates() {
    // (paths, gate, exit code, what standard error says: "" where nothing is checked). The
    // last: an unreadable row outranks the gate (exit 2), and the gate still names its cells.
    for (paths, gate, want, says) in [
        (
            &["a.md", "b.md"][..],
            "--require-all",
            1,
            "--require-all: 1 cell(s) are ❌:\n  b.md × ACK:",
        ),
        (&["a.md", "sub/c.md"], "--require-all", 0, ""),
        (
            &["a.md", "b.md"],
            "--forbid-any",
            1,
            "--forbid-any: 1 cell(s) are ✅:\n  a.md × ACK:",
        ),
        (&["b.md"], "--forbid-any", 0, ""),
        (&["b.md", "missing.md"], "--require-all", 2, "b.md × ACK:"),
    ] {
        let mut args = paths.to_vec();
        args.extend(["-p", "ACK:", gate]);
        let (_, err, code) = audit_fixture(&args);
        assert_eq!(code, want, "{args:?}: {err}");
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn invalid_pattern_keeps_its_column_and_exits_2_after_the_matrix() {
    let d = fixture();
    let (out, err, code) = rxw(d.path(), &["a.md", "-p", "ACK:", "-p", "bad=/(ab/"]);
    assert_eq!(code, 2);
    assert!(
        out.starts_with("| Path | ACK: | bad |\n|---|---|---|\n| `a.md` | ✅ | ⚠️ |\n"),
        "{out}"
    );
    assert!(out.contains("⚠️ pattern `bad`:"), "{out}");
    assert!(err.contains("rxw: pattern \"bad\""), "{err}");
    assert!(err.contains('^'), "a caret under the span: {err}");
    fails_saying(
        &mut rxw_audit(d.path(), &["a.md", "-p", "ACK:", "-p", "ACK:"]),
        "two patterns are named",
    );
    fails_saying(&mut rxw_audit(d.path(), &["a.md"]), "no patterns");
}

#[test]
fn flavors_and_pattern_files() {
    let d = fixture();
    let p = d.path();
    std::fs::write(p.join("pats.txt"), "# comment\nACK:\nwo=/\\[WO:(?=ab)/\n\n").unwrap();
    let (out, _, code) = rxw(
        p,
        &[
            "a.md",
            "invalid.txt",
            "--patterns",
            "pats.txt",
            "--flavor",
            "python",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "| Path | ACK: | wo |\n|---|---|---|\n| `a.md` | ✅ | ✅ |\n| `invalid.txt` | ✅ | ❌ |"
        ),
        "{out}"
    );
    std::fs::write(
        p.join("pats.toml"),
        "[[patterns]]\nname = \"hex\"\npattern = '[0-9a-f]{2}\\]'\nregex = true\nflavor = \"js\"\n\n[[patterns]]\npattern = \"Büro\"\n",
    )
    .unwrap();
    let (out, _, code) = rxw(
        p,
        &[
            "a.md",
            "b.md",
            "--patterns",
            "pats.toml",
            "--format",
            "counts",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "| Path | hex | Büro |\n|---|---|---|\n| `a.md` | 1 | 1 |\n| `b.md` | 0 | 0 |"
        ),
        "{out}"
    );
}

#[test]
fn paths_from_standard_input() {
    let d = fixture();
    let out = Command::cargo_bin("rxw")
        .unwrap()
        .current_dir(d.path())
        .args(["audit", "-", "-p", "ACK:", "--format", "csv"])
        .write_stdin("b.md\nsub/c.md\n")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "path,ACK:,error,path_escaped\r\nb.md,false,,\r\nsub/c.md,true,,\r\n"
    );
}

#[test]
fn chmod_000_is_unreadable_unless_we_are_root() {
    use std::os::unix::fs::PermissionsExt;
    let d = fixture();
    let locked = d.path().join("locked.md");
    std::fs::write(&locked, "ACK:").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable_anyway = std::fs::read(&locked).is_ok();
    let (out, _, code) = rxw(d.path(), &["locked.md", "-p", "ACK:"]);
    if readable_anyway {
        // Root (CAP_DAC_OVERRIDE) reads it: the honest answer is the content.
        eprintln!(
            "note: running with the privilege to read chmod 000 files; checking that outcome"
        );
        assert!(out.contains("| `locked.md` | ✅ |"), "{out}");
        assert_eq!(code, 0);
    } else {
        assert!(out.contains("| `locked.md` | ⚠️ |"), "{out}");
        assert!(out.contains("Permission denied"), "{out}");
        assert_eq!(code, 2);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_that_opens_but_cannot_be_read_is_a_row() {
    // Reading /proc/self/mem at offset 0 fails (EIO) for every user, root included.
    let d = fixture();
    let (out, _, code) = rxw(
        d.path(),
        &["/proc/self/mem", "a.md", "-p", "ACK:", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rows"][0]["error_kind"], "file_unreadable", "{out}");
    assert_eq!(v["rows"][1]["matches"]["ACK:"], true);
    assert_eq!(code, 2);
}

/// The audit design's own case: 13 CLAUDE.md files audited for 6 canonical trigger strings.
fn seed_tree() -> (tempfile::TempDir, Vec<Vec<bool>>) {
    let d = tempfile::tempdir().unwrap();
    let mut expected = Vec::new();
    for i in 0..13 {
        let dir = d.path().join(format!("proj{:02}", i + 1));
        std::fs::create_dir(&dir).unwrap();
        let mut text = String::from("# CLAUDE.md\n\nProject notes.\n");
        let mut row = Vec::new();
        for (k, t) in TRIGGERS.iter().enumerate() {
            let present = (i * 7 + k * 3) % 5 != 0;
            if present {
                text.push_str(&format!("- {t}\n"));
            }
            row.push(present);
        }
        std::fs::write(dir.join("CLAUDE.md"), text).unwrap();
        std::fs::write(dir.join("notes.txt"), TRIGGERS.join("\n")).unwrap();
        expected.push(row);
    }
    (d, expected)
}

const TRIGGERS: [&str; 6] = [
    "using-interns",
    "bulk_text_read",
    "Always-ask",
    "grep_audit",
    "bootstrap-rollout",
    "zero hallucination",
];

#[test]
fn seed_example_13_files_by_6_triggers() {
    let (d, expected) = seed_tree();
    let mut args = vec![".", "--glob", "CLAUDE.md"];
    for t in TRIGGERS {
        args.extend(["-p", t]);
    }
    let (out, _, code) = rxw(d.path(), &args);
    assert_eq!(code, 0);
    let mut want = format!(
        "| Path | {} |\n|---|---|---|---|---|---|---|\n",
        TRIGGERS.join(" | ")
    );
    for (i, row) in expected.iter().enumerate() {
        let cells: Vec<&str> = row.iter().map(|b| if *b { "✅" } else { "❌" }).collect();
        want.push_str(&format!(
            "| `./proj{:02}/CLAUDE.md` | {} |\n",
            i + 1,
            cells.join(" | ")
        ));
    }
    let hits = expected.iter().flatten().filter(|b| **b).count();
    want.push_str(&format!(
        "\nusage: files_scanned=13 patterns_evaluated=6 matches_total={hits} (✅ cells)\n"
    ));
    assert_eq!(out, want);
}

#[test]
fn seed_example_table_equals_the_python_reference() {
    if !rxw_testkit::have(
        "python3",
        &["--version"],
        "the audit table is not compared with the Python reference implementation",
    ) {
        return;
    }
    let (d, _) = seed_tree();
    let mut list = String::new();
    for i in 1..=13 {
        list.push_str(&format!("proj{i:02}/CLAUDE.md\n"));
    }
    list.push_str("missing.md\n");
    std::fs::write(d.path().join("list.txt"), &list).unwrap();
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/grep_audit_ref.py");
    let mut py = std::process::Command::new("python3");
    py.current_dir(d.path())
        .arg(&reference)
        .args(["--paths-from", "list.txt"]);
    let mut args = vec!["--paths-from", "list.txt"];
    for t in TRIGGERS {
        py.args(["-p", t]);
        args.extend(["-p", t]);
    }
    let py_out = String::from_utf8(py.output().unwrap().stdout).unwrap();
    let py_table: Vec<&str> = py_out.lines().take(2 + 14).collect();
    let (out, _, _) = rxw(d.path(), &args);
    let table: Vec<&str> = out.lines().take(2 + 14).collect();
    assert_eq!(table, py_table);
}

#[test]
fn a_fifo_is_a_row_not_a_hang() {
    let d = fixture();
    if !rxw_testkit::mkfifo(&d.path().join("pipe")) {
        rxw_testkit::missing(
            "mkfifo",
            "an audit of a FIFO (a row, not a hang) is not checked",
        );
        return;
    }
    let (out, _, code) = rxw(d.path(), &["pipe", "a.md", "-p", "ACK:"]);
    assert!(out.contains("| `pipe` | ⚠️ |\n| `a.md` | ✅ |"), "{out}");
    assert!(out.contains("not a regular file"), "{out}");
    assert_eq!(code, 2);
}

#[test]
fn json_document_pinned_whole() {
    let (out, _, _) = audit_fixture(&fixture_args(&["--format", "json"]));
    let rows: Vec<String> = [
        ("a.md", "true", "true", "false", None),
        ("b.md", "false", "false", "false", None),
        ("empty.txt", "false", "false", "false", None),
        ("invalid.txt", "true", "true", "false", None),
        ("binary.bin", "null", "null", "null", Some(("binary file (NUL byte at offset 4); use --binary to audit it anyway", "file_binary"))),
        ("edge.txt", "false", "false", "true", None),
        ("sub", "null", "null", "null", Some(("is a directory", "path_directory"))),
        ("missing.md", "null", "null", "null", Some(("No such file or directory (os error 2)", "path_missing"))),
        ("dangling.lnk", "null", "null", "null", Some(("dangling symbolic link (its target does not exist)", "path_missing"))),
        ("big.txt", "false", "false", "true", None),
    ]
    .iter()
    .map(|(p, a, w, e, err)| {
        let error = err.map_or(String::new(), |(m, k)| format!(",\n      \"error\": \"{m}\",\n      \"error_kind\": \"{k}\""));
        format!("    {{\n      \"path\": \"{p}\",\n      \"matches\": {{\n        \"ACK:\": {a},\n        \"wo\": {w},\n        \"edge\": {e}\n      }}{error}\n    }}")
    })
    .collect();
    let want = format!(
        "{{\n  \"rows\": [\n{}\n  ],\n  \"usage\": {{\n    \"files_scanned\": 10,\n    \"patterns_evaluated\": 3,\n    \"matches_total\": 6\n  }}\n}}\n",
        rows.join(",\n")
    );
    assert_eq!(out, want);
}

#[test]
fn presets_are_regex_columns() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.log"), "[ACK 7fce46e0] hi\n").unwrap();
    std::fs::write(
        dir.path().join("y.log"),
        "dc6d72ca-4b02-4217-bf41-7dbca19c5c24\n",
    )
    .unwrap();
    let (out, _, code) = rxw(dir.path(), &["x.log", "y.log", "--preset", "verb,uuid"]);
    assert_eq!(code, 0);
    assert!(out.contains("| Path | verb | uuid |"), "{out}");
    assert!(out.contains("| `x.log` | ✅ | ❌ |"), "{out}");
    assert!(out.contains("| `y.log` | ❌ | ✅ |"), "{out}");
    fails_saying(
        &mut rxw_audit(dir.path(), &["x.log", "--preset", "nope"]),
        "unknown preset \"nope\"",
    );
}

/// Regression: a newline in a name split its table row, a backtick broke its code span,
/// a name that is not UTF-8 became U+FFFD (unrecoverable) in JSON and CSV, and one such name
/// in a `--paths-from` list aborted the whole audit.
#[test]
fn hostile_file_names_keep_one_row_each_and_raw_bytes_recoverable() {
    use std::os::unix::ffi::OsStrExt;
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("new\nline.md"), "ACK:\n").unwrap();
    std::fs::write(p.join("back`tick.md"), "nothing\n").unwrap();
    let raw: &[u8] = b"caf\xe9\\.md";
    std::fs::write(p.join(std::ffi::OsStr::from_bytes(raw)), "ACK:\n").unwrap();
    let mut list = Vec::new();
    // The list holds the non-UTF-8 name, a missing name, and the backtick name; the
    // newline name cannot be a list entry (one path a line), so it is given as an argument.
    list.extend_from_slice(raw);
    list.extend_from_slice(b"\nmissing.md\nback`tick.md\n");
    std::fs::write(p.join("list.txt"), &list).unwrap();

    let (out, err, code) = rxw(
        p,
        &["new\nline.md", "--paths-from", "list.txt", "-p", "ACK:"],
    );
    assert_eq!(code, 2, "the missing row makes it 2: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[2], "| `new\\nline.md` | ✅ |", "{out}");
    assert_eq!(lines[3], "| `caf\\xE9\\\\.md` | ✅ |", "{out}");
    assert_eq!(lines[4], "| `missing.md` | ⚠️ |", "{out}");
    assert_eq!(lines[5], "| ``back`tick.md`` | ❌ |", "{out}");

    let (out, _, _) = rxw(
        p,
        &[
            "new\nline.md",
            "--paths-from",
            "list.txt",
            "-p",
            "ACK:",
            "--format",
            "json",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["path"], "new\nline.md");
    assert!(rows[0].get("path_escaped").is_none());
    assert_eq!(rows[1]["path"], "caf\\xE9\\\\.md");
    assert_eq!(rows[1]["path_escaped"], true);
    assert_eq!(rows[1]["matches"]["ACK:"], true);
    let bytes = rxw::audit::paths::unescape_bytes(rows[1]["path"].as_str().unwrap()).unwrap();
    assert_eq!(bytes, raw, "the raw name is recoverable");
    assert_eq!(v["usage"]["files_scanned"], 4);

    let (out, _, _) = rxw(
        p,
        &["--paths-from", "list.txt", "-p", "ACK:", "--format", "csv"],
    );
    assert!(out.starts_with("path,ACK:,error,path_escaped\r\n"), "{out}");
    assert!(out.contains("caf\\xE9\\\\.md,true,,true\r\n"), "{out}");
}
