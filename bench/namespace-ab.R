# A/B timing of R files in one R process, for changes that add, remove or rename
# functions (bench/definitions-ab.R swaps existing functions only): two copies of the
# installed package's namespace, A as installed and B with the given files sourced over
# it, every function byte-compiled in its own copy; the two small calls of
# bench/small-call-workloads.R made through A and through B in turn (which goes first
# alternating), each split into the core's crossing and R as bench/small-calls.R
# splits it. The objects (without their call) are compared first.
#
# Every function is compiled in its copy because R's just-in-time compiler otherwise
# makes whichever copy a call reaches second about 12 % slower in R, whatever it holds.
#
# Usage: Rscript bench/namespace-ab.R <library> <file,...> [calls]  (files as they are
# in a checkout, e.g. `git show <base>:R/x.R > old-x.R`; default 300 calls of each).
# Writes one line per workload: B / A of the whole call and of its R side.
args <- commandArgs(trailingOnly = TRUE)
lib <- args[1]
files <- strsplit(args[2], ",")[[1]]
n_calls <- if (length(args) >= 3) as.integer(args[3]) else 300L
suppressPackageStartupMessages(library(synthrisk, lib.loc = lib))
options(synthrisk.n_threads = 2L)
ns <- asNamespace("synthrisk")

namespace_copy <- function(files) {
  env <- new.env(parent = parent.env(ns))
  own <- function(f) {
    environment(f) <- env
    compiler::cmpfun(f)
  }
  for (name in ls(ns, all.names = TRUE)) {
    value <- get(name, ns)
    if (is.function(value) && identical(environment(value), ns)) value <- own(value)
    assign(name, value, envir = env)
  }
  for (file in files) {
    sourced <- new.env()
    sys.source(file, envir = sourced)
    for (name in ls(sourced, all.names = TRUE)) {
      value <- get(name, sourced)
      assign(name, if (is.function(value)) own(value) else value, envir = env)
    }
  }
  env
}
copies <- list(A = namespace_copy(character(0)), B = namespace_copy(files))
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "small-call-workloads.R"))
for (copy in copies) assign("crossed", timed_crossing, envir = copy)
without_call <- function(x) {
  x <- unclass(x)
  x$call <- NULL
  x
}
for (label in names(small_calls)) {
  calls <- lapply(copies, function(copy) {
    f <- small_calls[[label]]
    environment(f) <- copy
    f
  })
  same <- identical(without_call(calls$A()), without_call(calls$B()))
  whole <- r_side <- matrix(0, 2, n_calls, dimnames = list(c("A", "B"), NULL))
  for (i in seq_len(n_calls)) {
    for (which in if (i %% 2 == 1) c("A", "B") else c("B", "A")) {
      in_core <- 0
      t0 <- as.numeric(Sys.time())
      calls[[which]]()
      whole[which, i] <- as.numeric(Sys.time()) - t0
      r_side[which, i] <- whole[which, i] - in_core
    }
  }
  median_ms <- function(x) 1000 * stats::median(x)
  cat(sprintf(paste("%s: whole A %.2f ms, B %.2f ms, B / A %.3f; R side A %.2f ms, B %.2f ms, B / A %.3f",
                    "(paired median %.3f, q1 %.3f, q3 %.3f); %d calls each; objects %s\n"),
              label, median_ms(whole["A", ]), median_ms(whole["B", ]), stats::median(whole["B", ]) / stats::median(whole["A", ]),
              median_ms(r_side["A", ]), median_ms(r_side["B", ]), stats::median(r_side["B", ]) / stats::median(r_side["A", ]),
              stats::median(r_side["B", ] / r_side["A", ]), stats::quantile(r_side["B", ] / r_side["A", ], 0.25),
              stats::quantile(r_side["B", ] / r_side["A", ], 0.75), n_calls, if (same) "identical" else "DIFFERENT"))
}
