//! The agent contract of the agent `regex` tool, as plain functions: actions, limits, outputs
//! and error texts. The MCP server (`rxw mcp`) is a thin wrapper over this module, so the
//! contract is tested without a protocol in between.

use crate::engine::MatchOptions;
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use crate::{Limits, Regex};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Parameters of the `regex` tool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegexParams {
    /// `test`, `find`, `replace` or `explain`.
    pub action: String,
    /// The pattern, without delimiters.
    pub pattern: String,
    /// The text (test, find, replace).
    #[serde(default)]
    pub input: Option<String>,
    /// Flag letters.
    #[serde(default)]
    pub flags: Option<String>,
    /// The replacement template (replace).
    #[serde(default)]
    pub replacement: Option<String>,
    /// Most matches reported by find (default 50, at most 1000).
    #[serde(default)]
    pub limit: Option<i64>,
    /// `js` (default, as in the agent tool), `python` or `rust`.
    #[serde(default)]
    pub flavor: Option<String>,
}

/// A tool failure: the message an agent sees, always starting with `regex: `, and for a
/// stopped search a machine-readable detail (`rxw mcp` sends it as the error's structured
/// content).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// The agent tool's error text.
    pub text: String,
    /// What stopped the call, when it was stopped: [`StopDetail`] as JSON.
    pub detail: Option<Value>,
}

impl ToolError {
    /// A failure with a text only.
    pub fn new(text: impl Into<String>) -> ToolError {
        ToolError {
            text: text.into(),
            detail: None,
        }
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Why a search was stopped before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The wall-clock budget (1,000 ms) ran out.
    WallTime,
    /// One backtracking search used its whole step budget (possibly long before the wall
    /// clock budget).
    StepBudget,
}

/// The detail of a stopped search: `{"stopped_by", "elapsed_ms", "budget_ms",
/// "step_budget"}`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StopDetail {
    /// What stopped it.
    pub stopped_by: StopReason,
    /// Milliseconds from the start of the call to the stop.
    pub elapsed_ms: u128,
    /// The wall-clock budget in milliseconds.
    pub budget_ms: u128,
    /// The backtracking steps allowed per search.
    pub step_budget: usize,
}

fn tool_error(e: &Error, limits: &Limits, started: Instant) -> ToolError {
    let budget = limits.time_budget.unwrap_or(Duration::from_millis(1000));
    // One reading of the clock, so the text and the detail say the same time.
    let elapsed_ms = started.elapsed().as_millis();
    let stop = |stopped_by| {
        let detail = StopDetail {
            stopped_by,
            elapsed_ms,
            budget_ms: budget.as_millis(),
            step_budget: limits.backtrack_limit,
        };
        serde_json::to_value(detail).ok()
    };
    match e.kind {
        ErrorKind::PatternInvalid | ErrorKind::ConstructUnsupported => {
            ToolError::new(match e.span {
                Some(s) => format!(
                    "regex: invalid pattern: {} (at position {})",
                    e.message, s.start
                ),
                None => format!("regex: invalid pattern: {}", e.message),
            })
        }
        // The agent tool's text, with the time that really passed.
        ErrorKind::TimedOut => ToolError {
            text: format!("regex: execution timed out ({}ms)", budget.as_millis()),
            detail: stop(StopReason::WallTime),
        },
        // Keeps the `regex: ` prefix clients look for, but claims no time that did not pass.
        ErrorKind::BacktrackLimit => ToolError {
            text: format!(
                "regex: execution timed out (backtracking step budget of {} exhausted after {}ms)",
                limits.backtrack_limit, elapsed_ms
            ),
            detail: stop(StopReason::StepBudget),
        },
        ErrorKind::ExplainTooComplex => ToolError::new("regex: explain: pattern too complex"),
        _ => ToolError::new(format!("regex: {}", e.message)),
    }
}

/// Runs `f` on its own thread with a wall-clock budget. On time-out the cancel flag is set
/// (the matcher checks it between searches, and each backtracking search is bounded by its
/// step budget), so the thread stops shortly after; the caller gets the error at once.
///
/// # Errors
/// [`ErrorKind::TimedOut`] when the budget runs out.
pub fn with_budget<T: Send + 'static>(
    budget: Duration,
    f: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
) -> Result<T, Error> {
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let flag = cancel.clone();
    std::thread::spawn(move || {
        let _ = tx.send(f(flag));
    });
    match rx.recv_timeout(budget) {
        Ok(v) => Ok(v),
        Err(_) => {
            cancel.store(true, Ordering::Relaxed);
            Err(Error::new(ErrorKind::TimedOut, "execution timed out"))
        }
    }
}

/// Index of a byte offset in the flavor's own units: UTF-16 code units for JS, code points
/// for Python, bytes for Rust.
pub struct FlavorIndex<'t> {
    text: &'t str,
    flavor: Flavor,
    pos: usize,
    units: usize,
}

impl<'t> FlavorIndex<'t> {
    /// Starts at the beginning of `text`.
    pub fn new(text: &'t str, flavor: Flavor) -> Self {
        FlavorIndex {
            text,
            flavor,
            pos: 0,
            units: 0,
        }
    }

    /// The index of `offset`; offsets must not decrease between calls.
    pub fn at(&mut self, offset: usize) -> usize {
        if offset < self.pos {
            self.pos = 0;
            self.units = 0;
        }
        let chunk = &self.text[self.pos..offset];
        self.units += match self.flavor {
            Flavor::Js => chunk.chars().map(char::len_utf16).sum(),
            Flavor::Python => chunk.chars().count(),
            Flavor::Rust => chunk.len(),
        };
        self.pos = offset;
        self.units
    }
}

/// Runs one `regex` tool call under the `tool` limits; the value is the JSON the tool returns.
///
/// # Errors
/// The agent tool's error texts: `regex: invalid pattern: …`, `regex: invalid flag "q"`,
/// `regex: duplicate flag "g"`, `regex: execution timed out (1000ms)`,
/// `regex: explain: pattern too complex`, `regex: result/output exceeds 1000000 bytes`, and
/// the limit errors for input, pattern and replacement.
pub fn regex_tool(p: RegexParams) -> Result<Value, ToolError> {
    let started = Instant::now();
    let limits = Limits::tool();
    let budget = limits.time_budget.unwrap_or(Duration::from_millis(1000));
    let err = |e: Error| tool_error(&e, &limits, started);
    let flavor: Flavor = match p.flavor.as_deref() {
        None => Flavor::Js,
        Some(f) => f
            .parse()
            .map_err(|m: String| ToolError::new(format!("regex: {m}")))?,
    };
    let limit = match p.limit {
        None => None,
        Some(l) if l >= 1 => Some(usize::try_from(l).unwrap_or(usize::MAX)),
        Some(l) => {
            return Err(ToolError::new(format!(
                "regex: limit must be a positive integer (at most 1000 are reported), got {l}"
            )));
        }
    };
    let flags = Flags::parse(p.flags.as_deref().unwrap_or(""), flavor).map_err(err)?;
    limits.check_pattern(&p.pattern).map_err(err)?;
    if p.action == "explain" {
        return explain_action(&p.pattern, flavor, flags, &limits).map_err(err);
    }
    if !["test", "find", "replace"].contains(&p.action.as_str()) {
        return Err(ToolError::new(format!(
            "regex: unknown action {:?} (expected test, find, replace or explain)",
            p.action
        )));
    }
    let input = p
        .input
        .clone()
        .ok_or_else(|| ToolError::new(format!("regex: input is required for {}", p.action)))?;
    limits.check_input(&input).map_err(err)?;
    if let Some(r) = &p.replacement {
        limits.check_replacement(r).map_err(err)?;
    }
    let re = Regex::with_limits(&p.pattern, flavor, flags, &limits).map_err(err)?;
    let deadline = started + budget;
    let action = p.action.clone();
    let run_limits = limits.clone();
    let outcome = with_budget(budget, move |cancel| -> Result<Value, Error> {
        let limits = run_limits;
        let options = MatchOptions {
            deadline: Some(deadline),
            cancel: Some(&cancel),
            ..Default::default()
        };
        match action.as_str() {
            "test" => {
                let matched = re
                    .matches(
                        &input,
                        MatchOptions {
                            bounds_only: true,
                            ..options
                        },
                    )
                    .next()
                    .transpose()?
                    .is_some();
                Ok(json!({ "matched": matched }))
            }
            "find" => {
                let limit = limits.clamp_matches(limit).unwrap_or(50);
                let mut out = Vec::new();
                let mut index = FlavorIndex::new(&input, flavor);
                let mut size = 2usize;
                for m in re.matches(&input, options) {
                    if out.len() >= limit {
                        break;
                    }
                    let m = m?;
                    let item = crate::wire::ToolMatch::new(&re, &input, &m, index.at(m.start()));
                    // As json!() does: a map of string keys always serializes.
                    let item = serde_json::to_value(item).expect("a match serializes");
                    size += item.to_string().len() + 1;
                    limits.check_output(size)?;
                    out.push(item);
                }
                Ok(Value::Array(out))
            }
            _ => {
                let replacement = p.replacement.as_deref().unwrap_or("");
                let r = re.replace(&input, replacement, None, &limits)?;
                Ok(json!({ "result": r.result, "replaced": r.replaced }))
            }
        }
    });
    match outcome {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) | Err(e) => Err(err(e)),
    }
}

fn explain_action(
    pattern: &str,
    flavor: Flavor,
    flags: Flags,
    limits: &Limits,
) -> Result<Value, Error> {
    let ast = crate::syntax::parse::parse(pattern, flavor, flags)?;
    let nodes = crate::syntax::explain::explain(&ast, pattern, flavor, limits.max_explain_nodes)?;
    Ok(serde_json::to_value(nodes.nodes()).expect("explain nodes serialize"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(v: Value) -> Result<Value, ToolError> {
        regex_tool(serde_json::from_value(v).unwrap())
    }

    #[test]
    fn seed_examples() {
        assert_eq!(
            call(json!({"action":"find","pattern":"(\\w+)@(\\w+)","input":"a@b x c@d"})).unwrap(),
            json!([{"index":0,"match":"a@b","captures":["a","b"],"groups":null},{"index":6,"match":"c@d","captures":["c","d"],"groups":null}])
        );
        assert_eq!(
            call(json!({"action":"replace","pattern":"(\\w+) (\\w+)","input":"hello world","replacement":"$2 $1"})).unwrap(),
            json!({"result":"world hello","replaced":1})
        );
        assert_eq!(
            call(json!({"action":"test","pattern":"\\d+","input":"abc123"})).unwrap(),
            json!({"matched":true})
        );
    }

    #[test]
    fn explain_runs_nothing_and_caps_nodes() {
        let v = call(json!({"action":"explain","pattern":"\\d{4}-\\d{2}"})).unwrap();
        assert!(v.as_array().unwrap().iter().any(|n| n["text"] == "\\d"));
        let big = "(a)".repeat(3000);
        assert_eq!(
            call(json!({"action":"explain","pattern":big}))
                .unwrap_err()
                .text,
            "regex: explain: pattern too complex"
        );
    }

    #[test]
    fn js_index_is_in_utf16_units() {
        let v = call(json!({"action":"find","pattern":"b","input":"😀b"})).unwrap();
        assert_eq!(v[0]["index"], 2);
        let v =
            call(json!({"action":"find","pattern":"b","input":"😀b","flavor":"python"})).unwrap();
        assert_eq!(v[0]["index"], 1);
    }

    #[test]
    fn error_texts_are_the_seeds() {
        let e = |v| call(v).unwrap_err().text;
        assert_eq!(
            e(json!({"action":"test","pattern":"a","input":"a","flags":"q"})),
            "regex: invalid flag \"q\""
        );
        assert_eq!(
            e(json!({"action":"test","pattern":"a","input":"a","flags":"gg"})),
            "regex: duplicate flag \"g\""
        );
        assert!(
            e(json!({"action":"test","pattern":"(a","input":"a"}))
                .starts_with("regex: invalid pattern: ")
        );
        let big = "a".repeat(64_001);
        assert!(
            e(json!({"action":"test","pattern":"a","input":big}))
                .contains("over the limit of 64000 bytes")
        );
        let doubling = "a".repeat(1000);
        assert_eq!(
            e(json!({"action":"replace","pattern":"a","input":doubling,"replacement":"$`$`$`"})),
            "regex: result/output exceeds 1000000 bytes"
        );
    }

    #[test]
    fn limit_defaults_to_50_and_caps_at_1000() {
        let input = "a".repeat(5000);
        assert_eq!(
            call(json!({"action":"find","pattern":"a","input":input}))
                .unwrap()
                .as_array()
                .unwrap()
                .len(),
            50
        );
        let v = call(json!({"action":"find","pattern":"a","input":input,"limit":5000})).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 1000);
    }

    #[test]
    fn negative_or_zero_limit_is_an_error_not_an_empty_success() {
        for limit in [-1, 0] {
            let e = call(json!({"action":"find","pattern":"a","input":"aaa","limit":limit}))
                .unwrap_err();
            assert!(
                e.text
                    .starts_with("regex: limit must be a positive integer"),
                "{e}"
            );
        }
        let v = call(json!({"action":"find","pattern":"a","input":"aaa","limit":1})).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 1);
    }

    #[test]
    fn step_budget_stop_says_what_stopped_it_without_claiming_the_wall_budget() {
        // The mapping itself: a step-budget stop is not reported as 1000 ms of wall time.
        let limits = Limits::tool();
        let e = tool_error(
            &Error::new(ErrorKind::BacktrackLimit, "backtrack limit exceeded"),
            &limits,
            Instant::now(),
        );
        assert!(
            e.text
                .starts_with("regex: execution timed out (backtracking step budget")
        );
        assert!(!e.text.contains("(1000ms)"), "{}", e.text);
        let detail = e.detail.expect("a stop detail");
        assert_eq!(detail["stopped_by"], "step_budget");
        assert_eq!(detail["step_budget"], 1_000_000);
        let e = tool_error(
            &Error::new(ErrorKind::TimedOut, "execution timed out"),
            &limits,
            Instant::now(),
        );
        assert_eq!(e.text, "regex: execution timed out (1000ms)");
        assert_eq!(e.detail.unwrap()["stopped_by"], "wall_time");
    }

    #[test]
    fn a_stopped_search_claims_only_the_time_that_passed() {
        // Whichever budget ends this search first (that depends on the machine's load), the
        // text and the detail agree, and the text names no time that did not pass.
        let input = format!("{}!", "a".repeat(40));
        let e = call(json!({"action":"test","pattern":"^(a|aa)+\\1$","input":input})).unwrap_err();
        let detail = e.detail.expect("a stop detail");
        let elapsed = detail["elapsed_ms"].as_u64().unwrap();
        match detail["stopped_by"].as_str().unwrap() {
            "step_budget" => {
                assert!(!e.text.contains("(1000ms)"), "{}", e.text);
                assert!(e.text.contains(&format!("after {elapsed}ms")), "{}", e.text);
            }
            "wall_time" => {
                assert_eq!(e.text, "regex: execution timed out (1000ms)");
                assert!(elapsed >= 1000, "{detail}");
            }
            other => panic!("unknown stop {other}"),
        }
    }

    #[test]
    fn zero_matches_and_empty_pattern() {
        assert_eq!(
            call(json!({"action":"find","pattern":"z","input":"abc"})).unwrap(),
            json!([])
        );
        assert_eq!(
            call(json!({"action":"replace","pattern":"z","input":"abc","replacement":"y"}))
                .unwrap(),
            json!({"result":"abc","replaced":0})
        );
        // Empty pattern under u: empty matches advance by code point.
        let v = call(json!({"action":"find","pattern":"","input":"😀","flags":"u"})).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 2);
    }
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
pub fn audit_tool(args: Value) -> Result<Value, String> {
    use crate::audit::{
        self, AuditPattern, paths::PathSource, paths::WalkOptions, read::ScanOptions,
    };
    let p: AuditParams =
        serde_json::from_value(args).map_err(|e| format!("grep_audit: invalid arguments: {e}"))?;
    if p.patterns.is_empty() {
        return Err(
            "grep_audit: no patterns: give at least one substring or {pattern, name, regex}"
                .to_string(),
        );
    }
    let ignore_case = !p.case_sensitive.unwrap_or(true);
    let json_output = match p.output.as_deref() {
        None | Some("table") => false,
        Some("json") => true,
        Some(other) => {
            return Err(format!(
                "grep_audit: unknown output {other:?} (expected table or json)"
            ));
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
        patterns.push(column.map_err(|e| format!("grep_audit: {}", e.message))?);
    }
    audit::check_names(&patterns).map_err(|e| format!("grep_audit: {}", e.message))?;
    let sources: Vec<PathSource> = p.paths.iter().map(PathSource::listed).collect();
    let scan = ScanOptions {
        ignore_case,
        ..Default::default()
    };
    let report = audit::audit(&sources, &patterns, &WalkOptions::default(), &scan)
        .map_err(|e| format!("grep_audit: {}", e.message))?;
    let mut text = Vec::new();
    let written = if json_output {
        audit::render::json(&report, &mut text)
    } else {
        audit::render::table(&report, &mut text)
    };
    written.map_err(|e| format!("grep_audit: {e}"))?;
    Ok(json!({
        "text": String::from_utf8_lossy(&text).trim_end(),
        "usage": report.usage,
    }))
}

#[cfg(test)]
mod audit_tool_tests {
    use super::*;

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
        assert!(e.starts_with("grep_audit: no patterns"), "{e}");
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
                .contains("empty substring")
        );
        assert!(
            audit_tool(json!({"paths": []}))
                .unwrap_err()
                .starts_with("grep_audit: invalid arguments")
        );
    }
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
pub fn parse_tool(args: Value) -> Result<Value, String> {
    use crate::presets::{self, LoadOptions, Scanner};
    let p: ParseParams =
        serde_json::from_value(args).map_err(|e| format!("regex_parse: invalid arguments: {e}"))?;
    let limits = Limits::tool();
    limits
        .check_input(&p.text)
        .map_err(|e| format!("regex_parse: {}", e.message))?;
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
            .map_err(|e| format!("regex_parse: {}", e.message))?
    };
    let scanner = Scanner::new(entries);
    let mut hits = Vec::new();
    let mut size = 0usize;
    for hit in scanner.hits(&p.text, true) {
        let hit = hit.map_err(|e| format!("regex_parse: {}", e.message))?;
        let v = serde_json::to_value(crate::wire::HitRecord::new(hit.entry, &p.text, &hit.m))
            .map_err(|e| format!("regex_parse: {e}"))?;
        size += v.to_string().len() + 1;
        limits
            .check_output(size)
            .map_err(|e| format!("regex_parse: {}", e.message))?;
        hits.push(v);
    }
    let mut v = json!({ "hits": hits });
    if !warnings.is_empty() {
        v["warnings"] = json!(warnings);
    }
    Ok(v)
}

#[cfg(test)]
mod parse_tool_tests {
    use super::*;

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
                .contains("nope")
        );
    }
}
