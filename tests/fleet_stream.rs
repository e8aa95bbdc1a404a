//! Fleet-scale logs on the command line in memory that does not grow with the log: `rxw parse`
//! read in chunks exactly as whole, records and timeline buckets that name their log and count
//! offsets and lines in it. Logs are generated here.

use serde_json::Value;

mod common;
use common::{find_json_in, run, rxw, stamp, write_file};

/// A log of about `bytes` bytes whose presets cross lines: results whose summaries run over
/// several lines up to the next `[RESULT `, acks whose `[from …]` comes after blank lines,
/// tool calls with a line break in their arguments, non-ASCII text next to hex ids.
fn crossing_log(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 200);
    let mut k = 0u64;
    while s.len() < bytes {
        let t = k / 3;
        let stamp = stamp(t);
        let line = match k % 9 {
            0 => format!("{stamp} a: [RESULT job-{k}] OK done\n  - disk {k:x}\n  - loop\n"),
            1 => format!("{stamp} a: [ACK:{k:x}ab]\n\n   [from agent-{k}]\n"),
            2 => format!("{stamp} Привет [CLAIM swarm-{k}a/3] 7fce46e{k} ünï\n"),
            3 => format!("{stamp} [TOOL bash {{\"cmd\": \"ls\n-l\"}}] [JOB j-{k}]\n"),
            4 => format!("{stamp} [NUDGE n{k}] [nudge 1/3] Deadline 02:51: ping\n"),
            5 => format!(
                "{stamp} id 123e4567-e89b-42d3-a456-4266141740{:02} é\n",
                k % 100
            ),
            6 => format!("{stamp} [DECLINE {k}] [JOB swarm-ab/{k}]\n"),
            7 => "\n".to_string(),
            _ => format!("{stamp} [RESULT r{k}] FAIL\n"),
        };
        s.push_str(&line);
        k += 1;
    }
    s.push_str("[RESULT last] OK the end of the text, no line end");
    s
}

/// Every preset but `work_order` (whose match runs to the end of the text).
const SETTLING: &str =
    "ack,verb,result,tool_call,job_tag,nudge,fleet_alert,uuid,short_hex,subagent_update,swarm_slot";

/// Regression: `rxw parse` read the whole log into memory whenever a preset could cross lines;
/// read in chunks it must give the whole text's hits, at every chunk end.
#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn parse_in_chunks_gives_the_hits_of_the_whole_text() {
    let dir = tempfile::tempdir().unwrap();
    // Larger than a chunk of the reader (4 MiB), so hits straddle a chunk end.
    let text = crossing_log(9 << 19);
    let log = write_file(dir.path(), "big.log", text.as_bytes());
    // The text as is (`--format lines`): this is the chunked pass over the raw text, not the
    // one on records.
    let (code, streamed, err) = run(rxw(dir.path())
        .args([
            "parse", "--jsonl", "--format", "lines", "--only", SETTLING, "--file",
        ])
        .arg(&log));
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    // With work_order the log is read whole (and said so): its other hits are the reference.
    let (code, whole, err) = run(rxw(dir.path())
        .args(["parse", "--jsonl", "--format", "lines", "--file"])
        .arg(&log));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("read whole") && err.contains("work_order"),
        "{err}"
    );
    let records = |out: &str| -> Vec<Value> {
        out.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|r| r["key"] != "work_order")
            .collect()
    };
    let (streamed, whole) = (records(&streamed), records(&whole));
    assert_eq!(streamed.len(), whole.len());
    for (s, w) in streamed.iter().zip(&whole) {
        assert_eq!(s, w);
    }
    // The last result runs to the true end of the text, not to a chunk's end.
    let last = streamed
        .iter()
        .rev()
        .find(|r| r["key"] == "result")
        .unwrap();
    assert_eq!(last["end"].as_u64().unwrap() as usize, text.len());
    let multi_line = streamed
        .iter()
        .filter(|r| r["key"] == "result" && r["match"].as_str().unwrap().contains('\n'))
        .count();
    assert!(multi_line > 1000, "{multi_line}");
    // Counting in chunks agrees too.
    let (_, count, _) = run(rxw(dir.path())
        .args([
            "parse", "--count", "--format", "lines", "--only", SETTLING, "--file",
        ])
        .arg(&log));
    assert_eq!(count.trim(), streamed.len().to_string());
}

/// Regression: offsets of records read from several logs counted in the merged text, which
/// no log holds; they count in the record's own log (as its line does).
#[test]
fn merged_records_count_offsets_in_their_own_log() {
    let dir = tempfile::tempdir().unwrap();
    let a_text =
        "2026-10-05T00:00:01Z a [CLAIM j1] é\n  trace of a\n2026-10-05T00:00:03Z a [CLAIM j3]\n";
    let b_text = "2026-10-05T00:00:01Z bé [CLAIM j2]\n2026-10-05T00:00:02Z b [CLAIM j4]\n";
    let a = write_file(dir.path(), "a.log", a_text.as_bytes());
    let b = write_file(dir.path(), "b.log", b_text.as_bytes());
    let own = |source: &str| {
        if source.ends_with("a.log") {
            a_text
        } else {
            b_text
        }
    };
    // A hit's span holds its match in its own log's text: that text and the span's start.
    let span_in_own_log = |r: &Value| {
        let text = own(r["source"].as_str().unwrap());
        let (i, e) = (
            r["index"].as_u64().unwrap() as usize,
            r["end"].as_u64().unwrap() as usize,
        );
        assert_eq!(&text[i..e], r["match"].as_str().unwrap(), "{r}");
        (text, i)
    };
    let (code, out, err) = run(&mut find_json_in(dir.path(), &[&a, &b], r"CLAIM (\w+)"));
    assert_eq!(code, 0, "{err}");
    let records: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(records.len(), 4);
    for r in &records {
        let (text, i) = span_in_own_log(r);
        let chars = r["char_index"].as_u64().unwrap() as usize;
        assert_eq!(text[..i].chars().count(), chars, "{r}");
        let line = r["line"].as_u64().unwrap() as usize;
        assert_eq!(text[..i].matches('\n').count() + 1, line, "{r}");
    }
    let (code, out, err) = run(rxw(dir.path())
        .args(["parse", "--jsonl", "--only", "verb", "--file"])
        .arg(&a)
        .arg("--file")
        .arg(&b));
    assert_eq!(code, 0, "{err}");
    let hits: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(hits.len(), 4);
    for r in &hits {
        span_in_own_log(r);
    }
}

/// Regression: timeline buckets of several logs gave only lines of the merged input; each
/// bucket now names each log's share and its own lines.
#[test]
fn timeline_buckets_name_their_logs() {
    let dir = tempfile::tempdir().unwrap();
    let a_text = b"2026-10-05T00:00:01Z a NUDGE\n  NUDGE again\n2026-10-05T00:00:03Z a NUDGE\n";
    let a = write_file(dir.path(), "a.log", a_text);
    let b_text = b"2026-10-05T00:00:01Z b NUDGE\n2026-10-05T00:00:02Z b nothing\n";
    let b = write_file(dir.path(), "b.log", b_text);
    let (code, out, err) = run(rxw(dir.path())
        .args(["timeline", "--json", "NUDGE"])
        .arg(&a)
        .arg(&b));
    assert_eq!(code, 0, "{err}");
    let buckets: Vec<Value> = serde_json::from_str(&out).unwrap();
    let first = &buckets[0];
    assert_eq!(first["count"], 3);
    assert_eq!(
        first["sources"],
        serde_json::json!([
            {"source": a.display().to_string(), "count": 2, "first_line": 1, "last_line": 2},
            {"source": b.display().to_string(), "count": 1, "first_line": 1, "last_line": 1},
        ])
    );
    let third = &buckets[2];
    assert_eq!(
        third["sources"],
        serde_json::json!([
            {"source": a.display().to_string(), "count": 1, "first_line": 3, "last_line": 3},
        ])
    );
    // The chart names each log's lines; one log keeps its plain line range.
    let (_, chart, _) = run(rxw(dir.path()).args(["timeline", "NUDGE"]).arg(&a).arg(&b));
    assert!(
        chart.contains(&format!("{}:1-2 {}:1", a.display(), b.display())),
        "{chart}"
    );
    let (_, one, _) = run(rxw(dir.path())
        .args(["timeline", "--json", "NUDGE"])
        .arg(&a));
    let one: Vec<Value> = serde_json::from_str(&one).unwrap();
    assert!(one[0].get("sources").is_none(), "{}", one[0]);
}
