#!/usr/bin/env python3
"""Writes re2_cases.jsonl: the hand-written (pattern, text) cases of RE2's syntax and semantics as
the google-re2 package runs them (`import re2`), from re2_case_table.jsonl, each once, for the
differential test that runs each one through rxw's re2 flavor and through the real library
(tests/oracle/re2_oracle.py, run by rxw_testkit::re2_oracle_answers) and compares live.

Each line is a case exactly as the oracle reads it: {"pattern", "text", "replace" (optional)}.
No answer is recorded: the test asks the real engine each time.

The cases cover every finding of crates/rxw-syntax/gen/re2_notes.md: the error texts of every
class (missing ), missing ], unexpected ), bad escapes, bad and nested repetition, repeat
sizes, bad ranges and properties, named groups, trailing backslash, look-around and
backreferences, a program too large), the group-name forms and the characters a name may hold,
duplicate names, `\\C`, `\\Q…\\E`, octal, `\\pN`, `\\p{Greek}`, `\\p{^Greek}`, POSIX classes,
`\\z` and the refused `\\Z`, the inline flags, what `\\s \\w \\d \\b . $` mean, `(?i)` with the
orbits of Unicode 15.1 (k/K/U+212A, ſ, Σσς, the three pairs new in 15.1), repeats and their
limits, empty iterations, the find-all loop after an empty match (the package reports an empty
match found after the search's start twice) and `\\B` inside a multi-byte character, NetVM log
lines, multi-byte texts, and the package's replacement templates (`\\1`, `\\g<name>`, escapes,
its errors).

With --check it also runs every case through the oracle (this Python must have google-re2),
checks that each is answered, and prints how many compile; with --go it also builds
tests/oracle/go_oracle.go with the newest Go toolchain found (`go` on the PATH and
$RXW_GO_CACHE/<version>/go/bin/go, default ~/.cache/rxw/go) and prints the cases on which RE2
and Go answer differently (error texts compared without Go's `error parsing regexp: ` and
backquotes; replacements only where the template means the same in both, so never).

Usage: record_re2_cases.py [--out FILE] [--check] [--go]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from record_common import LOG, ROOT, UNI, answers_to, arguments, build_go_oracle, \
    go_toolchains, jsonl, report_differences, table_cases, write_cases

ORACLE = os.path.join(ROOT, "tests", "oracle", "re2_oracle.py")

# The texts the case table names (and UNI, LOG).
FOLD = "kK\u212a sSſ σςΣ ßẞ ǅǄǆ µΜμ åÅÅ \u0390\u1fd3 \u03b0\u1fe3 \ufb05\ufb06"
WO = "[WO:7fce46e0] [from super] Audit — check"
RESULT = "[RESULT 7fce46e0] OK done"
TOOL = "[TOOL op {\"a\": 1}]"


def cases():
    return table_cases("re2_case_table.jsonl", {"UNI": UNI, "FOLD": FOLD, "LOG": LOG, "WO": WO,
                                                "RESULT": RESULT, "TOOL": TOOL})


def run_oracle(all_cases):
    out = subprocess.run([sys.executable, ORACLE], input=jsonl(all_cases), capture_output=True,
                         check=True)
    return answers_to(all_cases, out.stdout)


def go_answers(all_cases):
    chains = go_toolchains()
    if not chains:
        sys.exit("no Go toolchain found")
    _, version, go = chains[-1]
    work = tempfile.mkdtemp(prefix="re2_cases-")
    try:
        binary = build_go_oracle(go, work, "go_oracle")
        out = subprocess.run([binary], input=jsonl(all_cases), capture_output=True,
                             check=True).stdout
        return version, answers_to(all_cases, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def go_text(e):
    e = e.removeprefix("error parsing regexp: ")
    return re.sub(r"`([^`]*)`$", r"\1", e)


def check(all_cases, with_go):
    answers = run_oracle(all_cases)
    errors = sum(1 for a in answers if "error" in a)
    repl_errors = sum(1 for a in answers if "replace_error" in a)
    print(f"google-re2: {len(answers)} cases answered, {errors} patterns refused, "
          f"{repl_errors} replacements raise", file=sys.stderr)
    if not with_go:
        return
    version, go = go_answers(all_cases)
    kinds = {}
    for case, a, g in zip(all_cases, answers, go):
        if "error" in a or "error" in g:
            if "error" in a and "error" in g:
                kind = "error text" if a["error"] != go_text(g["error"]) else None
            else:
                kind = "RE2 refuses, Go compiles" if "error" in a else "Go refuses, RE2 compiles"
        elif a["matches"] != g["matches"]:
            kind = "matches"
        elif a["names"] != g["names"]:
            kind = "names"
        else:
            kind = None
        if kind:
            kinds.setdefault(kind, []).append((case, a, g))
    report_differences(kinds, version, ("re2", "go "), 150)


def main():
    ap = arguments("re2_cases.jsonl")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--go", action="store_true")
    args = ap.parse_args()
    all_cases = cases()
    write_cases(args.out, all_cases)
    if args.check or args.go:
        check(all_cases, args.go)


if __name__ == "__main__":
    main()
