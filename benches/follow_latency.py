#!/usr/bin/env python3
"""Follow latency of `rxw find --follow` over a merged set of logs.

Usage: benches/follow_latency.py [N] [BURST]   (RXW=BINARY to run a binary already built;
default target/release/rxw)

Two logs of 10,000 stamped lines each are followed merged. Then, one record at a time, a line
is appended to one log or the other (alternately) and the time until rxw prints its match is
measured: N records, the median, 95th percentile and worst. Then BURST records are appended
to both logs at once and the time until the last is printed is measured (throughput). One
record in ten of the single appends is stamped before what was shown, to exercise the
late-record rule; the count rxw says on standard error is checked.

With tmux installed, the workbench is measured too: `rxw -f a.log b.log -e PATTERN` in a
120x40 tmux session, TUI_N records appended one at a time, the time from the append until the
record's line is on screen (polling `capture-pane`, which adds a millisecond or a few).
"""

import os
import subprocess
import sys
import tempfile
import threading
import time
import queue

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
BURST = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
RXW = os.environ.get("RXW", os.path.join(os.path.dirname(__file__), "..", "target", "release", "rxw"))


def stamp(second):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1_790_000_000 + second)) + "Z"


def reader(stream, q):
    for line in iter(stream.readline, ""):
        q.put((time.perf_counter(), line.rstrip("\n")))
    q.put((time.perf_counter(), None))


def drain(q):
    lines = []
    while not q.empty():
        _, line = q.get()
        if line:
            lines.append(line)
    return lines


def two_logs(d):
    """Two logs of 10,000 stamped lines each (no match yet), in folder d; their paths."""
    logs = [os.path.join(d, "a.log"), os.path.join(d, "b.log")]
    for k, path in enumerate(logs):
        with open(path, "w") as f:
            for i in range(10_000):
                f.write(f"{stamp(i)} agent-{k}: step {i} [ACK 0{k}{i:x}]\n")
    return logs


def main():
    with tempfile.TemporaryDirectory() as d:
        logs = two_logs(d)
        p = subprocess.Popen(
            [RXW, "find", "--follow", r"CLAIM \w+", *logs],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
        )
        out, err = queue.Queue(), queue.Queue()
        threading.Thread(target=reader, args=(p.stdout, out), daemon=True).start()
        threading.Thread(target=reader, args=(p.stderr, err), daemon=True).start()
        while True:
            _, line = err.get(timeout=60)
            if line is None or "following" in line:
                break
        second = 20_000
        latencies = []
        late = 0
        for i in range(N):
            second += 1
            when = second
            if i % 10 == 9:
                when = second - 5  # stamped before what was shown: a late record
                late += 1
            with open(logs[i % 2], "a") as f:
                t0 = time.perf_counter()
                f.write(f"{stamp(when)} agent-{i % 2}: [CLAIM j{i:06d}] took\n")
            while True:
                t, line = out.get(timeout=30)
                if line is None:
                    sys.exit("rxw ended")
                if f"j{i:06d}" in line:
                    latencies.append(t - t0)
                    break
        time.sleep(0.3)
        notes = drain(err)
        said = [n for n in notes if "late record" in n]
        if not said or not said[-1].startswith(f"rxw: {late} late record"):
            sys.exit(f"the late-record count differs: {late} appended, rxw said {said}")
        t0 = time.perf_counter()
        with open(logs[0], "a") as fa, open(logs[1], "a") as fb:
            for i in range(BURST):
                second += 1
                (fa if i % 2 == 0 else fb).write(f"{stamp(second)} agent-{i % 2}: [CLAIM b{i:07d}] took\n")
        seen = 0
        last = t0
        while seen < BURST:
            t, line = out.get(timeout=60)
            if line is None:
                sys.exit("rxw ended")
            if " CLAIM b" in line:
                seen += 1
                last = t
        burst = last - t0
        time.sleep(0.3)
        burst_notes = [n for n in drain(err) if "late record" in n]
        p.kill()
        p.wait()
    latencies.sort()
    ms = lambda s: f"{s * 1000:.2f} ms"
    print(f"binary: {RXW}")
    print(f"append -> printed match over {N} records: median {ms(latencies[N // 2])}, "
          f"p95 {ms(latencies[int(N * 0.95) - 1])}, worst {ms(latencies[-1])}")
    print(f"burst of {BURST} records over both logs: all printed after {burst:.2f} s "
          f"({BURST / burst:,.0f} records/s)")
    print(f"late records among the single appends: {late}; rxw said: {said[-1]}")
    print(f"after the burst (each log written in buffered pieces, so one log's later records "
          f"can arrive before the other's earlier ones): "
          f"{burst_notes[-1] if burst_notes else 'no more late records'}")


def tui(n=50):
    import shutil
    if not shutil.which("tmux"):
        print("tmux not installed: the workbench is not measured")
        return
    with tempfile.TemporaryDirectory() as d:
        logs = two_logs(d)
        session = f"rxw-follow-bench-{os.getpid()}"
        cmd = f"NO_COLOR=1 XDG_CONFIG_HOME={d} {RXW} --fresh -f {logs[0]} {logs[1]} -e 'CLAIM \\w+'"
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", cmd], check=True)
        cap = lambda: subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout
        try:
            deadline = time.time() + 30
            while "following 2 logs merged" not in cap():
                if time.time() > deadline:
                    sys.exit("the workbench did not start following: " + cap())
                time.sleep(0.02)
            latencies = []
            second = 20_000
            for i in range(n):
                second += 1
                marker = f"t{i:05d}"
                with open(logs[i % 2], "a") as f:
                    t0 = time.perf_counter()
                    f.write(f"{stamp(second)} agent-{i % 2}: [CLAIM {marker}] took\n")
                while marker not in cap():
                    if time.perf_counter() - t0 > 30:
                        sys.exit(f"{marker} never shown: " + cap())
                latencies.append(time.perf_counter() - t0)
        finally:
            subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    latencies.sort()
    print(f"workbench (tmux): append -> line on screen over {n} records: median "
          f"{latencies[n // 2] * 1000:.1f} ms, p95 {latencies[int(n * 0.95) - 1] * 1000:.1f} ms, "
          f"worst {latencies[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
    tui(int(os.environ.get("TUI_N", "50")))
