# Definitions vignette 2.2: NaN is a level of its own ("NaN"), not missing; only R's NA is missing.

core_labels <- function(data, syn, var) {
  enc <- synthrisk:::encode_variables(var, data, list(syn), NULL, stats::setNames(list(0), var), strict = FALSE,
                                      n_threads = 1L, call = globalenv())
  enc$labels[[var]]
}

test_that("NaN is its own level, not missing (issue 8 repro)", {
  o <- data.frame(k = c("a", "a"), t = c(NA, 1))
  s <- data.frame(k = c("a", "a"), t = c(NA, NaN))
  # The original's target is 1 and NA, the synthetic NaN and NA: the labels do not meet.
  d <- expect_label_warning(disclosure(s, o, keys = "k", target = "t", print.flag = FALSE))
  # NA and NaN are two levels of the synthetic target: nothing is disclosive.
  expect_equal(d$attrib$Dsyn, 0)
  expect_equal(d$attrib$DiSCO, 0)
  # Without NaN on one side the answer does not depend on the column type.
  s2 <- data.frame(k = c("a", "a"), t = c(NaN, NaN))
  d2 <- expect_label_warning(disclosure(s2, o, keys = "k", target = "t", print.flag = FALSE))
  expect_equal(d2$attrib$Dsyn, 100)
  expect_equal(d2$attrib$DiSCO, 0)
})

test_that("numeric levels: ascending (-Inf first, Inf last), then NaN, then Missing", {
  o <- data.frame(t = c(2, NA, Inf, -0.5))
  s <- data.frame(t = c(NaN, -Inf, 2, 0, -0))
  expect_identical(core_labels(o, s, "t"), c("-Inf", "-0.5", "0", "2", "Inf", "NaN", "Missing"))
  # as factor() orders them
  expect_identical(head(core_labels(o, s, "t"), -1), levels(factor(c(o$t, s$t))))
  # a NaN with another payload (e.g. -NaN) is still NaN; only NA_real_ is missing
  s$t[1] <- -NaN
  expect_identical(core_labels(o, s, "t"), c("-Inf", "-0.5", "0", "2", "Inf", "NaN", "Missing"))
})

test_that("integer columns: only NA_integer_ is missing, labels print as integers", {
  o <- data.frame(t = c(1954L, NA, 100000L))
  s <- data.frame(t = c(-1L, 100000L))
  expect_identical(core_labels(o, s, "t"), c("-1", "1954", "100000", "Missing"))
})

test_that("a numeric target with NaN gives the numbers of the same data as labels", {
  set.seed(3)
  for (i in 1:30) {
    n <- sample(5:60, 1)
    pool <- c(NA, NaN, -Inf, Inf, 0, 1.5, 2)
    make <- function(n) data.frame(k1 = sample(c("a", "b", NA), n, TRUE), k2 = sample(1:3, n, TRUE),
                                   t = sample(pool, n, TRUE))
    o <- make(n)
    s <- list(make(sample(5:60, 1)), make(sample(5:60, 1)))
    as_labels <- function(d) {
      d$t <- factor(as.character(d$t), levels = c("-Inf", "0", "1.5", "2", "Inf", "NaN"))
      d
    }
    args <- list(keys = c("k1", "k2"), target = "t", print.flag = FALSE, usetargetNA = i %% 2 == 0,
                 usekeysNA = c(TRUE, i %% 3 > 0), exclude_ov_denom_lim = i %% 4 == 0, denom_lim = 2)
    # Random labels often barely meet; both calls must warn alike.
    got <- with_label_warnings(do.call(disclosure, c(list(s, o), args)))
    want <- with_label_warnings(do.call(disclosure, c(list(lapply(s, as_labels), as_labels(o)), args)))
    expect_identical(got$warnings, want$warnings)
    got <- got$value
    want <- want$value
    expect_numbers(got$measures, want$measures, label = paste("case", i))
    expect_identical(got$Nexclusions, want$Nexclusions)
  }
})
