# The printed output a user pastes into reports, as snapshots.

keys4 <- c("sex", "age", "region", "placesize")

test_that("every to.print option of a disclosure prints", {
  d1 <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "workab", thresh_2way = c(20, 80))
  d5 <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "marital")
  for (opt in c("short", "ident", "attrib", "allCAPs", "check_1way", "check_2way", "exclusions", "all")) {
    expect_snapshot(print(d1, to.print = opt))
  }
  expect_snapshot(print(d5))
  expect_snapshot(print(d5, to.print = c("allCAPs", "check_2way"), digits = 1))
  expect_invisible(print(d1))
})

test_that("multi.disclosure prints its summary, checks and all", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), plot = FALSE)
  expect_snapshot(print(md))
  expect_snapshot(print(md, to.print = "all", digits = 3))
  m2 <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, denom_lim = 1, exclude_ov_denom_lim = TRUE,
                         attrib.meas = "DCAP", plot = FALSE)
  expect_snapshot(print(m2))
})

test_that("objects made by synthpop 1.9-3 print too", {
  golden <- golden_cases()
  x <- structure(golden$c12$expected, class = "disclosure")
  expect_snapshot(print(x, to.print = "all"))
  x5 <- structure(golden$c02$expected, class = "disclosure")
  expect_snapshot(print(x5))
  m <- structure(golden$m01$expected, class = "multi.disclosure")
  expect_snapshot(print(m))
})

test_that("print rejects unknown to.print values", {
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress")
  expect_error(print(d, to.print = "nope"), "to.print.*nope")
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = "depress", plot = FALSE)
  expect_error(print(md, to.print = "nope"), "to.print")
})
