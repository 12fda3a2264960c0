#!/usr/bin/env bash
# Developer tool (not part of the package): renders the SD2011 release report with
# disclosure_report() and screenshots it with headless Chromium, to look at the page.
# Needs the package installed in .rlib (make install), pandoc, and chromium (on Debian:
# apt-get install chromium); without chromium it says so and exits 0.
# Usage: bash tools/screenshot-report.sh [out_dir]   (default demo-output)
set -euo pipefail
# SYNTHRISK_CHROMIUM names another browser binary.
out_dir="${1:-demo-output}"
browser=""
for b in ${SYNTHRISK_CHROMIUM:-chromium chromium-browser google-chrome}; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [ -z "$browser" ]; then
  echo "screenshot-report: skipped, it needs headless Chromium (apt-get install chromium)"
  exit 0
fi
mkdir -p "$out_dir"
html="$out_dir/sd2011_report.html"
R_LIBS="$(pwd)/.rlib" Rscript -e '
  suppressPackageStartupMessages(library(synthrisk))
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  disclosure_report(sd2011_train_synds5, parts$train, keys = c("sex", "age", "region", "placesize"),
                    control = parts$control, ngroups_targets = c(income = 20),
                    thresholds = list(repU = 1, DiSCO = 5),
                    title = "SD2011: disclosure risk of five syntheses", file = commandArgs(TRUE)[1])
' "$html"
png="$out_dir/sd2011_report.png"
# --no-sandbox: headless Chromium run as root (containers) refuses to start otherwise.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$png" \
  --window-size=1200,4000 "file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")" 2>/dev/null
echo "screenshot-report: wrote $png"
