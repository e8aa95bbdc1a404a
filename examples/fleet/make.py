#!/usr/bin/env python3
"""Writes the sample fleet under examples/fleet/logs/: the captured logs of three NetVM agents
over a working day, the files the README's and the guide's examples run on.

    python3 examples/fleet/make.py            # write the logs again (the same bytes)
    python3 examples/fleet/make.py --check    # exit 1, naming the file, if a log differs

Each log is one agent's transcript: every line is `TIME SENDER: MESSAGE` (an ISO-8601 stamp
with milliseconds; the sender is the agent, or the fleet service that spoke to it), and a line
that begins with a space continues the message before it (a result's details, a work order's
second line). The work orders come from one schedule shared by the fleet, so the same job id
appears in several logs: one agent claims it (`[CLAIM id]`, tool calls, nudges, a
`[RESULT id] STATUS …`) and the others acknowledge and decline or stand aside. Some jobs are
claimed and never resolved, a few are resolved twice, and about one line in twelve is a near
miss that a careless pattern would take (`[ack id]`, `[CLAIM]` without an id, `[RESULTS x]`,
an upper-case id, a tag without brackets).

agent-646's log is gzip-compressed (no name and no time in the gzip header, so the bytes
depend only on the text and zlib). Only the standard library; the seed fixes every byte.
"""
import argparse
import datetime
import gzip
import io
import pathlib
import random
import sys

SEED = 20261103
HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE / "logs"
AGENTS = ["agent-7", "agent-12", "agent-646"]
# The file each agent's log is written to; one is compressed, as rotated logs are.
FILES = {"agent-7": "agent-7.log", "agent-12": "agent-12.log", "agent-646": "agent-646.log.gz"}
SENDERS = ["super", "646", "pip", "ml-7", "loop-mgr", "harvester", "orchestrator"]
TASKS = [
    ("Audit", "check stats on nv-{vm}"),
    ("Audit", "verify backups on nv-{vm}"),
    ("Audit", "summarise 24h error budget"),
    ("Deploy", "roll box-{vm} to the new image, one slot at a time"),
    ("Rotate keys", "rotate the TLS certs before {hh}:{mm}"),
    ("Reindex", "rebuild the search index for fleet west-1"),
    ("Harvest", "re-run harvest for Zürich feed"),
    ("Проверка", "сверить счётчики с прошлой неделей"),
    ("検査", "エンドポイントの応答時間を確認する"),
]
OPS = [
    ('vm.status', '{{"vm": "nv-{vm}"}}'),
    ('box.search', '{{"q": "disk usage", "k": {k}}}'),
    ('swarm.spawn', '{{"n": {k}, "role": "audit"}}'),
    ('followup.create', '{{"in_m": {m}}}'),
    ('health.check', '{{"target": "nv-{vm}", "timeout_s": {k}}}'),
]
STATUS = ["OK", "OK", "OK", "SUCCESS", "FAIL", "ERROR", None]
DECLINES = ["over budget", "not my shard", "busy with {other}", "no access to nv-{vm}"]
CHATTER = [
    "reading logs from Zürich",
    "café check ☕ passed",
    "naïve retry disabled",
    "latency back under 40ms ✅",
    "λ-handler restarted",
    "ça marche, je m'en occupe",
    "Готово, метрики в норме",
    "了解しました",
    "waiting for 646 to confirm",
]
ALERTS = [
    ("CRITICAL", "VM nv-{vm} unreachable x{k}"),
    ("WARNING", "disk 91% on nv-{vm}"),
    ("INFO", "rollout {step}/5 complete"),
    ("RESOLVED", "nv-{vm} reachable again"),
]
NEAR_MISSES = [
    "[ack {id}] lower-case is a near miss",
    "[CLAIM] missing id, [RESULTS x] plural: near misses",
    "[RESULTS {id}] plural is not a verb",
    "CLAIM {id} without brackets",
    "[WO:{ID}] [from super] Audit — upper-case id is not a work order",
    "[WO {id}] [from {sender}] missing colon — not a work order",
    "[JOB ] empty job id",
    "[fleet-alert] warning: lower-case level",
    "[TOOL {op}] no arguments",
]


class Fleet:
    def __init__(self, seed):
        self.r = random.Random(seed)
        # The fleet's clock, in milliseconds after the first line (10:15:02.114): one clock,
        # so that the logs merged by time read as the fleet lived it.
        self.clock = 0
        self.lines = {a: [] for a in AGENTS}
        self.start = datetime.datetime(2026, 11, 3, 10, 15, 2, 114000)

    def hex(self, n):
        return "".join(self.r.choice("0123456789abcdef") for _ in range(n))

    def uuid4(self):
        h = self.hex(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{self.r.choice('89ab')}{h[17:20]}-{h[20:]}"

    def fill(self, text, **extra):
        r = self.r
        values = dict(
            vm=r.randint(100, 999), k=r.randint(1, 9), m=r.choice([5, 10, 15, 30]),
            hh=f"{r.randint(11, 23):02d}", mm=f"{r.randint(0, 59):02d}",
            sender=r.choice(SENDERS), op=r.choice(OPS)[0], other=self.hex(8), step=r.randint(1, 5),
        )
        values.update(extra)
        return text.format(**values)

    def at(self, ms):
        t = self.start + datetime.timedelta(milliseconds=ms)
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"

    def say(self, agent, message, sender=None, gap=(300, 12000), more=()):
        """One message in an agent's log, a little after its last one; `more` are its
        continuation lines."""
        if any(self.lines.values()):
            self.clock += self.r.randint(*gap)
        self.lines[agent].append(f"{self.at(self.clock)} {sender or agent}: {message}")
        self.lines[agent].extend(f" {line}" for line in more)

    def noise(self, agent):
        r = self.r
        k = r.random()
        if k < 0.25:
            self.say(agent, r.choice(CHATTER))
        elif k < 0.45:
            level, text = r.choice(ALERTS)
            self.say(agent, f"[fleet-alert] {level}: {self.fill(text)}", sender="monitor")
        elif k < 0.6:
            name = r.choice(["audit", "harvest", "triage", "сборщик"])
            status = r.choice(["started", f"finished in {r.randint(5, 90)}s", "failed: timeout"])
            self.say(agent, f"[SUBAGENT-UPDATE] Subagent '{name}' ({self.hex(6)}) {status}",
                     sender="spawner")
        elif k < 0.75:
            job = r.choice([f"swarm-{self.hex(3)}/{r.randint(0, 7)}", f"etl/stage-{r.randint(1, 4)}"])
            self.say(agent, f"[JOB {job}] state={r.choice(['running', 'done', 'queued'])}",
                     sender="scheduler")
        elif k < 0.85:
            self.say(agent, f"trace {self.uuid4()} span {self.hex(12)} closed", sender="tracer")
        else:
            wid = self.hex(8)
            self.say(agent, self.fill(r.choice(NEAR_MISSES), id=wid, ID=wid.upper()))

    def job(self, wid, first):
        """One work order's life across the fleet: who receives it, who claims it, how it
        ends."""
        r = self.r
        title, body = r.choice(TASKS)
        sender = "super" if first else r.choice(SENDERS)
        body = "check stats on nv-646" if first else self.fill(body)
        title = "Audit" if first else title
        # The first job is the one the README follows: sent to every agent, agent-7's.
        receivers = list(AGENTS) if first else r.sample(AGENTS, r.randint(1, 3))
        claimer = receivers[0]
        wrapped = r.random() < 0.15 and not first
        for agent in receivers:
            more = ["second line of the order: report within 30 minutes"] if wrapped else ()
            self.say(agent, f"[WO:{wid}] [from {sender}] {title} — {body}", more=more)
            self.say(agent, f"[ACK:{wid}] [from {agent.split('-')[1]}]", sender="router",
                     gap=(1000, 5000))
        # The others decline at once, or stand aside once it is done (or say nothing).
        declined = [a for a in receivers[1:] if r.random() < 0.6]
        for agent in declined:
            self.say(agent, f"[DECLINE {wid}] {self.fill(r.choice(DECLINES))}")
        self.say(claimer, f"[CLAIM {wid}] {r.choice(['on it', 'taking this one', 'mine'])}",
                 gap=(500, 4000))
        for _ in range(r.randint(0, 3)):
            op, args = r.choice(OPS)
            self.say(claimer, f"[TOOL {op} {self.fill(args)}]")
        if r.random() < 0.2:
            n = r.randint(1, 3)
            self.say(claimer, f"[NUDGE {wid}] [nudge {n}/3] Deadline "
                     f"{r.randint(11, 23)}:{r.randint(0, 59):02d}: please post a RESULT",
                     sender="followup")
        if r.random() < 0.1:
            return  # claimed, never resolved
        status = "OK" if first else r.choice(STATUS)
        n = r.randint(2, 40)
        if status in ("FAIL", "ERROR"):
            summary = f"{status} {r.randint(1, n - 1)} of {n} endpoints unreachable"
        else:
            summary = f"{status + ' ' if status else ''}{n} endpoints healthy"
        more = []
        if r.random() < 0.6:
            more.append(f"   details: p50={r.randint(10, 60)}ms p99={r.randint(200, 900)}ms")
            more.append(f"   run-id {self.uuid4()}")
        self.say(claimer, f"[RESULT {wid}] {summary}", more=more)
        if r.random() < 0.05:
            self.say(claimer, f"[RESULT {wid}] {r.choice(['OK', 'FAIL'])} second report")
        for agent in receivers[1:]:
            if agent not in declined and r.random() < 0.5:
                self.say(agent, f"[NO-ACTION {wid}] already resolved by {claimer}")

    def run(self, jobs):
        for n in range(jobs):
            wid = "7fce46e0" if n == 0 else self.hex(self.r.choice([8, 8, 8, 8, 6, 10, 12]))
            self.job(wid, first=n == 0)
            for _ in range(self.r.randint(1, 4)):
                self.noise(self.r.choice(AGENTS))


def texts():
    fleet = Fleet(SEED)
    fleet.run(240)
    return {FILES[a]: "\n".join(fleet.lines[a]) + "\n" for a in AGENTS}


def encode(name, text):
    data = text.encode("utf-8")
    if not name.endswith(".gz"):
        return data
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(data)
    return buf.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the files on disk (a .gz by its text) instead of writing")
    a = ap.parse_args()
    differ = []
    for name, text in texts().items():
        path = OUT / name
        if a.check:
            try:
                have = path.read_bytes()
                if name.endswith(".gz"):
                    have = gzip.decompress(have)
            except OSError as e:
                differ.append(f"{path}: {e}")
                continue
            if have != text.encode("utf-8"):
                differ.append(f"{path}: differs from what make.py writes")
        else:
            OUT.mkdir(exist_ok=True)
            path.write_bytes(encode(name, text))
    for d in differ:
        print(d, file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
