//! The `registry_export` tool: the preset registry written for a fleet engine (ClickHouse,
//! DuckDB, Vector, Loki, Elasticsearch, Spark), each preset exact, rewritten or refused.

use super::{Tool, ToolError};
use crate::fleet::render::{self, RenderOptions};
use crate::fleet::{self, Target};
use crate::presets::{self, LoadOptions};
use crate::wire::ExportRecord;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Parameters of the `registry_export` tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportParams {
    /// clickhouse, duckdb, vector, loki, elasticsearch or spark.
    pub target: String,
    /// Only these preset keys (default: all).
    #[serde(default)]
    pub presets: Vec<String>,
}

/// The tool's result: `rxw registry export --json`'s document.
#[derive(Serialize)]
struct Output<'a> {
    target: &'a str,
    presets: Vec<ExportRecord>,
    definitions: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// Runs the `registry_export` tool: `{"target", "presets": [{preset, target, form, note,
/// reason, caret}], "definitions"}`, the file `rxw registry export --to TARGET` writes.
/// The engines are not run here (`rxw registry verify` runs them: some take a minute).
///
/// # Errors
/// Malformed arguments, an unknown target or preset key.
pub fn export_tool(args: Value) -> Result<Value, ToolError> {
    let tool = Tool::Export;
    let p: ExportParams =
        serde_json::from_value(args).map_err(|e| ToolError::invalid_arguments(tool, &e))?;
    let target: Target = p
        .target
        .parse()
        .map_err(|m: String| ToolError::new(format!("{}: {m}", tool.name())))?;
    let loaded = presets::load(&LoadOptions::with_user_config(Vec::new()));
    let warnings: Vec<String> = loaded
        .failures
        .iter()
        .map(|f| format!("skipped registry: {}", f.error.message))
        .collect();
    let catalog = &loaded.catalog;
    let entries = if p.presets.is_empty() {
        catalog.entries().iter().collect()
    } else {
        p.presets
            .iter()
            .map(|k| catalog.require(k.trim()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ToolError::of(tool, &e))?
    };
    let exports = fleet::export(&entries, target);
    let out = Output {
        target: target.name(),
        presets: exports.iter().map(|e| e.record(target)).collect(),
        definitions: render::render(target, &exports, &RenderOptions::default()),
        warnings,
    };
    Ok(serde_json::to_value(out).expect("an export serializes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_registry_exports_with_the_refusal_and_its_caret() {
        let v = export_tool(json!({"target": "loki", "presets": ["ack", "result"]})).unwrap();
        assert_eq!(v["target"], "loki");
        assert_eq!(v["presets"][0]["form"], "exact");
        assert_eq!(v["presets"][1]["form"], "refused");
        assert!(v["presets"][1]["caret"].as_str().unwrap().contains('^'));
        assert!(v["definitions"].as_str().unwrap().contains("| regexp `"));
    }

    #[test]
    fn errors_name_the_tool() {
        let e = export_tool(json!({"target": "mysql"})).unwrap_err();
        assert!(
            e.text.starts_with("registry_export: unknown target"),
            "{}",
            e.text
        );
        let e = export_tool(json!({"target": "duckdb", "presets": ["nope"]})).unwrap_err();
        assert!(e.text.starts_with("registry_export: "), "{}", e.text);
    }
}
