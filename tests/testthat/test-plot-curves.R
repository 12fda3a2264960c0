# The plots of tau_curve() and size_curve(): what is drawn, that nothing is cut at
# 5 x 3 and 7 x 4 inches, and vdiffr snapshots.

keys4 <- c("sex", "age", "region", "placesize")
figure_sizes <- list(c(5, 3), c(7, 4))

sd2011_tau <- function(...) tau_curve(sd2011_synds5, sd2011, keys = keys4, ...)
sd2011_size <- function() {
  size_curve(sd2011_synds5, sd2011, keys = keys4, targets = c("depress", "workab"), reps = 2, seed = 1,
             sizes = c(250, 1000, 2500, 5000))
}

test_that("the tau plot has one solid synthetic and one dashed original line per target, DCAPd and DiSCO marked", {
  tc <- sd2011_tau(targets = c("depress", "workab", "marital"))
  p <- autoplot(tc)
  lines <- ggplot2::layer_data(p, 1)
  expect_identical(length(unique(lines$group)), 6L)
  expect_setequal(unique(lines$colour), c("#0072B2", "#D55E00", "#009E73"))
  expect_setequal(unique(lines$linetype), c("solid", "22"))
  # The synthetic line is the mean over syntheses.
  x <- as.data.frame(tc)
  dep <- x[x$target == "depress" & x$tau == 0.5, ]
  drawn <- lines[lines$colour == "#0072B2" & lines$linetype == "solid" & lines$x == 0.5, ]
  expect_equal(drawn$y, mean(dep$synthetic))
  marks <- ggplot2::layer_data(p, 2)
  meas <- attr(tc, "measures")
  expect_equal(sort(marks$y[marks$x == 1]), sort(tapply(meas$DiSCO, meas$target, mean)), ignore_attr = TRUE)
  expect_equal(sort(marks$y[marks$x == 0]), sort(tapply(meas$DCAPd, meas$target, mean)), ignore_attr = TRUE)
  expect_setequal(unique(marks$shape), c(1, 16))
})

test_that("more than five targets get a panel each, blue original and vermillion synthetic", {
  p <- autoplot(tau_curve(sd2011_synds5, sd2011, keys = c("sex", "age"), ngroups_targets = c(income = 10)))
  built <- ggplot2::ggplot_build(p)
  expect_identical(nrow(built$layout$layout), 7L)
  expect_setequal(unique(built$data[[1]]$colour), c("#0072B2", "#D55E00"))
})

test_that("the size plot draws the mean of each measure: line type = numerator, colour = denominator", {
  sc <- sd2011_size()
  p <- autoplot(sc)
  d <- ggplot2::layer_data(p, 1)
  s <- summary(sc)
  expect_equal(nrow(d), nrow(s))
  expect_equal(sort(d$y), sort(s$mean))
  # DCAPd (C over Nd) and DiSCO (K over Nd): same colour, different line types.
  reg_line <- function(measure) {
    row <- s[s$measure == measure & s$target == "depress" & s$size == 1000, ]
    d[d$PANEL == 1 & abs(d$y - row$mean) < 1e-12 & d$x == 1000, ]
  }
  expect_identical(reg_line("DCAPd")$colour, reg_line("DiSCO")$colour)
  expect_false(identical(reg_line("DCAPd")$linetype, reg_line("DiSCO")$linetype))
  expect_identical(reg_line("DCAPd")$linetype, reg_line("DCAPb")$linetype)
  expect_false(identical(reg_line("DCAPd")$colour, reg_line("DCAPb")$colour))
  expect_true(all(d$colour %in% c("#0072B2", "#D55E00", "#009E73", "#CC79A7")))
})

test_that("the curve plots keep titles, legends and axes whole at 5 x 3 and 7 x 4 inches", {
  skip_on_cran()
  skip_if_not(capabilities("cairo"))
  plots <- list(tau = list(autoplot(sd2011_tau(targets = c("depress", "workab", "marital"))), c(0, 1), 2.4),
                tau_all = list(autoplot(sd2011_tau(ngroups_targets = c(income = 10))), c(0, 1), 2.4),
                size = list(autoplot(sd2011_size()), c(250, 5000), 0))
  for (name in names(plots)) {
    for (size in figure_sizes) {
      pl <- plots[[name]]
      expect_identical(layout_problems(pl[[1]], size[1], size[2], point_size = pl[[3]], x_ends = pl[[2]]),
                       character(0), label = paste(name, size[1], "x", size[2]))
      expect_equal(ink_on_border(pl[[1]], size[1], size[2]), 0, label = paste(name, "ink on the border"))
    }
  }
})

test_that("plot() draws the curves and returns them invisibly; unknown arguments are errors", {
  tc <- sd2011_tau(targets = "depress", tau = c(0, 1))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(expect_invisible(plot(tc)), tc)
  expect_error(autoplot(tc, colour = "red"), "colour")
  sc <- sd2011_size()
  expect_identical(expect_invisible(plot(sc)), sc)
  expect_error(autoplot(sc, colour = "red"), "colour")
})

test_that("curve plots match their snapshots at 5 x 3 and 7 x 4 inches", {
  skip_if_not_installed("vdiffr")
  plots <- list(`tau curve sd2011 m5` = autoplot(sd2011_tau(targets = c("depress", "workab", "marital"))),
                `tau curve panels` = autoplot(tau_curve(sd2011_synds5, sd2011, keys = c("sex", "age"),
                                                        ngroups_targets = c(income = 10))),
                `size curve sd2011 m5` = autoplot(sd2011_size()))
  for (name in names(plots)) {
    for (size in figure_sizes) {
      vdiffr::expect_doppelganger(sprintf("%s %gx%g", name, size[1], size[2]), at_size(plots[[name]], size[1], size[2]))
    }
  }
})
