#!/usr/bin/env python3
"""MCP under load: N concurrent pathological calls to `rxw mcp`, each timed from the moment
its request line is written to the moment its reply is read.

    python3 benches/mcp_load.py target/release/rxw [--calls 200] [--runs 3] [--input-bytes 64000]

Every call is the ReDoS case of the client test (`(a|aa)+\\1b` on N bytes of `a`), which only
the server's time budget stops. All request lines are written at once, on one connection, as
an agent that fans out would. Prints, per run, the slowest and the median answer and how many
calls were answered as timed out; the promise is that every call is answered within 1.1 s.
"""
import argparse
import json
import statistics
import subprocess
import sys
import threading
import time


def run_once(rxw, calls, input_bytes):
    proc = subprocess.Popen(
        [rxw, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=0,
    )
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "mcp_load", "version": "1"},
        },
    }
    proc.stdin.write((json.dumps(init) + "\n").encode())
    proc.stdout.readline()
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    lines = []
    for i in range(calls):
        req = {
            "jsonrpc": "2.0",
            "id": i + 1,
            "method": "tools/call",
            "params": {
                "name": "regex",
                "arguments": {"action": "find", "pattern": r"(a|aa)+\1b", "input": "a" * input_bytes},
            },
        }
        lines.append((json.dumps(req) + "\n").encode())
    sent = {}
    answered = {}
    timed_out = 0
    lock = threading.Lock()

    def read():
        nonlocal timed_out
        while len(answered) < calls:
            line = proc.stdout.readline()
            if not line:
                break
            now = time.monotonic()
            msg = json.loads(line)
            with lock:
                answered[msg.get("id")] = now
                text = json.dumps(msg.get("result", {}))
                if "timed out" in text:
                    timed_out += 1

    reader = threading.Thread(target=read)
    reader.start()
    for i, line in enumerate(lines):
        sent[i + 1] = time.monotonic()
        proc.stdin.write(line)
    reader.join(timeout=60)
    proc.stdin.close()
    proc.wait(timeout=10)
    waits = [answered[i] - sent[i] for i in sent if i in answered]
    return {
        "answered": len(waits),
        "slowest": max(waits) if waits else float("nan"),
        "median": statistics.median(waits) if waits else float("nan"),
        "timed_out": timed_out,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rxw")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--input-bytes", type=int, default=64_000)
    a = ap.parse_args()
    worst = 0.0
    for run in range(a.runs):
        r = run_once(a.rxw, a.calls, a.input_bytes)
        worst = max(worst, r["slowest"])
        print(
            f"run {run + 1}: {r['answered']}/{a.calls} answered, slowest {r['slowest']:.3f} s, "
            f"median {r['median']:.3f} s, {r['timed_out']} timed out"
        )
    print(f"slowest over {a.runs} runs: {worst:.3f} s (promise: 1.1 s)")
    return 0 if worst < 1.1 else 1


if __name__ == "__main__":
    sys.exit(main())
