//! The preset registry as a test table, the registry's examples, near-misses, and the agreement
//! of `parse --count`'s fast paths with the plain per-preset iteration.

use rxw::presets::{self, Catalog, Scanner};
use std::collections::BTreeMap;

fn catalog() -> Catalog {
    presets::load(&presets::LoadOptions::default()).catalog
}

#[test]
fn shipped_registry_passes_its_own_check_but_for_two_redos_cases() {
    let results = presets::check(&catalog());
    let failures: Vec<_> = results.iter().filter(|r| !r.passed()).collect();
    // work_order (cubic) and tool_call (quadratic) are polynomial on CPython for a long line
    // the ReDoS case shows; every example, counter-example and other preset passes.
    let failed: Vec<(&str, presets::CaseKind)> =
        failures.iter().map(|f| (f.key.as_str(), f.kind)).collect();
    assert_eq!(
        failed,
        [
            ("work_order", presets::CaseKind::Redos),
            ("tool_call", presets::CaseKind::Redos)
        ],
        "{failures:#?}"
    );
    // 12 "groups documented" and 12 ReDoS cases plus every example and counter-example.
    assert!(results.len() >= 2 * 12 + 2 * 12, "{}", results.len());
}

/// Hits of `key` in `text`, as maps of group name to text.
/// Group name to captured text (`None`: did not take part).
type Groups = BTreeMap<String, Option<String>>;

fn groups_of(key: &str, text: &str) -> Vec<Groups> {
    let cat = catalog();
    let scanner = Scanner::new(vec![cat.get(key).unwrap()]);
    scanner
        .hits(text, true)
        .map(|h| {
            let h = h.unwrap();
            let names = h.entry.group_names();
            names
                .iter()
                .enumerate()
                .filter_map(|(i, n)| {
                    n.as_ref()
                        .map(|n| (n.clone(), h.m.group(text, i + 1).map(str::to_string)))
                })
                .collect()
        })
        .collect()
}

fn g(pairs: &[(&str, &str)]) -> Groups {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), Some(v.to_string())))
        .collect()
}

#[test]
fn seed_directory_examples_parse_with_their_groups() {
    let cases: Vec<(&str, &str, Groups)> = vec![
        (
            "work_order",
            "[WO:7fce46e0] [from super] Audit — Check stats",
            g(&[
                ("wo_id", "7fce46e0"),
                ("sender", "super"),
                ("title", "Audit"),
                ("body", "Check stats"),
            ]),
        ),
        (
            "ack",
            "[ACK:7fce46e0] [from 646]",
            g(&[("id", "7fce46e0"), ("sender", "646")]),
        ),
        (
            "verb",
            "[CLAIM 7fce46e0]",
            g(&[("verb", "CLAIM"), ("job_id", "7fce46e0")]),
        ),
        (
            "result",
            "[RESULT 7fce46e0] OK 14 endpoints healthy",
            g(&[
                ("job_id", "7fce46e0"),
                ("status", "OK"),
                ("summary", "14 endpoints healthy"),
            ]),
        ),
        (
            "tool_call",
            r#"[TOOL followup.create {"in_m": 5}]"#,
            g(&[
                ("engine", "TOOL"),
                ("op", "followup.create"),
                ("args", r#"{"in_m": 5}"#),
            ]),
        ),
        (
            "job_tag",
            "[JOB ml-646-20261005]",
            g(&[("job_id", "ml-646-20261005")]),
        ),
        (
            "nudge",
            "[NUDGE 7fce46e0] [nudge 1/3] Deadline 19:45: ...",
            g(&[
                ("id", "7fce46e0"),
                ("attempt", "1"),
                ("of", "3"),
                ("deadline", "19:45"),
                ("text", "..."),
            ]),
        ),
        (
            "fleet_alert",
            "[fleet-alert] CRITICAL: VM unreachable x2",
            g(&[("level", "CRITICAL"), ("message", "VM unreachable x2")]),
        ),
        ("uuid", "dc6d72ca-4b02-4217-bf41-7dbca19c5c24", g(&[])),
        ("short_hex", "7fce46e0", g(&[])),
        (
            "subagent_update",
            "[SUBAGENT-UPDATE] Subagent 'audit' (4a2b8e) ...",
            g(&[("name", "audit"), ("short_id", "4a2b8e"), ("status", "...")]),
        ),
        (
            "swarm_slot",
            "[JOB swarm-99a/1]",
            g(&[("tag", "JOB"), ("swarm", "swarm-99a"), ("slot", "1")]),
        ),
    ];
    assert_eq!(cases.len(), 12);
    for (key, text, want) in cases {
        let got = groups_of(key, text);
        assert_eq!(got.first(), Some(&want), "{key} on {text:?}");
    }
}

#[test]
fn result_status_is_optional_and_summary_stops_at_the_next_result() {
    let got = groups_of("result", "[RESULT a1] multi\nline\n[RESULT b2] FAIL x");
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["status"], None);
    assert_eq!(got[0]["summary"].as_deref(), Some("multi\nline\n"));
    assert_eq!(got[1]["status"].as_deref(), Some("FAIL"));
}

#[test]
fn near_misses_do_not_match_their_key() {
    for (key, text) in [
        ("ack", "[ack 7fce46e0]"),
        ("verb", "[ack 7fce46e0]"),
        ("result", "[RESULT]"),
        ("result", "note: [RESULT] without an id is not a result"),
        ("uuid", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
        ("short_hex", "7fce46e0a1b2c"),
        ("short_hex", "run 0123456789abc here"),
        ("job_tag", "[JOB ] empty job id"),
        ("swarm_slot", "[JOB swarm-99a]"),
        ("work_order", "see ticket WO-7fce46e0 (not a tag)"),
    ] {
        assert!(groups_of(key, text).is_empty(), "{key} matched {text:?}");
    }
}

/// A deterministic agent log with every tag, multi-line results, non-ASCII text and
/// near-misses (tests generate their own data).
fn agent_log(lines: usize) -> String {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = String::new();
    for i in 0..lines {
        let r = next();
        let id = format!("{:08x}", (r >> 8) as u32);
        let line = match r % 19 {
            0 => format!("[WO:{id}] [from super] Аудит — check {i}"),
            1 => format!("2026-10-05T00:00:{:02}Z pip: [ACK:{id}] [from pip]", i % 60),
            2 => format!("[CLAIM {id}] taking it"),
            3 => format!("[RESULT {id}] OK done {i}\n  - detail ✅\n  - more"),
            4 => format!("[RESULT {id}] summary without status"),
            5 => format!(r#"[TOOL health.check {{"in_m": {}}}]"#, i % 90),
            6 => format!("[JOB ml-{}-20261005]", i % 999),
            7 => format!("[NUDGE {id}] [nudge 2/3] Deadline 9:05: ping"),
            8 => "[fleet-alert] WARNING: disk 91% на box-3".to_string(),
            9 => format!("trace {id}-4b02-4217-bf41-7dbca19c5c24 ok"),
            10 => format!("trace {id}-9dad-11d1-80b4-00c04fd430c8 (v1)"),
            11 => format!("[SUBAGENT-UPDATE] Subagent 'audit' ({}) finished", &id[..6]),
            12 => format!("[JOB swarm-{}/{}]", &id[..3], i % 32),
            13 => format!("[ack {id}] lower case"),
            14 => "[RESULT] no id".to_string(),
            15 => format!("hex run {id}abcde is too long"),
            16 => format!("[DECLINE {id}] 了解しました"),
            17 => format!("[RESULT {id}]"),
            _ => "plain chatter 👍 — nothing to see".to_string(),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn count_fast_paths_agree_with_iterating_each_preset() {
    let cat = catalog();
    for text in [
        agent_log(3000),
        format!("no newline at the end {}", agent_log(500).trim_end()),
    ] {
        let scanner = Scanner::new(cat.entries().iter().collect());
        let counts = scanner.count(&text).unwrap();
        let mut from_hits = vec![0usize; cat.len()];
        let mut last = 0;
        for h in scanner.hits(&text, true) {
            let h = h.unwrap();
            assert!(h.m.start() >= last, "hits must come in text order");
            last = h.m.start();
            from_hits[cat
                .entries()
                .iter()
                .position(|e| std::ptr::eq(e, h.entry))
                .unwrap()] += 1;
        }
        let plain: Vec<usize> = cat
            .entries()
            .iter()
            .map(|e| e.regex().unwrap().count(&text).unwrap())
            .collect();
        assert_eq!(counts, plain, "count vs. each preset's own iteration");
        assert_eq!(from_hits, plain, "hits vs. each preset's own iteration");
        assert!(plain.iter().all(|&n| n > 0), "{plain:?}");
        let threaded = Scanner::new(cat.entries().iter().collect())
            .with_threads(3)
            .count(&text)
            .unwrap();
        assert_eq!(threaded, plain);
    }
}

#[test]
fn prefilter_and_rewrites_are_used_where_they_apply() {
    let cat = catalog();
    let scanner = Scanner::new(cat.entries().iter().collect());
    let keys: Vec<&str> = cat.keys().collect();
    for (i, key) in keys.iter().enumerate() {
        let expect_literal = *key != "short_hex";
        assert_eq!(scanner.is_prefiltered(i), expect_literal, "{key}");
        assert_eq!(scanner.is_rewritten(i), *key == "result", "{key}");
    }
}

/// Regression: a registry of thousands of presets compiled every pattern to list them
/// and to parse 54 bytes. Loading now compiles none; a parse compiles only the presets the
/// text gives a candidate to (plus those that must scan on their own).
#[test]
fn large_registry_compiles_only_the_presets_a_text_can_match() {
    let mut toml = String::new();
    for i in 0..500 {
        toml.push_str(&format!(
            "[[preset]]\nkey = \"gen_{i}\"\nflavor = \"python\"\npattern = '''\\[T{i:04}\\s+(?P<id>[a-f0-9]+)\\]'''\n\n"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.toml");
    std::fs::write(&path, toml).unwrap();
    let loaded = presets::load(&presets::LoadOptions {
        files: vec![path],
        config_dir: None,
    });
    assert!(loaded.failures.is_empty());
    let cat = loaded.catalog;
    assert_eq!(cat.len(), 512);
    assert!(
        cat.entries().iter().all(|e| !e.is_compiled()),
        "loading compiles nothing"
    );

    let text = "x [T0042 7fce] y";
    let scanner = Scanner::new(cat.entries().iter().collect());
    assert!(
        cat.entries().iter().all(|e| !e.is_compiled()),
        "preparing compiles nothing"
    );
    let hits: Vec<String> = scanner
        .hits(text, true)
        .map(|h| h.unwrap().entry.preset.key.clone())
        .collect();
    assert!(hits.contains(&"gen_42".to_string()), "{hits:?}");
    let compiled: Vec<&str> = cat
        .entries()
        .iter()
        .filter(|e| e.is_compiled())
        .map(|e| e.preset.key.as_str())
        .collect();
    // gen_42, plus the built-ins without a literal start that scan every text (short_hex).
    assert!(compiled.contains(&"gen_42"), "{compiled:?}");
    assert!(
        compiled.len() <= 4,
        "only the presets that can match: {compiled:?}"
    );
    let counts = scanner.count(text).unwrap();
    let compiled_after_count = cat.entries().iter().filter(|e| e.is_compiled()).count();
    assert_eq!(
        compiled_after_count,
        compiled.len(),
        "counting compiles no more"
    );
    assert_eq!(counts.iter().sum::<usize>(), hits.len());
}
