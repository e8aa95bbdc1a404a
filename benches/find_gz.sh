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
BYTES=${1:-200000000}
SEED=${2:-1}
PATTERN='\[CLAIM [0-9a-f]+\]'
LOG=target/bench/find-gz-$BYTES-$SEED.log
mkdir -p target/bench
if [ ! -s "$LOG" ]; then
  echo "generating $LOG ..."
  python3 bench/gen_log.py --bytes "$BYTES" --seed "$SEED" --lifecycles > "$LOG.tmp" && mv "$LOG.tmp" "$LOG"
fi
if [ ! -s "$LOG.gz" ] || [ "$LOG.gz" -ot "$LOG" ]; then
  gzip -c -6 "$LOG" > "$LOG.gz.tmp" && mv "$LOG.gz.tmp" "$LOG.gz"
fi
cargo build --release --quiet
RXW=target/release/rxw
SIZE=$(wc -c < "$LOG")
echo "input: $LOG ($SIZE bytes; $(wc -c < "$LOG.gz") bytes gzip -6)"

# best_of3 TAG NAME COMMAND...: three runs under /usr/bin/time; the best wall time, the best
# CPU time, and the peak RSS of the best run. The command's stdout goes to target/bench/TAG.out.
best_of3() {
  local tag=$1 name=$2; shift 2
  local best="" best_cpu="" rss=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S %M" -o "target/bench/$tag.time" "$@" > "target/bench/$tag.out"
    read -r wall user sys kb < "target/bench/$tag.time"
    cpu=$(echo "$user + $sys" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc -l)" = 1 ]; then best=$wall; rss=$kb; fi
    if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" = 1 ]; then best_cpu=$cpu; fi
  done
  local rate
  rate=$(echo "$SIZE / 1000000 / $best" | bc -l)
  printf "%-32s %8.2f %8.2f %8d MB %8.0f MB/s   count %s\n" "$name" "$best" "$best_cpu" "$((rss / 1024))" "$rate" "$(tr -d '\n' < "target/bench/$tag.out")"
}

printf "%-32s %8s %8s %11s %13s\n" "" "wall s" "cpu s" "peak RSS" "throughput"
best_of3 rxw-gz "rxw find --count (.gz)" "$RXW" find --count --file "$LOG.gz" "$PATTERN"
best_of3 zcat-rg "zcat | rg -c" bash -c "zcat '$LOG.gz' | rg -c '$PATTERN'"
best_of3 rg-z "rg -z -c" rg -z -c "$PATTERN" "$LOG.gz"
best_of3 rxw-plain "rxw find --count (plain)" "$RXW" find --count --file "$LOG" "$PATTERN"
best_of3 rg-plain "rg -c (plain)" rg -c "$PATTERN" "$LOG"
counts=$(cat target/bench/rxw-gz.out target/bench/zcat-rg.out target/bench/rg-z.out target/bench/rxw-plain.out target/bench/rg-plain.out | sort -u | wc -l)
if [ "$counts" != 1 ]; then
  echo "counts differ" >&2
  exit 1
fi
echo "counts agree"
