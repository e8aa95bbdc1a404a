//! `rxw mcp` driven by a real MCP client: the official Python SDK (`pip install mcp`, done by
//! `.ci/run`). The checks live in `tests/mcp_client.py`; this test runs it against the binary.

use std::process::Command;

#[test]
fn mcp_server_serves_the_three_tools() {
    let probe = Command::new("python3").args(["-c", "import mcp"]).output();
    match probe {
        Ok(o) if o.status.success() => {}
        _ => {
            rxw_testkit::missing(
                "the Python MCP SDK",
                "the MCP client test is skipped (python3 -m pip install mcp)",
            );
            return;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.md"),
        "ACK: done\n[WO:7fce46e0] [from super] Audit — x\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("b.md"), "nothing here\n").unwrap();
    let bin = assert_cmd::cargo::cargo_bin("rxw");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_client.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&bin)
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "MCP client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("checks passed"), "{stdout}");
    eprintln!("{stdout}");
}

/// The names a `tools/list` reply lists.
fn tool_names(reply: &serde_json::Value) -> Vec<&str> {
    rxw_testkit::strings_of(&reply["result"]["tools"], "name")
}

/// Runs `rxw mcp`, writes these lines, closes its input and returns every reply by id
/// (`null` ids under the key "null"). The server ends at the end of its input, so a line it
/// never answers shows as a missing reply, not a hang.
fn raw_session(lines: &[&[u8]]) -> Vec<serde_json::Value> {
    raw_session_in(&[], lines)
}

/// `rxw mcp args…`, its input and output piped, its standard error to `stderr`.
fn start_server(args: &[&std::ffi::OsStr], stderr: std::process::Stdio) -> std::process::Child {
    Command::new(assert_cmd::cargo::cargo_bin("rxw"))
        .arg("mcp")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap()
}

/// As [`raw_session`], with more arguments to `rxw mcp` (`--root DIR`).
fn raw_session_in(args: &[&std::ffi::OsStr], lines: &[&[u8]]) -> Vec<serde_json::Value> {
    use std::io::Write;
    let mut child = start_server(args, std::process::Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    stdin.write_all(init).unwrap();
    stdin
        .write_all(b"\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .unwrap();
    for line in lines {
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn malformed_lines_get_json_rpc_errors_instead_of_silence() {
    let replies = raw_session(&[
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"",
        b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"\xff\xfe\"}",
        br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"regex","arguments":"x"}}"#,
        br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"regex","arguments":{"action":"test","pattern":"a","input":"a"}}}"#,
    ]);
    let parse_errors = replies
        .iter()
        .filter(|r| r["id"].is_null() && r["error"]["code"] == -32700)
        .count();
    assert_eq!(parse_errors, 2, "{replies:#?}");
    // JSON-RPC's error data is the same error document.
    let unreadable = replies
        .iter()
        .find(|r| r["error"]["code"] == -32700)
        .expect("a parse error");
    assert_eq!(
        unreadable["error"]["data"]["error"]["kind"], "request_unreadable",
        "{unreadable}"
    );
    let by_id = |id: i64| replies.iter().find(|r| r["id"] == id);
    assert_eq!(
        by_id(3).expect("a reply to id 3")["error"]["code"],
        -32602,
        "{replies:#?}"
    );
    // The server keeps serving after bad lines.
    assert_eq!(
        by_id(4).expect("a reply to id 4")["result"]["structuredContent"],
        serde_json::json!({"matched": true})
    );
}

#[test]
fn regex_redos_is_listed_and_returns_the_verdict_document() {
    let replies = raw_session(&[
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"regex_redos","arguments":{"pattern":"^(a|a)*$","flavor":"js"}}}"#,
        br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"regex_redos","arguments":{"pattern":"(a"}}}"#,
    ]);
    let by_id = |id: i64| replies.iter().find(|r| r["id"] == id).expect("a reply");
    let names = tool_names(by_id(1));
    assert!(names.contains(&"regex_redos"), "{names:?}");
    let doc = &by_id(2)["result"]["structuredContent"];
    assert_eq!(doc["verdict"], "exponential", "{doc}");
    assert_eq!(doc["attack"]["pump"], "a");
    assert_eq!(doc["span"], serde_json::json!({"start": 1, "end": 7}));
    for key in ["degree", "steps", "reason"] {
        assert!(doc.get(key).is_some(), "{key}: {doc}");
    }
    let failed = &by_id(3)["result"];
    assert_eq!(failed["isError"], true, "{failed}");
    // A tool's error carries the one error document of rxw (`--json`'s shape) beside the
    // agent tool's text.
    let error = &failed["structuredContent"]["error"];
    assert_eq!(error["kind"], "pattern_invalid", "{failed}");
    assert_eq!(
        error["span"],
        serde_json::json!({"start": 0, "end": 2}),
        "{failed}"
    );
    assert_eq!(error["message"], failed["content"][0]["text"], "{failed}");
}

#[test]
fn regex_parse_exports_with_the_verification_report_and_refuses_malformed_exports() {
    let replies = raw_session(&[
        // Vector on the regex crate (or VRL): fast enough for a generous budget.
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"regex_parse","arguments":{"export":{"target":"vector","presets":["ack","result"],"budget_ms":30000}}}}"#,
        // A budget too short for any engine: stopped, and said so.
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"regex_parse","arguments":{"export":{"target":"duckdb","presets":["ack"],"budget_ms":0}}}}"#,
        br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"regex_parse","arguments":{"export":{"target":"mysql"}}}}"#,
        br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"regex_parse","arguments":{"export":{"target":"loki","presets":"ack"}}}}"#,
        br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"regex_parse","arguments":{"export":{"target":"loki","budget_ms":"soon"}}}}"#,
        br#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"regex_parse","arguments":{}}}"#,
        br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"regex_parse","arguments":{"export":{"target":"loki","presets":["nope"]}}}}"#,
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"regex_parse","arguments":{"text":"[ACK:7fce46e0] [from 646]","export":{"target":"loki","presets":["ack"],"verify":false}}}}"#,
    ]);
    let by_id = |id: i64| replies.iter().find(|r| r["id"] == id).expect("a reply");
    let doc = &by_id(1)["result"]["structuredContent"]["export"];
    assert_eq!(doc["target"], "vector", "{doc}");
    assert!(
        doc["definitions"]
            .as_str()
            .unwrap()
            .contains("parse_regex_all!")
    );
    let verdicts: Vec<&str> = rxw_testkit::strings_of(&doc["verification"], "verdict");
    assert_eq!(verdicts, ["agree", "refused"], "{doc}");
    assert!(doc["verification"][0]["engine"].as_str().unwrap().len() > 3);
    let stopped = &by_id(2)["result"]["structuredContent"]["export"];
    assert_eq!(stopped["verification"], serde_json::json!([]), "{stopped}");
    assert!(
        stopped["not_verified"]
            .as_str()
            .unwrap()
            .contains("time budget"),
        "{stopped}"
    );
    for (id, want) in [
        (3, "unknown target"),
        (4, "invalid type"),
        (5, "invalid type"),
        (6, "give a text to parse"),
        (7, "nope"),
    ] {
        let r = &by_id(id)["result"];
        assert_eq!(r["isError"], true, "{id}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("regex_parse: ") && text.contains(want),
            "{id}: {text}"
        );
    }
    let both = &by_id(8)["result"]["structuredContent"];
    assert_eq!(both["hits"][0]["key"], "ack", "{both}");
    assert!(
        both["export"]["not_verified"]
            .as_str()
            .unwrap()
            .contains("verify: false")
    );
}

#[test]
fn registry_export_is_listed_and_returns_the_definitions_with_each_form() {
    let replies = raw_session(&[
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"registry_export","arguments":{"target":"duckdb","presets":["result","uuid"]}}}"#,
        br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"registry_export","arguments":{"target":"mysql"}}}"#,
    ]);
    let by_id = |id: i64| replies.iter().find(|r| r["id"] == id).expect("a reply");
    let names = tool_names(by_id(1));
    assert!(names.contains(&"registry_export"), "{names:?}");
    let doc = &by_id(2)["result"]["structuredContent"];
    assert_eq!(doc["target"], "duckdb", "{doc}");
    assert_eq!(doc["presets"][0]["form"], "rewrite", "{doc}");
    assert_eq!(doc["presets"][1]["form"], "exact", "{doc}");
    assert!(
        doc["definitions"]
            .as_str()
            .unwrap()
            .contains("CREATE OR REPLACE VIEW \"rxw_uuid\""),
        "{doc}"
    );
    let failed = &by_id(3)["result"];
    assert_eq!(failed["isError"], true, "{failed}");
}

/// Regression: `grep_audit` read any file the server could. `rxw mcp --root DIR` reads under
/// DIR only: a path outside is a warning row, never read.
#[test]
fn grep_audit_reads_only_under_the_roots() {
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let inside = root.path().join("a.md");
    std::fs::write(&inside, "root:x here").unwrap();
    let secret = outside.path().join("shadow");
    std::fs::write(&secret, "root:x:0:0").unwrap();
    let call = serde_json::json!({
        "jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "grep_audit", "arguments": {
            "paths": [inside, secret], "patterns": ["root"], "output": "json"}}
    })
    .to_string();
    let replies = raw_session_in(
        &["--root".as_ref(), root.path().as_os_str()],
        &[call.as_bytes()],
    );
    let reply = replies
        .iter()
        .find(|r| r["id"] == 5)
        .expect("a reply to id 5");
    let text = reply["result"]["structuredContent"]["text"]
        .as_str()
        .unwrap();
    let matrix: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(matrix["rows"][0]["matches"]["root"], true, "{matrix}");
    assert_eq!(
        matrix["rows"][1]["matches"]["root"],
        serde_json::Value::Null,
        "{matrix}"
    );
    assert!(
        matrix["rows"][1]["error"]
            .as_str()
            .unwrap()
            .contains("outside the server's roots"),
        "{matrix}"
    );
    // A root that is not a directory is an error before anything is served.
    let out = Command::new(assert_cmd::cargo::cargo_bin("rxw"))
        .args(["mcp", "--root"])
        .arg(root.path().join("nope"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("root "));
}

/// Regression: a 100 MB request line cost 800 MB. A line over the limit gets a JSON-RPC
/// error (id null) and the server goes on with the next line.
#[test]
fn an_oversized_request_line_is_answered_and_not_kept() {
    let mut big = br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"regex","arguments":{"action":"test","pattern":"a","input":""#.to_vec();
    big.extend(std::iter::repeat_n(b'a', 3 << 20));
    big.extend_from_slice(br#""}}}"#);
    let replies = raw_session(&[
        &big,
        br#"{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}"#,
    ]);
    let refused = replies
        .iter()
        .find(|r| r["id"].is_null() && r["error"]["code"] == -32600)
        .unwrap_or_else(|| panic!("{replies:#?}"));
    assert!(
        refused["error"]["data"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("over the limit of 1048576 bytes"),
        "{refused}"
    );
    assert!(replies.iter().all(|r| r["id"] != 8));
    assert!(
        replies
            .iter()
            .any(|r| r["id"] == 9 && r["result"]["tools"].is_array())
    );
}

/// Regression: five `regex_redos` calls on `((a{1000}){1000}){1000}$` held all four workers
/// for good (no answer after 240 s), a later trivial call was answered "busy", and after the
/// client closed its input the server never exited. Now every call is answered and the
/// server exits at once when its input closes, even with calls still running.
#[test]
fn pathological_redos_calls_are_answered_and_the_server_exits_when_its_input_closes() {
    use std::io::{BufRead, Write};
    use std::time::{Duration, Instant};
    let mut child = start_server(&[], std::process::Stdio::null());
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<serde_json::Value>();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(serde_json::from_str(&line).unwrap()).is_err() {
                break;
            }
        }
    });
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    writeln!(stdin, "{init}").unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    let hostile = r#"((a{1000}){1000}){1000}$"#;
    for id in 1..=4 {
        let call = serde_json::json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":"regex_redos","arguments":{"pattern":hostile,"flavor":"python"}}});
        writeln!(stdin, "{call}").unwrap();
    }
    stdin.flush().unwrap();
    let mut answered = std::collections::BTreeMap::new();
    let wait_for = |answered: &mut std::collections::BTreeMap<i64, serde_json::Value>,
                    want: i64| {
        let until = Instant::now() + Duration::from_secs(60);
        while !answered.contains_key(&want) {
            let left = until.saturating_duration_since(Instant::now());
            let v = rx
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to call {want}"));
            if let Some(id) = v["id"].as_i64() {
                answered.insert(id, v);
            }
        }
    };
    for id in 1..=4 {
        wait_for(&mut answered, id);
    }
    // The workers are free again: a trivial call runs.
    let call = serde_json::json!({"jsonrpc":"2.0","id":5,"method":"tools/call",
        "params":{"name":"regex","arguments":{"action":"test","pattern":"a","input":"a"}}});
    writeln!(stdin, "{call}").unwrap();
    stdin.flush().unwrap();
    wait_for(&mut answered, 5);
    let trivial = &answered[&5]["result"];
    assert_eq!(
        trivial["isError"],
        serde_json::Value::Bool(false),
        "{trivial}"
    );
    // Each hostile call got a verdict (or a stated error), not silence.
    for id in 1..=4 {
        let r = &answered[&id]["result"];
        assert!(
            r["structuredContent"].is_object() || r["isError"] == true,
            "{r}"
        );
    }
    // Calls in flight when the client goes away do not keep the server alive.
    for id in 6..=9 {
        let call = serde_json::json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":"regex_redos","arguments":{"pattern":hostile,"flavor":"python"}}});
        writeln!(stdin, "{call}").unwrap();
    }
    drop(stdin);
    let closed = Instant::now();
    let until = closed + Duration::from_secs(30);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            Instant::now() < until,
            "rxw mcp still runs 30 s after its input closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("exited {:?} after its input closed", closed.elapsed());
}
