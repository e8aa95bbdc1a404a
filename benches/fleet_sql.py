#!/usr/bin/env python3
"""The registry exported to SQL engines, run on a generated log, against `rxw parse --count`.

    python3 benches/fleet_sql.py [--bytes N] [--seed S] [--rxw target/release/rxw]

Generates the log with benches/gen_log.py (kept in target/bench/), counts the presets' hits
with `rxw parse --count --json`, exports the registry with `rxw registry export --to duckdb`
and `--to clickhouse`, loads the raw lines into DuckDB and chDB (the pip packages `duckdb` and
`chdb`) the way the exported scripts' comments say, and counts each preset's view; then writes
`rxw parse --jsonl`, loads it into both with the statements `rxw parse --schema` prints and
counts the hits per key (the loading and counting: benches/sql_counts.py). Prints the seconds
of each step and whether every key's count agrees. Only the standard library besides the two
engines; an engine that is not installed is said and skipped. `--data DIR` keeps the log and the hits elsewhere than target/bench.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from sql_counts import loaded_counts, view_counts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def installed_targets():
    """The SQL targets in turn, "duckdb" and "clickhouse", each only when its python package
    is installed (said NOT RUN otherwise)."""
    for target, module in (("duckdb", "duckdb"), ("clickhouse", "chdb")):
        try:
            __import__(module)
        except ImportError:
            print("%s: NOT RUN, the python package %s is not installed" % (target, module))
            continue
        yield target


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bytes", type=int, default=100_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rxw", default=os.path.join(ROOT, "target", "release", "rxw"))
    ap.add_argument("--data", default=os.path.join(ROOT, "target", "bench"))
    a = ap.parse_args()
    data = a.data
    os.makedirs(data, exist_ok=True)
    log = os.path.join(data, "fleet-sql-%d-%d.log" % (a.bytes, a.seed))
    if not os.path.exists(log):
        with open(log + ".tmp", "w") as f:
            subprocess.run(
                [sys.executable, os.path.join(ROOT, "benches", "gen_log.py"), "--bytes",
                 str(a.bytes), "--seed", str(a.seed)], stdout=f, check=True)
        os.replace(log + ".tmp", log)
    t = time.perf_counter()
    out = subprocess.run([a.rxw, "parse", "--count", "--json", "--file", log],
                         capture_output=True, text=True, check=True).stdout
    rxw_s = time.perf_counter() - t
    want = json.loads(out)["by_key"]
    keys = list(want)
    print("log: %s (%d bytes); rxw parse --count: %.2f s, %d hits"
          % (log, os.path.getsize(log), rxw_s, sum(want.values())))
    for target in installed_targets():
        script = os.path.join(data, "fleet-sql.%s.sql" % target)
        subprocess.run([a.rxw, "registry", "export", "--to", target, "-o", script], check=True)
        got, load, query = view_counts(target, script, log, keys)
        bad = [k for k in keys if got.get(k) != want[k]]
        print("%s: load %.2f s, the %d views %.2f s; %s"
              % (target, load, len(keys), query,
                 "every key agrees" if not bad else "DIFFERS on " + ", ".join(bad)))
    hits = os.path.join(data, "hits.jsonl")
    t = time.perf_counter()
    with open(hits, "w") as f:
        subprocess.run([a.rxw, "parse", "--jsonl", "--file", log], stdout=f, check=True)
    print("rxw parse --jsonl: %.2f s, %d bytes" % (time.perf_counter() - t, os.path.getsize(hits)))
    schema = json.loads(subprocess.run([a.rxw, "parse", "--schema"], capture_output=True,
                                       text=True, check=True).stdout)
    for target in installed_targets():
        got, load, query = loaded_counts(target, schema["load"][target], data)
        bad = [k for k in keys if got.get(k, 0) != want[k]]
        print("%s, --jsonl loaded: load %.2f s, count per key %.2f s; %s"
              % (target, load, query,
                 "every key agrees" if not bad else "DIFFERS on " + ", ".join(bad)))


if __name__ == "__main__":
    main()
