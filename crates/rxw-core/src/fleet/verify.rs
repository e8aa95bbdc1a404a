//! Verification: the exported definitions against rxw's own hits, row by row.
//!
//! The rows are the registry's examples and counter-examples and a generated corpus
//! ([`corpus`]); rxw's answer on a row is the preset's hits on that text ([`rxw_hits_on`]),
//! cut to what the target shows ([`expected`]); an engine's answer comes back as the same
//! [`Hit`]s and [`compare`] finds the first row where they differ. The Vector target is run
//! here, on the `regex` crate that VRL's `parse_regex_all` calls ([`run_regex_crate`]); the
//! SQL and LogQL targets are run by their real engines in the front end.

use super::{Definition, Form, HitScope, MATCH_COLUMN, PresetExport, Target};
use crate::error::{Error, ErrorKind};
use crate::presets::Entry;
use crate::wire::{Verdict, VerifyRecord};
use std::collections::BTreeMap;

/// One row of the verification table: a log line (or a multi-line message held as one
/// value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The row's text.
    pub text: String,
}

/// One hit as an engine shows it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    /// The row it is on (1-based).
    pub line_no: usize,
    /// The whole hit.
    pub text: Option<String>,
    /// Named groups: `None` when the group did not take part.
    pub fields: BTreeMap<String, Option<String>>,
}

/// The preset's own examples and counter-examples as rows.
pub fn own_cases(entry: &Entry) -> Vec<Row> {
    let p = &entry.preset;
    p.examples
        .iter()
        .map(|e| e.text.clone())
        .chain(p.counter_examples.iter().cloned())
        .map(|text| Row { text })
        .collect()
}

/// Small deterministic generator (xorshift), so the corpus is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Glue between fragments: the whitespace the patterns' `\s` and `[ \t]` tell apart, line
/// breaks (a row can be a multi-line message) and characters outside ASCII.
const GLUE: &[&str] = &[
    " ", "  ", "\t", "\n", "\r\n", "\u{b}", "\u{1c}", "\u{a0}", "\u{2028}", " — ", "", ": ", " é ",
    "x", "_", "-",
];

/// Fragments that come near the presets without being them.
const NOISE: &[&str] = &[
    "2026-10-05T10:00:00Z",
    "box-3:",
    "[RESULT",
    "[RESULT ",
    "[RESULT\t",
    "[RESULTS x]",
    "]",
    "[",
    "OK",
    "FAIL",
    "{\"a\": [1]}",
    "'",
    "(4a2b8e)",
    "deadbeef",
    "DEADBEEF",
    "7fce46e0-1",
    "ünïcödé",
    "日本",
    "—",
    "19:45",
    // Hits across a line break (`\s` takes it): found only over the whole log.
    "[ACK:8a12bc44]\n[from pip]",
    "[fleet-alert]\nWARNING: split alert",
];

/// The spaces an example's spaces are swapped for: the whitespace that dialects' `\s` and
/// classes tell apart (Python's `\s` takes `\x1c` and the Unicode spaces, RE2's does not).
const SPACES: &[&str] = &[
    "\t", "\u{b}", "\u{1c}", "\u{85}", "\u{a0}", "\u{2028}", "\u{3000}",
];

/// The verification rows for these presets: every example and counter-example of each (of
/// all the presets: one preset's lines are near-misses for another), each example again
/// with its spaces swapped for each of `SPACES` (a translation that drops one of them
/// from a class shows), then generated lines that glue examples, counter-examples, pieces
/// of them and noise together.
pub fn corpus(entries: &[&Entry]) -> Vec<Row> {
    let mut rows: Vec<Row> = entries.iter().flat_map(|e| own_cases(e)).collect();
    let swapped: Vec<Row> = entries
        .iter()
        .flat_map(|e| e.preset.examples.iter())
        .filter(|e| e.text.contains(' '))
        .flat_map(|e| {
            SPACES.iter().map(|s| Row {
                text: e.text.replace(' ', s),
            })
        })
        .collect();
    rows.extend(swapped);
    let fragments: Vec<String> = rows
        .iter()
        .map(|r| r.text.clone())
        .chain(NOISE.iter().map(|s| s.to_string()))
        .collect();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for _ in 0..400 {
        let mut line = String::new();
        for _ in 0..1 + rng.below(3) {
            let f = &fragments[rng.below(fragments.len())];
            // Sometimes only a piece, cut on a character boundary.
            let piece = if rng.below(4) == 0 && !f.is_empty() {
                let chars: Vec<char> = f.chars().collect();
                let a = rng.below(chars.len());
                let b = a + rng.below(chars.len() - a) + 1;
                chars[a..b].iter().collect()
            } else {
                f.clone()
            };
            line.push_str(&piece);
            line.push_str(GLUE[rng.below(GLUE.len())]);
        }
        rows.push(Row { text: line });
    }
    rows
}

/// rxw's hits for `entry` on one row's text, as [`Hit`]s (whole hit and every named group).
///
/// # Errors
/// When the pattern does not compile or the match fails (a limit).
pub fn rxw_hits_on(
    entry: &Entry,
    text: &str,
    line_no: usize,
    scope: HitScope,
) -> Result<Vec<Hit>, Error> {
    let re = entry.regex()?;
    let limit = match scope {
        HitScope::All => None,
        HitScope::First => Some(1),
    };
    Ok(re
        .find_all(text, limit)?
        .iter()
        .map(|m| Hit::of(entry, m, text, line_no))
        .collect())
}

impl Hit {
    /// The hit `m` of `entry`'s pattern in `text` on row `line_no`: the whole hit and every
    /// named group.
    fn of(entry: &Entry, m: &crate::engine::Match, text: &str, line_no: usize) -> Hit {
        Hit {
            line_no,
            text: Some(m.as_str(text).to_string()),
            fields: entry
                .group_names()
                .iter()
                .enumerate()
                .filter_map(|(i, n)| {
                    n.as_ref()
                        .map(|n| (n.clone(), m.group(text, i + 1).map(str::to_string)))
                })
                .collect(),
        }
    }
}

/// Whether the target's definitions read a `logs` table of lines (the SQL targets with a
/// `messages` view): their rows are lines, and rxw's answer is `rxw parse` on the whole log.
pub fn reads_log_lines(target: Target) -> bool {
    matches!(target, Target::ClickHouse | Target::DuckDb)
}

/// The rows as the lines of one log: joined with `\n`, split at every `\n` (a multi-line
/// row becomes several lines, each without a line break).
pub fn log_lines(rows: &[Row]) -> Vec<Row> {
    let text = rows
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    text.split('\n')
        .map(|l| Row {
            text: l.to_string(),
        })
        .collect()
}

/// Where the verification log's lines pass from the first source to the second: the SQL
/// views search each source's lines on their own, and two sources check that they do.
/// `line_no` runs on across both (the views map lines through the numbers they are given).
pub fn source_split(lines: usize) -> usize {
    lines / 2
}

/// rxw's hits, cut to what `def` shows on `target`: on the whole log of each source (the
/// `rows` are lines, split at [`source_split`]) for the targets that [`reads_log_lines`],
/// each hit on the line where it starts; on each row alone for the others.
///
/// # Errors
/// As for [`rxw_hits_on`].
pub fn expected(
    entry: &Entry,
    def: &Definition,
    target: Target,
    rows: &[Row],
) -> Result<Vec<Hit>, Error> {
    let mut out = Vec::new();
    if reads_log_lines(target) {
        let split = source_split(rows.len());
        for (first, source) in [(0, &rows[..split]), (split, &rows[split..])] {
            let text = source
                .iter()
                .map(|r| r.text.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            log_hits(entry, def, target, &text, first, &mut out)?;
        }
    } else {
        for (i, row) in rows.iter().enumerate() {
            for hit in rxw_hits_on(entry, &row.text, i + 1, target.scope())? {
                out.push(shown(def, target, hit));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// rxw's hits in one source's whole text, each on the line it starts on (`first` lines come
/// before the source's first line).
fn log_hits(
    entry: &Entry,
    def: &Definition,
    target: Target,
    text: &str,
    first: usize,
    out: &mut Vec<Hit>,
) -> Result<(), Error> {
    {
        let breaks: Vec<usize> = memchr::memchr_iter(b'\n', text.as_bytes()).collect();
        for m in entry.regex()?.find_all(text, None)? {
            let line_no = first + 1 + breaks.partition_point(|&b| b < m.start());
            out.push(shown(def, target, Hit::of(entry, &m, text, line_no)));
        }
    }
    Ok(())
}

/// What is compared of a hit on a target: the whole hit (every engine gives it, also where
/// the target shows only fields: the check is stronger), the named groups the export shows,
/// and for Loki no label where the group is unset or empty.
pub fn shown(def: &Definition, target: Target, mut hit: Hit) -> Hit {
    hit.fields
        .retain(|name, _| def.fields.iter().any(|f| &f.name == name));
    if target == Target::Loki {
        hit.fields
            .retain(|_, v| v.as_deref().is_some_and(|v| !v.is_empty()));
    }
    hit
}

/// Compares two sorted hit lists; the first difference as one line, or `None`.
pub fn compare(rows: &[Row], rxw: &[Hit], engine: &[Hit]) -> Option<String> {
    let n = rxw.len().max(engine.len());
    for i in 0..n {
        let (a, b) = (rxw.get(i), engine.get(i));
        if a != b {
            let line_no = match (a, b) {
                (Some(a), Some(b)) => a.line_no.min(b.line_no),
                (Some(h), None) | (None, Some(h)) => h.line_no,
                (None, None) => 0,
            };
            let on_line = |hits: &[Hit]| -> Vec<String> {
                hits.iter()
                    .filter(|h| h.line_no == line_no)
                    .map(describe)
                    .collect()
            };
            let text = rows
                .get(line_no.wrapping_sub(1))
                .map(|r| r.text.as_str())
                .unwrap_or("");
            return Some(format!(
                "line {line_no} {text:?}: rxw [{}], engine [{}]",
                on_line(rxw).join("; "),
                on_line(engine).join("; ")
            ));
        }
    }
    None
}

fn describe(h: &Hit) -> String {
    let mut parts = Vec::new();
    if let Some(t) = &h.text {
        parts.push(format!("{t:?}"));
    }
    for (k, v) in &h.fields {
        match v {
            Some(v) => parts.push(format!("{k}={v:?}")),
            None => parts.push(format!("{k}=unset")),
        }
    }
    parts.join(" ")
}

/// Runs an exact Vector definition the way VRL's `parse_regex_all` does: the `regex` crate,
/// every non-overlapping hit, the named groups (and the whole-hit group the export adds).
///
/// # Errors
/// When the exported pattern does not compile on the regex crate (a translation bug, said
/// as such), or the definition is not an exact one.
pub fn run_regex_crate(def: &Definition, rows: &[Row]) -> Result<Vec<Hit>, Error> {
    let Form::Exact { pattern } = &def.form else {
        return Err(Error::new(
            ErrorKind::ConstructUnsupported,
            "the regex crate runs exact definitions only",
        ));
    };
    let re = regex::Regex::new(pattern).map_err(|e| {
        Error::new(
            ErrorKind::PatternInvalid,
            format!("the exported pattern of {} does not compile: {e}", def.key),
        )
    })?;
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for c in re.captures_iter(&row.text) {
            let mut fields = BTreeMap::new();
            for (g, name) in re.capture_names().enumerate() {
                let Some(name) = name.filter(|n| *n != MATCH_COLUMN) else {
                    continue;
                };
                fields.insert(name.to_string(), c.get(g).map(|m| m.as_str().to_string()));
            }
            let text = c.get(0).map(|m| m.as_str().to_string());
            out.push(Hit {
                line_no: i + 1,
                text,
                fields,
            });
        }
    }
    out.sort();
    Ok(out)
}

/// The verdict for one preset: refused (the export's reason), or the comparison of rxw's
/// hits with the engine's.
pub fn record(
    export: &PresetExport,
    target: Target,
    rows: &[Row],
    rxw: &[Hit],
    engine: &[Hit],
) -> VerifyRecord {
    let base = VerifyRecord {
        preset: export.key.clone(),
        target: target.name().to_string(),
        verdict: Verdict::Refused,
        form: export.form_name().to_string(),
        hits_rxw: rxw.len(),
        hits_engine: engine.len(),
        first_difference: None,
        reason: None,
        engine: String::new(),
    };
    match &export.outcome {
        Err(e) => VerifyRecord {
            reason: Some(e.message.clone()),
            ..base
        },
        Ok(_) => match compare(rows, rxw, engine) {
            None => VerifyRecord {
                verdict: Verdict::Agree,
                ..base
            },
            Some(d) => VerifyRecord {
                verdict: Verdict::Differ,
                first_difference: Some(d),
                ..base
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_is_the_same_on_every_run_and_holds_the_examples() {
        let all = crate::presets::builtin();
        let refs: Vec<&Entry> = all.iter().collect();
        let a = corpus(&refs);
        assert_eq!(a, corpus(&refs));
        assert!(a.iter().any(|r| r.text == "[CLAIM 7fce46e0]"));
        assert!(a.len() > 400);
    }

    #[test]
    fn vector_definitions_agree_with_rxw_on_the_regex_crate() {
        let all = crate::presets::builtin();
        let refs: Vec<&Entry> = all.iter().collect();
        let rows = corpus(&refs);
        let mut agreed = 0;
        for (entry, export) in all.iter().zip(super::super::export(&refs, Target::Vector)) {
            let Ok(def) = &export.outcome else { continue };
            let want = expected(entry, def, Target::Vector, &rows).unwrap();
            let got = run_regex_crate(def, &rows).unwrap();
            assert_eq!(compare(&rows, &want, &got), None, "{}", def.key);
            agreed += 1;
        }
        // Every preset but `result` (its look-ahead) runs on the regex crate.
        assert_eq!(agreed, all.len() - 1);
    }

    #[test]
    fn over_log_lines_a_hit_across_lines_is_expected_on_its_first_line() {
        let all = crate::presets::builtin();
        let refs: Vec<&Entry> = all.iter().collect();
        let lines = log_lines(&corpus(&refs));
        assert!(lines.iter().all(|l| !l.text.contains('\n')));
        let ack = all.iter().find(|e| e.preset.key == "ack").unwrap();
        let def = super::super::export_entry(ack, Target::ClickHouse, &[]).unwrap();
        assert_eq!(def.rows, super::super::Rows::Messages);
        let hits = expected(ack, &def, Target::ClickHouse, &lines).unwrap();
        let across = hits
            .iter()
            .find(|h| h.text.as_deref() == Some("[ACK:8a12bc44]\n[from pip]"))
            .expect("the hit across two lines");
        let first = &lines[across.line_no - 1].text;
        assert!(first.ends_with("[ACK:8a12bc44]"), "{first:?}");
    }

    #[test]
    fn a_difference_names_the_line_and_both_answers() {
        let rows = vec![Row { text: "a".into() }];
        let hit = |t: &str| Hit {
            line_no: 1,
            text: Some(t.into()),
            fields: BTreeMap::new(),
        };
        let d = compare(&rows, &[hit("a")], &[hit("b")]).unwrap();
        assert_eq!(d, r#"line 1 "a": rxw ["a"], engine ["b"]"#);
    }
}
