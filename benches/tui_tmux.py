#!/usr/bin/env python3
"""Times rxw binaries in a real terminal (tmux, 200x60), alternating them round by round so
they share the machine's load: the same steps as `RXW_BENCH_TMUX=1 cargo bench --bench tui`.

    python3 benches/gen_log.py --bytes 100000000 --seed 1 > /tmp/agent.log
    python3 benches/tui_tmux.py --log /tmp/agent.log --rounds 5 old=/path/rxw-old new=target/release/rxw

Per binary and round: `rxw --fresh -e CLAIM LOG`; the first frame (a count on screen); then,
once the count is final, a typed `Z` until `CLAIMZ` shows (key to screen) and until ` 0 matches `
shows (key to full count); then Backspace until the Matches list's first row shows a CLAIM
(key to the first match row). Polling `capture-pane` adds a few milliseconds to each figure.
Only the standard library.
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time


def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True).stdout


def wait(session, ready, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready(tmux("capture-pane", "-p", "-t", session)):
            return True
        time.sleep(0.001)
    return False


ROW = re.compile(r"[^0-9]1  \d+:\d+\s+CLAIM")


def run_once(binary, log, state):
    session = f"rxw-tmux-bench-{os.getpid()}"
    cmd = f"env XDG_STATE_HOME='{state}' '{binary}' --fresh -e CLAIM '{log}'"
    t0 = time.monotonic()
    tmux("-f", "/dev/null", "new-session", "-d", "-s", session, "-x", "200", "-y", "60", cmd)
    try:
        ok = wait(session, lambda s: " matches " in s)
        first = time.monotonic() - t0
        wait(session, lambda s: " matches " in s and "counting" not in s
             and "reading the file" not in s)
        t1 = time.monotonic()
        tmux("send-keys", "-t", session, "-l", "Z")
        ok &= wait(session, lambda s: "CLAIMZ" in s)
        key = time.monotonic() - t1
        ok &= wait(session, lambda s: " 0 matches " in s)
        full = time.monotonic() - t1
        t2 = time.monotonic()
        tmux("send-keys", "-t", session, "BSpace")
        ok &= wait(session, lambda s: ROW.search(s) is not None)
        row = time.monotonic() - t2
    finally:
        tmux("kill-session", "-t", session)
    return (first, key, full, row) if ok else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("binaries", nargs="+", help="NAME=PATH")
    args = ap.parse_args()
    named = [b.split("=", 1) for b in args.binaries]
    results = {name: [] for name, _ in named}
    with tempfile.TemporaryDirectory() as state:
        for _ in range(args.rounds):
            for name, path in named:
                r = run_once(path, args.log, state)
                if r:
                    results[name].append(r)
    print("binary  runs  first frame  key to screen  key to full count  key to first match row"
          "   (median ms [min-max])")
    for name, runs in results.items():
        cols = []
        for i in range(4):
            xs = [r[i] * 1000 for r in runs]
            if xs:
                cols.append(f"{statistics.median(xs):.0f} [{min(xs):.0f}-{max(xs):.0f}]")
            else:
                cols.append("-")
        print(f"{name:<7} {len(runs):>4}  " + "  ".join(f"{c:>16}" for c in cols))


if __name__ == "__main__":
    main()
