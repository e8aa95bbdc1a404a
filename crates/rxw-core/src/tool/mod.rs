//! The agent tools as plain functions: the `regex` tool's contract (actions, limits, outputs and
//! error texts), `regex_parse` (text through the preset registry), `grep_audit` (the grep
//! matrix) and `regex_redos` (the ReDoS verdict with its proof). The MCP server (`rxw mcp`) is a thin wrapper over [`call`], so each contract is
//! tested without a protocol in between. One file per tool; the failure type, the time budget
//! and the flavor's index units are shared here.

mod audit;
mod export;
mod parse;
mod redos;
mod regex;

pub use audit::{AuditParams, AuditPatternParam, Roots, audit_tool, audit_tool_in};
pub use parse::{ExportRequest, ParseParams, parse_tool, parse_tool_in};
pub use redos::{RedosParams, redos_tool};
pub use regex::{Action, RegexParams, regex_tool};

use crate::error::{Error, ErrorKind};
use crate::flavor::Flavor;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a call runs under beyond its arguments: when it arrived (its time budget counts from
/// there, so a call that waited for a free worker has spent that wait), which directories
/// `grep_audit` may read, and what runs exported definitions on the fleet's engines.
#[derive(Debug, Clone)]
pub struct CallContext {
    /// When the call arrived.
    pub arrived: Instant,
    /// The directories `grep_audit` may read; `None` reads any path (the library's own use).
    pub roots: Option<Arc<Roots>>,
    /// Runs `regex_parse`'s exports on the real engines; `None` exports without verifying
    /// (the library alone has no engine drivers: they live with the command line).
    pub verifier: Option<Arc<dyn FleetVerifier>>,
}

impl Default for CallContext {
    fn default() -> Self {
        CallContext {
            arrived: Instant::now(),
            roots: None,
            verifier: None,
        }
    }
}

/// Runs exported definitions on their target's own engine (`rxw registry verify`), stopping
/// at `deadline` (the engine's process is killed).
pub trait FleetVerifier: Send + Sync + std::fmt::Debug {
    /// One record per export, in order.
    ///
    /// # Errors
    /// Why the engine could not be run, or that the deadline passed first.
    fn verify(
        &self,
        entries: &[&crate::presets::Entry],
        exports: &[crate::fleet::PresetExport],
        target: crate::fleet::Target,
        deadline: Instant,
    ) -> Result<Vec<crate::wire::VerifyRecord>, String>;
}

/// The tools an agent can call, by their protocol names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `regex`: test, find, replace, explain.
    Regex,
    /// `regex_parse`: a text through the preset registry.
    Parse,
    /// `grep_audit`: the paths × patterns matrix.
    Audit,
    /// `regex_redos`: does the pattern backtrack catastrophically, with the proof.
    Redos,
    /// `registry_export`: the preset registry written for a fleet engine.
    Export,
}

impl Tool {
    /// Every tool, in the order the server lists them.
    pub const ALL: [Tool; 5] = [
        Tool::Regex,
        Tool::Parse,
        Tool::Audit,
        Tool::Redos,
        Tool::Export,
    ];

    /// The protocol name.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Regex => "regex",
            Tool::Parse => "regex_parse",
            Tool::Audit => "grep_audit",
            Tool::Redos => "regex_redos",
            Tool::Export => "registry_export",
        }
    }

    /// The tool called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Runs the tool on its JSON arguments; the value is the tool's structured result.
    ///
    /// # Errors
    /// The tool's own error text (always prefixed with the tool's name).
    pub fn call(self, args: Value) -> Result<Value, ToolError> {
        self.call_in(args, &CallContext::default())
    }

    /// As [`Tool::call`], with the call's arrival and the readable roots ([`CallContext`]).
    ///
    /// # Errors
    /// The tool's own error text (always prefixed with the tool's name).
    pub fn call_in(self, args: Value, cx: &CallContext) -> Result<Value, ToolError> {
        match self {
            Tool::Regex => {
                let params: RegexParams = serde_json::from_value(args)
                    .map_err(|e| ToolError::invalid_arguments(self, &e))?;
                regex::structured(params, cx.arrived)
            }
            Tool::Parse => parse_tool_in(args, cx),
            Tool::Audit => audit_tool_in(args, cx.roots.as_deref()),
            Tool::Redos => redos_tool(args),
            Tool::Export => export::export_tool(args),
        }
    }
}

/// Runs the tool called `name` on its JSON arguments.
///
/// # Errors
/// An unknown tool, or the tool's own error text.
pub fn call(name: &str, args: Value) -> Result<Value, ToolError> {
    call_in(name, args, &CallContext::default())
}

/// Runs the tool called `name` on its JSON arguments under `cx` ([`CallContext`]).
///
/// # Errors
/// An unknown tool, or the tool's own error text.
pub fn call_in(name: &str, args: Value, cx: &CallContext) -> Result<Value, ToolError> {
    match Tool::from_name(name) {
        Some(tool) => tool.call_in(args, cx),
        None => Err(ToolError::new(format!("unknown tool {name:?}"))),
    }
}

/// A tool failure: the message an agent sees, always starting with `regex: `, its kind and
/// span as every rxw error document has them ([`crate::wire::ErrorBody`]), and for a stopped
/// search a machine-readable detail. `rxw mcp` sends [`ToolError::document`] as the error's
/// structured content.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// The agent tool's error text.
    pub text: String,
    /// The snake_case kind (`pattern_invalid`, `timed_out`, `arguments_invalid`…).
    pub kind: &'static str,
    /// Byte span in the pattern it is about, when it is about one.
    pub span: Option<crate::Span>,
    /// What stopped the call, when it was stopped: [`StopDetail`] as JSON.
    pub detail: Option<Box<Value>>,
}

impl ToolError {
    /// A failure with a text only: arguments the tool cannot take (the kind of most tool
    /// errors; [`ToolError::with_kind`] names another).
    pub fn new(text: impl Into<String>) -> ToolError {
        ToolError {
            text: text.into(),
            kind: ErrorKind::ArgumentsInvalid.name(),
            span: None,
            detail: None,
        }
    }

    /// The same failure, of another kind.
    pub fn with_kind(mut self, kind: ErrorKind) -> ToolError {
        self.kind = kind.name();
        self
    }

    /// Arguments that do not fit the tool's parameters: `TOOL: invalid arguments: …`.
    pub fn invalid_arguments(tool: Tool, e: &serde_json::Error) -> ToolError {
        ToolError::new(format!("{}: invalid arguments: {e}", tool.name()))
    }

    /// A library error met by `tool`: `TOOL: message`, with the error's kind and span.
    pub fn of(tool: Tool, e: &Error) -> ToolError {
        ToolError {
            kind: e.kind.name(),
            span: e.span,
            ..ToolError::new(format!("{}: {}", tool.name(), e.message))
        }
    }

    /// The structured error: `{"error": {"kind", "message", "span"}}` (the shape of every
    /// `--json` error), and `"detail"` beside it for a stopped search.
    pub fn document(&self) -> Value {
        let body = crate::wire::ErrorDoc {
            error: crate::wire::ErrorBody {
                kind: self.kind,
                message: &self.text,
                span: self.span,
            },
        };
        let mut doc = serde_json::to_value(body).expect("an error serializes");
        if let Some(detail) = &self.detail {
            doc["detail"] = (**detail).clone();
        }
        doc
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
        self.units += self.flavor.offset_unit().count(chunk);
        self.pos = offset;
        self.units
    }
}
