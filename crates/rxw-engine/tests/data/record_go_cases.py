#!/usr/bin/env python3
"""Writes go_cases.jsonl: the hand-written (pattern, text) cases of RE2/Go syntax and semantics
of go_case_table.jsonl, each once, for the differential test that runs each one through rxw's
go@<release> and through that release's own regexp (tests/oracle/go_oracle.go, built by
rxw_testkit::go_oracle) and compares live.

Each line is a case exactly as the Go oracle reads it: {"pattern", "text", "replace"
(optional)}. No answer is recorded: the test asks the real engine each time.

The cases cover literals and escapes (`\\Q…\\E`, octal, `\\x{…}`, the escapes Go refuses),
classes (Perl, ASCII/POSIX, `\\p{…}` and `\\P{…}` with the names each release accepts,
negation), anchors with and without `(?m)`, `(?s)`, `(?i)` with Unicode simple folding
(k/K/U+212A, s/S/U+017F, Σσς), `(?U)`, greedy and lazy repeats, counted repeats and their
limits, empty matches on multi-byte text, alternation priority, repeated and nested captures,
the group syntaxes Go has and has not, NetVM-like log lines, and replacement templates.

With --check it also runs every case through the oracle built with each Go toolchain found
(`go` on the PATH and $RXW_GO_CACHE/<version>/go/bin/go, default ~/.cache/rxw/go), checks that
each answers every case, and prints the cases on which releases answer differently.

Usage: record_go_cases.py [--out FILE] [--check]
"""
import json
import shutil
import subprocess
import sys
import tempfile

from record_common import UNI, answers_to, arguments, build_go_oracle, go_toolchains, jsonl, \
    table_cases, write_cases

# The texts the case table names (and UNI).
CASES_TEXT = "kK\u212a sSſ σςΣ ßẞ ǅǄǆ µΜμ åÅÅ"
LOG = (
    "[WO:7fce46e0] [from super] Audit — check\n"
    "[RESULT 7fce46e0] OK done\n"
    "[WO:0a1b2c3d] [from relay-2] Déploiement — vérifier\n"
    "[RESULT 0a1b2c3d] FAIL timeout after 30s\n"
)


def cases():
    return table_cases("go_case_table.jsonl",
                       {"UNI": UNI, "CASES_TEXT": CASES_TEXT, "LOG": LOG})


def check(all_cases):
    chains = go_toolchains()
    if not chains:
        sys.exit("no Go toolchain found")
    work = tempfile.mkdtemp(prefix="go_cases-")
    body = jsonl(all_cases)
    answers = {}
    try:
        for _, version, go in chains:
            binary = build_go_oracle(go, work, "oracle-" + version)
            out = subprocess.run([binary], input=body, capture_output=True, check=True).stdout
            lines = answers_to(all_cases, out, f"{version}: ")
            answers[version] = lines
            errors = sum(1 for a in lines if "error" in a)
            print(f"{version}: {len(lines)} cases answered ({errors} refused)", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    versions = [v for _, v, _ in chains]
    differing = 0
    for i, case in enumerate(all_cases):
        groups = {}
        for v in versions:
            groups.setdefault(json.dumps(answers[v][i], ensure_ascii=False), []).append(v)
        if len(groups) > 1:
            differing += 1
            print(f"differs: {json.dumps(case, ensure_ascii=False)[:150]}", file=sys.stderr)
            for answer, vs in groups.items():
                print(f"    {', '.join(vs)}: {answer[:150]}", file=sys.stderr)
    print(f"{differing} of {len(all_cases)} cases tell releases apart", file=sys.stderr)


def main():
    ap = arguments("go_cases.jsonl")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    all_cases = cases()
    write_cases(args.out, all_cases)
    if args.check:
        check(all_cases)


if __name__ == "__main__":
    main()
