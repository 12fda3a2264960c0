# Argument checks. Each names the argument and the offending value.

show_values <- function(x) {
  x <- as.character(x)
  if (length(x) > 6) c(x[1:6], "...") else x
}

check_data_frame <- function(x, arg, call) {
  if (!is.data.frame(x)) {
    cli::cli_abort("{.arg {arg}} must be a data frame, not {.obj_type_friendly {x}}.", call = call)
  }
  if (ncol(x) == 0 || nrow(x) == 0) {
    cli::cli_abort("{.arg {arg}} must have rows and columns; it has {nrow(x)} row{?s} and {ncol(x)} column{?s}.",
                   call = call)
  }
}

check_flag <- function(x, arg, call) {
  if (!is.logical(x) || length(x) != 1 || is.na(x)) {
    cli::cli_abort("{.arg {arg}} must be {.code TRUE} or {.code FALSE}, not {.val {show_values(x)}}.", call = call)
  }
  x
}

# A logical per element of `along` (length 1 is recycled).
check_flags_along <- function(x, along, arg, call) {
  n <- length(along)
  if (!is.logical(x) || anyNA(x) || !(length(x) %in% c(1L, n))) {
    cli::cli_abort(c("{.arg {arg}} must be {.code TRUE}/{.code FALSE}, of length 1 or {n} (one per key).",
                     x = "It is {.val {show_values(x)}} (length {length(x)})."), call = call)
  }
  rep_len(x, n)
}

# Numbers of groups: 0 (no grouping) or a whole number >= 2, one per element of `along`.
check_ngroups <- function(x, n, arg, call) {
  if (is.null(x)) {
    return(rep(0L, n))
  }
  if (!is.numeric(x) || anyNA(x) || !(length(x) %in% c(1L, n))) {
    cli::cli_abort(c("{.arg {arg}} must be numbers of groups, of length 1 or {n}.",
                     x = "It is {.val {show_values(x)}} (length {length(x)})."), call = call)
  }
  bad <- x != round(x) | x < 0 | x == 1
  if (any(bad)) {
    cli::cli_abort(c("{.arg {arg}} must be 0 (no grouping) or a whole number of at least 2.",
                     x = "It has {.val {show_values(x[bad])}}."), call = call)
  }
  rep_len(as.integer(x), n)
}

check_denom_lim <- function(x, call) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || x < 1 || x != round(x)) {
    cli::cli_abort("{.arg denom_lim} must be a positive whole number, not {.val {show_values(x)}}.", call = call)
  }
  as.integer(x)
}

check_thresholds <- function(x, arg, call) {
  if (!is.numeric(x) || length(x) != 2 || anyNA(x)) {
    cli::cli_abort("{.arg {arg}} must be two numbers, not {.val {show_values(x)}}.", call = call)
  }
  as.numeric(x)
}

check_digits <- function(x, call) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || x < 0) {
    cli::cli_abort("{.arg digits} must be a non-negative number, not {.val {show_values(x)}}.", call = call)
  }
  x
}

# Variables given as names or column numbers of `data`, returned as names.
resolve_columns <- function(x, data, arg, call) {
  if (is.factor(x)) x <- as.character(x)
  if (is.numeric(x)) {
    bad <- is.na(x) | x < 1 | x > ncol(data) | x != round(x)
    if (any(bad)) {
      cli::cli_abort(c("{.arg {arg}} has column numbers not in {.arg data}: {.val {show_values(x[bad])}}.",
                       i = "{.arg data} has {ncol(data)} column{?s}."), call = call)
    }
    return(names(data)[x])
  }
  if (!is.character(x) || anyNA(x)) {
    cli::cli_abort("{.arg {arg}} must be variable names or column numbers, not {.obj_type_friendly {x}}.",
                   call = call)
  }
  bad <- setdiff(x, names(data))
  if (length(bad) > 0) {
    cli::cli_abort("{.arg {arg}} names variables not in {.arg data}: {.val {show_values(bad)}}.", call = call)
  }
  x
}

check_keys <- function(keys, data, call) {
  if (missing(keys) || is.null(keys) || length(keys) == 0) {
    cli::cli_abort("{.arg keys} must name at least one variable of {.arg data}.", call = call)
  }
  keys <- resolve_columns(keys, data, "keys", call)
  dup <- unique(keys[duplicated(keys)])
  if (length(dup) > 0) {
    cli::cli_abort("{.arg keys} must not repeat a variable; {.val {dup}} {?is/are} given more than once.", call = call)
  }
  keys
}

check_targets_vs_keys <- function(targets, keys, arg, call) {
  both <- intersect(targets, keys)
  if (length(both) > 0) {
    cli::cli_abort(c("{.arg {arg}} must not be among the {.arg keys}.",
                     x = "{.val {both}} {?is/are} both."), call = call)
  }
}

check_in_syntheses <- function(vars, syn, call) {
  for (j in seq_along(syn)) {
    bad <- setdiff(vars, names(syn[[j]]))
    if (length(bad) > 0) {
      which <- if (length(syn) > 1) paste("Synthesis", j) else "The synthetic data"
      cli::cli_abort("{which} must have every key and target; {.val {bad}} {?is/are} missing.", call = call)
    }
  }
}
