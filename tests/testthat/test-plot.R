# The plots: what ggplot2 builds, and vdiffr snapshots of the pictures.

keys4 <- c("sex", "age", "region", "placesize")

test_that("attrib.plot has one row per target in table order, arrows from original to synthetic", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), plot = FALSE)
  expect_s3_class(md$attrib.plot, "ggplot")
  built <- ggplot2::ggplot_build(md$attrib.plot)
  seg <- built$data[[1]]
  pts <- built$data[[2]]
  tab <- md$attrib.table
  # rows bottom to top follow the table: increasing synthetic measure
  expect_identical(as.numeric(seg$y), as.numeric(seq_len(nrow(tab))))
  expect_equal(seg$x, tab$attrib.orig)
  expect_identical(sign(seg$xend - seg$x), sign(tab$attrib.syn - tab$attrib.orig))
  expect_true(all(abs(seg$xend - tab$attrib.syn) <= 1.3 + 1e-9))
  labels <- levels(md$attrib.plot$data$target)
  expect_identical(labels, c("income", "depress", "ls", "marital (2-way checks)", "workab (1- & 2-way checks)"))
  expect_setequal(pts$x, c(tab$attrib.orig, tab$attrib.syn))
  expect_length(unique(pts$colour), 2)
  expect_identical(built$layout$panel_params[[1]]$x$limits, c(0, 100))
  expect_match(md$attrib.plot$labels$subtitle, "means over 5 syntheses")
})

test_that("autoplot and plot work for both classes", {
  d <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "depress")
  p <- autoplot(d)
  expect_s3_class(p, "ggplot")
  built <- ggplot2::ggplot_build(p)
  # one point per synthesis for each of the 12 measures, then their means
  expect_identical(nrow(built$data[[1]]), 12L * 5L)
  expect_identical(nrow(built$data[[2]]), 12L)
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, plot = FALSE)
  expect_equal(ggplot2::ggplot_build(autoplot(md))$data, ggplot2::ggplot_build(md$attrib.plot)$data)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(d))
  expect_invisible(plot(md))
})

test_that("as.data.frame gives one row per target, synthesis and measure", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, targets = c("depress", "ls"), plot = FALSE)
  tidy <- as.data.frame(md)
  expect_identical(names(tidy), c("target", "synthesis", "group", "measure", "value"))
  expect_identical(nrow(tidy), 2L * 5L * 21L)
  ls5 <- tidy[tidy$target == "ls" & tidy$measure == "DiSCO", ]
  expect_identical(ls5$value, md$output.list$ls$attrib$DiSCO)
  expect_false(anyDuplicated(tidy[c("target", "synthesis", "measure")]) > 0)
})

test_that("plots match their snapshots", {
  skip_if_not_installed("vdiffr")
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), plot = FALSE)
  vdiffr::expect_doppelganger("attrib plot sd2011 m5", md$attrib.plot)
  d <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "workab")
  vdiffr::expect_doppelganger("autoplot disclosure workab m5", autoplot(d))
})
