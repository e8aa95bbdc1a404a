#!/usr/bin/env bash
# Per-file overhead of `rxw audit` against ripgrep: a generated tree (default 14,000 files,
# ~109 MB, bench/gen_tree.py) read by `rg -l` with one literal, and by `rxw audit` with the
# same literal and with the 12 NetVM-like regexes of bench/audit.sh. Best of RUNS, wall and
# CPU seconds; the ratios are to rg's wall time.
#
#   bench/audit_vs_rg.sh                 # FILES=14000 BYTES=109000000 RUNS=3
#   RXW=/path/to/rxw bench/audit_vs_rg.sh
#
# Needs rg (apt-get install -y ripgrep) and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=${FILES:-14000}
BYTES=${BYTES:-109000000}
RUNS=${RUNS:-3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rxw-audit-rg.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
command -v rg > /dev/null || { echo "rg is needed (apt-get install -y ripgrep)"; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is needed (apt-get install -y time)"; exit 2; }

python3 bench/gen_tree.py "$WORK/tree" --files "$FILES" --bytes "$BYTES" --seed 7
if [[ -z "${RXW:-}" ]]; then
  cargo build --release --quiet
  RXW=target/release/rxw
fi
echo "== $(find "$WORK/tree" -type f | wc -l) files, $(du -sb "$WORK/tree" | cut -f1) bytes"
cat "$WORK"/tree/*/* > /dev/null # warm the page cache

REGEXES=(
  'wo=/\[WO:[0-9a-f-]+\]/'
  'ack=/\[ACK:[0-9a-f]+\]/'
  'verb=/\[(?:ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+[A-Za-z0-9_/-]+\]/'
  'result=/\[RESULT\s+[A-Za-z0-9_/-]+\]/'
  'tool=/\[(?:TOOL|EXEC)\s+[a-zA-Z0-9_.-]+\s+\{.*?\}\]/'
  'job=/\[JOB [A-Za-z0-9_/-]+\]/'
  'nudge=/\[NUDGE [0-9a-f]+\]/'
  'fleet=/\[fleet-alert\]/'
  'uuid=/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/'
  'hex=/\b[0-9a-f]{6,12}\b/'
  'subagent=/\[SUBAGENT-UPDATE\]/'
  'swarm=/\[JOB swarm-[0-9a-z]+\/\d+\]/'
)
ARGS=()
for r in "${REGEXES[@]}"; do ARGS+=(-p "$r"); done

RG_WALL=""
measure() {
  local name=$1; shift
  local best="" cpu=""
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %U %S" -o "$WORK/t" "$@" > /dev/null 2>&1 || true
    read -r wall user sys < "$WORK/t"
    if [[ -z "$best" ]] || (( $(echo "$wall < $best" | bc -l) )); then
      best=$wall; cpu=$(echo "$user + $sys" | bc -l)
    fi
  done
  [[ -z "$RG_WALL" ]] && RG_WALL=$best
  printf '   %-40s %6.2f s wall %6.2f s cpu %6.2fx rg\n' "$name" "$best" "$cpu" "$(echo "$best / $RG_WALL" | bc -l)"
}
echo "== best of $RUNS (load average $(cut -d' ' -f1 /proc/loadavg), $(nproc) cores)"
measure "rg -l -F 'ACK:' (one literal)" rg -l --no-messages -F 'ACK:' "$WORK/tree"
measure "rxw audit -p 'ACK:' (one literal)" "$RXW" audit "$WORK/tree" -p 'ACK:' --format json
measure "rxw audit, 12 regexes" "$RXW" audit "$WORK/tree" "${ARGS[@]}" --format json
