# Intervals (R/intervals.R, definitions vignette section 12): across syntheses against a
# hand computation with qt(), clamped to what the measure can take and with the caveat
# read from SPEC 12 by hand; the resampling bootstrap refused. Resynthesis is tested in
# test-resynthesize.R.

keys4 <- c("sex", "age", "region", "placesize")

# By hand: mean -/+ qt((1 + conf) / 2, m - 1) * sd / sqrt(m), clamped to `range`; the
# caveat: all values equal, a value at the range's edge, or whole numbers with fewer
# distinct values than min(m, 4).
hand_interval <- function(v, conf, range = c(0, 100)) {
  m <- length(v)
  half <- qt((1 + conf) / 2, m - 1) * sd(v) / sqrt(m)
  low <- mean(v) - half
  high <- mean(v) + half
  caveat <- if (sd(v) == 0) "all equal" else if (min(v) <= range[1] || max(v) >= range[2]) "at a bound" else
    if (all(v %% 1 == 0) && length(unique(v)) < min(m, 4)) "few values" else NA
  list(value = c(mean(v), max(low, range[1]), min(high, range[2])), caveat = caveat)
}

expect_interval <- function(row, v, conf, range = c(0, 100), label = "") {
  want <- hand_interval(v, conf, range)
  expect_equal(unname(unlist(row[c("estimate", "conf.low", "conf.high")])), want$value, tolerance = 1e-12,
               label = label)
  expect_identical(row$caveat, as.character(want$caveat), label = paste(label, "caveat"))
}

test_that("intervals across syntheses are the mean -/+ t times the standard error, clamped (SD2011, m = 5)", {
  d <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, conf.level = 0.9)
  iv <- d$intervals
  expect_setequal(iv$method, "across syntheses")
  for (me in c("repU", "UiS", "DiSCO", "DCAPd", "TCAP", "DCAPi", "max_denom")) {
    v <- if (me %in% names(d$ident)) d$ident[[me]] else if (me %in% names(d$attrib)) d$attrib[[me]] else d$allCAPs[[me]]
    range <- if (me == "max_denom") c(0, Inf) else c(0, 100)
    expect_interval(iv[iv$measure == me, ], v, 0.9, range, me)
  }
  # Without a caveat on what is shown, no footnote (UiO and Dorig are exact).
  expect_no_match(paste(format(d), collapse = "\n"), "*: the values", fixed = TRUE)
  # A measure of the original alone does not vary over syntheses: its exact value, no caveat.
  uio <- iv[iv$measure == "UiO", ]
  expect_equal(c(uio$conf.low, uio$conf.high), c(48.38, 48.38))
  expect_identical(uio$caveat, NA_character_)
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, print.flag = FALSE, plot = FALSE, conf.level = 0.95)
  for (tv in c("depress", "marital")) {
    v <- md$output.list[[tv]]$attrib$DiSCO
    expect_interval(md$intervals[md$intervals$target == tv & md$intervals$measure == "DiSCO", ], v, 0.95, label = tv)
  }
})

test_that("intervals near 0 are clamped at 0 and carry a caveat; random cases equal the hand computation", {
  local_quiet_labels()
  # Few keys and a dominant target level: DiSDiO near 0 in every synthesis.
  d <- disclosure(sd2011_synds5, sd2011, c("sex", "region", "placesize"), "marital", print.flag = FALSE,
                  conf.level = 0.95)
  iv <- d$intervals[d$intervals$measure == "DiSDiO", ]
  expect_gte(iv$conf.low, 0)
  expect_true(iv$caveat %in% c("at a bound", "all equal"))
  expect_interval(iv, d$attrib$DiSDiO, 0.95, label = "DiSDiO")
  for (seed in 1:60) {
    case <- random_case(seed)
    if (!is.list(case$syn) || is.data.frame(case$syn) || length(case$syn) < 2) next
    got <- do.call(disclosure, c(list(case$syn, case$data), case$args, list(print.flag = FALSE, conf.level = 0.9)))
    for (me in c("repU", "DiSCO", "DCAPd", "DiSDiO")) {
      v <- if (me == "repU") got$ident$repU else got$attrib[[me]]
      if (anyNA(v)) next
      expect_interval(got$intervals[got$intervals$measure == me, ], v, 0.9, label = paste("case", seed, me))
    }
  }
})

test_that("the holdout's R has an interval across syntheses, at most 1", {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  d <- disclosure(sd2011_synds5, parts$train, keys4, "depress", print.flag = FALSE, control = parts$control,
                  conf.level = 0.95)
  for (me in c("repU", "DiSCO")) {
    r <- d$holdout$R[d$holdout$measure == me]
    expect_interval(d$holdout_intervals[d$holdout_intervals$measure == me, ], r, 0.95, c(-Inf, 1), me)
  }
  # R inherits the caveat of its measure's values (DiSDiO near 0).
  near0 <- disclosure(sd2011_synds5, parts$train, c("sex", "region", "placesize"), "marital", print.flag = FALSE,
                      control = parts$control, conf.level = 0.95)
  for (me in unique(near0$holdout$measure)) {
    rows <- near0$holdout$measure == me
    r_iv <- near0$holdout_intervals[near0$holdout_intervals$measure == me, ]
    if (is.na(r_iv$conf.low)) next
    own <- hand_interval(near0$holdout$R[rows], 0.95, c(-Inf, 1))$caveat
    want <- if (is.na(own)) hand_interval(near0$holdout$train[rows], 0.95)$caveat else own
    # Measures of the original alone are exact: no caveat.
    if (me %in% c("UiO", "Dorig", "baseCAPd", "CAPd")) want <- NA
    expect_identical(r_iv$caveat, as.character(want), label = me)
  }
})

test_that("boot is refused with what to use instead; bad conf.level and seed are errors naming them", {
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", boot = 200, seed = 1),
               "`boot` is gone.*resynthesize")
  expect_error(multi.disclosure(sd2011_synds5, sd2011, keys4, boot = 2), "`boot` is gone.*conf.level")
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", conf.level = 95), "conf.level.*95")
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", seed = 1), "seed.*resynthesize")
  # One synthesis: conf.level alone gives no interval, and the printout says why.
  d <- disclosure(sd2011_synds, sd2011, keys4, "depress", print.flag = FALSE, conf.level = 0.95)
  expect_null(d$intervals)
  expect_match(paste(format(d), collapse = " "), "need m >= 2; with one\\s+synthesis draw more")
})

test_that("the tau curve has intervals across syntheses per target and tau", {
  tc <- tau_curve(sd2011_synds5, sd2011, keys4, targets = c("depress", "ls"), tau = c(0, 0.5, 1), conf.level = 0.95)
  iv <- attr(tc, "intervals")
  expect_identical(nrow(iv), 6L)
  for (i in seq_len(nrow(iv))) {
    v <- tc$synthetic[tc$target == iv$target[i] & tc$tau == iv$tau[i]]
    expect_interval(iv[i, ], v, 0.95, label = paste(iv$target[i], iv$tau[i]))
  }
  expect_match(paste(format(tc), collapse = "\n"), "95% intervals across syntheses", fixed = TRUE)
  one <- tau_curve(sd2011_synds, sd2011, keys4, targets = "depress", tau = c(0, 1), conf.level = 0.95)
  expect_null(attr(one, "intervals"))
  expect_match(paste(format(one), collapse = "\n"), "need m >= 2", fixed = TRUE)
  expect_error(size_curve(sd2011_synds5, sd2011, keys4, targets = "depress", conf.level = 0.95), "conf.level")
  expect_error(size_curve(sd2011_synds5, sd2011, keys4, targets = "depress", resynthesize = 2), "resynthesize")
})

test_that("tidy() gains conf.low, conf.high and conf.caveat; type = 'intervals' lists them all", {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  md <- multi.disclosure(sd2011_synds5, parts$train, keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE, control = parts$control, conf.level = 0.95)
  t <- tidy(md)
  row <- t[t$target == "ls" & t$measure == "DiSCO", ]
  want <- md$intervals[md$intervals$target == "ls" & md$intervals$measure == "DiSCO", ]
  expect_identical(nrow(row), 5L)
  expect_equal(unique(row$conf.low), want$conf.low)
  expect_equal(unique(row$conf.high), want$conf.high)
  expect_identical(unique(row$conf.method), "across syntheses")
  expect_identical(unique(row$conf.caveat), want$caveat)
  h <- tidy(md, type = "holdout")
  hr <- md$holdout_intervals[md$holdout_intervals$target == "depress" & md$holdout_intervals$measure == "repU", ]
  expect_equal(unique(h$conf.low[h$target == "depress" & h$measure == "repU"]), hr$conf.low)
  all_iv <- tidy(md, type = "intervals")
  expect_named(all_iv, c("target", "measure", "quantity", "estimate", "conf.low", "conf.high", "method", "caveat"))
  expect_setequal(all_iv$quantity, c("measure", "R"))
  plain <- multi.disclosure(sd2011_synds5, sd2011, keys4, targets = "ls", print.flag = FALSE, plot = FALSE)
  expect_false("conf.low" %in% names(tidy(plain)))
  expect_error(tidy(plain, type = "intervals"), "no intervals")
})

test_that("printouts show the estimate with its interval, and a * with its explanation where there is a caveat", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE, conf.level = 0.95)
  out <- paste(format(md), collapse = "\n")
  iv <- md$intervals[md$intervals$target == "depress" & md$intervals$measure == "DiSCO", ]
  star <- if (is.na(iv$caveat)) "" else "*"
  shown <- sprintf("%.2f (%.2f\u2013%.2f%s)", iv$estimate, iv$conf.low, iv$conf.high, star)
  expect_match(out, shown, fixed = TRUE)
  expect_match(out, "Intervals across the 5 syntheses", fixed = TRUE)
  d <- md$output.list$depress
  d$to.print <- "short"
  expect_match(paste(format(d), collapse = "\n"), shown, fixed = TRUE)
  near0 <- disclosure(sd2011_synds5, sd2011, c("sex", "region", "placesize"), "marital", print.flag = FALSE,
                      conf.level = 0.95)
  out <- paste(format(near0, to.print = "attrib"), collapse = "\n")
  expect_match(out, "[0-9]\\*", perl = TRUE)
  expect_match(out, "*: the values across syntheses are all equal, reach 0 or 100 %", fixed = TRUE)
  # Without any caveat, no footnote.
  clean <- md
  clean$intervals$caveat <- NA_character_
  expect_no_match(paste(format(clean), collapse = "\n"), "*: the values", fixed = TRUE)
})

test_that("the full tables end with an Interval row holding each measure's interval", {
  d <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, conf.level = 0.95)
  out <- format(d, to.print = "attrib")
  row <- grep("^Interval ", out, value = TRUE)[1]
  iv <- d$intervals[d$intervals$measure %in% c("Dorig", "Dsyn", "iS", "DiS", "DiSCO"), ]
  want <- sprintf("%.2f\u2013%.2f%s", iv$conf.low, iv$conf.high, ifelse(is.na(iv$caveat), "", "*"))
  expect_identical(strsplit(trimws(sub("^Interval", "", row)), " +")[[1]], want)
})
