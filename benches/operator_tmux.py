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
6. Live follow (`--live SECONDS`, default 15; 0 skips it): a writer appends a CLAIM line every
   100 ms while `rxw -f -e PATTERN` shows the Matches tab (`--live-pattern`, default
   `\[CLAIM\s+\w+\]`, whose `\s+` can cross lines): for each append, the time until the
   status shows the grown count settled (no "counting"), and whether the count on screen ever
   went back. Then, with the writer still going, the Lens tab (Alt-9, key `verb`): `n` / `p`
   alternately, key to the status message naming the new hit. The appended lines stay in the
   log.

7. Follow with the Lens tab shown (`--only-follow-lens`, run alone): `rxw -f -e CLAIM LOG` (a
   log over 64 MiB is read in pages, which grow in place), the Lens tab (Alt-9) shown and its
   first scan done; then APPENDS times a CLAIM line with a fresh marker is appended: the time
   until the line is on screen, the count has grown by one and the Lens header's hit total has
   grown and says it is done (no "scanning").

`--bytes N` makes the log itself (benches/gen_log.py, seed 1) in a temporary directory instead
of `--log`.

Polling `capture-pane` adds one to a few milliseconds to each figure. Only the standard library.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True).stdout


def screen(session):
    return tmux("capture-pane", "-p", "-t", session)


def wait(session, ready, timeout=120.0, poll=0.0005):
    """Polls the screen until `ready`. Each poll runs tmux, so a fine `poll` (for a key's
    latency) takes a core of its own: waits of seconds poll every few tens of ms, so that
    the bench does not compete with what it measures on a small machine."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = screen(session)
        if ready(s):
            return s
        time.sleep(poll)
    raise TimeoutError(f"timed out; screen:\n{screen(session)}")


def appended_probes(log, appends, before):
    """Appends `appends` CLAIM probe lines to the followed `log`, one at a time: yields for
    each its marker, the match count wanted once it is counted (`before` plus the probes so
    far) and the monotonic time it was written; waits 0.2 s after each is seen."""
    for i in range(appends):
        marker = f"probe{os.getpid()}x{i}"
        line = f"2026-11-30T12:00:{i:02d}Z [super] [CLAIM {marker}] follow probe\n"
        t = time.monotonic()
        with open(log, "a") as f:
            f.write(line)
        yield marker, before + i + 1, t
        time.sleep(0.2)


COUNT = re.compile(r" (\d[\d,]*)\+? matches ")
ROW = re.compile(r"[^0-9]1  \d+:\d+\s+CLAIM")
WITH = re.compile(r"filter: [\d,]+ with a match")
# The input title names one filter with its count; the status bar names the combined ones.
WITHOUT = re.compile(r"filter: [\d,]+ without a match|filters: without a match")


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


class Appender(threading.Thread):
    """Appends a CLAIM line to `log` every `period` seconds until stopped; `times[i]` is when
    line i was written."""

    def __init__(self, log, period=0.1):
        super().__init__(daemon=True)
        self.log, self.period, self.times = log, period, []
        self.halt = threading.Event()

    def run(self):
        start = time.monotonic()
        with open(self.log, "a") as f:
            while not self.halt.is_set():
                i = len(self.times)
                f.write(f"2026-11-30T12:01:{i % 60:02d}Z [super] [CLAIM live{os.getpid()}x{i}] "
                        "live probe\n")
                f.flush()
                self.times.append(time.monotonic())
                # On a fixed schedule, whatever the write cost.
                self.halt.wait(max(0.0, start + (i + 1) * self.period - time.monotonic()))


STATUS_COUNT = re.compile(r"^ (\d[\d,]*)(\+?) match", re.M)
HIT = re.compile(r"verb: hit (\d+) of")


def live(args, state):
    """Step 6: the count and the lens while the log grows by a line every 100 ms."""
    quoted = "'" + args.live_pattern.replace("'", "'\\''") + "'"
    session, _ = start(args.binary, args.log, state, follow=True, pattern=quoted)
    writer = None
    try:
        s = wait(session, settled, timeout=600)
        time.sleep(0.5)
        before = count(wait(session, settled))
        writer = Appender(args.log)
        seen = []  # (time, count, settled)
        writer.start()
        end = time.monotonic() + args.live
        while time.monotonic() < end:
            s = screen(session)
            m = STATUS_COUNT.search(s)
            if m:
                seen.append((time.monotonic(), int(m.group(1).replace(",", "")), settled(s)))
            time.sleep(0.002)
        appended = list(writer.times)
        settle, missed = [], 0
        for i, t in enumerate(appended):
            want = before + i + 1
            at = next((ts for ts, n, ok in seen if ts >= t and ok and n >= want), None)
            if at is None:
                missed += 1
            else:
                settle.append(at - t)
        back = sum(1 for a, b in zip(seen, seen[1:]) if b[1] < a[1])
        low = min((n for _, n, _ in seen), default=before)
        never = f"; {missed} appends never seen settled" if missed else ""
        if settle:
            print(f"live follow of {args.live_pattern}, a CLAIM line every 100 ms for "
                  f"{args.live:.0f} s: append -> "
                  f"grown count settled on screen: {fmt(settle)}{never}; the count went back "
                  f"{back} times (lowest {low:,}, before {before:,})")
        else:
            print(f"live follow: the count never settled in {args.live:.0f} s "
                  f"({len(appended)} appends; went back {back} times, lowest {low:,})")

        # The Lens tab with the writer still going: n / p on the `verb` key.
        tmux("send-keys", "-t", session, "M-9")
        wait(session, lambda s: "verb" in s, timeout=60)
        tmux("send-keys", "-t", session, "Home")
        time.sleep(0.3)
        for _ in range(2):
            tmux("send-keys", "-t", session, "j")
            time.sleep(0.2)
        # Wait until the lens's counts are in (its first scan of the whole log).
        deadline = time.monotonic() + 120
        while "scanning" in screen(session) and time.monotonic() < deadline:
            time.sleep(0.05)
        tmux("send-keys", "-t", session, "n")
        wait(session, lambda s: HIT.search(s) is not None, timeout=60)
        lat = []
        for i in range(args.keys):
            key, want = ("n", 2) if i % 2 == 0 else ("p", 1)
            t = time.monotonic()
            tmux("send-keys", "-t", session, key)
            wait(session, lambda s: (m := HIT.search(s)) is not None and int(m.group(1)) == want,
                 timeout=30)
            lat.append(time.monotonic() - t)
            time.sleep(0.05)
        print(f"live follow, Lens tab (verb): n / p -> the hit's message on screen: {fmt(lat)}")
    finally:
        if writer:
            writer.halt.set()
            writer.join()
        tmux("kill-session", "-t", session)


LENS_TOTAL = re.compile(r"([\d,]+) hits · Space")


def lens_total(s):
    m = LENS_TOTAL.search(s)
    return int(m.group(1).replace(",", "")) if m else None


def follow_lens(args, state):
    """Step 7: an appended line on screen, counted and in the Lens, with the Lens tab shown."""
    session, _ = start(args.binary, args.log, state, follow=True)
    try:
        wait(session, settled, timeout=600)
        tmux("send-keys", "-t", session, "M-9")
        s = wait(session, lambda s: settled(s) and lens_total(s) is not None, timeout=600)
        time.sleep(0.5)
        s = wait(session, lambda s: settled(s) and lens_total(s) is not None)
        before, hits = count(s), lens_total(s)
        lat = []
        for marker, want, t in appended_probes(args.log, args.appends, before):
            s = wait(session, lambda s: marker in s and count(s) == want and settled(s)
                     and (lens_total(s) or 0) > hits, timeout=30)
            lat.append(time.monotonic() - t)
            hits = lens_total(s)
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
        print(f"follow, Lens tab shown: appended line -> on screen, counted and in the lens: "
              f"{fmt(lat)} (load average {load})")
    finally:
        tmux("kill-session", "-t", session)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log")
    ap.add_argument("--bytes", type=int, help="make a log of this size with gen_log.py")
    ap.add_argument("--keys", type=int, default=20)
    ap.add_argument("--appends", type=int, default=10)
    ap.add_argument("--typed", default="RESULT")
    ap.add_argument("--live", type=float, default=15.0, help="seconds of step 6 (0 skips it)")
    ap.add_argument("--only-live", action="store_true", help="run step 6 alone")
    ap.add_argument("--live-pattern", default=r"\[CLAIM\s+\w+\]")
    ap.add_argument("--only-follow-lens", action="store_true", help="run step 7 alone")
    ap.add_argument("binary")
    args = ap.parse_args()
    made = None
    if args.bytes:
        made = tempfile.TemporaryDirectory()
        args.log = os.path.join(made.name, "agent.log")
        gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen_log.py")
        with open(args.log, "w") as f:
            subprocess.run([sys.executable, gen, "--bytes", str(args.bytes), "--seed", "1"],
                           stdout=f, check=True)
    if not args.log:
        ap.error("give --log FILE or --bytes N")
    if args.only_follow_lens:
        with tempfile.TemporaryDirectory() as state:
            follow_lens(args, state)
        return
    if args.only_live:
        with tempfile.TemporaryDirectory() as state:
            live(args, state)
        return
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
            for marker, want, t in appended_probes(args.log, args.appends, before):
                wait(session, lambda s: marker in s and count(s) == want, timeout=30)
                lat.append(time.monotonic() - t)
            print(f"follow: appended line -> on screen and counted: {fmt(lat)}")
        finally:
            tmux("kill-session", "-t", session)

        if args.live > 0:
            live(args, state)


if __name__ == "__main__":
    main()
