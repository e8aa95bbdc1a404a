"""Differential oracle: runs cases through CPython's `re` and prints results as JSON.

Input (stdin): a JSON list of {"pattern", "flags", "input", "replacement"}.
Output: a JSON list of {"error": msg} or {"matches": [[[start, end] | null, ...], ...],
"replaced": str | {"error": msg}}; offsets are UTF-8 byte offsets. A pattern that compiles
with a warning (a DeprecationWarning of 3.8-3.11) also has "warnings": [msg, ...]. Runs on
CPython 3.8 and later (3.8 raises RuntimeError for some conditionals it cannot compile;
`(?u)` with the `a` flag is a ValueError; 3.8 raises TypeError for a named character escape naming a named
sequence).
"""
import json
import re
import sys
import warnings

FLAGS = {"i": re.I, "m": re.M, "s": re.S, "x": re.X, "a": re.A}


def byte_offsets(text):
    # code-point index -> byte offset
    out = [0]
    for ch in text:
        out.append(out[-1] + len(ch.encode("utf-8")))
    return out


def run(case):
    flags = 0
    for f in case["flags"]:
        flags |= FLAGS[f]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rx = re.compile(case["pattern"], flags)
        except (re.error, OverflowError, RecursionError, RuntimeError, TypeError, ValueError) as e:
            return {"error": str(e)}
    text = case["input"]
    off = byte_offsets(text)
    matches = []
    for m in rx.finditer(text):
        groups = []
        for g in range(rx.groups + 1):
            s, e = m.span(g)
            groups.append(None if s < 0 else [off[s], off[e]])
        matches.append(groups)
    res = {"matches": matches}
    if caught:
        res["warnings"] = [str(w.message) for w in caught]
    if case.get("replacement") is not None:
        try:
            res["replaced"] = rx.sub(case["replacement"], text)
        except (re.error, IndexError) as e:
            res["replaced"] = {"error": str(e)}
    return res


cases = json.load(sys.stdin)
json.dump([run(c) for c in cases], sys.stdout)
