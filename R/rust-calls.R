# Calls into the Rust core. The core returns a classed list instead of throwing, so a
# failure becomes an ordinary R error here, and a Ctrl-C that the core noticed between
# two chunks of work becomes an ordinary R interrupt (catchable with
# `tryCatch(interrupt = )`), with the session left usable.

rust_result <- function(result, call = rlang::caller_env()) {
  if (inherits(result, "synthrisk_rust_interrupt")) {
    rlang::interrupt()
  }
  if (inherits(result, "synthrisk_rust_error")) {
    cli::cli_abort(c("The synthrisk core could not compute the measures.", x = "{result$message}"), call = call)
  }
  result
}

# Encodes the variables; then, as R's `factor()` does, doubles that `as.character()`
# labels alike (15 significant digits, e.g. 0.1 + 0.2 and 0.3) become one level, the
# smallest value standing for it (SPEC 2.2). R's own `as.character()` decides, so the
# levels are exactly those of `factor()` under the session's options.
rust_encode_variables <- function(vars, n_threads) {
  res <- .Call(wrap__rust_encode_variables, vars, n_threads)
  if (inherits(res, "synthrisk_rust_error")) return(res)
  for (i in seq_along(res$info)) {
    values <- res$info[[i]]$numeric_levels
    if (is.null(values)) next
    labels <- as.character(values)
    first_of <- match(labels, labels)
    if (any(first_of != seq_along(first_of))) {
      info <- .Call(wrap__rust_merge_numeric_levels, res$ptr, i - 1L, first_of - 1L, is.integer(values), n_threads)
      if (inherits(info, "synthrisk_rust_error")) return(info)
      res$info[[i]] <- info
    }
  }
  res
}

rust_compute <- function(encoded, keys, use_keys_na, targets, n_threads) {
  .Call(wrap__rust_compute, encoded, keys, use_keys_na, targets, n_threads)
}

rust_measure_names <- function() {
  .Call(wrap__rust_measure_names)
}
