# size_curve(): full-size rows against multi.disclosure(), subsamples against
# disclosure() on the same rows (drawn again here in the documented order), seeds,
# capping, summary() and argument checks.

keys4 <- c("sex", "age", "region", "placesize")
default_measures <- c("DiSCO", "DCAPd", "DCAPs", "DCAPb", "TCAP", "TCAPs", "TCAPb")

expect_close <- function(a, b, tol = 1e-12, label = "") {
  expect_equal(length(a), length(b))
  ok <- (is.nan(a) & is.nan(b)) | abs(a - b) <= tol * pmax(1, abs(b))
  expect(all(ok), sprintf("%s: largest difference %g", label, max(abs(a - b))))
}

test_that("a size-curve row at full size equals the measures of multi.disclosure()", {
  sc <- size_curve(sd2011_synds5, sd2011, keys = keys4, sizes = c(5000, 1000), reps = 2, seed = 3,
                   measures = c(default_measures, "repU", "DCAP", "TCAP_taub"))
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE)
  expect_s3_class(sc, c("synthrisk_size_curve", "data.frame"), exact = TRUE)
  expect_named(sc, c("target", "synthesis", "size", "rep", "measure", "value"))
  full <- as.data.frame(sc)[sc$size == 5000, ]
  for (tv in names(md$output.list)) {
    d <- md$output.list[[tv]]
    for (meas in c(default_measures, "repU", "DCAP", "TCAP_taub")) {
      col <- if (meas == "DCAP") "DCAPd" else meas
      got <- full[full$target == tv & full$measure == meas, ]
      expect_identical(got$synthesis, rep(1:5, each = 2))
      expect_close(got$value, rep(d$measures[[col]], each = 2), label = paste(tv, meas))
    }
  }
})

test_that("every subsample gives the measures of disclosure() on the same rows", {
  syn <- list(sd2011_synds5$syn[[1]], sd2011_synds5$syn[[2]][1:3000, ])
  sizes <- c(400, 2500, 3500)
  sc <- size_curve(syn, sd2011, keys = c("sex", "age", "marital"), targets = c("depress", "income"),
                   cont.na = list(income = -8), ngroups_targets = c(income = 8), sizes = sizes, reps = 2,
                   seed = 42, measures = c("DiSCO", "DCAPb", "TCAP", "UiS", "repU"), usetargetsNA = FALSE)
  # The documented order: synthesis, then size (capped at its rows), then repeat.
  set.seed(42)
  for (j in 1:2) {
    n <- nrow(syn[[j]])
    for (k in unique(pmin(sizes, n))) {
      for (r in 1:2) {
        rows <- if (k == n) seq_len(n) else sample.int(n, k)
        if (k == n && r == 2) next
        # (income is grouped at breaks of the whole syntheses, so only depress is redone.)
        for (tv in "depress") {
          d <- disclosure(syn[[j]][rows, ], sd2011, keys = c("sex", "age", "marital"), target = tv,
                          usetargetNA = FALSE, print.flag = FALSE)
          got <- sc[sc$target == tv & sc$synthesis == j & sc$size == k & sc$rep == r, ]
          expect_identical(got$measure, c("DiSCO", "DCAPb", "TCAP", "UiS", "repU"))
          expect_close(got$value, unname(unlist(d$measures[1, got$measure])), label = paste(j, k, r, tv))
        }
      }
    }
  }
  # The second synthesis has 3000 rows: 3500 was capped to it.
  expect_identical(sort(unique(sc$size[sc$synthesis == 2])), c(400L, 2500L, 3000L))
  capped <- attr(sc, "capped")
  expect_identical(capped$synthesis, 2L)
  expect_output(print(sc), "Synthesis 2 has 3,000 rows; the larger sizes asked for (3,500) use all of them.", fixed = TRUE)
  # A subset prints what it holds: one synthesis, nothing capped.
  one <- capture.output(print(sc[sc$synthesis == 1, ]))
  expect_match(one[1], "means over 2 repeats$")
  expect_false(any(grepl("Synthesis 2", one)))
})

test_that("seed makes the draws reproducible and leaves the session's random numbers alone", {
  set.seed(1)
  before <- .Random.seed
  a <- size_curve(sd2011_synds, sd2011, keys = keys4, targets = "depress", sizes = c(100, 800), reps = 3, seed = 7)
  expect_identical(.Random.seed, before)
  b <- size_curve(sd2011_synds, sd2011, keys = keys4, targets = "depress", sizes = c(100, 800), reps = 3, seed = 7)
  expect_identical(a$value, b$value)
  c <- size_curve(sd2011_synds, sd2011, keys = keys4, targets = "depress", sizes = c(100, 800), reps = 3, seed = 8)
  expect_false(identical(a$value, c$value))
  # Without a seed the session's generator is used.
  set.seed(7)
  d <- size_curve(sd2011_synds, sd2011, keys = keys4, targets = "depress", sizes = c(100, 800), reps = 3)
  expect_identical(a$value, d$value)
  expect_false(identical(.Random.seed, before))
})

test_that("default sizes run from 5 % to 100 % of the original in 20 steps", {
  sc <- size_curve(sd2011_synds, sd2011, keys = keys4, targets = "depress", reps = 1, seed = 1, measures = "DiSCO")
  expect_identical(unique(sc$size), as.integer(round(seq(0.05, 1, length.out = 20) * 5000)))
  expect_identical(sc$rep, rep(1L, 20))
  # Subsamples of the synthetic data see fewer original records predicted with certainty.
  expect_true(sc$value[1] < sc$value[20])
})

test_that("summary() gives mean, sd, min and max per target, size and measure", {
  sc <- size_curve(sd2011_synds5, sd2011, keys = keys4, targets = c("depress", "ls"), sizes = c(300, 2000),
                   reps = 3, seed = 2, measures = c("TCAP", "DCAPd"))
  s <- summary(sc)
  expect_named(s, c("target", "size", "measure", "n", "mean", "sd", "min", "max"))
  expect_equal(nrow(s), 2 * 2 * 2)
  x <- as.data.frame(sc)
  for (i in seq_len(nrow(s))) {
    v <- x$value[x$target == s$target[i] & x$size == s$size[i] & x$measure == s$measure[i]]
    v <- v[!is.nan(v)]
    expect_equal(s$n[i], length(v))
    expect_equal(c(s$mean[i], s$sd[i], s$min[i], s$max[i]), c(mean(v), stats::sd(v), min(v), max(v)))
  }
  expect_identical(s$target, rep(c("depress", "ls"), each = 4))
  expect_identical(s$measure, rep(c("TCAP", "DCAPd"), 4))
})

test_that("size_curve() checks its arguments and names itself in errors", {
  call <- function(...) size_curve(sd2011_synds, sd2011, keys = keys4, targets = "depress", ...)
  for (bad in list(0, -5, 2.5, NA, "10", numeric(0), Inf)) expect_error(call(sizes = bad), "`sizes` must be positive")
  for (bad in list(0, 1.5, NA, c(2, 3), "3")) expect_error(call(reps = bad), "`reps` must be a positive whole number")
  for (bad in list(1.5, NA, "a", c(1, 2))) expect_error(call(seed = bad), "`seed` must be")
  expect_snapshot(error = TRUE, call(measures = c("DiSCO", "DCAP_d")))
  expect_error(call(measures = "max_denom"), "measures")
  expect_error(call(colour = 1), "Unknown argument")
})

test_that("print() shows a compact table of means", {
  sc <- size_curve(sd2011_synds5, sd2011, keys = keys4, targets = c("depress", "ls"), sizes = c(500, 2500, 5000),
                   reps = 2, seed = 1, measures = c("DiSCO", "TCAP"))
  expect_snapshot(print(sc))
  expect_output(expect_identical(expect_invisible(print(sc)), sc))
})

test_that("print() names each measure's denominator and says why a value exceeds 100 (issue 37)", {
  # Few keys: a small subsample meets most key combinations, so C (original records)
  # is many times Ns.
  sc <- size_curve(sd2011_synds, sd2011, keys = c("sex", "region"), targets = "depress", sizes = c(200, 5000),
                   reps = 2, seed = 1, measures = c("DiSCO", "DCAPs", "TCAPb"))
  over <- unique(sc$measure[sc$value > 100 & !is.na(sc$value)])
  expect_identical(over, "DCAPs")
  out <- gsub("\\s+", " ", paste(capture.output(print(sc)), collapse = " "))
  expect_no_match(out, "measures (%)", fixed = TRUE)
  expect_match(out, "Size curve: measures (100 x numerator / denominator)", fixed = TRUE)
  expect_match(out, paste("Denominators: DiSCO over Nd, the original records; DCAPs over Ns, the records of the",
                          "subsample; TCAPb over Nb, the records of the subsample whose key combination is in the",
                          "original."), fixed = TRUE)
  expect_match(out, paste("Values over 100 (DCAPs): its numerator counts original records (C, at most Nd = 5,000)",
                          "and its denominator records of the subsample (Ns)"), fixed = TRUE)
  # Without a value over 100, no such line.
  small <- sc[sc$measure != "DCAPs", ]
  expect_no_match(paste(capture.output(print(small)), collapse = " "), "over 100", fixed = TRUE)
})
