library(testthat)
library(synthrisk)

# As CRAN runs the tests (NOT_CRAN unset), the files below are left out so that the
# check stays within CRAN's time: reports, plots, SQLite, the key sweep and the long
# random comparisons with the plain-R references. `make test` runs every file in full
# (tools/run-tests.R, NOT_CRAN=true) beside its R CMD check --as-cran.
long_on_cran <- c("cell-counts", "database-sqlite", "dcr", "disclosure-report", "encode", "intervals",
                  "key-sweep", "key-sweep-report", "linkability-risk", "plot", "print", "reference-inputs",
                  "resynthesize", "singling-out-risk", "tau-curve")
if (identical(Sys.getenv("NOT_CRAN"), "true")) {
  test_check("synthrisk")
} else {
  test_check("synthrisk", filter = paste0("^(", paste(long_on_cran, collapse = "|"), ")$"), invert = TRUE)
}
