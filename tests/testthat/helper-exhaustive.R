# make test runs every test (NOT_CRAN=true, as testthat sets for local runs). R CMD
# check on CRAN runs a couple of minutes of them: each random-case suite on its first
# cases, and the slowest whole-fixture comparisons, database servers and picture
# layouts skipped (skip_on_cran()).

exhaustive <- function() identical(Sys.getenv("NOT_CRAN"), "true")

# The seeds of a random-case suite: all `n` in make test, the first `cran` on CRAN.
random_cases <- function(n, cran = 20) seq_len(if (exhaustive()) n else min(n, cran))
