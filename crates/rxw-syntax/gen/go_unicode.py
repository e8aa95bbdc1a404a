#!/usr/bin/env python3
"""Generates src/go_unicode/tables.rs from the real Go toolchains.

Every table comes from Go's own answers: go_unicode.go runs under each release and asks its
regexp/syntax to parse `\\p{NAME}` (and `(?i)\\p{NAME}`) for every candidate name, keeping the
ranges of the class it builds, and lists every code point's unicode.SimpleFold (what `(?i)`
folds with). Identical sets and fold tables are stored once and shared between releases.

Candidates, never answers, come from outside a release: the names every release lists (the
keys of unicode.Categories, unicode.Scripts and, from Go 1.25, unicode.CategoryAliases), Any,
ASCII, Assigned, Cn, LC, every single letter, and loose variants of each (lower case, upper
case, spaces, hyphens, no underscores, an `Is` prefix). Each release decides which it accepts.
The script then checks that the release's lookup is one of the two rules the Rust side applies
(mod.rs): the exact name (Go 1.24 and before), or Go 1.25's canonical name (separators `_`,
`-` and space dropped, the first other byte upper-cased and the rest lower-cased), and stops if
an answer disagrees with the rule.

Releases: the table releases are the Go releases whose regexp behaviour differs (RELEASES);
every other toolchain given is checked to answer exactly as the newest table release before it
(1.23 and 1.24 as 1.22) and is not stored.

Usage: go_unicode.py [--go PATH ...] [--out FILE]
Without --go it runs every toolchain it finds: `go` on the PATH and every
$RXW_GO_CACHE/<version>/go/bin/go (default ~/.cache/rxw/go), as .ci/run installs them.
"""
import argparse
import bisect
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tables_common import Pool, canonical, index_table, opt, ranges_table, rust_str, write_sets_table

HERE = os.path.dirname(os.path.abspath(__file__))
RELEASES = ["1.19", "1.21", "1.22", "1.25", "1.26", "1.27"]
SPECIALS = ["Any", "ASCII", "Assigned", "Cn", "LC"]

GO_MOD = "module rxwgounicode\n\ngo 1.19\n"
# unicode.CategoryAliases exists from Go 1.25 on; an older release compiles the nil one.
ALIASES_NEW = """//go:build go1.25

package main

import "unicode"

var categoryAliases = unicode.CategoryAliases
"""
ALIASES_OLD = """//go:build !go1.25

package main

var categoryAliases map[string]string
"""


def variants(name):
    return {
        name,
        name.lower(),
        name.upper(),
        canonical(name),
        name.replace("_", " "),
        name.replace("_", "-"),
        name.replace("_", ""),
        name.lower().replace("_", " "),
        " " + name + " ",
        "_" + name.lower(),
        "Is" + name,
    }


def toolchains(paths):
    """(release, exact version, path) of each toolchain."""
    if not paths:
        found = shutil.which("go")
        if found:
            paths.append(found)
        cache = os.environ.get("RXW_GO_CACHE") or os.path.expanduser("~/.cache/rxw/go")
        paths += sorted(glob.glob(os.path.join(cache, "*", "go", "bin", "go")))
    out = {}
    for p in paths:
        text = subprocess.run([p, "version"], check=True, capture_output=True, text=True,
                              env=go_env(None)).stdout
        m = re.search(r"go version (go(\d+)\.(\d+)(?:\.\d+)?\S*)", text)
        if not m:
            sys.exit(f"{p}: cannot read `go version`: {text!r}")
        release = f"{m.group(2)}.{m.group(3)}"
        if release in out:
            print(f"note: {p} is a second {release} ({m.group(1)}); {out[release][1]} is used",
                  file=sys.stderr)
            continue
        out[release] = (release, m.group(1), p)
    return [out[r] for r in sorted(out, key=lambda r: tuple(map(int, r.split("."))))]


def go_env(work):
    env = dict(os.environ)
    env.update({"GOTOOLCHAIN": "local", "GOFLAGS": "", "GO111MODULE": "on", "GOWORK": "off"})
    if work:
        env.setdefault("GOCACHE", os.path.join(work, "gocache"))
        env["GOPATH"] = os.path.join(work, "gopath")
    return env


def run_go(go, tag, work, args, stdin=None):
    src = os.path.join(work, "src")
    if not os.path.isdir(src):
        os.makedirs(src)
        shutil.copy(os.path.join(HERE, "go_unicode.go"), src)
        for name, text in [("go.mod", GO_MOD), ("aliases_new.go", ALIASES_NEW),
                           ("aliases_old.go", ALIASES_OLD)]:
            with open(os.path.join(src, name), "w") as f:
                f.write(text)
    binary = os.path.join(work, f"go_unicode-{tag}")
    if not os.path.exists(binary):
        subprocess.run([go, "build", "-o", binary, "."], cwd=src, check=True, env=go_env(work))
    out = subprocess.run([binary] + args, input=stdin, capture_output=True, check=True)
    return json.loads(out.stdout)


def closure(ranges, nxt):
    """The code points of `ranges` closed under the fold orbits of `nxt` (c -> SimpleFold(c))."""
    starts = [a for a, _ in ranges]
    members = set()
    for c in nxt:
        i = bisect.bisect_right(starts, c) - 1
        if i >= 0 and c <= ranges[i][1]:
            d = c
            while True:
                members.add(d)
                d = nxt[d]
                if d == c:
                    break
    pts = sorted(members)
    out = [list(r) for r in ranges]
    for p in pts:
        out.append([p, p])
    out.sort()
    merged = []
    for a, b in out:
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def check_rule(release, d, cands):
    """Which lookup rule the release follows ("exact" or "loose"), checked on every candidate."""
    props = d["props"]
    loose = "greek" in props
    if loose:
        for c in cands:
            k = canonical(c)
            if (c in props) != (k in props):
                sys.exit(f"{release}: \\p{{{c}}} is {'accepted' if c in props else 'refused'} "
                         f"but its canonical name {k!r} is not: the loose rule does not hold")
            if c in props and props[c] != props[k]:
                sys.exit(f"{release}: \\p{{{c}}} and \\p{{{k}}} differ")
    else:
        own = set(d["own"]) | {"Any"}
        for c in cands:
            if (c in props) != (c in own):
                sys.exit(f"{release}: \\p{{{c}}} is {'accepted' if c in props else 'refused'}, "
                         "against the exact-name rule")
    return "loose" if loose else "exact"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--go", action="append", default=[], help="a go binary (any number)")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "src", "go_unicode", "tables.rs"))
    args = ap.parse_args()
    chains = toolchains(args.go)
    have = {r for r, _, _ in chains}
    missing = [r for r in RELEASES if r not in have]
    if missing:
        sys.exit(f"every table release is needed, missing: {', '.join(missing)}")
    work = tempfile.mkdtemp(prefix="go_unicode-")
    try:
        names = set(SPECIALS)
        own = {}
        for r, v, go in chains:
            d = run_go(go, v, work, ["-names"])
            if d["go"] != v:
                sys.exit(f"{go}: runs as {d['go']}, said {v}")
            own[r] = d["names"]
            names.update(d["names"])
        cands = set()
        for n in names:
            cands |= variants(n)
        for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            cands |= {c, c.lower()}
        cands |= {canonical(c) for c in cands}
        cands.discard("")
        cands = sorted(cands)
        dumps = {}
        for r, v, go in chains:
            print(f"dumping {r} ({v}, {go})", file=sys.stderr)
            d = run_go(go, v, work, [], json.dumps({"names": cands}).encode())
            d["own"] = own[r]
            d["rule"] = check_rule(r, d, cands)
            # (?i)\p{NAME} is the set closed under SimpleFold's orbits when the release has a
            # fold table for the property (unicode.FoldCategory, FoldScript), else the set as it
            # is: `unfolded` names the properties where that differs from the closure.
            nxt = {c: f for c, f in d["fold"]}
            d["unfolded"] = set()
            for n, s in d["props"].items():
                folded = d["fold_props"][n]
                if folded == closure(s, nxt):
                    continue
                if folded != s:
                    sys.exit(f"{r}: (?i)\\p{{{n}}} is neither \\p{{{n}}} nor its fold closure")
                d["unfolded"].add(canonical(n))
            print(f"  {d['go']} Unicode {d['unicode']}: {len(d['props'])} of {len(cands)} names "
                  f"accepted ({d['rule']} names), {len(d['fold'])} code points fold; (?i) leaves "
                  f"unfolded: {', '.join(sorted(d['unfolded'])) or 'none'}", file=sys.stderr)
            dumps[r] = d
    finally:
        shutil.rmtree(work, ignore_errors=True)

    # Every release that is not a table release answers as the newest table release before it.
    checked = []
    for r, v, _ in chains:
        if r in RELEASES:
            continue
        key = tuple(map(int, r.split(".")))
        before = [t for t in RELEASES if tuple(map(int, t.split("."))) < key]
        if not before:
            print(f"note: {v} is older than every table release; not checked", file=sys.stderr)
            continue
        t = before[-1]
        for field in ("unicode", "props", "fold_props", "fold", "rule", "unfolded"):
            if dumps[r][field] != dumps[t][field]:
                sys.exit(f"{v} answers {field} unlike {dumps[t]['go']}: {r} needs a table of its own")
        checked.append((r, v, t))

    # A key is what a release looks up: the name itself (exact rule) or its canonical name
    # (loose rule). A property is a canonical name; its row holds each release's set.
    keys = {}
    for i, r in enumerate(RELEASES):
        d = dumps[r]
        for n in d["props"]:
            k = n if d["rule"] == "exact" else canonical(n)
            keys.setdefault(k, 0)
            keys[k] |= 1 << i
    sets = Pool()
    rows = Pool()
    row_of = {}
    for k in sorted(keys):
        p = canonical(k)
        row = []
        unfolded = 0
        for i, r in enumerate(RELEASES):
            if p in dumps[r]["unfolded"]:
                unfolded |= 1 << i
            d = dumps[r]
            answers = {json.dumps(s) for name, s in d["props"].items() if canonical(name) == p}
            if len(answers) > 1:
                sys.exit(f"{r}: two spellings of {p!r} with different sets")
            row.append(sets.index(json.loads(answers.pop())) if answers else None)
        row_of[k] = rows.index((row, unfolded))
        for i, r in enumerate(RELEASES):
            if keys[k] >> i & 1:
                assert sets.items[rows.items[row_of[k]][0][i]] == dumps[r]["props"][k], (k, r)
    folds = Pool()
    folds_of = [folds.index(dumps[r]["fold"]) for r in RELEASES]

    o = []
    w = o.append
    w("// Generated by crates/rxw-syntax/gen/go_unicode.py from each Go release's own regexp/syntax")
    w("// and unicode.SimpleFold; do not edit.")
    w("// " + ", ".join(f"{r}: {dumps[r]['go']} (Unicode {dumps[r]['unicode']})" for r in RELEASES))
    if checked:
        w("// Checked to answer exactly as the table release before them, and not stored: "
          + ", ".join(f"{v} (as {t})" for _, v, t in checked))
    w("")
    w("/// A release that does not know the property.")
    w("pub(super) const NONE: u16 = u16::MAX;")
    n = len(RELEASES)
    w("/// The table releases, oldest first.")
    w(f"pub(super) const RELEASES: [&str; {n}] = [" + ", ".join(rust_str(r) for r in RELEASES) + "];")
    w("/// The exact toolchain each table came from (`runtime.Version()`).")
    w(f"pub(super) const GO: [&str; {n}] = [" + ", ".join(rust_str(dumps[r]["go"]) for r in RELEASES) + "];")
    w("/// Each release's `unicode.Version`.")
    w(f"pub(super) const UNICODE: [&str; {n}] = [" + ", ".join(rust_str(dumps[r]["unicode"]) for r in RELEASES) + "];")
    w("/// Whether the release looks a name up by its canonical form (Go 1.25's canonicalName) rather")
    w("/// than as written.")
    w(f"pub(super) const LOOSE: [bool; {n}] = [" + ", ".join("true" if dumps[r]["rule"] == "loose" else "false" for r in RELEASES) + "];")
    ranges_table(w, "Distinct code point sets, each a sorted list of inclusive ranges.", "SETS", "u32", sets.items)
    w("/// Distinct rows: a property's set in each release (index into SETS), NONE where no spelling")
    w("/// of it is known; and bit i set where RELEASES[i] has no fold table for the property, so")
    w("/// that `(?i)` leaves its set as it is instead of closing it under SimpleFold.")
    w(f"pub(super) static ROWS: [([u16; {n}], u8); {len(rows.items)}] = [")
    for row, unfolded in rows.items:
        w("    ([" + ", ".join(opt(i) for i in row) + f"], 0b{unfolded:0{n}b}),")
    w("];")
    w("/// Every key a release looks up, sorted: (key, row, bit i = RELEASES[i] accepts `\\p{key}`).")
    w("/// A key is the name as written for an exact release, its canonical form for a loose one.")
    w(f"pub(super) static KEYS: [(&str, u16, u8); {len(keys)}] = [")
    for k in sorted(keys):
        w(f"    ({rust_str(k)}, {row_of[k]}, 0b{keys[k]:0{n}b}),")
    w("];")
    ranges_table(w, "unicode.SimpleFold: (c, SimpleFold(c)) for every code point it moves, sorted by c.",
                 "FOLDS", "u32", folds.items)
    w("/// The fold table of each release.")
    index_table(w, "FOLDS_OF", folds_of)
    write_sets_table(args.out, o, sets.items,
                     f", {len(rows.items)} rows, {len(keys)} keys, {len(folds.items)} fold tables")


if __name__ == "__main__":
    main()
