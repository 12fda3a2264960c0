# Grouping a numeric variable into intervals (SPEC section 2.1): breaks from the pooled
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

# `cols`: numeric columns (original first), `codes`: the variable's cont.na codes.
# Returns `cols` (factors with the same levels, or NULL when the variable is left
# ungrouped) and `record` (see grouping_record()).
group_numeric <- function(var, cols, n, codes, call) {
  usable <- function(x) x[is.finite(x) & is.na(match(x, codes))]
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
  code_level <- match(as.character(codes), code_labels)
  nonfinite_values <- c(-Inf, Inf, NaN)
  seen <- vapply(nonfinite_values, function(v) {
    !(v %in% codes) && any(vapply(cols, function(x) v %in% x, logical(1)))
  }, logical(1))
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
  nonfinite_level <- n_intervals + length(code_labels) + cumsum(seen)
  nonfinite_level[!seen] <- NA
  grouped <- lapply(cols, function(x) {
    out <- as.integer(cut(x, brks, right = FALSE, include.lowest = TRUE, dig.lab = 8))
    code_at <- match(x, codes)
    is_code <- !is.na(code_at)
    out[is_code] <- n_intervals + code_level[code_at[is_code]]
    nonfinite_at <- match(x, nonfinite_values)
    other_special <- !is_code & !is.na(nonfinite_at)
    out[other_special] <- nonfinite_level[nonfinite_at[other_special]]
    factor_from_codes(out, c(interval_levels, special_labels))
  })
  list(cols = grouped,
       record = grouping_record(var, n, TRUE, style = style, breaks = brks,
                                labels = c(interval_levels, special_labels)))
}

factor_from_codes <- function(codes, levels) {
  structure(codes, levels = levels, class = "factor")
}
