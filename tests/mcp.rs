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
