#' Number of threads the Rust core uses
#'
#' `n_threads` arguments default to this: the option `synthrisk.n_threads` when set,
#' else 2 when `_R_CHECK_LIMIT_CORES_` is set (as under `R CMD check --as-cran`),
#' else all cores. Results do not depend on the number of threads.
#'
#' The threads are started on the first call that needs them and kept for the session.
#' A forked child (`parallel::mclapply()`, `parallel::mcparallel()`) does not inherit
#' them: its first call starts threads of its own, so every function works in a child
#' after the parent has used the package. Children each use `synthrisk_threads()`
#' threads; with many children, `options(synthrisk.n_threads = 1)` avoids running more
#' threads than cores.
#'
#' @return A positive integer.
#' @export
#' @examples
#' synthrisk_threads()
synthrisk_threads <- function() {
  opt <- getOption("synthrisk.n_threads")
  if (!is.null(opt)) {
    return(check_n_threads(opt, arg = "options(synthrisk.n_threads)"))
  }
  limit <- Sys.getenv("_R_CHECK_LIMIT_CORES_", "")
  if (nzchar(limit) && !identical(tolower(limit), "false")) {
    return(2L)
  }
  detected_cores()
}

# parallel::detectCores() starts a shell on Linux (several ms): ask once per session.
core_count <- new.env(parent = emptyenv())
detected_cores <- function() {
  if (is.null(core_count$n)) {
    n <- parallel::detectCores(logical = TRUE)
    core_count$n <- if (is.na(n) || n < 1) 1L else as.integer(n)
  }
  core_count$n
}

# The one place an `n_threads` argument is resolved: NULL is synthrisk_threads().
resolve_threads <- function(n_threads, call) {
  if (is.null(n_threads)) synthrisk_threads() else check_n_threads(n_threads, call = call)
}

check_n_threads <- function(n_threads, arg = "n_threads", call = rlang::caller_env()) {
  if (!is.numeric(n_threads) || length(n_threads) != 1 || is.na(n_threads) ||
        n_threads < 1 || n_threads != round(n_threads) || n_threads > 1024) {
    cli::cli_abort("{.arg {arg}} must be a whole number from 1 to 1024, not {.val {format(n_threads)}}.", call = call)
  }
  as.integer(n_threads)
}
