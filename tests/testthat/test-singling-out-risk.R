# singling_out_risk() against the plain-R reference of helper-attacks-reference.R
# (SPEC 13): univariate queries, multivariate ones drawn with R's random numbers (both
# stopping rules, batches spanning several crossings), queries given, subsets of data
# of the control's size, the baseline; every rate, risk and interval; the errors.

so_columns <- c("synthesis", "n", "successes", "rate", "rate_full", "n_control", "successes_control", "rate_control",
                "successes_baseline", "rate_baseline", "risk", "conf.low", "conf.high", "not_single")

expect_same_so <- function(got, want, label) {
  expect_equal(got$results[so_columns], want$results[so_columns], tolerance = 1e-9, label = label)
}

test_that("univariate singling out equals the reference on random data", {
  for (seed in random_cases(100, cran = 8)) {
    case <- random_attack_case(seed)
    got <- tryCatch(singling_out_risk(case$syn, case$data, control = case$control, seed = seed, reps = 3,
                                      n_threads = 1 + seed %% 2), error = function(e) conditionMessage(e))
    want <- ref_singling_out(case$syn, case$data, control = case$control, seed = seed, reps = 3)
    if (is.character(got)) {
      expect_true(any(want$results$n == 0), label = paste("seed", seed, got))
      next
    }
    expect_same_so(got, want, paste("seed", seed))
  }
})

test_that("multivariate singling out equals the reference, with R's random numbers", {
  for (seed in random_cases(60, cran = 4)) {
    case <- random_attack_case(seed)
    n_cols <- sample(2:length(case$vars), 1)
    n_attacks <- sample(c(2, 5, 50), 1)
    max_attempts <- sample(c(7, 1500, 5000), 1)
    got <- tryCatch(singling_out_risk(case$syn, case$data, n_cols = n_cols, n_attacks = n_attacks,
                                      max_attempts = max_attempts, control = case$control, seed = seed, reps = 2),
                    error = function(e) conditionMessage(e))
    want <- ref_singling_out(case$syn, case$data, n_cols = n_cols, n_attacks = n_attacks, max_attempts = max_attempts,
                             control = case$control, seed = seed, reps = 2)
    if (is.character(got)) {
      expect_true(any(want$results$n == 0), label = paste("seed", seed, got))
      next
    }
    expect_same_so(got, want, paste("seed", seed))
  }
})

test_that("the random state after the draws is that of drawing batch by batch", {
  set.seed(1)
  data <- data.frame(a = sample(1:400), b = sample(letters, 400, TRUE), c = runif(400))
  syn <- data.frame(a = sample(1:400), b = sample(letters, 400, TRUE), c = runif(400))
  # 2,500 attempts would span three batches; few are needed, so the core stops in the first.
  got <- singling_out_risk(syn, data, n_cols = 2, n_attacks = 30, max_attempts = 2500, seed = 5)
  want <- ref_singling_out(list(syn), data, n_cols = 2, n_attacks = 30, max_attempts = 2500, seed = 5)
  expect_same_so(got, want, "stopped in a batch")
  got <- singling_out_risk(syn, data, n_cols = 3, n_attacks = 1e6, max_attempts = 4500, seed = 6)
  want <- ref_singling_out(list(syn), data, n_cols = 3, n_attacks = 1e6, max_attempts = 4500, seed = 6)
  expect_same_so(got, want, "ran out of attempts")
  expect_identical(got$results$attempts, 4500)
  expect_match(paste(format(got), collapse = " "), "asked for singled out")
})

test_that("attempts are drawn as sample.int() draws them: past 2^15 records and with the Rounding sampler", {
  skip_on_cran()
  set.seed(3)
  n <- 40000
  # b's labels are rare (two records each on average), so that queries single out
  # within a few attempts: 50 queries in about 130, each over all 40,000 records in the
  # reference.
  labels <- sprintf("l%d", 1:20000)
  data <- data.frame(a = sample(n), b = sample(labels, n, TRUE), c = round(runif(n), 3))
  syn <- data.frame(a = sample(n), b = sample(labels, n, TRUE), c = round(runif(n), 3))
  got <- singling_out_risk(syn, data, n_cols = 2, n_attacks = 50, seed = 8)
  want <- ref_singling_out(list(syn), data, n_cols = 2, n_attacks = 50, seed = 8)
  expect_same_so(got, want, "40,000 records")
  expect_gt(got$results$successes, 0)
  small <- data[1:500, ]
  small_syn <- syn[1:400, ]
  withr::local_rng_version("3.5.0")
  suppressWarnings({
    got <- singling_out_risk(small_syn, small, n_cols = 2, n_attacks = 20, seed = 9)
    want <- ref_singling_out(list(small_syn), small, n_cols = 2, n_attacks = 20, seed = 9)
  })
  expect_same_so(got, want, "Rounding")
})

test_that("the session's random numbers continue where sample.int() batch by batch would leave them", {
  set.seed(1)
  data <- data.frame(a = sample(1:300), b = sample(letters, 300, TRUE))
  syn <- data.frame(a = sample(1:300), b = sample(letters, 300, TRUE))
  set.seed(42)
  singling_out_risk(syn, data, n_cols = 2, n_attacks = 10, reps = 1)
  after <- runif(3)
  set.seed(42)
  ref_singling_out(list(syn), data, n_cols = 2, n_attacks = 10, reps = 1)
  expect_identical(after, runif(3))
})

test_that("queries given are used as given and the output says how many do not single out", {
  vars <- c("sex", "age", "region", "income")
  set.seed(2)
  data <- sd2011[sample(nrow(sd2011), 300), vars]
  control <- sd2011[sample(nrow(sd2011), 100), vars]
  syn <- sd2011_synds$syn[sample(5000, 250), vars]
  queries <- data.frame(query = c(1, 1, 2, 3, 3, 4, 5),
                        column = c("sex", "age", "income", "region", "age", "age", "income"),
                        op = c("==", ">=", "<=", "==", "<=", "is.na", "=="),
                        value = c("FEMALE", "80", "-8", "Lubuskie", "20", NA, "123456"))
  got <- singling_out_risk(syn, data, cols = vars, control = control, queries = queries, records = TRUE,
                           cont.na = list(income = -8), seed = 1)
  ref_q <- lapply(split(queries, queries$query), function(q) lapply(seq_len(nrow(q)), function(i) {
    v <- q$value[i]
    list(col = match(q$column[i], vars), op = q$op[i], value = if (q$column[i] %in% c("age", "income")) as.numeric(v) else v)
  }))
  want <- ref_singling_out(list(syn), data, cols = vars, control = control, queries = unname(ref_q), seed = 1)
  expect_same_so(got, want, "given")
  expect_identical(got$records$text[1], "sex == \"FEMALE\" & age >= 80")
  expect_identical(nrow(got$records), 5L)
  if (got$results$not_single > 0) expect_match(paste(format(got), collapse = " "), "do not single out")
})

test_that("singling_out_risk() errors name the argument, the query and the value", {
  d <- sd2011[1:80, c("sex", "age", "region")]
  s <- sd2011_synds$syn[1:80, c("sex", "age", "region")]
  q <- function(...) data.frame(query = 1, ...)
  expect_error(singling_out_risk(s, d, queries = q(column = "xage", op = "==", value = "3")), "\"xage\"")
  expect_error(singling_out_risk(s, d, queries = q(column = "sex", op = "<=", value = "MALE")), "compared by label")
  expect_error(singling_out_risk(s, d, queries = q(column = "age", op = "~", value = "3")), "operator")
  expect_error(singling_out_risk(s, d, queries = q(column = "age", op = "==", value = "old")), "not a number")
  expect_error(singling_out_risk(s, d, queries = data.frame(query = 1, column = "age")), "op")
  expect_error(singling_out_risk(s, d, n_cols = 4), "n_cols")
  expect_error(singling_out_risk(s, d, cols = "regio"), "not in `data`")
  expect_error(singling_out_risk(s, d, control = d[, 1:2]), "`control` lacks \"region\"")
  expect_error(singling_out_risk(s, d, reps = 0), "reps")
  # A request that does not apply is said, not dropped silently.
  expect_match(paste(format(singling_out_risk(s, d, n_attacks = 10)), collapse = " "), "univariate queries are all taken")
})
