# Runs the testthat suite against the installed package and writes the totals line
# that .ci/run prints ("N passed, N failed").
library(testthat)
options(testthat.progress.max_fails = Inf)
Sys.setenv(NOT_CRAN = "true")
library(synthrisk)
res <- as.data.frame(testthat::test_dir("tests/testthat", package = "synthrisk", load_package = "installed",
                                        reporter = ProgressReporter$new(show_praise = FALSE),
                                        stop_on_failure = FALSE))
passed <- sum(res$passed)
failed <- sum(res$failed) + sum(res$error)
skipped <- sum(res$skipped)
line <- sprintf("%d passed, %d failed, %d skipped", passed, failed, skipped)
writeLines(line, ".test-summary")
cat(line, "\n")
if (failed > 0) quit(status = 1)
