//! The Java oracle itself (`tests/oracle/JavaOracle.java`, run by
//! `rxw_testkit::java_oracle_answers`), before any Java flavor exists: each JDK rxw will name
//! (`java@17`, `java@25`) answers a handful of cases whose answers are known, so a broken
//! harness (its JSON, its offsets, its names, its guards) is caught here and not mistaken for
//! an engine difference later. The slow tier runs the whole corpus
//! (`data/java_cases.jsonl`, written by `data/record_java_cases.py`) through every JDK and
//! checks that each case is answered. A missing JDK is said loudly and skipped, never passed
//! silently (and under `RXW_REQUIRE_ORACLES=1` it fails the test).

use serde_json::{Value, json};

/// The JDKs rxw's Java flavors are checked against: `java@17` and `java@25`.
const MAJORS: [u32; 2] = [17, 25];

#[test]
fn every_jdk_answers_the_known_cases() {
    let cases = [
        json!({"pattern": "a*", "text": "baaa"}),
        json!({"pattern": "(?<n>a)(b)?", "text": "xa ab", "replace": "[$1|${n}|$2]"}),
        json!({"pattern": "(a", "text": ""}),
        json!({"pattern": "(a)", "text": "a", "replace": "$3"}),
        json!({"pattern": "k", "flags": "i", "text": "kK\u{212A}"}),
        json!({"pattern": "k", "flags": "iu", "text": "kK\u{212A}"}),
        json!({"pattern": ".", "text": "é😀\u{2028}\"\\\n"}),
        // Lazy, so Java's memo of failed loop positions does not apply: exponential.
        json!({"pattern": "(x+x+)+?y", "text": "x".repeat(30)}),
        json!({"pattern": "(a|b)*", "text": "ab".repeat(20_000)}),
        json!({"pattern": "(?<a1>x)(?<b>y)?", "text": "xy x"}),
        json!({"pattern": "[a-z&&[^aeiou]]+", "text": "hello world"}),
    ];
    for major in MAJORS {
        if rxw_testkit::java_oracle(major).is_none() {
            // `java_oracle` has said so (and failed the test under the strict switch).
            continue;
        }
        let answers = rxw_testkit::java_oracle_answers(major, &cases);
        let at = |i: usize| &answers[i];
        assert_eq!(
            *at(0),
            json!({"names": [""], "matches": [[0, 0], [1, 4], [4, 4]]}),
            "Java {major}"
        );
        assert_eq!(
            *at(1),
            json!({
                "names": ["", "n", ""],
                "matches": [[1, 2, 1, 2, -1, -1], [3, 5, 3, 4, 4, 5]],
                "replaced": "x[a|a|] [a|a|b]",
            }),
            "Java {major}"
        );
        assert_eq!(at(2)["error"], "Unclosed group", "Java {major}");
        assert_eq!(at(2)["index"], 2, "Java {major}");
        assert_eq!(
            at(2)["message"]
                .as_str()
                .map(|m| m.lines().collect::<Vec<_>>()),
            Some(vec!["Unclosed group near index 2", "(a"]),
            "Java {major}"
        );
        assert_eq!(
            at(3)["replace_error"],
            "IndexOutOfBoundsException: No group 3",
            "Java {major}"
        );
        // CASE_INSENSITIVE alone folds ASCII only; with UNICODE_CASE the Kelvin sign too.
        assert_eq!(at(4)["matches"], json!([[0, 1], [1, 2]]), "Java {major}");
        assert_eq!(
            at(5)["matches"],
            json!([[0, 1], [1, 2], [2, 3]]),
            "Java {major}"
        );
        // UTF-16 offsets; the text (quotes, backslash, a pair, U+2028) read and written whole.
        assert_eq!(
            at(6)["matches"],
            json!([[0, 1], [1, 3], [4, 5], [5, 6]]),
            "Java {major}"
        );
        assert_eq!(*at(7), json!({"timeout": true}), "Java {major}");
        assert_eq!(
            *at(8),
            json!({"error_runtime": "StackOverflowError"}),
            "Java {major}"
        );
        assert_eq!(at(9)["names"], json!(["", "a1", "b"]), "Java {major}");
        assert_eq!(
            at(10)["matches"],
            json!([[0, 1], [2, 4], [6, 7], [8, 11]]),
            "Java {major}"
        );
    }
}

#[test]
#[ignore = "slow oracle suite: run by .ci/run (cargo test -- --include-ignored)"]
fn every_jdk_answers_the_whole_corpus() {
    let cases: Vec<Value> = include_str!("data/java_cases.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON case"))
        .collect();
    assert!(cases.len() >= 1400, "the corpus is read whole");
    let mut answered = Vec::new();
    for major in MAJORS {
        if rxw_testkit::java_oracle(major).is_none() {
            continue;
        }
        let answers = rxw_testkit::java_oracle_answers(major, &cases);
        let count = |key: &str| answers.iter().filter(|a| a.get(key).is_some()).count();
        eprintln!(
            "Java {major}: {} cases, {} compile, {} refused, {} runtime errors, {} timeouts, {} \
             replacements refused",
            answers.len(),
            count("matches"),
            count("error"),
            count("error_runtime"),
            count("timeout"),
            count("replace_error"),
        );
        for (case, answer) in cases.iter().zip(&answers) {
            assert!(
                answer.get("matches").is_some()
                    || answer.get("error").is_some()
                    || answer.get("error_runtime").is_some()
                    || answer.get("timeout").is_some(),
                "Java {major}: {case} answered {answer}"
            );
            if let Some(names) = answer.get("names") {
                assert!(names.is_array(), "Java {major}: {case}: names {names}");
            }
            if case.get("replace").is_some() && answer.get("matches").is_some() {
                assert!(
                    answer.get("replaced").is_some() || answer.get("replace_error").is_some(),
                    "Java {major}: {case} answered {answer}"
                );
            }
        }
        answered.push((major, answers));
    }
    // The two JDKs differ only where crates/rxw-syntax/gen/java_notes.md says they do; the
    // count is printed for the record (record_java_cases.py --diff lists them).
    if let [(a, x), (b, y)] = answered.as_slice() {
        let differ = x.iter().zip(y).filter(|(p, q)| p != q).count();
        eprintln!("Java {a} and Java {b} answer {differ} cases differently");
    }
}
