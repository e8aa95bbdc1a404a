#!/usr/bin/env python3
"""The CPython baseline for `rxw parse --count`: the registry's patterns, compiled with `re`,
each run with finditer over the whole text.

    python3 benches/parse_cpython.py LOG [REGISTRY.toml]

Prints one JSON line: {"seconds": matching wall time, "cpu_seconds": its CPU time, "count": total, "by_key": {...}}. Reading
and decoding the file is not timed.
"""
import sys

from cpython_registry import NETVM, compiled, print_timed_count


def main():
    log = sys.argv[1]
    registry = sys.argv[2] if len(sys.argv) > 2 else NETVM
    patterns = compiled(registry)
    with open(log, encoding="utf-8") as f:
        text = f.read()

    def count():
        by_key = {}
        for key, rx in patterns:
            n = 0
            for _ in rx.finditer(text):
                n += 1
            by_key[key] = n
        return by_key

    print_timed_count(count)


if __name__ == "__main__":
    main()
