# The walk of one call through the package: how many of synthrisk's R functions it
# passes (distinct, and calls in all), in how many files, and how many crossings to
# the Rust core (calls of rust_*()). Used for issue 38's before/after.
#
# Usage: R_LIBS=<library> Rscript tools/call-walk.R
suppressPackageStartupMessages(library(synthrisk))
ns <- asNamespace("synthrisk")
functions <- Filter(function(f) {
  x <- get(f, ns)
  is.function(x) && !is.primitive(x)
}, ls(ns, all.names = TRUE))
# Each function's file, from the sources (an installed package keeps no srcrefs).
source_dir <- Sys.getenv("SYNTHRISK_SOURCES", "R")
files <- character(0)
for (path in list.files(source_dir, pattern = "[.]R$", full.names = TRUE)) {
  for (e in as.list(parse(path, keep.source = FALSE))) {
    if (is.call(e) && as.character(e[[1]]) %in% c("<-", "=") && is.symbol(e[[2]])) {
      files[[as.character(e[[2]])]] <- basename(path)
    }
  }
}
seen <- new.env()
count_call <- function(name) assign(name, (if (exists(name, seen, inherits = FALSE)) get(name, seen) else 0L) + 1L, seen)
invisible(lapply(functions, function(f) {
  suppressMessages(trace(f, tracer = bquote(count_call(.(f))), where = ns, print = FALSE))
}))
walk <- function(label, run) {
  rm(list = ls(seen), envir = seen)
  run()
  counts <- unlist(mget(ls(seen), envir = seen))
  # rust_result() unpacks a crossing's answer; the other rust_*() are the crossings.
  rust <- setdiff(names(counts)[startsWith(names(counts), "rust_")], "rust_result")
  cat(sprintf("%s: %d functions, %d calls, %d files, %d crossings (%s)\n", label, length(counts), sum(counts),
              length(unique(stats::na.omit(files[names(counts)]))), sum(counts[rust]), paste(rust, collapse = ", ")))
}
keys <- c("sex", "age", "region", "placesize")
walk("multi.disclosure(sd2011_synds5, sd2011, keys, 3 targets)", function() {
  multi.disclosure(sd2011_synds5, sd2011, keys, targets = c("depress", "ls", "marital"), print.flag = FALSE, plot = FALSE)
})
parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
walk("inference_risk(sd2011_synds5, train, depress, control)", function() {
  inference_risk(sd2011_synds5, parts$train, secret = "depress", aux = keys, control = parts$control)
})
walk("dcr(adult_synds, adult)", function() dcr(adult_synds, adult))
