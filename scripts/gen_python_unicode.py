#!/usr/bin/env python3
"""Generates the per-release Unicode tables of rxw's Python flavors from the real interpreters.

Each CPython release carries its own Unicode data (3.8 = 12.1, 3.9 and 3.10 = 13.0,
3.11 = 14.0, 3.12 = 15.0, 3.13 = 15.1, 3.14 = 16.0, 3.15 = 17.0), and its `re` module answers `\\w`, `\\d`, `\\s` and
case-insensitive matching from it. This script asks each interpreter what its `re` does, code
point by code point, and writes the answers as compact Rust tables:

    python3 scripts/gen_python_unicode.py            # run every release, write the tables
    python3 scripts/gen_python_unicode.py --dump     # this interpreter's answers, as JSON

With no argument it runs itself with `--dump` under each interpreter found (pyenv's
`~/.pyenv/versions/3.X.*/bin/python`, the Pyodide builds of 3.14 and 3.15 that .ci/run
installs, or `python3.X` on PATH; `--python 3.8=/path/python`
names one) and writes crates/rxw-engine/src/python_unicode/tables.rs. Identical tables are
written once and shared between releases. Only the standard library is used.

What is dumped, for each code point (surrogates included, as CPython's `str` holds them):
- word, digit, space: whether `re.fullmatch(r'\\w' / r'\\d' / r'\\s', c)` matches;
- lower: `_sre.unicode_tolower(c)`, the lower case sre compares under IGNORECASE;
- fixes: sre's extra case equivalences (`re._casefix._EXTRA_CASES`, before 3.11
  `sre_compile._ignorecase_fixes`: `s` and `ſ`, `i` and `ı` …).
"""
import json
import os
import subprocess
import sys

RELEASES = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15"]
VARIANT = {"3.8": "V3_8", "3.9": "V3_9", "3.10": "V3_10", "3.11": "V3_11", "3.12": "V3_12",
           "3.13": "V3_13", "3.14": "V3_14", "3.15": "V3_15"}
MAX_CP = 0x10FFFF
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "rxw-engine",
                   "src", "python_unicode", "tables.rs")


def ranges(pred):
    """Inclusive ranges of the code points for which pred holds."""
    out = []
    start = None
    for c in range(MAX_CP + 1):
        if pred(c):
            if start is None:
                start = c
        elif start is not None:
            out.append([start, c - 1])
            start = None
    if start is not None:
        out.append([start, MAX_CP])
    return out


def dump():
    """This interpreter's answers."""
    import re
    import unicodedata
    import _sre
    try:
        from re._casefix import _EXTRA_CASES as extra  # 3.11 and later
    except ImportError:
        from sre_compile import _ignorecase_fixes as extra  # 3.10 and earlier
    word = re.compile(r"\w").fullmatch
    digit = re.compile(r"\d").fullmatch
    space = re.compile(r"\s").fullmatch
    lower = {}
    for c in range(MAX_CP + 1):
        lo = _sre.unicode_tolower(c)
        if lo != c:
            lower[c] = lo
    fixes = sorted({tuple(sorted((k,) + tuple(v))) for k, v in extra.items()})
    return {
        "python": "%d.%d" % sys.version_info[:2],
        "unicode": unicodedata.unidata_version,
        "word": ranges(lambda c: word(chr(c)) is not None),
        "digit": ranges(lambda c: digit(chr(c)) is not None),
        "space": ranges(lambda c: space(chr(c)) is not None),
        "lower": sorted([c, lo] for c, lo in lower.items()),
        "fixes": [list(g) for g in fixes],
    }


def find_interpreters(named):
    """Release -> interpreter path, for the releases found."""
    found = dict(named)
    root = os.path.expanduser("~/.pyenv/versions")
    for rel in RELEASES:
        if rel in found:
            continue
        if os.path.isdir(root):
            for d in sorted(os.listdir(root), reverse=True):
                path = os.path.join(root, d, "bin", "python")
                if (d == rel or d.startswith(rel + ".")) and os.access(path, os.X_OK):
                    found[rel] = path
                    break
        if rel not in found:
            # 3.14 and later as Pyodide, where .ci/run installs it.
            cache = os.environ.get("RXW_PYODIDE_CACHE", os.path.expanduser("~/.cache/rxw/pyodide"))
            path = os.path.join(cache, rel.replace(".", ""), "bin", "python" + rel)
            if os.access(path, os.X_OK):
                found[rel] = path
        if rel not in found:
            for d in os.environ.get("PATH", "").split(os.pathsep):
                path = os.path.join(d, "python" + rel)
                if os.access(path, os.X_OK):
                    found[rel] = path
                    break
    return found


def lower_runs(pairs):
    """(start, end, stride, delta) runs: code points start, start+stride, … end each map to
    themselves plus delta. Runs take consecutive mapped code points only, so their spans never
    overlap and a binary search on start finds the one run that can hold a code point."""
    runs = []
    for c, lo in pairs:
        delta = lo - c
        if runs:
            start, end, stride, d = runs[-1]
            if d == delta and (stride == 0 or c - end == stride) and c - end in (1, 2):
                runs[-1] = [start, c, c - end, d]
                continue
        runs.append([c, c, 0, delta])
    return [[s, e, st or 1, d] for s, e, st, d in runs]


def rust_ranges(name, rs):
    body = "".join("(0x%X, 0x%X)," % (a, b) for a, b in rs)
    return "pub(super) static %s: &[(u32, u32)] = &[%s];\n" % (name, body)


def write(dumps):
    kinds = ["word", "digit", "space", "lower", "fixes"]
    statics = []
    names = {k: {} for k in kinds}   # kind -> json text -> static name
    chosen = {}                       # release -> kind -> static name
    sizes = {}
    for rel in RELEASES:
        d = dumps[rel]
        chosen[rel] = {}
        for kind in kinds:
            data = d[kind]
            if kind == "lower":
                data = lower_runs(data)
            key = json.dumps(data)
            if key not in names[kind]:
                name = "%s_%s" % (kind.upper(), d["unicode"].replace(".", "_"))
                while name in names[kind].values():
                    name += "_B"
                names[kind][key] = name
                if kind == "lower":
                    body = "".join("(0x%X, 0x%X, %d, %d)," % tuple(r) for r in data)
                    statics.append("pub(super) static %s: &[(u32, u32, u32, i32)] = &[%s];\n"
                                   % (name, body))
                    sizes[name] = len(data) * 16
                elif kind == "fixes":
                    body = "".join("&[%s]," % ", ".join("0x%X" % c for c in g) for g in data)
                    statics.append("pub(super) static %s: &[&[u32]] = &[%s];\n" % (name, body))
                    sizes[name] = sum(len(g) * 4 + 16 for g in data)
                else:
                    statics.append(rust_ranges(name, data))
                    sizes[name] = len(data) * 8
            chosen[rel][kind] = names[kind][key]
    out = []
    out.append("// Generated by scripts/gen_python_unicode.py from the interpreters' own answers; "
               "do not edit.\n")
    out.append("// Table sizes in the binary (bytes): %s; total %d.\n"
               % (", ".join("%s %d" % kv for kv in sorted(sizes.items())), sum(sizes.values())))
    out.append("\nuse super::PyUnicode;\nuse rxw_syntax::PyVersion;\n\n")
    out.append("/// Each release's tables (releases with the same data share them).\n")
    out.append("pub(super) fn for_release(v: PyVersion) -> &'static PyUnicode {\n    match v {\n")
    for rel in RELEASES:
        out.append("        PyVersion::%s => &PY_%s,\n" % (VARIANT[rel], VARIANT[rel][1:]))
    out.append("    }\n}\n\n")
    for rel in RELEASES:
        c = chosen[rel]
        out.append("static PY_%s: PyUnicode = PyUnicode {\n    python: \"%s\",\n    unicode: \"%s\",\n"
                   "    word: %s,\n    digit: %s,\n    space: %s,\n    lower: %s,\n    fixes: %s,\n};\n\n"
                   % (VARIANT[rel][1:], rel, dumps[rel]["unicode"], c["word"], c["digit"],
                      c["space"], c["lower"], c["fixes"]))
    out.extend(statics)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("".join(out))
    print("wrote %s (%d bytes of tables)" % (os.path.relpath(OUT), sum(sizes.values())))


def dumped(dump):
    """Under `--dump` alone, writes `dump()` (this interpreter's answers) as compact JSON and
    says so; else False. The generators that run themselves under each interpreter share it."""
    if sys.argv[1:] != ["--dump"]:
        return False
    json.dump(dump(), sys.stdout, separators=(",", ":"))
    return True


def main():
    if dumped(dump):
        return
    args = sys.argv[1:]
    named = {}
    while args:
        a = args.pop(0)
        if a == "--python" and args:
            rel, _, path = args.pop(0).partition("=")
            named[rel] = path
        else:
            sys.exit("usage: gen_python_unicode.py [--dump] [--python 3.X=PATH]...")
    found = find_interpreters(named)
    missing = [r for r in RELEASES if r not in found]
    if missing:
        sys.exit("missing interpreters for %s: every release is needed to write the tables"
                 % ", ".join(missing))
    dumps = {}
    for rel in RELEASES:
        text = subprocess.check_output([found[rel], os.path.abspath(__file__), "--dump"])
        dumps[rel] = json.loads(text)
        if dumps[rel]["python"] != rel:
            sys.exit("%s is Python %s, not %s" % (found[rel], dumps[rel]["python"], rel))
        print("%s: %s (Unicode %s)" % (rel, found[rel], dumps[rel]["unicode"]), file=sys.stderr)
    write(dumps)


if __name__ == "__main__":
    main()
