//! The `regex_parse` tool: a text through every registered pattern, hits in text order.

use super::{Tool, ToolError};
use crate::Limits;
use crate::presets::{self, LoadOptions, Scanner};
use crate::wire::HitRecord;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The tool's result: `{"hits": [...], "warnings": [...]}` (`warnings` only when a user
/// registry was skipped).
#[derive(Serialize)]
struct Output<'a> {
    hits: Vec<HitRecord<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// Parameters of the `regex_parse` tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParseParams {
    /// The text to parse (at most 64,000 bytes).
    pub text: String,
    /// Restrict to these preset keys.
    #[serde(default)]
    pub only: Vec<String>,
}

/// Runs the `regex_parse` tool: every registered pattern (built-in plus user registries) over
/// the text, `{"hits": [{key, index, end, match, groups}]}` in text order.
///
/// # Errors
/// Malformed arguments, an input over the limit, an unknown key, or a matching error.
pub fn parse_tool(args: Value) -> Result<Value, ToolError> {
    let tool = Tool::Parse;
    let p: ParseParams =
        serde_json::from_value(args).map_err(|e| ToolError::invalid_arguments(tool, &e))?;
    let limits = Limits::tool();
    limits
        .check_input(&p.text)
        .map_err(|e| ToolError::of(tool, &e))?;
    let loaded = presets::load(&LoadOptions::with_user_config(Vec::new()));
    let catalog = &loaded.catalog;
    // Only the config directory is read here: a registry there that fails is skipped and
    // said in `warnings`, the other presets keep working (the CLI's rule).
    let warnings: Vec<String> = loaded
        .failures
        .iter()
        .map(|f| format!("skipped registry: {}", f.error.message))
        .collect();
    let entries = if p.only.is_empty() {
        catalog.entries().iter().collect()
    } else {
        p.only
            .iter()
            .map(|k| catalog.require(k))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ToolError::of(tool, &e))?
    };
    let scanner = Scanner::new(entries);
    let mut hits = Vec::new();
    let mut size = 0usize;
    for hit in scanner.hits(&p.text, true) {
        let hit = hit.map_err(|e| ToolError::of(tool, &e))?;
        let record = HitRecord::new(hit.entry, &p.text, &hit.m);
        size += serde_json::to_string(&record).map_or(0, |s| s.len()) + 1;
        limits
            .check_output(size)
            .map_err(|e| ToolError::of(tool, &e))?;
        hits.push(record);
    }
    let output = Output { hits, warnings };
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
}
