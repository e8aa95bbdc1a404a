#!/usr/bin/env python3
"""Labels the ReDoS corpus by timing the real engines (CPython's `re`, node's `RegExp`).

Every row of tests/data/redos_corpus.jsonl names a pattern, its flavor and, when the literature
gives one, an attack (prefix + pump * n + suffix). This script runs the flavor's own engine on
the attack at growing n (one search, as `re.search` / `RegExp.prototype.exec`), in a child
process with a time limit, and classifies the timings: exponential when the searches get too
slow to go on (a quarter second) by a pump count of 48 and 8 more pumps multiplied the time by 8
or more; polynomial of degree k when the time grows as n^k over the largest measured points
(a log-log fit of those that took 5 ms or more); linear otherwise. With --rxw, rxw's own attack for the row (`rxw redos --json`) is timed too,
and the label is the worse of the two.

    benches/redos_label.py label [--rxw target/release/rxw] [--corpus FILE]
    benches/redos_label.py probe --flavor python --pattern P --prefix X --pump Y --suffix Z

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

PY_CHILD = r"""
import json, re, sys, time
job = json.loads(sys.stdin.read())
flags = 0
for c in job.get("flags", ""):
    flags |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X, "a": re.A}[c]
try:
    rx = re.compile(job["pattern"], flags)
except Exception as e:
    print(json.dumps({"error": str(e)}), flush=True)
    sys.exit(0)
rx.search(job["prefix"] + job["pump"] * 4 + job["suffix"])  # warm-up
for n in job["ns"]:
    s = job["prefix"] + job["pump"] * n + job["suffix"]
    t = time.perf_counter()
    rx.search(s)
    dt = time.perf_counter() - t
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
  const t = process.hrtime.bigint();
  try { rx.lastIndex = 0; rx.exec(s); }
  catch (e) { console.log(JSON.stringify({error: String(e)})); process.exit(0); }
  const dt = Number(process.hrtime.bigint() - t) / 1e9;
  console.log(JSON.stringify({n, t: dt}));
  if (dt > job.stop) break;
}
"""


def engine_for(flavor):
    return {"python": ("python3", ["-c", PY_CHILD]), "js": ("node", ["-e", JS_CHILD])}[flavor]


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
    for k, row in enumerate(rows):
        attacks = []
        if row.get("attack"):
            attacks.append(("literature", row["attack"]))
        if args.rxw:
            r = rxw_attack(args.rxw, row)
            if r and r.get("attack") and r["attack"] != row.get("attack"):
                attacks.append(("rxw", r["attack"]))
        best = {"verdict": "linear", "degree": 1, "attack_from": None, "times": []}
        engine = {"python": "cpython " + sys.version.split()[0], "js": "node " + node_version()}[row["flavor"]]
        for source, attack in attacks:
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
    pp = sub.add_parser("probe")
    pp.add_argument("--flavor", required=True, choices=["python", "js"])
    pp.add_argument("--pattern", required=True)
    pp.add_argument("--flags", default="")
    pp.add_argument("--prefix", default="")
    pp.add_argument("--pump", required=True)
    pp.add_argument("--suffix", default="")
    args = p.parse_args()
    {"label": label, "probe": probe}[args.cmd](args)


if __name__ == "__main__":
    main()
