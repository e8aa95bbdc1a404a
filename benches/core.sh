#!/usr/bin/env bash
# Core benchmark: `rxw find --count` against ripgrep and CPython `re.finditer`, side by side,
# on a generated 100 MB NetVM agent log, for the registry's `verb` pattern and a UUID v4
# pattern. Reports wall time (best of 3) and peak RSS.
#
#   benches/core.sh [SIZE_BYTES]        (default 100000000)
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/common.sh
bench_log agent "${1:-100000000}" 7
release_rxw

VERB='\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]'
UUID='[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'

best() { # best wall time of 3 runs and the peak RSS, for a command
  local best=999999 rss=0
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o /tmp/rxw-bench-time "$@" > /tmp/rxw-bench-out 2>/dev/null || true
    read -r t m < /tmp/rxw-bench-time
    best=$(python3 -c "print(min($best, $t))"); rss=$m
  done
  printf '%8.2fs %8d KB  count=%s' "$best" "$rss" "$(tr -d '\n' < /tmp/rxw-bench-out)"
}

printf '%-8s %-10s %s\n' pattern tool "time / peak RSS / result"
for name in verb uuid; do
  if [ $name = verb ]; then P=$VERB; else P=$UUID; fi
  printf '%-8s %-10s %s\n' $name rxw "$(best $RXW find --count --flavor python "$P" --file "$LOG")"
  if command -v rg >/dev/null; then
    printf '%-8s %-10s %s\n' $name ripgrep "$(best rg --count-matches "$P" "$LOG")"
  else
    printf '%-8s %-10s %s\n' $name ripgrep "(not installed: apt-get install ripgrep)"
  fi
  printf '%-8s %-10s %s\n' $name cpython "$(best python3 -c 'import re,sys; t=open(sys.argv[2],encoding="utf-8").read(); print(sum(1 for _ in re.finditer(sys.argv[1], t)))' "$P" "$LOG")"
done
