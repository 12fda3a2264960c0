# Pictures of the holdout baseline: per row, a measure with the control records as the
# original (ring, the baseline) and with the records used for synthesis (dot), an arrow
# from control to train, and R in the row's label.

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
holdout_points <- function(labels, train, control, R, group = NULL, first_on_top = TRUE) {
  lab <- paste0(labels, "  (", format_ratio(R), ")")
  lab <- factor(lab, levels = if (first_on_top) rev(lab) else lab)
  kinds <- factor(rep(holdout_styles$data, each = length(lab)), levels = holdout_styles$data)
  points <- data.frame(label = c(lab, lab), value = c(control, train), kind = kinds)
  if (!is.null(group)) points$group <- factor(c(group, group), levels = unique(group))
  arrows <- arrow_segments(lab, control, train)
  if (!is.null(group)) arrows$group <- factor(group[match(arrows$target, lab)], levels = unique(group))
  list(points = points[is.finite(points$value), , drop = FALSE], arrows = arrows)
}

# The measures of the synthetic data that autoplot() shows for one target.
holdout_plot_measures <- function() {
  unique(disclosure_plot_pairs()$synthetic)
}

holdout_plot_disclosure <- function(x) {
  s <- holdout_summary(x$holdout)
  measures <- intersect(holdout_plot_measures(), rownames(s))
  group <- unname(measure_group[measures])
  ord <- order(match(group, unique(measure_registry$group)))
  measures <- measures[ord]
  group <- group[ord]
  drawn <- holdout_points(measures, s[measures, "train"], s[measures, "control"], s[measures, "R"], group)
  m <- length(unique(x$holdout$synthesis))
  subtitle <- keys_subtitle(x$keys, paste0("; ", x$Ncontrol, " control records",
                                           if (m > 1) paste0("; means over ", m, " syntheses, R of the means") else ""))
  draw_holdout_plot(drawn, paste0("Holdout baseline for ", x$target), subtitle, "Measure (%)", facet = TRUE)
}

holdout_plot_multi <- function(x) {
  measure <- attrib_meas_columns[[x$attrib.meas %||% default_attrib_meas]][2]
  targets <- table_targets(x)
  rows <- lapply(targets, function(tv) holdout_summary(x$holdout[x$holdout$target == tv, , drop = FALSE])[measure, ])
  s <- do.call(rbind, rows)
  drawn <- holdout_points(targets, s$train, s$control, s$R, first_on_top = FALSE)
  m <- x$m %||% 1
  subtitle <- keys_subtitle(x$keys, paste0("; ", x$Ncontrol, " control records",
                                           if (m > 1) paste0("; means over ", m, " syntheses, R of the means") else ""))
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
