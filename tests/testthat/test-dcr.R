# dcr() against the plain-R reference of helper-dcr-reference.R (SPEC 11): distances
# bit-identical, nearest rows identical, on fixed and random mixed cases; against
# gower::gower_topn() where the definitions coincide; and the errors.

dcr_cases <- function() {
  n <- suppressWarnings(as.integer(Sys.getenv("SYNTHRISK_PROPERTY_CASES", "")))
  if (is.na(n) || n < 1) length(random_cases(300)) else n
}

expect_same_dcr <- function(got, want, label) {
  expect_identical(got$synthetic$dcr, want$synthetic$dcr, label = paste(label, "dcr"))
  expect_identical(got$synthetic$nn, want$synthetic$nn, label = paste(label, "nn"))
  expect_identical(got$synthetic$d2, want$synthetic$d2, label = paste(label, "d2"))
  expect_identical(got$synthetic$nndr, want$synthetic$nndr, label = paste(label, "nndr"))
  expect_identical(got$synthetic$dcr_ctrl, want$synthetic$dcr_ctrl, label = paste(label, "dcr_ctrl"))
  expect_identical(got$original$r, want$original$r, label = paste(label, "r"))
  expect_identical(got$original$set, want$original$set, label = paste(label, "set"))
  expect_identical(got$original$copied, want$original$copied, label = paste(label, "copied"))
  expect_equal(got$summary, want$summary, tolerance = 1e-12, label = paste(label, "summary"))
}

# A column of `kind` for n records drawn from a small pool (ties are common).
dcr_random_column <- function(kind, n, pool) {
  switch(kind,
    factor = factor(sample(c(pool$labels, NA), n, replace = TRUE), levels = c(pool$labels, if (pool$na_level) NA),
                    exclude = NULL),
    character = sample(c(pool$labels, "Missing", NA), n, replace = TRUE),
    logical = sample(c(TRUE, FALSE, NA), n, replace = TRUE),
    integer = sample(c(pool$int, NA), n, replace = TRUE),
    double = sample(pool$dbl, n, replace = TRUE),
    constant = rep(pool$constant, n),
    mixed = sample(pool$int, n, replace = TRUE))
}

random_dcr_case <- function(seed) {
  set.seed(seed)
  p <- sample(1:6, 1)
  vars <- paste0("v", seq_len(p))
  kinds <- sample(c("factor", "character", "logical", "integer", "double", "double", "constant", "mixed"), p,
                  replace = TRUE)
  n_data <- if (stats::runif(1) < 0.1) 1L else sample(2:35, 1)
  m <- sample(1:3, 1)
  n_syn <- sample(1:30, m, replace = TRUE)
  n_ctrl <- if (stats::runif(1) < 0.5) sample(1:15, 1) else 0L
  pools <- lapply(kinds, function(k) {
    dbl <- round(stats::runif(sample(2:6, 1), -5, 20), sample(0:2, 1))
    list(labels = sample(c("a", "b", "c", "NaN", "Missing", "d"), sample(1:4, 1)), na_level = stats::runif(1) < 0.3,
         int = sample(-3:9, sample(1:5, 1)),
         dbl = c(dbl, sample(c(NA, NaN, Inf, -Inf, -8, -8, 0.1 + 0.2), sample(0:4, 1))),
         constant = sample(c(5, 0, -1), 1))
  })
  make <- function(n) {
    d <- lapply(seq_len(p), function(k) dcr_random_column(kinds[k], n, pools[[k]]))
    as.data.frame(stats::setNames(d, vars), stringsAsFactors = FALSE)
  }
  data <- make(n_data)
  syn <- lapply(n_syn, function(n) {
    s <- make(n)
    copy <- which(stats::runif(n) < 0.4)
    if (length(copy) > 0) s[copy, ] <- data[sample(n_data, length(copy), replace = TRUE), , drop = FALSE]
    for (k in which(kinds == "mixed")) s[[k]] <- factor(as.character(s[[k]]))
    # A synthesis may hold a constant of its own.
    for (k in which(kinds == "constant")) if (stats::runif(1) < 0.3) s[[k]] <- rep(7, n)
    # Integer on one side, double on the other.
    for (k in which(kinds == "integer")) if (stats::runif(1) < 0.3) s[[k]] <- as.double(s[[k]])
    s
  })
  control <- if (n_ctrl > 0) make(n_ctrl)
  cont.na <- if (stats::runif(1) < 0.6) stats::setNames(rep(list(-8), sum(kinds == "double")), vars[kinds == "double"])
  use_vars <- if (p > 1 && stats::runif(1) < 0.3) sample(vars, sample(seq_len(p), 1)) else NULL
  weights <- NULL
  if (stats::runif(1) < 0.4) {
    weights <- sample(c(0, 0.5, 1, 2, 0.3), length(use_vars %||% vars), replace = TRUE)
    if (sum(weights) == 0) weights[1] <- 1
  }
  list(syn = syn, data = data, control = control, cont.na = cont.na, weights = weights, vars = use_vars)
}

reference_for <- function(case) {
  vars <- case$vars %||% names(case$data)
  weights <- if (is.null(case$weights)) rep(1, length(vars)) else case$weights
  ordered <- order(match(vars, names(case$data)))
  ref_dcr(case$syn, case$data, case$control, vars[ordered], weights[ordered], case$cont.na %||% list())
}

test_that("dcr() equals the reference bit for bit on random mixed cases", {
  n <- dcr_cases()
  for (seed in seq_len(n)) {
    case <- random_dcr_case(seed)
    got <- dcr(case$syn, case$data, control = case$control, vars = case$vars, weights = case$weights,
               cont.na = case$cont.na, n_threads = 1 + seed %% 2)
    expect_same_dcr(got, reference_for(case), paste("seed", seed))
  }
})

test_that("ties go to the first row, d2 equals dcr when two originals tie, nndr is 1 for 0/0", {
  data <- data.frame(x = c(1, 2, 2, 3), g = c("a", "b", "b", "a"))
  syn <- data.frame(x = c(2, 2.5, 0), g = c("b", "b", "a"))
  d <- dcr(syn, data)
  expect_identical(d$synthetic$nn, c(2L, 2L, 1L))
  expect_identical(d$synthetic$dcr, c(0, 0.5 / 2 / 2, 0.5 / 2))
  expect_identical(d$synthetic$d2, c(0, 0.5 / 2 / 2, 1 / 2))
  expect_identical(d$synthetic$nndr[1], 1)
  expect_equal(d$summary$IMS, 100 / 3)
  expect_identical(d$original$copied, c(FALSE, TRUE, TRUE, FALSE))
  expect_identical(d$summary$copied, 50)
  expect_true(is.na(d$summary$AUC))
  expect_same_dcr(d, ref_dcr(list(syn), data, NULL, c("x", "g")), "fixed")
})

test_that("a one-record original has no nndr, and the output says why", {
  data <- data.frame(x = 1, g = "a")
  d <- dcr(data.frame(x = c(1, 2), g = c("a", "a")), data)
  expect_true(all(is.na(d$synthetic$d2)) && all(is.na(d$synthetic$nndr)))
  expect_true(is.na(d$summary$nndr_q05))
  expect_match(paste(format(d), collapse = "\n"), "one record: nndr is NA")
})

test_that("a synds object brings its cont.na, m > 1 and control work, and print/tidy/glance/autoplot run", {
  skip_on_cran()
  vars <- c("sex", "age", "placesize", "income", "ls")
  parts <- holdout_split(sd2011[1:400, vars], seed = 3)
  syn <- lapply(sd2011_synds5$syn[1:2], function(s) s[1:300, vars])
  obj <- structure(list(syn = syn, m = 2, cont.na = list(income = -8)), class = "synds")
  d <- dcr(obj, parts$train, control = parts$control)
  expect_s3_class(d, "synthrisk_dcr", exact = TRUE)
  expect_named(d$summary, c("synthesis", "IMS", "IMS_ctrl", "dcr_q05", "dcr_q50", "dcr_ctrl_q05", "dcr_ctrl_q50",
                            "base_q05", "base_q50", "nndr_q05", "share", "share_noleak", "copied", "AUC"))
  expect_named(d$synthetic, c("synthesis", "row", "dcr", "nn", "d2", "nndr", "dcr_ctrl"))
  expect_named(d$original, c("set", "synthesis", "row", "r", "copied"))
  expect_equal(nrow(d$original), 2 * 400)
  expect_same_dcr(d, ref_dcr(syn, parts$train, parts$control, vars, cont.na = list(income = -8)), "synds")
  # The code -8 is a label: without it, -8 is a number and the distances change.
  plain <- dcr(syn, parts$train, control = parts$control)
  expect_false(identical(plain$synthetic$dcr, d$synthetic$dcr))
  out <- capture.output(print(d))
  expect_true(any(grepl("Distance to closest record", out)))
  expect_true(any(grepl("share_noleak", out)))
  expect_equal(nrow(tidy(d)), 2 * 13)
  expect_equal(glance(d)$m, 2)
  p <- autoplot(d)
  expect_s3_class(p, "ggplot")
  expect_silent(ggplot2::ggplot_build(p))
  # Results do not depend on the number of threads.
  expect_identical(dcr(obj, parts$train, control = parts$control, n_threads = 1)$synthetic, d$synthetic)
})

test_that("autoplot(): each series its own Okabe-Ito colour, r explained, the legend whole at 5 x 3 and 7 x 4 in (issue 37)", {
  parts <- holdout_split(sd2011[, c("sex", "age", "placesize", "region")], seed = 2)
  d <- dcr(sd2011_synds$syn, parts$train, control = parts$control)
  p <- autoplot(d)
  built <- ggplot2::ggplot_build(p)
  drawn <- unique(built$data[[1]][c("colour", "group")])
  series <- levels(p$data$what)
  expect_identical(series, c("dcr: synthetic to train", "dcr_ctrl: synthetic to control", "base: control to train",
                             "r: train to synthetic", "r: control to synthetic"))
  # Five series, five colours, all from the palette.
  expect_identical(nrow(drawn), 5L)
  expect_identical(length(unique(drawn$colour)), 5L)
  expect_true(all(drawn$colour %in% synthrisk:::okabe_ito))
  caption <- gsub("\\s+", " ", p$labels$caption)
  expect_match(caption, "r: an original record's distance to the synthetic data", fixed = TRUE)
  expect_match(caption, "train r below control r reveals membership", fixed = TRUE)
  for (size in list(c(5, 3), c(7, 4))) {
    label <- sprintf("%g x %g in", size[1], size[2])
    expect_identical(layout_problems(p, size[1], size[2], point_size = 0, point_stroke = 0,
                                     x_ends = range(c(d$synthetic$dcr, d$original$r, d$base))),
                     character(), label = label)
    expect_identical(ink_on_border(p, size[1], size[2]), 0L, label = label)
  }
  # Without control records: only dcr and r of the training records, and the caption says so.
  plain <- autoplot(dcr(sd2011_synds$syn, parts$train))
  expect_identical(levels(droplevels(plain$data$what)), c("dcr: synthetic to train", "r: train to synthetic"))
  expect_match(gsub("\\s+", " ", plain$labels$caption), "membership needs control records", fixed = TRUE)
})

test_that("weights: named, unnamed in the order of vars, and zero weights", {
  data <- data.frame(a = c(1, 5, 9), b = c("x", "y", "y"), c = c(0, 0, 1))
  syn <- data.frame(c = c(1, 0), a = c(2, 9), b = c("y", "x"))
  d1 <- dcr(syn, data, vars = c("b", "a"), weights = c(2, 0.5))
  want <- ref_dcr(list(syn), data, NULL, c("a", "b"), c(0.5, 2))
  expect_same_dcr(d1, want, "unnamed")
  d2 <- dcr(syn, data, vars = c("a", "b"), weights = c(b = 2, a = 0.5))
  expect_identical(d2$synthetic, d1$synthetic)
  d3 <- dcr(syn, data, weights = c(c = 0))
  expect_same_dcr(d3, ref_dcr(list(syn), data, NULL, c("a", "b", "c"), c(1, 1, 0)), "zero weight")
  expect_match(paste(format(d3), collapse = "\n"), "Weights:")
})

test_that("dcr() matches gower::gower_topn() on Adult samples where the definitions coincide", {
  skip_if_not_installed("gower")
  set.seed(21)
  for (k in 1:3) {
    orig <- adult[sample(nrow(adult), 400), ]
    orig <- orig[stats::complete.cases(orig), ]
    syn <- adult_synds$syn[sample(nrow(adult_synds$syn), 300), ]
    # Complete data with synthetic values inside the original's range, and every
    # variable varying in the original: then gower's range (over both sets) is R_v.
    num <- names(orig)[vapply(orig, is.numeric, logical(1))]
    keep <- stats::complete.cases(syn) & Reduce(`&`, lapply(num, function(v) {
      syn[[v]] >= min(orig[[v]]) & syn[[v]] <= max(orig[[v]])
    }))
    syn <- syn[keep, ]
    varying <- names(orig)[vapply(orig, function(x) length(unique(x)) > 1, logical(1))]
    orig <- orig[varying]
    syn <- syn[varying]
    for (v in names(orig)) if (is.factor(orig[[v]])) syn[[v]] <- factor(as.character(syn[[v]]), levels = levels(orig[[v]]))
    d <- dcr(syn, orig)
    g <- gower::gower_topn(syn, orig, n = 2, nthread = 1)
    expect_equal(d$synthetic$dcr, g$distance[1, ], tolerance = 1e-12)
    expect_equal(d$synthetic$d2, g$distance[2, ], tolerance = 1e-12)
    back <- gower::gower_topn(orig, syn, n = 1, nthread = 1)
    expect_equal(d$original$r, back$distance[1, ], tolerance = 1e-12)
  }
})

test_that("bad input gets a clear error naming the argument, column or value", {
  data <- data.frame(a = c(1, 2, 3), b = c("x", "y", "x"))
  syn <- data.frame(a = c(1, 2), b = c("x", "y"))
  expect_error(dcr(syn, data, vars = "zz"), "vars.*zz")
  expect_error(dcr(syn, data, vars = c("a", "a")), "repeats")
  expect_error(dcr(syn, data, weights = c(1, -1)), "weights")
  expect_error(dcr(syn, data, weights = c(1, 2, 3)), "3 numbers for 2 variables")
  expect_error(dcr(syn, data, weights = c(q = 1)), "q")
  expect_error(dcr(syn, data, weights = c(0, 0)), "not all be 0")
  expect_error(dcr(syn, data, weights = c(1, NA)), "weights")
  expect_error(dcr(syn, "data"), "data.*data frame")
  expect_error(dcr(1:3, data), "object")
  expect_error(dcr(syn, data, control = data.frame(a = 1)), "control.*b")
  expect_error(dcr(syn, data, control = data.frame(a = "1", b = "x")), "a.*control")
  expect_error(dcr(syn, data, cont.na = list(a = "x")), "cont.na")
  expect_error(dcr(syn, data, n_threads = 0), "n_threads")
  expect_error(dcr(syn, data, foo = 1), "foo")
  expect_error(dcr(data.frame(z = 1), data), "no variable in common")
  expect_error(dcr(syn, data.frame(a = c(-1e308, 1e308), b = "x")), "largest double")
  obj <- structure(list(syn = syn, m = 1, cont.na = NULL), class = "synds")
  expect_error(dcr(obj, data, cont.na = list(a = -8)), "synds")
  expect_error(dcr(syn[0, ], data), "no rows")
})

test_that("inputs are not modified", {
  data <- data.frame(a = c(1, 2, NA), b = factor(c("x", NA, "y")))
  syn <- data.frame(a = c(1L, 5L), b = c("x", "y"))
  data0 <- data
  syn0 <- syn
  dcr(syn, data)
  expect_identical(data, data0)
  expect_identical(syn, syn0)
})

test_that("tibbles and data.tables give the numbers of data frames", {
  skip_if_not_installed("tibble")
  skip_if_not_installed("data.table")
  data <- data.frame(a = c(1, 2, NA, 4), b = c("x", "y", "x", NA))
  syn <- data.frame(b = c("x", "y", "z"), a = c(2L, 9L, 1L))
  want <- dcr(syn, data)
  got <- dcr(tibble::as_tibble(syn), data.table::as.data.table(data))
  expect_identical(got$synthetic, want$synthetic)
  expect_identical(got$original, want$original)
  got <- dcr(list(data.table::as.data.table(syn)), tibble::as_tibble(data))
  expect_identical(got$summary, want$summary)
})
