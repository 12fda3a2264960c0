# ggplot2 pictures of the measures.

check_labels <- function(check1, check2) {
  ifelse(nzchar(check1) & nzchar(check2), " (1- & 2-way checks)",
         ifelse(nzchar(check1), " (1-way check)", ifelse(nzchar(check2), " (2-way checks)", "")))
}

# Targets of a multi.disclosure in the order of its attrib.table.
table_targets <- function(x) {
  known <- attr(x$attrib.table, "targets")
  if (!is.null(known)) return(known)
  rn <- rownames(x$attrib.table)
  rn <- sub("^[0-9]+ ", "", rn)
  sub(" (1way|2way|1&2way) checks$", "", rn)
}

attrib_plot_data <- function(x) {
  tab <- x$attrib.table
  targets <- table_targets(x)
  labels <- paste0(targets, check_labels(tab$check1, tab$check2))
  cols <- attrib_meas_columns[[x$attrib.meas %||% "DiSCO"]]
  data.frame(target = factor(labels, levels = labels), orig = tab$attrib.orig, syn = tab$attrib.syn,
             orig_label = paste("original:", cols[1]), syn_label = paste("synthetic:", cols[2]),
             stringsAsFactors = FALSE)
}

attrib_plot <- function(x) {
  df <- attrib_plot_data(x)
  points <- rbind(data.frame(target = df$target, value = df$orig, measure = df$orig_label),
                  data.frame(target = df$target, value = df$syn, measure = df$syn_label))
  points$measure <- factor(points$measure, levels = c(df$orig_label[1], df$syn_label[1]))
  m <- x$m %||% 1
  subtitle <- paste0("Keys: ", paste(x$keys, collapse = ", "),
                     if (m > 1) paste0("; means over ", m, " syntheses") else "")
  draw_attrib_plot(df, points, subtitle)
}

# Kept apart from attrib_plot() so that the plot's environment holds only its data.
draw_attrib_plot <- function(df, points, subtitle) {
  # The arrow stops at the edge of the synthetic point instead of under it.
  gap <- 1.3
  df$arrow_end <- ifelse(abs(df$orig - df$syn) > 2 * gap, df$syn + sign(df$orig - df$syn) * gap, df$syn)
  ggplot2::ggplot(df) +
    ggplot2::geom_segment(ggplot2::aes(x = .data$orig, xend = .data$arrow_end, y = .data$target, yend = .data$target),
                          colour = "grey45", linewidth = 0.5,
                          arrow = grid::arrow(length = grid::unit(0.18, "cm"), type = "closed")) +
    ggplot2::geom_point(data = points, ggplot2::aes(x = .data$value, y = .data$target, colour = .data$measure),
                        size = 2.6) +
    ggplot2::scale_x_continuous(limits = c(0, 100), breaks = seq(0, 100, 20), expand = ggplot2::expansion(0.01)) +
    ggplot2::scale_colour_manual(values = c("#1b6ca8", "#d1495b")) +
    ggplot2::labs(x = "Attribute disclosure (%)", y = NULL, colour = NULL,
                  title = "Attribute disclosure: original to synthetic", subtitle = subtitle) +
    ggplot2::theme_minimal(base_size = 12) +
    ggplot2::theme(legend.position = "bottom", panel.grid.minor = ggplot2::element_blank())
}

#' Plot disclosure measures with ggplot2
#'
#' For a `multi.disclosure`, the attribute measure of each target in the original
#' and in the synthetic data, an arrow from one to the other, targets ordered by the
#' synthetic measure and flagged when checks are needed (the synthpop vignette's
#' Figure 1). For a `disclosure`, the identity and attribute measures, one point per
#' synthesis and their mean.
#'
#' @param object,x A `disclosure` or `multi.disclosure` object.
#' @param ... Unused.
#' @return A ggplot (`autoplot()`); `plot()` draws it and returns `x` invisibly.
#' @name autoplot.disclosure
#' @examples
#' d <- disclosure(sd2011_synds5, sd2011, keys = c("sex", "age", "region", "placesize"),
#'                 target = "depress")
#' autoplot(d)
NULL

#' @rdname autoplot.disclosure
#' @export
autoplot.multi.disclosure <- function(object, ...) {
  attrib_plot(object)
}

#' @rdname autoplot.disclosure
#' @export
autoplot.disclosure <- function(object, ...) {
  tidy <- as.data.frame(object)
  keep <- c("UiO", "UiS", "UiOiS", "repU", "Dorig", "Dsyn", "iS", "DiS", "DiSCO", "DiSDiO", "DCAPd", "TCAP")
  tidy <- tidy[tidy$measure %in% keep, ]
  tidy$measure <- factor(tidy$measure, levels = rev(keep))
  tidy$group <- factor(tidy$group, levels = c("identity", "attribute", "CAP"))
  means <- stats::aggregate(value ~ measure + group, data = tidy, FUN = mean)
  m <- length(unique(tidy$synthesis))
  p <- ggplot2::ggplot(tidy, ggplot2::aes(x = .data$value, y = .data$measure))
  if (m > 1) {
    p <- p + ggplot2::geom_point(ggplot2::aes(colour = "each synthesis"), alpha = 0.6, size = 1.8) +
      ggplot2::geom_point(data = means, ggplot2::aes(colour = "mean"), shape = 18, size = 3.5)
  } else {
    p <- p + ggplot2::geom_point(ggplot2::aes(colour = "synthesis"), size = 2.5)
  }
  p + ggplot2::facet_grid(rows = ggplot2::vars(.data$group), scales = "free_y", space = "free_y") +
    ggplot2::scale_x_continuous(limits = c(0, 100), breaks = seq(0, 100, 20)) +
    ggplot2::scale_colour_manual(values = c("each synthesis" = "grey50", mean = "#d1495b", synthesis = "#d1495b")) +
    ggplot2::labs(x = "%", y = NULL, colour = NULL, title = paste0("Disclosure measures for ", object$target),
                  subtitle = paste0("Keys: ", paste(object$keys, collapse = ", "),
                                    if (m > 1) paste0("; ", m, " syntheses") else "")) +
    ggplot2::theme_minimal(base_size = 12) +
    ggplot2::theme(legend.position = "bottom")
}

#' @rdname autoplot.disclosure
#' @export
plot.disclosure <- function(x, ...) {
  print(autoplot.disclosure(x, ...))
  invisible(x)
}

#' @rdname autoplot.disclosure
#' @export
plot.multi.disclosure <- function(x, ...) {
  print(autoplot.multi.disclosure(x, ...))
  invisible(x)
}

#' @importFrom ggplot2 autoplot
#' @export
ggplot2::autoplot

#' @importFrom rlang .data %||%
NULL
