#!/usr/bin/env python3
"""The CPython baseline for `rxw parse --count`: the registry's patterns, compiled with `re`,
each run with finditer over the whole text.

    python3 benches/parse_cpython.py LOG [REGISTRY.toml]

Prints one JSON line: {"seconds": matching wall time, "cpu_seconds": its CPU time, "count": total, "by_key": {...}}. Reading
and decoding the file is not timed.
"""
import json
import re
import sys
import time
import tomllib

FLAGS = {"a": re.ASCII, "i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}


def main():
    log = sys.argv[1]
    registry = sys.argv[2] if len(sys.argv) > 2 else "assets/presets/netvm.toml"
    with open(registry, "rb") as f:
        presets = tomllib.load(f)["preset"]
    compiled = []
    for p in presets:
        flags = 0
        for c in p.get("flags", ""):
            flags |= FLAGS[c]
        compiled.append((p["key"], re.compile(p["pattern"], flags)))
    with open(log, encoding="utf-8") as f:
        text = f.read()
    by_key = {}
    start = time.perf_counter()
    cpu_start = time.process_time()
    for key, rx in compiled:
        n = 0
        for _ in rx.finditer(text):
            n += 1
        by_key[key] = n
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(json.dumps({"seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "count": sum(by_key.values()), "by_key": by_key}))


if __name__ == "__main__":
    main()
