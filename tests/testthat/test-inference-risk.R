# inference_risk() against the plain-R reference of helper-attacks-reference.R (SPEC
# 13): every rate, risk and interval, and each target's success, on SD2011 samples and
# on random data with many ties; the errors.

result_columns <- c("synthesis", "n", "successes", "rate", "n_control", "successes_control", "rate_control",
                    "successes_baseline", "rate_baseline", "risk", "conf.low", "conf.high")

expect_same_inference <- function(got, want, label) {
  expect_equal(got$results[c("secret", result_columns)], want$results[c("secret", result_columns)],
               tolerance = 1e-9, label = label)
  if (!is.null(got$records)) {
    expect_equal(got$records[c("set", "synthesis", "secret", "row", "success", "nearest")],
                 want$records[c("set", "synthesis", "secret", "row", "success", "nearest")], tolerance = 1e-9,
                 label = paste(label, "records"))
  }
}

test_that("inference_risk() equals the reference on random data with ties, NA, Missing and cont.na codes", {
  for (seed in random_cases(120, cran = 8)) {
    case <- random_attack_case(seed)
    secret <- sample(case$vars, sample(1:2, 1))
    aux <- if (runif(1) < 0.5 || length(secret) == length(case$vars)) NULL else setdiff(case$vars, secret)
    numeric_secret <- any(case$kinds[match(secret, case$vars)] %in% c("integer", "double"))
    tolerance <- if (numeric_secret && runif(1) < 0.5) sample(c(0, 0.1, 0.5), 1) else NULL
    n_attacks <- if (runif(1) < 0.2) sample(1:5, 1) else NULL
    got <- inference_risk(case$syn, case$data, secret = secret, aux = aux, control = case$control,
                          tolerance = tolerance, cont.na = case$cont.na, n_attacks = n_attacks, seed = if (!is.null(n_attacks)) seed,
                          records = TRUE, n_threads = 1 + seed %% 2)
    want <- ref_inference(case$syn, case$data, secret, aux, case$control, tolerance, case$cont.na, n_attacks, seed)
    expect_same_inference(got, want, paste("seed", seed))
  }
})

test_that("inference_risk() equals the reference on samples of SD2011, m = 1 and 5", {
  set.seed(3)
  vars <- c("sex", "age", "region", "placesize", "depress", "income")
  data <- sd2011[sample(nrow(sd2011), 150), vars]
  control <- sd2011[sample(nrow(sd2011), 60), vars]
  syn1 <- list(sd2011_synds$syn[sample(5000, 120), vars])
  syn5 <- lapply(sd2011_synds5$syn, function(s) s[sample(5000, 80), vars])
  cont.na <- list(income = -8)
  got <- inference_risk(syn1, data, secret = c("depress", "income"), aux = c("sex", "age", "region"),
                        control = control, tolerance = 0.1, cont.na = cont.na, records = TRUE)
  want <- ref_inference(syn1, data, c("depress", "income"), c("sex", "age", "region"), control, 0.1, cont.na)
  expect_same_inference(got, want, "m = 1")
  got5 <- inference_risk(syn5, data, secret = "depress", control = control, cont.na = cont.na)
  want5 <- ref_inference(syn5, data, "depress", NULL, control, NULL, cont.na)
  expect_same_inference(got5, want5, "m = 5")
  # The summary: the mean over syntheses and the interval across them.
  expect_equal(got5$summary$risk, mean(want5$results$risk))
  half <- qt(0.975, 4) * sd(want5$results$risk) / sqrt(5)
  expect_equal(got5$summary$conf.high, min(1, mean(want5$results$risk) + half))
})

test_that("with categorical aux and an exact match, inference is DCAP's ps of the target's key", {
  vars <- c("sex", "region", "marital")
  data <- sd2011[1:400, vars]
  syn <- sd2011_synds$syn[, vars]
  got <- inference_risk(syn, data, secret = "marital", aux = c("sex", "region"), records = TRUE)
  key <- function(d) paste(d$sex, d$region, sep = "\r")
  lab <- function(x) ifelse(is.na(x), "Missing", as.character(x))
  ks <- key(syn)
  for (i in c(1, 7, 50, 399)) {
    same <- ks == key(data[i, ])
    if (any(same)) expect_equal(got$records$success[i], mean(lab(syn$marital[same]) == lab(data$marital[i])))
  }
})

test_that("targets tied with half the data get the exact answer (their nearest set counted, not listed)", {
  n <- 20000
  data <- data.frame(b = rep(c("x", "y"), n / 2), s = rep(c("p", "q", "q", "r"), n / 4))
  syn <- data[sample(n), ]
  got <- inference_risk(syn, data, secret = "s", aux = "b", records = TRUE)
  # b = "x" rows carry p and q, b = "y" rows q and r, half each: every target's nearest
  # set is the n / 2 records of its b, and half of them share its secret.
  expect_equal(got$records$success, rep(0.5, n))
  expect_equal(got$records$nearest, rep(n / 2, n))
  expect_equal(got$results$rate_baseline, mean(ifelse(data$s == "q", 0.5, 0.25)))
})

test_that("inference_risk() errors name the argument and the value", {
  d <- sd2011[1:50, c("sex", "age", "depress")]
  s <- sd2011_synds$syn[1:50, c("sex", "age", "depress")]
  expect_error(inference_risk(s, d, secret = "depress", aux = c("age", "depress")), "among `aux`")
  expect_error(inference_risk(s, d, secret = "dep"), "not in `data`")
  expect_error(inference_risk(s, d, secret = "depress", tolerance = -1), "tolerance")
  expect_error(inference_risk(s, d, secret = "depress", control = d[, c("sex", "depress")]), "`control` lacks \"age\"")
  expect_error(inference_risk(s, d, secret = "depress", n_attacks = 0), "n_attacks")
  expect_error(inference_risk(s, d, secret = "depress", conf.level = 2), "conf.level")
  expect_error(inference_risk(s, d, secret = "depress", boot = 10), "boot")
  expect_error(inference_risk(s[, c("sex", "age")], d, secret = "depress"), "lacks")
  expect_error(inference_risk(s, d), "secret")
  expect_error(inference_risk(s, d, secret = "depress", seed = 1), "without it every record is attacked")
})

test_that("inputs are not modified and a tolerance on a categorical secret is said", {
  d <- sd2011[1:60, c("sex", "age", "depress", "marital")]
  s <- sd2011_synds$syn[1:70, c("sex", "age", "depress", "marital")]
  d0 <- d
  s0 <- s
  r <- inference_risk(s, d, secret = c("depress", "marital"), tolerance = 0.1)
  expect_identical(d, d0)
  expect_identical(s, s0)
  expect_match(paste(format(r), collapse = " "), "marital is compared by label")
})
