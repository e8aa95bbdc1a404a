//! `rxw mcp` driven by a real MCP client: the official Python SDK (`pip install mcp`, done by
//! `.ci/run`). The checks live in `tests/mcp_client.py`; this test runs it against the binary.

use std::process::Command;

#[test]
fn mcp_server_serves_the_three_tools() {
    let probe = Command::new("python3").args(["-c", "import mcp"]).output();
    match probe {
        Ok(o) if o.status.success() => {}
        _ => {
            eprintln!(
                "notice: the Python MCP SDK is not installed (pip install mcp); skipping the MCP client test"
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

/// Runs `rxw mcp`, writes these lines, closes its input and returns every reply by id
/// (`null` ids under the key "null"). The server ends at the end of its input, so a line it
/// never answers shows as a missing reply, not a hang.
fn raw_session(lines: &[&[u8]]) -> Vec<serde_json::Value> {
    use std::io::Write;
    let bin = assert_cmd::cargo::cargo_bin("rxw");
    let mut child = Command::new(bin)
        .arg("mcp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
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
    let names: Vec<&str> = by_id(1)["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
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
}
