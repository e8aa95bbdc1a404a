#!/usr/bin/env bash
# Matcher benchmark: backtracking work on rxw's own matcher, side by side with CPython `re`
# (and, when OLD_RXW names an earlier rxw binary, with that one: the fancy-regex engine), plus
# the linear path against ripgrep and the step budget's stop time.
#
#   benches/matcher.sh [SIZE_BYTES]        (default 100000000)
#   OLD_RXW=path/to/old/rxw benches/matcher.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/common.sh
bench_log agent "${1:-100000000}" 7
release_rxw

RESULT='\[RESULT\s+(?P<job_id>[A-Za-z0-9_/-]+)\]\s*(?P<status>OK|FAIL|DECLINE|SUCCESS|ERROR)?\s*(?P<summary>.*?)(?=\[RESULT\s|\Z)'
REPEAT='(\w+)\s\1'
VERB='\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]'

best() { # best wall time of 3 runs, and the command's output
  local best=999999
  for _ in 1 2 3; do
    /usr/bin/time -f "%e" -o /tmp/rxw-bench-time "$@" > /tmp/rxw-bench-out 2>/dev/null || true
    best=$(python3 -c "print(min($best, $(tail -n 1 /tmp/rxw-bench-time)))")
  done
  printf '%8.2fs  result=%s' "$best" "$(head -c 60 /tmp/rxw-bench-out | tr -d '\n')"
}

PYCOUNT='import re,sys; t=open(sys.argv[3],encoding="utf-8").read(); print(sum(1 for _ in re.finditer(sys.argv[1], t, re.S if sys.argv[2]=="s" else 0)))'

printf '%-8s %-12s %s\n' pattern tool "time (best of 3) / count"
for name in result repeat; do
  if [ $name = result ]; then P=$RESULT; F=s; else P=$REPEAT; F=; fi
  printf '%-8s %-12s %s\n' $name rxw "$(best $RXW find --count --flavor python --flags "$F" "$P" --file "$LOG")"
  if [ -n "${OLD_RXW:-}" ]; then
    printf '%-8s %-12s %s\n' $name rxw-before "$(best "$OLD_RXW" find --count --flavor python --flags "$F" "$P" --file "$LOG")"
  fi
  printf '%-8s %-12s %s\n' $name cpython "$(best python3 -c "$PYCOUNT" "$P" "$F" "$LOG")"
done
printf '%-8s %-12s %s\n' verb rxw "$(best $RXW find --count --flavor python "$VERB" --file "$LOG")"
if command -v rg >/dev/null; then
  printf '%-8s %-12s %s\n' verb ripgrep "$(best rg --count-matches "$VERB" "$LOG")"
fi
# The step budget: (a+)+\1$ on 40 KB of `a` then `b` must stop fast with backtrack_limit.
python3 -c 'print("a"*40000 + "b")' > target/bench/budget.txt
printf '%-8s %-12s %s\n' budget rxw "$(best $RXW find --count --flavor js '(a+)+\1$' --file target/bench/budget.txt)"
