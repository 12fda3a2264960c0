# Grouping a numeric variable into intervals (SPEC section 2.1): breaks from the pooled
# usable values of the original and all syntheses; cont.na codes and the non-finite
# values Inf, -Inf and NaN are levels of their own after the intervals; NA stays NA.

# Labels of the non-finite values, in the order their levels follow the intervals.
nonfinite_labels <- c("-Inf", "Inf", "NaN")

nonfinite_label <- function(x) {
  out <- rep(NA_character_, length(x))
  out[is.nan(x)] <- "NaN"
  out[!is.na(x) & x == Inf] <- "Inf"
  out[!is.na(x) & x == -Inf] <- "-Inf"
  out
}

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

# `cols`: numeric columns (original first), `codes`: the variable's cont.na codes.
# Returns `cols` (factors with the same levels, or NULL when the variable is left
# ungrouped) and `record` (see grouping_record()).
group_numeric <- function(var, cols, n, codes, call) {
  is_code <- function(x) x %in% codes
  usable <- function(x) x[is.finite(x) & !is_code(x)]
  pooled <- unlist(lapply(cols, usable), use.names = FALSE)
  distinct <- unique(pooled)
  if (length(distinct) < 2) {
    reason <- if (length(distinct) == 0) "no usable values (only NA, non-finite values or cont.na codes)"
              else "fewer than two distinct usable values"
    return(list(cols = NULL, record = grouping_record(var, n, FALSE, reason = reason)))
  }
  # Levels after the intervals: each distinct code label, then the non-finite values
  # that occur and are not codes.
  code_labels <- unique(as.character(codes))
  observed_nonfinite <- unique(unlist(lapply(cols, function(x) nonfinite_label(x[!is_code(x)])), use.names = FALSE))
  special_labels <- c(code_labels, nonfinite_labels[nonfinite_labels %in% observed_nonfinite])

  style <- "quantile"
  brks <- group_breaks(pooled, n, style, var, call)
  if (length(brks) - 1 + length(special_labels) < 3) {
    style <- "equal"
    brks <- group_breaks(pooled, n, style, var, call)
  }
  interval_levels <- levels(cut(pooled[1], brks, right = FALSE, include.lowest = TRUE, dig.lab = 8))
  all_levels <- c(interval_levels, special_labels)
  grouped <- lapply(cols, function(x) {
    out <- as.integer(cut(x, brks, right = FALSE, include.lowest = TRUE, dig.lab = 8))
    special <- ifelse(is_code(x), as.character(x), nonfinite_label(x))
    at <- !is.na(special)
    out[at] <- length(interval_levels) + match(special[at], special_labels)
    factor_from_codes(out, all_levels)
  })
  list(cols = grouped,
       record = grouping_record(var, n, TRUE, style = style, breaks = brks, labels = all_levels))
}

factor_from_codes <- function(codes, levels) {
  structure(codes, levels = levels, class = "factor")
}
