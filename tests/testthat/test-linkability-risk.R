# linkability_risk() against the plain-R reference of helper-attacks-reference.R (SPEC
# 13): every rate, risk and interval and each target's probability, for k = 1 ... 5,
# on random data with many ties and on SD2011 samples; the probability against a
# simulation of random tie breaking; the errors.

link_columns <- c("synthesis", "n", "successes", "rate", "n_control", "successes_control", "rate_control",
                  "successes_baseline", "rate_baseline", "risk", "conf.low", "conf.high", "any")

expect_same_link <- function(got, want, label) {
  expect_equal(got$results[link_columns], want$results[link_columns], tolerance = 1e-9, label = label)
  expect_equal(got$records[c("set", "synthesis", "row", "success", "any")],
               want$records[c("set", "synthesis", "row", "success", "any")], tolerance = 1e-9,
               label = paste(label, "records"))
}

test_that("linkability_risk() equals the reference on random data, k = 1 to 5", {
  for (seed in random_cases(120, cran = 8)) {
    case <- random_attack_case(seed)
    p <- length(case$vars)
    split <- sample(case$vars)
    cut <- sample(seq_len(p - 1), 1)
    aux_a <- split[seq_len(cut)]
    aux_b <- split[(cut + 1):p]
    k <- sample(1:5, 1)
    k <- min(k, vapply(case$syn, nrow, integer(1)))
    n_attacks <- if (runif(1) < 0.2) sample(1:5, 1) else NULL
    got <- linkability_risk(case$syn, case$data, aux_a, aux_b, n_neighbors = k, control = case$control,
                            cont.na = case$cont.na, n_attacks = n_attacks, seed = if (!is.null(n_attacks)) seed, records = TRUE,
                            n_threads = 1 + seed %% 2)
    want <- ref_linkability(case$syn, case$data, aux_a, aux_b, k, case$control, case$cont.na, n_attacks, seed)
    expect_same_link(got, want, paste("seed", seed, "k", k))
  }
})

test_that("linkability_risk() equals the reference on samples of SD2011, m = 1 and 3", {
  set.seed(4)
  vars <- c("sex", "age", "region", "placesize", "marital", "income")
  data <- sd2011[sample(nrow(sd2011), 120), vars]
  control <- sd2011[sample(nrow(sd2011), 50), vars]
  syn <- lapply(sd2011_synds5$syn[1:3], function(s) s[sample(5000, 90), vars])
  for (k in c(1, 3)) {
    got <- linkability_risk(syn, data, c("sex", "age", "region"), c("placesize", "marital", "income"),
                            n_neighbors = k, control = control, cont.na = list(income = -8), records = TRUE)
    want <- ref_linkability(syn, data, c("sex", "age", "region"), c("placesize", "marital", "income"), k, control,
                            list(income = -8))
    expect_same_link(got, want, paste("k", k))
  }
})

test_that("the probability of a link agrees with random tie breaking", {
  set.seed(11)
  data <- data.frame(a = c("x", "y", "x"), b = c(1, 2, 2))
  syn <- data.frame(a = sample(c("x", "y"), 40, replace = TRUE), b = sample(1:3, 40, replace = TRUE))
  for (k in c(1, 2, 4)) {
    got <- linkability_risk(syn, data, "a", "b", n_neighbors = k, records = TRUE)
    for (i in 1:3) {
      da <- as.numeric(syn$a != data$a[i])
      db <- abs(syn$b - data$b[i]) / 1
      draws <- replicate(4000, {
        # each list: the k nearest, ties at the k-th distance in random order
        la <- order(da, runif(40))[seq_len(k)]
        lb <- order(db, runif(40))[seq_len(k)]
        length(intersect(la, lb)) > 0
      })
      p <- got$records$success[i]
      se <- sqrt(max(p * (1 - p), 1e-4) / 4000)
      expect_lt(abs(mean(draws) - p), 5 * se)
    }
  }
})

test_that("a target tied with half the data costs no more than one neighbour", {
  n <- 20000
  data <- data.frame(a = rep(c("x", "y"), n / 2), b = rep(c("p", "q"), each = n / 2))
  syn <- data[sample(n), ]
  got <- linkability_risk(syn, data, "a", "b", n_neighbors = 1, records = TRUE)
  # A= has n/2 records, B= n/2, of which n/4 are shared: (n/4) / (n/2)^2.
  expect_equal(got$records$success, rep((n / 4) / (n / 2)^2, n))
  expect_true(all(got$records$any))
})

test_that("linkability_risk() errors name the argument and the value", {
  d <- sd2011[1:50, c("sex", "age", "depress")]
  s <- sd2011_synds$syn[1:30, c("sex", "age", "depress")]
  expect_error(linkability_risk(s, d, c("sex", "age"), c("age", "depress")), "share \"age\"")
  expect_error(linkability_risk(s, d, "sex", "depress", n_neighbors = 31), "more than the 30 records")
  expect_error(linkability_risk(s, d, "sex", "depress", n_neighbors = 0), "n_neighbors")
  expect_error(linkability_risk(s, d, "sex", "depres"), "not in `data`")
  expect_error(linkability_risk(s, d, "sex", "depress", control = d[, c("sex", "age")]), "`control` lacks")
  expect_error(linkability_risk(s, d, "sex"), "aux_b")
})
