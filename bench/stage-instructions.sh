#!/usr/bin/env bash
# Instructions a small call executes inside each of the package's functions named, by
# valgrind's callgrind with collection on only while the function runs: per stage of
# the R side, the same count for the same build whatever the machine's load (see
# bench/instructions.sh for the whole call). Inclusive: a stage's count holds the
# functions it calls, the core's crossing included when it is inside, split by shared
# object (the package's, R's, ICU's, the C library's, other). One thread; no garbage
# collection (see counted() below). Needs valgrind and its headers (valgrind/callgrind.h,
# for the toggle in bench/callgrind-toggle.c).
#
# With --statements, the instructions of each top-level statement of one stage
# (bench/stage-instructions-call.R with a statements file). With --ops, the instructions
# of a few common R operations on small values (bench/r-op-instructions.R): the cost
# model that turns a stage's count into a number of operations.
#
# Usage: bench/stage-instructions.sh <library> <stage>[,<stage>...] [calls]
#          (calls default 5, counted after 3 uncounted; about 50 s per stage and
#          workload on a quiet machine, both workloads)
#        bench/stage-instructions.sh <library> --statements <stage> [workload] [calls]
#          (workload sd2011 or adult, default sd2011; calls default 3)
#        bench/stage-instructions.sh --ops
#   Each writes a markdown table; a run that fails prints R's last lines and exits 1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
r_home=$(R RHOME)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
command -v valgrind >/dev/null || { echo "stage-instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
cp "$here/callgrind-toggle.c" "$scratch/"
(cd "$scratch" && R CMD SHLIB -o callgrind-toggle.so callgrind-toggle.c >/dev/null)

# counted <callgrind file> <R script> <args...>: R under valgrind with collection off
# at the start; on failure, R's last lines and exit 1. R starts with a heap large enough
# that no garbage collection runs in a counted call: where one would start depends on
# everything allocated before (a stage's count grew by 1.7 million when the script kept
# one more object), so counts of stages leave it out (bench/instructions.sh counts it).
counted() {
  local out=$1 script=$2
  shift 2
  if ! R_HOME=$r_home valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out" \
      "$r_home/bin/exec/R" --no-echo --no-restore --min-nsize=20M --min-vsize=2G --file="$here/$script" \
      --args "$@" >"$scratch/log" 2>&1; then
    echo "stage-instructions.sh: $script $* failed:" >&2
    grep -v '^==' "$scratch/log" | tail -5 >&2
    exit 1
  fi
  if sed -n '/^stage-instructions: counted calls start/,$p' "$scratch/log" | grep -q "Garbage collection"; then
    echo "stage-instructions.sh: a garbage collection ran in a counted call of $script $*" >&2
    exit 1
  fi
}

# dumps <prefix>: "<label> <instructions>" for each dump callgrind wrote.
dumps() {
  for dump in "$1".*; do
    [ -e "$dump" ] || continue
    label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$dump" | head -1)
    total=$(sed -n 's/^\(totals\|summary\): //p' "$dump" | head -1)
    if [ -n "$label" ]; then echo "$label $total"; fi
  done
}

if [ "${1:-}" = "--ops" ]; then
  SYNTHRISK_OP_NAMES="$scratch/names.txt" counted "$scratch/ops.out" r-op-instructions.R "$scratch/callgrind-toggle.so"
  dumps "$scratch/ops.out" > "$scratch/dumps.txt"
  echo "| operation | instructions |"
  echo "| --- | --- |"
  grep '^op' "$scratch/dumps.txt" | sed 's/^op//' | sort -n |
    awk 'NR == FNR { name[FNR] = $0; next } { printf "| %s | %.0f |\n", name[$1 + 0], $2 / 2000 }' "$scratch/names.txt" -
  echo
  echo "Per repetition, 2,000 in a byte-compiled loop (the loop's own cost included). valgrind $(valgrind --version | sed 's/valgrind-//'), R $(R --version | sed -n '1s/R version \([^ ]*\).*/\1/p')."
  exit 0
fi

if [ "${2:-}" = "--statements" ]; then
  lib=$1 stage=$3 workload=${4:-sd2011} calls=${5:-3}
  counted "$scratch/statements.out" stage-instructions-call.R "$lib" "$workload" "$stage" "$calls" \
    "$scratch/callgrind-toggle.so" "$scratch/statements.txt"
  dumps "$scratch/statements.out" > "$scratch/all-dumps.txt"
  sed -n 's/^statement//p' "$scratch/all-dumps.txt" > "$scratch/dumps.txt"
  [ -s "$scratch/dumps.txt" ] || { echo "stage-instructions.sh: the $workload call never ran $stage" >&2; exit 1; }
  echo "| $workload: statement of $stage | instructions a call (millions) |"
  echo "| --- | --- |"
  awk -v n="$calls" '{ sum[$1 + 0] += $2 } END { for (i in sum) printf "%d %.3f\n", i, sum[i] / n / 1e6 }' "$scratch/dumps.txt" |
    sort -k2,2 -g -r | awk 'NR == FNR { text[FNR] = $0; next } {
      t = text[$1]; gsub(/\|/, "\\|", t); if (length(t) > 100) t = substr(t, 1, 97) "..."
      printf "| `` %s `` | %.3f |\n", t, $2 }' "$scratch/statements.txt" -
  echo
  empty=$(sed -n 's/^empty[0-9]* //p' "$scratch/all-dumps.txt" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  echo "Calls counted: $calls, after 3 uncounted; 1 thread; no garbage collection. Each statement's count holds the functions it calls and its own zeroing and dump: $empty instructions on an empty statement (median of 21)."
  exit 0
fi

lib=$1
IFS=, read -r -a stages <<< "$2"
calls=${3:-5}

. "$here/callgrind-by-object.sh"

echo "| workload | stage | instructions a call (millions) | synthrisk | R | ICU | C library | other |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for workload in sd2011 adult; do
  for stage in "${stages[@]}"; do
    out="$scratch/$workload-$stage.out"
    counted "$out" stage-instructions-call.R "$lib" "$workload" "$stage" "$calls" "$scratch/callgrind-toggle.so"
    by_object "$out" | awk -v w="$workload" -v s="$stage" -v n="$calls" '
      { sum[$1 == "C" ? "C library" : $1] = $NF; total += $NF }
      END {
        if (total == 0) { print "stage-instructions.sh: the " w " call never ran " s > "/dev/stderr"; exit 1 }
        printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", w, s, total / n / 1e6, sum["synthrisk"] / n / 1e6,
          sum["R"] / n / 1e6, sum["ICU"] / n / 1e6, sum["C library"] / n / 1e6, sum["other"] / n / 1e6 }'
  done
done
echo
echo "Calls counted: $calls each, after 3 uncounted; 1 thread; no garbage collection (R started with a large heap). valgrind $(valgrind --version | sed 's/valgrind-//'), R $(R --version | sed -n '1s/R version \([^ ]*\).*/\1/p')."
