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

test_that("DCAPi is C over the original records whose q occurs in the synthetic data", {
  d <- disclosure(sd2011_synds5, sd2011, keys = c("sex", "age", "region", "placesize"), target = "depress",
                  print.flag = FALSE)
  # C = DCAPd * Nd / 100 and sum(iS) = iS * Nd / 100, so DCAPi = 100 * DCAPd / iS.
  expect_equal(d$allCAPs$DCAPi, 100 * d$allCAPs$DCAPd / d$attrib$iS, tolerance = 1e-12)
  # A column of allCAPs after synthpop's (test-measures.R checks the layout).
  expect_true("DCAPi" %in% names(d$allCAPs))
  # SDMetrics' CategoricalCAP on Adult (keys age, sex, occupation, race; target
  # income) reports 1 - score = 0.43285 (SPEC 6).
  a <- disclosure(adult_synds, adult, keys = c("age", "sex", "occupation", "race"), target = "income",
                  print.flag = FALSE)
  expect_equal(round(a$allCAPs$DCAPi, 3), 43.285)
})
