# Grouping a numeric variable into intervals (definitions vignette, section 2.1): breaks from the pooled
# usable values of the original and all syntheses; cont.na codes and the non-finite
# values Inf, -Inf and NaN are levels of their own after the intervals; NA stays NA.

# Labels of the non-finite values, in the order their levels follow the intervals.
nonfinite_labels <- c("-Inf", "Inf", "NaN")

# Breaks of `style` ("quantile" or "equal") for `n` groups, as classInt makes them; with
# n at least the number of distinct values classInt makes one class per value.
# `counts`: NULL when `values` are the values of records; else `values` are sorted
# distinct values and `counts` the records holding each (counted cells), and the
# breaks are those of the values repeated that often (counted_breaks()).
group_breaks <- function(values, n, style, var, call, counts = NULL) {
  brks <- tryCatch(
    if (is.null(counts)) {
      suppressWarnings(classInt::classIntervals(values, n = n, style = style)$brks)
    } else {
      counted_breaks(values, counts, n, style)
    },
    error = function(e) {
      cli::cli_abort(c("Could not find {style} breaks to group {.val {var}} into {n} groups.",
                       x = conditionMessage(e)), call = call)
    }
  )
  brks <- unique(brks)
  if (any(!is.finite(brks))) {
    cli::cli_abort(c("Could not group {.val {var}}: its values span a range too wide for finite breaks.",
                     i = "Its usable values run from {min(values)} to {max(values)}."), call = call)
  }
  brks
}

# Why a variable that is not numeric on every side is not grouped. Dates and times
# are refused rather than grouped by their day or second counts: quantile breaks
# between days would need labels that are no dates.
not_groupable_reason <- function(var, data, syn) {
  kinds <- unique(vapply(c(list(data), syn), function(d) column_kind(plain_column(.subset2(d, var))), character(1)))
  named <- c(factor = "a factor", character = "text", logical = "logical", Date = "a Date",
             POSIXct = "a date-time (POSIXct)", difftime = "a time difference")
  kind <- if (length(kinds) == 1) named[kinds] %|NA|% paste("of class", kinds) else
    paste0("of different kinds (", paste(kinds, collapse = ", "), ")")
  advice <- if (any(kinds %in% c("Date", "POSIXct", "difftime"))) {
    "; to group dates, pass them as numbers (e.g. as.numeric() of the Date, the day count)"
  } else {
    ""
  }
  paste0("it is ", kind, ", and only numeric variables are grouped", advice)
}

# The reason of a factor (notes.R names such variables together).
factor_reason <- "it is a factor, and only numeric variables are grouped"

`%|NA|%` <- function(x, y) if (is.na(x)) y else unname(x)

# Grouping cuts numbers held as doubles; an integer64 column (`datasets`: the original,
# the syntheses, then `control` when `with_control`) with values beyond 2^53 would be
# rounded first, and its groups would not be those of its values: an error naming it.
check_integer64_grouping <- function(var, datasets, m, with_control, call) {
  for (j in seq_along(datasets)) {
    x <- .subset2(datasets[[j]], var)
    if (!inherits(x, "integer64") || !requireNamespace("bit64", quietly = TRUE)) next
    beyond <- which(integer64_beyond_double(x))
    if (length(beyond) == 0) next
    where <- if (with_control && j == length(datasets)) "{.arg control}" else dataset_name(j - 1L, m)
    example <- as.character(x[beyond[1]])
    values <- paste0(format_count(length(beyond)), if (length(beyond) == 1) " value" else " values")
    cli::cli_abort(c(paste0("Variable {.val {var}} in ", where, " cannot be grouped: it is integer64 with ",
                            values, " beyond 2^53 (e.g. ", example, "), which a double cannot hold exactly."),
                     i = "Grouping cuts doubles, so these values would be rounded first. Count the variable ungrouped (its values stay exact), or group it in the query (e.g. with {.fn dplyr::mutate})."),
                   call = call)
  }
}

# What grouping did to one variable, as returned by encode_variables()$grouping.
grouping_record <- function(var, n, grouped, style = NA_character_, breaks = numeric(0), labels = character(0),
                            reason = NA_character_) {
  list(variable = var, ngroups = as.integer(n), grouped = grouped, style = style, breaks = breaks,
       labels = labels, n_levels = length(labels), reason = reason)
}

# `cols`: numeric columns (original first); the last `n_control` of them are holdout
# records (`control`), which are cut with the breaks of the others and never move them.
# Returns `cols` (factors with the same levels, or NULL when the variable is left
# ungrouped), `record` (see grouping_record()) and `control` (see control_grouping()).
# `weights`: per column NULL (one record a row) or the records each row stands for
# (counted cells): the breaks are then those of the records.
group_numeric <- function(var, cols, n, codes, call, n_control = 0L, weights = NULL) {
  is_usable <- function(x) is.finite(x) & is.na(match(x, codes))
  usable <- function(x) x[is_usable(x)]
  main <- seq_len(length(cols) - n_control)
  counted <- !all(vapply(weights[main], is.null, logical(1)))
  if (counted) {
    pooled_counts <- pooled_value_counts(cols[main], weights[main], is_usable)
    pooled <- pooled_counts$values
    distinct <- pooled
  } else {
    pooled <- unlist(lapply(cols[main], usable), use.names = FALSE)
    distinct <- unique(pooled)
  }
  if (length(distinct) < 2) {
    reason <- if (length(distinct) == 0) "no usable values (only NA, non-finite values or cont.na codes)"
              else "fewer than two distinct usable values"
    return(list(cols = NULL, record = grouping_record(var, n, FALSE, reason = reason)))
  }
  # Levels after the intervals: each distinct code label, then the non-finite values
  # that occur and are not codes; those met only in `control` come last, so that the
  # codes of the original and synthetic levels do not depend on `control`.
  code_labels <- unique(as.character(codes))
  code_level <- match(as.character(codes), code_labels)
  nonfinite_values <- c(-Inf, Inf, NaN)
  seen_in <- function(which) vapply(nonfinite_values, function(v) {
    !(v %in% codes) && any(vapply(cols[which], function(x) v %in% x, logical(1)))
  }, logical(1))
  seen <- seen_in(main)
  seen_control <- seen_in(setdiff(seq_along(cols), main)) & !seen
  special_labels <- c(code_labels, nonfinite_labels[seen])

  style <- "quantile"
  counts <- if (counted) pooled_counts$counts
  brks <- group_breaks(pooled, n, style, var, call, counts)
  if (length(brks) - 1 + length(special_labels) < 3) {
    style <- "equal"
    brks <- group_breaks(pooled, n, style, var, call, counts)
  }
  interval_levels <- levels(cut(pooled[1], brks, right = FALSE, include.lowest = TRUE, dig.lab = 8))
  n_intervals <- length(interval_levels)
  # Level of each non-finite value that is not a code (NA for those that are).
  nonfinite_level <- rep(NA_integer_, 3)
  nonfinite_level[seen] <- n_intervals + length(code_labels) + seq_len(sum(seen))
  nonfinite_level[seen_control] <- n_intervals + length(special_labels) + seq_len(sum(seen_control))
  # Control values beyond the outer breaks go to the end intervals.
  open_brks <- c(-Inf, brks[-c(1, length(brks))], Inf)
  grouped <- lapply(seq_along(cols), function(i) {
    x <- cols[[i]]
    out <- as.integer(cut(x, if (i %in% main) brks else open_brks, right = FALSE, include.lowest = TRUE,
                          dig.lab = 8))
    code_at <- match(x, codes)
    is_code <- !is.na(code_at)
    out[is_code] <- n_intervals + code_level[code_at[is_code]]
    nonfinite_at <- match(x, nonfinite_values)
    other_special <- !is_code & !is.na(nonfinite_at)
    out[other_special] <- nonfinite_level[nonfinite_at[other_special]]
    factor_from_codes(out, c(interval_levels, special_labels, nonfinite_labels[seen_control]))
  })
  # Control records beyond the outer breaks (each row counted by its weight).
  beyond <- c(0, 0)
  for (i in setdiff(seq_along(cols), main)) {
    x <- cols[[i]]
    ok <- is_usable(x)
    w <- if (is.null(weights[[i]])) rep(1, length(x)) else as.double(weights[[i]])
    beyond <- beyond + c(sum(w[ok & x < brks[1]]), sum(w[ok & x > brks[length(brks)]]))
  }
  list(cols = grouped,
       record = grouping_record(var, n, TRUE, style = style, breaks = brks,
                                labels = c(interval_levels, special_labels)),
       control = control_grouping(var, beyond[1], beyond[2]))
}

# The distinct usable values of numeric columns (sorted, of the type the pooled values
# would have) and the records holding each, from rows that stand for `weights` records.
pooled_value_counts <- function(cols, weights, is_usable) {
  values <- list()
  counts <- list()
  for (i in seq_along(cols)) {
    x <- cols[[i]]
    ok <- is_usable(x)
    values[[i]] <- x[ok]
    counts[[i]] <- if (is.null(weights[[i]])) rep(1, sum(ok)) else as.double(weights[[i]][ok])
  }
  values <- unlist(values, use.names = FALSE)
  distinct <- sort(unique(values))
  list(values = distinct, counts = as.vector(rowsum(unlist(counts, use.names = FALSE), match(values, distinct),
                                                     reorder = TRUE)))
}

# classInt::classIntervals()$brks for the values `values` (sorted, distinct) repeated
# `counts` times, without repeating them: "quantile" is R's quantile(type = 7) found
# by position in the cumulative counts, with the same arithmetic; "equal" and one
# class per distinct value (n at least the number of distinct values) depend on the
# distinct values only.
counted_breaks <- function(values, counts, n, style) {
  n <- as.integer(n)
  n_values <- length(values)
  if (n_values < 2) stop("single unique value")
  if (n >= n_values) {
    gaps <- diff(values)
    return(c(values[1] - (mean(gaps) / 2), values[1:(n_values - 1)] + (gaps / 2),
             values[n_values] + (mean(gaps) / 2)))
  }
  switch(style,
    equal = seq(values[1], values[n_values], length.out = (n + 1)),
    quantile = counted_quantile(values, counts, seq(0, 1, 1 / n)),
    stop("unknown style ", style)
  )
}

# quantile(rep(values, counts), probs, type = 7, names = FALSE) for sorted distinct
# `values`: the k-th smallest record is the first value whose cumulative count reaches k.
counted_quantile <- function(values, counts, probs) {
  probs <- pmax(0, pmin(1, probs))
  n <- sum(counts)
  index <- 1 + max(n - 1, 0) * probs
  lo <- floor(index)
  hi <- ceiling(index)
  cumulative <- cumsum(counts)
  nth <- function(k) values[findInterval(k, cumulative, left.open = TRUE) + 1L]
  qs <- nth(lo)
  x_hi <- nth(hi)
  i <- which(index > lo & x_hi != qs)
  h <- (index - lo)[i]
  qs[i] <- (1 - h) * qs[i] + h * x_hi[i]
  qs
}

# How the holdout records (`control`) of a grouped variable met the breaks of the
# original and synthetic data: how many lay below the lowest / above the highest break
# and were put in the first / last interval.
control_grouping <- function(var, below, above) {
  list(variable = var, below = as.integer(below), above = as.integer(above))
}

factor_from_codes <- function(codes, levels) {
  structure(codes, levels = levels, class = "factor")
}
