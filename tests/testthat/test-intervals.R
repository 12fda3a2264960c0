# Intervals (R/intervals.R, definitions vignette section 12): across syntheses against a
# hand computation with qt(), the bootstrap against a plain-R reference that draws the
# same rmultinom() weights and recomputes the measures with the reference of
# helper-reference.R on the resampled records.

keys4 <- c("sex", "age", "region", "placesize")

# By hand: mean -/+ qt((1 + conf) / 2, m - 1) * sd / sqrt(m).
hand_interval <- function(v, conf) {
  m <- length(v)
  half <- qt((1 + conf) / 2, m - 1) * sd(v) / sqrt(m)
  c(mean(v), mean(v) - half, mean(v) + half)
}

test_that("intervals across syntheses are the mean -/+ t times the standard error (SD2011, m = 5)", {
  d <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, conf.level = 0.9)
  iv <- d$intervals
  expect_setequal(iv$method, "across syntheses")
  for (me in c("repU", "UiS", "DiSCO", "DCAPd", "TCAP", "DCAPi", "max_denom")) {
    v <- if (me %in% names(d$ident)) d$ident[[me]] else if (me %in% names(d$attrib)) d$attrib[[me]] else d$allCAPs[[me]]
    got <- unlist(iv[iv$measure == me, c("estimate", "conf.low", "conf.high")])
    expect_equal(unname(got), hand_interval(v, 0.9), tolerance = 1e-12, label = me)
  }
  # A measure of the original alone does not vary over syntheses.
  expect_equal(unlist(iv[iv$measure == "UiO", c("conf.low", "conf.high")]), c(conf.low = 48.38, conf.high = 48.38))
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, print.flag = FALSE, plot = FALSE, conf.level = 0.95)
  for (tv in c("depress", "marital")) {
    v <- md$output.list[[tv]]$attrib$DiSCO
    got <- md$intervals[md$intervals$target == tv & md$intervals$measure == "DiSCO", c("estimate", "conf.low", "conf.high")]
    expect_equal(unname(unlist(got)), hand_interval(v, 0.95), tolerance = 1e-12)
  }
})

test_that("the holdout's R has an interval across syntheses", {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  d <- disclosure(sd2011_synds5, parts$train, keys4, "depress", print.flag = FALSE, control = parts$control,
                  conf.level = 0.95)
  for (me in c("repU", "DiSCO")) {
    r <- d$holdout$R[d$holdout$measure == me]
    got <- d$holdout_intervals[d$holdout_intervals$measure == me, c("estimate", "conf.low", "conf.high")]
    expect_equal(unname(unlist(got)), hand_interval(r, 0.95), tolerance = 1e-12)
  }
})

# The bootstrap by hand: the same draws, the syntheses' records repeated by their counts,
# every measure from the reference, the mean over syntheses per replicate.
reference_replicates <- function(syn, data, args, boot, seed, measures) {
  set.seed(seed)
  per_replicate <- vector("list", boot)
  for (b in seq_len(boot)) {
    resampled <- lapply(syn, function(s) {
      n <- nrow(s)
      w <- rmultinom(1, n, rep(1, n))[, 1]
      s[rep(seq_len(n), w), , drop = FALSE]
    })
    want <- do.call(ref_disclosure, c(list(resampled, data), args))
    per_replicate[[b]] <- vapply(measures, function(me) mean(vapply(want, function(r) as.double(r[[me]]), 0)), 0)
  }
  do.call(rbind, per_replicate)
}

expect_replicates_match <- function(got, want, label) {
  for (me in colnames(want)) {
    g <- got$value[got$measure == me]
    expect_equal(g, unname(want[, me]), tolerance = 1e-9, label = paste(label, me))
  }
}

boot_measures <- c("UiS", "UiOiS", "repU", "Dsyn", "iS", "DiS", "DiSCO", "DCAPd", "DiSDiO", "DCAPs", "DCAPb",
                   "TCAP", "TCAPs", "TCAPb", "TCAP_taub", "DCAPi")

test_that("bootstrap replicates equal the reference on 200 random cases (grouping aside)", {
  local_quiet_labels()
  for (seed in 1:200) {
    case <- random_case(seed)
    # Grouping breaks are made once from every synthesis; the reference would remake
    # them from each resample, so grouped cases are left to the other tests.
    case$args$ngroups_target <- 0
    got <- do.call(disclosure, c(list(case$syn, case$data), case$args,
                                 list(print.flag = FALSE, boot = 3, seed = seed)))
    want <- reference_replicates(case$syn, case$data, case$args, 3, seed,
                                 intersect(boot_measures, names(got$measures)))
    expect_replicates_match(got$replicates, want, paste("case", seed))
  }
})

test_that("bootstrap replicates and intervals equal the reference on SD2011 (m = 1 and 5)", {
  got <- disclosure(sd2011_synds, sd2011, keys4, "depress", print.flag = FALSE, boot = 3, seed = 11)
  want <- reference_replicates(list(sd2011_synds$syn), sd2011, list(keys = keys4, target = "depress"), 3, 11,
                               c("repU", "DiSCO", "DCAPd", "TCAP"))
  expect_replicates_match(got$replicates, want, "m = 1")
  got5 <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, boot = 2, seed = 12)
  want5 <- reference_replicates(sd2011_synds5$syn, sd2011, list(keys = keys4, target = "depress"), 2, 12,
                                c("repU", "DiSCO", "DCAPd"))
  expect_replicates_match(got5$replicates, want5, "m = 5")
  # The interval: type 7 quantiles of the replicates, around the estimate of the call.
  d <- disclosure(sd2011_synds, sd2011, keys4, "depress", print.flag = FALSE, boot = 40, seed = 3, conf.level = 0.8)
  r <- d$replicates$value[d$replicates$measure == "DiSCO"]
  iv <- d$intervals[d$intervals$measure == "DiSCO", ]
  expect_equal(c(iv$conf.low, iv$conf.high), unname(quantile(r, c(0.1, 0.9), type = 7)))
  expect_equal(iv$estimate, d$attrib$DiSCO)
  expect_identical(iv$method, "bootstrap")
})

test_that("the holdout's R has a bootstrap interval from the same resampled syntheses", {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  d <- disclosure(sd2011_synds5, parts$train, keys4, "depress", print.flag = FALSE, control = parts$control,
                  boot = 3, seed = 5)
  train <- reference_replicates(sd2011_synds5$syn, parts$train, list(keys = keys4, target = "depress"), 3, 5,
                                c("repU", "DiSCO"))
  control <- reference_replicates(sd2011_synds5$syn, parts$train,
                                  list(keys = keys4, target = "depress", control = parts$control), 3, 5,
                                  c("repU", "DiSCO"))
  for (me in c("repU", "DiSCO")) {
    r <- (train[, me] / 100 - control[, me] / 100) / (1 - control[, me] / 100)
    expect_equal(d$holdout_replicates$value[d$holdout_replicates$measure == me], unname(r), tolerance = 1e-9)
  }
})

test_that("the bootstrap is identical for 1 and 2 threads, reproducible with seed, and leaves the random state", {
  set.seed(99)
  before <- .Random.seed
  a <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, boot = 5, seed = 7, n_threads = 1)
  expect_identical(.Random.seed, before)
  b <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, boot = 5, seed = 7, n_threads = 2)
  expect_identical(a$replicates, b$replicates)
  expect_identical(a$intervals, b$intervals)
  c2 <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, boot = 5, seed = 8)
  expect_false(identical(a$replicates, c2$replicates))
  # The measures of the call itself do not change.
  plain <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE)
  expect_identical(a$measures, plain$measures)
})

test_that("bad conf.level, boot and seed are errors naming them; nothing asked is ignored silently", {
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", conf.level = 95), "conf.level.*95")
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", boot = -1), "boot.*-1")
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", boot = 2.5), "boot.*2.5")
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", boot = 2, seed = "a"), "seed")
  cells <- cell_counts(data.frame(k = c("a", "b"), t = c("x", "y"), n = c(2, 3)))
  expect_error(disclosure(cells, data.frame(k = c("a", "b"), t = c("x", "x")), keys = "k", target = "t", boot = 2),
               "boot.*counted cells")
  expect_error(record_risk(sd2011_synds, sd2011, keys4, "depress", boot = 2), "boot")
  expect_error(tau_curve(sd2011_synds5, sd2011, keys4, "depress", boot = 2), "boot")
  # One synthesis: conf.level alone gives no interval, and the printout says why.
  d <- disclosure(sd2011_synds, sd2011, keys4, "depress", print.flag = FALSE, conf.level = 0.95)
  expect_null(d$intervals)
  expect_match(paste(format(d), collapse = "\n"), "need m >= 2", fixed = TRUE)
})

test_that("the tau curve has intervals across syntheses per target and tau", {
  tc <- tau_curve(sd2011_synds5, sd2011, keys4, targets = c("depress", "ls"), tau = c(0, 0.5, 1), conf.level = 0.95)
  iv <- attr(tc, "intervals")
  expect_identical(nrow(iv), 6L)
  for (i in seq_len(nrow(iv))) {
    v <- tc$synthetic[tc$target == iv$target[i] & tc$tau == iv$tau[i]]
    expect_equal(unname(unlist(iv[i, c("estimate", "conf.low", "conf.high")])), hand_interval(v, 0.95),
                 tolerance = 1e-12)
  }
  expect_match(paste(format(tc), collapse = "\n"), "95% intervals across syntheses", fixed = TRUE)
  one <- tau_curve(sd2011_synds, sd2011, keys4, targets = "depress", tau = c(0, 1), conf.level = 0.95)
  expect_null(attr(one, "intervals"))
  expect_match(paste(format(one), collapse = "\n"), "need m >= 2", fixed = TRUE)
  expect_error(size_curve(sd2011_synds5, sd2011, keys4, targets = "depress", conf.level = 0.95), "conf.level")
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", seed = 1), "seed.*boot")
})

test_that("tidy() gains conf.low and conf.high; type = 'intervals' lists them all", {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  md <- multi.disclosure(sd2011_synds5, parts$train, keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE, control = parts$control, conf.level = 0.95, boot = 3, seed = 1)
  t <- tidy(md)
  # The bootstrap's interval where there are both, on every synthesis's row.
  row <- t[t$target == "ls" & t$measure == "DiSCO", ]
  want <- md$intervals[md$intervals$target == "ls" & md$intervals$measure == "DiSCO" &
                         md$intervals$method == "bootstrap", ]
  expect_identical(nrow(row), 5L)
  expect_equal(unique(row$conf.low), want$conf.low)
  expect_equal(unique(row$conf.high), want$conf.high)
  expect_identical(unique(row$conf.method), "bootstrap")
  h <- tidy(md, type = "holdout")
  hr <- md$holdout_intervals[md$holdout_intervals$target == "depress" & md$holdout_intervals$measure == "repU" &
                               md$holdout_intervals$method == "bootstrap", ]
  expect_equal(unique(h$conf.low[h$target == "depress" & h$measure == "repU"]), hr$conf.low)
  all_iv <- tidy(md, type = "intervals")
  expect_named(all_iv, c("target", "measure", "quantity", "estimate", "conf.low", "conf.high", "method"))
  expect_setequal(all_iv$method, c("across syntheses", "bootstrap"))
  expect_setequal(all_iv$quantity, c("measure", "R"))
  # Without intervals tidy() is as before, and type = "intervals" says what is missing.
  plain <- multi.disclosure(sd2011_synds5, sd2011, keys4, targets = "ls", print.flag = FALSE, plot = FALSE)
  expect_false("conf.low" %in% names(tidy(plain)))
  expect_error(tidy(plain, type = "intervals"), "no intervals")
})

test_that("printouts show the estimate with its interval where there is one", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE, conf.level = 0.95)
  out <- paste(format(md), collapse = "\n")
  iv <- md$intervals[md$intervals$target == "depress" & md$intervals$measure == "DiSCO", ]
  expect_match(out, sprintf("%.2f (%.2f\u2013%.2f)", iv$estimate, iv$conf.low, iv$conf.high), fixed = TRUE)
  expect_match(out, "Intervals across the 5 syntheses", fixed = TRUE)
  d <- md$output.list$depress
  d$to.print <- "short"
  expect_match(paste(format(d), collapse = "\n"),
               sprintf("%.2f (%.2f\u2013%.2f)", iv$estimate, iv$conf.low, iv$conf.high), fixed = TRUE)
})

test_that("the full tables end with an Interval row holding each measure's interval", {
  d <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, conf.level = 0.95)
  out <- format(d, to.print = "attrib")
  row <- grep("^Interval ", out, value = TRUE)[1]
  iv <- d$intervals[d$intervals$measure %in% c("Dorig", "Dsyn", "iS", "DiS", "DiSCO"), ]
  want <- sprintf("%.2f\u2013%.2f", iv$conf.low, iv$conf.high)
  expect_identical(strsplit(trimws(sub("^Interval", "", row)), " +")[[1]], want)
})
