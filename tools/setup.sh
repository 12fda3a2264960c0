#!/usr/bin/env bash
# Installs what synthrisk needs on a Debian machine that has only cargo: R, the R
# packages from Debian, and (mode "all", the default) the tools of R CMD check
# --as-cran (LaTeX for the manual, tidy for its HTML, checkbashisms from devscripts for
# configure) and of the pkgdown site, and Spark for the database tests and the bench
# (tools/spark-cluster.sh install: about 460 MB, cached in
# ${XDG_CACHE_HOME:-~/.cache}/synthrisk). `tools/setup.sh runtime` installs only what
# the package, `make demo` and the vignettes need. Idempotent: does nothing when
# everything is there. Downloads happen here, from the shell, never from R: under R's
# LD_LIBRARY_PATH some python3 builds lose their ssl module and pip.
set -euo pipefail

# What installing the package, its demo and its vignettes need ("runtime"), and what
# the tests, the checks and the site need besides ("all", the default).
runtime=(r-base-core r-base-dev r-cran-cli r-cran-rlang r-cran-ggplot2 r-cran-classint r-cran-generics
  r-cran-vctrs r-cran-utf8 r-cran-withr r-cran-knitr r-cran-rmarkdown r-cran-data.table r-cran-tibble
  r-cran-dbi r-cran-dbplyr r-cran-dplyr r-cran-rsqlite r-cran-gower pandoc)
checks=(r-cran-testthat r-cran-roxygen2 r-cran-bench r-cran-vdiffr r-cran-bit64 r-cran-jsonlite r-cran-pkgdown
  r-cran-rpostgresql r-cran-xml2 postgresql r-cran-rmysql mariadb-server mariadb-plugin-spider
  r-cran-rjava openjdk-17-jre-headless python3-pip python3-venv
  qpdf time valgrind tidy devscripts texlive-latex-base texlive-latex-recommended texlive-fonts-recommended)
case "${1:-all}" in
  runtime) packages=("${runtime[@]}") ;;
  all) packages=("${runtime[@]}" "${checks[@]}") ;;
  *) echo "setup: unknown mode '$1' (runtime or all)" >&2; exit 2 ;;
esac

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
if [ "${1:-all}" = all ]; then
  # Spark's jars and launch scripts for the tests' cluster (a no-op once cached).
  bash "$(dirname "$0")/spark-cluster.sh" install >/dev/null
fi
