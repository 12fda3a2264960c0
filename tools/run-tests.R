# Runs the testthat suite against the installed package and writes the totals line
# that .ci/run prints ("N passed, N failed").
library(testthat)
options(testthat.progress.max_fails = Inf)
Sys.setenv(NOT_CRAN = "true")
library(synthrisk)

# The long files that need no server run in a second R process beside the others (two
# cores): `Rscript tools/run-tests.R --beside <result.rds>` runs only them and saves
# their results, which the main run prints and adds to its totals. Chosen so that the
# two take about as long (by one clean clone's times per file in a slow phase of the
# machine, about 1,060 s and 1,010 s); the database files stay in the main process,
# where they mostly wait on their servers.
beside_files <- paste0("^(property|cell-counts|dcr|disclosure-report|identification-risk|singling-out-risk|plot|plot-curves|",
                       "print|holdout-reference|reference-inputs|reference-random|linkability-risk|tau-curve)$")
run_dir <- function(...) {
  as.data.frame(testthat::test_dir("tests/testthat", package = "synthrisk", load_package = "installed",
                                   reporter = ProgressReporter$new(show_praise = FALSE), stop_on_failure = FALSE, ...))
}
args <- commandArgs(trailingOnly = TRUE)
if (length(args) == 2 && args[1] == "--beside") {
  res <- run_dir(filter = beside_files)
  saveRDS(res, paste0(args[2], ".tmp"))
  file.rename(paste0(args[2], ".tmp"), args[2])
  quit(status = 0)
}
beside_result <- tempfile("synthrisk-beside-", fileext = ".rds")
beside_log <- tempfile("synthrisk-beside-", fileext = ".log")
system2(file.path(R.home("bin"), "Rscript"), c("tools/run-tests.R", "--beside", beside_result),
        stdout = beside_log, stderr = beside_log, wait = FALSE)
# The Spark cluster takes a minute or more to start: it starts now, in the background,
# and the Spark tests (helper-spark.R) wait for it; it is stopped when the run ends.
# Only when the Spark tests can run (helper-spark.R skips them otherwise; the packages
# are looked up, not loaded). The status file appears whole (written aside, then
# renamed), so a reader never sees it empty.
spark_script <- "tools/spark-cluster.sh"
spark_packages <- c("DBI", "dplyr", "dbplyr", "rJava", "jsonlite")
if (file.exists(spark_script) && nzchar(Sys.which("java")) &&
    all(nzchar(vapply(spark_packages, function(p) system.file(package = p), character(1))))) {
  spark_dir <- tempfile("synthrisk-spark-", tmpdir = "/tmp")
  system2("bash", c("-c", shQuote(sprintf("bash %s start %s > %s.log 2>&1; echo $? > %s.status.tmp; mv %s.status.tmp %s.status",
                                           spark_script, spark_dir, spark_dir, spark_dir, spark_dir, spark_dir))),
          wait = FALSE)
  Sys.setenv(SYNTHRISK_SPARK_STARTING = spark_dir)
  on_exit_stop_spark <- function() {
    # The start gives up within six minutes (tools/spark-cluster.sh); stopped either way.
    waited <- 0
    while (!file.exists(paste0(spark_dir, ".status")) && waited < 600) {
      Sys.sleep(0.5)
      waited <- waited + 0.5
    }
    system2("bash", c(spark_script, "stop", spark_dir), stdout = FALSE, stderr = FALSE)
    unlink(c(spark_dir, paste0(spark_dir, c(".log", ".status", ".status.tmp"))), recursive = TRUE)
  }
} else {
  on_exit_stop_spark <- function() invisible()
}
res <- tryCatch(run_dir(filter = beside_files, invert = TRUE), finally = on_exit_stop_spark())
# The files run beside: their progress, then their results (a missing result, after
# waiting at most half an hour, is a failure).
waited <- 0
while (!file.exists(beside_result) && waited < 1800) {
  Sys.sleep(1)
  waited <- waited + 1
}
cat("\nThe files run beside the others (", beside_files, "):\n", sep = "")
if (file.exists(beside_log)) cat(readLines(beside_log, warn = FALSE), sep = "\n")
beside <- if (file.exists(beside_result)) readRDS(beside_result)
if (is.null(beside)) {
  cat("The files run beside the others left no results.\n")
  beside <- data.frame(passed = 0L, failed = 1L, error = FALSE, skipped = 0L)
}
res <- rbind(res[c("passed", "failed", "error", "skipped")], beside[c("passed", "failed", "error", "skipped")])
passed <- sum(res$passed)
failed <- sum(res$failed) + sum(res$error)
skipped <- sum(res$skipped)
line <- sprintf("%d passed, %d failed, %d skipped", passed, failed, skipped)
writeLines(line, ".test-summary")
cat(line, "\n")
if (failed > 0) quit(status = 1)
