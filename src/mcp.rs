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
pub fn call(name: &str, args: Value) -> Result<Value, tool::ToolError> {
    match name {
        "regex" => {
            let params: tool::RegexParams = serde_json::from_value(args)
                .map_err(|e| tool::ToolError::new(format!("regex: invalid arguments: {e}")))?;
            let action = params.action.clone();
            let v = tool::regex_tool(params)?;
            Ok(match action.as_str() {
                "find" => json!({ "matches": v }),
                "explain" => json!({ "nodes": v }),
                _ => v,
            })
        }
        "regex_parse" => tool::parse_tool(args).map_err(tool::ToolError::new),
        "grep_audit" => tool::audit_tool(args).map_err(tool::ToolError::new),
        other => Err(tool::ToolError::new(format!("unknown tool {other:?}"))),
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
            Err(e) => {
                let mut result = CallToolResult::error(vec![ContentBlock::text(e.text.clone())]);
                // What stopped a search, for clients that read more than the text.
                result.structured_content =
                    e.detail.map(|d| json!({ "error": e.text, "detail": d }));
                result.into()
            }
        })
    }
}

/// Serves MCP on standard input and output until the client closes it.
///
/// The transport is rxw's own line reader ([`stdio`]), not the SDK's: the SDK drops a line
/// that is not JSON without a reply, so a client would wait forever.
///
/// # Errors
/// When the transport fails to start.
pub fn serve_stdio() -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let (transport, writer) = stdio::transport(tokio::io::stdin(), tokio::io::stdout());
        let service = RxwServer.serve(transport).await?;
        service.waiting().await?;
        // Every reply queued before the end is written before the process exits.
        writer.await?;
        Ok(())
    })
}

/// JSON-RPC over newline-delimited standard input and output, answering what the SDK's
/// transport would drop.
///
/// Each line is read here. A line that is not UTF-8 or not JSON gets a `-32700` parse error
/// (`id` null: it cannot be recovered). A `tools/call` whose `arguments` is not an object gets
/// `-32602`. A JSON value that is not a message the server understands gets `-32602` when it
/// names a method and carries an id (bad parameters), else `-32600` with whatever id it had.
/// Notifications that cannot be decoded get no reply, as JSON-RPC wants. Everything else is
/// handed to the server; replies and these errors go out through one writer, a line each.
pub mod stdio {
    use rmcp::RoleServer;
    use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
    use rmcp::transport::Transport;
    use serde_json::{Value, json};
    use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
    use tokio::sync::mpsc;

    /// JSON-RPC: the line is not JSON (or not UTF-8).
    pub const PARSE_ERROR: i64 = -32700;
    /// JSON-RPC: the value is not a valid request.
    pub const INVALID_REQUEST: i64 = -32600;
    /// JSON-RPC: the method's parameters are invalid.
    pub const INVALID_PARAMS: i64 = -32602;

    /// What one input line is.
    #[derive(Debug)]
    pub enum Decoded {
        /// A message for the server.
        Message(Box<RxJsonRpcMessage<RoleServer>>),
        /// An error response to send back at once.
        Reply(Value),
        /// Nothing to do (a blank line, an undecodable notification).
        Skip,
    }

    fn error_reply(id: Value, code: i64, message: &str, detail: String) -> Value {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": code, "message": message, "data": {"detail": detail}},
        })
    }

    /// Decodes one line (without its newline).
    pub fn decode(line: &[u8]) -> Decoded {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return Decoded::Skip;
        }
        let text = match std::str::from_utf8(line) {
            Ok(t) => t,
            Err(e) => {
                return Decoded::Reply(error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    "Parse error",
                    format!("the line is not UTF-8: {e}"),
                ));
            }
        };
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                return Decoded::Reply(error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    "Parse error",
                    format!("the line is not JSON: {e}"),
                ));
            }
        };
        let id = value
            .get("id")
            .filter(|id| id.is_string() || id.is_number())
            .cloned();
        let method = value.get("method").and_then(Value::as_str);
        if method == Some("tools/call")
            && let Some(args) = value.pointer("/params/arguments")
            && !args.is_object()
            && !args.is_null()
        {
            return match id {
                Some(id) => Decoded::Reply(error_reply(
                    id,
                    INVALID_PARAMS,
                    "Invalid params",
                    "tools/call: `arguments` must be an object".to_string(),
                )),
                None => Decoded::Skip,
            };
        }
        match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
            Ok(m) => Decoded::Message(Box::new(m)),
            Err(e) => match (id, method) {
                (Some(id), Some(method)) => Decoded::Reply(error_reply(
                    id,
                    INVALID_PARAMS,
                    "Invalid params",
                    format!("{method}: {e}"),
                )),
                // A notification: JSON-RPC sends no reply to it.
                (None, Some(_)) if value.get("id").is_none() => Decoded::Skip,
                (id, _) => Decoded::Reply(error_reply(
                    id.unwrap_or(Value::Null),
                    INVALID_REQUEST,
                    "Invalid Request",
                    format!("not a JSON-RPC message this server understands: {e}"),
                )),
            },
        }
    }

    /// The server's side of the connection.
    pub struct LineTransport {
        incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
        outgoing: mpsc::UnboundedSender<String>,
    }

    /// A transport over `input` and `output`, and the writer task to await once the service
    /// has ended (it finishes when every queued line is written).
    pub fn transport<R, W>(input: R, output: W) -> (LineTransport, tokio::task::JoinHandle<()>)
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (out_tx, mut out_rx) = mpsc::unbounded_channel::<String>();
        let (in_tx, in_rx) = mpsc::channel(64);
        let replies = out_tx.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(input);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let body = line.strip_suffix(b"\n").unwrap_or(&line);
                match decode(body) {
                    Decoded::Message(m) => {
                        if in_tx.send(*m).await.is_err() {
                            break;
                        }
                    }
                    Decoded::Reply(v) => {
                        if replies.send(v.to_string()).is_err() {
                            break;
                        }
                    }
                    Decoded::Skip => {}
                }
            }
            // Dropping `in_tx` ends the service once it has answered what it has.
        });
        let writer = tokio::spawn(async move {
            let mut output = output;
            while let Some(mut line) = out_rx.recv().await {
                line.push('\n');
                if output.write_all(line.as_bytes()).await.is_err() || output.flush().await.is_err()
                {
                    break;
                }
            }
        });
        (
            LineTransport {
                incoming: in_rx,
                outgoing: out_tx,
            },
            writer,
        )
    }

    impl Transport<RoleServer> for LineTransport {
        type Error = std::io::Error;

        fn send(
            &mut self,
            item: TxJsonRpcMessage<RoleServer>,
        ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
            let sent = serde_json::to_string(&item)
                .map_err(std::io::Error::other)
                .and_then(|line| {
                    self.outgoing.send(line).map_err(|_| {
                        std::io::Error::new(std::io::ErrorKind::BrokenPipe, "output closed")
                    })
                });
            std::future::ready(sent)
        }

        fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
            self.incoming.recv()
        }

        async fn close(&mut self) -> Result<(), Self::Error> {
            self.incoming.close();
            Ok(())
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn reply(line: &[u8]) -> Value {
            match decode(line) {
                Decoded::Reply(v) => v,
                other => panic!("expected a reply, got {other:?}"),
            }
        }

        #[test]
        fn malformed_json_line_gets_a_parse_error_with_null_id() {
            let v = reply(b"{\"jsonrpc\":\"2.0\",\"id\":1,");
            assert_eq!(v["error"]["code"], PARSE_ERROR);
            assert_eq!(v["id"], Value::Null);
        }

        #[test]
        fn invalid_utf8_line_gets_a_parse_error() {
            let v = reply(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}");
            assert_eq!(v["error"]["code"], PARSE_ERROR);
            assert!(
                v["error"]["data"]["detail"]
                    .as_str()
                    .unwrap()
                    .contains("UTF-8")
            );
        }

        #[test]
        fn non_object_arguments_are_invalid_params_not_method_not_found() {
            let v = reply(
                br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"regex","arguments":[1]}}"#,
            );
            assert_eq!(v["error"]["code"], INVALID_PARAMS);
            assert_eq!(v["id"], 7);
        }

        #[test]
        fn a_request_that_does_not_decode_is_answered_with_its_id() {
            let v = reply(br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":5}"#);
            assert_eq!(v["error"]["code"], INVALID_PARAMS);
            assert_eq!(v["id"], "a");
            let v = reply(br#"{"id":3}"#);
            assert_eq!(v["error"]["code"], INVALID_REQUEST);
            assert_eq!(v["id"], 3);
            let v = reply(b"[1,2]");
            assert_eq!(v["error"]["code"], INVALID_REQUEST);
        }

        #[test]
        fn good_lines_are_forwarded_and_blank_lines_skipped() {
            assert!(matches!(
                decode(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#),
                Decoded::Message(_)
            ));
            assert!(matches!(decode(b"  \r"), Decoded::Skip));
            assert!(matches!(
                decode(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
                Decoded::Message(_)
            ));
        }
    }
}
