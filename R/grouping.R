# Grouping a numeric variable into intervals (definitions vignette, section 2.1): breaks from the pooled
# usable values of the original and all syntheses; cont.na codes and the non-finite
# values Inf, -Inf and NaN are levels of their own after the intervals; NA stays NA.

# Labels of the non-finite values, in the order their levels follow the intervals.
nonfinite_labels <- c("-Inf", "Inf", "NaN")

# Breaks of `style` ("quantile" or "equal") for `n` groups, as classInt makes them; with
# n at least the number of distinct values classInt makes one class per value.
group_breaks <- function(values, n, style, var, call) {
  brks <- tryCatch(
    suppressWarnings(classInt::classIntervals(values, n = n, style = style)$brks),
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
group_numeric <- function(var, cols, n, codes, call, n_control = 0L) {
  usable <- function(x) x[is.finite(x) & is.na(match(x, codes))]
  main <- seq_len(length(cols) - n_control)
  pooled <- unlist(lapply(cols[main], usable), use.names = FALSE)
  distinct <- unique(pooled)
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
  brks <- group_breaks(pooled, n, style, var, call)
  if (length(brks) - 1 + length(special_labels) < 3) {
    style <- "equal"
    brks <- group_breaks(pooled, n, style, var, call)
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
  control_values <- unlist(lapply(cols[setdiff(seq_along(cols), main)], usable), use.names = FALSE)
  list(cols = grouped,
       record = grouping_record(var, n, TRUE, style = style, breaks = brks,
                                labels = c(interval_levels, special_labels)),
       control = control_grouping(var, sum(control_values < brks[1]), sum(control_values > brks[length(brks)])))
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
