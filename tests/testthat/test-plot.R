# The plots: what ggplot2 builds, that nothing is cut at 5 x 3 and 7 x 4 inches, that the
# legend keys are drawn as the points, and vdiffr snapshots of the pictures.

keys4 <- c("sex", "age", "region", "placesize")
okabe_ito <- c(original = "#0072B2", synthetic = "#D55E00")
figure_sizes <- list(c(5, 3), c(7, 4))

sd2011_multi <- function() {
  multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), print.flag = FALSE,
                   plot = FALSE)
}

synthpop_objects <- function() readRDS(test_path("fixtures", "sd2011_synthpop_objects.rds"))

# A multi.disclosure whose table puts points at 0 and 100, equal pairs, long flagged
# names and many keys: the hard cases for the layout.
hard_multi <- function() {
  md <- sd2011_multi()
  tab <- md$attrib.table
  tab$attrib.orig <- c(0, 50, 100, 100, 30)
  tab$attrib.syn <- c(0, 50, 99.5, 100, 60)
  tab$check1 <- c("", "x", "x", "", "")
  tab$check2 <- c("", "3 pairs need checks", "2 pairs need checks", "1 pairs need checks", "")
  attr(tab, "targets") <- c("none", "household_income_per_month_net", "worked_abroad_last_year", "ls", "depress")
  md$attrib.table <- tab
  md$keys <- c("sex", "age_group_in_years", "region_of_residence", "placesize", "education_level", "marital_status")
  md$m <- 25
  md
}

# The layer of a built plot drawn by a geom of the given class, and its data.
layer_data_of <- function(plot, geom) {
  built <- ggplot2::ggplot_build(plot)
  which_layer <- which(vapply(plot$layers, function(l) inherits(l$geom, geom), logical(1)))
  lapply(which_layer, function(i) built$data[[i]])
}


# The point grobs of each legend key, in the order of the legend's entries.
legend_keys <- function(plot) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  gt <- ggplot2::ggplotGrob(plot)
  boxes <- gt$grobs[grepl("^guide-box", gt$layout$name)]
  guides <- unlist(lapply(boxes, function(b) b$grobs[b$layout$name == "guides"]), recursive = FALSE)
  expect_length(guides, 1) # colour, shape and size share one legend
  g <- guides[[1]]
  key <- grepl("^key-[0-9]+-[0-9]+-[0-9]+$", g$layout$name)
  entry <- sub("^key-[0-9]+-([0-9]+)-[0-9]+$", "\\1", g$layout$name[key])
  split(g$grobs[key], factor(entry, levels = unique(entry[order(as.integer(entry))])))
}

expect_keys_match_points <- function(plot, points, labels) {
  keys <- legend_keys(plot)
  expect_length(keys, length(labels))
  for (j in seq_along(labels)) {
    drawn <- points[points$group_label == labels[j], ]
    for (k in keys[[j]]) {
      expect_equal(k$pch, unique(drawn$shape))
      expect_identical(substr(k$gp$col, 1, 7), unique(drawn$colour))
    }
    # The key's largest point is the point itself (its size and line, in points).
    fontsize <- unique(drawn$size * ggplot2::.pt + drawn$stroke * ggplot2::.stroke / 2)
    expect_equal(max(vapply(keys[[j]], function(k) k$gp$fontsize, numeric(1))), fontsize)
  }
}

test_that("the attribute plot has one row per target in table order: ring, dot and an arrow between", {
  md <- sd2011_multi()
  p <- autoplot(md)
  tab <- md$attrib.table
  expect_identical(levels(p$data$target),
                   c("income", "depress", "ls", "marital (2-way checks)", "workab (1- & 2-way checks)"))
  pts <- layer_data_of(p, "GeomPoint")[[1]]
  orig <- pts[pts$colour == okabe_ito[["original"]], ]
  syn <- pts[pts$colour == okabe_ito[["synthetic"]], ]
  expect_equal(orig$x[order(orig$y)], tab$attrib.orig)
  expect_equal(syn$x[order(syn$y)], tab$attrib.syn)
  expect_identical(unique(orig$shape), 1) # ring
  expect_identical(unique(syn$shape), 16) # dot
  expect_true(all(orig$size > syn$size))
  seg <- layer_data_of(p, "GeomSegment")[[1]]
  expect_identical(as.numeric(seg$y), as.numeric(seq_len(nrow(tab))))
  direction <- sign(tab$attrib.syn - tab$attrib.orig)
  expect_identical(sign(seg$xend - seg$x), direction)
  # The arrow starts beyond the ring and stops before the dot, under the points.
  expect_true(all(direction * (seg$x - tab$attrib.orig) >= 2)) # ring radius in x units at 5 in
  expect_true(all(direction * (tab$attrib.syn - seg$xend) >= 1.5))
  layers <- vapply(p$layers, function(l) class(l$geom)[1], "")
  expect_gt(max(which(layers == "GeomPoint")), max(which(layers == "GeomSegment")))
  expect_match(p$labels$x, "(%)", fixed = TRUE)
  expect_match(p$labels$subtitle, "means over 5 syntheses")
  expect_match(p$labels$subtitle, "Keys: sex, age, region, placesize", fixed = TRUE)
  expect_equal(ggplot2::ggplot_build(p)$data, ggplot2::ggplot_build(md$attrib.plot)$data)
})

test_that("an original equal to the synthetic measure stays visible around it", {
  md <- hard_multi()
  p <- autoplot(md)
  pts <- layer_data_of(p, "GeomPoint")[[1]]
  expect_identical(nrow(pts), 10L)
  expect_setequal(pts$x, c(md$attrib.table$attrib.orig, md$attrib.table$attrib.syn))
  seg <- layer_data_of(p, "GeomSegment")[[1]]
  expect_identical(as.numeric(seg$y), 5) # only depress: 30 -> 60; no arrow on the points
  # Radii in points: R draws a circle of 0.375 x its font size; the line adds half its width.
  ring <- pts[pts$shape == 1, ][1, ]
  dot <- pts[pts$shape == 16, ][1, ]
  line_half <- function(p) p$stroke * ggplot2::.stroke / 2 * 72 / 96 / 2
  radius <- function(p) 0.375 * (p$size * ggplot2::.pt + p$stroke * ggplot2::.stroke / 2)
  expect_lt(radius(dot) + line_half(dot), radius(ring) - line_half(ring))
})

test_that("the attribute plot keeps its legend keys, labels and points whole at 5 x 3 and 7 x 4 inches", {
  skip_on_cran()
  for (md in list(sd2011_multi(), hard_multi(), synthpop_objects()$md_s1_repU_DiSDiO)) {
    p <- autoplot(md)
    for (size in figure_sizes) {
      label <- sprintf("%s at %g x %g in", paste(md$keys, collapse = ","), size[1], size[2])
      expect_identical(layout_problems(p, size[1], size[2]), character(), label = label)
      expect_identical(ink_on_border(p, size[1], size[2]), 0L, label = label)
      png_file <- tempfile(fileext = ".png")
      expect_no_warning(ggplot2::ggsave(png_file, p, width = size[1], height = size[2], dpi = 100))
      expect_gt(file.size(png_file), 0)
      unlink(png_file)
    }
  }
})

test_that("the layout checks find a cut title, subtitle, legend, point or squeezed panel", {
  p <- autoplot(sd2011_multi())
  long_title <- p + ggplot2::labs(title = "A title that is much too long for a small figure five inches wide")
  expect_match(layout_problems(long_title, 5, 3), "^title needs")
  expect_gt(ink_on_border(long_title, 5, 3), 0)
  panel_subtitle <- p + ggplot2::theme(plot.title.position = "panel")
  expect_match(layout_problems(panel_subtitle, 5, 3), "^subtitle needs")
  no_room <- suppressMessages(p + ggplot2::scale_x_continuous(expand = ggplot2::expansion(0)))
  expect_match(layout_problems(no_room, 5, 3), "points at the ends of the x axis cut")
  wide_legend <- suppressMessages(p + ggplot2::scale_colour_manual(values = unname(okabe_ito), name = NULL,
                                                   labels = c("an original measure with a long name",
                                                              "a synthetic measure with a long name"))) +
    ggplot2::theme(legend.justification = "center")
  expect_match(layout_problems(wide_legend, 5, 3), "guide-box reaches past", all = FALSE)
  big_labels <- p + ggplot2::theme(axis.text.y = ggplot2::element_text(size = 30))
  expect_match(layout_problems(big_labels, 5, 3), "wider than the figure|too small", all = FALSE)
  expect_gt(ink_on_border(big_labels, 5, 3), 0)
  md <- sd2011_multi()
  tab <- md$attrib.table[rep(1:5, 8), ]
  attr(tab, "targets") <- sprintf("target%02d", 1:40)
  md$attrib.table <- tab
  expect_identical(layout_problems(autoplot(md), 7, 4), "row labels of panel 1 overlap")
})

test_that("legend keys are drawn as the points: same shape, colour and size", {
  md <- sd2011_multi()
  p <- autoplot(md)
  pts <- layer_data_of(p, "GeomPoint")[[1]]
  labels <- c("original (Dorig)", "synthetic (DiSCO, mean)")
  pts$group_label <- labels[match(pts$colour, okabe_ito)]
  expect_keys_match_points(p, pts, labels)

  d <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "workab", print.flag = FALSE)
  p <- autoplot(d)
  layers <- layer_data_of(p, "GeomPoint")
  ticks <- layers[[1]]
  ticks$group_label <- "synthetic: each"
  pts <- layers[[2]]
  pts$group_label <- c("original", "synthetic: mean")[match(pts$colour, okabe_ito)]
  expect_keys_match_points(p, rbind(pts, ticks), c("original", "synthetic: mean", "synthetic: each"))
})

test_that("autoplot of a disclosure shows each original -> synthetic pair, means and each synthesis", {
  d <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "workab", print.flag = FALSE)
  p <- autoplot(d)
  layers <- layer_data_of(p, "GeomPoint")
  ticks <- layers[[1]]
  pts <- layers[[2]]
  pairs <- list(c("UiO", "repU"), c("UiO", "UiOiS"), c("Dorig", "DiSCO"), c("Dorig", "DiSDiO"),
                c("CAPd", "DCAPd"), c("Dorig", "TCAP"), c("Dorig", "TCAP_taub"))
  column <- function(name) {
    for (component in c("ident", "attrib", "allCAPs")) if (name %in% names(d[[component]])) return(d[[component]][[name]])
  }
  labels <- vapply(pairs, paste, "", collapse = " -> ")
  expect_identical(levels(p$data$label), rev(labels))
  built <- ggplot2::ggplot_build(p)
  panel_group <- as.character(built$layout$layout$group[match(pts$PANEL, built$layout$layout$PANEL)])
  row_label <- function(layer) {
    vapply(seq_len(nrow(layer)), function(i) {
      params <- built$layout$panel_params[[as.integer(layer$PANEL[i])]]
      params$y$get_labels()[layer$y[i]]
    }, "")
  }
  pts$label <- row_label(pts)
  ticks$label <- row_label(ticks)
  for (k in seq_along(pairs)) {
    here <- pts[pts$label == labels[k], ]
    expect_equal(here$x[here$colour == okabe_ito[["original"]]], mean(column(pairs[[k]][1])))
    expect_equal(here$x[here$colour == okabe_ito[["synthetic"]]], mean(column(pairs[[k]][2])))
    expect_equal(sort(ticks$x[ticks$label == labels[k]]), sort(column(pairs[[k]][2])))
  }
  expect_identical(unique(panel_group[pts$label %in% labels[1:2]]), "identity")
  expect_identical(unique(panel_group[pts$label %in% labels[3:4]]), "attribute")
  expect_identical(unique(panel_group[pts$label %in% labels[5:6]]), "CAP")
  expect_match(p$labels$x, "(%)", fixed = TRUE)

  d1 <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  p1 <- autoplot(d1)
  expect_length(layer_data_of(p1, "GeomPoint"), 1) # one synthesis: no ticks
  for (p in list(p, p1)) {
    for (size in figure_sizes) {
      expect_identical(layout_problems(p, size[1], size[2]), character())
      expect_identical(ink_on_border(p, size[1], size[2]), 0L)
    }
  }
})

test_that("the plots work on every object synthpop 1.9-3 made, leaving out what it left NA", {
  objects <- synthpop_objects()
  for (name in names(objects)) {
    x <- objects[[name]]
    p <- expect_no_warning(autoplot(x))
    expect_s3_class(p, "ggplot")
    points <- layer_data_of(p, "GeomPoint")
    expect_no_warning(ggplot2::ggplot_build(p))
    if (inherits(x, "multi.disclosure")) {
      values <- c(x$attrib.table$attrib.orig, x$attrib.table$attrib.syn)
      expect_setequal(points[[1]]$x, values[is.finite(values)])
    }
  }
  disdio <- autoplot(objects$md_s1_repU_DiSDiO)
  expect_length(layer_data_of(disdio, "GeomSegment")[[1]]$x, 0)
  expect_match(disdio$labels$subtitle, "\nNo original Dorig in this object", fixed = TRUE)
  dcap <- autoplot(objects$d_s5_depress)
  expect_true("CAPd -> DCAPd" %in% levels(dcap$data$label)) # synthpop's DCAP
})

test_that("a plot is a function of the object alone and keeps no copy of it", {
  md <- sd2011_multi()
  p <- autoplot(md)
  captured <- mget(ls(p$plot_env, all.names = TRUE), envir = p$plot_env)
  expect_false(any(vapply(captured, function(v) inherits(v, c("multi.disclosure", "disclosure")), logical(1))))
  md$output.list <- NULL
  md$attrib.plot <- NULL
  expect_equal(ggplot2::ggplot_build(autoplot(md))$data, ggplot2::ggplot_build(p)$data)
})

test_that("plot() draws and returns its argument invisibly; unknown arguments are errors", {
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(expect_invisible(plot(d)), d)
  expect_identical(expect_invisible(plot(md)), md)
  expect_error(autoplot(d, colour = "red"), "colour")
  expect_error(autoplot(md, colour = "red"), "colour")
})


test_that("plots match their snapshots at 5 x 3 and 7 x 4 inches", {
  skip_if_not_installed("vdiffr")
  attrib <- autoplot(sd2011_multi())
  d <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "workab", print.flag = FALSE)
  plots <- list(`attrib plot sd2011 m5` = attrib, `autoplot disclosure workab m5` = autoplot(d),
                `attrib plot hard cases` = autoplot(hard_multi()),
                `attrib plot synthpop DiSDiO` = autoplot(synthpop_objects()$md_s1_repU_DiSDiO))
  for (name in names(plots)) {
    for (size in figure_sizes) {
      vdiffr::expect_doppelganger(sprintf("%s %gx%g", name, size[1], size[2]), at_size(plots[[name]], size[1], size[2]))
    }
  }
})

# ---- Holdout baseline: autoplot(type = "holdout") ------------------------------------

holdout_objects <- function() {
  parts <- holdout_split(sd2011, prop = 0.3, seed = 7)
  d <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = "depress", print.flag = FALSE,
                  control = parts$control)
  md <- multi.disclosure(sd2011_synds5, parts$train, keys = keys4, ngroups_targets = c(income = 20),
                         print.flag = FALSE, plot = FALSE, control = parts$control)
  list(d = d, md = md)
}

test_that("the holdout plots show control (ring), train (dot), an arrow and R per row", {
  obj <- holdout_objects()
  p <- autoplot(obj$md, type = "holdout")
  pts <- layer_data_of(p, "GeomPoint")[[1]]
  expect_setequal(unique(pts$colour), c("#0072B2", "#D55E00"))
  rows <- levels(p$data$label)
  # Rows as attrib.table, first at the bottom (as the attribute plot), R in the label.
  expect_identical(sub("  \\(R = .*\\)$", "", rows), attr(obj$md$attrib.table, "targets"))
  s <- synthrisk:::holdout_summary(obj$md$holdout[obj$md$holdout$target == "depress", ])
  expect_true(any(rows == paste0("depress  (R = ", formatC(round(s["DiSCO", "R"], 2) + 0, format = "f", digits = 2), ")")))
  pd <- autoplot(obj$d, type = "holdout")
  expect_identical(sub("  \\(R = .*\\)$", "", rev(levels(pd$data$label))),
                   c("repU", "UiOiS", "DiSCO", "DiSDiO", "DCAPd", "TCAP", "TCAP_taub"))
  plain <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_error(autoplot(plain, type = "holdout"), "no holdout baseline")
  expect_error(autoplot(obj$d, type = "holdouts"), "type")
  expect_identical(synthrisk:::format_ratio(c(-0.001, 0.123, NA, NaN)), c("R = 0.00", "R = 0.12", "R = NA", "R = NA"))
})

test_that("the holdout plots keep labels, legend and points whole at 5 x 3 and 7 x 4 inches", {
  obj <- holdout_objects()
  for (p in list(autoplot(obj$d, type = "holdout"), autoplot(obj$md, type = "holdout"))) {
    for (size in figure_sizes) {
      label <- sprintf("%s at %g x %g in", p$labels$title, size[1], size[2])
      expect_identical(layout_problems(p, size[1], size[2]), character(), label = label)
      expect_identical(ink_on_border(p, size[1], size[2]), 0L, label = label)
    }
  }
})

test_that("holdout plots match their snapshots at 5 x 3 and 7 x 4 inches", {
  skip_if_not_installed("vdiffr")
  obj <- holdout_objects()
  plots <- list(`holdout disclosure depress m5` = autoplot(obj$d, type = "holdout"),
                `holdout multi m5` = autoplot(obj$md, type = "holdout"))
  for (name in names(plots)) {
    for (size in figure_sizes) {
      vdiffr::expect_doppelganger(sprintf("%s %gx%g", name, size[1], size[2]), at_size(plots[[name]], size[1], size[2]))
    }
  }
})
