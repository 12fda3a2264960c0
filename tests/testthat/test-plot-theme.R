# What every picture shares (R/plot-theme.R): subtitles, labels, arrows.

test_that("subtitles wrap, target labels carry their check flags", {
  expect_match(synthrisk:::wrap_subtitle(paste(rep("word", 30), collapse = " "), width = 20), "\n")
  expect_identical(synthrisk:::keys_subtitle(c("sex", "age"), ""), "Keys: sex, age")
  expect_identical(synthrisk:::check_labels(c("x", "", "x", ""), c("y", "y", "", "")),
                   c("(1- & 2-way checks)", "(2-way checks)", "(1-way check)", ""))
  expect_identical(synthrisk:::target_labels(c("depress", "a_rather_long_target_name"), c("x", "x"), c("", "")),
                   c("depress (1-way check)", "a_rather_long_target_name\n(1-way check)"))
})

test_that("arrows run from ring to dot, none where the points nearly touch", {
  a <- synthrisk:::arrow_segments(c("t1", "t2", "t3"), c(10, 50, 20), c(40, 49, NA))
  expect_identical(a$target, "t1")
  expect_equal(c(a$from, a$to), c(10 + 2.4, 40 - 1.9))
  theme <- ggplot2::ggplot() + synthrisk:::plot_theme("bottom")
  expect_identical(theme$theme$legend.position, "bottom")
})

test_that("legends of several rows are filled column by column (rows filled by row sit far apart in ggplot2 3.4)", {
  g <- synthrisk:::legend_rows(2)
  for (aes in c("colour", "shape", "size")) {
    expect_identical(g[[aes]]$nrow %||% g$guides[[aes]]$nrow, 2)
    expect_false(isTRUE(g[[aes]]$byrow %||% g$guides[[aes]]$byrow))
  }
})

test_that("intervals with a caveat are drawn dashed, the others solid, and the subtitle says so", {
  bars <- data.frame(target = c("a", "b"), low = c(1, 2), high = c(3, 4), caveat = c(NA, "at a bound"))
  layers <- synthrisk:::interval_bars(bars)
  expect_identical(vapply(layers, function(l) l$aes_params$linetype, ""), c("solid", "22"))
  expect_identical(nrow(layers[[2]]$data), 1L)
  expect_match(synthrisk:::bars_caveat_note(bars), "dashed")
  bars$caveat <- NA
  expect_null(synthrisk:::interval_bars(bars)[[2]])
  expect_identical(synthrisk:::bars_caveat_note(bars), "")
})
