#!/usr/bin/env python3
"""Records js_conformance.jsonl: JavaScript cases built from test262's RegExp tests, answered by
node (whatever `node` runs, node 20 for the checked-in file).

Only patterns and inputs come from test262; every expected answer is node's, through the
project's own oracle (tests/oracle/js_oracle.js). Cases:
- every regex literal and every `RegExp(…)` / `new RegExp(…)` call whose arguments are string
  literals (or variables holding one) in test/built-ins/RegExp, test/language/literals/regexp
  (the negative syntax tests included: node refuses those patterns, so rxw must too) and
  String.prototype's match, matchAll, replace, replaceAll, search and split tests, each run on
  TEXT, on EDGES and on the strings its test uses where they can be found simply: string
  literals on the pattern's line and on the lines that use the variable the pattern is stored
  in, every string of the file when it has few, and the code points at the edges of the
  file's `buildString` ranges; with the replacement templates given to `.replace(…)`,
  `.replaceAll(…)` and `[Symbol.replace](…)` as string literals, on some of those inputs;
- the patterns test262 builds character by character in loops (`\\` + each ASCII character,
  in and out of a class, with and without `u`/`v`; `\\cX`; quantifier-integer-limit.js);
- every spelling of property-escapes/generated/ as `\\p{…}` and `\\P{…}` over text made of
  the code points at the edges of the property's ranges (membership);
- unicodeSets/generated/ and the properties of strings: the class against each listed string;
- the issue's own cases (lone surrogate escapes, Canonicalize without `u`, `\\B` in a pair).

Inputs a Rust string cannot hold (lone surrogates) and inputs over MAX_INPUT code units are
left out; identical (pattern, flags, input, replacement) cases are recorded once, and a
pattern node refuses once whatever its inputs.

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

# A literal's flags: any letters, so that the syntax tests' bad flags are recorded too.
LITERAL_ANY = re.compile(r"(?<![\w)\]$])/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])*)/([A-Za-z]*)")
TEXT = "a_B 1π😀\u212ak\u017fK\n𝒜"
# A JavaScript string literal, single or double quoted.
STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
CALL = re.compile(r"(?<![\w.])(?:new\s+)?RegExp\(\s*(" + STRING + r"|[A-Za-z_$][\w$]*)\s*(?:,\s*(" + STRING + r"|[A-Za-z_$][\w$]*)\s*)?\)")
ASSIGN = re.compile(r"(?:var|let|const)?\s*([A-Za-z_$][\w$]*)\s*=\s*(" + STRING + r")\s*;?\s*$")
HOLDER = re.compile(r"(?:var|let|const)?\s*([A-Za-z_$][\w$]*)\s*=\s*(?:new\s+)?(?:RegExp\(|/)")
# Characters where engines tend to differ: line terminators and white space, case pairs that
# fold only with `u` or only without it, syntax characters, astral letters and their cases.
EDGES = (
    "\t\v\f\r\n\u0085\u00a0\u1680\u180e\u2000\u2028\u2029\u202f\u205f\u3000\ufeff"
    " aA0_zZ9\u00df\u1e9e\u0130i\u0131I\u017fsS\u212akK\u03c3\u03c2\u03a3\u01c4\u01c5\u01c6"
    "\u00b5\u039c\u03bc\u00e5\u212b$.*+?()[]{}|\\/^-,:=!<>\U0001d49c\U0001f600\U00010400\U00010428"
)
# A replacement template given as a string literal: `x.replace(/re/, "t")`, `re[Symbol.replace]("in", "t")`.
TEMPLATE = re.compile(r"\.replace(?:All)?\(\s*(?:/(?:\\.|[^/\\\n])+/[a-z]*|[A-Za-z_$][\w$]*)\s*,\s*(" + STRING + r")\s*\)")
SYMBOL_REPLACE = re.compile(r"\[Symbol\.replace\]\(\s*(" + STRING + r")\s*,\s*(" + STRING + r")\s*\)")
# Each template runs on this many of its pattern's inputs.
TEMPLATE_INPUTS = 4
MAX_INPUT = 400
MAX_INPUTS = 16
# A file runs each of its patterns on all of its strings when that makes at most this many
# cases (the generated property tests' strings are spellings, not inputs).
FILE_CASES = 160
# Folders whose every file is read (relative to test/).
FOLDERS = ["built-ins/RegExp", "language/literals/regexp"] + [
    f"built-ins/String/prototype/{m}" for m in ["match", "matchAll", "replace", "replaceAll", "search", "split"]
]


def decode(literal):
    """The value of a quoted JavaScript string literal, or None if UTF-8 cannot hold it."""
    body = literal[1:-1]
    # Line continuations and the single-character escapes js_string does not know.
    body = body.replace("\\\n", "")
    out, i = [], 0
    simple = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", "b": "\b", "0": "\0"}
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body) and body[i + 1] in simple and not (
            body[i + 1] == "0" and i + 2 < len(body) and body[i + 2].isdigit()
        ):
            out.append("\\u%04x" % ord(simple[body[i + 1]]))
            i += 2
        elif body[i] == "\\" and i + 1 < len(body) and body[i + 1] in "123456789":
            return None  # legacy octal escapes: not worth decoding
        elif body[i] == "\\" and i + 1 < len(body):
            out.append(body[i:i + 2])
            i += 2
        else:
            out.append(body[i])
            i += 1
    try:
        value = js_string("".join(out))
        value.encode("utf-8")
    except (ValueError, UnicodeError, IndexError):
        return None
    return value


# Assertion messages are not inputs.
MESSAGE = re.compile(r"must |expected|Actual|^#\d|\bshould\b|The value of")


def strings_in(line):
    values = (decode(m.group(0)) for m in re.finditer(STRING, line))
    return [v for v in values if v is not None and not MESSAGE.search(v)]


def file_cases(path):
    """(pattern, flags, inputs, replacement templates) for every literal and RegExp call with
    literal arguments."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    values = {}
    for line in lines:
        m = ASSIGN.match(line.strip())
        if m:
            v = decode(m.group(2))
            if v is not None:
                values[m.group(1)] = v
    found = []  # (pattern, flags, line number)
    in_block = False
    for n, line in enumerate(lines):
        s = line.strip()
        if in_block:
            in_block = "*/" not in s
            continue
        if s.startswith("/*"):
            in_block = "*/" not in s
            continue
        if s.startswith("//") or s.startswith("*"):
            continue
        for m in LITERAL_ANY.finditer(line):
            found.append((m.group(1), m.group(2), n))
        for m in CALL.finditer(line):
            args = []
            for a in (m.group(1), m.group(2)):
                if a is None:
                    args.append("")
                elif a[0] in "'\"":
                    args.append(decode(a))
                else:
                    args.append(values.get(a))
            if None not in args:
                found.append((args[0], args[1], n))
    everywhere = []
    shared = list(dict.fromkeys(v for line in lines for v in strings_in(line)))
    if len(shared) * len(found) <= FILE_CASES and "property-escapes/generated" not in path:
        everywhere += shared
    if "buildString(" in "\n".join(lines):
        everywhere.append(edges("\n".join(lines)))
    out = []
    for pattern, flags, n in found:
        # A generated property test's own input is its property's code points.
        inputs = [] if "property-escapes/generated" in path else [TEXT, EDGES]
        uses = [n]
        holder = HOLDER.match(lines[n].strip())
        if holder:
            name = re.escape(holder.group(1))
            uses += [k for k, l in enumerate(lines) if k != n and re.search(r"(?<![\w$.])" + name + r"(?![\w$])", l)]
        templates = []
        for k in uses:
            for m in TEMPLATE.finditer(lines[k]):
                templates.append(decode(m.group(1)))
            for m in SYMBOL_REPLACE.finditer(lines[k]):
                templates.append(decode(m.group(2)))
                inputs.append(decode(m.group(1)))
            inputs += strings_in(lines[k])
            for name in re.findall(r"(?<![\w$.])([A-Za-z_$][\w$]*)(?![\w$])", lines[k]):
                if name in values:
                    inputs.append(values[name])
        inputs += everywhere
        inputs = [t for t in dict.fromkeys(inputs) if t != pattern and len(t) <= MAX_INPUT]
        inputs = inputs[:MAX_INPUTS] or [TEXT]
        templates = [t for t in dict.fromkeys(templates) if t is not None]
        out.append((pattern, flags, inputs, templates))
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


def loop_cases():
    """The patterns test262 builds in loops, character by character (pattern, flags, input, test)."""
    ascii_text = "".join(chr(c) for c in range(0x80))
    controls = "".join(chr(c) for c in range(0x20))
    out = []
    for cu in range(0x80):
        c = chr(cu)
        for flags in ["", "u", "v"]:
            # unicode_restricted_identity_escape*.js, S15.10.2.10_A5.1_T1.js: `\\c` and `[\\c]`.
            out.append(("\\" + c, flags, ascii_text, "built-ins/RegExp/unicode_restricted_identity_escape.js"))
            out.append(("[\\" + c + "]", flags, ascii_text, "built-ins/RegExp/unicode_restricted_identity_escape.js"))
        for flags in ["", "u"]:
            # S15.10.2.10_A2.1_T*.js and unicode_restricted_identity_escape_c.js: `\\cX`.
            for p in ["\\c" + c, "[\\c" + c + "]", "[\\c" + c + "-a]"]:
                out.append((p, flags, controls + "\\c" + c + "a_", "built-ins/RegExp/S15.10.2.10_A2.1_T2.js"))
    # quantifier-integer-limit.js
    big = "9007199254740991"
    for p, f, t in [("b{" + big + "}", "u", ""), ("b{" + big + ",}?", "", "a"), ("b{" + big + "," + big + "}", "", "b")]:
        out.append((p, f, t, "built-ins/RegExp/quantifier-integer-limit.js"))
    return out


def cases(t262):
    base = os.path.join(t262, "test", "built-ins", "RegExp")
    out = []

    def add(pattern, flags, text, source, replacement=None):
        out.append({"pattern": pattern, "flags": flags, "input": text, "replacement": replacement, "source": source})

    for folder in FOLDERS:
        root = os.path.join(t262, "test", folder)
        for dirpath, dirnames, names in os.walk(root):
            dirnames.sort()
            for name in sorted(names):
                if not name.endswith(".js"):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, os.path.join(t262, "test"))
                for p, f, inputs, templates in file_cases(path):
                    f = f.replace("g", "", 1) if f.count("g") == 1 else f
                    for text in inputs:
                        add(p, f, text, rel)
                    for t in templates:
                        for text in inputs[:TEMPLATE_INPUTS]:
                            add(p, f, text, rel, t)
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
    for p, f, t, source in loop_cases():
        add(p, f, t, source)
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
        key = (c["pattern"], c["flags"], c["input"], c["replacement"])
        if key not in seen:
            seen.add(key)
            unique.append(c)
    oracle = os.path.join(ROOT, "tests", "oracle", "js_oracle.js")
    res = subprocess.run([args.node, oracle], input=json.dumps(unique).encode(), capture_output=True, check=True)
    answers = json.loads(res.stdout)
    version = subprocess.run([args.node, "--version"], capture_output=True, text=True).stdout.strip()
    recorded = []
    refused = set()
    for c, a in zip(unique, answers):
        # A pattern node refuses is one syntax case, whatever the input.
        if "error" in a:
            if (c["pattern"], c["flags"]) in refused:
                continue
            refused.add((c["pattern"], c["flags"]))
        recorded.append(dict(c, expected=a))
    for r in recorded:
        if r["replacement"] is None or "error" in r["expected"]:
            del r["replacement"]
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(json.dumps({"node": version}) + "\n")
        for r in recorded:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"recorded {len(recorded)} cases with node {version} in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
