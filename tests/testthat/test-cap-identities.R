# Relations between the CAP measures that section 6 of the definitions vignette states.

test_that("without exclusions and Ns == Nd, DCAPs == DCAPd and TCAPs == DiSCO", {
  d <- disclosure(sd2011_synds5, sd2011, keys = c("sex", "age", "region", "placesize"), target = "depress")
  expect_equal(d$allCAPs$DCAPs, d$allCAPs$DCAPd, tolerance = 1e-12)
  expect_equal(d$allCAPs$TCAPs, d$attrib$DiSCO, tolerance = 1e-12)
  expect_identical(d$allCAPs$DCAP, d$allCAPs$DCAPd)
  expect_identical(d$allCAPs$DCAPd, d$attrib$DCAPd)
  # Both "b" measures share the denominator Nb.
  expect_equal(d$allCAPs$DCAPb / d$allCAPs$DCAPd, d$allCAPs$TCAPb / d$attrib$DiSCO, tolerance = 1e-12)
  expect_equal(d$allCAPs$TCAP, 100 * d$attrib$DiSCO / d$attrib$DiS, tolerance = 1e-12)
})

test_that("DCAPs scales with Ns when the synthetic data are smaller", {
  syn <- sd2011_synds$syn[1:3000, ]
  d <- disclosure(syn, sd2011, keys = c("sex", "age", "region"), target = "marital")
  expect_equal(d$allCAPs$DCAPs, d$allCAPs$DCAPd * 5000 / 3000, tolerance = 1e-12)
  expect_equal(d$allCAPs$TCAPs, d$attrib$DiSCO * 5000 / 3000, tolerance = 1e-12)
})
