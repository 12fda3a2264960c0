# Runs the testthat suite against the installed package and writes the totals line
# that .ci/run prints ("N passed, N failed").
library(testthat)
options(testthat.progress.max_fails = Inf)
Sys.setenv(NOT_CRAN = "true")
library(synthrisk)
# The Spark cluster takes a minute or more to start: it starts now, in the background,
# and the Spark tests (helper-spark.R) wait for it; it is stopped when the run ends.
# Only when the Spark tests can run (helper-spark.R skips them otherwise; the packages
# are looked up, not loaded). The status
# file appears whole (written aside, then renamed), so a reader never sees it empty.
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
