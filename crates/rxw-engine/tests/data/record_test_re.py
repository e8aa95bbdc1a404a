#!/usr/bin/env python3
"""Records test_re.jsonl: Python cases taken from CPython's own Lib/test/test_re.py, answered
by the CPython that runs this script (3.11 for the checked-in file).

The test methods of test_re run under a shim that replaces `re.compile`, `re.search`,
`re.match`, `re.fullmatch`, `re.findall`, `re.finditer`, `re.sub`, `re.subn` and `re.split`
(for calls made from test_re.py only) and wraps the compiled patterns they return, so that the
Pattern methods of the same names are seen too. Each call gives:
- a syntax case: the pattern and its flags (accepted, or refused with CPython's message);
- a match case, when a subject string is passed: the pattern, its flags and the subject.
Only patterns, flags and subjects come from test_re; every expected answer is computed again
from them by the project's oracle (tests/oracle/py_oracle.py: every match of `finditer` over
the whole subject, with the spans of all groups in UTF-8 byte offsets), whatever operation the
test called (and whatever `pos`, `endpos`, `count` or `maxsplit` it gave). A case rxw cannot express by design is not recorded but counted by reason (bytes
patterns or subjects, LOCALE, the Scanner API, `pos`/`endpos`, lone surrogates, which UTF-8
cannot carry, and oversized strings). The counts, per call, go to standard error and the
file's header.

Usage: record_test_re.py [--out FILE]   (run it with the interpreter whose answers you want)
"""
import argparse
import collections
import io
import json
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..", "..")
ORACLE = os.path.join(ROOT, "tests", "oracle", "py_oracle.py")

# Larger patterns or subjects are test_re's stress tests (recursion, repetition limits).
MAX_LEN = 300
# Cases kept per kind, in the order test_re makes them.
MAX_CASES = 3000

FLAG_LETTERS = [(re.I, "i"), (re.M, "m"), (re.S, "s"), (re.X, "x"), (re.A, "a")]
METHODS = ["match", "search", "fullmatch", "findall", "finditer", "sub", "subn", "split"]

skipped = collections.Counter()
widened = collections.Counter()
syntax = {}
matching = {}
current = ["?"]


def flag_letters(flags):
    """The oracle's letters for `flags`, or the reason the case is skipped."""
    flags = int(flags)
    if flags & re.L:
        return None, "LOCALE flag"
    if flags & re.DEBUG:
        return None, "DEBUG flag"
    rest = flags & ~(re.I | re.M | re.S | re.X | re.A | re.U)
    if rest:
        return None, "other flags"
    return "".join(l for f, l in FLAG_LETTERS if flags & f), None


def plain(pattern):
    return pattern._compiled if isinstance(pattern, Recorded) else pattern


def usable(text, what):
    """Whether `text` can be a case's string; counts the reason when not."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        skipped[f"bytes {what}"] += 1
        return False
    if not isinstance(text, str):
        skipped[f"{what} not a string"] += 1
        return False
    if type(text) is not str:
        text = str(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        skipped[f"lone surrogate in {what}"] += 1
        return False
    if len(text) > MAX_LEN:
        skipped[f"{what} over {MAX_LEN} characters"] += 1
        return False
    return True


def record(pattern, flags, subject=None, with_subject=False, extra=False):
    pattern = plain(pattern)
    if isinstance(pattern, re.Pattern):
        pattern, flags = pattern.pattern, pattern.flags
    if not usable(pattern, "pattern"):
        return
    letters, why = flag_letters(flags)
    if why:
        skipped[why] += 1
        return
    key = (str(pattern), letters)
    syntax.setdefault(key, current[0])
    if not with_subject:
        return
    if extra:
        # The answer is `finditer` over the whole subject whatever the call, so a call with
        # `pos`/`endpos` (or `count`/`maxsplit`) still gives its subject.
        widened["calls with pos/endpos/count/maxsplit, replayed over the whole subject"] += 1
    if usable(subject, "subject"):
        matching.setdefault(key + (str(subject),), current[0])


def from_test_re():
    f = sys._getframe(2)
    return f.f_code.co_filename.endswith("test_re.py")


class Recorded:
    """A compiled pattern that records what its methods are called with."""

    def __init__(self, compiled):
        self._compiled = compiled

    def __getattr__(self, name):
        attr = getattr(self._compiled, name)
        if name not in METHODS:
            return attr
        compiled = self._compiled

        def method(*args, **kwargs):
            if name in ("sub", "subn"):
                subject = args[1] if len(args) > 1 else kwargs.get("string")
                extra = len(args) > 2 or "count" in kwargs
            else:
                subject = args[0] if args else kwargs.get("string")
                extra = len(args) > 1 or len(kwargs) > (0 if args else 1)
            record(compiled.pattern, compiled.flags, subject, True, extra)
            return attr(*args, **kwargs)

        return method

    def __eq__(self, other):
        return self._compiled == plain(other)

    def __hash__(self):
        return hash(self._compiled)

    def __repr__(self):
        return repr(self._compiled)


def install():
    real = {name: getattr(re, name) for name in ["compile"] + METHODS}

    def compile_(pattern, flags=0):
        if not from_test_re():
            return real["compile"](plain(pattern), flags)
        try:
            compiled = real["compile"](plain(pattern), flags)
        except re.error:
            record(pattern, flags)
            raise
        record(pattern, flags)
        return Recorded(compiled)

    def wrap(name):
        fn = real[name]

        def module_function(pattern, *args, **kwargs):
            if from_test_re():
                if name in ("sub", "subn"):
                    subject = args[1] if len(args) > 1 else kwargs.get("string")
                    extra = len(args) > 2 or bool(set(kwargs) - {"repl", "string"})
                else:
                    subject = args[0] if args else kwargs.get("string")
                    extra = len(args) > 1 or bool(set(kwargs) - {"string"})
                flags = kwargs.get("flags", 0)
                record(pattern, flags, subject, True, extra)
            return fn(plain(pattern), *args, **kwargs)

        return module_function

    re.compile = compile_
    for name in METHODS:
        setattr(re, name, wrap(name))

    real_scanner = re.Scanner

    class Scanner(real_scanner):
        def __init__(self, *args, **kwargs):
            skipped["Scanner API"] += 1
            super().__init__(*args, **kwargs)

    re.Scanner = Scanner


class Tracking(unittest.TextTestResult):
    def startTest(self, test):
        current[0] = test.id().split(".", 2)[-1]
        super().startTest(test)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "test_re.jsonl"))
    args = ap.parse_args()
    install()
    from test import test_re

    test_re.Scanner = re.Scanner
    suite = unittest.defaultTestLoader.loadTestsFromModule(test_re)
    runner = unittest.TextTestRunner(stream=io.StringIO(), resultclass=Tracking)
    outcome = runner.run(suite)
    print(
        f"ran {outcome.testsRun} test_re tests under the shim "
        f"({len(outcome.failures)} failures, {len(outcome.errors)} errors caused by the shim)",
        file=sys.stderr,
    )
    for test, _ in outcome.failures + outcome.errors:
        print(f"  (stopped early: {test.id().split('.', 2)[-1]})", file=sys.stderr)
    cases = []
    for (pattern, flags), source in list(syntax.items())[:MAX_CASES]:
        cases.append({"kind": "syntax", "pattern": pattern, "flags": flags, "input": "", "source": source})
    for (pattern, flags, subject), source in list(matching.items())[:MAX_CASES]:
        cases.append({"kind": "match", "pattern": pattern, "flags": flags, "input": subject, "source": source})
    for what, n in [("syntax", len(syntax)), ("match", len(matching))]:
        if n > MAX_CASES:
            skipped[f"{what} cases over the cap of {MAX_CASES}"] += n - MAX_CASES
    res = subprocess.run(
        [sys.executable, ORACLE],
        input=json.dumps([dict(c, replacement=None) for c in cases]).encode(),
        capture_output=True,
        check=True,
    )
    answers = json.loads(res.stdout)
    version = ".".join(map(str, sys.version_info[:3]))
    # A match case whose pattern CPython refuses is already a syntax case.
    recorded = []
    for c, a in zip(cases, answers):
        a.pop("warnings", None)
        if c["kind"] == "syntax" and "error" not in a:
            a = {"accepted": True}
        if c["kind"] == "match" and "error" in a:
            continue
        if c["kind"] == "syntax":
            del c["input"]
        recorded.append(dict(c, expected=a))
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(json.dumps({"python": version, "skipped": dict(sorted(skipped.items())), "widened": dict(widened)}, ensure_ascii=False) + "\n")
        for r in recorded:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    kinds = collections.Counter(r["kind"] for r in recorded)
    print(f"recorded {dict(kinds)} cases with CPython {version} in {args.out}", file=sys.stderr)
    print(f"skipped: {dict(sorted(skipped.items()))}; {dict(widened)}", file=sys.stderr)


if __name__ == "__main__":
    main()
