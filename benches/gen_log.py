#!/usr/bin/env python3
"""Writes a synthetic NetVM agent log to stdout: deterministic for a given --bytes and --seed.

    python3 benches/gen_log.py --bytes 100000000 --seed 1 > /tmp/agent.log

The log is built from conversations: an orchestrator hands out a work order, agents
acknowledge and claim it, call tools, get nudged, and report results (some over several
lines); fleet alerts, subagent notices, swarm slots, traces with UUIDs (v4, and v1 that must
not count as v4) and chatter in several scripts come in between. About one line in eight is
a near-miss that a careless pattern would take: lower-case tags, a [RESULT] without an id,
13-digit hex runs, swarm tags without a slot, and so on.

With --lifecycles, several conversations are in flight at once and their lines interleave,
as in a real fleet log: a job's WO, ACK, CLAIM, NUDGE and RESULT lines are spread among other
jobs' lines, acknowledgements come as `[ACK:id]` or `[ACK id]`, some jobs are claimed and never
resolved, some are resolved twice, and stamps run forward across days. Without it the output
is the same as before the option existed.

Only the standard library; the same arguments always give the same bytes (Python 3.8+).
"""
import argparse
import datetime
import random
import re
import sys

AGENTS = ["super", "646", "pip", "ml-7", "loopd", "harvester", "box", "audit_2", "qa-east"]
TASKS = [
    ("Audit", "check stats on every endpoint"),
    ("Deploy", "roll box-4 to the new image, one slot at a time"),
    ("Rotate keys", "rotate the TLS certs before {hh}:{mm}"),
    ("Reindex", "rebuild the search index for fleet west-1"),
    ("Проверка", "сверить счётчики с прошлой неделей"),
    ("Sweep", "collect loop state and report stalls over 10m"),
    ("Backfill", "backfill metrics for 2026-10-0{d}"),
    ("検査", "エンドポイントの応答時間を確認する"),
]
STATUS = ["OK", "FAIL", "SUCCESS", "ERROR", "DECLINE", None]
OPS = ["followup.create", "health.check", "loop.state", "vm.restart", "job.claim", "swarm.fanout"]
LEVELS = ["CRITICAL", "WARNING", "INFO", "RESOLVED"]
CHATTER = [
    "on it", "looks fine from here", "will retry after the deploy window",
    "waiting for 646 to confirm", "latency back under 40ms ✅", "λ-handler restarted",
    "ça marche, je m'en occupe", "Готово, метрики в норме", "了解しました", "ok 👍",
    "the harvester is slow again — see the dashboard",
]
NEAR_MISSES = [
    "[ack {id}] lower-case ack is not an ack",
    "[RESULT] no id here, not a result",
    "[result {id}] lower-case result",
    "[JOB ] empty job id",
    "[JOB swarm-{sw}] swarm without a slot",
    "[fleet-alert] warning: lower-case level",
    "trace {v1} is a v1 uuid",
    "hex run {hex13} is thirteen digits",
    "[WO {id}] [from {agent}] missing colon — not a work order",
    "[TOOL {op}] no arguments",
    "[NUDGE {id}] Deadline {hh}:{mm}: no attempt counter",
    "[SUBAGENT-UPDATE] Subagent {agent} ({short}) unquoted name",
]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.clock = 0

    def hex(self, n):
        return "".join(self.r.choice("0123456789abcdef") for _ in range(n))

    def uuid(self, version):
        h = self.hex(32)
        variant = self.r.choice("89ab")
        return f"{h[:8]}-{h[8:12]}-{version}{h[13:16]}-{variant}{h[17:20]}-{h[20:]}"

    def stamp(self, who):
        self.clock += self.r.randint(1, 30)
        t = self.clock
        return f"2026-10-05T{t // 3600 % 24:02d}:{t // 60 % 60:02d}:{t % 60:02d}Z {who}: "

    def fill(self, s, wid):
        r = self.r
        return s.format(
            id=wid, agent=r.choice(AGENTS), sw=self.hex(3), v1=self.uuid(1), hex13=self.hex(13),
            op=r.choice(OPS), hh=f"{r.randint(0, 23):02d}", mm=f"{r.randint(0, 59):02d}",
            short=self.hex(6), d=r.randint(1, 9),
        )

    def conversation(self):
        """One work order's life, as a list of lines."""
        r = self.r
        wid = self.hex(r.choice([6, 8, 8, 10, 12]))
        boss = r.choice(AGENTS)
        worker = r.choice(AGENTS)
        title, body = r.choice(TASKS)
        lines = []
        # Work orders at a line start (only those match `^`), sometimes behind a log prefix.
        prefix = "" if r.random() < 0.6 else self.stamp(boss)
        lines.append(f"{prefix}[WO:{wid}] [from {boss}] {title} — {self.fill(body, wid)}")
        lines.append(f"{self.stamp(worker)}[ACK:{wid}] [from {worker}]")
        lines.append(f"{self.stamp(worker)}[CLAIM {wid}] taking it")
        for _ in range(r.randint(0, 3)):
            k = r.random()
            if k < 0.3:
                lines.append(f'{self.stamp(worker)}[{r.choice(["TOOL", "EXEC"])} {r.choice(OPS)} {{"in_m": {r.randint(1, 90)}, "job": "{wid}"}}]')
            elif k < 0.45:
                n = r.randint(1, 3)
                lines.append(f"[NUDGE {wid}] [nudge {n}/3] Deadline {r.randint(0, 23)}:{r.randint(0, 59):02d}: still waiting on {worker}")
            elif k < 0.55:
                lines.append(f"{self.stamp('box')}[fleet-alert] {r.choice(LEVELS)}: VM {self.hex(6)} unreachable x{r.randint(1, 5)}")
            elif k < 0.65:
                lines.append(f"[SUBAGENT-UPDATE] Subagent '{r.choice(['audit', 'harvest', 'triage', 'сборщик'])}' ({self.hex(6)}) {r.choice(['started', 'finished', 'failed: timeout'])}")
            elif k < 0.75:
                sw = self.hex(3)
                lines.append(f"{self.stamp(boss)}[JOB swarm-{sw}/{r.randint(0, 31)}] fan-out for {wid}")
            elif k < 0.82:
                lines.append(f"{self.stamp(boss)}[JOB {r.choice(['ml', 'etl', 'sweep'])}-{r.randint(1, 999)}-202610{r.randint(1, 28):02d}]")
            elif k < 0.9:
                lines.append(f"{self.stamp(worker)}trace {self.uuid(4)} for {wid}")
            else:
                lines.append(f"{self.stamp(worker)}{self.fill(r.choice(NEAR_MISSES), wid)}")
        for _ in range(r.randint(0, 2)):
            lines.append(f"{self.stamp(r.choice(AGENTS))}{r.choice(CHATTER)}")
        if r.random() < 0.85:
            st = r.choice(STATUS)
            summary = f"{st + ' ' if st else ''}{r.randint(1, 40)} endpoints checked"
            lines.append(f"{self.stamp(worker)}[RESULT {wid}] {summary}")
            if r.random() < 0.3:
                lines.extend(f"  - {self.fill(r.choice(TASKS)[1], wid)}" for _ in range(r.randint(1, 3)))
        else:
            lines.append(f"{self.stamp(worker)}[{r.choice(['DECLINE', 'NO-ACTION'])} {wid}]")
        if r.random() < 0.12:
            lines.append(f"{self.stamp(worker)}{self.fill(r.choice(NEAR_MISSES), wid)}")
        return lines


STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ")
EPOCH = datetime.datetime(2026, 10, 5, tzinfo=datetime.timezone.utc)


class Lifecycles:
    """Interleaves the conversations of Gen, with the lifecycle variants described above."""

    def __init__(self, seed):
        self.g = Gen(seed)
        self.r = random.Random(seed + 1_000_003)
        self.clock = 0
        self.live = []

    def variant(self, lines):
        r = self.r
        out = []
        wid = None
        for line in lines:
            m = re.search(r"\[WO:([0-9a-f]+)\]", line)
            if m:
                wid = m.group(1)
            if "[ACK:" in line and r.random() < 0.3:
                line = line.replace("[ACK:", "[ACK ", 1)
            out.append(line)
        if wid is None:
            return out
        k = r.random()
        ends = [i for i, l in enumerate(out) if re.search(r"\[(RESULT|DECLINE|NO-ACTION) " + wid + r"\]", l)]
        if k < 0.08 and ends:
            # Claimed, never resolved.
            del out[ends[0]]
        elif k < 0.14 and ends:
            out.append(f"[RESULT {wid}] {r.choice(['OK', 'FAIL', 'ERROR'])} second report")
        elif k < 0.18:
            out.append(f"[NUDGE {wid}] [nudge 2/3] Deadline {r.randint(0, 23)}:{r.randint(0, 59):02d}: any news?")
        return out

    def stamp(self):
        self.clock += self.r.randint(1, 20)
        t = EPOCH + datetime.timedelta(seconds=self.clock)
        return t.strftime("%Y-%m-%dT%H:%M:%SZ ")

    def line(self):
        while len(self.live) < 4:
            self.live.append(self.variant(self.g.conversation()))
        conv = self.r.choice(self.live)
        line = conv.pop(0)
        if not conv:
            self.live.remove(conv)
        # Re-stamp the lines that had a stamp, so time runs forward in the interleaved log.
        if STAMP.match(line):
            line = self.stamp() + line[21:]
        return line


def write_blocks(out, size, block, per_write):
    """Writes `block()` after `block()` (text, UTF-8 encoded) to `out` until `size` bytes or
    more are written, `per_write` blocks a write."""
    written = 0
    chunk = []
    while written < size:
        data = block().encode("utf-8")
        chunk.append(data)
        written += len(data)
        if len(chunk) >= per_write:
            out.write(b"".join(chunk))
            chunk.clear()
    out.write(b"".join(chunk))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bytes", type=int, default=1_000_000, help="size of the log, in bytes (cut at a line end at or past it)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lifecycles", action="store_true", help="interleave job lifecycles (see above)")
    a = ap.parse_args()
    out = sys.stdout.buffer
    if a.lifecycles:
        lc = Lifecycles(a.seed)
        write_blocks(out, a.bytes, lambda: lc.line() + "\n", 8192)
    else:
        g = Gen(a.seed)
        write_blocks(out, a.bytes, lambda: "\n".join(g.conversation()) + "\n", 2048)


if __name__ == "__main__":
    main()
