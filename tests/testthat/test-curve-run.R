# What the two curves share (R/curve-run.R): multi.disclosure()'s request with a plan of
# their own, and the helpers of their printouts.

test_that("the curves take cont.na for data frames and lists, and refuse it beside a synds", {
  keys <- c("sex", "age", "region")
  with_codes <- tau_curve(list(sd2011_synds$syn), sd2011, keys = keys, targets = "income",
                          cont.na = list(income = -8), ngroups_targets = 5)
  from_synds <- tau_curve(sd2011_synds, sd2011, keys = keys, targets = "income", ngroups_targets = 5)
  expect_gt(nrow(from_synds), 0)
  expect_equal(with_codes$synthetic, from_synds$synthetic)
  expect_equal(with_codes$original, from_synds$original)
  # Without the code, -8 is grouped with the incomes: another grouping, other numbers.
  without <- tau_curve(list(sd2011_synds$syn), sd2011, keys = keys, targets = "income", ngroups_targets = 5)
  expect_false(isTRUE(all.equal(without$synthetic, from_synds$synthetic)))
  expect_error(tau_curve(sd2011_synds, sd2011, keys = keys, targets = "income", cont.na = list(income = -8)),
               "taken from the .*synds")
})

test_that("print.flag is off unless asked for, and says what was done when asked", {
  keys <- c("sex", "age")
  expect_silent(tau_curve(sd2011_synds, sd2011, keys = keys, targets = "income", ngroups_targets = 5))
  expect_output(tau_curve(sd2011_synds, sd2011, keys = keys, targets = "income", ngroups_targets = 5, print.flag = TRUE),
                "income")
})

test_that("the printout helpers: spread values, aligned matrices, means in order, percentages", {
  expect_identical(synthrisk:::spread_values(c(5, 1, 3)), c(1, 3, 5))
  expect_identical(synthrisk:::spread_values(1:11, n = 3), c(1L, 6L, 11L))
  m <- matrix(c("1.0", "22.5"), 1, dimnames = list("a", c("x", "y")))
  expect_length(synthrisk:::matrix_lines(m), 2)
  tab <- synthrisk:::mean_table(c("r1", "r1", "r2"), c(1, 1, 2), c(2, 4, 6), c("r2", "r1"), c(1, 2))
  expect_identical(unname(tab), matrix(c(NA, 3, 6, NA), 2))
  expect_identical(synthrisk:::fmt_pct(c(1.234, NA, NaN), 1), c("1.2", "", "NaN"))
})
