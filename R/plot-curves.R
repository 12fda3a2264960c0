# ggplot2 pictures of the curves. Okabe-Ito colours throughout (told apart by
# colour-blind readers); line types carry the second distinction.

okabe_ito <- c("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")

# Targets drawn in one panel, one colour each; more targets get a panel each.
tau_targets_in_one_panel <- 5

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
#' @name autoplot.tau_curve
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' tc <- tau_curve(sd2011_synds5, sd2011, keys = keys, targets = c("depress", "workab"))
#' autoplot(tc)
#' sc <- size_curve(sd2011_synds5, sd2011, keys = keys, targets = "depress", reps = 2, seed = 1)
#' autoplot(sc)
NULL

#' @rdname autoplot.tau_curve
#' @export
autoplot.tau_curve <- function(object, ...) {
  rlang::check_dots_empty()
  x <- as.data.frame(unclass(object), stringsAsFactors = FALSE)
  m <- attr(object, "m") %||% length(unique(x$synthesis))
  targets <- unique(x$target)
  curves <- rbind(
    stats::aggregate(synthetic ~ target + tau, data = x, FUN = mean) |> stats::setNames(c("target", "tau", "value")) |>
      transform(data = "synthetic"),
    stats::aggregate(original ~ target + tau, data = x, FUN = mean) |> stats::setNames(c("target", "tau", "value")) |>
      transform(data = "original")
  )
  meas <- attr(object, "measures")
  marks <- if (!is.null(meas)) {
    means <- stats::aggregate(cbind(DCAPd, DiSCO) ~ target, data = meas, FUN = mean)
    rbind(data.frame(target = means$target, tau = 0, value = means$DCAPd, mark = "DCAPd (at tau = 0)"),
          data.frame(target = means$target, tau = 1, value = means$DiSCO, mark = "DiSCO (at tau = 1)"))
  }
  data_labels <- c(synthetic = if (m > 1) "synthetic (mean)" else "synthetic", original = "original")
  curves$data <- factor(data_labels[curves$data], levels = data_labels)
  subtitle <- keys_subtitle(attr(object, "keys"), if (m > 1) paste0("; means over ", m, " syntheses") else "")
  draw_tau_plot(curves, marks, targets, subtitle)
}

draw_tau_plot <- function(curves, marks, targets, subtitle) {
  one_panel <- length(targets) <= tau_targets_in_one_panel
  curves$target <- factor(curves$target, levels = targets)
  # One panel: a colour per target; a panel per target: vermillion synthetic, blue original
  # (as the other plots of the package).
  line_aes <- if (one_panel) {
    ggplot2::aes(x = .data$tau, y = .data$value, colour = .data$target, linetype = .data$data,
                 group = interaction(.data$target, .data$data))
  } else {
    ggplot2::aes(x = .data$tau, y = .data$value, colour = .data$data, linetype = .data$data, group = .data$data)
  }
  p <- ggplot2::ggplot(curves, line_aes) + ggplot2::geom_line(linewidth = 0.7) +
    ggplot2::scale_linetype_manual(values = c("solid", "22"), name = NULL, guide = ggplot2::guide_legend(order = 2))
  p <- p + if (one_panel) {
    ggplot2::scale_colour_manual(values = stats::setNames(okabe_ito[seq_along(targets)], targets), name = NULL,
                                 guide = ggplot2::guide_legend(order = 1))
  } else {
    ggplot2::scale_colour_manual(values = stats::setNames(okabe_ito[2:1], levels(curves$data)), name = NULL)
  }
  if (!is.null(marks) && nrow(marks) > 0) {
    marks$target <- factor(marks$target, levels = targets)
    marks$mark <- factor(marks$mark, levels = c("DCAPd (at tau = 0)", "DiSCO (at tau = 1)"))
    points <- if (one_panel) {
      ggplot2::geom_point(data = marks, ggplot2::aes(x = .data$tau, y = .data$value, shape = .data$mark,
                                                     colour = .data$target),
                          inherit.aes = FALSE, size = 2.4, stroke = 1)
    } else {
      ggplot2::geom_point(data = marks, ggplot2::aes(x = .data$tau, y = .data$value, shape = .data$mark),
                          inherit.aes = FALSE, size = 2.4, stroke = 1, colour = okabe_ito[2])
    }
    p <- p + points + ggplot2::scale_shape_manual(values = c(1, 16), name = NULL, guide = ggplot2::guide_legend(order = 3))
  }
  if (!one_panel) p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$target))
  p +
    (if (one_panel) {
      ggplot2::scale_x_continuous(breaks = seq(0, 1, 0.25), labels = c("0", "0.25", "0.5", "0.75", "1"),
                                  expand = ggplot2::expansion(add = 0.04))
    } else {
      ggplot2::scale_x_continuous(breaks = c(0, 0.5, 1), labels = c("0", "0.5", "1"),
                                  expand = ggplot2::expansion(add = 0.06))
    }) +
    ggplot2::scale_y_continuous(limits = c(0, NA), expand = ggplot2::expansion(mult = c(0.02, 0.06))) +
    ggplot2::labs(x = "tau (threshold on the synthetic share)", y = "Disclosure (%)",
                  title = "Attribute disclosure by threshold tau", subtitle = subtitle) +
    curve_legend_theme()
}

#' @rdname autoplot.tau_curve
#' @export
autoplot.size_curve <- function(object, ...) {
  rlang::check_dots_empty()
  s <- summary.size_curve(object)
  m <- attr(object, "m") %||% 1
  reps <- attr(object, "reps") %||% 1
  reg <- measure_registry[!duplicated(measure_registry$measure), ]
  info <- reg[match(s$measure, reg$measure), ]
  # A measure without a numerator/denominator (the baseline baseCAPd) stands for itself.
  s$numerator <- ifelse(is.na(info$numerator), s$measure, info$numerator)
  s$denominator <- ifelse(is.na(info$denominator), s$measure, info$denominator)
  s <- s[is.finite(s$mean), , drop = FALSE]
  measures <- unique(s$measure)
  # Each legend entry names the measures it marks.
  label_of <- function(symbol, column) {
    used <- unique(s[c("measure", column)])
    paste0(symbol, ": ", vapply(symbol, function(v) paste(used$measure[used[[column]] == v], collapse = ", "), ""))
  }
  nums <- unique(c(intersect(c("C", "K"), s$numerator), s$numerator))
  dens <- unique(c(intersect(c("Nd", "Ns", "Nb", "DiS"), s$denominator), s$denominator))
  s$numerator <- factor(label_of(s$numerator, "numerator"), levels = label_of(nums, "numerator"))
  s$denominator <- factor(label_of(s$denominator, "denominator"), levels = label_of(dens, "denominator"))
  s$target <- factor(s$target, levels = unique(s$target))
  linetypes <- c("solid", "22", "42", "13", "F2", "4C88C488")[seq_along(nums)]
  colours <- okabe_ito[c(1:4, 5:8)][seq_along(dens)]
  note <- if (m > 1) paste0("; ", m, " syntheses x ", reps, " repeats") else paste0("; ", reps, " repeats")
  ggplot2::ggplot(s, ggplot2::aes(x = .data$size, y = .data$mean, linetype = .data$numerator,
                                  colour = .data$denominator, group = .data$measure)) +
    ggplot2::geom_line(linewidth = 0.7) +
    ggplot2::facet_wrap(ggplot2::vars(.data$target)) +
    ggplot2::scale_linetype_manual(values = linetypes, name = "Numerator", drop = FALSE,
                                   guide = ggplot2::guide_legend(order = 1)) +
    ggplot2::scale_colour_manual(values = colours, name = "Denominator", drop = FALSE,
                                 guide = ggplot2::guide_legend(order = 2)) +
    ggplot2::scale_x_continuous(n.breaks = 4,
                                labels = function(b) format(b, big.mark = ",", scientific = FALSE, trim = TRUE)) +
    ggplot2::scale_y_continuous(limits = c(0, NA), expand = ggplot2::expansion(mult = c(0.02, 0.06))) +
    ggplot2::labs(x = "Records in the synthetic subsample", y = "Measure (%)",
                  title = "Measures by size of the synthetic data",
                  subtitle = keys_subtitle(attr(object, "keys"), note)) +
    curve_legend_theme()
}

# The curves' legends stand on the right, one guide under the other, in small type.
curve_legend_theme <- function() {
  list(plot_theme("right"),
       ggplot2::theme(legend.box = "vertical", legend.box.just = "left",
                      legend.spacing.y = grid::unit(4, "pt"), legend.key.width = grid::unit(20, "pt"),
                      legend.key.height = grid::unit(11, "pt"), legend.text = ggplot2::element_text(size = 8.5),
                      legend.title = ggplot2::element_text(size = 9),
                      strip.text = ggplot2::element_text(face = "bold", hjust = 0)))
}

#' @rdname autoplot.tau_curve
#' @param x A `tau_curve` or `size_curve`.
#' @export
plot.tau_curve <- function(x, ...) {
  print(autoplot.tau_curve(x, ...))
  invisible(x)
}

#' @rdname autoplot.tau_curve
#' @export
plot.size_curve <- function(x, ...) {
  print(autoplot.size_curve(x, ...))
  invisible(x)
}
