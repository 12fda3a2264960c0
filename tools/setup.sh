#!/usr/bin/env bash
# Installs what synthrisk needs on a Debian machine that has only cargo: R, the R
# packages from Debian, and the tools of R CMD check --as-cran (LaTeX for the manual,
# tidy for its HTML, checkbashisms from devscripts for configure) and of the pkgdown
# site. Idempotent: does nothing when everything is there.
set -euo pipefail

packages=(r-base-core r-base-dev r-cran-testthat r-cran-ggplot2 r-cran-cli r-cran-rlang
  r-cran-knitr r-cran-rmarkdown r-cran-roxygen2 r-cran-data.table r-cran-bench
  r-cran-vdiffr r-cran-classint r-cran-generics r-cran-vctrs r-cran-tibble r-cran-bit64 r-cran-jsonlite r-cran-pkgdown
  r-cran-dbi r-cran-dbplyr r-cran-dplyr r-cran-rsqlite r-cran-rpostgresql r-cran-withr r-cran-gower r-cran-utf8 r-cran-xml2 postgresql
  pandoc qpdf time tidy devscripts texlive-latex-base texlive-latex-recommended texlive-fonts-recommended)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v cargo >/dev/null || [ -x "$HOME/.cargo/bin/cargo" ] || {
  echo "setup: cargo is missing; install Rust (rustup) first" >&2
  exit 1
}
