#!/usr/bin/env bash
# Instructions a small call executes inside each of the package's functions named, by
# valgrind's callgrind with collection on only while the function runs: per stage of
# the R side, the same count for the same build whatever the machine's load (see
# bench/instructions.sh for the whole call). Inclusive: a stage's count holds the
# functions it calls, the core's crossing included when it is inside, split by shared
# object (the package's, R's, other). One thread. Needs valgrind and its headers
# (valgrind/callgrind.h, for the toggle in bench/callgrind-toggle.c).
#
# With --statements, the instructions of each top-level statement of one stage
# (bench/stage-instructions-call.R with a statements file). With --ops, the instructions of a few common R
# operations on small values (bench/r-op-instructions.R): the cost model that turns a
# stage's count into a number of operations.
#
# Usage: bench/stage-instructions.sh <library> <stage>[,<stage>...] [calls]
#          (default calls: 5, counted after 3 uncounted; about 50 s per stage and workload)
#        bench/stage-instructions.sh <library> --statements <stage> [sd2011|adult] [calls]
#        bench/stage-instructions.sh --ops
#   Each writes a markdown table.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
r_home=$(R RHOME)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
command -v valgrind >/dev/null || { echo "stage-instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
cp "$here/callgrind-toggle.c" "$scratch/"
(cd "$scratch" && R CMD SHLIB -o callgrind-toggle.so callgrind-toggle.c >/dev/null)

if [ "${1:-}" = "--ops" ]; then
  SYNTHRISK_OP_NAMES="$scratch/names.txt" R_HOME=$r_home valgrind --tool=callgrind --collect-atstart=no \
    --callgrind-out-file="$scratch/ops.out" "$r_home/bin/exec/R" --no-echo --no-restore \
    --file="$here/r-op-instructions.R" --args "$scratch/callgrind-toggle.so" >/dev/null 2>&1
  echo "| operation | instructions |"
  echo "| --- | --- |"
  for dump in "$scratch"/ops.out.*; do
    label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$dump" | head -1)
    total=$(sed -n 's/^\(totals\|summary\): //p' "$dump" | head -1)
    echo "${label#op} $total"
  done | sort -n | awk 'NR == FNR { name[FNR] = $0; next } { printf "| %s | %.0f |\n", name[$1 + 0], $2 / 2000 }' \
    "$scratch/names.txt" -
  echo
  echo "Per repetition, 2,000 in a byte-compiled loop (the loop's own cost included). valgrind $(valgrind --version | sed 's/valgrind-//'), R $(R --version | sed -n '1s/R version \([^ ]*\).*/\1/p')."
  exit 0
fi

if [ "${2:-}" = "--statements" ]; then
  lib=$1 stage=$3 workload=${4:-sd2011} calls=${5:-3}
  R_HOME=$r_home valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$scratch/statements.out" \
    "$r_home/bin/exec/R" --no-echo --no-restore --file="$here/stage-instructions-call.R" \
    --args "$lib" "$workload" "$stage" "$calls" "$scratch/callgrind-toggle.so" "$scratch/statements.txt" >/dev/null 2>&1
  echo "| $workload: statement of $stage | instructions a call (millions) |"
  echo "| --- | --- |"
  for dump in "$scratch"/statements.out.*; do
    label=$(sed -n 's/^desc: Trigger: Client Request: statement//p' "$dump" | head -1)
    total=$(sed -n 's/^\(totals\|summary\): //p' "$dump" | head -1)
    [ -n "$label" ] && echo "$label $total"
  done | awk -v n="$calls" '{ sum[$1 + 0] += $2 } END { for (i in sum) printf "%d %.3f\n", i, sum[i] / n / 1e6 }' |
    sort -k2,2 -g -r | awk 'NR == FNR { text[FNR] = $0; next } {
      t = text[$1]; gsub(/\|/, "\\|", t); if (length(t) > 100) t = substr(t, 1, 97) "..."
      printf "| `` %s `` | %.3f |\n", t, $2 }' "$scratch/statements.txt" -
  echo
  echo "Calls counted: $calls, after 3 uncounted; 1 thread; each statement's count holds the functions it calls and its own zeroing and dump (about 4,400 instructions, measured on an empty statement)."
  exit 0
fi

lib=$1
IFS=, read -r -a stages <<< "$2"
calls=${3:-5}

. "$here/callgrind-by-object.sh"

echo "| workload | stage | instructions a call (millions) | synthrisk | R | other |"
echo "| --- | --- | --- | --- | --- | --- |"
for workload in sd2011 adult; do
  for stage in "${stages[@]}"; do
    out="$scratch/$workload-$stage.out"
    R_HOME=$r_home valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out" \
      "$r_home/bin/exec/R" --no-echo --no-restore --file="$here/stage-instructions-call.R" \
      --args "$lib" "$workload" "$stage" "$calls" "$scratch/callgrind-toggle.so" >/dev/null 2>&1
    by_object "$out" | awk -v w="$workload" -v s="$stage" -v n="$calls" '
      { sum[$1 == "C" ? "C library" : $1] = $NF; total += $NF }
      END { printf "| %s | %s | %.2f | %.2f | %.2f | %.2f |\n", w, s, total / n / 1e6, sum["synthrisk"] / n / 1e6,
              sum["R"] / n / 1e6, (total - sum["synthrisk"] - sum["R"]) / n / 1e6 }'
  done
done
echo
echo "Calls counted: $calls each, after 3 uncounted; 1 thread. valgrind $(valgrind --version | sed 's/valgrind-//'), R $(R --version | sed -n '1s/R version \([^ ]*\).*/\1/p')."
