"""A preset registry as CPython's `re` runs it, for the CPython baselines and references of the
benchmarks (parse_cpython.py, records_ref.py, check_presets_cpython.py): each preset's pattern
compiled with its flags, and the timed count they print.
"""
import json
import os
import re
import time
import tomllib

# The NetVM registry of this checkout, wherever the benchmark is run from.
NETVM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "presets",
                     "netvm.toml")

FLAGS = {"a": re.ASCII, "i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}


def presets(path):
    """The `[[preset]]` tables of the registry at `path`."""
    with open(path, "rb") as f:
        return tomllib.load(f)["preset"]


def compile_preset(p):
    """The preset's pattern compiled with its flags."""
    flags = 0
    for c in p.get("flags", ""):
        flags |= FLAGS[c]
    return re.compile(p["pattern"], flags)


def compiled(path):
    """(key, compiled pattern) of each preset of the registry at `path`, in its order."""
    return [(p["key"], compile_preset(p)) for p in presets(path)]


def print_timed_count(count):
    """Runs `count()` (hits by key) and prints one JSON line: {"seconds": its wall time,
    "cpu_seconds": its CPU time, "count": total, "by_key": {...}}."""
    start = time.perf_counter()
    cpu_start = time.process_time()
    by_key = count()
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(json.dumps({"seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "count": sum(by_key.values()), "by_key": by_key}))


def print_by_key(columns):
    """Prints the hits by key of each column ([(title, document with "by_key" and "count")]),
    the keys in the order of the second's: the first (rxw's) is compared with the second
    (CPython's), a key where they differ marked MISMATCH. Returns whether they agree on all."""
    print(f"{'key':16} " + " ".join(f"{title:>9}" for title, _ in columns))
    ok = True
    for k in columns[1][1]["by_key"]:
        counts = [doc["by_key"].get(k) for _, doc in columns]
        flag = "" if counts[0] == counts[1] else "  MISMATCH"
        ok &= counts[0] == counts[1]
        print(f"{k:16} " + " ".join(f"{n:>9}" for n in counts) + flag)
    print(f"{'total':16} " + " ".join(f"{doc['count']:>9}" for _, doc in columns))
    return ok
