//! JSON Lines fields under other names (`--field NAME=KEY,…`) and the `format` that `--json`
//! counts say the logs were read as.

mod common;
use common::{fails_saying, run, run_json, rxw, temp_file};
use std::path::Path;

const MESSAGES: [&str; 4] = [
    "[CLAIM 1a2b] start",
    "[RESULT 1a2b] OK\n  - [CLAIM 9f]",
    "[WO:77ab] [from super] sweep\n  - step",
    "plain words",
];

/// A JSON log of `MESSAGES`, the message under `msg_key` and the time under `time_key`, a
/// minute apart from 00:00.
fn json_log(msg_key: &str, time_key: &str) -> String {
    MESSAGES
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let mut o = serde_json::Map::new();
            o.insert(time_key.into(), format!("2026-10-05T00:{k:02}:00Z").into());
            o.insert("host".into(), "h1".into());
            o.insert(msg_key.into(), (*m).into());
            format!("{}\n", serde_json::Value::Object(o))
        })
        .collect()
}

fn json_out(config: &Path, args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(rxw(config).args(args));
    assert!(code == 0 || code == 1, "{args:?}: {out}{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn fields_under_other_names_read_as_the_common_ones() {
    let (dir, common) = temp_file("common.jsonl", json_log("msg", "ts"));
    let other = dir.path().join("other.jsonl");
    // `msg` and `ts` are here too, holding something else: the keys named replace them.
    let decoy = json_log("body", "ts2").replace(
        "\"host\"",
        "\"msg\":\"[CLAIM decoy]\",\"ts\":\"1999-01-01T00:00:00Z\",\"host\"",
    );
    std::fs::write(&other, decoy).unwrap();
    let (c, o) = (common.to_str().unwrap(), other.to_str().unwrap());
    // `parse --count --json` of one file, with more arguments.
    let count = |file: &str, extra: &[&str]| {
        let args = [&["parse", "--count", "--json", "--file", file], extra].concat();
        json_out(dir.path(), &args)
    };
    let want = count(c, &[]);
    assert!(want["count"].as_u64().unwrap() > 0, "{want}");
    let got = count(o, &["--field", "message=body,time=ts2"]);
    assert_eq!(got, want);
    // Without the override the decoy messages are read.
    let decoyed = count(o, &[]);
    assert_ne!(decoyed, want);
    // The time field named is the one a range reads: 00:02 on keeps the last two records.
    let cut: String = json_log("msg", "ts")
        .lines()
        .skip(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let cut_path = dir.path().join("cut.jsonl");
    std::fs::write(&cut_path, cut).unwrap();
    let ranged = count(
        o,
        &[
            "--field",
            "message=body",
            "--field",
            "time=ts2",
            "--since",
            "2026-10-05T00:02:00Z",
        ],
    );
    let want = count(cut_path.to_str().unwrap(), &[]);
    assert_eq!(ranged, want);
    // find on records reads the same message.
    let found = json_out(
        dir.path(),
        &[
            "find",
            "--count",
            "--json",
            "--format",
            "jsonl",
            r"^\[CLAIM",
            o,
            "--field",
            "message=body",
        ],
    );
    assert_eq!(found["count"], 1);
    assert_eq!(found["format"], "jsonl");
}

#[test]
fn a_bad_field_override_is_an_error_naming_the_fields() {
    let (dir, log) = temp_file("a.jsonl", json_log("msg", "ts"));
    let log = log.to_str().unwrap();
    for (bad, says) in [
        ("when=ts", "\"when\" is not a field"),
        ("message", "no `=`"),
        ("time=", "the key is empty"),
    ] {
        fails_saying(
            rxw(dir.path()).args(["parse", "--count", "--file", log, "--field", bad]),
            says,
        );
    }
    let (doc, _) = run_json(
        rxw(dir.path()).args([
            "parse", "--count", "--json", "--file", log, "--field", "when=x",
        ]),
        2,
    );
    assert_eq!(doc["error"]["kind"], "arguments_invalid");
}

#[test]
fn counts_say_how_the_logs_were_read() {
    let (dir, json) = temp_file("a.jsonl", json_log("msg", "ts"));
    let netvm = dir.path().join("b.log");
    std::fs::write(&netvm, "2026-10-05T00:00:00Z a: [CLAIM 1] x\n").unwrap();
    let (j, n) = (json.to_str().unwrap(), netvm.to_str().unwrap());
    let doc = json_out(dir.path(), &["find", "--count", "--json", "CLAIM", n]);
    assert_eq!(doc["format"], "lines");
    let doc = json_out(
        dir.path(),
        &["find", "--count", "--json", "--format", "netvm", "CLAIM", n],
    );
    assert_eq!(doc["format"], "netvm");
    let doc = json_out(
        dir.path(),
        &["find", "--count", "--json", "CLAIM", "--text", "CLAIM"],
    );
    assert!(doc.get("format").is_none(), "{doc}");
    // Merged logs of two formats: each named once.
    let doc = json_out(
        dir.path(),
        &["parse", "--count", "--json", "--file", j, "--file", n],
    );
    let formats: Vec<&str> = doc["format"].as_str().unwrap().split(',').collect();
    assert_eq!(formats.len(), 2, "{doc}");
    assert!(
        formats.contains(&"jsonl") && formats.contains(&"netvm"),
        "{doc}"
    );
}
