//! Log formats beyond NetVM and JSON Lines, end to end: logfmt, syslog (RFC 3164 and 5424),
//! and the user's own formats as TOML files (from the config directory, or named by path).
//! The logs are built here from the registry's own example messages, so that each format's
//! per-preset counts can be compared with the same messages in a NetVM log.

mod common;
use common::{fails_saying, run, run_json, rxw, temp_file};
use std::path::Path;

/// Every example and counter-example text of the built-in registry, each a message.
fn registry_messages(config: &Path) -> Vec<String> {
    let (code, out, err) = run(rxw(config).args(["preset", "list", "--json"]));
    assert_eq!(code, 0, "{err}");
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut messages = Vec::new();
    for p in list.as_array().unwrap() {
        let key = p["key"].as_str().unwrap();
        let (def, _) = run_json(rxw(config).args(["preset", "get", key, "--json"]), 0);
        for e in def["examples"].as_array().unwrap() {
            messages.push(e["text"].as_str().unwrap().to_string());
        }
        for c in def["counter_examples"].as_array().unwrap() {
            messages.push(c.as_str().unwrap().to_string());
        }
    }
    // Messages that span lines, as agents write work orders and results.
    for k in 0..4 {
        messages.push(format!(
            "[WO:{k}d409dd3] [from super] Health sweep {k} — check\n  - step one [CLAIM {k}a]\n\t- step two"
        ));
        messages.push(format!(
            "[RESULT {k}a2b4d98] ERROR collect\n  - collect loop state {k}\n  [RESULT {k}b] OK"
        ));
    }
    // What a NetVM log can hold as one message: continuation lines indented, no `\r`.
    messages.retain(|m| {
        !m.trim().is_empty()
            && !m.contains('\r')
            && m.lines().skip(1).all(|l| l.starts_with([' ', '\t']))
            && !m.ends_with('\n')
    });
    messages.sort();
    messages.dedup();
    messages
}

fn stamp(k: usize) -> String {
    format!("2026-10-05T00:{:02}:{:02}Z", (k / 60) % 60, k % 60)
}

/// One line for each message, written by `line` from its index and its text.
fn lines_of(messages: &[String], line: impl Fn(usize, &str) -> String) -> String {
    messages
        .iter()
        .enumerate()
        .map(|(k, m)| line(k, m))
        .collect()
}

fn netvm_log(messages: &[String]) -> String {
    lines_of(messages, |k, m| format!("{} agent-{k}: {m}\n", stamp(k)))
}

/// A logfmt quoted value.
fn quote(m: &str) -> String {
    let mut q = String::from("\"");
    for c in m.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            c if (c as u32) < 0x20 => q.push_str(&format!("\\u{:04x}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

fn logfmt_log(messages: &[String]) -> String {
    lines_of(messages, |k, m| {
        format!(
            "ts={} level=info logger=agent-{k} msg={} attempt={k}\n",
            stamp(k),
            quote(m)
        )
    })
}

/// RFC 3164 lines, every other one without its PRI (as rsyslog writes files).
fn rfc3164_log(messages: &[String]) -> String {
    lines_of(messages, |k, m| {
        let pri = if k % 2 == 0 { "<14>" } else { "" };
        format!(
            "{pri}Oct {:2} 22:14:{:02} host-{k} agent[{k}]: {m}\n",
            1 + k % 28,
            k % 60
        )
    })
}

/// RFC 5424 lines, alternately with structured data and with every field nil.
fn rfc5424_log(messages: &[String]) -> String {
    lines_of(messages, |k, m| {
        if k % 2 == 0 {
            format!(
                "<165>1 {} host-{k} agent {k} ID{k} [exampleSDID@32473 iut=\"3\" note=\"a \\\"quoted\\\" \\] bracket\"][x@1 y=\"z\"] {m}\n",
                stamp(k)
            )
        } else {
            format!("<11>1 - - - - - - {m}\n")
        }
    })
}

fn counts(config: &Path, log: &Path, extra: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(rxw(config)
        .args(["parse", "--count", "--json"])
        .args(extra)
        .arg(log));
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "nothing skipped: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn logfmt_and_syslog_logs_count_as_the_same_messages_in_a_netvm_log() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path();
    let messages = registry_messages(config);
    assert!(messages.len() > 40, "{}", messages.len());
    let one_line: Vec<String> = messages
        .iter()
        .filter(|m| !m.contains('\n'))
        .cloned()
        .collect();
    assert!(one_line.len() < messages.len(), "some messages span lines");
    let write = |name: &str, text: String| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let netvm = counts(config, &write("all.log", netvm_log(&messages)), &[]);
    assert_eq!(netvm["format"], "netvm");
    let hit_keys = netvm["by_key"]
        .as_object()
        .unwrap()
        .values()
        .filter(|n| n.as_u64() > Some(0))
        .count();
    assert!(hit_keys >= 10, "{netvm}");

    // logfmt: detected, and the same counts as NetVM's, multi-line messages included.
    let logfmt = counts(config, &write("all.logfmt", logfmt_log(&messages)), &[]);
    assert_eq!(logfmt["format"], "logfmt");
    assert_eq!(logfmt["by_key"], netvm["by_key"]);

    // syslog holds one line a message: compared with those messages in a NetVM log.
    let netvm_one = counts(config, &write("one.log", netvm_log(&one_line)), &[]);
    for (name, text) in [
        ("rfc3164.log", rfc3164_log(&one_line)),
        ("rfc5424.log", rfc5424_log(&one_line)),
    ] {
        let got = counts(config, &write(name, text), &[]);
        assert_eq!(got["format"], "syslog", "{name}");
        assert_eq!(got["by_key"], netvm_one["by_key"], "{name}");
        // Named, the same.
        let named = counts(config, &dir.path().join(name), &["--format", "syslog"]);
        assert_eq!(named["by_key"], netvm_one["by_key"], "{name}");
    }
    // As is, the logfmt log is another story: the prefix and the quoting are in the text.
    let lines = counts(
        config,
        &dir.path().join("all.logfmt"),
        &["--format", "lines"],
    );
    assert_ne!(lines["by_key"], netvm["by_key"]);
}

#[test]
fn syslog_hits_have_the_file_s_offsets_and_logfmt_hits_the_message_s() {
    let text = "Oct 11 22:14:15 box agent[7]: [CLAIM 7fce46e0] on it\n<165>1 2003-10-11T22:14:15.003Z box agent - - [a@1 b=\"[CLAIM 00000000]\"] [ACK 7fce46e0]\n";
    let (dir, syslog) = temp_file("sys.log", text);
    let (code, out, err) = run(rxw(dir.path())
        .args(["parse", "--json", "--only", "verb"])
        .arg(&syslog));
    assert_eq!(code, 0, "{err}");
    let hits: serde_json::Value = serde_json::from_str(&out).unwrap();
    let hits = hits.as_array().unwrap();
    // The structured data's `[CLAIM …]` is header, not message.
    assert_eq!(hits.len(), 2, "{hits:?}");
    for h in hits {
        let (s, e) = (
            h["index"].as_u64().unwrap() as usize,
            h["end"].as_u64().unwrap() as usize,
        );
        assert_eq!(&text[s..e], h["match"].as_str().unwrap());
        assert!(h.get("offsets").is_none());
    }
    assert_eq!(hits[1]["line"], 2);

    let logfmt = dir.path().join("app.logfmt");
    std::fs::write(
        &logfmt,
        "ts=1 msg=\"say \\\"[CLAIM 7fce46e0]\\\"\"\nnot logfmt at all\nlevel=info no=message\nts=2 msg=[ACK:1]\n",
    )
    .unwrap();
    let (code, out, err) = run(rxw(dir.path())
        .args(["find", "--json", "--format", "logfmt", r"\[CLAIM (\w+)\]"])
        .arg(&logfmt));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["offsets"], "message");
    // In the decoded message `say "[CLAIM 7fce46e0]"`, the hit starts at 5.
    assert_eq!(v[0]["index"], 5);
    assert_eq!(v[0]["line"], 1);
    // Lines that are no record are counted and said, the first named.
    let (code, _, err) = run(rxw(dir.path())
        .args(["parse", "--count", "--json", "--only", "verb"])
        .arg(&logfmt));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("2 lines are no record and were skipped (the first, line 2: not logfmt)"),
        "{err}"
    );
}

const WEB: &str = r#"name = "web"
description = "our web tier"
line = '(?P<time>\d\d:\d\d:\d\d) (?P<level>[A-Z]+) \[(?P<sender>[\w.-]+)\] (?P<message>.*)'
continuation = '\s'
"#;

fn web_log(messages: &[String]) -> String {
    lines_of(messages, |k, m| {
        format!("00:00:{:02} INFO [agent-{k}] {m}\n", k % 60)
    })
}

#[test]
fn a_user_format_from_the_config_directory_is_detected_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path();
    let messages = registry_messages(config);
    let netvm = dir.path().join("all.log");
    std::fs::write(&netvm, netvm_log(&messages)).unwrap();
    let netvm = counts(config, &netvm, &[]);
    let log = dir.path().join("web.log");
    std::fs::write(&log, web_log(&messages)).unwrap();
    // Without the format, the log is text as is.
    let as_is = counts(config, &log, &[]);
    assert!(as_is.get("format").is_none(), "{as_is}");

    let formats = config.join("rxw").join("formats");
    std::fs::create_dir_all(&formats).unwrap();
    std::fs::write(formats.join("web.toml"), WEB).unwrap();
    let detected = counts(config, &log, &[]);
    assert_eq!(detected["format"], "web");
    assert_eq!(detected["by_key"], netvm["by_key"]);
    let named = counts(config, &log, &["--format", "web"]);
    assert_eq!(named["by_key"], netvm["by_key"]);

    // A wrong name lists every format, the user's too.
    fails_saying(
        rxw(config).args(["parse", "--format", "yaml"]).arg(&log),
        "the formats are netvm, jsonl, lines, logfmt, syslog, web",
    );

    // A format file named by path, outside the config directory.
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("web2.toml");
    std::fs::write(&file, WEB.replace("name = \"web\"", "name = \"web2\"")).unwrap();
    let other = tempfile::tempdir().unwrap();
    let by_path = counts(other.path(), &log, &["--format", file.to_str().unwrap()]);
    assert_eq!(by_path["format"], "web2");
    assert_eq!(by_path["by_key"], netvm["by_key"]);
    // Mixed formats across merged logs: each log read by its own.
    let sys = dir.path().join("sys.log");
    let one_line: Vec<String> = messages
        .iter()
        .filter(|m| !m.contains('\n'))
        .cloned()
        .collect();
    std::fs::write(&sys, rfc3164_log(&one_line)).unwrap();
    let (mixed, _) = run_json(
        rxw(config)
            .args(["parse", "--count", "--json"])
            .arg(&log)
            .arg(&sys),
        0,
    );
    assert_eq!(mixed["format"], "web,syslog");
    let sys_alone = counts(config, &sys, &[]);
    assert_eq!(
        mixed["count"].as_u64().unwrap(),
        netvm["count"].as_u64().unwrap() + sys_alone["count"].as_u64().unwrap()
    );
}

#[test]
fn a_broken_format_file_is_an_error_naming_its_file_and_line() {
    let (dir, log) = temp_file("a.log", "00:00:01 INFO [a] [CLAIM 7fce46e0]\n");
    // An invalid regex, named by path: exit 2, the file, line and column, and a caret.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "name = \"bad\"\nline = '(?P<message>.*'\n").unwrap();
    let (code, _, err) = run(rxw(dir.path())
        .args(["parse", "--format"])
        .arg(&bad)
        .arg(&log));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "{}:2:9: `line` is not a pattern rxw's python flavor compiles",
            bad.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("line = '(?P<message>.*'\n          ^^^^^^^^^^^^^^\n"),
        "{err}"
    );

    // Malformed TOML in the config directory: never passed over, whether detecting or
    // looking a name up.
    let formats = dir.path().join("rxw").join("formats");
    std::fs::create_dir_all(&formats).unwrap();
    std::fs::write(formats.join("web.toml"), WEB).unwrap();
    std::fs::write(formats.join("zz.toml"), "name = \"zz\"\nline = 'x\n").unwrap();
    let zz = formats.join("zz.toml");
    let said = format!("{}:2:", zz.display());
    fails_saying(rxw(dir.path()).args(["parse", "--count"]).arg(&log), &said);
    fails_saying(
        rxw(dir.path()).args(["parse", "--format", "web"]).arg(&log),
        &said,
    );
    // A built-in format does not read the config directory.
    let (code, out, err) = run(rxw(dir.path())
        .args(["parse", "--count", "--format", "lines"])
        .arg(&log));
    assert_eq!((code, out.trim()), (0, "2"), "{err}");
}
