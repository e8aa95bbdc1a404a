#!/usr/bin/env python3
"""Runs a preset registry's examples and counter-examples through CPython's `re`.

    python3 benches/check_presets_cpython.py [assets/presets/netvm.toml]

The differential twin of `rxw preset check`: rxw's python flavor must agree with CPython on
every case. Prints one line per failure and exits 1 if there is any.
"""
import sys

from cpython_registry import NETVM, compile_preset, presets


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else NETVM
    failures = cases = 0
    for p in presets(path):
        rx = compile_preset(p)
        for ex in p.get("examples", []):
            cases += 1
            m = rx.search(ex["text"])
            problem = None
            if m is None:
                problem = "no match"
            elif "match" in ex and m.group(0) != ex["match"]:
                problem = f"match {m.group(0)!r} != {ex['match']!r}"
            else:
                for name, want in ex.get("groups", {}).items():
                    if m.group(name) != want:
                        problem = f"group {name} = {m.group(name)!r}, expected {want!r}"
                for name in ex.get("unset", []):
                    if m.group(name) is not None:
                        problem = f"group {name} = {m.group(name)!r}, expected unset"
            if problem:
                failures += 1
                print(f"FAIL {p['key']} example {ex['text']!r}: {problem}")
        for text in p.get("counter_examples", []):
            cases += 1
            m = rx.search(text)
            if m is not None:
                failures += 1
                print(f"FAIL {p['key']} counter-example {text!r} matched {m.group(0)!r}")
    print(f"{cases - failures}/{cases} cases pass under CPython {sys.version.split()[0]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
