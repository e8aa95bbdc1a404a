"""What the Unicode table generators share: a pool of distinct tables, Go's canonical property
names, Rust string literals and range tables, and writing the table file. Imported by go_unicode.py, js_unicode.py and re2_unicode.py
(run from anywhere: Python puts this folder on the path of a script here)."""
import json
import os
import sys


class Pool:
    """Stores each distinct table once; `index` gives its number."""

    def __init__(self):
        self.items = []
        self.seen = {}

    def index(self, item):
        key = json.dumps(item)
        if key not in self.seen:
            self.seen[key] = len(self.items)
            self.items.append(item)
        return self.seen[key]


def canonical(name):
    """Go 1.25's regexp/syntax canonicalName, byte for byte (re2_unicode.py looks a name up in a
    loose Go release with it)."""
    out = []
    first = True
    for c in name:
        if c in "_- ":
            continue
        if first:
            if "a" <= c <= "z":
                c = c.upper()
            first = False
        elif "A" <= c <= "Z":
            c = c.lower()
        out.append(c)
    return "".join(out)


def rust_str(s):
    """A Rust string literal: printable ASCII as it is, the rest as `\\u{…}` escapes."""
    return '"' + "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "\\u{%x}" % ord(c) for c in s) + '"'


def fmt_ranges(s):
    """A Rust slice of inclusive ranges: `&[(0x41,0x5A),…]`."""
    return "&[" + ",".join(f"(0x{a:X},0x{b:X})" for a, b in s) + "]"


def ranges_table(w, doc, name, ty, tables):
    """Writes (with `w`) a static of range lists: `/// doc`, then `NAME: [&[(ty, ty)]; N]`."""
    w(f"/// {doc}")
    w(f"pub(super) static {name}: [&[({ty}, {ty})]; {len(tables)}] = [")
    for t in tables:
        w("    " + fmt_ranges(t) + ",")
    w("];")


def opt(i):
    """A table index, or NONE where a release does not know the entry."""
    return "NONE" if i is None else str(i)


def index_table(w, name, indexes):
    """Writes (with `w`) a const of one table index per release: `NAME: [usize; N]`."""
    w(f"pub(super) const {name}: [usize; {len(indexes)}] = [" + ", ".join(map(str, indexes)) + "];")


def write_table(path, lines):
    """Writes the generated lines to `path` (its folder made if need be)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def write_sets_table(path, lines, sets, details):
    """Writes the generated lines to `path`, then says so on stderr: how many distinct `sets`
    it holds and their ranges, then `details`."""
    write_table(path, lines)
    nranges = sum(len(s) for s in sets)
    print(f"wrote {path}: {len(sets)} distinct sets ({nranges} ranges){details}", file=sys.stderr)
