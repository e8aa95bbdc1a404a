"""Interleaved timing for the benchmark scripts (imported by the Python they run inline, e.g.
benches/audit_vs_rg.sh): each command of a list is run in turn, RUNS rounds, so that a change of
load hits all alike; wall and CPU times (user + system of the child) are taken with microsecond
resolution.
"""
import os
import resource
import subprocess
import sys
import time


def best_interleaved(runs, cmds):
    """{name: (best wall seconds, least CPU seconds)} of `cmds` ([(name, argv)]) run `runs`
    times, interleaved, their output discarded; exits when one fails (an exit above 1)."""
    best = {name: (float("inf"), float("inf")) for name, _ in cmds}
    # Write-only, as a shell's `> /dev/null` (rxw takes a read-write /dev/null on standard
    # output for the closed descriptor the runtime replaced, and refuses it).
    sink = open(os.devnull, "wb")
    for _ in range(runs):
        for name, cmd in cmds:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            done = subprocess.run(cmd, stdout=sink, stderr=subprocess.DEVNULL)
            if done.returncode > 1:
                sys.exit(f"{name} failed (exit {done.returncode})")
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            w, c = best[name]
            best[name] = (min(w, wall), min(c, cpu))
    return best


def load():
    """The load average and core count, as the reports print them."""
    return f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores"
