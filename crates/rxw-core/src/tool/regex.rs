//! The `regex` tool: test, find, replace and explain under the agent limits, with the agent
//! tool's error texts.

use super::{FlavorIndex, StopDetail, StopReason, ToolError, with_budget};
use crate::engine::MatchOptions;
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use crate::wire::ToolMatch;
use crate::{Limits, Regex};
use serde::{Deserialize, Serialize};
use serde_json::Value;
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

/// What a `regex` call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Does the pattern match anywhere.
    Test,
    /// Every match (up to the limit) with its groups.
    Find,
    /// Replace every match.
    Replace,
    /// The static explain tree; nothing is executed.
    Explain,
}

impl std::str::FromStr for Action {
    type Err = ToolError;

    fn from_str(s: &str) -> Result<Action, ToolError> {
        Ok(match s {
            "test" => Action::Test,
            "find" => Action::Find,
            "replace" => Action::Replace,
            "explain" => Action::Explain,
            other => {
                return Err(ToolError::new(format!(
                    "regex: unknown action {other:?} (expected test, find, replace or explain)"
                )));
            }
        })
    }
}

/// A `regex` call's result, in the agent tool's shapes.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Output<'t> {
    /// `{"matched": bool}`.
    Test { matched: bool },
    /// `[{index, match, captures, groups}]`.
    Find(Vec<ToolMatch<'t>>),
    /// `{"result", "replaced"}`, and `"utf16"` (the exact code units) when a JavaScript
    /// match cut a surrogate pair and left a lone half, which `result` writes as U+FFFD.
    Replace {
        result: String,
        replaced: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        utf16: Option<Vec<u16>>,
    },
}

/// The MCP server's structured content: `find` and `explain` answers are wrapped in an object
/// (`{"matches": […]}`, `{"nodes": […]}`), the others are objects already.
#[derive(Serialize)]
#[serde(untagged)]
enum Structured {
    Matches { matches: Value },
    Nodes { nodes: Value },
    Plain(Value),
}

/// Runs a call and wraps it for the MCP server's structured content.
pub(super) fn structured(p: RegexParams, arrived: Instant) -> Result<Value, ToolError> {
    let action = p.action.parse::<Action>()?;
    let v = regex_tool_from(p, arrived)?;
    let wrapped = match action {
        Action::Find => Structured::Matches { matches: v },
        Action::Explain => Structured::Nodes { nodes: v },
        Action::Test | Action::Replace => Structured::Plain(v),
    };
    Ok(serde_json::to_value(wrapped).expect("JSON values serialize"))
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
        serde_json::to_value(detail).ok().map(Box::new)
    };
    let text = match e.kind {
        ErrorKind::PatternInvalid | ErrorKind::ConstructUnsupported => match e.span {
            Some(s) => format!(
                "regex: invalid pattern: {} (at position {})",
                e.message, s.start
            ),
            None => format!("regex: invalid pattern: {}", e.message),
        },
        // The agent tool's text, with the time that really passed.
        ErrorKind::TimedOut => format!("regex: execution timed out ({}ms)", budget.as_millis()),
        // Keeps the `regex: ` prefix clients look for, but claims no time that did not pass.
        ErrorKind::BacktrackLimit => format!(
            "regex: execution timed out (backtracking step budget of {} exhausted after {}ms)",
            limits.backtrack_limit, elapsed_ms
        ),
        ErrorKind::ExplainTooComplex => "regex: explain: pattern too complex".to_string(),
        _ => format!("regex: {}", e.message),
    };
    let detail = match e.kind {
        ErrorKind::TimedOut => stop(StopReason::WallTime),
        ErrorKind::BacktrackLimit => stop(StopReason::StepBudget),
        _ => None,
    };
    ToolError {
        text,
        kind: e.kind.name(),
        span: e.span,
        detail,
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
    regex_tool_from(p, Instant::now())
}

/// As [`regex_tool`], for a call that arrived at `started`: its time budget counts from then
/// (a call that waited for a free worker has spent the wait).
///
/// # Errors
/// As [`regex_tool`].
pub fn regex_tool_from(p: RegexParams, started: Instant) -> Result<Value, ToolError> {
    let limits = Limits::tool();
    let budget = limits.time_budget.unwrap_or(Duration::from_millis(1000));
    let err = |e: Error| tool_error(&e, &limits, started);
    let flavor: Flavor = match p.flavor.as_deref() {
        None => Flavor::JS,
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
    let flags =
        Flags::parse(p.flags.as_deref().unwrap_or(""), flavor).map_err(|e| err(e.into()))?;
    limits
        .check_pattern(&p.pattern)
        .map_err(|e| err(e.into()))?;
    let action = p.action.parse::<Action>()?;
    if action == Action::Explain {
        return explain_action(&p.pattern, flavor, flags, &limits).map_err(err);
    }
    let input = p
        .input
        .clone()
        .ok_or_else(|| ToolError::new(format!("regex: input is required for {}", p.action)))?;
    limits.check_input(&input).map_err(|e| err(e.into()))?;
    if let Some(r) = &p.replacement {
        limits.check_replacement(r).map_err(|e| err(e.into()))?;
    }
    let re = Regex::with_limits(&p.pattern, flavor, flags, &limits).map_err(|e| err(e.into()))?;
    let deadline = started + budget;
    let run_limits = limits.clone();
    let left = deadline.saturating_duration_since(Instant::now());
    let outcome = with_budget(left, move |cancel| -> Result<Value, Error> {
        let limits = run_limits;
        let options = MatchOptions {
            deadline: Some(deadline),
            cancel: Some(&cancel),
            ..Default::default()
        };
        let output = match action {
            Action::Test => {
                let bounds_only = MatchOptions {
                    bounds_only: true,
                    ..options
                };
                let first = re.matches(&input, bounds_only).next().transpose()?;
                Output::Test {
                    matched: first.is_some(),
                }
            }
            Action::Find => {
                let limit = limits.clamp_matches(limit).unwrap_or(50);
                let mut out = Vec::new();
                let mut index = FlavorIndex::new(&input, flavor);
                // `[` and `]`, then each item and its comma.
                let mut size = 2usize;
                for m in re.matches(&input, options) {
                    if out.len() >= limit {
                        break;
                    }
                    let m = m?;
                    let item = ToolMatch::new(&re, &input, &m, index.at(m.start()));
                    size += serde_json::to_string(&item).map_or(0, |s| s.len()) + 1;
                    limits.check_output(size)?;
                    out.push(item);
                }
                Output::Find(out)
            }
            Action::Replace | Action::Explain => {
                let replacement = p.replacement.as_deref().unwrap_or("");
                let r = re.replace(&input, replacement, None, &limits)?;
                Output::Replace {
                    result: r.result,
                    replaced: r.replaced,
                    utf16: r.utf16,
                }
            }
        };
        Ok(serde_json::to_value(output).expect("string maps serialize"))
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
    use serde_json::json;

    fn call(v: Value) -> Result<Value, ToolError> {
        regex_tool(serde_json::from_value(v).unwrap())
    }

    /// Regression: a JavaScript match cutting a surrogate pair was refused; the agent tool
    /// answers as node does: the index in UTF-16 units (inside the pair), the lone half as
    /// U+FFFD, the character cut and its bytes, and a replacement's exact code units.
    #[test]
    fn a_javascript_match_cutting_a_surrogate_pair_is_answered() {
        let found =
            call(json!({"action":"find","pattern":"\\uDE00","input":"a😀","flavor":"js"})).unwrap();
        assert_eq!(found[0]["index"], 2);
        assert_eq!(found[0]["match"], "\u{FFFD}");
        assert_eq!(
            found[0]["pair_cut"]["characters"][0]["bytes"],
            json!([1, 5])
        );
        let replaced = call(
            json!({"action":"replace","pattern":"\\uD83D","input":"😀","flavor":"js","replacement":"x"}),
        )
        .unwrap();
        assert_eq!(
            replaced,
            json!({"result":"x\u{FFFD}","replaced":1,"utf16":[120,0xDE00]})
        );
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
