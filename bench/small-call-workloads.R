# The two small calls that issue 38's limits name, shared by bench/small-calls.R,
# bench/crossing-ab.R, bench/definitions-ab.R and bench/instructions-call.R: one
# multi.disclosure() of SD2011 (m = 5, 4 keys, 5 targets) and one of Adult (m = 1, 4
# keys, 9 targets), named as the scripts print them; `small_call_ids` gives each its
# short name (instructions.sh's workloads); `crossing_of(f)` the arguments of the core's
# one crossing (`rust_encode_compute`) that a call `f` makes, captured as it makes them
# (for crossing-ab.R and phase-times.R); `timed_crossing()`, put in place of the
# package's `crossed()`, adds the time of each crossing to `in_core` (small-calls.R,
# namespace-ab.R).
small_calls <- list(
  "SD2011 (m = 5, 4 keys, 5 targets)" = function() {
    multi.disclosure(sd2011_synds5, sd2011, c("sex", "age", "region", "placesize"), print.flag = FALSE, plot = FALSE)
  },
  "Adult (m = 1, 4 keys, 9 targets)" = function() {
    multi.disclosure(adult_synds, adult, c("age", "sex", "occupation", "race"), print.flag = FALSE, plot = FALSE)
  })
small_call_ids <- c(sd2011 = 1L, adult = 2L)

crossing_of <- function(f) {
  captured <- NULL
  capture <- function(vars, n_threads, calls) {
    captured <<- list(vars = vars, calls = calls)
    stop("captured")
  }
  original <- get("rust_encode_compute", asNamespace("synthrisk"))
  utils::assignInNamespace("rust_encode_compute", capture, "synthrisk")
  on.exit(utils::assignInNamespace("rust_encode_compute", original, "synthrisk"))
  try(f(), silent = TRUE)
  captured
}

in_core <- 0
timed_crossing <- function(value) {
  t0 <- as.numeric(Sys.time())
  force(value)
  in_core <<- in_core + as.numeric(Sys.time()) - t0
  value
}
