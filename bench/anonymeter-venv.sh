#!/bin/sh
# A scratch Python environment with anonymeter 1.1 for the side-by-side benchmarks
# (bench/anonymeter.R). Never a dependency of synthrisk. Usage: sh bench/anonymeter-venv.sh [dir]
# Run from the shell (make bench does, before R starts), never from R: under R's
# LD_LIBRARY_PATH some python3 builds lose their ssl module, and pip cannot download.
set -e
dir=${1:-${ANONYMETER_VENV:-/tmp/synthrisk-anonymeter-venv}}
if [ ! -x "$dir/bin/python" ] || ! "$dir/bin/python" -c "import anonymeter" 2>/dev/null; then
  python3 -m venv "$dir"
  "$dir/bin/pip" install -q "anonymeter==1.1.*"
fi
echo "$dir/bin/python"
