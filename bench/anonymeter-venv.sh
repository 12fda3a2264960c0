#!/bin/sh
# A scratch Python environment with anonymeter 1.1 for the side-by-side benchmarks
# (bench/anonymeter.R). Never a dependency of synthrisk. Usage: sh bench/anonymeter-venv.sh [dir]
set -e
dir=${1:-${ANONYMETER_VENV:-/tmp/synthrisk-anonymeter-venv}}
if [ ! -x "$dir/bin/python" ] || ! "$dir/bin/python" -c "import anonymeter" 2>/dev/null; then
  python3 -m venv "$dir"
  "$dir/bin/pip" install -q "anonymeter==1.1.*"
fi
echo "$dir/bin/python"
