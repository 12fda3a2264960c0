# What every ggplot2 picture of the package shares: Okabe-Ito colours (told apart by
# colour-blind readers), the original as a ring and the synthetic as a dot, percent
# axes, subtitles naming the keys, and arrows from one point to the other.

# Original and synthetic differ by colour (Okabe-Ito blue and vermillion, told apart by
# colour-blind readers) and by shape: the original is a large ring, the synthetic a
# smaller dot drawn on top, so both stay visible when the two measures are equal.
point_styles <- data.frame(
  data = c("original", "synthetic", "each synthesis", "released together"),
  colour = c("#0072B2", "#D55E00", "#D55E00", "#009E73"),
  shape = c(1, 16, 124, 17),
  size = c(3.6, 2.2, 3.4, 2.4),
  stringsAsFactors = FALSE
)

# A legend of several entries in `n` rows (so that it fits a 5-inch figure), filled
# column by column: ggplot2 3.4 spaces rows filled row by row far apart.
legend_rows <- function(n) {
  ggplot2::guides(colour = ggplot2::guide_legend(nrow = n),
                  shape = ggplot2::guide_legend(nrow = n),
                  size = ggplot2::guide_legend(nrow = n))
}

# Intervals of the synthetic measure as horizontal error bars (vermillion, thin); those
# with a caveat (`caveat` not NA: they may cover less often than their level) dashed.
interval_bars <- function(bars) {
  if (is.null(bars) || nrow(bars) == 0) return(NULL)
  doubtful <- if (is.null(bars$caveat)) rep(FALSE, nrow(bars)) else !is.na(bars$caveat)
  layer <- function(rows, linetype) {
    if (!any(rows)) return(NULL)
    ggplot2::geom_errorbar(data = bars[rows, , drop = FALSE],
                           ggplot2::aes(xmin = .data$low, xmax = .data$high, y = .data$target), inherit.aes = FALSE,
                           orientation = "y", width = 0.35, colour = "#D55E00", linewidth = 0.45, linetype = linetype)
  }
  list(layer(!doubtful, "solid"), layer(doubtful, "22"))
}

# "; dashed: may cover less often" when a drawn interval has a caveat.
bars_caveat_note <- function(bars) {
  if (is.null(bars$caveat) || all(is.na(bars$caveat))) "" else " (dashed: may cover less often)"
}

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

# Arrows from the edge of the ring to the edge of the dot (gaps in x units, sized for
# figures 4 to 8 inches wide); none where the two points nearly touch.
arrow_segments <- function(target, orig, syn, start_gap = 2.4, end_gap = 1.9, shortest = 3) {
  direction <- sign(syn - orig)
  from <- orig + direction * start_gap
  to <- syn - direction * end_gap
  keep <- is.finite(orig) & is.finite(syn) & abs(to - from) >= shortest & direction * (to - from) > 0
  data.frame(target = target[keep], from = from[keep], to = to[keep])
}

okabe_ito <- c("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")

# The curves' legends stand on the right, one guide under the other, in small type.
curve_legend_theme <- function() {
  list(plot_theme("right"),
       ggplot2::theme(legend.box = "vertical", legend.box.just = "left",
                      legend.spacing.y = grid::unit(4, "pt"), legend.key.width = grid::unit(20, "pt"),
                      legend.key.height = grid::unit(11, "pt"), legend.text = ggplot2::element_text(size = 8.5),
                      legend.title = ggplot2::element_text(size = 9),
                      strip.text = ggplot2::element_text(face = "bold", hjust = 0)))
}
