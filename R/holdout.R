# Holdout baseline (definitions vignette 10.3; Giomi et al., 2023): every measure computed twice, with
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

# `control` (checked as `data` is by prepare_inputs()) must have every key and target:
# check_control() in validate.R, the one check of control's columns for every analysis.

# R of Giomi et al. (2023) from two measures in percent: NA where the control's rate is
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
    sprintf(paste("Put %s control value%s of '%s' outside the breaks of the original and synthetic data in the",
                  "end intervals (%s below the lowest, %s above the highest)."),
            format_count(n), if (n == 1) "" else "s", g$variable, format_count(g$below), format_count(g$above))
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
#' The default `prop = 0.2` keeps most records for the synthesis, as Raab (2024,
#' *Privacy risk from synthetic data: practical proposals*, Privacy in Statistical
#' Databases) does. Measures that count records unique in a set (UiO, repU, Dorig)
#' depend on its size, so their `R` compares fairly only when the two sets are of
#' similar size: where the original is large enough to synthesise from half of it,
#' `prop = 0.5` gives `R` near 0 for every measure when nothing leaks (at `prop = 0.2`,
#' shares of synthetic records such as `DCAPs` and `TCAPs` came out near +0.3 in
#' simulated splits of SD2011 without leakage). The printout of a result with
#' `control` says so when the control set is the smaller one.
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
#' # Synthesise from parts$train only, e.g. synthpop::syn(parts$train, m = 5), then compare.
#' # sd2011_train_synds5 is such a synthesis, shipped with the package:
#' dh <- disclosure(sd2011_train_synds5, parts$train, keys = c("sex", "age", "region", "placesize"),
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
    cli::cli_abort(c("{.arg prop} = {prop} leaves {format_count(n_control)} of {format_count(n)}{cli::qty(n)} record{?s} for {.arg control}.",
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

tidy_type <- function(type) {
  check_choice(type, c("measures", "holdout", "intervals", "release"), "type", rlang::caller_env())
}

# One row per synthesis and measure of the holdout baseline, with group and unit.
holdout_rows <- function(x) {
  if (is.null(x$holdout)) {
    cli::cli_abort(c("{.arg x} has no holdout baseline.",
                     i = "Pass {.arg control}, original records not used for the synthesis, to {.fn disclosure} or {.fn multi.disclosure}."),
                   call = rlang::caller_env(2))
  }
  h <- x$holdout
  data.frame(target = rep(x$target, nrow(h)), synthesis = h$synthesis, group = unname(measure_group[h$measure]),
             measure = h$measure, unit = unname(measure_unit[h$measure]), train = h$train, control = h$control,
             R = h$R, stringsAsFactors = FALSE)
}

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
  cli::cli_h2("Holdout baseline: train (used for synthesis) vs control ({format_count(x$Ncontrol)}{cli::qty(x$Ncontrol)} record{?s} not used)")
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
  paste0("The control set has ", format_count(n_control), " records, the training set ", format_count(n_train), ". ",
         "R then also reflects the sizes: with no leakage at all, simulated splits of SD2011 at prop = 0.2 gave R ",
         "near +0.3 for DCAPs, DCAPb, TCAPs and TCAPb (shares of synthetic records, which a smaller set lowers) and ",
         "below 0 for UiO, UiOiS, repU, Dorig, DiSDiO and CAPd; at prop = 0.5 every mean R was within 0.11 of 0. ",
         "holdout_split()'s default prop = 0.2 follows the PSD paper (Raab, 2024), but a control set as large as the ",
         "training set (prop = 0.5) gives R that compares like with like.")
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

holdout_styles <- data.frame(
  data = c("control (not used for synthesis)", "train (used for synthesis)"),
  colour = c("#0072B2", "#D55E00"),
  shape = c(1, 16),
  size = c(3.6, 2.2),
  stringsAsFactors = FALSE
)

# "R = 0.12"; never "-0.00".
format_ratio <- function(R) {
  out <- formatC(round(R, 2) + 0, format = "f", digits = 2)
  out[!is.finite(R)] <- "NA"
  paste("R =", out)
}

check_plot_type <- function(type, call) {
  check_choice(type, c("measures", "holdout"), "type", call)
}

require_holdout <- function(x, call) {
  if (is.null(x$holdout)) {
    cli::cli_abort(c("{.arg object} has no holdout baseline to plot.",
                     i = "Pass {.arg control}, original records not used for the synthesis, to {.fn disclosure} or {.fn multi.disclosure}."),
                   call = call)
  }
}

# One row per label: train and control (means over syntheses) and R of those means.
# `first_on_top`: the first label on the top row (else at the bottom, as the rows of
# attrib_plot()).
holdout_points <- function(labels, train, control, R, group = NULL, first_on_top = TRUE, intervals = NULL) {
  # With intervals: R's in the label, the train measure's as a bar.
  r_iv <- lapply(labels, function(me) interval_of(intervals$R, me))
  r_text <- vapply(seq_along(labels), function(i) {
    iv <- r_iv[[i]]
    if (is.null(iv) || is.na(iv$conf.low)) format_ratio(R[i]) else
      paste0(format_ratio(R[i]), " [", format_fixed(iv$conf.low, 2), ", ", format_fixed(iv$conf.high, 2), "]",
             if (!is.na(iv$caveat)) "*" else "")
  }, character(1))
  lab <- paste0(labels, "  (", r_text, ")")
  lab <- factor(lab, levels = if (first_on_top) rev(lab) else lab)
  kinds <- factor(rep(holdout_styles$data, each = length(lab)), levels = holdout_styles$data)
  points <- data.frame(label = c(lab, lab), value = c(control, train), kind = kinds)
  if (!is.null(group)) points$group <- factor(c(group, group), levels = unique(group))
  arrows <- arrow_segments(lab, control, train)
  if (!is.null(group)) arrows$group <- factor(group[match(arrows$target, lab)], levels = unique(group))
  t_iv <- lapply(labels, function(me) interval_of(intervals$train, me))
  has <- !vapply(t_iv, is.null, logical(1))
  bars <- if (any(has)) {
    b <- data.frame(target = lab[has], low = vapply(t_iv[has], `[[`, 0, "conf.low"),
                    high = vapply(t_iv[has], `[[`, 0, "conf.high"),
                    caveat = vapply(t_iv[has], function(iv) iv$caveat %||% NA_character_, ""))
    if (!is.null(group)) b$group <- factor(group[has], levels = unique(group))
    b
  }
  list(points = points[is.finite(points$value), , drop = FALSE], arrows = arrows, bars = bars)
}

# The measures of the synthetic data that autoplot() shows for one target.
holdout_plot_measures <- function() {
  unique(disclosure_plot_pairs()$synthetic)
}

# "; bars and [ ]: 95% intervals across syntheses" when intervals are drawn.
holdout_interval_note <- function(x, drawn) {
  if (is.null(drawn$bars)) return("")
  method <- if (any(x$intervals$method == "resynthesized")) "resynthesized" else "across syntheses"
  paste0("; bars and [ ]: ", interval_label(x$uncertainty, method), bars_caveat_note(drawn$bars))
}

holdout_plot_disclosure <- function(x) {
  s <- holdout_summary(x$holdout)
  measures <- intersect(holdout_plot_measures(), rownames(s))
  group <- unname(measure_group[measures])
  ord <- order(match(group, unique(measure_registry$group)))
  measures <- measures[ord]
  group <- group[ord]
  drawn <- holdout_points(measures, s[measures, "train"], s[measures, "control"], s[measures, "R"], group,
                          intervals = list(train = x$intervals, R = x$holdout_intervals))
  m <- length(unique(x$holdout$synthesis))
  subtitle <- keys_subtitle(x$keys, paste0("; ", format_count(x$Ncontrol), " control records",
                                           if (m > 1) paste0("; means over ", m, " syntheses, R of the means") else "",
                                           holdout_interval_note(x, drawn)))
  draw_holdout_plot(drawn, paste0("Holdout baseline for ", x$target), subtitle, "Measure (%)", facet = TRUE)
}

holdout_plot_multi <- function(x) {
  measure <- attrib_meas_columns[[x$attrib.meas %||% default_attrib_meas]][2]
  targets <- table_targets(x)
  rows <- lapply(targets, function(tv) holdout_summary(x$holdout[x$holdout$target == tv, , drop = FALSE])[measure, ])
  s <- do.call(rbind, rows)
  per_target <- function(tab) {
    if (is.null(tab)) return(NULL)
    tab <- tab[tab$measure == measure, , drop = FALSE]
    tab$measure <- tab$target
    tab
  }
  drawn <- holdout_points(targets, s$train, s$control, s$R, first_on_top = FALSE,
                          intervals = list(train = per_target(x$intervals), R = per_target(x$holdout_intervals)))
  m <- x$m %||% 1
  subtitle <- keys_subtitle(x$keys, paste0("; ", format_count(x$Ncontrol), " control records",
                                           if (m > 1) paste0("; means over ", m, " syntheses, R of the means") else "",
                                           holdout_interval_note(x, drawn)))
  draw_holdout_plot(drawn, paste0("Holdout baseline: ", measure, " by target"), subtitle,
                    paste0(measure, " (%)"), facet = FALSE)
}

draw_holdout_plot <- function(drawn, title, subtitle, x_title, facet) {
  p <- ggplot2::ggplot(drawn$points, ggplot2::aes(x = .data$value, y = .data$label, colour = .data$kind,
                                                  shape = .data$kind, size = .data$kind)) +
    ggplot2::geom_blank() +
    ggplot2::geom_segment(data = drawn$arrows, ggplot2::aes(x = .data$from, xend = .data$to, y = .data$target,
                                                            yend = .data$target),
                          colour = "grey50", linewidth = 0.5, inherit.aes = FALSE,
                          arrow = grid::arrow(length = grid::unit(0.14, "cm"), type = "closed")) +
    interval_bars(drawn$bars) +
    ggplot2::geom_point(stroke = 1) +
    point_scales(holdout_styles$data, holdout_styles) +
    percent_axis(x_title) +
    ggplot2::labs(y = NULL, title = title, subtitle = subtitle) +
    plot_theme("bottom")
  if (facet) {
    p <- p + ggplot2::facet_grid(rows = ggplot2::vars(.data$group), scales = "free_y", space = "free_y") +
      ggplot2::theme(strip.text.y = ggplot2::element_text(angle = 0, hjust = 0, face = "bold"),
                     panel.spacing.y = grid::unit(6, "pt"))
  }
  p
}
