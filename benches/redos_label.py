#!/usr/bin/env python3
"""Labels the ReDoS corpus by timing the real engines (CPython's `re`, node's `RegExp`).

Every row of tests/data/redos_corpus.jsonl names a pattern, its flavor and, when the literature
gives one, an attack (prefix + pump * n + suffix). This script runs the flavor's own engine on
the attack at growing n (one search, as `re.search` / `RegExp.prototype.exec`), in a child
process with a time limit, and classifies the timings: exponential when the searches get too
slow to go on (a quarter second) by a pump count of 48 and 8 more pumps multiplied the time by 8
or more; polynomial of degree k when the time grows as n^k over the largest measured points
(a log-log fit of those that took 5 ms or more); linear otherwise. With --rxw, rxw's own attack for the row (`rxw redos --json`) is timed too,
and the label is the worse of the two. Each n is searched three times and the fastest run kept,
so that one slow run on a loaded machine does not pass for growth.

Timings are noisy where the growth is mild (a quadratic over a few milliseconds), so rows can be
labelled by work instead of time: with --instructions (Python rows, needs valgrind) the count is
the machine instructions CPython executes inside one `re.search` (callgrind, collecting only in
`_sre`'s search), which is the same on every run. The series doubles n from 4 until one search
passes two billion instructions (or n reaches 4096). Over the last four points past 100,000
instructions: exponential when the logarithm of the count is closer to a straight line in n than
in log n (each pump multiplies the work) and 8 more pumps multiply it by 8 or more; polynomial
of the log-log slope (rounded) when that is 1.5 or more; linear otherwise. --only ID,ID relabels just those rows.

    benches/redos_label.py label [--rxw target/release/rxw] [--corpus FILE] [--instructions] [--only IDS]
    benches/redos_label.py probe --flavor python --pattern P --prefix X --pump Y --suffix Z [--instructions]

`label` rewrites the corpus with a "label" object per row: verdict, degree, engine, which
attack (literature or rxw) showed it, and the timings. `probe` prints the classification of one
attack as JSON (the differential test's entry point).
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

NS = [4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 40, 48, 64, 96, 128, 192, 256,
      384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 65536]
# One search stops the series past this many seconds; a child is killed past the limit.
STOP_AFTER = 0.25
CHILD_LIMIT = 4.0

# How both Python children (the timed one and the counted one) begin: the job on standard
# input, its flags as `re`'s.
PY_JOB = r"""
import json, re, sys, time
job = json.loads(sys.stdin.read())
flags = 0
for c in job.get("flags", ""):
    flags |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X, "a": re.A}[c]
"""

PY_CHILD = PY_JOB + r"""try:
    rx = re.compile(job["pattern"], flags)
except Exception as e:
    print(json.dumps({"error": str(e)}), flush=True)
    sys.exit(0)
rx.search(job["prefix"] + job["pump"] * 4 + job["suffix"])  # warm-up
for n in job["ns"]:
    s = job["prefix"] + job["pump"] * n + job["suffix"]
    dt = None
    for _ in range(3):
        t = time.perf_counter()
        rx.search(s)
        one = time.perf_counter() - t
        dt = one if dt is None else min(dt, one)
        if one > job["stop"]:
            break
    print(json.dumps({"n": n, "t": dt}), flush=True)
    if dt > job["stop"]:
        break
"""

JS_CHILD = r"""
const job = JSON.parse(require('fs').readFileSync(0, 'utf8'));
let rx;
try { rx = new RegExp(job.pattern, job.flags || ''); }
catch (e) { console.log(JSON.stringify({error: String(e)})); process.exit(0); }
try { rx.exec(job.prefix + job.pump.repeat(4) + job.suffix); } catch (e) {}  // warm-up
for (const n of job.ns) {
  const s = job.prefix + job.pump.repeat(n) + job.suffix;
  let dt = Infinity;
  for (let k = 0; k < 3; k++) {
    const t = process.hrtime.bigint();
    try { rx.lastIndex = 0; rx.exec(s); }
    catch (e) { console.log(JSON.stringify({error: String(e)})); process.exit(0); }
    const one = Number(process.hrtime.bigint() - t) / 1e9;
    dt = Math.min(dt, one);
    if (one > job.stop) break;
  }
  console.log(JSON.stringify({n, t: dt}));
  if (dt > job.stop) break;
}
"""


def engine_for(flavor):
    # RXW_REDOS_ENGINE names the interpreter of the release being timed (a test times each row
    # on the release it names); python3 and node otherwise.
    exe = os.environ.get("RXW_REDOS_ENGINE")
    return {"python": (exe or "python3", ["-c", PY_CHILD]), "js": (exe or "node", ["-e", JS_CHILD])}[flavor]


def time_attack(flavor, pattern, flags, attack):
    """Times one attack at growing n; returns (points, killed_at, error)."""
    exe, args = engine_for(flavor)
    job = dict(pattern=pattern, flags=flags, prefix=attack["prefix"], pump=attack["pump"],
               suffix=attack["suffix"], ns=NS, stop=STOP_AFTER)
    proc = subprocess.Popen([exe] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    points, error = [], None
    try:
        out, _ = proc.communicate(json.dumps(job), timeout=CHILD_LIMIT)
        killed = False
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        killed = True
    for line in out.splitlines():
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if "error" in v:
            error = v["error"]
        else:
            points.append((v["n"], v["t"]))
    killed_at = None
    if killed:
        done = len(points)
        killed_at = NS[done] if done < len(NS) else None
    return points, killed_at, error


def classify(points, killed_at):
    """(verdict, degree) from timings: see the module's docstring."""
    pts = list(points)
    if killed_at is not None:
        pts.append((killed_at, CHILD_LIMIT))
    # Exponential: the series stopped (a search past STOP_AFTER, or the child killed) at a
    # pump count of 48 or less, with the two last points both slow; a polynomial of the
    # degrees seen in practice needs far longer inputs to get there.
    # A high-degree polynomial can get there too, but 8 more pumps multiply its time by
    # (48/40)^k, about 2 for k = 4; an exponential's by far more.
    slow = [p for p in pts if p[1] >= 0.01]
    if pts and pts[-1][0] <= 48 and pts[-1][1] >= STOP_AFTER and len(slow) >= 2 and slow[-2] == pts[-2]:
        n, t = pts[-1]
        earlier = [p for p in pts if p[0] <= n - 8]
        if earlier and t / max(earlier[-1][1], 1e-6) >= 8:
            return "exponential", None
    # Polynomial: the log-log slope over the last (up to four) points that took 5 ms or more.
    timed = [p for p in pts if p[1] >= 0.005][-4:]
    if len(timed) >= 2 and timed[-1][0] > timed[0][0]:
        xs = [math.log(n) for n, _ in timed]
        ys = [math.log(t) for _, t in timed]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        d = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        if d >= 1.5:
            return "polynomial", max(2, round(d))
    if killed_at is not None and killed_at <= 4096:
        # Killed on a small input with too few timed points to fit: far from linear.
        return "polynomial", None
    return "linear", 1


RANK = {"linear": 0, "polynomial": 1, "exponential": 2}

# Instruction counting (Python rows): one search per child, counted by callgrind inside
# `_sre`'s search only.
COUNT_NS = [4, 8, 16, 24, 32, 48, 64, 128, 256, 512, 1024, 2048, 4096]
COUNT_STOP = 2_000_000_000
# Seconds one counted search may take under callgrind before it counts as past the stop.
COUNT_LIMIT = 180

PY_COUNT_CHILD = PY_JOB + r"""rx = re.compile(job["pattern"], flags)
rx.search(job["prefix"] + job["pump"] * job["n"] + job["suffix"])
"""


def count_instructions(pattern, flags, attack, n):
    """Instructions of one CPython search of the attack at n (None when it cannot be counted)."""
    job = dict(pattern=pattern, flags=flags, n=n, **attack)
    try:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
             "--toggle-collect=_sre_SRE_Pattern_search*", sys.executable, "-c", PY_COUNT_CHILD],
            input=json.dumps(job), capture_output=True, text=True, timeout=COUNT_LIMIT)
    except subprocess.TimeoutExpired:
        # Far past the stop: under callgrind a second holds some tens of millions.
        return COUNT_STOP + 1
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def count_attack(pattern, flags, attack):
    """(n, instructions) points at doubling n until a search passes COUNT_STOP."""
    points = []
    for n in COUNT_NS:
        c = count_instructions(pattern, flags, attack, n)
        if c is None:
            break
        points.append((n, c))
        if c > COUNT_STOP:
            break
    return points


def classify_counts(points):
    """(verdict, degree) from instruction counts: see the module's docstring."""
    # A search cut by the time limit is only known to be past the stop: left out of the fits.
    big = [p for p in points if 100_000 <= p[1] != COUNT_STOP + 1][-4:]
    if len(big) < 2:
        return "linear", 1

    def residual(xs, ys):
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
        return slope, sum((y - my - slope * (x - mx)) ** 2 for x, y in zip(xs, ys))

    ys = [math.log(c) for _, c in big]
    degree, poly = residual([math.log(n) for n, _ in big], ys)
    rate, expo = residual([float(n) for n, _ in big], ys)
    # Exponential: each pump multiplies the work by a constant (log work straight in n),
    # which fits better than a power of n, and 8 more pumps multiply it by 8 or more.
    if len(big) >= 3 and expo < poly and math.exp(8 * rate) >= 8:
        return "exponential", None
    if len(big) == 2 and math.exp(8 * rate) >= 8 and degree > 6:
        return "exponential", None
    if degree >= 1.5:
        return "polynomial", max(2, round(degree))
    return "linear", 1


def rxw_attack(rxw, row):
    # A generous budget: the step caps, not the clock, pick the attack (as in the corpus test).
    args = [rxw, "redos", "--json", "--time-ms", "60000", "--flavor", row["flavor"]]
    if row.get("flags"):
        args += ["--flags", row["flags"]]
    out = subprocess.run(args + ["--", row["pattern"]], capture_output=True, text=True)
    try:
        return json.loads(out.stdout)
    except ValueError:
        return None


def label(args):
    rows = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    started = time.time()
    only = set(args.only.split(",")) if args.only else None
    for k, row in enumerate(rows):
        if only is not None and row["id"] not in only:
            continue
        attacks = []
        if row.get("attack"):
            attacks.append(("literature", row["attack"]))
        if args.rxw:
            r = rxw_attack(args.rxw, row)
            if r and r.get("attack") and r["attack"] != row.get("attack"):
                attacks.append(("rxw", r["attack"]))
        best = {"verdict": "linear", "degree": 1, "attack_from": None, "times": []}
        engine = {"python": "cpython " + sys.version.split()[0], "js": "node " + node_version()}[row["flavor"]]
        counted = args.instructions and row["flavor"] == "python"
        if counted:
            engine += " (instructions in one re.search, callgrind)"
        for source, attack in attacks:
            if counted:
                points = count_attack(row["pattern"], row.get("flags", ""), attack)
                verdict, degree = classify_counts(points)
                if best["attack_from"] is None or RANK[verdict] > RANK[best["verdict"]]:
                    best = {"verdict": verdict, "degree": degree, "attack_from": source,
                            "instructions": points}
                continue
            points, killed_at, error = time_attack(row["flavor"], row["pattern"], row.get("flags", ""), attack)
            if error is not None and not points:
                best["error"] = error
                continue
            verdict, degree = classify(points, killed_at)
            if best["attack_from"] is None or RANK[verdict] > RANK[best["verdict"]]:
                best = {"verdict": verdict, "degree": degree, "attack_from": source,
                        "times": [[n, round(t, 6)] for n, t in points],
                        "killed_at": killed_at}
        best["engine"] = engine
        row["label"] = best
        print(f"[{k + 1}/{len(rows)} {time.time() - started:.0f}s] {row['id']}: {best['verdict']}"
              f" {best.get('degree')} ({best.get('attack_from')})", file=sys.stderr, flush=True)
    with open(args.corpus, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


_NODE = None


def node_version():
    global _NODE
    if _NODE is None:
        try:
            _NODE = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
        except OSError:
            _NODE = "missing"
    return _NODE


def probe(args):
    attack = dict(prefix=args.prefix, pump=args.pump, suffix=args.suffix)
    if args.instructions and args.flavor == "python":
        points = count_attack(args.pattern, args.flags, attack)
        verdict, degree = classify_counts(points)
        print(json.dumps({"verdict": verdict, "degree": degree, "error": None,
                          "instructions": points, "killed_at": None}))
        return
    points, killed_at, error = time_attack(args.flavor, args.pattern, args.flags, attack)
    verdict, degree = classify(points, killed_at) if points or killed_at else (None, None)
    print(json.dumps({"verdict": verdict, "degree": degree, "error": error,
                      "times": points, "killed_at": killed_at}))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    lp = sub.add_parser("label")
    lp.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "tests", "data", "redos_corpus.jsonl"))
    lp.add_argument("--rxw")
    lp.add_argument("--instructions", action="store_true")
    lp.add_argument("--only")
    pp = sub.add_parser("probe")
    pp.add_argument("--flavor", required=True, choices=["python", "js"])
    pp.add_argument("--pattern", required=True)
    pp.add_argument("--flags", default="")
    pp.add_argument("--prefix", default="")
    pp.add_argument("--pump", required=True)
    pp.add_argument("--suffix", default="")
    pp.add_argument("--instructions", action="store_true")
    args = p.parse_args()
    {"label": label, "probe": probe}[args.cmd](args)


if __name__ == "__main__":
    main()
