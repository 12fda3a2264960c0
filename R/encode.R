# Variables (keys and targets) checked, made comparable, grouped where asked, and
# handed to the Rust core, which codes them on the union of their levels: the one
# encoding of every analysis. In two halves: prepare_variables() does all that R does
# before the core (the specs of the core's encoding and the labels known so far),
# encode_prepared() crosses to the core, with the counts to make in the same crossing
# when the caller has them (R/run-request.R decides), and reads back what R needs.
#
# encode_variables() (both halves) returns a list:
# * `ptr`, `vars`, `info`: the core's encoding handle, the variable names, and the
#   core's information per variable;
# * `labels`: each variable's level labels in code order, "Missing" included;
# * `adjusted`: variables made factors to compare the original and synthetic data;
# * `grouping`: one element per numeric variable for which grouping was asked (see
#   grouping_record(): variable, ngroups, grouped, style, breaks, labels, n_levels,
#   reason);
# * `label_gaps`: per variable whose labels barely meet between the original and a
#   synthesis, what label_gap() found;
# * `one_sided`: per variable, whether it has levels on one side only (from the core).
# * `control`: with holdout records (`control`, encoded as the last dataset, m + 1),
#   per grouped variable how many of them lay beyond the outer breaks (see
#   control_grouping()); otherwise NULL.
# * `weights`: per dataset (original, syntheses, control), NULL or the records each row
#   stands for (counted cells, see cell_counts()); `records`: per dataset, its records.
# * `raw`: the raw counts of the `calls` given to encode_prepared(), NULL when none
#   were given or look-alike doubles had to be merged first (the caller then counts
#   on the merged encoding).

encode_variables <- function(vars, data, syn, cont.na, ngroups, strict, n_threads, call, control = NULL) {
  cont.na <- normalise_cont_na(cont.na, call)
  encode_prepared(prepare_variables(vars, data, syn, cont.na, ngroups, strict, call, control), n_threads, call)
}

# What R does before the core: per variable the core's spec, with what is known of
# the encoding before it (`before`: list(vars, labels (NULL for numeric variables not
# yet labelled), weights)). `cont.na` is normalised (normalise_cont_na()): by
# prepare_inputs() for a request, by encode_variables() otherwise, so not twice a call.
prepare_variables <- function(vars, data, syn, cont.na, ngroups, strict, call, control = NULL) {
  n_control <- if (is.null(control)) 0L else 1L
  datasets <- c(list(data), syn, if (n_control > 0) list(control))
  facts <- column_facts(vars, datasets, call)
  check_variable_columns(vars, data, syn, call, control, facts)
  weights <- lapply(seq_along(datasets), function(j) {
    dataset_weights(datasets[[j]], dataset_where(j - 1L, length(syn)), call)
  })
  records <- facts$n_rows
  for (j in which(lengths(weights) > 0L)) records[j] <- sum(as.double(weights[[j]]))
  control_grouping <- list()
  specs <- vector("list", length(vars))
  factor_levels <- vector("list", length(vars))
  adjusted <- character(0)
  grouping <- list()
  for (i in seq_along(vars)) {
    v <- vars[[i]]
    if (ngroups[[v]] > 0) check_integer64_grouping(v, datasets, length(syn), n_control > 0, call)
    # Factors on every side, or plain numbers on every side: as given.
    as_given <- facts$fast[[i]]
    if (as_given) {
      cols <- facts$columns[[i]]
    } else {
      comparable <- comparable_columns(v, data, syn, strict, call, control)
      cols <- comparable$cols
      if (comparable$adjusted) adjusted <- c(adjusted, v)
    }
    if (ngroups[[v]] > 0) {
      if (is.factor(cols[[1]])) {
        # Grouping asked for a variable that is not numeric on every side: said, not done.
        grouping[[v]] <- grouping_record(v, ngroups[[v]], FALSE, reason = not_groupable_reason(v, data, syn))
      } else {
        grouped <- group_numeric(v, cols, ngroups[[v]], cont_na_codes(cont.na, v), call, n_control, weights)
        grouping[[v]] <- grouped$record
        if (n_control > 0 && !is.null(grouped$control)) control_grouping[[v]] <- grouped$control
        if (!is.null(grouped$cols)) {
          cols <- grouped$cols
          as_given <- FALSE
        }
      }
    }
    if (if (as_given) facts$kind[1L, i] == 1L else is.factor(cols[[1]])) {
      # The columns as given (not grouped or labelled), with the same plain levels on
      # every side: those levels are the union's.
      specs[[i]] <- factor_spec(cols, n_control, v, call, plain_levels = as_given && facts$plain_levels[[i]])
      factor_levels[[i]] <- specs[[i]]$labels
      specs[[i]]$labels <- NULL
    } else {
      # Plain numbers as given: their kinds are known.
      all_integer <- if (as_given) all(facts$kind[, i] == 2L) else all(vapply(cols, is.integer, logical(1)))
      if (!all_integer && n_control > 0) {
        # Whole-number control values do not make integer data double (their labels
        # would change, e.g. 1e+05 for 100000).
        cols[[length(cols)]] <- whole_as_integer(cols[[length(cols)]])
        all_integer <- all(vapply(cols, is.integer, logical(1)))
      }
      if (!all_integer) cols <- lapply(cols, as.double)
      specs[[i]] <- list(kind = if (all_integer) "integer" else "double", columns = cols, remaps = NULL,
                         n_levels = 0L, missing_code = 0L)
    }
  }
  list(vars = vars, specs = specs, factor_levels = factor_levels, adjusted = adjusted, grouping = grouping,
       control_grouping = control_grouping, n_control = n_control, m = length(syn), weights = weights,
       records = records, before = list(vars = vars, labels = stats::setNames(factor_levels, vars), weights = weights))
}

# The crossing to the core of prepare_variables()'s result, with the counts of `calls`
# (each list(keys, use_keys_na, targets, plan), as rust_compute() takes them) made in
# the same crossing when given; then what R reads of the encoding.
encode_prepared <- function(prepared, n_threads, call, calls = NULL) {
  vars <- prepared$vars
  specs <- prepared$specs
  factor_levels <- prepared$factor_levels
  grouping <- prepared$grouping
  weights <- prepared$weights
  records <- prepared$records
  n_control <- prepared$n_control
  res <- rust_result(if (is.null(calls)) rust_encode_variables(specs, n_threads) else rust_encode_compute(specs, n_threads, calls),
                     call = call)
  info <- stats::setNames(res$info, vars)
  labels <- lapply(seq_along(vars), function(i) {
    numeric_levels <- info[[i]]$numeric_levels
    if (is.null(numeric_levels)) factor_levels[[i]] else c(numeric_level_labels(numeric_levels, info[[i]]$level_labels), "Missing")
  })
  names(labels) <- vars
  for (v in names(grouping)) {
    if (!grouping[[v]]$grouped) {
      grouping[[v]]$labels <- setdiff(labels[[v]], "Missing")
      grouping[[v]]$n_levels <- length(grouping[[v]]$labels)
    }
  }
  gaps <- label_gaps(res$ptr, vars, labels, info, weights, prepared$m, call)
  # Distinct values of the original for numeric variables with more levels (all sides
  # together) than half its records: counted only for those.
  for (i in seq_along(vars)) {
    if (length(info[[i]]$numeric_levels) <= records[1] / 2) {
      # The core counts them for more levels than half the rows; records decide.
      info[[i]]$original_distinct <- NULL
    } else if (is.null(info[[i]]$original_distinct)) {
      # Counted with the encoding unless look-alike levels were merged since.
      counts <- rust_result(rust_level_counts(res$ptr, i - 1L, lapply(weights, function(w) {
        if (is.null(w)) NULL else as.double(w)
      })), call = call)[[1]]
      info[[i]]$original_distinct <- sum(counts[-(info[[i]]$missing_code + 1L)] > 0)
    }
  }
  one_sided <- vapply(info, function(x) isTRUE(x$one_sided), logical(1))
  if (n_control > 0) {
    # The core compares every dataset with the original; control is no synthesis.
    one_sided <- vapply(seq_along(vars), function(i) {
      if (is.null(info[[i]]$numeric_levels)) one_sided[[i]] else one_sided_without_control(specs[[i]]$columns)
    }, logical(1))
  }
  # Of those, the ones whose tables synthpop 1.9-3 misaligns (its numbers differ).
  # The core counts each side's levels of such variables with the encoding
  # (info$level_counts); after look-alike levels were merged it counts them again.
  misaligned <- logical(length(vars))
  candidates <- which(one_sided)
  if (!is.null(prepared$targets)) candidates <- candidates[vars[candidates] %in% prepared$targets]
  weighted <- !all(vapply(weights, is.null, logical(1)))
  misaligned[candidates] <- vapply(candidates, function(i) {
    if (is.null(info[[i]]$numeric_levels)) return(FALSE)
    counts <- info[[i]]$level_counts
    if (weighted || length(counts) < prepared$m + 1L || length(counts[[1]]) != length(labels[[i]])) {
      counts <- rust_result(rust_level_counts(res$ptr, i - 1L, lapply(weights, function(w) {
        if (is.null(w)) NULL else as.double(w)
      })), call = call)
    } else {
      # synthpop_misaligns() needs a synthesis whose levels lie within the original's
      # while not covering them, or cover them while not within them; the core's
      # overlap of the levels (counted beside `counts`) says whether one does.
      overlap <- info[[i]]$level_overlap
      s <- seq_len(prepared$m)
      if (!is.null(overlap) && !any(overlap$within_original[s] != overlap$covers_original[s])) return(FALSE)
    }
    level <- -(info[[i]]$missing_code + 1L)
    synthpop_misaligns(lapply(counts[seq_len(prepared$m + 1L)], function(x) x[level] > 0),
                       labels[[i]][level])
  }, logical(1))
  list(ptr = res$ptr, vars = vars, labels = labels, info = info, adjusted = prepared$adjusted, grouping = grouping,
       label_gaps = gaps, one_sided = stats::setNames(one_sided, vars),
       synthpop_misaligned = stats::setNames(misaligned, vars),
       control = if (n_control > 0) prepared$control_grouping, weights = weights, records = records, raw = res$raw)
}

# An integer copy of `x` when its values are whole numbers within integer range.
whole_as_integer <- function(x) {
  # NaN is a value of its own, which an integer cannot hold (it would become NA).
  if (!is.double(x) || any(is.nan(x))) return(x)
  finite <- x[!is.na(x)]
  if (all(is.finite(finite)) && all(finite == round(finite)) && all(abs(finite) <= .Machine$integer.max)) {
    return(as.integer(x))
  }
  x
}

# Whether a numeric variable has a level in the original or a synthesis only, by label
# (as factor() labels numbers), leaving out the last column (the holdout records).
one_sided_without_control <- function(columns) {
  level_set <- function(x) {
    x <- unique(x)
    sort(unique(as.character(x[!is.na(x) | is.nan(x)])))
  }
  sets <- lapply(columns[-length(columns)], level_set)
  any(vapply(sets[-1], function(s) !identical(s, sets[[1]]), logical(1)))
}

# Whether synthpop 1.9-3 compares rows of different levels for an ungrouped numeric
# target (definitions vignette, section 9.8): each side's table has its levels in
# numeric order, but a side lacking some of the pair's levels gets them added and its
# rows sorted as text. Rows meet when both sides have every level of the pair, when
# both lack some (both sorted as text), or when text order is numeric order.
# `present`: per dataset (the original, then each synthesis), which levels it has;
# `labels`: the levels' labels, in numeric order.
synthpop_misaligns <- function(present, labels) {
  original <- present[[1]]
  for (synthetic in present[-1]) {
    pair <- original | synthetic
    if (all(original[pair]) != all(synthetic[pair]) && text_unsorted(labels[pair])) return(TRUE)
  }
  FALSE
}

# Whether `x` is out of the locale's text order. Comparing text by the locale is slow,
# and numbers' labels are mostly out of order within their first few ("10" before
# "9"): those are looked at first, the rest only when they are in order.
text_unsorted <- function(x) {
  n <- length(x)
  first <- min(n, 16L)
  is.unsorted(x[seq_len(first)]) || (n > first && is.unsorted(x[first:n]))
}

# The core's description of a factor variable: its columns, each side's map from
# level to union code, and the union's labels. NA, an NA level and a level "Missing"
# are all the missing level (definitions vignette, section 2.3).
factor_spec <- function(cols, n_control = 0L, var = "", call = rlang::caller_env(), plain_levels = FALSE) {
  # `plain_levels` (column_facts() found every side's levels the same R strings, all
  # ASCII or NA, without attributes): clean_labels() and enc2utf8() leave them as they
  # are, so they are the union's as given.
  if (plain_levels) {
    side_levels <- rep(list(attr(cols[[1]], "levels", exact = TRUE)), length(cols))
    lev <- unique(side_levels[[1]])
    same_levels <- TRUE
  } else {
    # The levels attribute, as levels() gives it for a factor, without its dispatch.
    raw_levels <- lapply(cols, attr, "levels", exact = TRUE)
    # Every side with the same levels (as synthpop's syntheses mostly have): cleaned,
    # united and mapped once (what clean_side_levels(), union_levels() and the shared
    # maps below give then). unique() finds them in one call; levels it tells apart
    # that are one text in two encodings take the general path, which gives the same.
    same_levels <- length(unique(raw_levels)) == 1L
    if (same_levels) {
      side_levels <- rep(list(clean_labels(raw_levels[[1]], var, call)), length(cols))
      lev <- unique(enc2utf8(side_levels[[1]]))
    } else {
      side_levels <- clean_side_levels(raw_levels, var, call)
      lev <- union_levels(side_levels, n_control)
    }
  }
  lev <- lev[!is.na(lev)]
  missing_at <- match("Missing", lev)
  if (is.na(missing_at)) {
    lev <- c(lev, "Missing")
    missing_at <- length(lev)
  }
  remap <- function(x) {
    r <- match(x, lev) - 1L
    r[is.na(x)] <- missing_at - 1L
    r
  }
  # The sides mostly share their levels: a side with the levels of the one before
  # shares its map.
  if (same_levels) {
    return(list(kind = "factor", columns = cols, remaps = rep(list(remap(side_levels[[1]])), length(cols)),
                n_levels = length(lev), missing_code = missing_at - 1L, labels = lev))
  }
  remaps <- side_levels
  for (i in seq_along(cols)) {
    shared <- i > 1 && identical(side_levels[[i]], side_levels[[i - 1]])
    remaps[[i]] <- if (shared) remaps[[i - 1]] else remap(side_levels[[i]])
  }
  list(kind = "factor", columns = cols, remaps = remaps, n_levels = length(lev), missing_code = missing_at - 1L,
       labels = lev)
}

# Each side's levels as clean_labels() makes them; sides with the levels of the side
# before share its cleaned copy.
clean_side_levels <- function(side_levels, var, call) {
  out <- side_levels
  for (i in seq_along(side_levels)) {
    shared <- i > 1 && identical(side_levels[[i]], side_levels[[i - 1]])
    out[[i]] <- if (shared) out[[i - 1]] else clean_labels(side_levels[[i]], var, call)
  }
  out
}

# Labels of the core's numeric levels: as factor() labels numbers, i.e. as.character().
#
# `written`: the labels the glue wrote for the levels that are written as integers
# (integer levels, and whole doubles within R's integers that are not multiples of
# 1e5), NA for the others; used unless a negative scipen asks for e-notation.
numeric_level_labels <- function(values, written = NULL) {
  if (is.character(values)) return(values)
  if (!is.null(written) && (is.integer(values) || isTRUE(getOption("scipen", 0) >= 0))) {
    left <- is.na(written)
    if (any(left)) written[left] <- as.character(values[left])
    return(written)
  }
  labels <- character(length(values))
  # R writes integers many times faster than doubles. A whole number within integer
  # range reads the same either way unless e-notation is shorter, which needs at least
  # five trailing zeros (n digits against m + 1 + 4 for m significant digits, "." and
  # "e+XX"), or a negative scipen asks for it; those are written as doubles.
  if (is.double(values) && isTRUE(getOption("scipen", 0) >= 0)) {
    as_integer <- is.finite(values) & abs(values) <= .Machine$integer.max
    within <- values[as_integer]
    as_integer[as_integer] <- within == trunc(within) & within %% 1e5 != 0
  } else {
    as_integer <- is.integer(values) & !is.na(values)
  }
  labels[as_integer] <- as.character(as.integer(values[as_integer]))
  labels[!as_integer] <- as.character(values[!as_integer])
  labels
}
