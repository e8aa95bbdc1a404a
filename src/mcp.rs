//! `rxw mcp`: the Model Context Protocol server on stdio.
//!
//! This module is the only place that knows the MCP SDK (`rmcp`). Each tool is a function of
//! the library taking and returning JSON ([`crate::tool`]); here they get their schemas, run
//! on blocking threads (a slow call never stalls the others), and have their failures turned
//! into tool errors (`isError: true`) rather than protocol errors, as agents expect.

use crate::tool;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use std::sync::Arc;

/// The server: stateless, every call stands alone.
#[derive(Debug, Clone, Default)]
pub struct RxwServer;

fn object(v: Value) -> Arc<serde_json::Map<String, Value>> {
    match v {
        Value::Object(m) => Arc::new(m),
        _ => unreachable!("schemas are objects"),
    }
}

/// The tool declarations with their input and output schemas.
pub fn tools() -> Vec<Tool> {
    let regex_in = json!({
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": ["test", "find", "replace", "explain"], "description": "test: does it match; find: all matches with groups; replace: replace all; explain: static tree, nothing is executed"},
            "pattern": {"type": "string", "description": "The regex, without delimiters; at most 16 KB"},
            "input": {"type": "string", "description": "Text to match (test, find, replace); at most 64,000 bytes UTF-8"},
            "flags": {"type": "string", "description": "Flag letters, unique: js g i m s u y d v; python i m s x a; rust i m s x U R"},
            "replacement": {"type": "string", "description": "replace: template in the flavor's syntax (js $1 $<name> $& $$); at most 16 KB"},
            "limit": {"type": "integer", "description": "find: most matches reported, default 50, capped at 1000"},
            "flavor": {"type": "string", "enum": ["js", "python", "rust"], "description": "Regex dialect; default js"}
        },
        "required": ["action", "pattern"],
        "additionalProperties": false
    });
    let regex_out = json!({
        "type": "object",
        "description": "test: {matched}; find: {matches:[{index, match, captures, groups}]} (index in the flavor's units: UTF-16 for js); replace: {result, replaced}; explain: {nodes:[{kind, text, meaning, span}]}",
        "properties": {
            "matched": {"type": "boolean"},
            "matches": {"type": "array"},
            "result": {"type": "string"},
            "replaced": {"type": "integer"},
            "nodes": {"type": "array"}
        }
    });
    let parse_in = json!({
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "An agent message or log to parse through every registered pattern; at most 64,000 bytes"},
            "only": {"type": "array", "items": {"type": "string"}, "description": "Restrict to these preset keys"}
        },
        "required": ["text"],
        "additionalProperties": false
    });
    let parse_out = json!({
        "type": "object",
        "properties": {"hits": {"type": "array", "description": "[{key, index, end, match, groups}] in text order"}}
    });
    let audit_in = json!({
        "type": "object",
        "properties": {
            "paths": {"type": "array", "items": {"type": "string"}, "description": "File paths (directories are walked)"},
            "patterns": {"type": "array", "items": {"oneOf": [
                {"type": "string", "description": "A substring"},
                {"type": "object", "properties": {"pattern": {"type": "string"}, "name": {"type": "string"}, "regex": {"type": "boolean"}}, "required": ["pattern"]}
            ]}},
            "output": {"type": "string", "enum": ["table", "json"], "default": "table"},
            "case_sensitive": {"type": "boolean", "default": true}
        },
        "required": ["paths", "patterns"],
        "additionalProperties": false
    });
    let audit_out = json!({
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "The markdown table or the JSON matrix"},
            "usage": {"type": "object", "properties": {"files_scanned": {"type": "integer"}, "patterns_evaluated": {"type": "integer"}, "matches_total": {"type": "integer"}}}
        }
    });
    vec![
        Tool::new(
            "regex",
            "Deterministic regex tool: test, find (index, match, captures, groups), replace, and a static explain that runs nothing (immune to ReDoS). Flavors js (default), python, rust, each matching as its real engine does. Limits: input 64,000 bytes, pattern and replacement 16 KB, output 1,000,000 bytes, find limit 50 (max 1000), 1000 ms per call. Do not use unanchored nested quantifiers such as (a+)+ or (.*)* on large untrusted input.",
            object(regex_in),
        )
        .with_raw_output_schema(object(regex_out)),
        Tool::new(
            "regex_parse",
            "Parse a text through the NetVM pattern registry (built-in presets plus user registries): every protocol tag found, in text order, with its named groups.",
            object(parse_in),
        )
        .with_raw_output_schema(object(parse_out)),
        Tool::new(
            "grep_audit",
            "Deterministic grep matrix over N paths x M patterns (substring or regex), no LLM. Unreadable paths give a warning cell (null), never a failed call.",
            object(audit_in),
        )
        .with_raw_output_schema(object(audit_out)),
    ]
}

/// Runs one tool by name on its JSON arguments.
///
/// # Errors
/// The tool's own error text.
pub fn call(name: &str, args: Value) -> Result<Value, String> {
    match name {
        "regex" => {
            let params: tool::RegexParams = serde_json::from_value(args)
                .map_err(|e| format!("regex: invalid arguments: {e}"))?;
            let action = params.action.clone();
            let v = tool::regex_tool(params).map_err(|e| e.0)?;
            Ok(match action.as_str() {
                "find" => json!({ "matches": v }),
                "explain" => json!({ "nodes": v }),
                _ => v,
            })
        }
        "regex_parse" => tool::parse_tool(args),
        "grep_audit" => tool::audit_tool(args),
        other => Err(format!("unknown tool {other:?}")),
    }
}

impl ServerHandler for RxwServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rxw", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "rxw: regex test/find/replace/explain with flavor-faithful engines, the NetVM pattern registry, and a grep audit matrix.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        let args = Value::Object(request.arguments.unwrap_or_default());
        let outcome = tokio::task::spawn_blocking(move || call(&name, args))
            .await
            .map_err(|e| McpError::internal_error(format!("tool task failed: {e}"), None))?;
        Ok(match outcome {
            Ok(v) => CallToolResult::structured(v).into(),
            Err(text) => CallToolResult::error(vec![ContentBlock::text(text)]).into(),
        })
    }
}

/// Serves MCP on standard input and output until the client closes it.
///
/// # Errors
/// When the transport fails to start.
pub fn serve_stdio() -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let service = RxwServer.serve(rmcp::transport::io::stdio()).await?;
        service.waiting().await?;
        Ok(())
    })
}
