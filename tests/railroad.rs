//! Railroad diagrams of every registry preset, as snapshots (and the CLI's `--railroad`).

use assert_cmd::Command;
use rxw::syntax::railroad::railroad;

#[test]
fn railroad_of_every_registry_preset() {
    let entries = rxw::presets::builtin();
    assert!(entries.len() >= 12);
    for e in &entries {
        let re = e.regex().unwrap();
        let lines = railroad(re.ast(), re.pattern(), re.flavor()).unwrap();
        let entry_line = lines.iter().find(|l| l.starts_with('●')).unwrap();
        assert!(entry_line.ends_with('●'), "{}: {entry_line}", e.preset.key);
        insta::assert_snapshot!(
            format!("railroad_{}", e.preset.key),
            format!("{}\n\n{}", re.pattern(), lines.join("\n"))
        );
    }
}

#[test]
fn explain_railroad_cli_text_and_json() {
    let out = Command::cargo_bin("rxw")
        .unwrap()
        .args(["explain", "--railroad", "--flavor", "python", "a$"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("end, or before a final \\n"), "{text}");
    let out = Command::cargo_bin("rxw")
        .unwrap()
        .args([
            "explain",
            "--railroad",
            "--json",
            "--flavor",
            "js",
            "(?<n>a)|b",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let lines = v["railroad"].as_array().unwrap();
    assert!(lines.iter().any(|l| l.as_str().unwrap().contains("#1 n")));
}
