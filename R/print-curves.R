# print() and format() of tau_curve and size_curve: a few header lines and a compact
# table of means over syntheses (and repeats), at most six columns.

# Up to `n` values spread over the sorted distinct values of x, ends included.
spread_values <- function(x, n = 6) {
  u <- sort(unique(x))
  if (length(u) <= n) return(u)
  u[unique(round(seq(1, length(u), length.out = n)))]
}

# A character matrix as aligned text lines (row names left, cells right).
matrix_lines <- function(cells) {
  utils::capture.output(print(cells, quote = FALSE, right = TRUE))
}

# Means of `value` by row label and column value, as a matrix in the given orders.
mean_table <- function(row, col, value, rows, cols) {
  out <- matrix(NA_real_, length(rows), length(cols), dimnames = list(rows, cols))
  keep <- col %in% cols
  sums <- tapply(value[keep], list(factor(row[keep], rows), factor(col[keep], cols)), mean)
  out[] <- sums
  out
}

fmt_pct <- function(x, digits) {
  ifelse(is.na(x) & !is.nan(x), "", formatC(x, format = "f", digits = digits))
}

#' @export
format.tau_curve <- function(x, digits = 2, ...) {
  keys <- attr(x, "keys")
  m <- length(unique(x$synthesis))
  x <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  targets <- unique(x$target)
  shown <- spread_values(x$tau, 5)
  cols <- as.character(signif(shown, 4))
  col_of <- as.character(signif(x$tau, 4))
  syn <- mean_table(x$target, col_of, x$synthetic, targets, cols)
  orig <- mean_table(x$target, col_of, x$original, targets, cols)
  cells <- matrix(paste0(fmt_pct(syn, digits), " (", fmt_pct(orig, digits), ")"), nrow(syn),
                  dimnames = list(targets, paste0("tau=", cols)))
  n_tau <- length(unique(x$tau))
  c(sprintf("Tau curve: D(tau) in %%, synthetic (original)%s", if (m > 1) sprintf("; means over %d syntheses", m) else ""),
    sprintf("Keys: %s; %d target%s; %d tau value%s from %s to %s%s", if (is.null(keys)) "-" else paste(keys, collapse = ", "),
            length(targets), if (length(targets) == 1) "" else "s", n_tau, if (n_tau == 1) "" else "s",
            format(min(x$tau)), format(max(x$tau)), if (n_tau > length(shown)) sprintf(", %d shown", length(shown)) else ""),
    matrix_lines(cells),
    "At tau = 1: DiSCO (Dorig); at tau = 0: DCAPd (CAPd) when nothing is excluded. as.data.frame() has every value.")
}

#' @export
print.tau_curve <- function(x, digits = 2, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @export
format.size_curve <- function(x, digits = 2, ...) {
  capped <- attr(x, "capped")
  seed <- attr(x, "seed")
  # Counted from the rows, so that a subset (x[...]) says what it holds.
  m <- length(unique(x$synthesis))
  reps <- length(unique(x$rep))
  if (!is.null(capped)) capped <- capped[capped$synthesis %in% x$synthesis, , drop = FALSE]
  keys <- attr(x, "keys")
  n_orig <- attr(x, "n_orig")
  x <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  targets <- unique(x$target)
  measures <- unique(x$measure)
  shown <- spread_values(x$size)
  row_label <- paste(x$target, x$measure, sep = ": ")
  rows <- as.vector(t(outer(targets, measures, paste, sep = ": ")))
  v <- x$value
  v[is.nan(v)] <- NA
  keep <- !is.na(v)
  means <- mean_table(row_label[keep], x$size[keep], v[keep], rows, shown)
  cells <- matrix(fmt_pct(means, digits), nrow(means), dimnames = list(rows, paste0("n=", shown)))
  sizes <- sort(unique(x$size))
  cap_lines <- if (!is.null(capped) && nrow(capped) > 0) {
    sprintf("Synthesis %d has %s rows; the larger sizes asked for (%s) use all of them.", capped$synthesis,
            format(capped$rows, big.mark = ","),
            vapply(capped$requested, function(s) paste(format(s, big.mark = ",", trim = TRUE), collapse = ", "), ""))
  }
  c(sprintf("Size curve: measures (%%) of random subsamples of the synthetic data; means over %s",
            if (m > 1) sprintf("%d syntheses x %d repeats", m, reps) else sprintf("%d repeats", reps)),
    sprintf("Keys: %s; %d size%s from %s to %s%s%s%s", if (is.null(keys)) "-" else paste(keys, collapse = ", "),
            length(sizes), if (length(sizes) == 1) "" else "s", format(min(sizes), big.mark = ","),
            format(max(sizes), big.mark = ","),
            if (length(sizes) > length(shown)) sprintf(" (%d shown)", length(shown)) else "",
            if (is.null(n_orig)) "" else paste0("; original data ", format(n_orig, big.mark = ","), " records"),
            if (is.null(seed)) "" else sprintf("; seed %d", seed)),
    matrix_lines(cells),
    cap_lines,
    "summary() gives sd, min and max; as.data.frame() every value.")
}

#' @export
print.size_curve <- function(x, digits = 2, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}
