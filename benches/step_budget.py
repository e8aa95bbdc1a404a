#!/usr/bin/env python3
"""Sizes the human profile's total step budget (Limits::HUMAN_TOTAL_STEPS).

For patterns that the matcher runs over every start of a text (lazy runs before a look-ahead,
a run retried before an end that fails), on generated texts of 2 KB to 64 KB: the time CPython
and node take to find every match, the matcher's steps for the same scan (`rxw debug
--summary`), and the ratio, in millions of steps per second of the real engine. The budget
must hold a second of the real engine's work at the largest ratio: what the engine finishes
within a second on a 64 KB text is then answered. Run it on an idle machine (the timings are
wall clock).

    benches/step_budget.py [target/release/rxw]
"""
import re, subprocess, time, json, random, sys
RXW = sys.argv[1] if len(sys.argv) > 1 else "target/release/rxw"
random.seed(7)
words = ['alpha', 'beta', 'gamma', 'delta', 'x=1', 'foo bar', '# note', 'key: value']
def text(k):
    s = '\n'.join(' '.join(random.choice(words) for _ in range(8)) for _ in range(k // 40 + 2))
    return s[:k]
CASES = [
    (r"(?:.|\n)+?(?=END)", lambda k: text(k)),
    (r"(?:.|\n)*?(?=\d{5})", lambda k: text(k)),
    (r"(?=\s)\s+$", lambda k: " " * k + "x"),
    (r"\b\w+(?=ZZZ)", lambda k: text(k)),
    (r"[^\n]*(?=!)", lambda k: text(k)),
    (r"(?:[^\s]+\s*)+?(?=@@)", lambda k: text(k)),
]
JS = r"""
const job = JSON.parse(require('fs').readFileSync(0,'utf8'));
const rx = new RegExp(job.p, 'g'); const s = job.t;
const t = process.hrtime.bigint(); let n = 0; for (const m of s.matchAll(rx)) n++;
console.log(JSON.stringify({t: Number(process.hrtime.bigint()-t)/1e9, n}));
"""
for p, mk in CASES:
    for k in [2048, 4096, 8192, 16384, 32768, 65536]:
        t = mk(k)
        rx = re.compile(p)
        t0 = time.perf_counter(); n = len(re.findall(p, t)); dpy = time.perf_counter() - t0
        js = json.loads(subprocess.run(["node", "-e", JS], input=json.dumps({"p": p, "t": t}), capture_output=True, text=True).stdout)
        open("/tmp/cal/t.txt", "w").write(t)
        out = subprocess.run([RXW, "debug", "--summary", "--flavor", "python", "--file", "/tmp/cal/t.txt", "--", p], capture_output=True, text=True, timeout=300).stdout
        m = re.search(r"(\d+) matches?, (\d+) steps", out)
        steps = int(m.group(2)) if m else None
        t0 = time.perf_counter(); subprocess.run([RXW, "find", "--count", "--max-total-steps", "0", "--flavor", "python", "--", p, "/tmp/cal/t.txt"], capture_output=True); drxw = time.perf_counter() - t0
        print(json.dumps({"p": p, "k": k, "py": round(dpy, 4), "node": round(js["t"], 4), "steps": steps, "rxw": round(drxw, 3),
                          "per_py_s": steps and round(steps / max(dpy, 1e-4) / 1e6), "per_node_s": steps and round(steps / max(js["t"], 1e-4) / 1e6)}), flush=True)
        if dpy > 2 and js["t"] > 2:
            break
