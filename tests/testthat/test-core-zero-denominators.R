# Definitions vignette, section 6: a ratio with a zero denominator follows R's arithmetic: x/0 is Inf for x > 0,
# NaN for 0/0.

test_that("zero denominators follow R arithmetic: TCAPb is Inf when Nb = 0 but K > 0", {
  # One original record; ten synthetic records in its q, all with its target level.
  # exclude_ov_denom_lim removes the synthetic cell (10 > 5) but keeps the DiSCO cell
  # (value d = 1), so K = 1 while Nb = 0 and C = 0.
  o <- data.frame(k = "a", t = "x")
  s <- data.frame(k = rep("a", 10), t = rep("x", 10))
  d <- disclosure(s, o, keys = "k", target = "t", exclude_ov_denom_lim = TRUE, denom_lim = 5, print.flag = FALSE)
  expect_equal(d$attrib$DiSCO, 100)
  expect_identical(d$allCAPs$TCAPb, Inf)
  expect_identical(d$allCAPs$DCAPb, NaN)
  expect_equal(d$allCAPs$TCAP, 100)
  expect_identical(d$measures$TCAP_synthpop, Inf)
  expect_equal(d$attrib$mean_denom, 1)
})

test_that("0/0 stays NaN and mean_denom is NaN without a DiSCO cell", {
  o <- data.frame(k = c("a", "b"), t = c("x", "y"))
  s <- data.frame(k = c("a", "a"), t = c("x", "y"))
  d <- disclosure(s, o, keys = "k", target = "t", print.flag = FALSE)
  expect_equal(d$attrib$DiSCO, 0)
  expect_identical(d$allCAPs$TCAP, NaN)
  expect_identical(d$attrib$mean_denom, NaN)
  expect_identical(d$attrib$max_denom, 0)
})
