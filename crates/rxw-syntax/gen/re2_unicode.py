#!/usr/bin/env python3
"""Generates src/re2_unicode/tables.rs from RE2 as the google-re2 package runs it.

Every table comes from RE2's own answers, asked through `import re2` (google-re2) with the
package's default options:

- names: `\\p{NAME}` is compiled for every candidate name; the accepted ones are kept, and
  `\\pX` is checked to answer as `\\p{X}` for every accepted one-letter name, `\\p{^NAME}` and
  `\\PNAME` as the complement.
- sets: the code points of `\\p{NAME}` are the runs that `\\p{NAME}+` matches in a text of every
  code point in order (U+0000 … U+10FFFF, surrogates included as their three-byte forms, which
  RE2 reads as characters), so each match is one range.
- case folding: which code points `(?i)c` matches for each c. A first pass finds every code
  point that folds with another one: for the residue classes X of three moduli whose product
  passes U+10FFFF (101, 103, 109), the code points `(?i)[X]` matches outside X; any two code
  points are in different classes of at least one modulus, so no pair is missed. A second pass
  compiles `(?i)c` for each of those and lists what it matches among them: its orbit.
- `(?i)\\p{NAME}` is asked as well and checked to be the property's set closed under the
  orbits (stored apart if RE2 ever answers otherwise), and `(?i)\\P{NAME}` its complement.
- the characters a group name may hold: the union of the Lu, Ll, Lt, Lm, Lo, Nl, Mn, Mc, Nd and
  Pc sets, checked by compiling `(?P<c>x)` at every edge of every range of it and of its
  complement.
- the Unicode version: the two-letter category sets are compared with the general categories
  of each CPython found (`python3.X` on the PATH and pyenv's), whose `unicodedata` says its
  version; exactly one must agree with every category (or pass --unicode).

Candidates, never answers, come from outside: every name Go's tables list (go_unicode, all
releases: the Unicode 17.0 scripts and the category long names), every two-letter
`[A-Z][a-z]`, every letter, Any, ASCII, Assigned, L&, and loose variants of each (lower and
upper case, spaces and hyphens for underscores, no underscores, an `Is` prefix, spaces around).

The script also compares RE2's data with each Go release of go_unicode/tables.rs and says where
it is identical (names, sets, fold orbits).

Usage: re2_unicode.py [--out FILE] [--unicode VERSION]
"""
import argparse
import bisect
import glob
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys

import re2

from tables_common import Pool, canonical, fmt_ranges, ranges_table, rust_str, write_sets_table

HERE = os.path.dirname(os.path.abspath(__file__))
GO_TABLES = os.path.join(HERE, "..", "src", "go_unicode", "tables.rs")
OPTIONS = re2.Options()
OPTIONS.log_errors = False
MAX = 0x10FFFF
MODULI = [101, 103, 109]
NAME_CATEGORIES = ["Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Mn", "Mc", "Nd", "Pc"]

# Every code point, in order, as RE2 reads bytes (surrogates as their three-byte forms).
ALL = "".join(map(chr, range(MAX + 1))).encode("utf-8", "surrogatepass")


def compile_or_none(pattern):
    try:
        return re2.compile(pattern, OPTIONS)
    except re2.error:
        return None


def escape(c):
    return "\\x{%X}" % c


def runs(rx, text=ALL):
    """The ranges of code points a `…+` pattern matches in a text of consecutive code points."""
    out = []
    for m in rx.finditer(text):
        s = m.group().decode("utf-8", "surrogatepass")
        a, b = ord(s[0]), ord(s[-1])
        if b - a + 1 != len(s):
            sys.exit(f"{rx.pattern!r}: a run that is not consecutive code points")
        if out and out[-1][1] + 1 >= a:
            sys.exit(f"{rx.pattern!r}: two runs that touch")
        out.append([a, b])
    return out


def members(rx, text):
    """The code points a one-character pattern matches in `text`."""
    return [ord(m.group().decode("utf-8", "surrogatepass")) for m in rx.finditer(text)]


def complement(ranges):
    out = []
    nxt = 0
    for a, b in ranges:
        if a > nxt:
            out.append([nxt, a - 1])
        nxt = b + 1
    if nxt <= MAX:
        out.append([nxt, MAX])
    return out


def normalize(ranges):
    merged = []
    for a, b in sorted(ranges):
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def to_ranges(points):
    return normalize([[p, p] for p in points])


def closure(ranges, orbit_of):
    starts = [a for a, _ in ranges]
    extra = []
    for c, orbit in orbit_of.items():
        i = bisect.bisect_right(starts, c) - 1
        if i >= 0 and c <= ranges[i][1]:
            extra += [[m, m] for m in orbit]
    return normalize([list(r) for r in ranges] + extra)


# --- candidates ----------------------------------------------------------------------------


def go_names():
    """Every key of Go's tables (all releases), the candidates' main source."""
    if not os.path.exists(GO_TABLES):
        return []
    text = open(GO_TABLES, encoding="utf-8").read()
    block = text[text.index("pub(super) static KEYS"):]
    return re.findall(r'^\s+\("([^"]*)", \d+, 0b[01]+\),$', block, re.M)


def variants(name):
    return {
        name,
        name.lower(),
        name.upper(),
        name.replace("_", " "),
        name.replace("_", "-"),
        name.replace("_", ""),
        name.lower().replace("_", " "),
        " " + name,
        name + " ",
        "Is" + name,
        "In" + name,
    }


def candidates():
    base = set(go_names()) | {"Any", "ASCII", "Assigned", "L&", "LC", "Cn"}
    for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        base |= {a, a.lower()}
        for b in "abcdefghijklmnopqrstuvwxyz":
            base.add(a + b)
    out = set()
    for n in base:
        out |= variants(n)
    out.discard("")
    # A name with `}` cannot be written in braces.
    return sorted(n for n in out if "}" not in n)


# --- the Unicode version --------------------------------------------------------------------

DUMP = r"""
import json, sys, unicodedata
cats = {}
for c in range(0x110000):
    k = unicodedata.category(chr(c))
    r = cats.setdefault(k, [])
    if r and r[-1][1] + 1 == c:
        r[-1][1] = c
    else:
        r.append([c, c])
json.dump({"unicode": unicodedata.unidata_version, "python": sys.version.split()[0],
           "categories": cats}, sys.stdout)
"""


def pythons():
    found = []
    for v in range(8, 20):
        p = shutil.which(f"python3.{v}")
        if p:
            found.append(p)
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found += sorted(glob.glob(os.path.join(root, "versions", "3.*", "bin", "python")))
    found.append(sys.executable)
    seen, out = set(), []
    for p in found:
        real = os.path.realpath(p)
        if real not in seen:
            seen.add(real)
            out.append(p)
    return out


def unicode_version(props):
    """The Unicode version whose general categories are exactly RE2's two-letter sets."""
    cats = {n: s for n, s in props.items() if re.fullmatch(r"[CLMNPSZ][a-z]", n)}
    verdicts = {}
    for p in pythons():
        try:
            out = subprocess.run([p, "-c", DUMP], capture_output=True, check=True, timeout=120)
        except (subprocess.SubprocessError, OSError):
            continue
        d = json.loads(out.stdout)
        if d["unicode"] in verdicts:
            continue
        theirs = d["categories"]
        differ = [n for n in cats if cats[n] != theirs.get(n, [])]
        verdicts[d["unicode"]] = (d["python"], differ)
    return verdicts


# --- Go's tables, for the comparison ---------------------------------------------------------


def go_tables():
    """Each Go table release's {name: set} (by the names as Go's KEYS write them) and orbits."""
    if not os.path.exists(GO_TABLES):
        return None
    text = open(GO_TABLES, encoding="utf-8").read()

    def block(name):
        start = text.index(f"pub(super) static {name}")
        start = text.index("= [", start) + 3
        end = text.index("\n];", start)
        return text[start:end]

    def pairs(s):
        return [[int(a, 16), int(b, 16)] for a, b in re.findall(r"\(0x([0-9A-F]+),0x([0-9A-F]+)\)", s)]

    releases = re.search(r'RELEASES: \[&str; \d+\] = \[([^\]]*)\]', text).group(1)
    releases = re.findall(r'"([^"]+)"', releases)
    unicode = re.findall(r'"([^"]+)"', re.search(r'UNICODE: \[&str; \d+\] = \[([^\]]*)\]', text).group(1))
    loose = re.search(r'LOOSE: \[bool; \d+\] = \[([^\]]*)\]', text).group(1).replace(" ", "").split(",")
    sets = [pairs(line) for line in block("SETS").strip().split("\n")]
    rows = []
    for line in block("ROWS").strip().split("\n"):
        idx = re.search(r"\(\[([^\]]*)\]", line).group(1).replace(" ", "").split(",")
        rows.append([None if i == "NONE" else int(i) for i in idx])
    keys = re.findall(r'\("([^"]*)", (\d+), 0b([01]+)\)', block("KEYS"))
    folds = [pairs(line) for line in block("FOLDS").strip().split("\n")]
    folds_of = [int(i) for i in re.search(r"FOLDS_OF: \[usize; \d+\] = \[([^\]]*)\]", text).group(1).split(",")]
    out = {}
    n = len(releases)
    for i, r in enumerate(releases):
        props = {}
        for k, row, mask in keys:
            if int(mask, 2) >> i & 1:
                props[k] = sets[rows[int(row)][i]]
        nxt = {a: b for a, b in folds[folds_of[i]]}
        out[r] = {"unicode": unicode[i], "loose": loose[i] == "true", "props": props,
                  "orbits": orbits_of_next(nxt)}
    return out


def orbits_of_next(nxt):
    seen = set()
    out = []
    for c in sorted(nxt):
        if c in seen:
            continue
        orbit = [c]
        d = nxt[c]
        while d != c:
            orbit.append(d)
            d = nxt[d]
        seen.update(orbit)
        out.append(sorted(orbit))
    return sorted(out)


# --- main ------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "..", "src", "re2_unicode", "tables.rs"))
    ap.add_argument("--unicode", help="the Unicode version, when no CPython found agrees")
    args = ap.parse_args()
    package = importlib.metadata.version("google-re2")
    log = lambda *a: print(*a, file=sys.stderr)
    log(f"google-re2 {package}")

    # Names and their sets.
    cands = candidates()
    props, folded, refused = {}, {}, []
    for name in cands:
        rx = compile_or_none("\\p{" + name + "}+")
        if rx is None:
            refused.append(name)
            continue
        s = runs(rx)
        props[name] = s
        f = runs(re2.compile("(?i)\\p{" + name + "}+", OPTIONS))
        folded[name] = f
        neg = complement(s)
        for p in ["\\p{^" + name + "}+", "\\P{" + name + "}+"]:
            if runs(re2.compile(p, OPTIONS)) != neg:
                sys.exit(f"{p} is not the complement of \\p{{{name}}}")
        if runs(re2.compile("\\P{^" + name + "}+", OPTIONS)) != s:
            sys.exit(f"\\P{{^{name}}} is not \\p{{{name}}}")
        if runs(re2.compile("(?i)\\P{" + name + "}+", OPTIONS)) != complement(f):
            sys.exit(f"(?i)\\P{{{name}}} is not the complement of (?i)\\p{{{name}}}")
        if len(name) == 1:
            if runs(re2.compile("\\p" + name + "+", OPTIONS)) != s:
                sys.exit(f"\\p{name} and \\p{{{name}}} differ")
    log(f"{len(props)} of {len(cands)} candidate names accepted: {' '.join(sorted(props))}")
    for name in props:
        for v in variants(name) - {name}:
            if v in props and props[v] != props[name]:
                sys.exit(f"{v!r} and {name!r} are both accepted with different sets")
    loose = sorted(n for n in props if any(n != m and n in variants(m) for m in props))
    if loose:
        log(f"note: names accepted as variants of others: {loose}")

    # Case folding: the code points that fold with another one, then the orbit of each.
    folding = set()
    for m in MODULI:
        for j in range(m):
            xs = range(j, MAX + 1, m)
            rx = re2.compile("(?i)[" + "".join(escape(c) for c in xs) + "]", OPTIONS)
            for c in members(rx, ALL):
                if c % m != j:
                    folding.add(c)
        log(f"  modulus {m}: {len(folding)} code points fold so far")
    ftext = "".join(map(chr, sorted(folding))).encode("utf-8", "surrogatepass")
    orbit_of = {}
    for c in sorted(folding):
        orbit = sorted(members(re2.compile("(?i)" + escape(c), OPTIONS), ftext))
        if c not in orbit or len(orbit) < 2:
            sys.exit(f"(?i)U+{c:04X} matches {orbit}")
        orbit_of[c] = orbit
    for c, orbit in orbit_of.items():
        for d in orbit:
            if orbit_of[d] != orbit:
                sys.exit(f"(?i)U+{c:04X} and (?i)U+{d:04X} are not one orbit")
    orbits = sorted({tuple(o) for o in orbit_of.values()})
    log(f"{len(folding)} code points fold, in {len(orbits)} orbits "
        f"(sizes {sorted({len(o) for o in orbits})})")
    # SimpleFold's order: the next larger member, wrapping to the smallest.
    nxt = []
    for o in orbits:
        for i, c in enumerate(o):
            nxt.append((c, o[(i + 1) % len(o)]))
    nxt.sort()

    # (?i)\p{NAME}: the closure of the set under the orbits, or stored as RE2 answers.
    unfolded = {}
    for name, s in props.items():
        if folded[name] != closure(s, orbit_of):
            unfolded[name] = folded[name]
    if unfolded:
        log(f"note: (?i)\\p{{…}} is not the fold closure for: {sorted(unfolded)}")

    # The characters of a group name.
    name_set = normalize([list(r) for n in NAME_CATEGORIES for r in props[n]])
    edges = set()
    for a, b in name_set:
        edges |= {a - 1, a, b, b + 1}
    checked = 0
    for c in sorted(edges):
        if c < 0 or c > MAX or 0xD800 <= c <= 0xDFFF:
            continue
        inside = any(a <= c <= b for a, b in name_set)
        ch = chr(c)
        if ch in "\x00>":
            continue
        ok = compile_or_none("(?P<" + ch + ">x)") is not None
        if ok != inside:
            sys.exit(f"(?P<U+{c:04X}>x) is {'accepted' if ok else 'refused'}, unlike the categories")
        checked += 1
    log(f"group names: {len(name_set)} ranges, {checked} edges checked")

    # The Unicode version.
    verdicts = unicode_version(props)
    agree = sorted(v for v, (_, differ) in verdicts.items() if not differ)
    for v, (py, differ) in sorted(verdicts.items()):
        log(f"  CPython {py} (Unicode {v}): " + ("every category agrees" if not differ else
            f"{len(differ)} categories differ ({', '.join(differ[:8])})"))
    if args.unicode:
        uver = args.unicode
    elif len(agree) == 1:
        uver = agree[0]
    else:
        sys.exit(f"no single Unicode version agrees with RE2's categories ({agree}); pass --unicode")
    log(f"Unicode {uver}")

    # Comparison with Go's tables: one header line for each Go table release.
    compared = []
    go = go_tables()
    ours = {tuple(o) for o in orbits}
    for r, g in (go or {}).items():
        def lookup(n):
            return g["props"].get(canonical(n) if g["loose"] else n)
        go_accepts = {n for n in cands if lookup(n) is not None}
        differ = sorted(n for n in props if n in go_accepts and lookup(n) != props[n])
        theirs = {tuple(o) for o in g["orbits"]}
        line = (f"Go {r} (Unicode {g['unicode']}): "
                + ("accepts the same names" if go_accepts == set(props) else
                   f"names differ ({len(set(props) - go_accepts)} only RE2's, "
                   f"{len(go_accepts - set(props))} only Go's)")
                + (f"; {len(differ)} shared sets differ ({', '.join(differ)})" if differ else
                   "; every shared set is the same")
                + ("; fold orbits identical" if ours == theirs else
                   f"; fold orbits: {len(ours - theirs)} only RE2's, {len(theirs - ours)} only Go's"))
        log("  " + line)
        compared.append(line)

    # Tables.
    pool = Pool()
    sets, index = pool.items, pool.index

    keys = []
    for name in sorted(props):
        keys.append((name, index(props[name]), index(unfolded[name]) if name in unfolded else None))
    name_index = index(name_set)

    o = []
    w = o.append
    w("// Generated by crates/rxw-syntax/gen/re2_unicode.py from RE2's own answers through the")
    w("// google-re2 package; do not edit.")
    w(f"// google-re2 {package}, Unicode {uver}. Compared with go_unicode's releases:")
    for line in compared:
        w(f"//   {line}")
    w("")
    w("/// A property whose `(?i)` form is the closure of its set under the fold orbits.")
    w("pub(super) const CLOSED: u16 = u16::MAX;")
    w("/// The google-re2 package the tables came from.")
    w(f"pub(super) const PACKAGE: &str = {rust_str(package)};")
    w("/// The Unicode version of RE2's tables (its general categories are exactly this version's).")
    w(f"pub(super) const UNICODE: &str = {rust_str(uver)};")
    ranges_table(w, "Distinct code point sets, each a sorted list of inclusive ranges.", "SETS", "u32", sets)
    w("/// Every name `\\p{…}` accepts, exactly as written, sorted: (name, its set, what `(?i)` makes")
    w("/// of it when that is not the closure, else CLOSED).")
    w(f"pub(super) static KEYS: [(&str, u16, u16); {len(keys)}] = [")
    for name, si, fi in keys:
        w(f"    ({rust_str(name)}, {si}, {'CLOSED' if fi is None else fi}),")
    w("];")
    w("/// The characters a group name may hold (Lu, Ll, Lt, Lm, Lo, Nl, Mn, Mc, Nd and Pc).")
    w(f"pub(super) const NAME_CHARS: usize = {name_index};")
    w("/// The fold orbits as (c, the next larger member of c's orbit, or its smallest), sorted by c:")
    w("/// every code point that `(?i)` matches with another one.")
    w(f"pub(super) static FOLDS: &[(u32, u32)] = " + fmt_ranges(nxt) + ";")
    write_sets_table(args.out, o, sets, f", {len(keys)} names, {len(nxt)} folding code points")


if __name__ == "__main__":
    main()
