# tau_curve(): its ends against disclosure()'s measures, monotonicity, the plain-R
# reference (helper-reference.R) on random data, and argument checks.

keys4 <- c("sex", "age", "region", "placesize")

# multi.disclosure() arguments of a disclosure() case with target "t".
multi_args <- function(args) {
  out <- list(keys = args$keys, targets = "t", cont.na = args$cont.na, ngroups_targets = args$ngroups_target,
              usetargetsNA = args$usetargetNA, usekeysNA = args$usekeysNA,
              exclude_ov_denom_lim = args$exclude_ov_denom_lim, denom_lim = args$denom_lim)
  if (!is.null(args$not.targetlev)) out$not.targetslev <- list(t = args$not.targetlev)
  if (!is.null(args$exclude.keys)) {
    out$exclude.keys <- list(t = args$exclude.keys)
    out$exclude.keylevs <- list(t = args$exclude.keylevs)
    out$exclude.targetlevs <- list(t = args$exclude.targetlevs)
  }
  out
}

# The curve's values at one tau, per target and synthesis, and a measure of
# multi.disclosure() in the same order.
curve_at <- function(tc, at, column) {
  x <- as.data.frame(tc)
  x <- x[x$tau == at, ]
  x[[column]][order(match(x$target, unique(x$target)), x$synthesis)]
}
measure_of <- function(md, measure) {
  unlist(lapply(md$output.list, function(d) d$measures[[measure]]), use.names = FALSE)
}

expect_close <- function(a, b, tol = 1e-12, label = "") {
  expect_equal(length(a), length(b))
  expect(all(abs(a - b) <= tol * pmax(1, abs(b))), sprintf("%s: largest difference %g", label, max(abs(a - b))))
}

test_that("at tau = 1 the curves are DiSCO and Dorig, at tau = 0 DCAPd and CAPd (SD2011)", {
  tc <- tau_curve(sd2011_synds5, sd2011, keys = keys4)
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE)
  expect_s3_class(tc, c("synthrisk_tau_curve", "data.frame"), exact = TRUE)
  expect_named(tc, c("target", "synthesis", "tau", "synthetic", "original"))
  expect_identical(unique(tc$target), names(md$output.list))
  expect_equal(nrow(tc), length(md$output.list) * 5 * 21)
  expect_close(curve_at(tc, 1, "synthetic"), measure_of(md, "DiSCO"), label = "DiSCO")
  expect_close(curve_at(tc, 1, "original"), measure_of(md, "Dorig"), label = "Dorig")
  expect_close(curve_at(tc, 0, "synthetic"), measure_of(md, "DCAPd"), label = "DCAPd")
  expect_close(curve_at(tc, 0, "original"), measure_of(md, "CAPd"), label = "CAPd")
  m <- attr(tc, "measures")
  expect_close(m$DiSCO, measure_of(md, "DiSCO"))
  expect_close(m$DCAPd, measure_of(md, "DCAPd"))
})

test_that("at tau = 1 the curves are DiSCO and Dorig with exclusions and grouping (SD2011)", {
  args <- list(keys = c("sex", "age", "marital"), targets = c("income", "depress", "workab"),
               ngroups_targets = c(income = 10), usekeysNA = c(TRUE, FALSE, TRUE), usetargetsNA = FALSE,
               exclude_ov_denom_lim = TRUE, denom_lim = 3,
               not.targetslev = list(depress = "0"),
               exclude.keys = list(workab = "sex"), exclude.keylevs = list(workab = "FEMALE"),
               exclude.targetlevs = list(workab = "YES"))
  tc <- do.call(tau_curve, c(list(sd2011_synds5, sd2011, tau = c(1, 0.5, 0)), args))
  md <- do.call(multi.disclosure, c(list(sd2011_synds5, sd2011, print.flag = FALSE, plot = FALSE), args))
  expect_close(curve_at(tc, 1, "synthetic"), measure_of(md, "DiSCO"), label = "DiSCO")
  expect_close(curve_at(tc, 1, "original"), measure_of(md, "Dorig"), label = "Dorig")
  # Exclusions apply: tau = 0 is not DCAPd, but the curve still starts at or above it.
  expect_true(any(abs(curve_at(tc, 0, "synthetic") - measure_of(md, "DCAPd")) > 1e-6))
})

test_that("the curves are non-increasing in tau and keep the user's order of tau", {
  tau <- c(0.3, 1, 0, 0.3, 0.999, 0.5, 1 / 3, 0.05)
  tc <- tau_curve(sd2011_synds5, sd2011, keys = keys4, targets = c("depress", "marital", "ls"), tau = tau,
                  exclude_ov_denom_lim = TRUE)
  expect_equal(nrow(tc), 3 * 5 * length(tau))
  expect_identical(tc$tau[seq_along(tau)], tau)
  ord <- order(tau)
  for (piece in split(as.data.frame(tc), list(tc$target, tc$synthesis))) {
    expect_true(all(diff(piece$synthetic[ord]) <= 1e-12))
    expect_true(all(diff(piece$original[ord]) <= 1e-12))
    # Repeated tau values give the same numbers.
    expect_identical(piece$synthetic[1], piece$synthetic[4])
  }
})

test_that("tau_curve() agrees with the plain-R reference on 300 random datasets", {
  local_quiet_labels()
  for (seed in random_cases(300)) {
    case <- random_case(seed)
    set.seed(10000 + seed)
    tau <- c(sample(c(0, 1, 0.5, 1 / 3, 2 / 3, 0.25, 0.75, 0.2)), stats::runif(3))[seq_len(sample(2:11, 1))]
    want <- do.call(ref_disclosure, c(list(case$syn, case$data), case$args, list(tau = tau)))
    got <- do.call(tau_curve, c(list(case$syn, case$data, tau = tau), multi_args(case$args)))
    expect_true(same_numbers(got$synthetic, unlist(lapply(want, `[[`, "tau_syn"))), label = paste("seed", seed, "synthetic"))
    expect_true(same_numbers(got$original, unlist(lapply(want, `[[`, "tau_orig"))), label = paste("seed", seed, "original"))
    # The ends against disclosure() itself, to 1e-12.
    d <- do.call(disclosure, c(list(case$syn, case$data), case$args, list(print.flag = FALSE)))
    if (1 %in% tau) {
      expect_close(got$synthetic[got$tau == 1], d$attrib$DiSCO[rep(seq_len(d$m), each = sum(tau == 1))],
                   label = paste("seed", seed, "DiSCO"))
      expect_close(got$original[got$tau == 1], d$attrib$Dorig[rep(seq_len(d$m), each = sum(tau == 1))],
                   label = paste("seed", seed, "Dorig"))
    }
    excluded <- !isTRUE(case$args$usetargetNA) || !all(case$args$usekeysNA) || isTRUE(case$args$exclude_ov_denom_lim) ||
      !is.null(case$args$not.targetlev) || !is.null(case$args$exclude.keys)
    if (0 %in% tau && !excluded) {
      expect_close(got$synthetic[got$tau == 0], d$attrib$DCAPd[rep(seq_len(d$m), each = sum(tau == 0))],
                   label = paste("seed", seed, "DCAPd"))
      expect_close(got$original[got$tau == 0], d$allCAPs$CAPd[rep(seq_len(d$m), each = sum(tau == 0))],
                   label = paste("seed", seed, "CAPd"))
    }
  }
})

test_that("tau = 0 equals DCAPd and CAPd on random data without exclusions", {
  local_quiet_labels()
  for (seed in 1:60) {
    case <- random_case(seed)
    case$args[c("not.targetlev", "exclude.keys", "exclude.keylevs", "exclude.targetlevs")] <- NULL
    case$args$usetargetNA <- TRUE
    case$args$usekeysNA <- TRUE
    case$args$exclude_ov_denom_lim <- FALSE
    got <- do.call(tau_curve, c(list(case$syn, case$data, tau = c(0, 1)), multi_args(case$args)))
    d <- do.call(disclosure, c(list(case$syn, case$data), case$args, list(print.flag = FALSE)))
    expect_close(got$synthetic[got$tau == 0], d$attrib$DCAPd, label = paste("seed", seed))
    expect_close(got$original[got$tau == 0], d$allCAPs$CAPd, label = paste("seed", seed))
    expect_close(got$synthetic[got$tau == 1], d$attrib$DiSCO, label = paste("seed", seed))
  }
})

test_that("tau_curve() takes data frames, lists and cont.na as multi.disclosure() does", {
  one <- tau_curve(sd2011_synds5$syn[[1]], sd2011, keys = keys4, targets = "income", cont.na = list(income = -8),
                   ngroups_targets = 5, tau = c(0, 1))
  md <- multi.disclosure(sd2011_synds5$syn[[1]], sd2011, keys = keys4, targets = "income", cont.na = list(income = -8),
                         ngroups_targets = 5, print.flag = FALSE, plot = FALSE)
  expect_close(one$synthetic[one$tau == 1], measure_of(md, "DiSCO"))
  lst <- tau_curve(sd2011_synds5$syn[1:2], sd2011, keys = keys4, targets = "depress", tau = 1)
  expect_identical(lst$synthesis, 1:2)
  expect_error(tau_curve(sd2011_synds5, sd2011, keys = keys4, cont.na = list(income = -8)), "cont.na")
})

test_that("tau_curve() checks tau and names itself in errors", {
  for (bad in list(1.5, -0.1, NA_real_, numeric(0), "0.5", c(0, NaN), Inf)) {
    expect_error(tau_curve(sd2011_synds, sd2011, keys = keys4, tau = bad), "`tau` must be one or more numbers",
                 class = "rlang_error")
  }
  expect_snapshot(error = TRUE, tau_curve(sd2011_synds, sd2011, keys = keys4, tau = c(0, 2)))
  expect_snapshot(error = TRUE, tau_curve(sd2011_synds, sd2011, keys = c("sex", "nope")))
  expect_error(tau_curve(sd2011_synds, sd2011, keys = keys4, colour = 1), "Unknown argument")
})

test_that("print.flag is off unless asked; print() shows a compact table", {
  expect_silent(tc <- tau_curve(sd2011_synds5, sd2011, keys = keys4, targets = c("depress", "income"),
                                ngroups_targets = c(income = 5)))
  expect_output(tau_curve(sd2011_synds5, sd2011, keys = keys4, targets = c("depress", "income"),
                          ngroups_targets = c(income = 5), print.flag = TRUE), "Grouped 'income'")
  expect_snapshot(print(tc))
  expect_output(expect_identical(expect_invisible(print(tc)), tc))
})
