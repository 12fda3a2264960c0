# The split of a small call between the core and R: one multi.disclosure() of SD2011
# (m = 5, 4 keys, 5 targets) and of Adult (m = 1, 4 keys, 9 targets), each called 200
# times; the median wall time (Sys.time(), microseconds) of a call and of its
# crossings into the core (timed around every crossing, which crossed() marks). What
# is not in the crossings is R.
#
# Usage: Rscript bench/small-calls.R [library] [threads]  (defaults: the installed
# synthrisk, 2 threads). Writes one line per workload to standard output.
args <- commandArgs(trailingOnly = TRUE)
lib <- if (length(args) >= 1) args[1] else NULL
suppressPackageStartupMessages(library(synthrisk, lib.loc = lib))
options(synthrisk.n_threads = if (length(args) >= 2) as.integer(args[2]) else 2L)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "small-call-workloads.R"))
utils::assignInNamespace("crossed", timed_crossing, "synthrisk")
calls <- small_calls
for (label in names(calls)) {
  f <- calls[[label]]
  f()
  total <- crossing <- numeric(200)
  for (i in seq_len(200)) {
    in_core <- 0
    t0 <- as.numeric(Sys.time())
    f()
    total[i] <- as.numeric(Sys.time()) - t0
    crossing[i] <- in_core
  }
  cat(sprintf("%s: %.2f ms a call, %.2f ms of it in the core's crossings, %.2f ms in R\n", label,
              1000 * stats::median(total), 1000 * stats::median(crossing),
              1000 * (stats::median(total) - stats::median(crossing))))
}
