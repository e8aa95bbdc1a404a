#!/usr/bin/env bash
# Per-file overhead of `rxw audit` against ripgrep: a generated tree (default 14,000 files,
# ~109 MB, benches/gen_tree.py) read by `rg -l` with one literal, and by `rxw audit` with the
# same literal and with the 12 NetVM-like regexes of benches/audit.sh (AUDIT_REGEXES in
# benches/common.sh). Best wall and least CPU seconds of RUNS interleaved runs; the ratios are
# to rg's.
#
# Then the rare-columns scenario: twelve columns of which six are rare (found in few files or
# none, so every file is read to its end), side by side with ripgrep's full-read floor
# (`rg -c -j2 zzqq`: one absent literal, every byte read) and ripgrep's union pass of the same
# twelve patterns (`rg -c -j2 -e … -e …`, which answers far less: one count per file, not per
# column). rxw runs with -j2 as well; the ratios are to the floor and to the union pass.
#
#   benches/audit_vs_rg.sh                 # FILES=14000 BYTES=109000000 RUNS=7
#   RXW=/path/to/rxw benches/audit_vs_rg.sh
#   SCENARIO=rare benches/audit_vs_rg.sh   # only the rare-columns scenario
#   KEEP=1 benches/audit_vs_rg.sh          # keep the generated tree (path printed)
#
# Needs rg (apt-get install -y ripgrep) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/common.sh
RUNS=${RUNS:-7}
command -v rg > /dev/null || { echo "rg is needed (apt-get install -y ripgrep)"; exit 2; }

bench_tree audit-rg 14000 109000000
if [[ -z "${RXW:-}" ]]; then
  cargo build --release --quiet
  RXW=target/release/rxw
fi
echo "== $(find "$WORK/tree" -type f | wc -l) files, $(du -sb "$WORK/tree" | cut -f1) bytes"
cat "$WORK"/tree/*/* > /dev/null # warm the page cache

# Six common columns and six rare ones: fleet alerts (2% of files), subagent updates (5%),
# swarm slots (8%), nudges (10%), and two markers no generated file holds.
RARE=(
  'wo=\[WO:[0-9a-f-]+\]'
  'ack=\[ACK:[0-9a-f]+\]'
  'verb=\[(?:ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+[A-Za-z0-9_/-]+\]'
  'result=\[RESULT\s+[A-Za-z0-9_/-]+\]'
  'hex=\b[0-9a-f]{6,12}\b'
  'uuid=[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'
  'fleet=\[fleet-alert\]'
  'subagent=\[SUBAGENT-UPDATE\]'
  'swarm=\[JOB swarm-[0-9a-z]+/[0-9]+\]'
  'nudge=\[NUDGE [0-9a-f]+\]'
  'panic=\[PANIC [0-9]+\]'
  'oom=out of memory: killed process [0-9]+'
)
RARE_RXW=()
RARE_RG=()
for r in "${RARE[@]}"; do
  RARE_RXW+=(-p "${r%%=*}=/${r#*=}/")
  RARE_RG+=(-e "${r#*=}")
done

if [[ "${SCENARIO:-all}" != rare ]]; then

# Runs are interleaved (rg, rxw with one literal, rxw with 12 regexes, again), so that a change
# of load hits all three alike; wall and CPU times (user + system of the child) are taken with
# microsecond resolution. Reported: the best wall time and the least CPU time of RUNS.
python3 - "$RUNS" "$RXW" "$WORK/tree" "${AUDIT_ARGS[@]}" <<'PY'
import sys
sys.path.insert(0, "benches")
from interleaved import best_interleaved, load
runs, rxw, tree, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
cmds = [
    ("rg -l -F 'ACK:' (one literal)", ["rg", "-l", "--no-messages", "-F", "ACK:", tree]),
    ("rxw audit -p 'ACK:' (one literal)", [rxw, "audit", tree, "-p", "ACK:", "--format", "json"]),
    ("rxw audit, 12 regexes", [rxw, "audit", tree, *args, "--format", "json"]),
]
best = best_interleaved(runs, cmds)
print(f"== best of {runs}, interleaved ({load()})")
rg_wall, rg_cpu = best[cmds[0][0]]
for name, _ in cmds:
    w, c = best[name]
    print(f"   {name:<36} {w:6.3f} s wall {c:6.3f} s cpu   {w / rg_wall:5.2f}x rg wall {c / rg_cpu:5.2f}x rg cpu")
PY
fi

python3 - "$RUNS" "$RXW" "$WORK/tree" "${#RARE_RXW[@]}" "${RARE_RXW[@]}" "${RARE_RG[@]}" <<'PY'
import sys
sys.path.insert(0, "benches")
from interleaved import best_interleaved, load
runs, rxw, tree, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
rxw_args, rg_args = sys.argv[5:5 + n], sys.argv[5 + n:]
cmds = [
    ("rg -c -j2 zzqq (full-read floor)", ["rg", "-c", "-j2", "--no-messages", "zzqq", tree]),
    ("rg -c -j2, union of the 12", ["rg", "-c", "-j2", "--no-messages", *rg_args, tree]),
    ("rxw audit -j2, 12 columns, 6 rare", [rxw, "audit", tree, "-j2", *rxw_args, "--format", "json"]),
]
best = best_interleaved(runs, cmds)
print(f"== rare columns: best of {runs}, interleaved ({load()})")
floor_w, floor_c = best[cmds[0][0]]
union_w, union_c = best[cmds[1][0]]
for name, _ in cmds:
    w, c = best[name]
    print(f"   {name:<38} {w:6.3f} s wall {c:6.3f} s cpu   {w / floor_w:5.2f}x floor {w / union_w:5.2f}x union (wall)")
PY
