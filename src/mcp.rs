//! `rxw mcp`: the Model Context Protocol server on stdio.
//!
//! This module is the only place that knows the MCP SDK (`rmcp`). Each tool is a function of
//! the library taking and returning JSON ([`crate::tool`]); here they get their schemas, run
//! on blocking threads (a slow call never stalls the others), and have their failures turned
//! into tool errors (`isError: true`) rather than protocol errors, as agents expect.
//!
//! A client gets at most [`RxwServer::workers`] calls running at once: the others wait for a
//! worker on their own time budget (counted from their arrival: the moment the transport read
//! the request line, [`stdio::Arrived`], not the later one the SDK hands the call to the
//! server, which under a flood comes after a queue), so a flood of pathological
//! calls is answered, each within its budget, instead of starving the machine. A request line
//! over [`stdio::MAX_REQUEST_BYTES`] is answered with a JSON-RPC error without being held in
//! memory. `grep_audit` reads only under the server's roots ([`tool::Roots`]).

use crate::tool;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The server: every call stands alone; what they share is the roots and the workers.
#[derive(Debug, Clone)]
pub struct RxwServer {
    /// The directories `grep_audit` may read.
    roots: Arc<tool::Roots>,
    /// One permit per call allowed to run at once.
    workers: Arc<Semaphore>,
    /// How many permits there are.
    worker_count: usize,
}

impl RxwServer {
    /// A server whose `grep_audit` reads under `roots`, running at most `workers` calls at
    /// once (at least one).
    pub fn new(roots: tool::Roots, workers: usize) -> RxwServer {
        let workers = workers.max(1);
        RxwServer {
            roots: Arc::new(roots),
            workers: Arc::new(Semaphore::new(workers)),
            worker_count: workers,
        }
    }

    /// How many calls run at once: two per core (a call is mostly one thread's work).
    pub fn default_workers() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get() * 2)
    }

    /// How many calls run at once.
    pub fn workers(&self) -> usize {
        self.worker_count
    }
}

/// A worker for a call that arrived at `arrived`, waited for until `budget` from then;
/// `None` when none came free in time (the call is answered as timed out).
pub async fn worker_within(
    workers: &Arc<Semaphore>,
    arrived: Instant,
    budget: Duration,
) -> Option<OwnedSemaphorePermit> {
    let deadline = tokio::time::Instant::from_std(arrived + budget);
    match tokio::time::timeout_at(deadline, workers.clone().acquire_owned()).await {
        Ok(Ok(permit)) => Some(permit),
        _ => None,
    }
}

/// The tools' declarations (name, description, input and output schemas), kept as data beside
/// the other assets; a test holds them to [`tool::Tool::ALL`].
const TOOLS_JSON: &str = include_str!("../assets/mcp_tools.json");

/// One declaration in `assets/mcp_tools.json`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Declaration {
    name: String,
    description: String,
    input_schema: serde_json::Map<String, Value>,
    output_schema: serde_json::Map<String, Value>,
}

/// The tool declarations with their input and output schemas.
pub fn tools() -> Vec<Tool> {
    let declared: Vec<Declaration> =
        serde_json::from_str(TOOLS_JSON).expect("assets/mcp_tools.json is valid (tested)");
    declared
        .into_iter()
        .map(|d| {
            Tool::new(d.name, d.description, Arc::new(d.input_schema))
                .with_raw_output_schema(Arc::new(d.output_schema))
        })
        .collect()
}

/// Runs one tool by name on its JSON arguments.
///
/// # Errors
/// The tool's own error text.
pub fn call(name: &str, args: Value) -> Result<Value, tool::ToolError> {
    tool::call(name, args)
}

#[cfg(test)]
mod declaration_tests {
    use super::*;

    /// Regression: 200 concurrent pathological calls were answered after up to 7.9 s (the
    /// budget is 1 s): every call ran at once. A call waits for one of a few workers on its own
    /// budget, and one that finds none free in time is answered as timed out at once.
    #[test]
    fn a_call_waits_for_a_worker_only_within_its_budget() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(async {
            let server = RxwServer::new(tool::Roots::new(&[".".into()]).unwrap(), 1);
            assert_eq!(server.workers(), 1);
            let budget = Duration::from_millis(50);
            let held = worker_within(&server.workers, Instant::now(), budget)
                .await
                .expect("a free worker");
            // The only worker is busy: a call that arrived a budget ago gets none.
            let arrived = Instant::now().checked_sub(budget).expect("the clock runs");
            assert!(
                worker_within(&server.workers, arrived, budget)
                    .await
                    .is_none()
            );
            drop(held);
            assert!(
                worker_within(&server.workers, Instant::now(), budget)
                    .await
                    .is_some()
            );
        });
        let e = busy_error(
            "regex",
            Instant::now(),
            Duration::from_millis(1000),
            &crate::Limits::tool(),
            4,
        );
        assert!(
            e.text.starts_with("regex: execution timed out (1000ms)"),
            "{}",
            e.text
        );
        assert_eq!(e.detail.unwrap()["stopped_by"], "wall_time");
    }

    #[test]
    fn every_tool_is_declared_once_with_object_schemas() {
        let declared: Vec<String> = tools().iter().map(|t| t.name.to_string()).collect();
        let known: Vec<&str> = tool::Tool::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(declared, known);
        for t in tools() {
            assert_eq!(t.input_schema.get("type"), Some(&Value::from("object")));
            assert!(t.output_schema.is_some(), "{}", t.name);
            assert!(!t.description.as_deref().unwrap_or("").is_empty());
        }
    }

    #[test]
    fn every_flavor_enum_lists_each_release_and_only_names_that_parse() {
        let mut names: Vec<String> = crate::Flavor::all_versions()
            .flat_map(|f| [f.name().to_string(), f.versioned_name()])
            .collect();
        names.sort();
        names.dedup();
        let mut seen = 0;
        for t in tools() {
            let Some(e) = t.input_schema["properties"].get("flavor") else {
                continue;
            };
            let mut listed: Vec<String> = e["enum"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            for n in &listed {
                assert!(n.parse::<crate::Flavor>().is_ok(), "{}: {n}", t.name);
            }
            listed.sort();
            assert_eq!(listed, names, "{}", t.name);
            let said = e["description"].as_str().unwrap_or("");
            for f in crate::Flavor::all_versions() {
                assert_eq!(
                    said.contains(&f.versioned_name()) && f.end_of_life().is_some(),
                    f.end_of_life().is_some(),
                    "{}: {f} past its end of life is said so in {said:?}",
                    t.name
                );
            }
            for plain in [crate::Flavor::PYTHON, crate::Flavor::JS] {
                let meant = format!("{} = {}", plain.name(), plain.versioned_name());
                assert!(said.contains(&meant), "{}: {meant} in {said:?}", t.name);
            }
            seen += 1;
        }
        assert_eq!(seen, 2);
    }
}

/// The answer to a call that found no free worker within its time budget: the timed-out text
/// of the agent tool, with what kept it waiting.
fn busy_error(
    name: &str,
    arrived: Instant,
    budget: Duration,
    limits: &crate::Limits,
    workers: usize,
) -> tool::ToolError {
    let detail = tool::StopDetail {
        stopped_by: tool::StopReason::WallTime,
        elapsed_ms: arrived.elapsed().as_millis(),
        budget_ms: budget.as_millis(),
        step_budget: limits.backtrack_limit,
    };
    tool::ToolError {
        detail: serde_json::to_value(detail).ok().map(Box::new),
        ..tool::ToolError::new(format!(
            "{name}: execution timed out ({}ms): all {workers} workers of this server were busy with other calls",
            budget.as_millis()
        ))
        .with_kind(crate::ErrorKind::TimedOut)
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        // The budget runs from when the request line was read, not from now: under a flood
        // the SDK's dispatch queue sits between the two.
        let arrived = context
            .extensions
            .get::<stdio::Arrived>()
            .map_or_else(Instant::now, |a| a.0);
        let name = request.name.to_string();
        let args = Value::Object(request.arguments.unwrap_or_default());
        let limits = crate::Limits::tool();
        let budget = limits.time_budget.unwrap_or(Duration::from_millis(1000));
        let outcome = match worker_within(&self.workers, arrived, budget).await {
            Some(permit) => {
                let cx = tool::CallContext {
                    arrived,
                    roots: Some(self.roots.clone()),
                    verifier: Some(Arc::new(crate::fleet::engines::EngineVerifier)),
                };
                tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    tool::call_in(&name, args, &cx)
                })
                .await
                .map_err(|e| McpError::internal_error(format!("tool task failed: {e}"), None))?
            }
            None => Err(busy_error(
                &name,
                arrived,
                budget,
                &limits,
                self.worker_count,
            )),
        };
        Ok(match outcome {
            Ok(v) => CallToolResult::structured(v).into(),
            Err(e) => {
                let mut result = CallToolResult::error(vec![ContentBlock::text(e.text.clone())]);
                // The error document every rxw error has (and what stopped a search), for
                // clients that read more than the text.
                result.structured_content = Some(e.document());
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
pub fn serve_stdio(server: RxwServer) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = rt.block_on(async {
        let (transport, writer) = stdio::transport(tokio::io::stdin(), tokio::io::stdout());
        let service = server.serve(transport).await?;
        service.waiting().await?;
        // Every reply queued before the end is written before the process exits.
        writer.await?;
        anyhow::Ok(())
    });
    // The client has gone: calls still running on the blocking pool have no one to answer.
    // Dropping the runtime would wait for them; the server must exit at once instead.
    rt.shutdown_background();
    served
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
    use rmcp::model::{GetExtensions, JsonRpcMessage};
    use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
    use rmcp::transport::Transport;
    use serde_json::Value;
    use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
    use tokio::sync::mpsc;

    /// JSON-RPC: the line is not JSON (or not UTF-8).
    pub const PARSE_ERROR: i64 = -32700;
    /// JSON-RPC: the value is not a valid request.
    pub const INVALID_REQUEST: i64 = -32600;
    /// JSON-RPC: the method's parameters are invalid.
    pub const INVALID_PARAMS: i64 = -32602;
    /// The longest request line read (1 MiB: the tools' own limits are far below it). A
    /// longer line is skipped to its end without being kept, and answered with
    /// [`INVALID_REQUEST`].
    pub const MAX_REQUEST_BYTES: usize = 1 << 20;

    /// When a request's line was read: carried in the request's extensions to the server, whose
    /// time budget for the call starts there.
    #[derive(Debug, Clone, Copy)]
    pub struct Arrived(pub std::time::Instant);

    /// How many decoded messages wait for the SDK's dispatch loop before the reader stops
    /// reading: enough for a fan-out of a few hundred calls to be read (and stamped) as it
    /// comes, while memory stays bounded (at most this many lines of [`MAX_REQUEST_BYTES`]).
    pub const QUEUED_MESSAGES: usize = 256;

    /// What [`read_line`] found.
    #[derive(Debug, PartialEq, Eq)]
    pub enum LineRead {
        /// The input ended.
        End,
        /// A line (in the buffer, with its newline when it had one).
        Line,
        /// A line longer than the limit: skipped to its end, not kept; its length.
        TooLong(usize),
    }

    /// Reads one line into `buf` (cleared first), keeping at most `max` bytes and the
    /// newline: a longer line is read to its end and thrown away as it comes, so memory stays
    /// bounded whatever a client sends.
    ///
    /// # Errors
    /// When reading fails.
    pub async fn read_line<R: tokio::io::AsyncBufRead + Unpin>(
        reader: &mut R,
        buf: &mut Vec<u8>,
        max: usize,
    ) -> std::io::Result<LineRead> {
        buf.clear();
        let mut seen = 0usize;
        let mut too_long = false;
        loop {
            let available = reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(match (seen, too_long) {
                    (0, _) => LineRead::End,
                    (n, true) => LineRead::TooLong(n),
                    _ => LineRead::Line,
                });
            }
            let (n, done) = match memchr::memchr(b'\n', available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            seen += n;
            if !too_long {
                if buf.len() + n > max + 1 {
                    too_long = true;
                    buf.clear();
                    buf.shrink_to(0);
                } else {
                    buf.extend_from_slice(&available[..n]);
                }
            }
            reader.consume(n);
            if done {
                return Ok(if too_long {
                    LineRead::TooLong(seen)
                } else {
                    LineRead::Line
                });
            }
        }
    }

    /// The reply to a request line over [`MAX_REQUEST_BYTES`] (its id cannot be known).
    pub fn too_long_reply(len: usize) -> Value {
        error_reply(
            Value::Null,
            INVALID_REQUEST,
            "Invalid Request",
            format!(
                "the request line is {len} bytes or more, over the limit of {MAX_REQUEST_BYTES} bytes; it was not read"
            ),
        )
    }

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

    /// A JSON-RPC error response: `{"jsonrpc":"2.0","id",…,"error":{code,message,data:{detail}}}`.
    #[derive(serde::Serialize)]
    struct ErrorReply<'a> {
        jsonrpc: &'static str,
        id: Value,
        error: RpcError<'a>,
    }

    /// JSON-RPC's error, whose `data` is rxw's one error document
    /// (`{"error": {"kind", "message", "span"}}`, as `--json` and the tools' errors have it).
    #[derive(serde::Serialize)]
    struct RpcError<'a> {
        code: i64,
        message: &'a str,
        data: crate::wire::ErrorDoc<'a>,
    }

    fn error_reply(id: Value, code: i64, message: &str, detail: String) -> Value {
        let kind = match code {
            PARSE_ERROR => "request_unreadable",
            INVALID_REQUEST => "request_invalid",
            _ => "params_invalid",
        };
        let reply = ErrorReply {
            jsonrpc: "2.0",
            id,
            error: RpcError {
                code,
                message,
                data: crate::wire::ErrorDoc {
                    error: crate::wire::ErrorBody {
                        kind,
                        message: &detail,
                        span: None,
                    },
                },
            },
        };
        serde_json::to_value(reply).expect("a JSON-RPC error serializes")
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
        // An id must come back exactly as it was sent: a string, or an integer a JSON-RPC
        // peer can hold (64 bits). Any other number (`1.5`, `1e3`, an integer past 64 bits,
        // which would come back rounded) is refused rather than echoed altered.
        if let Some(n) = value.get("id").and_then(Value::as_number)
            && !n.is_i64()
        {
            return Decoded::Reply(error_reply(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request",
                format!(
                    "the id {n} is not a string or an integer within 64 bits, so it could not be sent back exactly"
                ),
            ));
        }
        let id = value
            .get("id")
            .filter(|id| id.is_string() || id.is_number())
            .cloned();
        let method = value.get("method").and_then(Value::as_str);
        if value.is_object() && value.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            // A notification gets no reply, even an invalid one.
            if value.get("id").is_none() && method.is_some() {
                return Decoded::Skip;
            }
            return Decoded::Reply(error_reply(
                id.unwrap_or(Value::Null),
                INVALID_REQUEST,
                "Invalid Request",
                "a JSON-RPC 2.0 message has \"jsonrpc\": \"2.0\"".to_string(),
            ));
        }
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
        let (in_tx, in_rx) = mpsc::channel(QUEUED_MESSAGES);
        let replies = out_tx.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(input);
            let mut line = Vec::new();
            loop {
                let read = read_line(&mut reader, &mut line, MAX_REQUEST_BYTES).await;
                let arrived = Arrived(std::time::Instant::now());
                match read {
                    Ok(LineRead::End) | Err(_) => break,
                    Ok(LineRead::TooLong(len)) => {
                        if replies.send(too_long_reply(len).to_string()).is_err() {
                            break;
                        }
                        continue;
                    }
                    Ok(LineRead::Line) => {}
                }
                let body = line.strip_suffix(b"\n").unwrap_or(&line);
                match decode(body) {
                    Decoded::Message(mut m) => {
                        if let JsonRpcMessage::Request(r) = m.as_mut() {
                            r.request.extensions_mut().insert(arrived);
                        }
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
                v["error"]["data"]["error"]["message"]
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

        /// Regression: a request without `"jsonrpc"` was answered -32602 (Invalid params).
        #[test]
        fn a_message_without_jsonrpc_2_is_an_invalid_request() {
            let v = reply(br#"{"id":5,"method":"tools/list"}"#);
            assert_eq!(v["error"]["code"], INVALID_REQUEST);
            assert_eq!(v["id"], 5);
            let v = reply(br#"{"jsonrpc":"1.0","id":"x","method":"tools/list"}"#);
            assert_eq!(v["error"]["code"], INVALID_REQUEST);
            assert_eq!(v["id"], "x");
            // A notification gets no reply, valid or not.
            assert!(matches!(
                decode(br#"{"method":"notifications/initialized"}"#),
                Decoded::Skip
            ));
        }

        /// Regression: the id 123456789012345678901234567890 came back as
        /// 1.2345678901234568e+29. An id that cannot come back exactly is refused.
        #[test]
        fn an_id_that_cannot_round_trip_is_refused_not_rounded() {
            for id in [
                "123456789012345678901234567890",
                "1.5",
                "1e3",
                "18446744073709551615",
            ] {
                let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
                let v = reply(line.as_bytes());
                assert_eq!(v["error"]["code"], INVALID_REQUEST, "{id}");
                assert_eq!(v["id"], Value::Null, "{id}");
                let detail = v["error"]["data"]["error"]["message"].as_str().unwrap();
                assert!(detail.contains("64 bits"), "{id}: {detail}");
            }
            // The largest 64-bit ids and strings are messages.
            for id in [
                "9223372036854775807",
                "-9223372036854775808",
                "\"123456789012345678901234567890\"",
            ] {
                let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
                assert!(
                    matches!(decode(line.as_bytes()), Decoded::Message(_)),
                    "{id}"
                );
            }
        }

        /// Regression: a 100 MB request line was held whole (800 MB with its parse). A line
        /// over the limit is skipped as it comes and answered; the next line is read.
        #[test]
        fn a_line_over_the_limit_is_skipped_not_kept() {
            let rt = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            rt.block_on(async {
                let mut input = Vec::new();
                input.extend(std::iter::repeat_n(b'x', 5000));
                input.extend_from_slice(b"\nshort\n");
                input.extend(std::iter::repeat_n(b'y', 300));
                let mut reader = BufReader::with_capacity(64, &input[..]);
                let mut line = Vec::new();
                let read = read_line(&mut reader, &mut line, 1000).await.unwrap();
                assert_eq!(read, LineRead::TooLong(5001));
                assert!(line.capacity() <= 1001 + 64, "{}", line.capacity());
                assert_eq!(
                    read_line(&mut reader, &mut line, 1000).await.unwrap(),
                    LineRead::Line
                );
                assert_eq!(line, b"short\n");
                // The last line, without a newline, within the limit.
                assert_eq!(
                    read_line(&mut reader, &mut line, 1000).await.unwrap(),
                    LineRead::Line
                );
                assert_eq!(line.len(), 300);
                assert_eq!(
                    read_line(&mut reader, &mut line, 1000).await.unwrap(),
                    LineRead::End
                );
            });
            let v = too_long_reply(5001);
            assert_eq!(v["error"]["code"], INVALID_REQUEST);
            assert_eq!(v["id"], Value::Null);
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
