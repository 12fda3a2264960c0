# The least R code could take to build a small call's result: the object the call
# returns, rebuilt by a generated, byte-compiled function from its leaves (its vectors
# stripped of attributes, and its functions, environments and NULLs), with nothing
# computed: lists by list(), attributes set once per object by `attributes<-`. Beside
# it, unserialize() of the same object (what C code building it would take) and the
# whole call. Issue 38's R side is measured against this (bench/r-side-replay.R).
#
# Usage: Rscript bench/r-build-floor.R [library] [calls]  (defaults: the installed
# synthrisk, 500). Writes a markdown table to standard output.
args <- commandArgs(trailingOnly = TRUE)
lib <- if (length(args) >= 1 && nzchar(args[1])) args[1] else NULL
n_calls <- if (length(args) >= 2) as.integer(args[2]) else 500L
suppressPackageStartupMessages(library(synthrisk, lib.loc = lib))
options(synthrisk.n_threads = 2L)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "small-call-workloads.R"))

# A function of one argument (the leaves) whose body rebuilds `obj`.
rebuilder <- function(obj) {
  leaves <- list()
  leaf <- function(v) {
    leaves[length(leaves) + 1L] <<- list(v)
    sprintf("L[[%d]]", length(leaves))
  }
  objects <- 0L
  code_of <- function(x) {
    objects <<- objects + 1L
    if (is.null(x) || is.environment(x) || is.function(x) || is.language(x)) return(leaf(x))
    a <- attributes(x)
    if (is.list(x)) {
      body <- sprintf("list(%s)", paste(vapply(seq_along(x), function(i) code_of(.subset2(x, i)), ""), collapse = ", "))
    } else {
      attributes(x) <- NULL
      body <- leaf(x)
    }
    if (length(a) == 0) return(body)
    sprintf("`attributes<-`(%s, list(%s))", body,
            paste(sprintf("`%s` = %s", names(a), vapply(a, code_of, "")), collapse = ", "))
  }
  code <- code_of(obj)
  f <- compiler::cmpfun(eval(parse(text = sprintf("function(L) %s", code)), baseenv()))
  list(f = f, leaves = leaves, objects = objects)
}

median_ms <- function(times) sprintf("%.3f", 1000 * stats::median(times))
timed <- function(n, expr) {
  f <- function() NULL
  body(f) <- substitute(expr)
  environment(f) <- parent.frame()
  vapply(seq_len(n), function(i) {
    t0 <- Sys.time()
    f()
    as.numeric(Sys.time()) - as.numeric(t0)
  }, numeric(1))
}

cat(sprintf("Load average at the start: %s.\n\n", paste(readLines("/proc/loadavg", warn = FALSE), collapse = "")))
cat("| workload | R objects in the result | rebuilt in R, nothing computed (ms) | unserialize() (ms) | whole call (ms) |\n")
cat("| --- | --- | --- | --- | --- |\n")
for (label in names(small_calls)) {
  call <- small_calls[[label]]
  result <- call()
  r <- rebuilder(result)
  rebuilt <- r$f(r$leaves)
  # The rebuilt object must be the call's, or the floor is of another object.
  if (!identical(rebuilt, result)) stop("the rebuilt result of ", label, " differs from the call's")
  bytes <- serialize(result, NULL)
  for (i in 1:20) r$f(r$leaves)
  rebuild <- timed(n_calls, r$f(r$leaves))
  unser <- timed(n_calls, unserialize(bytes))
  whole <- timed(max(50L, n_calls %/% 5L), call())
  cat(sprintf("| %s | %d | %s | %s | %s |\n", label, r$objects, median_ms(rebuild), median_ms(unser), median_ms(whole)))
}
