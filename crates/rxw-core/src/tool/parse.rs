//! The `regex_parse` tool: a text through every registered pattern, hits in text order; and
//! the registry exported for a fleet engine with its verification report.

use super::{CallContext, Tool, ToolError};
use crate::Limits;
use crate::fleet::render::{self, RenderOptions};
use crate::fleet::{self, Target};
use crate::presets::{self, Entry, LoadOptions, Scanner};
use crate::wire::{ExportRecord, HitRecord, VerifyRecord};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// The tool's result: `{"hits": [...], "export": {...}, "warnings": [...]}` (`hits` when a
/// text was given, `export` when an export was asked for, `warnings` only when a user
/// registry was skipped).
#[derive(Serialize)]
struct Output<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    hits: Option<Vec<HitRecord<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    export: Option<ExportOutput>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// The `export` part of the result: `rxw registry export --json` plus `--verify --json`.
#[derive(Serialize)]
struct ExportOutput {
    target: &'static str,
    /// Each preset's form (exact, rewrite, refused with its reason and caret).
    presets: Vec<ExportRecord>,
    /// The file `rxw registry export --to TARGET` writes.
    definitions: String,
    /// `rxw registry verify --json`'s records; empty when not verified.
    verification: Vec<VerifyRecord>,
    /// Why there is no verification (the budget ran out, no engine here, not asked).
    #[serde(skip_serializing_if = "Option::is_none")]
    not_verified: Option<String>,
}

/// Parameters of the `regex_parse` tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParseParams {
    /// The text to parse (at most 64,000 bytes).
    #[serde(default)]
    pub text: Option<String>,
    /// Restrict to these preset keys.
    #[serde(default)]
    pub only: Vec<String>,
    /// Export the registry for a fleet engine and verify it there.
    #[serde(default)]
    pub export: Option<ExportRequest>,
}

/// `regex_parse`'s `export`: which engine, which presets, and the verification's budget.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    /// clickhouse, duckdb, vector, loki, elasticsearch or spark.
    pub target: String,
    /// Only these preset keys (default: all).
    #[serde(default)]
    pub presets: Vec<String>,
    /// Run the definitions on the engine (default true).
    #[serde(default = "yes")]
    pub verify: bool,
    /// The verification's time budget in milliseconds, counted from the call's arrival: the
    /// tool's budget (1,000) by default, at most `MAX_VERIFY_BUDGET`. An engine that has
    /// not answered by then is stopped and `not_verified` says so.
    #[serde(default)]
    pub budget_ms: Option<u64>,
}

fn yes() -> bool {
    true
}

/// The longest verification budget a call may ask for (an engine's start can take seconds:
/// chDB about 5, a JVM 1 to 2).
pub const MAX_VERIFY_BUDGET: Duration = Duration::from_secs(60);

/// Runs the `regex_parse` tool without engines (see [`parse_tool_in`]).
///
/// # Errors
/// As for [`parse_tool_in`].
pub fn parse_tool(args: Value) -> Result<Value, ToolError> {
    parse_tool_in(args, &CallContext::default())
}

/// Runs the `regex_parse` tool: every registered pattern (built-in plus user registries) over
/// the text, `{"hits": [{key, index, end, match, groups}]}` in text order; with `export`,
/// the registry written for the engine and, through `cx`'s verifier, each definition's
/// verdict on the engine within the budget.
///
/// # Errors
/// Malformed arguments, neither `text` nor `export`, an input over the limit, an unknown key
/// or target, or a matching error.
pub fn parse_tool_in(args: Value, cx: &CallContext) -> Result<Value, ToolError> {
    let tool = Tool::Parse;
    let p: ParseParams =
        serde_json::from_value(args).map_err(|e| ToolError::invalid_arguments(tool, &e))?;
    if p.text.is_none() && p.export.is_none() {
        return Err(ToolError::new(format!(
            "{}: give a text to parse, an export ({{\"target\", \"presets\"}}), or both",
            tool.name()
        )));
    }
    let limits = Limits::tool();
    if let Some(text) = &p.text {
        limits
            .check_input(text)
            .map_err(|e| ToolError::of(tool, &e.into()))?;
    }
    let target: Option<Target> = p
        .export
        .as_ref()
        .map(|e| e.target.parse())
        .transpose()
        .map_err(|m: String| ToolError::new(format!("{}: {m}", tool.name())))?;
    let loaded = presets::load(&LoadOptions::with_user_config(Vec::new()));
    let catalog = &loaded.catalog;
    // Only the config directory is read here: a registry there that fails is skipped and
    // said in `warnings`, the other presets keep working (the CLI's rule).
    let warnings: Vec<String> = loaded
        .failures
        .iter()
        .map(|f| format!("skipped registry: {}", f.error.message))
        .collect();
    let select = |keys: &[String]| -> Result<Vec<&Entry>, ToolError> {
        if keys.is_empty() {
            return Ok(catalog.entries().iter().collect());
        }
        keys.iter()
            .map(|k| catalog.require(k.trim()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ToolError::of(tool, &e))
    };
    let hits = match &p.text {
        None => None,
        Some(text) => {
            let scanner = Scanner::new(select(&p.only)?);
            let mut hits = Vec::new();
            let mut size = 0usize;
            for hit in scanner.hits(text, true) {
                let hit = hit.map_err(|e| ToolError::of(tool, &e.into()))?;
                let record = HitRecord::new(hit.entry, text, &hit.m);
                size += serde_json::to_string(&record).map_or(0, |s| s.len()) + 1;
                limits
                    .check_output(size)
                    .map_err(|e| ToolError::of(tool, &e.into()))?;
                hits.push(record);
            }
            Some(hits)
        }
    };
    let export = match (&p.export, target) {
        (Some(req), Some(target)) => {
            let entries = select(&req.presets)?;
            let exports = fleet::export(&entries, target);
            let budget = req
                .budget_ms
                .map(Duration::from_millis)
                .or(limits.time_budget)
                .unwrap_or(Duration::from_secs(1))
                .min(MAX_VERIFY_BUDGET);
            let (verification, not_verified) = match (&cx.verifier, req.verify) {
                (_, false) => (
                    Vec::new(),
                    Some("not asked for (verify: false)".to_string()),
                ),
                (None, true) => (
                    Vec::new(),
                    Some("this host has no engine drivers (rxw mcp has them)".to_string()),
                ),
                (Some(v), true) => {
                    match v.verify(&entries, &exports, target, cx.arrived + budget) {
                        Ok(records) => (records, None),
                        Err(why) => (Vec::new(), Some(why)),
                    }
                }
            };
            let definitions = render::render(target, &exports, &RenderOptions::default());
            let size = definitions.len() + 1024 * exports.len();
            limits
                .check_output(size)
                .map_err(|e| ToolError::of(tool, &e.into()))?;
            Some(ExportOutput {
                target: target.name(),
                presets: exports.iter().map(|e| e.record(target)).collect(),
                definitions,
                verification,
                not_verified,
            })
        }
        _ => None,
    };
    let output = Output {
        hits,
        export,
        warnings,
    };
    Ok(serde_json::to_value(output).expect("string maps serialize"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_through_the_registry() {
        let v =
            parse_tool(json!({"text": "[ACK:7fce46e0] [from 646] then [CLAIM 7fce46e0]"})).unwrap();
        let keys: Vec<&str> = v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["key"].as_str().unwrap())
            .collect();
        assert!(keys.contains(&"ack") && keys.contains(&"verb"), "{keys:?}");
        let verb = v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["key"] == "verb")
            .unwrap();
        assert_eq!(verb["groups"]["verb"], "CLAIM");
        assert!(
            parse_tool(json!({"text": "x", "only": ["nope"]}))
                .unwrap_err()
                .text
                .contains("nope")
        );
    }

    #[test]
    fn export_without_engines_gives_the_definitions_and_says_why_not_verified() {
        let v = parse_tool(json!({"export": {"target": "loki", "presets": ["ack", "result"]}}))
            .unwrap();
        assert!(v.get("hits").is_none(), "{v}");
        let e = &v["export"];
        assert_eq!(e["target"], "loki");
        assert_eq!(e["presets"][1]["form"], "refused");
        assert!(e["definitions"].as_str().unwrap().contains("| regexp `"));
        assert_eq!(e["verification"], json!([]));
        assert!(
            e["not_verified"]
                .as_str()
                .unwrap()
                .contains("no engine drivers")
        );
    }

    #[test]
    fn malformed_exports_are_refused_with_the_tool_name() {
        for (args, want) in [
            (json!({}), "give a text to parse"),
            (json!({"export": {"target": "mysql"}}), "unknown target"),
            (
                json!({"export": {"presets": ["ack"]}}),
                "missing field `target`",
            ),
            (
                json!({"export": {"target": "duckdb", "presets": "ack"}}),
                "invalid type",
            ),
            (
                json!({"export": {"target": "duckdb", "presets": ["nope"]}}),
                "nope",
            ),
            (
                json!({"export": {"target": "duckdb", "budget_ms": -1}}),
                "invalid value",
            ),
            (
                json!({"export": {"target": "duckdb", "sql": true}}),
                "unknown field `sql`",
            ),
            (json!({"export": "duckdb"}), "invalid type"),
        ] {
            let e = parse_tool(args.clone()).unwrap_err();
            assert!(e.text.starts_with("regex_parse: "), "{args}: {}", e.text);
            assert!(e.text.contains(want), "{args}: {}", e.text);
        }
    }
}
