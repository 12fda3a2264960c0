# Argument checks. Each names the argument and the offending value.

# A value as R code, for error messages: strings quoted, numbers and logicals not,
# NULL as NULL, long vectors cut after six elements.
describe_value <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.function(x) || is.environment(x) || is.list(x) && !is.data.frame(x) && length(x) > 6) {
    return(cli::format_inline("{.obj_type_friendly {x}}"))
  }
  if (is.data.frame(x) || is.matrix(x) || is.list(x)) return(cli::format_inline("{.obj_type_friendly {x}}"))
  n <- length(x)
  if (n == 0) return(paste0(typeof(x), "(0)"))
  shown <- x[seq_len(min(n, 6))]
  parts <- if (is.character(shown)) {
    ifelse(is.na(shown), "NA", encodeString(shown, quote = "\""))
  } else if (is.factor(shown)) {
    ifelse(is.na(shown), "NA", encodeString(as.character(shown), quote = "\""))
  } else if (is.numeric(shown) || is.logical(shown) || is.complex(shown)) {
    vapply(shown, function(v) format(v, digits = 15), character(1))
  } else {
    return(cli::format_inline("{.obj_type_friendly {x}}"))
  }
  if (n > 6) parts <- c(parts, "...")
  if (n == 1) parts else paste0("c(", paste(parts, collapse = ", "), ")")
}

# Labels shown in messages (levels, names): at most six, then "...".
show_values <- function(x) {
  x <- as.character(x)
  if (length(x) > 6) c(x[1:6], "...") else x
}

# One of `choices`, with "did you mean" (rlang::arg_match0).
check_choice <- function(x, choices, arg, call) {
  if (!is.character(x) || length(x) != 1 || is.na(x)) {
    cli::cli_abort("{.arg {arg}} must be one of {.or {.val {choices}}}, not {.code {describe_value(x)}}.", call = call)
  }
  rlang::arg_match0(x, choices, arg_nm = arg, error_call = call)
}

# Several of `choices`, each checked as check_choice() does.
check_choices <- function(x, choices, arg, call) {
  if (!is.character(x) || length(x) == 0 || anyNA(x)) {
    cli::cli_abort("{.arg {arg}} must be one or more of {.or {.val {choices}}}, not {.code {describe_value(x)}}.",
                   call = call)
  }
  for (v in x) rlang::arg_match0(v, choices, arg_nm = arg, error_call = call)
  x
}

check_data_frame <- function(x, arg, call) {
  if (!is.data.frame(x)) {
    cli::cli_abort("{.arg {arg}} must be a data frame, not {.obj_type_friendly {x}}.", call = call)
  }
  if (ncol(x) == 0 || nrow(x) == 0) {
    cli::cli_abort("{.arg {arg}} must have rows and columns; it has {format_count(nrow(x))}{cli::qty(nrow(x))} row{?s} and {ncol(x)} column{?s}.",
                   call = call)
  }
  if (anyDuplicated(names(x))) abort_repeated_names(x, paste0("{.arg ", arg, "}"), call)
}

# A variable is one column: of two columns of one name, the analyses would read the
# first and leave the other out without saying so (callers test anyDuplicated(), once
# per dataset and call). `what` is cli text naming the dataset.
abort_repeated_names <- function(x, what, call) {
  names <- names(x)
  repeated <- unique(names[duplicated(names)])
  cli::cli_abort(c(paste0(what, " has more than one column named {.val {repeated}}."),
                   i = "Each variable must be one column; rename or drop the others."),
                 call = call)
}

# `data` (or `control`) of the disclosure functions: a data frame (records or counted
# cells) with rows and columns, or a database table (dbplyr) with columns.
check_dataset <- function(x, arg, call) {
  if (is_db_table(x)) {
    check_db_packages(call)
    check_db_connection(x, paste0("{.arg ", arg, "}"), call)
    if (length(dataset_names(x)) == 0) cli::cli_abort("{.arg {arg}} must have columns; the database table has none.", call = call)
    return(invisible())
  }
  if (!is.data.frame(x)) {
    cli::cli_abort(c("{.arg {arg}} must be a data frame or a database table, not {.obj_type_friendly {x}}.",
                     i = "Database tables are dbplyr tables, e.g. {.code dplyr::tbl(con, \"orig\")}; counted cells are {.fn cell_counts}."),
                   call = call)
  }
  check_data_frame(x, arg, call)
}

check_flag <- function(x, arg, call) {
  if (!is.logical(x) || length(x) != 1 || is.na(x)) {
    cli::cli_abort("{.arg {arg}} must be {.code TRUE} or {.code FALSE}, not {.code {describe_value(x)}}.", call = call)
  }
  x
}

# "of length 1" or "of length 1 or 4 (one per key)".
length_phrase <- function(n, what) {
  if (n == 1) "of length 1" else paste0("of length 1 or ", n, " (one per ", what, ")")
}

# A logical per element of `along` (length 1 is recycled).
check_flags_along <- function(x, along, arg, call, what = "key") {
  n <- length(along)
  if (!is.logical(x) || anyNA(x) || !(length(x) %in% c(1L, n))) {
    cli::cli_abort(c("{.arg {arg}} must be {.code TRUE}/{.code FALSE}, {length_phrase(n, what)}.",
                     x = "It is {.code {describe_value(x)}} (length {length(x)})."), call = call)
  }
  rep_len(x, n)
}

# Numbers of groups: 0 (no grouping) or a whole number >= 2, one per element of `along`.
check_ngroups <- function(x, n, arg, call, what = "key") {
  if (is.null(x)) {
    return(rep(0L, n))
  }
  if (!is.numeric(x) || anyNA(x) || !(length(x) %in% c(1L, n))) {
    cli::cli_abort(c("{.arg {arg}} must be numbers of groups, {length_phrase(n, what)}.",
                     x = "It is {.code {describe_value(x)}} (length {length(x)})."), call = call)
  }
  bad <- !is.finite(x) | x != round(x) | x < 0 | x == 1
  if (any(bad)) {
    cli::cli_abort(c("{.arg {arg}} must be 0 (no grouping) or a whole number of at least 2.",
                     x = "It has {.code {describe_value(x[bad])}}."), call = call)
  }
  rep_len(as.integer(x), n)
}

check_denom_lim <- function(x, call) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || !is.finite(x) || x < 1 || x != round(x) ||
        x > .Machine$integer.max) {
    cli::cli_abort("{.arg denom_lim} must be a positive whole number, not {.code {describe_value(x)}}.", call = call)
  }
  as.integer(x)
}

check_thresholds <- function(x, arg, call) {
  if (!is.numeric(x) || length(x) != 2 || anyNA(x)) {
    cli::cli_abort("{.arg {arg}} must be two numbers, not {.code {describe_value(x)}}.", call = call)
  }
  as.numeric(x)
}

check_digits <- function(x, call) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || x < 0 || x > 22) {
    cli::cli_abort("{.arg digits} must be a number from 0 to 22, not {.code {describe_value(x)}}.", call = call)
  }
  x
}

# Variables given as names or column numbers of `data` (a data frame or a database
# table), returned as names.
resolve_columns <- function(x, data, arg, call) {
  if (is.factor(x)) x <- as.character(x)
  # An empty selection is a mistake, never "no variables" (NULL is each argument's default).
  if (length(x) == 0 && !is.null(x)) {
    cli::cli_abort("{.arg {arg}} must name at least one variable of {.arg data}, not {.code {describe_value(x)}}.",
                   call = call)
  }
  columns <- dataset_names(data)
  if (is.numeric(x)) {
    bad <- is.na(x) | x < 1 | x > length(columns) | x != round(x)
    if (any(bad)) {
      cli::cli_abort(c("{.arg {arg}} has column numbers not in {.arg data}: {.code {describe_value(x[bad])}}.",
                       i = "{.arg data} has {length(columns)} column{?s}."), call = call)
    }
    return(columns[x])
  }
  if (!is.character(x) || anyNA(x)) {
    cli::cli_abort("{.arg {arg}} must be variable names or column numbers, not {.code {describe_value(x)}}.",
                   call = call)
  }
  bad <- setdiff(x, columns)
  if (length(bad) > 0) {
    cli::cli_abort(c("{.arg {arg}} names variables not in {.arg data}: {.val {show_values(bad)}}.",
                     did_you_mean(bad, columns)), call = call)
  }
  x
}

# "Did you mean" bullets for unknown names: the closest candidate of each, if close.
did_you_mean <- function(bad, candidates) {
  out <- character(0)
  for (b in bad) {
    if (length(candidates) == 0) break
    d <- utils::adist(b, candidates, ignore.case = TRUE)[1, ]
    best <- which.min(d)
    # Close means a slip: one edit in a name of up to 5 characters, one in three in a
    # longer one ("xx" is not "sex", "regoin" is "region").
    if (d[best] <= max(1, nchar(b) %/% 3)) {
      out <- c(out, i = cli::format_inline("Did you mean {.val {candidates[best]}} for {.val {b}}?"))
    }
  }
  out
}

# The names of a per-target vector or list must all be targets.
check_target_names <- function(x, targets, arg, call) {
  nm <- names(x)
  if (is.null(nm)) return(invisible(FALSE))
  if (any(is.na(nm) | !nzchar(nm))) {
    cli::cli_abort("{.arg {arg}} must name every element (by target) or none.", call = call)
  }
  bad <- setdiff(nm, targets)
  if (length(bad) > 0) {
    cli::cli_abort(c("{.arg {arg}} names {.val {show_values(bad)}}, not among the targets.",
                     did_you_mean(bad, targets),
                     i = "The targets are {.val {show_values(targets)}}."), call = call)
  }
  dup <- unique(nm[duplicated(nm)])
  if (length(dup) > 0) cli::cli_abort("{.arg {arg}} names {.val {dup}} more than once.", call = call)
  invisible(TRUE)
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

# A key or target must not be the count column of counted cells (cell_counts()).
check_not_counts <- function(vars, datasets, call) {
  for (x in datasets) {
    n <- count_column(x)
    if (!is.null(n) && n %in% vars) {
      cli::cli_abort(c("{.val {n}} is the count column of counted cells, not a variable; it cannot be a key or target.",
                       i = "Counted cells are made by {.fn cell_counts}; its {.arg n} names the count column."),
                     call = call)
    }
  }
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
    bad <- vars[!vars %in% dataset_names(syn[[j]])]
    if (length(bad) > 0) {
      bad <- unique(bad)
      which <- if (length(syn) > 1) paste("Synthesis", j) else "The synthetic data"
      cli::cli_abort("{which} must have every key and target; {.val {bad}} {?is/are} missing.", call = call)
    }
  }
}

# `control` (checked as `data` is by prepare_inputs()) must have every column the
# analysis reads: the one check, for the counting family (keys and targets, `what`),
# dcr() ("every variable compared") and the attacks, which name the argument of the
# first missing column (`columns`: the column arguments resolved, see
# search_columns()) or, for columns taken by default, say that the attack reads them.
check_control <- function(control, vars, call, what = "every key and target", columns = NULL) {
  if (is.null(control)) return(invisible())
  bad <- setdiff(vars, dataset_names(control))
  if (length(bad) == 0) return(invisible())
  if (is.null(columns)) {
    head <- "{.arg control} must have {what}; {.val {bad}} {?is/are} missing."
  } else {
    arg <- Find(function(a) any(bad %in% columns[[a]]), names(columns))
    if (is.null(arg)) {
      head <- "{.arg control} lacks {.val {bad}}, which the attack reads."
    } else {
      bad <- intersect(columns[[arg]], bad)
      head <- "{.arg control} lacks {.val {bad}} of {.arg {arg}}."
    }
  }
  cli::cli_abort(c(head, i = "{.arg control} holds original records that were not used for the synthesis, with the columns of {.arg data}."),
                 call = call)
}

# The tau grid of tau_curve(): at least one number, each within [0, 1]; the order and
# repeats are the user's.
check_tau <- function(x, call) {
  if (!is.numeric(x) || length(x) == 0 || anyNA(x) || !is.null(dim(x)) || any(!is.finite(x)) ||
        any(x < 0 | x > 1)) {
    cli::cli_abort(c("{.arg tau} must be one or more numbers from 0 to 1.",
                     x = "It is {.code {describe_value(x)}}."), call = call)
  }
  as.double(x)
}

# One positive whole number (reps of size_curve()).
check_count <- function(x, arg, call) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || !is.finite(x) || x < 1 || x != round(x) ||
        x > .Machine$integer.max) {
    cli::cli_abort("{.arg {arg}} must be a positive whole number, not {.code {describe_value(x)}}.", call = call)
  }
  as.integer(x)
}

# Subsample sizes of size_curve(): positive whole numbers.
check_sizes <- function(x, call) {
  if (!is.numeric(x) || length(x) == 0 || anyNA(x) || !is.null(dim(x)) || any(!is.finite(x)) || any(x < 1) ||
        any(x != round(x)) || any(x > .Machine$integer.max)) {
    cli::cli_abort(c("{.arg sizes} must be positive whole numbers of records.",
                     x = "It is {.code {describe_value(x)}}."), call = call)
  }
  as.integer(x)
}

# A seed for set.seed(): NULL or one whole number.
check_seed <- function(x, call) {
  if (is.null(x)) return(NULL)
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || !is.finite(x) || x != round(x) ||
        abs(x) > .Machine$integer.max) {
    cli::cli_abort("{.arg seed} must be {.code NULL} or a whole number, not {.code {describe_value(x)}}.", call = call)
  }
  as.integer(x)
}
