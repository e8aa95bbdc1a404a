#!/usr/bin/env python3
"""The grep-audit design's reference implementation, reconstructed as a standalone script.

The design document gives `GrepAudit.run` with `_compile_patterns`, `_substring` and
`_render_table`; this file keeps that logic as written (one `read_text(errors="replace")` per
path, then every pattern on the text, a markdown table or JSON) and only replaces the intern
plumbing (`Intern`, `InternResponse`, `safety.check_paths`) with a command line. It is what
`benches/audit.sh` compares `rxw audit` against, and what the tests compare its table with.

Usage:
  grep_audit_ref.py [--output table|json] [--ignore-case]
                    [-p SUBSTRING]... [-r NAME=REGEX]... (--paths-from FILE | PATH...)
"""
import argparse
import json
import re
import sys
from pathlib import Path


def run(paths, patterns, output="table", case_sensitive=True):
    compiled = _compile_patterns(patterns, case_sensitive)
    rows = []
    matches_total = 0
    for p in paths:
        try:
            text = Path(p).read_text(encoding="utf-8", errors="replace")
        except (FileNotFoundError, PermissionError, IsADirectoryError) as exc:
            rows.append({"path": p, "matches": {c["name"]: None for c in compiled}, "error": str(exc)})
            continue
        row_matches = {}
        for c in compiled:
            hit = bool(c["matcher"](text))
            row_matches[c["name"]] = hit
            if hit:
                matches_total += 1
        rows.append({"path": p, "matches": row_matches})
    rendered = (
        json.dumps({"rows": rows}, ensure_ascii=False, indent=2)
        if output == "json"
        else _render_table(rows, [c["name"] for c in compiled])
    )
    return {
        "text": rendered,
        "usage": {
            "files_scanned": len(paths),
            "patterns_evaluated": len(compiled),
            "matches_total": matches_total,
        },
    }


def _compile_patterns(patterns, case_sensitive):
    out = []
    for p in patterns:
        if isinstance(p, str):
            out.append({"name": p, "matcher": _substring(p, case_sensitive)})
            continue
        name = p.get("name", p["pattern"])
        if p.get("regex"):
            flags = 0 if case_sensitive else re.IGNORECASE
            out.append({"name": name, "matcher": re.compile(p["pattern"], flags).search})
        else:
            out.append({"name": name, "matcher": _substring(p["pattern"], case_sensitive)})
    return out


def _substring(needle, case_sensitive):
    if case_sensitive:
        return lambda text: needle in text
    n = needle.lower()
    return lambda text: n in text.lower()


def _render_table(rows, names):
    header = "| Path | " + " | ".join(names) + " |"
    sep = "|" + "---|" * (len(names) + 1)
    lines = [header, sep]
    for row in rows:
        cells = []
        for n in names:
            v = row["matches"][n]
            cells.append("⚠️" if v is None else ("✅" if v else "❌"))
        lines.append(f"| `{row['path']}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--paths-from")
    ap.add_argument("-p", "--pattern", action="append", default=[], help="substring")
    ap.add_argument("-r", "--regex", action="append", default=[], help="NAME=REGEX")
    ap.add_argument("--output", choices=["table", "json"], default="table")
    ap.add_argument("--ignore-case", action="store_true")
    args = ap.parse_args()
    paths = list(args.paths)
    if args.paths_from:
        with open(args.paths_from, encoding="utf-8") as f:
            paths += [line.rstrip("\n") for line in f if line.strip()]
    patterns = list(args.pattern)
    for spec in args.regex:
        name, _, pattern = spec.partition("=")
        patterns.append({"name": name, "pattern": pattern, "regex": True})
    result = run(paths, patterns, args.output, not args.ignore_case)
    sys.stdout.write(result["text"] + "\n")
    sys.stdout.write(json.dumps({"usage": result["usage"]}) + "\n")


if __name__ == "__main__":
    main()
