# Calls into Rust while an expression runs (test-run-request.R, test-key-sweep.R).

# The number of calls into the core while `expr` runs. Calls that reach the glue only
# are counted apart: the one read of the columns' facts (rust_column_facts(),
# R/column-facts.R) that every preparation makes, and the result's shaping from counts
# already made: the 2-way check's tables (rust_two_way_tables(), R/two-way-checks.R)
# and each target's components (rust_disclosure_parts(), R/disclosure-result.R).
core_crossings <- function(expr) {
  crossings(expr)[["core"]]
}

# The reads of the columns' facts, the 2-way tables and components made, and the calls
# into the core while `expr` runs.
crossings <- function(expr) {
  n <- 0L
  trace("crossed", as.call(list(function() n <<- n + 1L)), print = FALSE, where = asNamespace("synthrisk"))
  on.exit(untrace("crossed", where = asNamespace("synthrisk")))
  glue <- glue_calls(expr)
  c(glue, core = n - sum(glue))
}

# The number of reads of the columns' facts, of 2-way tables and of components made
# while `expr` runs.
glue_calls <- function(expr) {
  counted <- c(facts = "rust_column_facts", tables = "rust_two_way_tables", parts = "rust_disclosure_parts")
  n <- stats::setNames(integer(length(counted)), names(counted))
  ns <- asNamespace("synthrisk")
  for (kind in names(counted)) {
    trace(counted[[kind]], as.call(list(rlang::inject(function() n[[!!kind]] <<- n[[!!kind]] + 1L))), print = FALSE,
          where = ns)
  }
  on.exit(for (f in counted) untrace(f, where = ns))
  force(expr)
  n
}

# The number of reads of the columns' facts while `expr` runs.
facts_reads <- function(expr) {
  glue_calls(expr)[["facts"]]
}
