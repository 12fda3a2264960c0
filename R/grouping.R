# Grouping a numeric variable into intervals (SPEC section 2.1): quantile breaks of the
# pooled values of the original and all syntheses, special codes kept as own levels.

group_breaks <- function(values, n, style) {
  brks <- suppressWarnings(classInt::classIntervals(values, n = n, style = style)$brks)
  unique(brks)
}

# `cols`: numeric columns (original first). Returns factor columns with the same levels.
group_numeric <- function(cols, n, codes) {
  usable <- function(x) x[!is.na(x) & !(x %in% codes)]
  pooled <- unlist(lapply(cols, usable), use.names = FALSE)
  if (length(unique(pooled)) < 2) {
    return(NULL)
  }
  brks <- group_breaks(pooled, n, "quantile")
  if (length(brks) - 1 + length(codes) < 3) {
    brks <- group_breaks(pooled, n, "equal")
  }
  code_labels <- as.character(codes)
  lapply(cols, function(x) {
    f <- cut(x, brks, right = FALSE, include.lowest = TRUE, dig.lab = 8)
    interval_levels <- levels(f)
    codes_at <- match(x, codes)
    out <- as.integer(f)
    out[!is.na(codes_at)] <- length(interval_levels) + codes_at[!is.na(codes_at)]
    factor_from_codes(out, c(interval_levels, code_labels))
  })
}

factor_from_codes <- function(codes, levels) {
  structure(codes, levels = levels, class = "factor")
}
