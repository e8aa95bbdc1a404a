//! `rxw parse --schema`: what the hit records hold and how to load them into a store.

use super::captures;
use crate::error::Error;
use crate::presets::Entry;
use crate::wire::{GroupSchema, LoadStatements, ParseSchema, PresetSchema, SchemaField};

/// The fields of a hit record (`rxw parse --json` / `--jsonl`), in the order written.
pub const RECORD: [SchemaField; 7] = [
    SchemaField {
        name: "key",
        kind: "string",
        optional: false,
        description: "the preset key",
    },
    SchemaField {
        name: "index",
        kind: "integer",
        optional: false,
        description: "byte offset of the hit's start in the text (or in the log it starts in)",
    },
    SchemaField {
        name: "end",
        kind: "integer",
        optional: false,
        description: "byte offset of the hit's end",
    },
    SchemaField {
        name: "match",
        kind: "string",
        optional: false,
        description: "the whole hit",
    },
    SchemaField {
        name: "groups",
        kind: "object",
        optional: false,
        description: "every group of the preset, by name (by number when unnamed): its text, or null when the hit left it unset",
    },
    SchemaField {
        name: "source",
        kind: "string",
        optional: true,
        description: "the log the hit starts in, as named (absent for a text given as an argument)",
    },
    SchemaField {
        name: "line",
        kind: "integer",
        optional: true,
        description: "the line the hit starts on in that log, from 1",
    },
];

/// ClickHouse: the table, and the load of a `--jsonl` file (from clickhouse-client, chDB
/// or `clickhouse local`).
pub const CLICKHOUSE_LOAD: &str = "CREATE TABLE IF NOT EXISTS rxw_hits (`key` String, `index` UInt64, `end` UInt64, `match` String, `groups` Map(String, Nullable(String)), `source` Nullable(String), `line` Nullable(UInt64)) ENGINE = MergeTree ORDER BY (`key`, `index`);\nINSERT INTO rxw_hits SELECT * FROM file('hits.jsonl', 'JSONEachRow', '`key` String, `index` UInt64, `end` UInt64, `match` String, `groups` Map(String, Nullable(String)), `source` Nullable(String), `line` Nullable(UInt64)');";

/// DuckDB: the table made from a `--jsonl` file. A record holds its whole hit, which can be
/// as long as the log (a preset whose match runs to the end of the text): DuckDB's default
/// limit of 16 MB per record refused a 100 MB log's, so the limit is 1 GiB.
pub const DUCKDB_LOAD: &str = "CREATE TABLE rxw_hits AS SELECT * FROM read_json('hits.jsonl', format = 'newline_delimited', maximum_object_size = 1073741824, columns = {\"key\": 'VARCHAR', \"index\": 'UBIGINT', \"end\": 'UBIGINT', \"match\": 'VARCHAR', \"groups\": 'MAP(VARCHAR, VARCHAR)', \"source\": 'VARCHAR', \"line\": 'UBIGINT'});";

/// The schema document for `entries`.
///
/// # Errors
/// When a preset's pattern does not parse.
pub fn parse_schema(entries: &[&Entry]) -> Result<ParseSchema, Error> {
    let mut presets = Vec::new();
    for e in entries {
        let groups = captures(e)?
            .into_iter()
            .map(|c| GroupSchema {
                name: c.name.clone().unwrap_or_else(|| c.index.to_string()),
                index: c.index,
                named: c.name.is_some(),
                kind: "string",
                nullable: c.optional,
            })
            .collect();
        presets.push(PresetSchema {
            key: e.preset.key.clone(),
            purpose: e.preset.purpose.clone(),
            flavor: e.preset.flavor,
            groups,
        });
    }
    Ok(ParseSchema {
        record: RECORD.to_vec(),
        presets,
        load: LoadStatements {
            clickhouse: CLICKHOUSE_LOAD.to_string(),
            duckdb: DUCKDB_LOAD.to_string(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: on a generated 100 MB log, `work_order`'s one hit runs to the end of the
    /// text (a 33 MB record) and DuckDB refused the load at its 16 MB default per record.
    #[test]
    fn the_duckdb_load_takes_a_record_as_long_as_a_big_log() {
        let limit: u64 = DUCKDB_LOAD
            .split("maximum_object_size = ")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .and_then(|n| n.trim().parse().ok())
            .expect("the load sets maximum_object_size");
        assert!(limit >= 1 << 30, "{limit}");
    }

    #[test]
    fn every_preset_lists_its_groups_with_the_optional_ones_nullable() {
        let all = crate::presets::builtin();
        let refs: Vec<&Entry> = all.iter().collect();
        let doc = parse_schema(&refs).unwrap();
        assert_eq!(doc.presets.len(), all.len());
        let result = doc.presets.iter().find(|p| p.key == "result").unwrap();
        let status = result.groups.iter().find(|g| g.name == "status").unwrap();
        assert!(status.nullable && status.named);
        let names: Vec<&str> = doc.record.iter().map(|f| f.name).collect();
        assert_eq!(
            names,
            ["key", "index", "end", "match", "groups", "source", "line"]
        );
    }
}
