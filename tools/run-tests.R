# Runs the testthat suite against the installed package and writes the totals line
# that .ci/run prints ("N passed, N failed").
library(testthat)
options(testthat.progress.max_fails = Inf)
Sys.setenv(NOT_CRAN = "true")
library(synthrisk)
# The Spark cluster takes a minute or more to start: it starts now, in the background,
# and the Spark tests (helper-spark.R) wait for it; it is stopped when the run ends.
spark_script <- "tools/spark-cluster.sh"
if (file.exists(spark_script) && nzchar(Sys.which("java"))) {
  spark_dir <- tempfile("synthrisk-spark-", tmpdir = "/tmp")
  system2("bash", c("-c", shQuote(sprintf("bash %s start %s > %s.log 2>&1; echo $? > %s.status",
                                           spark_script, spark_dir, spark_dir, spark_dir))), wait = FALSE)
  Sys.setenv(SYNTHRISK_SPARK_STARTING = spark_dir)
  on_exit_stop_spark <- function() {
    while (!file.exists(paste0(spark_dir, ".status"))) Sys.sleep(0.5)
    system2("bash", c(spark_script, "stop", spark_dir), stdout = FALSE, stderr = FALSE)
    unlink(c(spark_dir, paste0(spark_dir, c(".log", ".status"))), recursive = TRUE)
  }
} else {
  on_exit_stop_spark <- function() invisible()
}
res <- tryCatch(as.data.frame(testthat::test_dir("tests/testthat", package = "synthrisk", load_package = "installed",
                                        reporter = ProgressReporter$new(show_praise = FALSE),
                                        stop_on_failure = FALSE)),
                finally = on_exit_stop_spark())
passed <- sum(res$passed)
failed <- sum(res$failed) + sum(res$error)
skipped <- sum(res$skipped)
line <- sprintf("%d passed, %d failed, %d skipped", passed, failed, skipped)
writeLines(line, ".test-summary")
cat(line, "\n")
if (failed > 0) quit(status = 1)
