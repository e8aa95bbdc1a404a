#!/usr/bin/env bash
# Operator mode on a big log: `rxw jobs --json` and `rxw parse --jsonl | wc -l` (release), on a
# log with interleaved job lifecycles from benches/gen_log.py --lifecycles.
#
#   benches/jobs.sh [BYTES] [SEED]        (default: 1 GB, seed 1)
#   REF=1 benches/jobs.sh 100000000       also runs tests/jobs_ref.py (the Python reference) on
#                                       the same log, times it and checks both tables agree
#
# The log is generated into target/bench/ and reused when present. Figures: best of 3 runs,
# whole process; wall-clock and CPU seconds (user + system), peak resident memory (a mapped
# file's pages count there: `parse` maps the log, `jobs` streams it).
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/common.sh
bench_log lifecycles "${1:-1000000000}" "${2:-1}" --lifecycles
release_rxw
echo "input: $LOG ($(wc -c < "$LOG") bytes, $(wc -l < "$LOG") lines)"

# row TAG NAME COMMAND...: the command's best of three, as a row.
row() {
  local tag=$1 name=$2
  shift 2
  best_of3 "$tag" "$@"
  printf "%-34s %8.2f %8.2f %8d MB\n" "$name" "$BEST" "$BEST_CPU" "$((BEST_RSS / 1024))"
}

printf "%-34s %8s %8s %11s\n" "" "wall s" "cpu s" "peak RSS"
row jobs "rxw jobs --json" "$RXW" jobs --json "$LOG"
echo "  $(grep -c '' target/bench/jobs.out) jobs"
# The pipeline as a user runs it: rxw writes JSON Lines into a pipe that wc reads.
row parse "rxw parse --jsonl | wc -l" bash -c "'$RXW' parse --jsonl --file '$LOG' | wc -l"
echo "  $(cat target/bench/parse.out) hits"

if [ "${REF:-0}" = 1 ]; then
  /usr/bin/time -f "%e %U %S %M" -o target/bench/ref.time python3 tests/jobs_ref.py "$LOG" > target/bench/ref.json
  read -r wall user sys kb < target/bench/ref.time
  printf "%-34s %8.2f %8.2f %8d MB\n" "Python reference (tests/jobs_ref.py)" "$wall" "$(echo "$user + $sys" | bc -l)" "$((kb / 1024))"
  python3 - <<'PY'
import json, sys
ours = json.load(open("target/bench/jobs.out"))
# The reference reads one log and does not name it: compare without the events' `source`.
for row in ours:
    for event in row["events"]:
        event.pop("source", None)
ref = json.load(open("target/bench/ref.json"))
same = ours == ref
print(f"tables agree: {same} ({len(ours)} jobs)")
sys.exit(0 if same else 1)
PY
fi
