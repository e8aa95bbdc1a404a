//! The `regex_redos` tool: does a pattern backtrack catastrophically on its flavor's engine?
//! The verdict with its proof, the document `rxw redos --json` prints.

use super::{Tool, ToolError};
use crate::Limits;
use crate::Regex;
use crate::engine::redos::RedosOptions;
use crate::flavor::{Flags, Flavor};
use serde::Deserialize;
use serde_json::Value;
use std::time::Duration;

/// Parameters of the `regex_redos` tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedosParams {
    /// The pattern (at most 16 KiB).
    pub pattern: String,
    /// `python`, `js` (the default, as for the `regex` tool) or `rust`.
    #[serde(default)]
    pub flavor: Option<String>,
    /// Flag letters of the flavor.
    #[serde(default)]
    pub flags: Option<String>,
}

/// Runs the `regex_redos` tool: `{"verdict","degree","attack","steps","span","reason",
/// "hot_nodes","fix","no_fix"}` within the tool's time budget (the check stops at 900 ms of it and
/// reports what it measured).
///
/// # Errors
/// Malformed arguments, an unknown flavor or flag, an invalid pattern or one over the limit.
pub fn redos_tool(args: Value) -> Result<Value, ToolError> {
    let tool = Tool::Redos;
    let p: RedosParams =
        serde_json::from_value(args).map_err(|e| ToolError::invalid_arguments(tool, &e))?;
    let flavor: Flavor = match p.flavor.as_deref() {
        None => Flavor::JS,
        Some(f) => f
            .parse()
            .map_err(|m: String| ToolError::new(format!("{}: {m}", tool.name())))?,
    };
    let limits = Limits::tool();
    let flags = Flags::parse(p.flags.as_deref().unwrap_or(""), flavor)
        .map_err(|e| ToolError::of(tool, &e.into()))?;
    let re = Regex::with_limits(&p.pattern, flavor, flags, &limits)
        .map_err(|e| ToolError::of(tool, &e.into()))?;
    let budget = limits
        .time_budget
        .unwrap_or(Duration::from_millis(1000))
        .mul_f64(0.9);
    let report = re
        .redos(RedosOptions {
            time: budget,
            cancel: None,
        })
        .map_err(|e| ToolError::of(tool, &e.into()))?;
    Ok(serde_json::to_value(report).expect("a report serializes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn verdict_with_attack_and_steps() {
        let v = redos_tool(json!({"pattern": "^(a+)+$", "flavor": "python"})).unwrap();
        assert_eq!(v["verdict"], "exponential");
        assert_eq!(v["attack"]["pump"], "a");
        assert!(v["steps"].as_array().unwrap().len() >= 3);
        assert_eq!(v["span"], json!({"start": 1, "end": 6}));
        let v = redos_tool(json!({"pattern": "^[a-z]+$"})).unwrap();
        assert_eq!(v["verdict"], "linear");
        assert_eq!(v["attack"], Value::Null);
    }

    #[test]
    fn errors_name_the_tool() {
        let e = redos_tool(json!({"pattern": "(a"})).unwrap_err();
        assert!(e.text.starts_with("regex_redos: "), "{}", e.text);
        let e = redos_tool(json!({"pattern": "a", "flavor": "perl"})).unwrap_err();
        assert!(e.text.starts_with("regex_redos: "), "{}", e.text);
        let e = redos_tool(json!({"pattern": "a", "input": "x"})).unwrap_err();
        assert!(e.text.contains("invalid arguments"), "{}", e.text);
    }
}
