# Layout checks of ggplots shared by the plot tests: ink on the border of a drawn figure,
# grobs that do not fit a figure of a given size, and drawing at a given size for vdiffr.

# Layout checks: does a ggplot fit a figure of width x height inches?

# The pixels of an 8- or 24-bit BMP as a matrix of "#RRGGBB", top row first.
read_bmp <- function(path) {
  bytes <- readBin(path, "raw", file.size(path))
  int_at <- function(offset, size) readBin(bytes[offset + seq_len(size)], "integer", size = size, endian = "little")
  data_offset <- int_at(10, 4)
  width <- int_at(18, 4)
  height <- int_at(22, 4)
  bits <- int_at(28, 2)
  stopifnot(bits %in% c(8, 24), height > 0)
  row_bytes <- 4 * ceiling(width * bits / 32)
  pixels <- matrix("", height, width)
  hex <- function(b, g, r) sprintf("#%02X%02X%02X", as.integer(r), as.integer(g), as.integer(b))
  palette <- if (bits == 8) {
    p <- matrix(as.integer(bytes[54 + seq_len(4 * 256)]), nrow = 4)
    hex(p[1, ], p[2, ], p[3, ])
  }
  for (row in seq_len(height)) {
    start <- data_offset + (row - 1) * row_bytes
    if (bits == 8) {
      line <- palette[as.integer(bytes[start + seq_len(width)]) + 1]
    } else {
      v <- matrix(as.integer(bytes[start + seq_len(3 * width)]), nrow = 3)
      line <- hex(v[1, ], v[2, ], v[3, ])
    }
    pixels[height - row + 1, ] <- line
  }
  pixels
}

# Whether anything is drawn on the outermost pixels of the figure: ink there is cut off.
ink_on_border <- function(plot, width, height, res = 100) {
  path <- tempfile(fileext = ".bmp")
  on.exit(unlink(path))
  grDevices::bmp(path, width = width, height = height, units = "in", res = res, type = "cairo", bg = "white")
  print(plot)
  grDevices::dev.off()
  px <- read_bmp(path)
  border <- c(px[1, ], px[nrow(px), ], px[, 1], px[, ncol(px)])
  sum(border != "#FFFFFF")
}

# The size a grob needs; for ggplot's titles (whose width is "1null") that of their text.
natural_size <- function(grob, measure, convert) {
  if (inherits(grob, "titleGrob")) {
    texts <- Filter(function(child) inherits(child, "text"), grob$children)
    return(max(vapply(texts, function(t) convert(measure(t), "in", valueOnly = TRUE), numeric(1)),
               convert(measure(grob), "in", valueOnly = TRUE)))
  }
  convert(measure(grob), "in", valueOnly = TRUE)
}

legend_hjust <- function(theme) {
  just <- ggplot2::calc_element("legend.justification", theme)
  if (is.numeric(just)) return(just[1])
  c(left = 0, center = 0.5, right = 1)[[just[1]]]
}

# Lengths of the cells of a gtable (widths or heights) in inches on the open device:
# null units share what the fixed ones leave.
resolve_lengths <- function(lengths, total, convert) {
  fixed <- convert(lengths, "in", valueOnly = TRUE)
  is_null <- grid::unitType(lengths) == "null"
  out <- fixed
  out[is_null] <- (total - sum(fixed[!is_null])) * as.numeric(lengths[is_null]) / sum(as.numeric(lengths[is_null]))
  out
}

# What does not fit in a figure of width x height inches: a character vector of
# problems (empty when all fits). Every titled, labelled or legend grob must fit in its
# cells (the bottom legend, right-justified, within the figure); every panel keeps at
# least min_panel inches; the panels' row labels do not overlap; the largest point
# is whole at both ends of the x axis.
layout_problems <- function(plot, width, height, min_panel = 1, point_size = 3.6, point_stroke = 1, x_ends = c(0, 100)) {
  grDevices::pdf(NULL, width = width, height = height)
  on.exit(grDevices::dev.off())
  gt <- ggplot2::ggplotGrob(plot)
  theme <- ggplot2::theme_get() + plot$theme
  widths <- resolve_lengths(gt$widths, width, grid::convertWidth)
  heights <- resolve_lengths(gt$heights, height, grid::convertHeight)
  problems <- character()
  if (any(widths < -1e-9) || sum(widths) > width + 1e-9) problems <- c(problems, "columns wider than the figure")
  if (any(heights < -1e-9) || sum(heights) > height + 1e-9) problems <- c(problems, "rows taller than the figure")
  lay <- gt$layout
  right <- cumsum(widths)
  bottom <- cumsum(heights)
  for (i in seq_len(nrow(lay))) {
    name <- lay$name[i]
    grob <- gt$grobs[[i]]
    span_w <- sum(widths[lay$l[i]:lay$r[i]])
    span_h <- sum(heights[lay$t[i]:lay$b[i]])
    if (grepl("^panel", name)) {
      if (span_w < min_panel || span_h < min_panel / 3) problems <- c(problems, paste(name, "too small"))
      next
    }
    if (inherits(grob, "zeroGrob") || name == "background") next
    need_w <- natural_size(grob, grid::grobWidth, grid::convertWidth)
    need_h <- natural_size(grob, grid::grobHeight, grid::convertHeight)
    across <- grepl("^(axis-[lr]|ylab|strip-[lr])", name) # fills its column: only its width counts
    along <- grepl("^(axis-[tb]|xlab|strip-[tb])", name) # fills its row: only its height counts
    if (grepl("^guide-box", name)) {
      hjust <- legend_hjust(theme)
      left <- c(0, right)[lay$l[i]] + hjust * (span_w - need_w)
      if (left < -1e-9 || left + need_w > width + 1e-9) problems <- c(problems, paste(name, "reaches past the figure"))
    } else if (!along && need_w > span_w + 1e-9) {
      problems <- c(problems, sprintf("%s needs %.2f in, has %.2f in", name, need_w, span_w))
    }
    if (!across && need_h > span_h + 1e-9) {
      problems <- c(problems, sprintf("%s needs %.2f in high, has %.2f in", name, need_h, span_h))
    }
  }
  built <- ggplot2::ggplot_build(plot)
  axis_text <- ggplot2::calc_element("axis.text.y.left", theme)
  panels <- which(grepl("^panel", lay$name))
  for (k in seq_along(built$layout$panel_params)) {
    params <- built$layout$panel_params[[k]]
    labels <- params$y$get_labels()
    line_h <- vapply(labels, function(l) grid::convertHeight(grid::grobHeight(
      grid::textGrob(l, gp = grid::gpar(fontsize = axis_text$size, lineheight = axis_text$lineheight))),
      "in", valueOnly = TRUE), numeric(1))
    panel_h <- sum(heights[lay$t[panels[k]]:lay$b[panels[k]]])
    if (sum(line_h) > panel_h) problems <- c(problems, sprintf("row labels of panel %d overlap", k))
    panel_w <- sum(widths[lay$l[panels[k]]:lay$r[panels[k]]])
    x_range <- params$x$continuous_range
    # A point's radius (R draws a circle of radius 0.375 x font size) plus half its line.
    radius_in <- (0.375 * (point_size * ggplot2::.pt + point_stroke * ggplot2::.stroke / 2) +
                    point_stroke * ggplot2::.stroke / 4) / 72
    radius_x <- radius_in / panel_w * diff(x_range)
    if (x_range[1] > x_ends[1] - radius_x || x_range[2] < x_ends[2] + radius_x) {
      problems <- c(problems, sprintf("points at the ends of the x axis cut by panel %d (x from %.1f to %.1f)", k, x_range[1],
                                      x_range[2]))
    }
  }
  problems
}

# vdiffr draws at 10 x 8 inches; the plot is drawn in a viewport of the figure's size
# that cuts what reaches past it, as a device of that size would, framed in grey.
at_size <- function(plot, width, height) {
  function() {
    grid::grid.newpage()
    grid::pushViewport(grid::viewport(x = 0, y = 1, just = c("left", "top"), width = grid::unit(width, "in"),
                                      height = grid::unit(height, "in"), clip = "on"))
    print(plot, newpage = FALSE)
    grid::grid.rect(gp = grid::gpar(fill = NA, col = "grey70"))
    grid::popViewport()
  }
}
