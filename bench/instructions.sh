#!/usr/bin/env bash
# Instructions a small call executes, counted by valgrind's callgrind: the same count for
# the same build, data and thread count however busy or slow the machine is, where wall
# times here swing by half from minute to minute. A call's count is the difference
# between a process making 7 calls and one making 2, over 5 (loading R and the package
# cancel out), split by shared object: the package's (its core and glue), R's, ICU's
# (the locale's text comparisons), the C library's. Counts are not times (a cache miss
# costs no instruction): a change that moves memory, not work, shows in bench/ab.R only.
#
# Usage: bench/instructions.sh <library> [<library> ...]  (each an install of synthrisk;
# threads: SYNTHRISK_BENCH_THREADS, default 1, where the count is the same every run).
# Writes a markdown table to standard output; takes about 2 minutes per library and workload.
set -euo pipefail
threads=${SYNTHRISK_BENCH_THREADS:-1}
here=$(cd "$(dirname "$0")" && pwd)
r_home=$(R RHOME)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }

. "$here/callgrind-by-object.sh"

run() {  # library workload calls -> callgrind file
  R_HOME=$r_home valgrind --tool=callgrind --callgrind-out-file="$scratch/$4.out" \
    "$r_home/bin/exec/R" --no-echo --no-restore --file="$here/instructions-call.R" --args "$1" "$2" "$3" "$threads" \
    >/dev/null 2>&1
  echo "$scratch/$4.out"
}

echo "| library | workload | instructions a call (millions) | synthrisk | R | ICU | C library | other |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for lib in "$@"; do
  for workload in sd2011 adult; do
    few=$(run "$lib" "$workload" 2 few)
    many=$(run "$lib" "$workload" 7 many)
    by_object "$few" > "$scratch/few.txt"
    by_object "$many" > "$scratch/many.txt"
    awk -v lib="$lib" -v workload="$workload" '
      NR == FNR { few[$0 ~ /^C library/ ? "C library" : $1] = $NF; next }
      { o = ($0 ~ /^C library/ ? "C library" : $1); per[o] = ($NF - few[o]) / 5; total += per[o] }
      END {
        printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", lib, workload, total / 1e6,
          per["synthrisk"] / 1e6, per["R"] / 1e6, per["ICU"] / 1e6, per["C library"] / 1e6, per["other"] / 1e6
      }' "$scratch/few.txt" "$scratch/many.txt"
  done
done
echo
echo "Threads: $threads. valgrind $(valgrind --version | sed 's/valgrind-//'), R $(R --version | sed -n '1s/R version \([^ ]*\).*/\1/p')."
