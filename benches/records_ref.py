#!/usr/bin/env python3
"""The CPython reference for the registry on records: a NetVM agent log cut into records by
the NetVM rule, and every preset run with `re.finditer(pattern, message, flags)` on each
record's message, as NetVM's own code runs the registry.

    python3 benches/records_ref.py LOG [--registry FILE] [--hits] [--to-jsonl OUT]

The rule: a line that begins with a space or a tab continues the record before it; any other
line begins a record. A record whose first line begins with an ISO-8601 timestamp, one
space, a sender `[A-Za-z0-9_.-]+`, a colon and one space has that prefix taken off (time and
sender become fields); otherwise its whole first line is the message. The message is the
rest of the first line plus every continuation line, joined by `\\n`, without the final line
break.

Prints one JSON line: {"seconds", "cpu_seconds", "count", "by_key"} (matching time only, not
reading or cutting), or with --hits one JSON line per hit: {"key", "line", "match",
"groups"} (groups by name, or by number when unnamed). --to-jsonl OUT also writes the log as
JSON Lines, one object per record: {"ts", "agent", "msg"} (ts and agent only when the
record had a prefix).
"""
import argparse
import json
import re
import sys

from cpython_registry import NETVM, compiled as compiled_registry, print_timed_count

# The stamp rxw reads at a line start (input/timestamp.rs): date, `T` or a space, time, an
# optional fraction and zone; it must not run on into a letter or digit.
PREFIX = re.compile(
    r"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d(?::?\d\d)?)?)"
    r"(?![A-Za-z0-9]) ([A-Za-z0-9_.-]+): "
)


def records(text):
    """(first line number, time, sender, message) for each record."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    for n, line in enumerate(lines, 1):
        if line.endswith("\r"):
            line = line[:-1]
        if line[:1] in (" ", "\t") and out:
            out[-1][3].append(line)
            continue
        m = PREFIX.match(line)
        if m:
            out.append([n, m.group(1), m.group(2), [line[m.end():]]])
        else:
            out.append([n, None, None, [line]])
    return [(n, ts, who, "\n".join(parts)) for n, ts, who, parts in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--registry", default=NETVM)
    ap.add_argument("--hits", action="store_true")
    ap.add_argument("--to-jsonl")
    a = ap.parse_args()
    compiled = compiled_registry(a.registry)
    with open(a.log, encoding="utf-8", newline="") as f:
        recs = records(f.read())
    if a.to_jsonl:
        with open(a.to_jsonl, "w", encoding="utf-8") as f:
            for _, ts, who, msg in recs:
                obj = {"ts": ts, "agent": who, "msg": msg} if ts else {"msg": msg}
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")
    if a.hits:
        out = sys.stdout
        for n, _, _, msg in recs:
            found = []
            for order, (key, rx) in enumerate(compiled):
                for m in rx.finditer(msg):
                    names = {v: k for k, v in rx.groupindex.items()}
                    groups = {names.get(i, str(i)): m.group(i) for i in range(1, rx.groups + 1)}
                    found.append((m.start(), order, {"key": key, "line": n, "match": m.group(0), "groups": groups}))
            # rxw lists a record's hits in text order, ties by registry order.
            for _, _, h in sorted(found, key=lambda t: (t[0], t[1])):
                out.write(json.dumps(h, ensure_ascii=False) + "\n")
        return

    def count():
        by_key = {key: 0 for key, _ in compiled}
        for _, _, _, msg in recs:
            for key, rx in compiled:
                for _ in rx.finditer(msg):
                    by_key[key] += 1
        return by_key

    print_timed_count(count)


if __name__ == "__main__":
    main()
