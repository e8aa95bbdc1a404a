"""The loop the line-by-line oracles share (onig_oracle.py, pcre2_oracle.py): each case of
standard input (one JSON object a line, blank lines skipped) answered by one JSON line,
written at once, so that a caller can read answers as it sends cases.
"""
import json
import sys


def answer_lines(answer, ensure_ascii=True):
    """Writes `answer(case)` as one JSON line for each case read, flushed after each."""
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(json.dumps(answer(json.loads(line)), ensure_ascii=ensure_ascii) + "\n")
        sys.stdout.flush()
