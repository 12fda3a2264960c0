#!/usr/bin/env bash
# Installs synthpop (and the three packages it needs that Debian lacks: mipfp, cmm,
# broman) into a scratch library, for the tests and benchmarks that compare with it or
# use its syn() (resynthesize's default synthesizer). Never a dependency of synthrisk.
# CRAN is not reachable here: the sources come from the cran/* mirrors on GitHub, as
# git directories given on the command line (see the tool library's `fetch`).
#
# Usage: tools/install-synthpop.sh <library> <git dir of cran/cmm> <cran/mipfp> <cran/broman> <cran/synthpop>
set -euo pipefail
lib=$1; shift
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
  r-cran-party r-cran-polspline r-cran-randomforest r-cran-proto r-cran-plyr r-cran-ranger r-cran-rpart \
  r-cran-foreign r-cran-nnet r-cran-lattice r-cran-mass r-cran-rmutil r-cran-stringr r-cran-forcats \
  r-cran-survival r-cran-rsolnp r-cran-numderiv r-cran-classint r-cran-ggplot2 >/dev/null
mkdir -p "$lib"
scratch=$(mktemp -d)
for git_dir in "$@"; do
  name=$(git --git-dir="$git_dir" show HEAD:DESCRIPTION | sed -n 's/^Package: //p')
  mkdir -p "$scratch/$name"
  git --git-dir="$git_dir" archive HEAD | tar -x -C "$scratch/$name"
  R_LIBS="$lib" R CMD INSTALL --no-multiarch --library="$lib" "$scratch/$name" >/dev/null
  echo "install-synthpop: $name $(sed -n 's/^Version: //p' "$scratch/$name/DESCRIPTION") in $lib"
done
rm -rf "$scratch"
