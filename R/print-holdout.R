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
  "synthesis are no more at risk than records never used, positive (up to 1) when they are more, negative when",
  "the control records are more exposed than the training ones: no sign of leakage, the difference is within",
  "noise (or, for measures that grow as a set shrinks, such as UiO and Dorig, comes from a smaller control set).",
  "NA for counts (max_denom, mean_denom) and where r_control is 1. Measures depend on the number of records:",
  "compare sets of similar size.")

# The measures (with their targets, for a multi.disclosure) whose printed R is below 0.
negative_ratio_line <- function(measures) {
  if (length(measures) == 0) return(character(0))
  paste0("R is negative for ", paste(measures, collapse = ", "), ": the control records came out at least as ",
         "exposed as the training ones, so these show no sign of leakage.")
}

# Why prop = 0.2 may not be the best split, when the control set is the smaller one.
control_size_line <- function(n_control, n_train) {
  if (is.null(n_control) || is.null(n_train) || n_control >= n_train) return(character(0))
  big <- function(v) format(v, big.mark = ",", scientific = FALSE, trim = TRUE)
  paste0("The control set has ", big(n_control), " records, the training set ", big(n_train), ". ",
         "holdout_split()'s default prop = 0.2 follows the PSD paper (Raab, 2024), but a control set as large as the ",
         "training set (prop = 0.5) gives steadier R.")
}

holdout_notes_cli <- function(negative, n_control, n_train, notes) {
  cli::cli_text(holdout_explanation)
  lines <- c(negative_ratio_line(negative), control_size_line(n_control, n_train), notes %||% character(0))
  for (line in lines) cli::cli_bullets(c("*" = escape_braces(line)))
}

holdout_missing_cli <- function() {
  cli::cli_text("No holdout baseline in this object: pass {.arg control}, original records not used for the synthesis.")
}

holdout_cli <- function(x, digits) {
  if (is.null(x$holdout)) return(holdout_missing_cli())
  holdout_heading_cli(x)
  m <- length(unique(x$holdout$synthesis))
  if (m > 1) cli::cli_text("Means over the {m} syntheses and R of those means; each synthesis is in {.field $holdout}.")
  shown <- round_frame(holdout_summary(x$holdout), digits)
  cli_table(shown)
  holdout_notes_cli(rownames(shown)[!is.na(shown$R) & shown$R < 0], x$Ncontrol, x$Norig, x$holdout_notes)
}

# One row per target (in the order of attrib.table): the summary's identity and
# attribute measures of the synthetic data, train, control and R.
multi_holdout_table <- function(x) {
  measures <- c(ident_meas_columns[[x$ident.meas %||% default_ident_meas]], attrib_meas_columns[[x$attrib.meas %||% default_attrib_meas]][2])
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
  shown <- round_frame(multi_holdout_table(x), digits)
  cli_table(shown)
  ratio_columns <- grep(" R$", names(shown), value = TRUE)
  negative <- unlist(lapply(ratio_columns, function(col) {
    below <- rownames(shown)[!is.na(shown[[col]]) & shown[[col]] < 0]
    if (length(below)) paste0(sub(" R$", "", col), " (", paste(below, collapse = ", "), ")")
  }))
  holdout_notes_cli(negative, x$Ncontrol, x$Norig, x$holdout_notes)
}
