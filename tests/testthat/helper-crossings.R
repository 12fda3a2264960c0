# Calls into Rust while an expression runs (test-run-request.R, test-key-sweep.R).

# The number of calls into the core while `expr` runs. The one read of the columns'
# facts (rust_column_facts(), R/column-facts.R) that every preparation makes reaches
# the glue only and is counted apart (facts_reads()).
core_crossings <- function(expr) {
  crossings(expr)[["core"]]
}

# The reads of the columns' facts and the calls into the core while `expr` runs.
crossings <- function(expr) {
  n <- 0L
  trace("crossed", as.call(list(function() n <<- n + 1L)), print = FALSE, where = asNamespace("synthrisk"))
  on.exit(untrace("crossed", where = asNamespace("synthrisk")))
  reads <- facts_reads(expr)
  c(facts = reads, core = n - reads)
}

# The number of reads of the columns' facts while `expr` runs.
facts_reads <- function(expr) {
  n <- 0L
  trace("rust_column_facts", as.call(list(function() n <<- n + 1L)), print = FALSE,
        where = asNamespace("synthrisk"))
  on.exit(untrace("rust_column_facts", where = asNamespace("synthrisk")))
  force(expr)
  n
}
