# A/B timing of the core's crossing of two builds in one R process: the shared objects
# of `base` and `head` (two installed libraries) are both loaded, and the crossing of
# one multi.disclosure() (encoding and counting, `rust_encode_compute`) of SD2011
# (m = 5, 4 keys, 5 targets) and of Adult (m = 1, 4 keys, 9 targets) is called on each
# in turn, alternating which goes first. This machine's speed drifts by up to half
# from second to second (a virtual machine's neighbours), more than most changes to
# the core; calls a few milliseconds apart see the same machine, so the median of the
# paired ratios (head / base) shows what separate processes (bench/ab.R) cannot. The
# raw results of the two builds are compared first: they must be identical.
#
# The request is made by `head`'s R code; a base whose crossing reads another request
# refuses it (the script then says so).
#
# Usage: Rscript bench/crossing-ab.R <base library> <head library> [calls] [threads]
# (defaults: 600 calls of each build, 2 threads). Writes one line per workload.
args <- commandArgs(trailingOnly = TRUE)
libs <- c(base = args[1], head = args[2])
n_calls <- if (length(args) >= 3) as.integer(args[3]) else 600L
n_threads <- if (length(args) >= 4) as.integer(args[4]) else 2L
suppressPackageStartupMessages(library(synthrisk, lib.loc = libs[["head"]]))
options(synthrisk.n_threads = n_threads)

# The arguments of the one crossing of a call: crossing_of() (small-call-workloads.R).
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "small-call-workloads.R"))
calls <- small_calls

# Each build's entry point, from a copy of its shared object (one path loads once).
entry_points <- lapply(names(libs), function(build) {
  so <- file.path(libs[[build]], "synthrisk", "libs", "synthrisk.so")
  copy <- file.path(tempdir(), paste0("crossing_", build, ".so"))
  file.copy(so, copy, overwrite = TRUE)
  getNativeSymbolInfo("wrap__rust_encode_compute", PACKAGE = dyn.load(copy, local = TRUE, now = TRUE))
})
names(entry_points) <- names(libs)

# The raw counts, without the encoding's external pointer (one per build and call).
raw_counts <- function(res) {
  drop_pointers <- function(x) if (is.list(x)) lapply(x, drop_pointers) else if (typeof(x) == "externalptr") NULL else x
  drop_pointers(res$raw)
}
for (label in names(calls)) {
  crossing <- crossing_of(calls[[label]])
  cross <- function(build) .Call(entry_points[[build]], crossing$vars, list(n_threads = n_threads, calls = crossing$calls))
  results <- lapply(names(libs), function(build) tryCatch(cross(build), error = function(e) e))
  refused <- vapply(results, inherits, logical(1), "error")
  if (any(refused)) {
    cat(sprintf("%s: %s refused head's request (%s)\n", label, names(libs)[refused][1],
                conditionMessage(results[refused][[1]])))
    next
  }
  same <- identical(raw_counts(results[[1]]), raw_counts(results[[2]]))
  times <- matrix(0, 2, n_calls, dimnames = list(names(libs), NULL))
  for (i in seq_len(n_calls)) {
    for (build in if (i %% 2 == 1) names(libs) else rev(names(libs))) {
      t0 <- Sys.time()
      cross(build)
      times[build, i] <- as.numeric(Sys.time()) - as.numeric(t0)
    }
  }
  ratio <- times["head", ] / times["base", ]
  cat(sprintf("%s: base %.2f ms, head %.2f ms (medians of %d calls, %d threads); head / base %.3f (q1 %.3f, q3 %.3f); raw counts %s\n",
              label, 1000 * stats::median(times["base", ]), 1000 * stats::median(times["head", ]), n_calls, n_threads,
              stats::median(ratio), stats::quantile(ratio, 0.25), stats::quantile(ratio, 0.75),
              if (same) "identical" else "DIFFER"))
}
