#!/usr/bin/env python3
"""Records js_conformance.jsonl: JavaScript cases built from test262's RegExp tests, answered by
node (whatever `node` runs, node 20 for the checked-in file).

Only patterns and inputs come from test262; every expected answer is node's, through the
project's own oracle (tests/oracle/js_oracle.js). Cases:
- every regex literal of property-escapes/ (outside generated/), named-groups/ and
  unicodeSets/, run on a short text (syntax: accepted or refused; and its matches);
- every spelling of property-escapes/generated/ as `\\p{…}` and `\\P{…}` over text made of
  the code points at the edges of the property's ranges (membership);
- unicodeSets/generated/ and the properties of strings: the class against each listed string;
- the issue's own cases (lone surrogate escapes, Canonicalize without `u`, `\\B` in a pair).

Usage: record_js_conformance.py TEST262_DIR [--node node]
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "crates", "rxw-syntax", "gen"))
from js_unicode import js_string  # noqa: E402

LITERAL = re.compile(r"(?<![\w)\]$])/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])*)/([dgimsuvy]*)")
TEXT = "a_B 1π😀\u212ak\u017fK\n𝒜"


def literals(path):
    out = []
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        if s.startswith("//") or s.startswith("*") or s.startswith("/*"):
            continue
        for m in LITERAL.finditer(line):
            out.append((m.group(1), m.group(2)))
    return out


def edges(text):
    """Code points at the edges of the ranges of a generated file's first buildString."""
    block = text.split("buildString(", 1)[1].split("});", 1)[0]
    lone = [int(x, 16) for x in re.findall(r"0x([0-9A-Fa-f]+)", block.split("ranges", 1)[0])]
    ranges = [(int(a, 16), int(b, 16)) for a, b in re.findall(r"\[0x([0-9A-F]+), 0x([0-9A-F]+)\]", block)]
    points = lone[:6]
    for a, b in ranges[:4] + ranges[len(ranges) // 2:len(ranges) // 2 + 2] + ranges[-4:]:
        points += [a, b]
    points = [p for p in dict.fromkeys(points) if not 0xD800 <= p <= 0xDFFF]
    return "".join(chr(p) for p in points)


def cases(t262):
    base = os.path.join(t262, "test", "built-ins", "RegExp")
    out = []

    def add(pattern, flags, text, source):
        out.append({"pattern": pattern, "flags": flags, "input": text, "replacement": None, "source": source})

    for folder in ["property-escapes", "named-groups", "unicodeSets"]:
        for name in sorted(os.listdir(os.path.join(base, folder))):
            path = os.path.join(base, folder, name)
            if name.endswith(".js"):
                for p, f in literals(path):
                    add(p, f.replace("g", ""), TEXT, f"{folder}/{name}")
    gen = os.path.join(base, "property-escapes", "generated")
    for name in sorted(os.listdir(gen)):
        if not name.endswith(".js"):
            continue
        text = open(os.path.join(gen, name), encoding="utf-8").read()
        sample = edges(text)
        spellings = list(dict.fromkeys(re.findall(r'"\\\\p\{([^}"]*)\}"', text)))
        for i, s in enumerate(spellings):
            add(f"\\p{{{s}}}", "u", sample, f"generated/{name}")
            if i == 0:
                add(f"\\P{{{s}}}", "u", sample, f"generated/{name}")
                add(f"\\p{{{s}}}", "iu", sample + "aAǅ", f"generated/{name}")
                add(f"\\P{{{s}}}", "iu", sample + "aAǅ", f"generated/{name}")
    for folder in [os.path.join(base, "unicodeSets", "generated"), os.path.join(gen, "strings")]:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".js"):
                continue
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            m = re.search(r"regExp: /\^(.*)\+\$/v,", text)
            if not m:
                continue
            strings = [js_string(s) for s in re.findall(r'^\s*"((?:[^"\\]|\\.)*)",?$', text, re.M)]
            # Every listed string, each on its own line: one case per 40 strings.
            for k in range(0, len(strings), 40):
                add(m.group(1), "v", "\n".join(strings[k:k + 40]), f"{os.path.basename(folder)}/{name}")
    for p, f, t in [
        (r"^|\udf06", "u", "\U0001D306"),
        (r"\udf06", "u", "\U0001D306"),
        (r"[\udf06]", "u", "a\U0001D306"),
        (r"\u{d800}|a", "u", "ab"),
        (r"[^\ud800]", "u", "ab"),
        (r"\u212a", "i", "kK\u212a"),
        (r"[\u212a]", "i", "kK\u212a"),
        (r"\u212a", "iu", "kK\u212a"),
        (r"\u017f", "i", "sS\u017f"),
        (r"[a-z]", "i", "\u212a\u017f"),
        (r"\B", "u", "\U0001F600a\U0001F600"),
        (r"(?<\u{03C0}>a)\k<\u{03C0}>", "u", "aa"),
        (r"(?<\u{03C0}>a)\k<π>", "", "aa"),
        (r"(?<\u03C0>a)", "", "a"),
        (r"(?<a\u200c\u200d>a)", "u", "a"),
        (r"(?<\ud835\udc9c>a)", "", "a"),
        (r"(?<\ud835\udc9c>a)", "u", "a"),
        (r"(?<𝒜>a)", "", "a"),
        (r"(?<$𐒤>a)", "u", "a"),
        (r"(?<a\uD801>.)", "u", "a"),
        (r"(?<\u{110000}>.)", "u", "a"),
        (r"(?<a\u{10FFFF}>.)", "u", "a"),
    ]:
        add(p, f, t, "issue")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test262")
    ap.add_argument("--node", default="node")
    ap.add_argument("--out", default=os.path.join(HERE, "js_conformance.jsonl"))
    args = ap.parse_args()
    cs = cases(args.test262)
    seen = set()
    unique = []
    for c in cs:
        key = (c["pattern"], c["flags"], c["input"])
        if key not in seen:
            seen.add(key)
            unique.append(c)
    oracle = os.path.join(ROOT, "tests", "oracle", "js_oracle.js")
    res = subprocess.run([args.node, oracle], input=json.dumps(unique).encode(), capture_output=True, check=True)
    answers = json.loads(res.stdout)
    version = subprocess.run([args.node, "--version"], capture_output=True, text=True).stdout.strip()
    recorded = [dict(c, expected=a) for c, a in zip(unique, answers)]
    for r in recorded:
        del r["replacement"]
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(json.dumps({"node": version}) + "\n")
        for r in recorded:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"recorded {len(recorded)} cases with node {version} in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
