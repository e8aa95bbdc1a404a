//! Writing the exported definitions as each engine's own file: SQL scripts, a Vector TOML
//! fragment, LogQL queries, an Elasticsearch pipelines document.
//!
//! Everything from the registry that lands in a string, an identifier or a comment is
//! escaped by the target's own rules ([`sql_string`], [`sql_ident`], [`comment`]); the TOML
//! and JSON documents are written by their serializers, so no preset can break the file.

use super::{Definition, Form, MATCH_COLUMN, PresetExport, Rows, Target};
use serde::Serialize;
use std::collections::BTreeMap;

/// Options of the rendered file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// ClickHouse: the cluster name; the script then creates `logs_local` on every shard and
    /// `logs` as a `Distributed` table over them.
    pub cluster: Option<String>,
}

/// One piece of an SQL script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chunk {
    /// Comment lines (already escaped, without the comment marker).
    Comment(Vec<String>),
    /// One statement, without its `;`, and the preset it defines (none for the tables).
    Statement(Option<String>, String),
}

/// The file for `target`: the definitions in order, each refusal as a comment with its caret
/// (or, in the JSON document, under `refused`).
pub fn render(target: Target, exports: &[PresetExport], opts: &RenderOptions) -> String {
    match target {
        Target::ClickHouse | Target::DuckDb | Target::Spark => {
            let mut out = String::new();
            for chunk in sql_chunks(target, exports, opts) {
                match chunk {
                    Chunk::Comment(lines) => {
                        for l in lines {
                            out.push_str("-- ");
                            out.push_str(&l);
                            out.push('\n');
                        }
                    }
                    Chunk::Statement(_, s) => {
                        out.push_str(&s);
                        out.push_str(";\n\n");
                    }
                }
            }
            out
        }
        Target::Vector => vector(exports),
        Target::Loki => loki(exports),
        Target::Elasticsearch => elasticsearch(exports),
    }
}

/// The SQL statements alone, in order (what a driver executes one by one), each with the
/// preset key whose view it creates.
pub fn sql_statements(
    target: Target,
    exports: &[PresetExport],
    opts: &RenderOptions,
) -> Vec<(Option<String>, String)> {
    sql_chunks(target, exports, opts)
        .into_iter()
        .filter_map(|c| match c {
            Chunk::Statement(key, s) => Some((key, s)),
            Chunk::Comment(_) => None,
        })
        .collect()
}

/// A comment's text made safe for one line: control characters as backslash escapes.
pub fn comment(s: &str) -> String {
    crate::codegen::escape_line(s, &[], |c| {
        c.is_control() || c == '\u{2028}' || c == '\u{2029}'
    })
}

/// A string literal in the target's SQL: ClickHouse and Spark read backslash escapes, DuckDB
/// only doubles the quote.
pub fn sql_string(target: Target, s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match (target, c) {
            (Target::DuckDb, '\'') => out.push_str("''"),
            (Target::DuckDb, c) => out.push(c),
            (_, '\\') => out.push_str("\\\\"),
            (_, '\'') => out.push_str("\\'"),
            (_, '\n') => out.push_str("\\n"),
            (_, '\r') => out.push_str("\\r"),
            (_, '\t') => out.push_str("\\t"),
            // Spark's literals read `\uXXXX` but not `\x` (`\x01` would be "x01").
            (Target::Spark, c) if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            (_, c) if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02X}", c as u32)),
            (_, c) => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A quoted identifier: backquotes in ClickHouse (backslash escapes) and Spark (doubled),
/// double quotes in DuckDB (doubled).
pub fn sql_ident(target: Target, s: &str) -> String {
    match target {
        Target::DuckDb => format!("\"{}\"", s.replace('"', "\"\"")),
        Target::Spark => format!("`{}`", s.replace('`', "``")),
        _ => {
            let mut out = String::from("`");
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '`' => out.push_str("\\`"),
                    '\n' => out.push_str("\\n"),
                    c => out.push(c),
                }
            }
            out.push('`');
            out
        }
    }
}

fn header(target: Target, exports: &[PresetExport]) -> Vec<String> {
    let count = |form: &str| exports.iter().filter(|e| e.form_name() == form).count();
    vec![
        format!(
            "rxw registry export --to {}: {}",
            target.name(),
            target.title()
        ),
        format!(
            "{} presets: {} exact, {} rewritten, {} refused.",
            exports.len(),
            count("exact"),
            count("rewrite"),
            count("refused")
        ),
        match target.scope() {
            super::HitScope::All => {
                "Each definition gives, on each row's text, every hit rxw finds in that text."
                    .to_string()
            }
            super::HitScope::First => {
                "Each definition gives, on each row's text, the first hit rxw finds in that text."
                    .to_string()
            }
        },
    ]
}

fn preset_comment(e: &PresetExport, target: Target) -> Vec<String> {
    let mut lines = vec![format!("preset {}: {}", e.key, comment(&e.purpose))];
    match &e.outcome {
        Ok(def) => {
            if let Form::Split { note, .. } = &def.form {
                lines.push(comment(note));
            }
            match (def.rows, def.spans_lines) {
                (Rows::Messages, _) => lines.push(
                    "A hit can span lines: searched in each source's whole text (messages), line_no is the line it starts on.".to_string(),
                ),
                (Rows::Lines, true) if target == Target::Spark => lines.push(
                    "A hit can span lines, and this view searches each row of logs alone: a hit across lines is not found.".to_string(),
                ),
                (Rows::Lines, true) => lines.push(
                    "A hit can span lines: each event is searched alone, so ship a multi-line message as one event.".to_string(),
                ),
                (Rows::Lines, false) => {}
            }
        }
        Err(err) => {
            lines.push(format!("refused: {}", comment(&err.message)));
            if let Some(c) = err.caret() {
                lines.extend(c.lines().map(|l| format!("  {}", comment(l))));
            }
        }
    }
    lines
}

fn sql_chunks(target: Target, exports: &[PresetExport], opts: &RenderOptions) -> Vec<Chunk> {
    let mut chunks = vec![Chunk::Comment(header(target, exports))];
    chunks.extend(logs_table(target, opts));
    let on_cluster = match (&opts.cluster, target) {
        (Some(c), Target::ClickHouse) => format!(" ON CLUSTER {}", sql_ident(target, c)),
        _ => String::new(),
    };
    let needs_messages = exports
        .iter()
        .any(|e| matches!(&e.outcome, Ok(d) if d.rows == Rows::Messages));
    if needs_messages {
        chunks.push(Chunk::Comment(vec![
            "Each source's lines joined with a line break, for the presets whose hits can span lines (rxw parse on the whole log); line_nos maps a line of the text to its line_no.".to_string(),
        ]));
        chunks.push(Chunk::Statement(None, match target {
            Target::ClickHouse => format!(
                "CREATE OR REPLACE VIEW messages{on_cluster} AS\nSELECT source,\n       arrayMap(t -> t.1, lines) AS line_nos,\n       arrayStringConcat(arrayMap(t -> t.2, lines), '\\n') AS text\nFROM (SELECT source, arraySort(groupArray((line_no, line))) AS lines FROM logs GROUP BY source)"
            ),
            _ => "CREATE OR REPLACE VIEW messages AS\nSELECT source,\n       list(line_no ORDER BY line_no) AS line_nos,\n       string_agg(line, chr(10) ORDER BY line_no) AS text\nFROM logs\nGROUP BY source".to_string(),
        }));
    }
    for e in exports {
        chunks.push(Chunk::Comment(preset_comment(e, target)));
        if let Ok(def) = &e.outcome {
            let create = match target {
                Target::ClickHouse => format!(
                    "CREATE OR REPLACE VIEW {}{on_cluster} AS\n",
                    sql_ident(target, &def.view_name())
                ),
                Target::DuckDb => format!(
                    "CREATE OR REPLACE VIEW {} AS\n",
                    sql_ident(target, &def.view_name())
                ),
                _ => format!(
                    "CREATE OR REPLACE TEMPORARY VIEW {} AS\n",
                    sql_ident(target, &def.view_name())
                ),
            };
            let body = match target {
                Target::ClickHouse => clickhouse_select(def),
                Target::DuckDb => duckdb_select(def),
                _ => spark_select(def),
            };
            chunks.push(Chunk::Statement(Some(def.key.clone()), create + &body));
        }
    }
    chunks
}

fn logs_table(target: Target, opts: &RenderOptions) -> Vec<Chunk> {
    let note = Chunk::Comment(vec![
        "The table the views read: one row per log line (line_no from 1).".to_string(),
    ]);
    match target {
        Target::ClickHouse => match &opts.cluster {
            None => vec![
                Chunk::Comment(vec![
                    "The table the views read: one row per log line (line_no from 1). To load a log:".to_string(),
                    "INSERT INTO logs SELECT 'app.log', rowNumberInAllBlocks() + 1, line FROM file('app.log', 'LineAsString') SETTINGS max_threads = 1;".to_string(),
                ]),
                Chunk::Statement(None,
                    "CREATE TABLE IF NOT EXISTS logs\n(\n    source String,\n    line_no UInt64,\n    line String\n)\nENGINE = MergeTree\nORDER BY (source, line_no)"
                        .to_string(),
                ),
            ],
            Some(cluster) => {
                let id = sql_ident(target, cluster);
                let name = sql_string(target, cluster);
                vec![
                    Chunk::Comment(vec![
                        "On a cluster: logs_local on every shard, logs a Distributed table over them."
                            .to_string(),
                    ]),
                    Chunk::Statement(None, format!(
                        "CREATE TABLE IF NOT EXISTS logs_local ON CLUSTER {id}\n(\n    source String,\n    line_no UInt64,\n    line String\n)\nENGINE = MergeTree\nORDER BY (source, line_no)"
                    )),
                    Chunk::Statement(None, format!(
                        "CREATE TABLE IF NOT EXISTS logs ON CLUSTER {id} AS logs_local\nENGINE = Distributed({name}, currentDatabase(), 'logs_local', cityHash64(source))"
                    )),
                ]
            }
        },
        Target::DuckDb => vec![
            Chunk::Comment(vec![
                "The table the views read: one row per log line (line_no from 1). To load a log:".to_string(),
                "INSERT INTO logs SELECT filename, generate_subscripts(l, 1), unnest(l) FROM (SELECT filename, string_split(content, chr(10)) AS l FROM read_text('app.log'));".to_string(),
            ]),
            Chunk::Statement(None,
                "CREATE TABLE IF NOT EXISTS logs (source VARCHAR, line_no BIGINT, line VARCHAR)"
                    .to_string(),
            ),
        ],
        _ => vec![
            note,
            Chunk::Statement(None,
                "CREATE TABLE IF NOT EXISTS logs (source STRING, line_no BIGINT, line STRING) USING parquet"
                    .to_string(),
            ),
        ],
    }
}

/// The view's columns after `source, line_no`: the whole hit, then each named group, from
/// an expression that reads group `k` (1-based in the exported pattern).
fn columns(target: Target, def: &Definition, group: impl Fn(usize) -> String) -> String {
    let mut cols = vec![format!("{} AS {MATCH_COLUMN}", group(1))];
    for f in &def.fields {
        let value = group(f.index);
        let value = if f.optional {
            // The engine gives '' for a group that did not take part; this group never
            // matches the empty string (checked at export), so '' means unset.
            match target {
                Target::ClickHouse => format!("nullIf({value}, '')"),
                _ => format!("nullif({value}, '')"),
            }
        } else {
            value
        };
        cols.push(format!("{value} AS {}", sql_ident(target, &f.name)));
    }
    cols.join(",\n       ")
}

/// The lazy run put before a pattern searched in a whole message: its group is the text
/// between the previous hit and this one (leftmost-first, the shortest run before the
/// pattern can match is the pattern's own next hit), whose line breaks give the hit's line.
const GAP: &str = "((?s:.)*?)";

fn clickhouse_select(def: &Definition) -> String {
    let t = Target::ClickHouse;
    let nl = |x: &str| format!("countSubstrings({x}, '\\n')");
    match (&def.form, def.rows) {
        (Form::Exact { pattern }, Rows::Lines) => format!(
            "SELECT source,\n       line_no,\n       {}\nFROM logs\nARRAY JOIN extractAllGroups(line, {}) AS hit",
            columns(t, def, |k| format!("hit[{k}]")),
            sql_string(t, pattern)
        ),
        (
            Form::Split {
                separator, segment, ..
            },
            Rows::Lines,
        ) => {
            let sep = sql_string(t, separator);
            format!(
                "SELECT source,\n       line_no,\n       {}\nFROM logs\nARRAY JOIN arrayFilter(h -> notEmpty(h), arrayMap((sep, piece) -> arrayElement(extractAllGroups(concat(sep, piece), {}), 1), extractAll(line, {sep}), arrayPopFront(splitByRegexp({sep}, line)))) AS hit",
                columns(t, def, |k| format!("hit[{k}]")),
                sql_string(t, segment)
            )
        }
        (Form::Exact { pattern }, Rows::Messages) => format!(
            "SELECT source,\n       line_nos[1 + nl_before] AS line_no,\n       {}\nFROM (\n  SELECT source, line_nos, hits,\n         arrayMap((c, h) -> c - {}, arrayCumSum(arrayMap(h -> {} + {}, hits)), hits) AS nl_befores\n  FROM (SELECT source, line_nos, extractAllGroups(text, {}) AS hits FROM messages)\n)\nARRAY JOIN hits AS hit, nl_befores AS nl_before",
            columns(t, def, |k| format!("hit[{}]", k + 1)),
            nl("h[2]"),
            nl("h[1]"),
            nl("h[2]"),
            sql_string(t, &format!("{GAP}{pattern}"))
        ),
        (
            Form::Split {
                separator, segment, ..
            },
            Rows::Messages,
        ) => {
            let sep = sql_string(t, separator);
            format!(
                "SELECT source,\n       line_nos[1 + nl_before] AS line_no,\n       {}\nFROM (\n  SELECT source, line_nos,\n         arrayMap(s -> arrayElement(extractAllGroups(s, {}), 1), segs) AS hits,\n         arrayMap((c, s) -> c - {} + {}, arrayCumSum(arrayMap(s -> {}, segs)), segs) AS nl_befores\n  FROM (SELECT source, line_nos, splitByRegexp({sep}, text) AS pieces, pieces[1] AS first,\n               arrayMap((s, p) -> concat(s, p), extractAll(text, {sep}), arrayPopFront(pieces)) AS segs\n        FROM messages)\n)\nARRAY JOIN hits AS hit, nl_befores AS nl_before\nWHERE notEmpty(hit)",
                columns(t, def, |k| format!("hit[{k}]")),
                sql_string(t, segment),
                nl("s"),
                nl("first"),
                nl("s"),
            )
        }
    }
}

fn duckdb_select(def: &Definition) -> String {
    let t = Target::DuckDb;
    let names = |n: usize| {
        (1..=n)
            .map(|k| format!("'g{k}'"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let nl = |x: &str| format!("(length({x}) - length(replace({x}, chr(10), '')))");
    match (&def.form, def.rows) {
        (Form::Exact { pattern }, Rows::Lines) => format!(
            "SELECT source,\n       line_no,\n       {}\nFROM (SELECT source, line_no, unnest(regexp_extract_all(line, {}, [{}])) AS hit FROM logs)",
            columns(t, def, |k| format!("hit.g{k}")),
            sql_string(t, pattern),
            names(def.group_count)
        ),
        (
            Form::Split {
                separator, segment, ..
            },
            Rows::Lines,
        ) => {
            let sep = sql_string(t, separator);
            format!(
                "SELECT source,\n       line_no,\n       {}\nFROM (\n  SELECT source, line_no, regexp_extract(seps[k] || pieces[k + 1], {}, [{}]) AS hit\n  FROM (\n    SELECT source, line_no, seps, pieces, unnest(range(1, len(seps) + 1)) AS k\n    FROM (SELECT source, line_no, regexp_extract_all(line, {sep}) AS seps, regexp_split_to_array(line, {sep}) AS pieces FROM logs)\n  )\n)\nWHERE hit.g1 <> ''",
                columns(t, def, |k| format!("hit.g{k}")),
                sql_string(t, segment),
                names(def.group_count)
            )
        }
        (Form::Exact { pattern }, Rows::Messages) => format!(
            "SELECT source,\n       line_nos[CAST(1 + nl_before AS BIGINT)] AS line_no,\n       {}\nFROM (\n  SELECT source, line_nos, hit,\n         sum({} + {}) OVER (PARTITION BY source ORDER BY k) - {} AS nl_before\n  FROM (SELECT source, line_nos, unnest(hits) AS hit, generate_subscripts(hits, 1) AS k\n        FROM (SELECT source, line_nos, regexp_extract_all(text, {}, [{}]) AS hits FROM messages))\n)",
            columns(t, def, |k| format!("hit.g{}", k + 1)),
            nl("hit.g1"),
            nl("hit.g2"),
            nl("hit.g2"),
            sql_string(t, &format!("{GAP}{pattern}")),
            names(def.group_count + 1)
        ),
        (
            Form::Split {
                separator, segment, ..
            },
            Rows::Messages,
        ) => {
            let sep = sql_string(t, separator);
            format!(
                "SELECT source,\n       line_nos[CAST(1 + nl_before AS BIGINT)] AS line_no,\n       {}\nFROM (\n  SELECT source, line_nos, regexp_extract(seg, {}, [{}]) AS hit,\n         {} + sum({}) OVER (PARTITION BY source ORDER BY k) - {} AS nl_before\n  FROM (\n    SELECT source, line_nos, pieces, seps[k] || pieces[k + 1] AS seg, k\n    FROM (SELECT source, line_nos, seps, pieces, unnest(range(1, len(seps) + 1)) AS k\n          FROM (SELECT source, line_nos, regexp_extract_all(text, {sep}) AS seps, regexp_split_to_array(text, {sep}) AS pieces FROM messages))\n  )\n)\nWHERE hit.g1 <> ''",
                columns(t, def, |k| format!("hit.g{k}")),
                sql_string(t, segment),
                names(def.group_count),
                nl("pieces[1]"),
                nl("seg"),
                nl("seg"),
            )
        }
    }
}

fn spark_select(def: &Definition) -> String {
    let t = Target::Spark;
    let Form::Exact { pattern } = &def.form else {
        // Java has look-ahead: Spark never needs the split rewrite.
        return String::new();
    };
    let p = sql_string(t, pattern);
    let mut cols = vec![MATCH_COLUMN.to_string()];
    for f in &def.fields {
        let value = format!(
            "element_at(regexp_extract_all(line, {p}, {}), i + 1)",
            f.index
        );
        let value = if f.optional {
            format!("nullif({value}, '')")
        } else {
            value
        };
        cols.push(format!("{value} AS {}", sql_ident(t, &f.name)));
    }
    format!(
        "SELECT source,\n       line_no,\n       {}\nFROM logs\nLATERAL VIEW posexplode(regexp_extract_all(line, {p}, 0)) hits AS i, {MATCH_COLUMN}",
        cols.join(",\n       ")
    )
}

/// A VRL path segment for a field name (quoted: keys may hold `-`).
fn vrl_field(name: &str) -> String {
    format!(".\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}

fn vector(exports: &[PresetExport]) -> String {
    #[derive(Serialize)]
    struct Transform<'a> {
        #[serde(rename = "type")]
        kind: &'a str,
        inputs: Vec<&'a str>,
        source: String,
    }
    #[derive(Serialize)]
    struct Doc<'a> {
        transforms: BTreeMap<&'a str, Transform<'a>>,
    }
    let mut program = String::new();
    for e in exports {
        for l in preset_comment(e, Target::Vector) {
            program.push_str("# ");
            // Vector reads `$NAME` anywhere in its config as a variable; `$$` is a `$`.
            program.push_str(&l.replace('$', "$$"));
            program.push('\n');
        }
        if let Ok(Definition {
            form: Form::Exact { pattern },
            ..
        }) = &e.outcome
        {
            let name = format!("rxw_{}", e.key);
            program.push_str(&format!(
                "{} = parse_regex_all!(string!(.message), r'{pattern}')\n",
                vrl_field(&name)
            ));
        }
    }
    let doc = Doc {
        transforms: BTreeMap::from([(
            "rxw_presets",
            Transform {
                kind: "remap",
                inputs: vec!["logs"],
                source: program,
            },
        )]),
    };
    let mut out = String::new();
    for l in header(Target::Vector, exports) {
        out.push_str("# ");
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str("# Each event's .message gets one field per preset, rxw_<key>: an array of hits, each an object of the named groups and match_text. Set `inputs` to your source.\n");
    out.push_str(&toml::to_string(&doc).expect("a Vector config serializes"));
    out
}

fn loki(exports: &[PresetExport]) -> String {
    let mut out = String::new();
    for l in header(Target::Loki, exports) {
        out.push_str("# ");
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str("# One query per preset; replace the stream selector with yours. Labels are the named groups (an empty or unset group sets none).\n");
    for e in exports {
        out.push('\n');
        for l in preset_comment(e, Target::Loki) {
            out.push_str("# ");
            out.push_str(&l);
            out.push('\n');
        }
        if let Ok(Definition {
            form: Form::Exact { pattern },
            ..
        }) = &e.outcome
        {
            out.push_str(&format!("{{job=~\".+\"}} | regexp `{pattern}`\n"));
        }
    }
    out
}

/// The name of a preset's grok pattern definition: `RXW_` and the key in capitals, `-` as
/// `_`, numbered when two keys would give one name.
fn grok_name(key: &str, taken: &mut Vec<String>) -> String {
    let base: String = format!("RXW_{key}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{base}_{n}");
        n += 1;
    }
    taken.push(name.clone());
    name
}

fn elasticsearch(exports: &[PresetExport]) -> String {
    #[derive(Serialize)]
    struct Grok {
        field: &'static str,
        patterns: Vec<String>,
        pattern_definitions: BTreeMap<String, String>,
        ignore_missing: bool,
        ignore_failure: bool,
        tag: String,
    }
    #[derive(Serialize)]
    struct Processor {
        grok: Grok,
    }
    #[derive(Serialize)]
    struct Pipeline {
        description: String,
        processors: Vec<Processor>,
    }
    #[derive(Serialize)]
    struct Doc {
        description: String,
        pipelines: BTreeMap<String, Pipeline>,
        refused: BTreeMap<String, String>,
    }
    let mut taken = Vec::new();
    let mut doc = Doc {
        description: header(Target::Elasticsearch, exports).join(" ")
            + " Each pipeline: PUT _ingest/pipeline/<name> with its body; the fields are the named groups of the first hit in `message`.",
        pipelines: BTreeMap::new(),
        refused: BTreeMap::new(),
    };
    for e in exports {
        match &e.outcome {
            Ok(Definition {
                form: Form::Exact { pattern },
                ..
            }) => {
                let name = grok_name(&e.key, &mut taken);
                doc.pipelines.insert(
                    format!("rxw_{}", e.key),
                    Pipeline {
                        description: format!("rxw preset {}: {}", e.key, e.purpose),
                        processors: vec![Processor {
                            grok: Grok {
                                field: "message",
                                patterns: vec![format!("%{{{name}}}")],
                                pattern_definitions: BTreeMap::from([(name, pattern.clone())]),
                                ignore_missing: true,
                                ignore_failure: true,
                                tag: format!("rxw_{}", e.key),
                            },
                        }],
                    },
                );
            }
            Ok(_) => {}
            Err(err) => {
                doc.refused.insert(e.key.clone(), err.message.clone());
            }
        }
    }
    serde_json::to_string_pretty(&doc).expect("a pipelines document serializes") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_identifiers_escape_by_each_targets_rules() {
        assert_eq!(sql_string(Target::ClickHouse, r"a'b\c"), r"'a\'b\\c'");
        assert_eq!(sql_string(Target::DuckDb, r"a'b\c"), r"'a''b\c'");
        assert_eq!(sql_string(Target::Spark, "a\nb"), r"'a\nb'");
        // Regression: a control character was written `\x01` for Spark, which reads "x01".
        assert_eq!(sql_string(Target::Spark, "a\u{0}\u{1}"), r"'a\u0000\u0001'");
        assert_eq!(sql_string(Target::ClickHouse, "a\u{1}"), r"'a\x01'");
        assert_eq!(sql_ident(Target::DuckDb, "a\"b"), "\"a\"\"b\"");
        assert_eq!(sql_ident(Target::ClickHouse, "a`b"), "`a\\`b`");
        assert_eq!(sql_ident(Target::Spark, "a`b"), "`a``b`");
        assert_eq!(comment("a\nb\u{2028}"), "a\\nb\\u{2028}");
    }

    #[test]
    fn grok_names_are_unique_and_plain() {
        let mut taken = Vec::new();
        assert_eq!(grok_name("job-tag", &mut taken), "RXW_JOB_TAG");
        assert_eq!(grok_name("job_tag", &mut taken), "RXW_JOB_TAG_2");
    }
}
