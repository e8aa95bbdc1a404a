#!/usr/bin/env python3
"""Generates src/js_unicode/tables.rs from the real node binaries.

Every table comes from node's own answers (js_unicode_dump.js runs inside each node): the
property spellings each version accepts, the code points of every General_Category, Script,
Script_Extensions value and binary property, the members of the properties of strings, and the
case classes. Identical tables are stored once and shared between versions.

Candidates, never answers, come from outside node:
- property spellings: every `\\p{…}` of test262's generated property-escape tests (the
  ECMAScript tables' spellings and aliases); node decides which it accepts;
- emoji sequences: the `emoji` Python package's list, test262's string-property lists, and
  every keycap, flag pair and modifier pair; node decides which are members.

Usage: js_unicode.py --test262 DIR --node node18=PATH --node node20=PATH ... [--out FILE]
(DIR holds test/built-ins/RegExp/property-escapes/generated).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from tables_common import Pool, index_table, opt, ranges_table, rust_str, write_sets_table

HERE = os.path.dirname(os.path.abspath(__file__))
VERSIONS = ["node18", "node20", "node22", "node24", "node25", "node26"]


def utf16(text):
    """The UTF-16 code units of a string."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [raw[k] | raw[k + 1] << 8 for k in range(0, len(raw), 2)]


def js_string(body):
    """The value of a JavaScript string literal's body (escapes \\xHH, \\uHHHH, \\u{…})."""
    units = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            units += utf16(c)
            i += 1
        elif body[i + 1] == "x":
            units.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif body[i + 1] == "u" and body[i + 2] == "{":
            end = body.index("}", i)
            units += utf16(chr(int(body[i + 3:end], 16)))
            i = end + 1
        elif body[i + 1] == "u":
            units.append(int(body[i + 2:i + 6], 16))
            i += 6
        else:
            units += utf16(body[i + 1])
            i += 2
    raw = b"".join(u.to_bytes(2, "little") for u in units)
    return raw.decode("utf-16-le")


def candidates(test262):
    gen = os.path.join(test262, "test/built-ins/RegExp/property-escapes/generated")
    props = {}
    for name in sorted(os.listdir(gen)):
        if not name.endswith(".js"):
            continue
        canonical = name[:-3].replace("_-_", "=")
        text = open(os.path.join(gen, name), encoding="utf-8").read()
        spellings = []
        for s in re.findall(r'"\\\\p\{([^}"]*)\}"', text):
            if s not in spellings:
                spellings.append(s)
        props[canonical] = spellings
    strings = {}
    sdir = os.path.join(gen, "strings")
    for name in sorted(os.listdir(sdir)):
        if not name.endswith(".js") or "-negative" in name:
            continue
        text = open(os.path.join(sdir, name), encoding="utf-8").read()
        listed = [js_string(s) for s in re.findall(r'^\s*"((?:[^"\\]|\\.)*)",?$', text, re.M)]
        strings[name[:-3]] = listed
    extra = set()
    try:
        import emoji

        for k in emoji.EMOJI_DATA:
            extra.add(k)
            extra.add(k.replace("\ufe0f", ""))
            if len(k) == 1:
                extra.add(k + "\ufe0f")
                for m in range(0x1F3FB, 0x1F400):
                    extra.add(k + chr(m))
    except ImportError:
        print("warning: the emoji package is missing; sequences come from test262 only", file=sys.stderr)
    for c in "#*0123456789":
        extra.add(c + "\ufe0f\u20e3")
    for a in range(0x1F1E6, 0x1F200):
        for b in range(0x1F1E6, 0x1F200):
            extra.add(chr(a) + chr(b))
    every = set(extra)
    for listed in strings.values():
        every.update(listed)
    every = sorted(every)
    return props, {name: every for name in strings}


def dump(node, cands):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"props": cands[0], "strings": cands[1]}, f)
        path = f.name
    try:
        out = subprocess.run(
            [node, os.path.join(HERE, "js_unicode_dump.js"), path],
            check=True,
            capture_output=True,
        ).stdout
    finally:
        os.unlink(path)
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--test262", required=True)
    ap.add_argument("--node", action="append", default=[], help="VERSION=PATH, e.g. node20=node")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "src", "js_unicode", "tables.rs"))
    args = ap.parse_args()
    nodes = dict(n.split("=", 1) for n in args.node)
    missing = [v for v in VERSIONS if v not in nodes]
    if missing:
        sys.exit(f"every version is needed, missing: {', '.join(missing)}")
    cands = candidates(args.test262)
    dumps = {}
    for v in VERSIONS:
        print(f"dumping {v} ({nodes[v]})", file=sys.stderr)
        dumps[v] = dump(nodes[v], cands)
        d = dumps[v]
        print(f"  {d['node']} Unicode {d['unicode']}: {len(d['props'])} properties, {len(d['accepted'])} spellings", file=sys.stderr)

    sets = Pool()
    canon = sorted({c for d in dumps.values() for c in d["props"]})
    props = []
    for c in canon:
        props.append([sets.index(dumps[v]["props"][c]) if c in dumps[v]["props"] else None for v in VERSIONS])
    spell_of = {}
    for c in canon:
        for s in cands[0][c]:
            spell_of[s] = c
    spellings = []
    for s in sorted(spell_of):
        mask = sum(1 << i for i, v in enumerate(VERSIONS) if s in dumps[v]["accepted"])
        if mask:
            spellings.append((s, canon.index(spell_of[s]), mask))
    str_pool = Pool()
    str_names = sorted({n for d in dumps.values() for n in (d["strings"] or {})})
    str_props = []
    for n in str_names:
        str_props.append([str_pool.index(dumps[v]["strings"][n]) if dumps[v]["strings"] and n in dumps[v]["strings"] else None for v in VERSIONS])
    folds = Pool()
    fold_of = [folds.index(dumps[v]["folds"]) for v in VERSIONS]
    upper = Pool()
    upper_of = [upper.index(dumps[v]["upper"]) for v in VERSIONS]

    o = []
    w = o.append
    w("// Generated by crates/rxw-syntax/gen/js_unicode.py from node's own answers; do not edit.")
    w("// " + ", ".join(f"{v}: {dumps[v]['node']} (Unicode {dumps[v]['unicode']})" for v in VERSIONS))
    w("")
    w("/// A version that does not know the table.")
    w("pub(super) const NONE: u16 = u16::MAX;")
    w("/// The Unicode version of each node version's ICU.")
    w(f"pub(super) const UNICODE: [&str; {len(VERSIONS)}] = [" + ", ".join(rust_str(dumps[v]["unicode"]) for v in VERSIONS) + "];")
    ranges_table(w, "Distinct code point sets, each a sorted list of inclusive ranges.", "SETS", "u32", sets.items)
    w("/// Canonical property (`Script=Adlam`, `ASCII`) and its set per version.")
    w(f"pub(super) static PROPERTIES: [(&str, [u16; {len(VERSIONS)}]); {len(props)}] = [")
    for c, ix in zip(canon, props):
        w(f"    ({rust_str(c)}, [{', '.join(opt(i) for i in ix)}]),")
    w("];")
    w("/// Every accepted spelling, sorted: (spelling, property index, bit i = VERSIONS[i] accepts it).")
    w(f"pub(super) static SPELLINGS: [(&str, u16, u8); {len(spellings)}] = [")
    for s, ci, m in spellings:
        w(f"    ({rust_str(s)}, {ci}, 0b{m:04b}),")
    w("];")
    w("/// Distinct string lists of the properties of strings.")
    w(f"pub(super) static STRING_SETS: [&[&str]; {len(str_pool.items)}] = [")
    for s in str_pool.items:
        w("    &[" + ",".join(rust_str(x) for x in s) + "],")
    w("];")
    w("/// Properties of strings (`v` flag) and their list per version.")
    w(f"pub(super) static STRING_PROPERTIES: [(&str, [u16; {len(VERSIONS)}]); {len(str_names)}] = [")
    for n, ix in zip(str_names, str_props):
        w(f"    ({rust_str(n)}, [{', '.join(opt(i) for i in ix)}]),")
    w("];")
    w("/// Case classes under `iu`/`iv` (code points equal under simple case folding), flattened:")
    w("/// each class is its length then its members.")
    w(f"pub(super) static FOLDS: [&[u32]; {len(folds.items)}] = [")
    for f in folds.items:
        flat = []
        for cls in f:
            flat.append(len(cls))
            flat.extend(cls)
        w("    &[" + ",".join(f"0x{x:X}" for x in flat) + "],")
    w("];")
    index_table(w, "FOLDS_OF", fold_of)
    ranges_table(w, "Canonicalize without `u`: (code unit, its canonical form) where they differ.",
                 "UPPER", "u16", upper.items)
    index_table(w, "UPPER_OF", upper_of)
    write_sets_table(args.out, o, sets.items,
                     f" for {len(props)} properties, {len(str_pool.items)} string lists, "
                     f"{len(folds.items)} fold tables, {len(upper.items)} upper tables")


if __name__ == "__main__":
    main()
