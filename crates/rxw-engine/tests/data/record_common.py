"""What the recorders of go_cases.jsonl, re2_cases.jsonl and java_cases.jsonl share: the
texts many of their cases run on, the reading of their hand-written case tables
(<engine>_case_table.jsonl), the case list without repeats, the JSON Lines they write and
the oracles read, and the Go toolchains and the Go oracle's build (record_go_cases.py runs every
toolchain, record_re2_cases.py compares RE2 with the newest).

A module, not a script: each recorder imports it from the folder it lives in.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..", "..")

# Texts used by many patterns.
UNI = "héllo wörld Ωμέγα ΣΑΣ σας Kelvin \u212a k K ſ s S ß ẞ 日本語 😀 ١٢٣"
# NetVM-like log lines: a work order, its result, a tool call.
LOG = (
    "[WO:7fce46e0] [from super] Audit — check\n"
    "[RESULT 7fce46e0] OK done\n"
    "[TOOL op {\"a\": 1}]\n"
    "[WO:0a1b2c3d] [from relay-2] Déploiement — vérifier\n"
    "[RESULT 0a1b2c3d] FAIL timeout after 30s\n"
)


def case_table(name):
    """The rows of a hand-written case table beside the recorders: JSON, one row a line; blank
    lines and lines starting with // (comments) are skipped."""
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return [json.loads(line) for line in f.read().split("\n")
                if line.strip() and not line.startswith("//")]


def table_text(value, named):
    """One string of a case table's row: a string; {"$": NAME}, the text `named[NAME]`;
    {"repeat": s, "times": n}, s n times; or a list of these, joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(table_text(v, named) for v in value)
    if "$" in value:
        return named[value["$"]]
    return table_text(value["repeat"], named) * value["times"]


def table_cases(name, named):
    """The cases of a Go or RE2 case table, whose rows are [pattern, [texts]] and
    {"pattern", "text", "replace": [templates]}, by unique_cases."""
    groups = []
    replacements = []
    for row in case_table(name):
        if isinstance(row, dict):
            pattern = table_text(row["pattern"], named)
            text = table_text(row["text"], named)
            replacements += [(pattern, text, table_text(t, named)) for t in row["replace"]]
        else:
            groups.append((table_text(row[0], named), [table_text(t, named) for t in row[1]]))
    return unique_cases(groups, replacements)


def unique_cases(groups, replacements):
    """The cases of (pattern, [texts]) and (pattern, text, replacement) tables, in order, each
    (pattern, text, replacement) once."""
    seen = set()
    out = []
    for pattern, texts in groups:
        for text in texts:
            key = (pattern, text, None)
            if key not in seen:
                seen.add(key)
                out.append({"pattern": pattern, "text": text})
    for pattern, text, replacement in replacements:
        key = (pattern, text, replacement)
        if key not in seen:
            seen.add(key)
            out.append({"pattern": pattern, "text": text, "replace": replacement})
    return out


def arguments(default_name):
    """The recorder's argument parser, with `--out` (default: `default_name` beside it)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, default_name))
    return ap


def write_cases(path, all_cases):
    """Writes the cases, one JSON object a line, and says how many."""
    with open(path, "w", encoding="utf-8") as f:
        for c in all_cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"wrote {path}: {len(all_cases)} cases", file=sys.stderr)


def jsonl(all_cases, ensure_ascii=False):
    """The cases as an oracle reads them on its standard input."""
    return "".join(json.dumps(c, ensure_ascii=ensure_ascii) + "\n" for c in all_cases).encode()


def answers_to(all_cases, stdout, who=""):
    """An oracle's answers, one a line; exits unless there is one for every case."""
    lines = [json.loads(l) for l in stdout.decode("utf-8").split("\n") if l.strip()]
    if len(lines) != len(all_cases):
        sys.exit(f"{who}{len(lines)} answers for {len(all_cases)} cases")
    return lines


def go_toolchains():
    """The Go toolchains found (`go` on the PATH and $RXW_GO_CACHE/<version>/go/bin/go,
    default ~/.cache/rxw/go), oldest first: ((major, minor, patch), `go1.X.Y`, path)."""
    found = []
    go = shutil.which("go")
    if go:
        found.append(go)
    cache = os.environ.get("RXW_GO_CACHE") or os.path.expanduser("~/.cache/rxw/go")
    found += sorted(glob.glob(os.path.join(cache, "*", "go", "bin", "go")))
    out = []
    for go in found:
        text = subprocess.run([go, "version"], capture_output=True, text=True,
                              env=dict(os.environ, GOTOOLCHAIN="local")).stdout
        m = re.search(r"go version (go(\d+)\.(\d+)(?:\.(\d+))?\S*)", text)
        if m:
            key = tuple(int(x or 0) for x in m.groups()[1:])
            out.append((key, m.group(1), go))
    return sorted(out)


def build_go_oracle(go, work, name):
    """tests/oracle/go_oracle.go built with the toolchain `go` as `work`/`name`."""
    binary = os.path.join(work, name)
    env = dict(os.environ, GOTOOLCHAIN="local", GOFLAGS="", GO111MODULE="on", GOWORK="off",
               GOPATH=os.path.join(work, "gopath"))
    env.setdefault("GOCACHE", os.path.join(work, "gocache"))
    oracle = os.path.join(ROOT, "tests", "oracle", "go_oracle.go")
    subprocess.run([go, "build", "-o", binary, oracle], check=True, env=env, cwd=work)
    return binary


def short(value, n=160):
    """`value` as JSON, cut after `n` characters."""
    s = json.dumps(value, ensure_ascii=False)
    return s if len(s) <= n else s[:n] + "…"


def report_differences(kinds, against, names, width=160):
    """Prints, kind by kind, the cases two engines answer differently: `kinds` maps a kind to
    its (case, answer, other answer), `names` are the two engines' short labels."""
    for kind, items in kinds.items():
        print(f"{kind}: {len(items)} cases differ from {against}", file=sys.stderr)
        for case, a, b in items:
            print(f"    {short(case, 120)}", file=sys.stderr)
            print(f"        {names[0]} {short(a, width)}", file=sys.stderr)
            print(f"        {names[1]} {short(b, width)}", file=sys.stderr)
