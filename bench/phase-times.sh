#!/usr/bin/env bash
# Where the core's crossing of a small call spends its time, phase by phase, on 1 and on
# 2 threads (bench/phase-times.R): builds the package from its tracked files as they
# are in the working tree (new files must be added to git first) with the phase timer
# compiled in (`--cfg synthrisk_phase_times`, never set by the package's own build)
# into a scratch library, then times the crossing of SD2011's and Adult's small calls.
# Writes a heading and a markdown table of median microseconds to standard output;
# takes a few minutes to build and one to measure.
#
# Usage: bench/phase-times.sh [calls]  (from the package's top folder; default 300)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src" "$scratch/lib"
(cd "$top" && git ls-files -z | xargs -0 -I{} cp --parents {} "$scratch/src/")
# CARGO_ENCODED_RUSTFLAGS would override RUSTFLAGS, and the cfg with it.
unset CARGO_ENCODED_RUSTFLAGS
RUSTFLAGS="${RUSTFLAGS:-} --cfg synthrisk_phase_times" R CMD INSTALL --no-test-load --library="$scratch/lib" \
  "$scratch/src" > "$scratch/install.log" 2>&1 || { tail -20 "$scratch/install.log" >&2; exit 1; }
# One process per thread count (phase-times.R says why), their phases in one file.
for threads in 1 2; do
  Rscript "$here/phase-times.R" measure "$scratch/lib" "${1:-300}" "$threads" 2>> "$scratch/phases.txt" ||
    { grep -v '^synthrisk ' "$scratch/phases.txt" | tail -20 >&2; exit 1; }
done
Rscript "$here/phase-times.R" summarise "$scratch/phases.txt"
