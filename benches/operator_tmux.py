#!/usr/bin/env python3
"""Operator mode as a user sees it: the real binary in a real terminal (tmux, 200x60), on a log
of any size, timed until the new results are on screen.

    python3 benches/gen_log.py --bytes 1000000000 --seed 2 > big.log
    python3 benches/operator_tmux.py --log big.log --keys 20 target/release/rxw

Steps, one tmux session each:
1. `rxw --fresh -e CLAIM LOG`: the first frame (a count on screen), the full count (no
   "reading the file", "indexing" or "counting" left), then the process's resident memory
   (VmRSS, and its peak VmHWM) against the file's size.
2. Keys: the pattern `CLAIMZ` (no match) and Backspace to `CLAIM`, KEYS times: key to the
   first match row in the Matches list (the new pattern's highlights are drawn in the same
   frame); and Z to ` 0 matches ` (key to the new full count).
3. The filter: Ctrl-L until the input title says `with a match` and its first rows are drawn;
   Ctrl-L twice more turns it off (via "without a match").
4. Typing (`--typed WORD`, default RESULT): the workbench opens on WORD's first letter and,
   once its count is final, the rest is typed letter by letter without waiting for the full
   scans in between (each key cancels the scan the one before started): key to the new
   prefix's first match row on screen.
5. Follow (`rxw -f`): a line with a fresh marker is appended to the log; the time until the
   line is on screen and the count has grown by one. The appended lines stay in the log.

Polling `capture-pane` adds one to a few milliseconds to each figure. Only the standard library.
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


def screen(session):
    return tmux("capture-pane", "-p", "-t", session)


def wait(session, ready, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = screen(session)
        if ready(s):
            return s
        time.sleep(0.0005)
    raise TimeoutError(f"timed out; screen:\n{screen(session)}")


COUNT = re.compile(r" (\d[\d,]*)\+? matches ")
ROW = re.compile(r"[^0-9]1  \d+:\d+\s+CLAIM")
WITH = re.compile(r"filter: [\d,]+ with a match")
WITHOUT = re.compile(r"filter: [\d,]+ without a match")


def count(s):
    m = COUNT.search(s)
    return int(m.group(1).replace(",", "")) if m else None


def settled(s):
    return (" matches " in s and "counting" not in s and "reading the file" not in s
            and "indexing" not in s and "scanning" not in s)


def pid_of(session):
    pane = tmux("list-panes", "-t", session, "-F", "#{pane_pid}").strip()
    pid = int(pane)
    for _ in range(100):
        kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
        with open(f"/proc/{pid}/comm") as f:
            if f.read().strip().startswith("rxw"):
                return pid
        if kids.strip():
            pid = int(kids.split()[0])
        else:
            time.sleep(0.01)
    return pid


def memory(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                k, v = line.split(":")
                out[k] = int(v.split()[0]) * 1024
    return out


def fmt(xs):
    xs = [x * 1000 for x in xs]
    return f"median {statistics.median(xs):.1f} ms, worst {max(xs):.1f} ms (n={len(xs)})"


def start(binary, log, state, follow=False, pattern="CLAIM"):
    session = f"rxw-op-bench-{os.getpid()}-{int(time.monotonic() * 1000)}"
    flag = "-f " if follow else ""
    cmd = f"env XDG_STATE_HOME='{state}' '{binary}' --fresh {flag}-e {pattern} '{log}'"
    t0 = time.monotonic()
    tmux("-f", "/dev/null", "new-session", "-d", "-s", session, "-x", "200", "-y", "60", cmd)
    return session, t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--keys", type=int, default=20)
    ap.add_argument("--appends", type=int, default=10)
    ap.add_argument("--typed", default="RESULT")
    ap.add_argument("binary")
    args = ap.parse_args()
    size = os.path.getsize(args.log)
    print(f"== {args.binary} on {args.log}: {size:,} bytes")
    with tempfile.TemporaryDirectory() as state:
        session, t0 = start(args.binary, args.log, state)
        try:
            wait(session, lambda s: " matches " in s)
            first = time.monotonic() - t0
            s = wait(session, settled, timeout=600)
            full = time.monotonic() - t0
            time.sleep(0.5)
            mem = memory(pid_of(session))
            print(f"first frame {first * 1000:.0f} ms; full count {full * 1000:.0f} ms "
                  f"({count(s):,} matches)")
            rss, hwm = mem["VmRSS"], mem["VmHWM"]
            print(f"memory after the full count: RSS {rss / 1e6:.0f} MB ({rss / size:.3f}x the "
                  f"file), peak {hwm / 1e6:.0f} MB; budget 1.1x + 50 MB = "
                  f"{(1.1 * size + 50 * 2**20) / 1e6:.0f} MB")

            rows, zeros = [], []
            for _ in range(args.keys):
                t = time.monotonic()
                tmux("send-keys", "-t", session, "-l", "Z")
                wait(session, lambda s: "CLAIMZ" in s and " 0 matches " in s)
                zeros.append(time.monotonic() - t)
                t = time.monotonic()
                tmux("send-keys", "-t", session, "BSpace")
                wait(session, lambda s: "CLAIMZ" not in s and ROW.search(s) is not None)
                rows.append(time.monotonic() - t)
                wait(session, settled, timeout=600)
            print(f"key -> first match row and highlights on screen: {fmt(rows)}")
            print(f"key -> ' 0 matches ' (full count of a pattern with none): {fmt(zeros)}")

            toggles = []
            for _ in range(5):
                t = time.monotonic()
                tmux("send-keys", "-t", session, "C-l")
                wait(session, lambda s: WITH.search(s) and "scanning" not in s
                     and ROW.search(s) is not None)
                toggles.append(time.monotonic() - t)
                tmux("send-keys", "-t", session, "C-l")
                wait(session, lambda s: WITHOUT.search(s))
                tmux("send-keys", "-t", session, "C-l")
                wait(session, lambda s: "filter:" not in s)
            print(f"filter toggle -> the matching lines on screen: {fmt(toggles)}")
        finally:
            tmux("kill-session", "-t", session)

        session, _ = start(args.binary, args.log, state, pattern=args.typed[0])
        try:
            wait(session, settled, timeout=600)
            typed = []
            for i in range(1, len(args.typed)):
                prefix = args.typed[: i + 1]
                row = re.compile(r"[^0-9]1  \d+:\d+\s+" + re.escape(prefix) + r"\s")
                t = time.monotonic()
                tmux("send-keys", "-t", session, "-l", args.typed[i])
                wait(session, lambda s: row.search(s) is not None)
                typed.append(time.monotonic() - t)
            print(f"typing {args.typed!r} letter by letter -> each prefix's first match row: "
                  f"{fmt(typed)} ({', '.join(f'{x * 1000:.1f}' for x in typed)} ms)")
        finally:
            tmux("kill-session", "-t", session)

        session, t0 = start(args.binary, args.log, state, follow=True)
        try:
            s = wait(session, settled, timeout=600)
            time.sleep(0.5)
            s = wait(session, settled)
            before = count(s)
            lat = []
            for i in range(args.appends):
                marker = f"probe{os.getpid()}x{i}"
                line = f"2026-11-30T12:00:{i:02d}Z [super] [CLAIM {marker}] follow probe\n"
                t = time.monotonic()
                with open(args.log, "a") as f:
                    f.write(line)
                want = before + i + 1
                wait(session, lambda s: marker in s and count(s) == want, timeout=30)
                lat.append(time.monotonic() - t)
                time.sleep(0.2)
            print(f"follow: appended line -> on screen and counted: {fmt(lat)}")
        finally:
            tmux("kill-session", "-t", session)


if __name__ == "__main__":
    main()
