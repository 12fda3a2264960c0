# Several syntheses released together (definitions vignette, section 12; `release =
# TRUE`, m >= 2): an intruder holding all of them. `release`: DiSCO_any and repU_any,
# the original records in a DiSCO cell (after exclusions) or replicated uniques of at
# least one synthesis, from the core's record-level flags; `pooled`: every measure
# with the syntheses stacked into one synthetic data set.

check_release <- function(syn, not_here, call) {
  if (not_here) {
    cli::cli_abort("{.arg release} is for {.fn disclosure} and {.fn multi.disclosure}; here it would be ignored.",
                   call = call)
  }
  if (length(syn) < 2) {
    cli::cli_abort(c("{.arg release} describes several syntheses released together; there is one.",
                     i = "With one synthesis the measures themselves are what is released."), call = call)
  }
  held <- vapply(syn, function(x) is.data.frame(x) && !is_cell_counts(x), logical(1))
  if (!all(held)) {
    cli::cli_abort(c("{.arg release} stacks syntheses held in R as data frames of records.",
                     x = "Synthesis {which(!held)} {?is/are} counted cells or a database table."), call = call)
  }
}

# The same request with the syntheses stacked into one (no holdout, intervals or
# release of its own).
pooled_request <- function(request) {
  stacked <- do.call(rbind, unname(lapply(request$syn, function(s) s[c(request$keys, request$targets)])))
  out <- request
  out$syn <- list(stacked)
  out$control <- NULL
  out$plans <- holdout_plans(1L, FALSE)
  out$uncertainty <- NULL
  out$release <- FALSE
  out$records <- FALSE
  out$output$print.flag <- FALSE
  out
}

# One target's release measures from its record-level flags (original records, one
# block per synthesis).
release_measures <- function(raw, tv) {
  n <- raw$n_orig
  m <- length(raw$n_syn)
  any_of <- function(flag) sum(rowSums(matrix(as.logical(flag), nrow = n, ncol = m)) > 0)
  data.frame(target = tv, DiSCO_any = 100 * any_of(raw$original$disco) / n,
             repU_any = 100 * any_of(raw$original$replicated_unique) / n, stringsAsFactors = FALSE)
}

# Adds `release` and `pooled` to one target's result `d`.
add_release <- function(d, counted, tv, pooled) {
  if (is.null(counted$pooled)) return(d)
  d$release <- release_measures(counted$raw$records[[tv]], tv)
  d$pooled <- pooled
  d
}

# The short block of the printouts.
release_lines <- function(release, m, digits, mean_disco, mean_repu) {
  if (is.null(release)) return(character(0))
  f <- function(v) formatC(round(v, digits), format = "f", digits = digits)
  if (nrow(release) == 1) {
    return(sprintf(paste("Released together, the %d syntheses disclose more than each alone: %s%% of the original",
                         "records are in a DiSCO cell of at least one (DiSCO_any; %s%% for one, on average) and %s%%",
                         "are replicated uniques in at least one (repU_any; %s%%)."),
                   m, f(release$DiSCO_any), f(mean_disco), f(release$repU_any), f(mean_repu)))
  }
  top <- release[which.max(release$DiSCO_any), ]
  sprintf(paste("Released together, the %d syntheses disclose: DiSCO_any (records in a DiSCO cell of at least one",
                "synthesis) from %s%% to %s%% of the original records (%s for %s); repU_any %s%%.",
                "Per target: tidy(x, type = \"release\")."),
          m, f(min(release$DiSCO_any)), f(max(release$DiSCO_any)), f(top$DiSCO_any), top$target,
          f(release$repU_any[1]))
}

# tidy(type = "release"): per target the release measures and the pooled synthesis's
# measures, long.
release_rows <- function(x) {
  if (is.null(x$release)) {
    cli::cli_abort(c("{.arg x} has no release measures.",
                     i = "Pass {.code release = TRUE} (m >= 2) to {.fn disclosure} or {.fn multi.disclosure}."),
                   call = rlang::caller_env(2))
  }
  any_rows <- data.frame(target = x$target, measure = c("DiSCO_any", "repU_any"),
                         value = c(x$release$DiSCO_any, x$release$repU_any), of = "any synthesis",
                         stringsAsFactors = FALSE)
  p <- measure_rows(x$pooled)
  rbind(any_rows, data.frame(target = x$target, measure = p$measure, value = p$value, of = "pooled",
                             stringsAsFactors = FALSE))
}
