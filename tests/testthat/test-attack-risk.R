# What the three attacks share (R/attack-risk.R): anonymeter's risk from Wilson
# intervals against an independent reading of SPEC 13, the summary across syntheses,
# the printout (standard output, snapshots), tidy/glance, autoplot, and record-level
# output only when asked for.

test_that("the risk and its interval follow SPEC 13's formulas", {
  for (case in list(c(120, 400, 30, 200), c(0, 10, 0, 10), c(10, 10, 3, 10), c(55.5, 100, 60.25, 100),
                    c(3, 7, 0, 0))) {
    got <- attack_risk(case[1], case[2], case[3], case[4], 0.9)
    want <- ref_attack_risk(case[1], case[2], case[3], case[4], 0.9)
    expect_equal(unlist(got), unname(want[c("risk", "low", "high")]) |> stats::setNames(c("risk", "conf.low", "conf.high")))
  }
  # By hand: 30 of 100 against 10 of 100 at 95 %.
  z <- qnorm(0.975)
  pa <- (30 + z^2 / 2) / (100 + z^2)
  pc <- (10 + z^2 / 2) / (100 + z^2)
  expect_equal(attack_risk(30, 100, 10, 100, 0.95)$risk, (pa - pc) / (1 - pc))
})

test_that("both ends of the risk's interval are clamped to [0, 1], so the upper end is never below the lower", {
  # The control attack far more successful than the main one: r + e < 0, which left the
  # upper end below 0 when only the outer sides were clamped.
  below <- attack_risk(0, 1000, 200, 1000, 0.95)
  expect_identical(unlist(below), c(risk = 0, conf.low = 0, conf.high = 0))
  # Issue 40's case: secret depress on sd2011_synds5, whose synthesis 4 printed 0.000-(-0.007).
  keys <- c("sex", "age", "region", "placesize")
  split <- holdout_split(sd2011, prop = 0.2, seed = 1)
  ir <- inference_risk(sd2011_synds5, split$train, secret = "depress", aux = keys, control = split$control)
  for (tab in list(ir$results, ir$summary)) {
    expect_true(all(tab$conf.low <= tab$conf.high))
    expect_true(all(tab$conf.low >= 0 & tab$conf.high <= 1))
  }
  expect_identical(ir$results$conf.high[4], 0)
})

vars <- c("sex", "age", "region", "placesize", "depress", "marital")
parts <- holdout_split(sd2011[, vars], seed = 1)

test_that("printouts name the attack, the sizes, the rates and what was done, on standard output", {
  r <- inference_risk(sd2011_synds$syn[, vars], parts$train, secret = c("depress", "marital"),
                      aux = c("sex", "age", "region"), control = parts$control)
  expect_silent(out <- capture.output(print(r)))
  expect_snapshot(print(r))
  l <- linkability_risk(sd2011_synds$syn[, vars], parts$train, c("sex", "age", "region"), c("placesize", "marital"),
                        n_neighbors = 3, control = parts$control)
  expect_snapshot(print(l))
  s <- singling_out_risk(sd2011_synds$syn[, vars], parts$train, control = parts$control, seed = 1)
  expect_snapshot(print(s))
  r5 <- inference_risk(sd2011_synds5, sd2011, secret = "depress", aux = c("sex", "age", "region"))
  expect_snapshot(print(r5))
  s3 <- singling_out_risk(sd2011_synds5$syn[1:2], sd2011[, names(sd2011_synds5$syn[[1]])], n_cols = 3,
                          n_attacks = 50, seed = 2, cont.na = list(income = -8))
  expect_snapshot(print(s3))
})

test_that("tidy and glance give the risk, the interval and the rates; record-level output only on request", {
  r5 <- inference_risk(sd2011_synds5, sd2011, secret = c("depress", "marital"), aux = c("sex", "age", "region"))
  td <- tidy(r5)
  expect_identical(nrow(td), 12L)
  expect_identical(names(td)[1:8], c("attack", "secret", "synthesis", "estimate", "conf.low", "conf.high",
                                     "conf.method", "conf.caveat"))
  expect_identical(td$conf.method[11:12], c("across syntheses", "across syntheses"))
  expect_equal(td$estimate[11], mean(td$estimate[1:5]))
  g <- glance(r5)
  expect_identical(nrow(g), 1L)
  expect_identical(g$secret, "marital")
  expect_null(r5$records)
  expect_null(linkability_risk(sd2011_synds, sd2011, "sex", "age")$records)
})

test_that("autoplot draws the risk and the three rates", {
  r <- inference_risk(sd2011_synds$syn[, vars], parts$train, secret = c("depress", "marital"),
                      aux = c("sex", "age", "region"), control = parts$control)
  p <- autoplot(r)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  expect_identical(sort(unique(as.character(p$data$what))), c("baseline", "control", "main", "risk"))
  expect_identical(length(b$layout$layout$PANEL), 2L)
})
