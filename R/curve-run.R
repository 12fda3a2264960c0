# What the two curves (tau_curve(), size_curve()) share: multi.disclosure()'s request
# with a plan of their own (the syntheses as the multi.disclosure() methods make them,
# every other argument passed on, print.flag off unless the user asks for it), and the
# compact tables of their printouts.

# The counts of multi.disclosure()'s request with the plan `plan_of(syntheses)`, and
# what the curves read of it; errors name `call`.
run_curve <- function(object, data, keys, targets, dots, plan_of, call) {
  if (!"print.flag" %in% names(dots)) dots$print.flag <- FALSE
  # cont.na is an argument for data frames and lists; beside a synds object it stays
  # among the arguments, where the request says it is taken from the object.
  cont.na <- NULL
  if (!inherits(object, "synds") && "cont.na" %in% names(dots)) {
    cont.na <- dots$cont.na
    dots$cont.na <- NULL
  }
  request <- do.call(disclosure_request, c(list("multi", object, cont.na, data, keys = keys, targets = targets),
                                           dots, list(.env = call, .plan_of = plan_of)))
  counted <- run_request(request)
  enc <- counted$enc
  m <- length(request$syn)
  if (request$output$print.flag) {
    cat(wrap_lines(c(input_lines(counted$input, counted$fetch, timing = TRUE), grouping_lines(enc$grouping %||% list()))),
        sep = "\n")
  }
  list(raw = counted$raw$train, plan = request$plans$train, keys = request$keys, targets = request$targets, m = m,
       n_syn = as.integer(enc$records[1 + seq_len(m)]), n_orig = as.integer(enc$records[1]),
       grouping = enc$grouping %||% list(), denom_lim = request$limits$denom_lim,
       exclude_ov_denom_lim = request$limits$exclude_ov_denom_lim, input = counted$input, database = counted$fetch,
       uncertainty = request$uncertainty)
}

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

#' Plot a tau curve or a size curve with ggplot2
#'
#' `autoplot()` of a [tau_curve()]: for each target, the synthetic curve (solid; the
#' mean over syntheses) and the original curve (dashed) against `tau`, with `DCAPd`
#' marked at `tau = 0` (an open circle) and `DiSCO` at `tau = 1` (a dot). Up to five
#' targets share one panel, one Okabe-Ito colour each; more targets get a panel each.
#'
#' `autoplot()` of a [size_curve()]: per target (one panel each) the mean of each
#' measure over syntheses and repeats against the subsample size, as the synthpop
#' disclosure vignette's Figure 2: the line type is the numerator of the measure
#' (`C`, the expected correct attributions, for the DCAP family; `K`, the records
#' predicted with certainty and correctly, for DiSCO and the TCAP family) and the
#' colour its denominator (`Nd` original records, `Ns` synthetic records, `Nb`
#' synthetic records whose key combination occurs in the original, `DiS` original
#' records whose key combination is predicted with certainty).
#'
#' @param object A `tau_curve` or `size_curve`.
#' @param ... Unused.
#' @return A ggplot.
#' @name autoplot.synthrisk_tau_curve
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' tc <- tau_curve(sd2011_synds5, sd2011, keys = keys, targets = c("depress", "workab"))
#' autoplot(tc)
#' sc <- size_curve(sd2011_synds5, sd2011, keys = keys, targets = "depress", reps = 2, seed = 1)
#' autoplot(sc)
NULL
