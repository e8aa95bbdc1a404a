#!/usr/bin/env python3
"""Records sre_marks.jsonl: random small patterns of the shapes on which CPython's sre changed
its answers in 3.11 (repeated groups holding alternations, lazy and greedy repeats of groups
and of single characters, optional groups, look-arounds holding groups, conditionals on a
group, backreferences), and conditionals whose branch ends near the character U+0010 (which
3.8 and 3.9 refuse as "invalid SRE code" when its code word sits where a jump would), each run
over a few short subjects by every installed CPython 3.8-3.15 (3.14 and 3.15 as Pyodide).

Before 3.11 sre kept a failed path's marks in several places (a lazy repeat's failed try of the
rest, a failed iteration of `(?:...)*` or `(...)*?`, a failed look-around, a branch outside a
repeat), so 3.8-3.10 report stale groups, even a group ending before it starts; 3.11 restores
them. The generator draws patterns from a small grammar with a fixed seed; a pattern is kept
when at least two releases answer it differently (the cases that tell releases apart), and
one in every KEEP_AGREEING of the others, so the file also holds cases every release agrees on.
A case some release takes more than a few seconds over (catastrophic backtracking in CPython
itself) is left out and counted in the header.

Each line after the header is {"pattern", "input", "answers": [[[release, ...], answer], ...]}:
the releases that gave one answer, and that answer in the oracle's shape (tests/oracle/
py_oracle.py: every match of `finditer`, with the spans of all groups in UTF-8 byte offsets, or
{"error": message}). The header names the interpreters and the counts.

Usage: record_sre_marks.py [--out FILE] [--patterns N] [--seed S] [--extend]
(--extend keeps the recorded cases and adds the answers of releases the file lacks)
(run it with any python3; it finds the releases under pyenv or as python3.X on PATH)
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..", "..")
ORACLE = os.path.join(ROOT, "tests", "oracle", "py_oracle.py")
RELEASES = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15"]
SUBJECTS_PER_PATTERN = 4
KEEP_AGREEING = 40
# Cases per interpreter run (a run that takes too long is halved until the slow case is found).
BATCH = 2000


def interpreter(release):
    """The newest pyenv build of `release`, else python3.X on PATH, else None."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = sorted(
        p
        for p in glob.glob(os.path.join(root, "versions", release + "*", "bin", "python"))
        if os.path.basename(os.path.dirname(os.path.dirname(p))).split(".")[:2]
        == release.split(".")
    )
    if found:
        return found[-1]
    # 3.14 and later as Pyodide, where .ci/run installs it.
    cache = os.environ.get("RXW_PYODIDE_CACHE", os.path.expanduser("~/.cache/rxw/pyodide"))
    pyodide = os.path.join(cache, release.replace(".", ""), "bin", "python" + release)
    if os.access(pyodide, os.X_OK):
        return pyodide
    return shutil.which("python" + release)


class Grammar:
    """Random patterns over the letters a, b, c; groups are numbered as they open."""

    def __init__(self, rng):
        self.rng = rng
        self.groups = 0
        self.closed = []

    def atom(self):
        return self.rng.choice(["a", "b", "c", "a", "b", ".", "[ab]", "[^b]", "x"])

    def single_repeat(self):
        q = self.rng.choice(["*", "+", "?", "*?", "+?", "??", "{0,2}", "{1,2}?", "{0,2}?"])
        return self.atom() + q

    def seq(self, depth):
        n = self.rng.choice([1, 1, 2, 2, 3])
        return "".join(self.item(depth) for _ in range(n))

    def alt(self, depth):
        n = self.rng.choice([1, 2, 2, 3])
        return "|".join(self.seq(depth) for _ in range(n))

    def quant(self):
        return self.rng.choice(
            ["*", "*?", "+", "+?", "?", "??", "{0,2}", "{0,2}?", "{1,2}", "{1,2}?", "", ""]
        )

    def group(self, depth):
        kind = self.rng.choice(["cap", "cap", "cap", "non", "non"])
        if kind == "cap":
            self.groups += 1
            k = self.groups
            body = self.alt(depth + 1)
            self.closed.append(k)
            return "(" + body + ")"
        return "(?:" + self.alt(depth + 1) + ")"

    def item(self, depth):
        if depth >= 3:
            return self.rng.choice([self.atom(), self.single_repeat()])
        r = self.rng.random()
        if r < 0.25:
            return self.atom()
        if r < 0.4:
            return self.single_repeat()
        if r < 0.8:
            return self.group(depth) + self.quant()
        if r < 0.9:
            look = self.rng.choice(["(?=", "(?!", "(?<=", "(?<!"])
            if look in ("(?<=", "(?<!"):
                # Fixed width: one character or a group of one.
                self.groups += 1
                k = self.groups
                body = "(" + self.rng.choice(["a", "b", "[ab]", "a|b", "."]) + ")"
                self.closed.append(k)
                return look + body + ")"
            return look + self.alt(depth + 1) + ")"
        if self.closed:
            k = self.rng.choice(self.closed)
            if self.rng.random() < 0.5:
                return "\\%d" % k
            no = "|" + self.seq(depth + 1) if self.rng.random() < 0.6 else ""
            return "(?(%d)%s%s)" % (k, self.seq(depth + 1), no)
        return self.atom()


# Pieces of a conditional's "yes" branch around the character U+0010, whose code 3.8 and 3.9's
# validator can mistake for a jump (and refuse with "invalid SRE code").
YES_PIECES = [
    r"\x10", r"\x0f", "a", ".", "$", r"\b", r"\w", r"\d", r"[\x05\x10]", r"[\x10\x05]",
    r"[\x01-\x10]", r"[^\x10]", r"[\x10a-c]", r"[\x10\w]", "x{16}", r"\x10{2}",
    r"(?:a|\x10)", r"(?:\x10|a)", r"(\x10)", r"(?=\x10)", r"(?!a\x10)", r"(?:a\x10)",
]


def conditional(rng):
    """A conditional on group 1 whose branch ends near a U+0010."""
    yes = "".join(
        rng.choice(YES_PIECES) + rng.choice(["", "", "?", "*", "+?", "??", "{0,2}"])
        for _ in range(rng.choice([1, 1, 2, 3]))
    )
    no = rng.choice(["", "", "", "|b", "|"])
    head = rng.choice(["()", "(a)?", "(\x10)?", "()b"])
    return head + "(?(1)" + yes + no + ")" + rng.choice(["", "", "a", r"\x10"])


def pattern(rng):
    if rng.random() < 0.08:
        return conditional(rng)
    g = Grammar(rng)
    for _ in range(20):
        g.groups, g.closed = 0, []
        p = g.seq(0)
        if 0 < g.groups <= 6 and len(p) <= 40:
            return p
    return "(a|ab)*?b"


def subject(rng):
    n = rng.choice([1, 2, 3, 4, 5, 6, 8])
    return "".join(rng.choice("aabbcx\x10") for _ in range(n))


def answers(python, cases, timeout=60):
    """The answers of `python` to `cases` by index; a case it takes longer than a few seconds
    over (catastrophic backtracking in CPython itself) is left out, found by halving a batch
    that runs out of time."""
    script = open(ORACLE).read()
    try:
        out = subprocess.run(
            [python, "-c", script],
            input=json.dumps([c for _, c in cases]),
            capture_output=True,
            text=True,
            check=True,
            timeout=timeout,
        )
        return dict(zip((i for i, _ in cases), json.loads(out.stdout)))
    except subprocess.TimeoutExpired:
        if len(cases) == 1:
            print("too slow in %s, left out: %r" % (python, cases[0][1]), file=sys.stderr)
            return {}
        half = len(cases) // 2
        got = answers(python, cases[:half], max(5, timeout // 2))
        got.update(answers(python, cases[half:], max(5, timeout // 2)))
        return got


def extend(path):
    """Adds to each recorded case the answers of the releases the file lacks (a release that
    came out after the cases were chosen), keeping the cases as they are."""
    with open(path) as f:
        header = json.loads(f.readline())
        kept = [json.loads(line) for line in f]
    new = [r for r in RELEASES if r not in header["interpreters"]]
    pythons = {r: interpreter(r) for r in new}
    missing = [r for r, p in pythons.items() if p is None]
    if missing:
        sys.exit("missing interpreters: " + ", ".join(missing))
    cases = [{"pattern": k["pattern"], "flags": "", "input": k["input"]} for k in kept]
    for r, py in pythons.items():
        got = {}
        for at in range(0, len(cases), BATCH):
            batch = [(i, cases[i]) for i in range(at, min(at + BATCH, len(cases)))]
            got.update(answers(py, batch))
        for i, k in enumerate(kept):
            a = got.get(i, {"error": "too slow in CPython " + r})
            a.pop("warnings", None)
            for g in k["answers"]:
                if g[1] == a:
                    g[0].append(r)
                    break
            else:
                k["answers"].append([[r], a])
        v = subprocess.run([py, "-c", "import sys; print(sys.version.split()[0])"],
                           capture_output=True, text=True, check=True)
        header["interpreters"][r] = v.stdout.strip()
    with open(path, "w") as f:
        f.write(json.dumps(header) + "\n")
        for k in kept:
            f.write(json.dumps(k, ensure_ascii=False) + "\n")
    print(json.dumps(header), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "sre_marks.jsonl"))
    ap.add_argument("--patterns", type=int, default=25000)
    ap.add_argument("--seed", type=int, default=311)
    ap.add_argument("--extend", action="store_true",
                    help="keep the recorded cases and add the answers of the releases they lack")
    args = ap.parse_args()
    if args.extend:
        return extend(args.out)
    rng = random.Random(args.seed)
    pythons = {r: interpreter(r) for r in RELEASES}
    missing = [r for r, p in pythons.items() if p is None]
    if missing:
        sys.exit("missing interpreters: " + ", ".join(missing))
    cases = []
    seen = set()
    for _ in range(args.patterns):
        p = pattern(rng)
        for _ in range(SUBJECTS_PER_PATTERN):
            s = subject(rng)
            if (p, s) not in seen:
                seen.add((p, s))
                cases.append({"pattern": p, "flags": "", "input": s})
    by_release = {}
    for r, py in pythons.items():
        by_release[r] = {}
        for at in range(0, len(cases), BATCH):
            batch = [(i, cases[i]) for i in range(at, min(at + BATCH, len(cases)))]
            by_release[r].update(answers(py, batch))
    kept, differing, slow = [], 0, 0
    for i, c in enumerate(cases):
        if any(i not in by_release[r] for r in RELEASES):
            slow += 1
            continue
        groups = []
        for r in RELEASES:
            a = by_release[r][i]
            a.pop("warnings", None)
            for g in groups:
                if g[1] == a:
                    g[0].append(r)
                    break
            else:
                groups.append([[r], a])
        if len(groups) > 1:
            differing += 1
        elif i % KEEP_AGREEING:
            continue
        kept.append({"pattern": c["pattern"], "input": c["input"], "answers": groups})
    versions = {}
    for r, py in pythons.items():
        v = subprocess.run([py, "-c", "import sys; print(sys.version.split()[0])"],
                           capture_output=True, text=True, check=True)
        versions[r] = v.stdout.strip()
    header = {
        "interpreters": versions,
        "seed": args.seed,
        "generated": len(cases),
        "kept": len(kept),
        "differing": differing,
        "too slow in CPython, left out": slow,
    }
    with open(args.out, "w") as f:
        f.write(json.dumps(header) + "\n")
        for k in kept:
            f.write(json.dumps(k, ensure_ascii=False) + "\n")
    print(json.dumps(header), file=sys.stderr)


if __name__ == "__main__":
    main()
