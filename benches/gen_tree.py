#!/usr/bin/env python3
"""Generates the audit benchmark's tree: FILES agent-log-like files, about BYTES in total.

Deterministic for a seed. Files sit in 100 directories; sizes vary from a fifth to twice the
mean. Lines mimic a NetVM agent log (work orders, ACKs, tool calls, job ids, UUIDs, commit
hashes, some non-ASCII prose); some markers are rare so that most files miss some columns
and a presence check must read them to the end.
"""
import argparse
import os
import random

WORDS = ("the agent reads config and writes a patch then runs tests on worker node "
         "with retry budget timeout queue status ready done failed pending review merge "
         "build deploy cache shard lease token window").split()
NON_ASCII = ["café", "naïve", "Grüße", "— done —", "✅ ok", "résumé", "Ärger", "→ next", "日本語"]


def hexs(r, n):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def uuid4(r):
    return f"{hexs(r, 8)}-{hexs(r, 4)}-4{hexs(r, 3)}-{r.choice('89ab')}{hexs(r, 3)}-{hexs(r, 12)}"


def prose(r):
    words = [r.choice(WORDS) for _ in range(r.randint(6, 14))]
    if r.random() < 0.05:
        words.insert(r.randrange(len(words)), r.choice(NON_ASCII))
    return " ".join(words)


def line(r, markers):
    k = r.random()
    ts = f"2026-05-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"
    if k < 0.70 or not markers:
        return f"{ts} {prose(r)}"
    m = r.choice(markers)
    if m == "wo":
        return f"{ts} [WO:{uuid4(r)}] {prose(r)}"
    if m == "ack":
        return f"{ts} [ACK:{hexs(r, 8)}] received"
    if m == "verb":
        return f"{ts} [{r.choice(['CLAIM', 'DECLINE', 'NO-ACTION'])} task/{r.choice(WORDS)}] {prose(r)}"
    if m == "result":
        return f"{ts} [RESULT build/{r.choice(WORDS)}] exit={r.randint(0, 2)}"
    if m == "tool":
        return f"{ts} [TOOL bash {{\"cmd\": \"{r.choice(WORDS)} --fast\"}}] {prose(r)}"
    if m == "job":
        return f"{ts} [JOB build/{r.choice(WORDS)}] queued"
    if m == "nudge":
        return f"{ts} [NUDGE {hexs(r, 6)}] please report"
    if m == "fleet":
        return f"{ts} [fleet-alert] node {r.randint(1, 99)} is down"
    if m == "uuid":
        return f"{ts} session {uuid4(r)} opened"
    if m == "hex":
        return f"{ts} commit {hexs(r, r.randint(7, 12))} {prose(r)}"
    if m == "subagent":
        return f"{ts} [SUBAGENT-UPDATE] {prose(r)}"
    if m == "swarm":
        return f"{ts} [JOB swarm-{hexs(r, 5)}/{r.randint(1, 64)}] started"
    return f"{ts} {prose(r)}"


# How often each marker kind appears in a file at all.
RATES = {"wo": 0.5, "ack": 0.6, "verb": 0.5, "result": 0.4, "tool": 0.3, "job": 0.3, "nudge": 0.1,
         "fleet": 0.02, "uuid": 0.3, "hex": 0.6, "subagent": 0.05, "swarm": 0.08}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=10000)
    ap.add_argument("--bytes", type=int, default=100_000_000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    r = random.Random(a.seed)
    mean = a.bytes // a.files
    total = 0
    for i in range(a.files):
        d = os.path.join(a.out, f"d{i % 100:02d}")
        os.makedirs(d, exist_ok=True)
        size = r.randint(mean // 5, mean * 2 - mean // 5)
        markers = [m for m, rate in RATES.items() if r.random() < rate]
        lines = []
        n = 0
        while n < size:
            s = line(r, markers)
            lines.append(s)
            n += len(s.encode()) + 1
        data = "\n".join(lines) + "\n"
        with open(os.path.join(d, f"f{i:05d}.log"), "w", encoding="utf-8") as f:
            f.write(data)
        total += len(data.encode())
    print(f"generated {a.files} files, {total} bytes in {a.out}")


if __name__ == "__main__":
    main()
