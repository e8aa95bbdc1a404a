#!/usr/bin/env python3
"""Generates the per-release tables of Python's `\\N{…}` names and group-name identifiers.

`re` reads `\\N{NAME}` with the release's `unicodedata.lookup` and a group name with the
release's `str.isidentifier()`; both follow that release's Unicode data (3.8 = 12.1, 3.9 and
3.10 = 13.0, 3.11 = 14.0, 3.12 = 15.0, 3.13 = 15.1, 3.14 = 16.0, 3.15 = 17.0). This script asks
each interpreter, code point by code point, and writes the answers as compact Rust tables:

    python3 crates/rxw-syntax/gen/python_names.py          # run every release, write the tables
    python3 crates/rxw-syntax/gen/python_names.py --dump   # this interpreter's answers (JSON)

With no argument it runs itself with `--dump` under each interpreter found (as
scripts/gen_python_unicode.py finds them: pyenv's 3.8-3.13, the Pyodide builds of 3.14 and 3.15
that .ci/run installs; `--python 3.X=PATH` names one) and writes
crates/rxw-syntax/src/python_names/tables.rs.

What is dumped:
- named: the code points `unicodedata.name` names (algorithmic names included);
- start, continue: whether `c.isidentifier()` and `('a' + c).isidentifier()` hold;
- printable: whether `c.isprintable()` holds (what `repr()` writes as itself in an error
  message; the rest it escapes);
- aliases: which of the name aliases (NameAliases.txt of the newest Unicode, read from the
  unicode_names2 crate's data or `--aliases FILE`, handed to each interpreter on its standard
  input) its `unicodedata.lookup` accepts, and the character it gives;
- sequences: which named sequences (NamedSequences.txt, as Perl ships it, or `--sequences
  FILE`) its `lookup` gives, and their lengths (3.8's `re` hands one to `ord()`, which raises
  TypeError; later releases say "undefined character name").

Names never change once given (Unicode's stability policy), so the names themselves come from
the unicode_names2 crate (Unicode 17.0) and the tables hold only which code points each release
names. Every set is stored as the newest release's ranges and, per older release, the ranges
it lacks (a release's data only ever adds characters; the script checks it).
"""
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "src", "python_names", "tables.rs")
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
from gen_python_unicode import RELEASES, dumped, find_interpreters, ranges  # noqa: E402


def dump():
    import unicodedata
    asked = json.load(sys.stdin)
    accepted = []
    sequences = []
    for alias in asked["aliases"] + asked["sequences"]:
        try:
            got = unicodedata.lookup(alias)
        except KeyError:
            continue
        if len(got) == 1:
            accepted.append([alias, ord(got)])
        else:
            sequences.append([alias, len(got)])
    name = unicodedata.name
    return {
        "python": "%d.%d" % sys.version_info[:2],
        "version": sys.version.split()[0],
        "unicode": unicodedata.unidata_version,
        "named": ranges(lambda c: name(chr(c), None) is not None),
        "start": ranges(lambda c: chr(c).isidentifier()),
        "continue": ranges(lambda c: ("a" + chr(c)).isidentifier()),
        "printable": ranges(lambda c: chr(c).isprintable()),
        "aliases": accepted,
        "sequences": sequences,
    }


def read_sequences(path):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line.split(";")[0].strip())
    return out


def read_aliases(path):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line.split(";")[1])
    return out


def default_sequences():
    """The named sequences: Unicode's NamedSequences.txt, as Perl ships it (names are stable, and
    each interpreter is asked which it knows)."""
    found = sorted(glob.glob("/usr/share/perl/*/unicore/NamedSequences.txt"))
    if not found:
        sys.exit("NamedSequences.txt not found: give --sequences FILE")
    return found[-1]


def default_aliases():
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    found = sorted(glob.glob(os.path.join(home, "registry/src/*/unicode_names2-*/data/NameAliases.txt")))
    if not found:
        sys.exit("NameAliases.txt not found: give --aliases FILE")
    return found[-1]


def subtract(big, small):
    """The ranges of `big` not in `small` (both sorted inclusive range lists)."""
    out = []
    j = 0
    for a, b in big:
        cur = a
        while j < len(small) and small[j][1] < cur:
            j += 1
        k = j
        while k < len(small) and small[k][0] <= b:
            s, e = small[k]
            if s > cur:
                out.append([cur, s - 1])
            cur = max(cur, e + 1)
            k += 1
        if cur <= b:
            out.append([cur, b])
    return out


def rust_ranges(name, rs):
    body = "".join("(0x%X, 0x%X)," % (a, b) for a, b in rs)
    return "pub(super) static %s: &[(u32, u32)] = &[%s];\n" % (name, body)


def write(dumps):
    newest = dumps[RELEASES[-1]]
    out = ["// Generated by crates/rxw-syntax/gen/python_names.py from the interpreters' own "
           "answers; do not edit.\n"]
    out.append("// Releases: %s.\n\n" % ", ".join(
        "%s (%s, Unicode %s)" % (r, dumps[r]["version"], dumps[r]["unicode"]) for r in RELEASES))
    statics = []
    sizes = 0
    for kind in ["named", "start", "continue", "printable"]:
        key = kind.upper()
        statics.append(rust_ranges("%s_NEWEST" % key, newest[kind]))
        sizes += len(newest[kind]) * 8
        rows = []
        for rel in RELEASES:
            # What a release lacks of the newest's, and (rarely: 3.8 names 0x2EBE1-0x2EBEF,
            # which its CJK range check takes for ideographs) what it has beyond them.
            lacks = subtract(newest[kind], dumps[rel][kind])
            extra = subtract(dumps[rel][kind], newest[kind])
            tag = rel.replace(".", "_")
            statics.append(rust_ranges("%s_LACKING_%s" % (key, tag), lacks))
            statics.append(rust_ranges("%s_EXTRA_%s" % (key, tag), extra))
            sizes += (len(lacks) + len(extra)) * 8
            rows.append("(%s_LACKING_%s, %s_EXTRA_%s)" % (key, tag, key, tag))
        statics.append("/// Per release, oldest first: the ranges of `%s_NEWEST` it lacks, and the\n"
                       "/// ranges it has beyond them.\n"
                       "pub(super) static %s_DELTA: [Delta; %d] = [%s];\n"
                       % (key, key, len(RELEASES), ", ".join(rows)))
    # Aliases: each with the oldest release that accepts it (accepted from then on).
    first = {}
    for i, rel in enumerate(RELEASES):
        for alias, cp in dumps[rel]["aliases"]:
            if alias in first and first[alias][0] != cp:
                sys.exit("alias %s changes its character" % alias)
            first.setdefault(alias, (cp, i))
    for alias, (cp, i) in first.items():
        for rel in RELEASES[i:]:
            if [alias, cp] not in dumps[rel]["aliases"]:
                sys.exit("alias %s dropped by %s" % (alias, rel))
    # Named sequences: only 3.8 lets one through to `ord()`, which raises TypeError with the
    # sequence's length; the others say "undefined character name".
    seqs = sorted(dumps["3.8"]["sequences"])
    statics.append("/// The named sequences CPython 3.8's `unicodedata.lookup` gives, with their lengths.\n"
                   "pub(super) static SEQUENCES_3_8: &[(&str, u8)] = &[%s];\n"
                   % "".join("(\"%s\", %d)," % (n, k) for n, k in seqs))
    body = "".join("(\"%s\", 0x%X, %d)," % (a, cp, i) for a, (cp, i) in sorted(first.items()))
    statics.append("/// The name aliases `unicodedata.lookup` accepts: (alias, character, index in\n"
                   "/// `PyVersion::ALL` of the oldest release that accepts it), sorted.\n"
                   "pub(super) static ALIASES: &[(&str, u32, u8)] = &[%s];\n" % body)
    out.append("// Table sizes in the binary: %d bytes of ranges, %d aliases.\n\n" % (sizes, len(first)))
    out.append("use super::Delta;\n\n")
    out.extend(statics)
    with open(OUT, "w") as f:
        f.write("".join(out))
    print("wrote %s" % os.path.relpath(OUT))


def main():
    if dumped(dump):
        return
    args = sys.argv[1:]
    named = {}
    aliases = None
    sequences = None
    while args:
        a = args.pop(0)
        if a == "--python" and args:
            rel, _, path = args.pop(0).partition("=")
            named[rel] = path
        elif a == "--aliases" and args:
            aliases = args.pop(0)
        elif a == "--sequences" and args:
            sequences = args.pop(0)
        else:
            sys.exit("usage: python_names.py [--dump] [--python 3.X=PATH]... [--aliases FILE] [--sequences FILE]")
    found = find_interpreters(named)
    missing = [r for r in RELEASES if r not in found]
    if missing:
        sys.exit("no interpreter for %s (install it or name it with --python)" % missing)
    alias_list = json.dumps({"aliases": read_aliases(aliases or default_aliases()),
                             "sequences": read_sequences(sequences or default_sequences())})
    dumps = {}
    for rel in RELEASES:
        run = subprocess.run([found[rel], os.path.abspath(__file__), "--dump"], input=alias_list,
                             capture_output=True, text=True, check=True)
        dumps[rel] = json.loads(run.stdout)
        if dumps[rel]["python"] != rel:
            sys.exit("%s is %s" % (found[rel], dumps[rel]["python"]))
        print("%s: %s, Unicode %s" % (rel, dumps[rel]["version"], dumps[rel]["unicode"]))
    write(dumps)


if __name__ == "__main__":
    main()
