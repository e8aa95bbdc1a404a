#!/usr/bin/env python3
"""Inputs larger than memory in the workbench: the real binary in tmux (200x60) on a merged
set of logs (some gzipped) and on one large log, both read in pages.

    python3 benches/paged_tmux.py --merged 8x250000000 --big 6000000000 target/release/rxw

The data is generated here, in a temporary directory next to --dir (default /tmp), and
deleted at the end: a base log from `benches/gen_log.py --lifecycles` (--base bytes), then
each log is the base repeated with its stamps moved a year on each time (so a log runs
forward in time and the logs interleave when merged), written streaming to disk. `--gz K`
of the merged logs are gzipped (gzip -1).

For each input, one tmux session: `rxw --fresh -e R FILES`:
- first frame: until a count is on screen;
- typing: `ESULT` letter by letter while the full scan and the indexing still run, key to the
  new prefix's first match row in the Matches list;
- full count: until no "indexing" or "counting" is left;
- memory: the process's resident memory (VmRSS) after the full count and its peak (VmHWM),
  read from /proc;
- for the large log, then the Lens tab and the Jobs tab, each until its pass is done, and
  the memory after each.
The merged view's screen is saved (--screen FILE) as text. Then `rxw jobs --json` on the
merged logs is checked row by row against a reference: the logs concatenated and sorted here
by their leading stamps (stable, ties in the order the logs are named, unstamped lines kept
under the stamped line before them), read as one log (`--no-jobs-check` skips it).

Only the standard library.
"""
import argparse
import gzip
import heapq
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from operator_tmux import count, fmt, memory, pid_of, screen, settled, tmux, wait  # noqa: E402


def base_log(path, size, seed):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(path, "wb") as out:
        subprocess.run([sys.executable, os.path.join(here, "gen_log.py"), "--bytes", str(size),
                        "--seed", str(seed), "--lifecycles"], stdout=out, check=True)


def grow(base, path, size, first_year=2026):
    """Writes `base` again and again, each copy's stamps a year later, up to `size` bytes."""
    with open(base, "rb") as f:
        data = f.read()
    written = 0
    year = first_year
    with open(path, "wb") as out:
        while written < size:
            copy = data.replace(b"2026-", f"{year}-".encode()) if year != 2026 else data
            left = size - written
            if len(copy) > left:
                cut = copy.rfind(b"\n", 0, left) + 1
                if cut == 0:
                    break
                copy = copy[:cut]
            out.write(copy)
            written += len(copy)
            year += 1


STAMP = re.compile(rb"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def blocks(path, k):
    """The lines of log `k` in blocks that start at a stamped line (leading unstamped lines
    go with the first stamped one), keyed `(stamp, k)`: the merge's documented order."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        held, key = [], None
        for line in f:
            m = STAMP.match(line)
            if m and key is not None:
                yield (key, k), held
                held = []
            if m:
                key = m.group(0)
            elif line[:1].isdigit() and re.match(rb"^\d{4}-\d\d-\d\d[T ]", line):
                raise SystemExit(f"{path}: a stamp this reference does not read: {line[:40]!r}")
            held.append(line if line.endswith(b"\n") else line + b"\n")
        if held:
            yield (key or b"\xff", k), held


def jobs_rows(binary, args):
    """`rxw jobs --json ARGS`, each row without the events' logs and line numbers (a merged
    run names each log and its own line; the reference names one sorted text)."""
    out = subprocess.Popen([binary, "jobs", "--json", *args], stdout=subprocess.PIPE)
    for raw in out.stdout:
        raw = raw.strip().lstrip(b"[").rstrip(b",").rstrip(b"]")
        if not raw:
            continue
        row = json.loads(raw)
        for e in row["events"]:
            del e["source"], e["line"]
        yield row
    if out.wait() != 0:
        raise SystemExit(f"rxw jobs exited {out.returncode}")


def jobs_check(binary, files, work):
    """Jobs paired across the logs against a reference: the logs concatenated and sorted by
    time here (a stable sort on the leading stamp, ties in the order the logs are named),
    then read as one log."""
    t = time.monotonic()
    ref = os.path.join(work, "time-sorted.log")
    with open(ref, "wb") as out:
        for _, held in heapq.merge(*(blocks(f, k) for k, f in enumerate(files)),
                                   key=lambda b: b[0]):
            out.writelines(held)
    sort_s = time.monotonic() - t
    t = time.monotonic()
    n = same = 0
    for a, b in itertools.zip_longest(jobs_rows(binary, files), jobs_rows(binary, [ref])):
        n += 1
        if a and b and len(a["events"]) == len(b["events"]):
            # A log's leading lines without a stamp have no time in their own log; in the
            # sorted text they follow another log's stamped line and take its time.
            for x, y in zip(a["events"], b["events"]):
                if x["time"] is None:
                    y["time"] = None
        same += a == b
    took = time.monotonic() - t
    os.remove(ref)
    verdict = "equal" if same == n else f"{n - same} DIFFER"
    print(f"jobs paired across the logs: {n:,} rows, {verdict} to the reference on the "
          f"concatenated, time-sorted text (sorted in {sort_s:.0f} s; both jobs runs "
          f"{took:.0f} s); {load()}")
    return same == n


def start(binary, files, state, pattern):
    session = f"rxw-paged-bench-{os.getpid()}-{int(time.monotonic() * 1000)}"
    quoted = " ".join(f"'{f}'" for f in files)
    cmd = f"env XDG_STATE_HOME='{state}' '{binary}' --fresh -e {pattern} {quoted}"
    t0 = time.monotonic()
    tmux("-f", "/dev/null", "new-session", "-d", "-s", session, "-x", "200", "-y", "60", cmd)
    return session, t0


def load():
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def first_row(prefix):
    return re.compile(r"[^0-9]1  (\S+:)?\d+:\d+\s+" + re.escape(prefix))


VIEW_RUNNING = re.compile(r"\b(lens|jobs) \d+%")


def views(session, which=("lens", "jobs")):
    """The Lens tab (Alt-9), then the Jobs tab (Alt-0), each until its pass over the whole
    input is done (no `lens N%` / `jobs N%` in the status bar): the time, and the resident
    memory after each."""
    for key, name in (("M-9", "lens"), ("M-0", "jobs")):
        if name not in which:
            continue
        t = time.monotonic()
        tmux("send-keys", "-t", session, key)
        # The pass starts when its tab is first shown.
        time.sleep(0.5)
        wait(session, lambda s: VIEW_RUNNING.search(s) is None, timeout=7200, poll=0.25)
        took = time.monotonic() - t
        mem = memory(pid_of(session))
        print(f"{name} tab: its pass done in {took:.1f} s; RSS {mem['VmRSS'] / 1e6:.0f} MB, "
              f"peak {mem['VmHWM'] / 1e6:.0f} MB; {load()}")


def run(binary, files, label, state, typed="RESULT", screen_file=None, rounds=1,
        with_views=(), text_bytes=None):
    while not os.path.exists(binary):
        # The data can be generated while the release build finishes.
        time.sleep(1)
    total = sum(os.path.getsize(f) for f in files)
    print(f"== {label}: {len(files)} file(s), {total / 1e9:.2f} GB on disk; {load()}")
    session, t0 = start(binary, files, state, typed[0])
    try:
        wait(session, lambda s: " matches " in s or " match " in s, timeout=600)
        first = time.monotonic() - t0
        print(f"first frame {first * 1000:.0f} ms")
        lat = []
        indexing_during = 0
        for r in range(rounds):
            if r > 0:
                # Back to the first letter, its row on screen, then type the rest again.
                for _ in typed[1:]:
                    tmux("send-keys", "-t", session, "BSpace")
                wait(session, lambda s: first_row(typed[0]).search(s) is not None
                     and first_row(typed[:2]).search(s) is None, timeout=60)
                time.sleep(0.05)
            for i in range(1, len(typed)):
                row = first_row(typed[: i + 1])
                before = screen(session)
                indexing_during += "indexing" in before or "counting" in before
                t = time.monotonic()
                tmux("send-keys", "-t", session, "-l", typed[i])
                wait(session, lambda s: row.search(s) is not None, timeout=60)
                lat.append(time.monotonic() - t)
        print(f"typing {typed!r} letter by letter, {rounds} time(s) ({indexing_during} of "
              f"{len(lat)} keys while indexing or counting ran) -> first match row: {fmt(lat)} "
              f"({', '.join(f'{x * 1000:.1f}' for x in lat)} ms); {load()}")
        s = wait(session, settled, timeout=7200, poll=0.05)
        full = time.monotonic() - t0
        n = count(s)
        text = text_bytes or total
        print(f"full count {full:.1f} s from start ({n:,} matches of {typed!r}; "
              f"{text / full / 1e6:.0f} MB/s of text, {total / full / 1e6:.0f} MB/s of files "
              f"on disk); {load()}")
        time.sleep(0.5)
        mem = memory(pid_of(session))
        print(f"memory after the full count: RSS {mem['VmRSS'] / 1e6:.0f} MB, "
              f"peak {mem['VmHWM'] / 1e6:.0f} MB")
        if screen_file:
            with open(screen_file, "w") as f:
                f.write(screen(session))
            print(f"screen saved to {screen_file}")
        if with_views:
            views(session, with_views)
        status = [line for line in screen(session).splitlines() if "paged:" in line]
        if status:
            print("status:", status[-1].strip()[:200])
    finally:
        tmux("kill-session", "-t", session)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--merged", default="8x250000000", help="COUNTxBYTES of merged logs ('' to skip)")
    ap.add_argument("--gz", type=int, default=4, help="how many of the merged logs are gzipped")
    ap.add_argument("--big", type=int, default=0, help="bytes of the one large log (0 to skip)")
    ap.add_argument("--base", type=int, default=50_000_000, help="bytes of the generated base log")
    ap.add_argument("--base-file", help="use this log as the base instead of generating one")
    ap.add_argument("--dir", default=tempfile.gettempdir())
    ap.add_argument("--screen", help="save the merged view's screen to this file")
    ap.add_argument("--views", default="lens,jobs",
                    help="the tabs shown on the large log after its count ('' for none)")
    ap.add_argument("--no-jobs-check", action="store_true",
                    help="skip pairing the merged logs' jobs against a time-sorted reference")
    ap.add_argument("--rounds", type=int, default=3,
                    help="times the pattern is typed letter by letter (after the first, erased "
                         "back to its first letter)")
    ap.add_argument("binary")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="rxw-paged-bench-", dir=args.dir)
    try:
        base = args.base_file or os.path.join(work, "base.log")
        if not args.base_file:
            t = time.monotonic()
            base_log(base, args.base, 3)
            print(f"base log: {args.base / 1e6:.0f} MB in {time.monotonic() - t:.0f} s")
        with tempfile.TemporaryDirectory() as state:
            if args.merged:
                n, size = (int(x) for x in args.merged.split("x"))
                logs = os.path.join(work, "logs")
                os.mkdir(logs)
                files = []
                for k in range(n):
                    path = os.path.join(logs, f"agent-{k}.log")
                    grow(base, path, size)
                    if k < args.gz:
                        subprocess.run(["gzip", "-1", path], check=True)
                        path += ".gz"
                    files.append(path)
                each = os.path.getsize(os.path.join(logs, "agent-%d.log" % (n - 1)))
                # The logs just written are flushed first: their writeback would otherwise
                # share the disk and the cores with what is measured.
                os.sync()
                run(binary, files, f"{n} logs of {each / 1e6:.0f} MB merged ({args.gz} gzipped)",
                    state, screen_file=args.screen, rounds=args.rounds, text_bytes=n * each)
                if not args.no_jobs_check and not jobs_check(binary, files, work):
                    sys.exit(1)
                shutil.rmtree(logs)
            if args.big:
                # The disk is shared: 8 GiB stay free for everyone else.
                free = shutil.disk_usage(work).free
                if args.big > free - 8 * 2**30:
                    print(f"only {free / 1e9:.1f} GB free: the large log is cut to fit "
                          f"(8 GiB left free)")
                    args.big = max(free - 8 * 2**30, args.base)
                path = os.path.join(work, "big.log")
                t = time.monotonic()
                grow(base, path, args.big)
                os.sync()
                print(f"large log: {args.big / 1e9:.1f} GB written in {time.monotonic() - t:.0f} s")
                run(binary, [path], f"one log of {args.big / 1e9:.1f} GB", state,
                    rounds=args.rounds, with_views=args.views.split(","))
                os.remove(path)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
