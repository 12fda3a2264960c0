# Holdout baseline (definitions vignette 10.3; Giomi et al., 2022): every measure computed twice, with
# the records used for synthesis (`data`, "train") as the original and with records of
# the same population that were kept out of the synthesis (`control`) as the original.
# Risk that the synthesis leaks about its own training records shows as train above
# control; R = (r_train - r_control) / (1 - r_control) scales the excess by the room
# left above the control's rate. R < 0 (control more exposed) is noise or a smaller
# control set, never leakage.
#
# Both runs share one encoding: data (dataset 0), the m syntheses (1..m) and control
# (m + 1), so levels and grouping breaks are the same for both; breaks come from data
# and syntheses only, so adding `control` changes no train number.

# The core's plans: train = data against the syntheses, control = control against them.
holdout_plans <- function(m, with_control) {
  if (!with_control) return(list(train = NULL))
  syntheses <- lapply(seq_len(m), function(j) list(dataset = as.integer(j), rows = NULL))
  list(train = list(original = 0L, syntheses = syntheses, tau = numeric(0)),
       control = list(original = as.integer(m + 1L), syntheses = syntheses, tau = numeric(0)))
}

# `control` is checked as `data` is: a data frame with rows that has every key and target.
check_control <- function(control, vars, call) {
  if (is.null(control)) return(invisible())
  check_dataset(control, "control", call)
  bad <- setdiff(vars, dataset_names(control))
  if (length(bad) > 0) {
    cli::cli_abort(c("{.arg control} must have every key and target; {.val {bad}} {?is/are} missing.",
                     i = "{.arg control} holds original records that were not used for the synthesis, with the columns of {.arg data}."),
                   call = call)
  }
}

# R of Giomi et al. (2022) from two measures in percent: NA where the control's rate is
# 1 (no room above it) and for measures that are not percentages (counts of records).
holdout_ratio <- function(train, control, unit) {
  r_train <- train / 100
  r_control <- control / 100
  out <- (r_train - r_control) / (1 - r_control)
  out[unit != "%" | r_control %in% 1] <- NA_real_
  out
}

# One row per synthesis and measure: the measure with `data` (train) and with `control`
# as the original, and R.
holdout_table <- function(train, control) {
  a <- measure_rows(train)
  b <- measure_rows(control)
  stopifnot(identical(a$measure, b$measure), identical(a$synthesis, b$synthesis))
  data.frame(synthesis = a$synthesis, measure = a$measure, train = a$value, control = b$value,
             R = holdout_ratio(a$value, b$value, a$unit), stringsAsFactors = FALSE)
}

# Lines on control values put in an end interval of a grouped variable.
control_grouping_lines <- function(control_grouping) {
  lines <- vapply(control_grouping %||% list(), function(g) {
    n <- g$below + g$above
    if (n == 0) return(NA_character_)
    sprintf(paste("Put %d control value%s of '%s' outside the breaks of the original and synthetic data in the",
                  "end intervals (%d below the lowest, %d above the highest)."),
            n, if (n == 1) "" else "s", g$variable, g$below, g$above)
  }, character(1), USE.NAMES = FALSE)
  lines[!is.na(lines)]
}

# The train result `x` with the control result's numbers added as `holdout`.
add_holdout <- function(x, control_result, n_control, control_grouping) {
  x$holdout <- holdout_table(x, control_result)
  x$Ncontrol <- as.integer(n_control)
  vars <- c(x$keys, x$target)
  x$holdout_notes <- control_grouping_lines((control_grouping %||% list())[intersect(vars, names(control_grouping))])
  x
}

# `to.print` of a result: with a holdout and no choice made, "holdout" is added.
holdout_to_print <- function(to.print, chosen, with_control) {
  if (with_control && !chosen && !"holdout" %in% to.print) c(to.print, "holdout") else to.print
}

#' Split original data into training and control (holdout) records
#'
#' Before synthesising, keep some original records out of the synthesis: synthesise
#' from `train` and pass `control` to [disclosure()] or [multi.disclosure()] as the
#' holdout baseline. Records used for synthesis that are no more at risk than records
#' never used (`R` near 0) show that the synthesis does not leak about its own
#' training data beyond what it says about the population.
#'
#' `R` is negative when the control records come out more exposed than the training
#' records. A synthesis cannot cause that: it is no sign of leakage, the difference
#' being within noise, or, for measures that grow as a set of records shrinks (such as
#' `UiO` and `Dorig`), the effect of a control set smaller than the training set.
#'
#' The default `prop = 0.2` follows the PSD paper (Raab, *Privacy risk from synthetic
#' data: practical proposals*, PSD 2024); a
#' control set as large as the training set (`prop = 0.5`) gives steadier `R`, at the
#' cost of synthesising from fewer records. The printout of a result with `control`
#' says so when the control set is the smaller one.
#'
#' @param data The original data, a data frame.
#' @param prop The share of records to keep out as `control`, strictly between 0 and 1;
#'   `round(prop * nrow(data))` records are drawn without replacement.
#' @param seed A whole number making the split reproducible, or `NULL` for R's current
#'   random state. With a seed, R's random state is the same after the call as before,
#'   so the split does not change later random numbers of the session.
#' @return A list of two data frames, `train` and `control`, each with its rows in the
#'   order of `data` (row names kept).
#' @seealso [disclosure()], [multi.disclosure()] (argument `control`).
#' @export
#' @examples
#' parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#' c(train = nrow(parts$train), control = nrow(parts$control))
#'
#' # Synthesise from parts$train (e.g. with synthpop::syn()), then compare:
#' # disclosure(syn_object, parts$train, keys, target, control = parts$control)
#' # Here sd2011_synds stands in for such a synthesis (it was made from all of sd2011):
#' dh <- disclosure(sd2011_synds, parts$train, keys = c("sex", "age", "region", "placesize"),
#'                  target = "depress", print.flag = FALSE, control = parts$control)
#' subset(dh$holdout, measure %in% c("repU", "DiSCO"))
holdout_split <- function(data, prop = 0.2, seed = NULL) {
  env <- rlang::current_env()
  refuse_counted(data, "data", "holdout_split", env)
  check_data_frame(data, "data", env)
  if (!is.numeric(prop) || length(prop) != 1 || is.na(prop) || prop <= 0 || prop >= 1) {
    cli::cli_abort("{.arg prop} must be one number strictly between 0 and 1, not {.code {describe_value(prop)}}.",
                   call = env)
  }
  if (!is.null(seed) && (!is.numeric(seed) || length(seed) != 1 || !is.finite(seed) || seed != round(seed))) {
    cli::cli_abort("{.arg seed} must be one whole number or {.code NULL}, not {.code {describe_value(seed)}}.",
                   call = env)
  }
  n <- nrow(data)
  n_control <- round(prop * n)
  if (n_control < 1 || n_control >= n) {
    cli::cli_abort(c("{.arg prop} = {prop} leaves {n_control} of {n} record{?s} for {.arg control}.",
                     i = "Both parts need at least one record."), call = env)
  }
  at <- if (is.null(seed)) sample.int(n, n_control) else with_seed(seed, sample.int(n, n_control))
  is_control <- seq_len(n) %in% at
  list(train = data[!is_control, , drop = FALSE], control = data[is_control, , drop = FALSE])
}

# The holdout tables of every target of a multi.disclosure, stacked with a `target`
# column, in the order of `data`'s targets.
add_multi_holdout <- function(x, n_control, control_grouping) {
  x$holdout <- bind_rows_of(x$output.list, function(d) cbind(target = d$target, d$holdout, stringsAsFactors = FALSE))
  x$Ncontrol <- as.integer(n_control)
  x$holdout_notes <- control_grouping_lines(control_grouping)
  x
}
