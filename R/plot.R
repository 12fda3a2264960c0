# ggplot2 pictures of the measures. Each picture is a function of the object alone, so
# it can be drawn for objects made by synthpop (which keep no plot) and rebuilt at any time.

# Original and synthetic differ by colour (Okabe-Ito blue and vermillion, told apart by
# colour-blind readers) and by shape: the original is a large ring, the synthetic a
# smaller dot drawn on top, so both stay visible when the two measures are equal.
point_styles <- data.frame(
  data = c("original", "synthetic", "each synthesis"),
  colour = c("#0072B2", "#D55E00", "#D55E00"),
  shape = c(1, 16, 124),
  size = c(3.6, 2.2, 3.4),
  stringsAsFactors = FALSE
)

# The x axis runs from 0 to 100 % with room beyond both ends for a whole point.
percent_axis <- function(title) {
  list(ggplot2::scale_x_continuous(breaks = seq(0, 100, 20), expand = ggplot2::expansion(add = 5)),
       ggplot2::coord_cartesian(xlim = c(0, 100)),
       ggplot2::labs(x = title))
}

# Colour, shape and size share one legend whose keys are drawn as the points are.
point_scales <- function(legend_labels, styles) {
  values <- function(column) stats::setNames(styles[[column]], legend_labels)
  list(ggplot2::scale_colour_manual(values = values("colour"), breaks = legend_labels, name = NULL),
       ggplot2::scale_shape_manual(values = values("shape"), breaks = legend_labels, name = NULL),
       ggplot2::scale_size_manual(values = values("size"), breaks = legend_labels, name = NULL))
}

plot_theme <- function(legend_position) {
  list(ggplot2::theme_minimal(base_size = 11),
       # A bottom legend ends at the panel's right edge, never past the figure's.
       ggplot2::theme(legend.position = legend_position, legend.justification = "right",
                      plot.title.position = "plot",
                      plot.title = ggplot2::element_text(face = "bold"),
                      plot.subtitle = ggplot2::element_text(colour = "grey25"),
                      axis.text.y = ggplot2::element_text(colour = "grey10"),
                      panel.grid.minor = ggplot2::element_blank(),
                      legend.margin = ggplot2::margin(0, 0, 0, 0),
                      legend.box.spacing = grid::unit(4, "pt")))
}

# Long subtitles go on several lines rather than past the edge of a small figure.
wrap_subtitle <- function(text, width = 64) {
  paste(strwrap(text, width = width), collapse = "\n")
}

keys_subtitle <- function(keys, syntheses_note) {
  wrap_subtitle(paste0("Keys: ", paste(keys, collapse = ", "), syntheses_note))
}

check_labels <- function(check1, check2) {
  ifelse(nzchar(check1) & nzchar(check2), "(1- & 2-way checks)",
         ifelse(nzchar(check1), "(1-way check)", ifelse(nzchar(check2), "(2-way checks)", "")))
}

# A target's label with its check flag, the flag on a second line when the name is long.
target_labels <- function(targets, check1, check2) {
  flags <- check_labels(check1, check2)
  sep <- ifelse(nchar(targets) + nchar(flags) > 30, "\n", " ")
  ifelse(nzchar(flags), paste0(targets, sep, flags), targets)
}

# Targets of a multi.disclosure in the order of its attrib.table (synthpop's objects
# have only the row names "<rank> <target>[ <flags>]").
table_targets <- function(x) {
  known <- attr(x$attrib.table, "targets")
  if (!is.null(known)) return(known)
  rn <- rownames(x$attrib.table)
  rn <- sub("^[0-9]+ ", "", rn)
  sub(" (1way|2way|1&2way) checks$", "", rn)
}

# The attribute plot of a multi.disclosure: per target, the original measure (ring),
# the synthetic one (dot, the mean over syntheses) and an arrow from one to the other.
attrib_plot <- function(x) {
  tab <- x$attrib.table
  cols <- attrib_meas_columns[[x$attrib.meas %||% default_attrib_meas]]
  m <- x$m %||% 1
  labels <- target_labels(table_targets(x), tab$check1, tab$check2)
  legend_labels <- c(paste0("original (", cols[1], ")"),
                     paste0("synthetic (", cols[2], if (m > 1) ", mean" else "", ")"))
  target <- factor(labels, levels = labels)
  points <- data.frame(target = c(target, target), value = c(tab$attrib.orig, tab$attrib.syn),
                       data = factor(rep(legend_labels, each = nrow(tab)), levels = legend_labels))
  # synthpop's objects hold NA for measures it could not compute (e.g. DiSDiO).
  points <- points[is.finite(points$value), , drop = FALSE]
  arrows <- arrow_segments(target, tab$attrib.orig, tab$attrib.syn)
  subtitle <- keys_subtitle(x$keys, if (m > 1) paste0("; means over ", m, " syntheses") else "")
  if (!any(is.finite(tab$attrib.orig))) subtitle <- paste0(subtitle, "\nNo original ", cols[1], " in this object")
  draw_attrib_plot(points, arrows, legend_labels, subtitle)
}

# Arrows from the edge of the ring to the edge of the dot (gaps in x units, sized for
# figures 4 to 8 inches wide); none where the two points nearly touch.
arrow_segments <- function(target, orig, syn, start_gap = 2.4, end_gap = 1.9, shortest = 3) {
  direction <- sign(syn - orig)
  from <- orig + direction * start_gap
  to <- syn - direction * end_gap
  keep <- is.finite(orig) & is.finite(syn) & abs(to - from) >= shortest & direction * (to - from) > 0
  data.frame(target = target[keep], from = from[keep], to = to[keep])
}

# Kept apart from attrib_plot() so that the plot's environment holds only its data.
draw_attrib_plot <- function(points, arrows, legend_labels, subtitle) {
  # geom_blank() first: the rows take the order of the targets, not of the first layer.
  ggplot2::ggplot(points, ggplot2::aes(x = .data$value, y = .data$target)) +
    ggplot2::geom_blank() +
    ggplot2::geom_segment(data = arrows, ggplot2::aes(x = .data$from, xend = .data$to, y = .data$target,
                                                      yend = .data$target),
                          colour = "grey50", linewidth = 0.5,
                          arrow = grid::arrow(length = grid::unit(0.14, "cm"), type = "closed")) +
    ggplot2::geom_point(ggplot2::aes(colour = .data$data, shape = .data$data, size = .data$data), stroke = 1) +
    point_scales(legend_labels, point_styles[1:2, ]) +
    percent_axis("Attribute disclosure (%)") +
    ggplot2::labs(y = NULL, title = "Attribute disclosure by target", subtitle = subtitle) +
    plot_theme("bottom")
}

# The pairs autoplot() shows for one target: the original measure and the synthetic
# measure that multi.disclosure() can summarise (its ident.meas and attrib.meas).
disclosure_plot_pairs <- function() {
  pairs <- rbind(data.frame(original = ident_orig_measure, synthetic = unname(ident_meas_columns[1:2]), component = "ident"),
                 data.frame(original = vapply(attrib_meas_columns, `[`, "", 1),
                            synthetic = vapply(attrib_meas_columns, `[`, "", 2), component = "attrib"))
  # The group is the one the registry gives the synthetic measure (DCAPd: CAP).
  cap <- pairs$synthetic %in% measure_registry$measure[measure_registry$component == "allCAPs"]
  pairs$component[cap] <- "allCAPs"
  info <- measure_registry[match(paste(pairs$component, pairs$synthetic),
                                 paste(measure_registry$component, measure_registry$measure)), ]
  pairs$group <- info$group
  rownames(pairs) <- NULL
  pairs
}

# A measure's values (one per synthesis) from whichever component holds it, else
# under its alias (synthpop 1.9-3's objects name DCAPd "DCAP"). NULL when the object
# has neither.
measure_values <- function(x, measure) {
  for (component in c("ident", "attrib", "allCAPs")) {
    if (measure %in% names(x[[component]])) return(x[[component]][[measure]])
  }
  other <- alias_of(measure)
  for (component in c("ident", "attrib", "allCAPs")) {
    if (!is.na(other) && other %in% names(x[[component]])) return(x[[component]][[other]])
  }
  NULL
}

# Per pair: the original measure, the synthetic measure of each synthesis and their mean.
disclosure_plot_data <- function(x) {
  pairs <- disclosure_plot_pairs()
  rows <- lapply(seq_len(nrow(pairs)), function(i) {
    orig <- measure_values(x, pairs$original[i])
    syn <- measure_values(x, pairs$synthetic[i])
    if (is.null(orig) || is.null(syn)) return(NULL)
    data.frame(group = pairs$group[i], label = paste(pairs$original[i], "->", pairs$synthetic[i]),
               synthesis = seq_along(syn), orig = mean(orig), syn = syn, stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  out$label <- factor(out$label, levels = rev(unique(out$label)))
  out$group <- factor(out$group, levels = unique(out$group))
  out
}

#' Plot disclosure measures with ggplot2
#'
#' For a `multi.disclosure`, one row per target (ordered as `attrib.table`, flagged
#' when checks are needed): the attribute measure in the original data, the mean of
#' the synthetic measure over syntheses and an arrow from one to the other (the synthpop
#' vignette's Figure 1; the measures are those of `attrib.meas`). For a `disclosure`,
#' the same picture for each pair of original and synthetic measures that
#' `multi.disclosure()` can summarise (`UiO` to `repU` and `UiOiS`; `Dorig` to `DiSCO`,
#' `DiSDiO` and `TCAP`; `CAPd` to `DCAPd`), with a tick for each synthesis; all
#' measures are in [tidy.disclosure()].
#'
#' The original is a blue ring, the synthetic a smaller vermillion dot (Okabe-Ito
#' colours, told apart by colour-blind readers and in grey print), so a dot inside a
#' ring shows two equal measures. The x axis runs from 0 to 100 % with room for whole
#' points at both ends, and the plots fit figures from 5 x 3 inches up. They are built
#' from the object alone, so they work for objects made by synthpop 1.9-3 too
#' (measures synthpop left `NA`, such as the original `DiSDiO`, are not drawn).
#'
#' With `type = "holdout"` (objects made with `control`, see [disclosure()]): the
#' holdout baseline. For a `disclosure`, each measure of the synthetic data above with
#' the control records as the original (blue ring) and with the records used for
#' synthesis (vermillion dot), an arrow from control to train, and R in the row's
#' label; for a `multi.disclosure`, the same for the synthetic measure of
#' `attrib.meas`, one row per target. With m > 1 the points are means over the
#' syntheses and R is that of the means.
#'
#' @param object,x A `disclosure` or `multi.disclosure` object (from synthrisk or
#'   synthpop).
#' @param type `"measures"` (default) or `"holdout"`.
#' @param ... Unused.
#' @return A ggplot (`autoplot()`); `plot()` draws it and returns `x` invisibly.
#' @seealso [tidy.disclosure()] for the numbers behind the plots.
#' @name autoplot.disclosure
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' d <- disclosure(sd2011_synds5, sd2011, keys = keys, target = "depress", print.flag = FALSE)
#' autoplot(d)
#'
#' md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys, ngroups_targets = c(income = 20),
#'                        print.flag = FALSE, plot = FALSE)
#' autoplot(md)
#' plot(md)
#'
#' # Holdout baseline (sd2011_synds5 was made from all of sd2011, so these control
#' # records were used too; with a real holdout they would not have been)
#' parts <- holdout_split(sd2011, prop = 0.5, seed = 1)
#' dh <- disclosure(sd2011_synds5, parts$train, keys = keys, target = "depress",
#'                  print.flag = FALSE, control = parts$control)
#' autoplot(dh, type = "holdout")
NULL

#' @rdname autoplot.disclosure
#' @export
autoplot.multi.disclosure <- function(object, type = "measures", ...) {
  rlang::check_dots_empty()
  if (check_plot_type(type, rlang::current_env()) == "holdout") {
    require_holdout(object, rlang::current_env())
    return(holdout_plot_multi(object))
  }
  attrib_plot(object)
}

#' @rdname autoplot.disclosure
#' @export
autoplot.disclosure <- function(object, type = "measures", ...) {
  rlang::check_dots_empty()
  if (check_plot_type(type, rlang::current_env()) == "holdout") {
    require_holdout(object, rlang::current_env())
    return(holdout_plot_disclosure(object))
  }
  values <- disclosure_plot_data(object)
  m <- max(values$synthesis)
  legend_labels <- c("original", if (m > 1) c("synthetic: mean", "synthetic: each") else "synthetic")
  means <- stats::aggregate(syn ~ label + group + orig, data = values, FUN = mean)
  means <- means[order(means$label), , drop = FALSE]
  levels <- legend_labels[1:2]
  points <- data.frame(label = c(means$label, means$label), group = c(means$group, means$group),
                       value = c(means$orig, means$syn),
                       kind = factor(rep(levels, each = nrow(means)), levels = legend_labels))
  # Ticks of the single syntheses go under the points.
  each <- if (m > 1) data.frame(label = values$label, group = values$group, value = values$syn,
                                kind = factor("synthetic: each", levels = legend_labels))
  points <- points[is.finite(points$value), , drop = FALSE]
  arrows <- arrow_segments(means$label, means$orig, means$syn)
  arrows$group <- means$group[match(arrows$target, means$label)]
  subtitle <- keys_subtitle(object$keys, if (m > 1) paste0("; means over ", m, " syntheses") else "")
  draw_disclosure_plot(points, each, arrows, legend_labels, object$target, subtitle)
}

draw_disclosure_plot <- function(points, each, arrows, legend_labels, target, subtitle) {
  point <- ggplot2::aes(x = .data$value, y = .data$label, colour = .data$kind, shape = .data$kind,
                        size = .data$kind)
  ticks <- if (!is.null(each)) ggplot2::geom_point(data = each, stroke = 1)
  ggplot2::ggplot(points, point) +
    ggplot2::geom_blank() +
    ggplot2::geom_segment(data = arrows, ggplot2::aes(x = .data$from, xend = .data$to, y = .data$target,
                                                      yend = .data$target),
                          colour = "grey50", linewidth = 0.5, inherit.aes = FALSE,
                          arrow = grid::arrow(length = grid::unit(0.14, "cm"), type = "closed")) +
    ticks +
    ggplot2::geom_point(stroke = 1) +
    ggplot2::facet_grid(rows = ggplot2::vars(.data$group), scales = "free_y", space = "free_y") +
    point_scales(legend_labels, point_styles[seq_along(legend_labels), ]) +
    percent_axis("Measure (%)") +
    ggplot2::labs(y = NULL, title = paste0("Disclosure measures for ", target), subtitle = subtitle) +
    plot_theme("bottom") +
    ggplot2::theme(strip.text.y = ggplot2::element_text(angle = 0, hjust = 0, face = "bold"),
                   panel.spacing.y = grid::unit(6, "pt"))
}

#' @rdname autoplot.disclosure
#' @export
plot.synthrisk_disclosure <- function(x, ...) {
  print(autoplot.disclosure(x, ...))
  invisible(x)
}

#' @rdname autoplot.disclosure
#' @export
plot.synthrisk_multi.disclosure <- function(x, ...) {
  print(autoplot.multi.disclosure(x, ...))
  invisible(x)
}

#' @importFrom ggplot2 autoplot
#' @export
ggplot2::autoplot

#' @importFrom rlang .data %||%
NULL
