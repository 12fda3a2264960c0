# Calls into Rust while an expression runs (test-run-request.R, test-key-sweep.R).

# The number of calls into the core while `expr` runs. Two calls that reach the glue
# only are counted apart: the one read of the columns' facts (rust_column_facts(),
# R/column-facts.R) that every preparation makes, and the making of the 2-way check's
# tables (rust_two_way_tables(), R/two-way-checks.R) from counts already made.
core_crossings <- function(expr) {
  crossings(expr)[["core"]]
}

# The reads of the columns' facts, the 2-way tables made and the calls into the core
# while `expr` runs.
crossings <- function(expr) {
  n <- 0L
  trace("crossed", as.call(list(function() n <<- n + 1L)), print = FALSE, where = asNamespace("synthrisk"))
  on.exit(untrace("crossed", where = asNamespace("synthrisk")))
  glue <- glue_calls(expr)
  c(glue, core = n - sum(glue))
}

# The number of reads of the columns' facts and of 2-way tables made while `expr` runs.
glue_calls <- function(expr) {
  n <- c(facts = 0L, tables = 0L)
  ns <- asNamespace("synthrisk")
  trace("rust_column_facts", as.call(list(function() n[["facts"]] <<- n[["facts"]] + 1L)), print = FALSE, where = ns)
  on.exit(untrace("rust_column_facts", where = ns))
  trace("rust_two_way_tables", as.call(list(function() n[["tables"]] <<- n[["tables"]] + 1L)), print = FALSE,
        where = ns)
  on.exit(untrace("rust_two_way_tables", where = ns), add = TRUE)
  force(expr)
  n
}

# The number of reads of the columns' facts while `expr` runs.
facts_reads <- function(expr) {
  glue_calls(expr)[["facts"]]
}
