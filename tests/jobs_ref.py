#!/usr/bin/env python3
"""Reference for `rxw jobs --json`, written from the README's description, not from the Rust.

    python3 tests/jobs_ref.py LOG > jobs.json

Prints the job table as one JSON array. Standard library only (Python 3.8+).
"""
import datetime
import json
import re
import sys

# A tag anywhere in a line; ids of the registry's `verb` preset; WO only with a colon.
TAG = re.compile(
    rb"\[(?:(WO|ACK):|(ACK|CLAIM|RESULT|DECLINE|NO-ACTION|NUDGE)[ \t]+)([A-Za-z0-9_/-]+)\]"
)
STATUS = re.compile(rb"[ \t]*(OK|FAIL|DECLINE|SUCCESS|ERROR)(?![A-Za-z0-9_])")
STAMP = re.compile(
    rb"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?"
    rb"(?:([Zz])|([+-])(\d\d)(?::?(\d\d))?)?(?![A-Za-z0-9])"
)
RESOLVING = ("RESULT", "DECLINE", "NO-ACTION")


def stamp_millis(line):
    m = STAMP.match(line)
    if not m:
        return None
    y, mo, d, h, mi, s = (int(g) for g in m.group(1, 2, 3, 4, 5, 6))
    try:
        base = datetime.datetime(y, mo, d, h, mi, min(s, 59), tzinfo=datetime.timezone.utc)
    except ValueError:
        return None
    if h > 23 or mi > 59 or s > 60:
        return None
    ms = int((m.group(7) or b"0")[:3].ljust(3, b"0"))
    offset = 0
    if m.group(9):
        oh, om = int(m.group(10)), int(m.group(11) or b"0")
        if oh > 23 or om > 59:
            return None
        offset = (oh * 60 + om) * (-1 if m.group(9) == b"-" else 1)
    secs = int(base.timestamp()) + (s - min(s, 59)) - offset * 60
    return secs * 1000 + ms


def fmt(millis):
    if millis is None:
        return None
    t = datetime.datetime.fromtimestamp(millis // 1000, tz=datetime.timezone.utc)
    text = t.strftime("%Y-%m-%dT%H:%M:%S")
    return text + (f".{millis % 1000:03d}Z" if millis % 1000 else "Z")


LAST = [None]  # the time of the last stamped line


def track(jobs, number, line):
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    t = stamp_millis(line)
    if t is not None:
        LAST[0] = t
    for m in TAG.finditer(line):
        tag = (m.group(1) or m.group(2)).decode()
        job = m.group(3).decode()
        status = None
        if tag == "RESULT":
            s = STATUS.match(line, m.end())
            status = s.group(1).decode() if s else None
        jobs.setdefault(job, []).append((tag, number, LAST[0], status))


def main():
    jobs = {}  # insertion-ordered: first appearance
    with open(sys.argv[1], "rb") as f:
        for number, line in enumerate(f, 1):
            track(jobs, number, line)
    rows = []
    for job, events in jobs.items():
        results = [e for e in events if e[0] == "RESULT"]
        others = [e for e in events if e[0] in ("DECLINE", "NO-ACTION")]
        tags = {e[0] for e in events}
        if results:
            status = results[-1][3] or "RESULT"
        elif others:
            status = others[-1][0]
        elif "CLAIM" in tags:
            status = "CLAIMED"
        elif "ACK" in tags:
            status = "ACKED"
        else:
            status = "OPEN"
        duration = None
        claims = [i for i, e in enumerate(events) if e[0] == "CLAIM"]
        if claims:
            after = [e for e in events[claims[0]:] if e[0] in RESOLVING]
            c = events[claims[0]][2]
            if after and after[0][2] is not None and c is not None:
                duration = (after[0][2] - c) / 1000
        n_res = sum(1 for e in events if e[0] in RESOLVING)
        flags = []
        if claims and n_res == 0:
            flags.append("unresolved")
        if n_res >= 2:
            flags.append("resolved-twice")
        rows.append({
            "job": job,
            "status": status,
            "events": [{"tag": e[0], "line": e[1], "time": fmt(e[2])} for e in events],
            "claim_to_result_s": duration,
            "flags": flags,
        })
    json.dump(rows, sys.stdout)


if __name__ == "__main__":
    main()
