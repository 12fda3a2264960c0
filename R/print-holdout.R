# Printing the holdout baseline (to.print = "holdout") of a `disclosure` and of a
# `multi.disclosure`.

# Per measure: train and control (means over the syntheses when m > 1) and R of those.
holdout_summary <- function(holdout) {
  measures <- unique(holdout$measure)
  train <- tapply(holdout$train, factor(holdout$measure, measures), mean)
  control <- tapply(holdout$control, factor(holdout$measure, measures), mean)
  data.frame(train = as.vector(train), control = as.vector(control),
             R = holdout_ratio(as.vector(train), as.vector(control), unname(measure_unit[measures])),
             row.names = measures)
}

holdout_heading_cli <- function(x) {
  cli::cli_h2("Holdout baseline: train (used for synthesis) vs control ({x$Ncontrol} record{?s} not used)")
}

holdout_explanation <- paste(
  "R = (r_train - r_control) / (1 - r_control), r the measure as a proportion: 0 when the records used for",
  "synthesis are no more at risk than records never used, positive (up to 1) when they are more; NA for counts",
  "(max_denom, mean_denom) and where r_control is 1. Measures depend on the number of records: compare sets",
  "of similar size.")

holdout_missing_cli <- function() {
  cli::cli_text("No holdout baseline in this object: pass {.arg control}, original records not used for the synthesis.")
}

holdout_cli <- function(x, digits) {
  if (is.null(x$holdout)) return(holdout_missing_cli())
  holdout_heading_cli(x)
  m <- length(unique(x$holdout$synthesis))
  if (m > 1) cli::cli_text("Means over the {m} syntheses and R of those means; each synthesis is in {.field $holdout}.")
  cli_table(round_frame(holdout_summary(x$holdout), digits))
  cli::cli_text(holdout_explanation)
  for (line in x$holdout_notes %||% character(0)) cli::cli_bullets(c("*" = escape_braces(line)))
}

# One row per target (in the order of attrib.table): the summary's identity and
# attribute measures of the synthetic data, train, control and R.
multi_holdout_table <- function(x) {
  measures <- c(ident_meas_columns[[x$ident.meas %||% "repU"]], attrib_meas_columns[[x$attrib.meas %||% "DiSCO"]][2])
  targets <- table_targets(x)
  rows <- lapply(targets, function(tv) {
    s <- holdout_summary(x$holdout[x$holdout$target == tv, , drop = FALSE])
    unlist(lapply(measures, function(ms) {
      stats::setNames(unlist(s[ms, ]), paste(ms, c("train", "control", "R")))
    }))
  })
  out <- as.data.frame(do.call(rbind, rows), check.names = FALSE)
  rownames(out) <- targets
  out
}

multi_holdout_cli <- function(x, digits) {
  if (is.null(x$holdout)) return(holdout_missing_cli())
  holdout_heading_cli(x)
  m <- x$m %||% 1
  cli::cli_text("Per target{if (m > 1) ', means over the syntheses and R of those means' else ''};",
                " every measure is in {.field $holdout} and {.code tidy(x, type = \"holdout\")}.")
  cli_table(round_frame(multi_holdout_table(x), digits))
  cli::cli_text(holdout_explanation)
  for (line in x$holdout_notes %||% character(0)) cli::cli_bullets(c("*" = escape_braces(line)))
}
