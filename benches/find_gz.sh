#!/usr/bin/env bash
# `rxw find --count` on a gzip-compressed log, against `zcat | rg -c` and `rg -z -c`, and on
# the same log uncompressed. Generates its own data (bench/gen_log.py) into target/bench/.
#
#   benches/find_gz.sh [BYTES] [SEED]      (default: 200 MB uncompressed, seed 1)
#
# The pattern matches at most once a line, so rg's count of matching lines and rxw's count of
# matches are the same number; the script checks they agree. Figures: best of 3 runs, whole
# process (wall seconds, CPU seconds, peak resident memory), and the throughput in MB/s of
# uncompressed text. Needs ripgrep (`rg`) and gzip on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
PATTERN='\[CLAIM [0-9a-f]+\]'
source benches/common.sh
bench_log find-gz "${1:-200000000}" "${2:-1}" --lifecycles
if [ ! -s "$LOG.gz" ] || [ "$LOG.gz" -ot "$LOG" ]; then
  gzip -c -6 "$LOG" > "$LOG.gz.tmp" && mv "$LOG.gz.tmp" "$LOG.gz"
fi
release_rxw
SIZE=$(wc -c < "$LOG")
echo "input: $LOG ($SIZE bytes; $(wc -c < "$LOG.gz") bytes gzip -6)"

# row TAG NAME COMMAND...: the command's best of three, with its throughput and its count.
row() {
  local tag=$1 name=$2 rate
  shift 2
  best_of3 "$tag" "$@"
  rate=$(echo "$SIZE / 1000000 / $BEST" | bc -l)
  printf "%-32s %8.2f %8.2f %8d MB %8.0f MB/s   count %s\n" "$name" "$BEST" "$BEST_CPU" "$((BEST_RSS / 1024))" "$rate" "$(tr -d '\n' < "target/bench/$tag.out")"
}

printf "%-32s %8s %8s %11s %13s\n" "" "wall s" "cpu s" "peak RSS" "throughput"
row rxw-gz "rxw find --count (.gz)" "$RXW" find --count --file "$LOG.gz" "$PATTERN"
row zcat-rg "zcat | rg -c" bash -c "zcat '$LOG.gz' | rg -c '$PATTERN'"
row rg-z "rg -z -c" rg -z -c "$PATTERN" "$LOG.gz"
row rxw-plain "rxw find --count (plain)" "$RXW" find --count --file "$LOG" "$PATTERN"
row rg-plain "rg -c (plain)" rg -c "$PATTERN" "$LOG"
counts=$(cat target/bench/rxw-gz.out target/bench/zcat-rg.out target/bench/rg-z.out target/bench/rxw-plain.out target/bench/rg-plain.out | sort -u | wc -l)
if [ "$counts" != 1 ]; then
  echo "counts differ" >&2
  exit 1
fi
echo "counts agree"
