#!/usr/bin/env bash
# Benchmark: `rxw audit` against the grep-audit design's Python reference and `rg -l` run
# once per pattern, on a generated tree (default 10,000 files, ~100 MB) x 12 NetVM-like
# regexes. Prints wall time (best of RUNS) and peak memory (/usr/bin/time -v) side by side,
# and checks that the three tools agree cell by cell.
#
#   benches/audit.sh                      # FILES=10000 BYTES=100000000 RUNS=3
#   FILES=1000 BYTES=10000000 benches/audit.sh
#   KEEP=1 benches/audit.sh               # keep the generated tree (path printed)
#
# Needs python3 and /usr/bin/time; rg is optional (skipped when absent; install with
# `apt-get install -y ripgrep`).
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/common.sh

RUNS=${RUNS:-3}

command -v python3 >/dev/null || { echo "python3 is needed (the reference implementation and the generator)"; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is needed (apt-get install -y time)"; exit 2; }

bench_tree audit-bench 10000 100000000

echo "== building rxw (release)"
cargo build --release --quiet
RXW=${RXW:-target/release/rxw}

PY_ARGS=()
for i in "${!AUDIT_NAMES[@]}"; do
  PY_ARGS+=(-r "${AUDIT_NAMES[$i]}=${AUDIT_REGEXES[$i]}")
done

# The seed takes a list of file paths: give it the files in the order rxw lists them.
"$RXW" audit "$WORK/tree" -p x --format csv | tail -n +2 | cut -d, -f1 > "$WORK/list.txt"
echo "== $(wc -l < "$WORK/list.txt") files, $(du -sb "$WORK/tree" | cut -f1) bytes on disk"
cat "$WORK"/tree/*/* > /dev/null # warm the page cache for everyone

RESULTS=()
# measure NAME OUTPUT_FILE COMMAND...: best wall time of RUNS (with that run's CPU time,
# user + system), highest peak RSS. CPU time is the steadier figure on a busy machine.
measure() {
  local name=$1 out=$2 best="" cpu="" peak=0 wall rss c
  shift 2
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -v -o "$WORK/time.txt" "$@" > "$out" 2> "$WORK/stderr.txt" || true
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$WORK/time.txt")
    c=$(awk -F': ' '/User time|System time/ {s+=$2} END {print s}' "$WORK/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time.txt")
    if [[ -z "$best" ]] || awk -v a="$wall" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$wall; cpu=$c; fi
    (( rss > peak )) && peak=$rss
  done
  RESULTS+=("$name|$best|$cpu|$peak")
  printf '   %-34s %8.2f s wall %8.2f s cpu %8.1f MB\n' "$name" "$best" "$cpu" "$(awk -v k="$peak" 'BEGIN{print k/1024}')"
}

echo "== timing (best of $RUNS)"
measure "python reference (seed, re)" "$WORK/py.out" python3 benches/grep_audit_ref.py --output json --paths-from "$WORK/list.txt" "${PY_ARGS[@]}"
if command -v rg >/dev/null; then
  mkdir -p "$WORK/rg"
  export WORK
  measure "rg -l, once per pattern (x12)" "$WORK/rg.out" bash -c '
    dir=$1; shift; i=0
    for re in "$@"; do i=$((i+1)); rg -l --no-messages -e "$re" "$dir" > "$WORK/rg/$i" || true; done' _ "$WORK/tree" "${AUDIT_REGEXES[@]}"
else
  echo "   rg not installed: skipped (apt-get install -y ripgrep)"
fi
measure "rxw audit (rust flavor)" "$WORK/rxw.json" "$RXW" audit "$WORK/tree" "${AUDIT_ARGS[@]}" --format json
measure "rxw audit (python flavor)" "$WORK/rxw-py.json" "$RXW" audit "$WORK/tree" "${AUDIT_ARGS[@]}" --format json --flavor python
measure "rxw audit -j1 (one thread)" "$WORK/rxw-j1.json" "$RXW" audit "$WORK/tree" "${AUDIT_ARGS[@]}" --format json -j 1

echo "== agreement"
python3 - "$WORK" "${AUDIT_NAMES[@]}" <<'PY'
import json, os, sys
work, names = sys.argv[1], sys.argv[2:]
def rxw(path):
    doc = json.load(open(path, encoding="utf-8"))
    return {r["path"]: r["matches"] for r in doc["rows"]}
ours = rxw(os.path.join(work, "rxw.json"))
for other in ("rxw-py.json", "rxw-j1.json"):
    same = rxw(os.path.join(work, other)) == ours
    print(f"   rxw ({other}) == rxw (rust flavor): {'yes' if same else 'NO'}")
text = open(os.path.join(work, "py.out"), encoding="utf-8").read()
ref = json.loads(text[: text.rindex('\n{"usage"')])
diff = [(r["path"], n) for r in ref["rows"] for n in names if r["matches"][n] != ours[r["path"]][n]]
cells = len(ref["rows"]) * len(names)
print(f"   python reference vs rxw: {cells - len(diff)}/{cells} cells agree" + (f"; first differences: {diff[:5]}" if diff else ""))
rg = os.path.join(work, "rg")
if os.path.isdir(rg):
    bad = 0
    for i, n in enumerate(names, 1):
        listed = set(open(os.path.join(rg, str(i)), encoding="utf-8").read().split("\n")) - {""}
        mine = {p for p, m in ours.items() if m[n]}
        bad += len(listed ^ mine)
    print(f"   rg -l vs rxw: {'all columns agree' if bad == 0 else f'{bad} files differ'}")
hits = sum(v for m in ours.values() for v in m.values())
print(f"   ✅ cells: {hits} of {cells}")
PY

echo "== summary"
py=$(printf '%s\n' "${RESULTS[@]}" | awk -F'|' 'NR==1{print $2}')
pycpu=$(printf '%s\n' "${RESULTS[@]}" | awk -F'|' 'NR==1{print $3}')
printf '   %-34s %10s %10s %12s %12s %12s\n' tool "wall (s)" "cpu (s)" "peak RSS" "wall x" "cpu x"
for r in "${RESULTS[@]}"; do
  IFS='|' read -r name wall cpu rss <<< "$r"
  printf '   %-34s %10.2f %10.2f %9.1f MB %11.1fx %11.1fx\n' "$name" "$wall" "$cpu" "$(awk -v k="$rss" 'BEGIN{print k/1024}')" \
    "$(awk -v a="$py" -v b="$wall" 'BEGIN{print (b>0)?a/b:0}')" "$(awk -v a="$pycpu" -v b="$cpu" 'BEGIN{print (b>0)?a/b:0}')"
done
echo "   (x = speed-up over the python reference; $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg);"
echo "    largest file $(find "$WORK/tree" -type f -printf '%s\n' | sort -n | tail -1) bytes)"
