# A/B timing of R definitions in one R process: the installed package's functions
# `functions` against their definitions in `old files` (e.g. `git show <base>:R/x.R`),
# swapped into the namespace in turn around each whole multi.disclosure() call of SD2011
# (m = 5, 4 keys, 5 targets) and of Adult (m = 1, 4 keys, 9 targets), alternating which
# goes first. The R side's analogue of bench/crossing-ab.R: calls a few milliseconds
# apart see the same machine, whose speed here drifts by half and more within minutes.
# The two objects (without their call) are compared first.
#
# Usage: Rscript bench/definitions-ab.R <library> <old file,...> <function,...> [calls]
# (default 300 calls of each). Writes one line per workload.
args <- commandArgs(trailingOnly = TRUE)
lib <- args[1]
old_files <- strsplit(args[2], ",")[[1]]
functions <- strsplit(args[3], ",")[[1]]
n_calls <- if (length(args) >= 4) as.integer(args[4]) else 300L
suppressPackageStartupMessages(library(synthrisk, lib.loc = lib))
options(synthrisk.n_threads = 2L)
ns <- asNamespace("synthrisk")
old <- new.env(parent = ns)
for (f in old_files) sys.source(f, old)
definitions <- list(
  new = mget(functions, ns),
  old = stats::setNames(lapply(functions, function(f) {
    g <- get(f, old)
    environment(g) <- ns
    g
  }), functions))
use <- function(which) {
  for (f in functions) {
    unlockBinding(f, ns)
    assign(f, definitions[[which]][[f]], ns)
    lockBinding(f, ns)
  }
}
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "small-call-workloads.R"))
calls <- small_calls
for (label in names(calls)) {
  f <- calls[[label]]
  objects <- lapply(c(old = "old", new = "new"), function(which) {
    use(which)
    x <- unclass(f())
    x$call <- NULL
    x
  })
  same <- identical(objects$old, objects$new)
  times <- matrix(0, 2, n_calls, dimnames = list(c("old", "new"), NULL))
  for (i in seq_len(n_calls)) {
    for (which in if (i %% 2 == 1) c("old", "new") else c("new", "old")) {
      use(which)
      t0 <- Sys.time()
      f()
      times[which, i] <- as.numeric(Sys.time()) - as.numeric(t0)
    }
  }
  use("new")
  ratio <- times["new", ] / times["old", ]
  cat(sprintf("%s: old %.2f ms, new %.2f ms (medians of %d calls); new / old %.3f (q1 %.3f, q3 %.3f); objects %s\n",
              label, 1000 * stats::median(times["old", ]), 1000 * stats::median(times["new", ]), n_calls,
              stats::median(ratio), stats::quantile(ratio, 0.25), stats::quantile(ratio, 0.75),
              if (same) "identical" else "DIFFER"))
}
