# Calls into the Rust core. The core returns a classed list instead of throwing, so a
# failure becomes an ordinary R error here.

rust_result <- function(result, call = rlang::caller_env()) {
  if (inherits(result, "synthrisk_rust_error")) {
    cli::cli_abort(c("The synthrisk core could not compute the measures.", x = "{result$message}"), call = call)
  }
  result
}

rust_encode_variables <- function(vars, n_threads) {
  .Call(wrap__rust_encode_variables, vars, n_threads)
}

rust_compute <- function(encoded, keys, use_keys_na, targets, n_threads) {
  .Call(wrap__rust_compute, encoded, keys, use_keys_na, targets, n_threads)
}

rust_measure_names <- function() {
  .Call(wrap__rust_measure_names)
}
