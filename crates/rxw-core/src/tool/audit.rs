//! The `grep_audit` tool: the audit matrix of N paths × M patterns, as a table or JSON.

use super::{Tool, ToolError};
use crate::audit::Usage;
use crate::flavor::{Flags, Flavor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The tool's result: `{"text": table or JSON matrix, "usage": {…}}`.
#[derive(Serialize)]
struct Output<'a> {
    text: &'a str,
    usage: &'a Usage,
}

/// Parameters of the `grep_audit` tool (the audit tool's signature).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditParams {
    /// File paths (directories are walked).
    pub paths: Vec<String>,
    /// A string is a substring; an object is `{pattern, name?, regex?}`.
    pub patterns: Vec<AuditPatternParam>,
    /// `table` (default) or `json`.
    #[serde(default)]
    pub output: Option<String>,
    /// Case-sensitive matching (default true).
    #[serde(default)]
    pub case_sensitive: Option<bool>,
}

/// One pattern of the `grep_audit` tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum AuditPatternParam {
    /// A substring, named after itself.
    Substring(String),
    /// A named substring or regex (Python `re` syntax, as the reference implementation).
    Spec {
        /// The substring or regex.
        pattern: String,
        /// The column name (default: the pattern).
        #[serde(default)]
        name: Option<String>,
        /// Whether `pattern` is a regex.
        #[serde(default)]
        regex: Option<bool>,
    },
}

/// Runs the `grep_audit` tool: `{"text": table or JSON, "usage": {…}}`. Unreadable paths are
/// warning cells (`null`), never a failed call.
///
/// # Errors
/// Malformed arguments, an empty substring, or duplicate column names.
pub fn audit_tool(args: Value) -> Result<Value, ToolError> {
    use crate::audit::{
        self, AuditPattern, paths::PathSource, paths::WalkOptions, read::ScanOptions,
    };
    let tool = Tool::Audit;
    let p: AuditParams =
        serde_json::from_value(args).map_err(|e| ToolError::invalid_arguments(tool, &e))?;
    if p.patterns.is_empty() {
        return Err(ToolError::new(
            "grep_audit: no patterns: give at least one substring or {pattern, name, regex}",
        ));
    }
    let ignore_case = !p.case_sensitive.unwrap_or(true);
    let json_output = match p.output.as_deref() {
        None | Some("table") => false,
        Some("json") => true,
        Some(other) => {
            return Err(ToolError::new(format!(
                "grep_audit: unknown output {other:?} (expected table or json)"
            )));
        }
    };
    let mut patterns = Vec::new();
    for spec in &p.patterns {
        let column = match spec {
            AuditPatternParam::Substring(s) => AuditPattern::substring(s),
            AuditPatternParam::Spec {
                pattern,
                name,
                regex,
            } => {
                let name = name.as_deref().unwrap_or(pattern);
                if regex.unwrap_or(false) {
                    Ok(AuditPattern::regex_ci(
                        name,
                        pattern,
                        Flavor::Python,
                        Flags::default(),
                        ignore_case,
                    )
                    .unwrap_or_else(|e| AuditPattern::invalid(name, e)))
                } else {
                    AuditPattern::named_substring(name, pattern)
                }
            }
        };
        patterns.push(column.map_err(|e| ToolError::of(tool, &e))?);
    }
    audit::check_names(&patterns).map_err(|e| ToolError::of(tool, &e))?;
    let sources: Vec<PathSource> = p.paths.iter().map(PathSource::listed).collect();
    let scan = ScanOptions {
        ignore_case,
        ..Default::default()
    };
    let report = audit::audit(&sources, &patterns, &WalkOptions::default(), &scan)
        .map_err(|e| ToolError::of(tool, &e))?;
    let mut text = Vec::new();
    let written = if json_output {
        audit::render::json(&report, &mut text)
    } else {
        audit::render::table(&report, &mut text)
    };
    written.map_err(|e| ToolError::new(format!("grep_audit: {e}")))?;
    let text = String::from_utf8_lossy(&text);
    let output = Output {
        text: text.trim_end(),
        usage: &report.usage,
    };
    Ok(serde_json::to_value(output).expect("the usage counters serialize"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unreadable_paths_are_null_cells_not_failures() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.md");
        std::fs::write(&a, "ACK: [WO:7fce46e0]").unwrap();
        let missing = dir.path().join("missing.md");
        let v = audit_tool(json!({
            "paths": [a, missing],
            "patterns": ["ACK:", {"pattern": "\\[WO:[0-9a-f]+\\]", "name": "wo", "regex": true}, "nope"],
            "output": "json",
        }))
        .unwrap();
        let matrix: Value = serde_json::from_str(v["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            matrix["rows"][0]["matches"],
            json!({"ACK:": true, "wo": true, "nope": false})
        );
        assert_eq!(
            matrix["rows"][1]["matches"],
            json!({"ACK:": null, "wo": null, "nope": null})
        );
        assert_eq!(v["usage"]["matches_total"], 2);
        assert_eq!(v["usage"]["files_scanned"], 2);
        let v = audit_tool(json!({"paths": [a], "patterns": ["ack:"], "case_sensitive": false}))
            .unwrap();
        assert!(v["text"].as_str().unwrap().starts_with("| Path | ack: |"));
        assert!(v["text"].as_str().unwrap().contains("✅"));
    }

    #[test]
    fn no_patterns_is_a_clear_error_not_a_broken_table() {
        let e = audit_tool(json!({"paths": ["x"], "patterns": []})).unwrap_err();
        assert!(e.text.starts_with("grep_audit: no patterns"), "{e}");
    }

    #[test]
    fn files_scanned_is_len_paths_with_unreadable_ones() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.md");
        std::fs::write(&a, "x").unwrap();
        let v = audit_tool(json!({
            "paths": [a, dir.path().join("missing"), dir.path().join("gone")],
            "patterns": ["x"],
        }))
        .unwrap();
        assert_eq!(v["usage"]["files_scanned"], 3);
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(
            audit_tool(json!({"paths": [], "patterns": [""]}))
                .unwrap_err()
                .text
                .contains("empty substring")
        );
        assert!(
            audit_tool(json!({"paths": []}))
                .unwrap_err()
                .text
                .starts_with("grep_audit: invalid arguments")
        );
    }
}
