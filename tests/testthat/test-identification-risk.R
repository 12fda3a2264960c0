# identification_risk(): hand-worked cases, radius edges, errors, and agreement with
# the all-pairs reference (helper-identification-reference.R) on random data.

test_that("a hand-worked case: exact categorical matches and the three summaries", {
  o <- data.frame(sex = c("F", "F", "M", "M"), age = c(30, 30, 40, 50), inc = c(1, 2, 3, 4))
  s <- data.frame(sex = c("F", "F", "M", "F"), age = c(30, 30, 40, 50), inc = c(2, 2, 3, 9))
  ir <- identification_risk(s, o, known = c("sex", "age"), syn.vars = "inc")
  # Record 1 (F,30,1): no synthetic inc 1 -> c = 0. Record 2 (F,30,2): synthetic rows 1, 2
  # -> c = 2, own row among them. Record 3: c = 1, own. Record 4 (M,50,4): c = 0.
  expect_equal(ir$records$c, c(0L, 2L, 1L, 0L))
  expect_equal(ir$records$T, c(FALSE, TRUE, TRUE, FALSE))
  expect_equal(ir$records$K, c(FALSE, FALSE, TRUE, FALSE))
  expect_equal(ir$summary$synthesis, c("1", "mean"))
  expect_equal(ir$summary$exp.risk, c(1 / 2 + 1, 1 / 2 + 1))
  expect_equal(ir$summary$true.rate[1], 1 / 4)
  expect_equal(ir$summary$false.rate[1], 0)
  expect_equal(ir$summary$s[1], 1)
})

test_that("radius edges: zero, negative values, ties on the boundary, NA and Inf", {
  o <- data.frame(k = "a", x = c(0, -2, 1, NA, 10, Inf))
  s <- data.frame(k = "a", x = c(0, -2.5, 1.5, NA, 0, Inf))
  abs_r <- identification_risk(s, o, character(0), c("k", "x"), radius = 0.5, relative = FALSE)
  # |x_syn - x| <= 0.5, boundary included: -2 vs -2.5 and 1 vs 1.5 match.
  expect_equal(abs_r$records$c, c(2L, 1L, 1L, 1L, 0L, 1L))
  expect_equal(abs_r$records$T, c(TRUE, TRUE, TRUE, TRUE, FALSE, TRUE))
  rel <- identification_risk(s, o, "k", "x", radius = c(x = 0.25))
  # Relative: 0 reaches only 0; -2 reaches 0.5 (its size); 1 reaches only 0.25.
  expect_equal(rel$records$c, c(2L, 1L, 0L, 1L, 0L, 1L))
  expect_equal(rel$records$T, c(TRUE, TRUE, FALSE, TRUE, FALSE, TRUE))
  ref <- ref_identification(list(s), o, "k", "x", list(x = 0.25), TRUE)
  expect_equal(rel$records, ref$records)
  # Without a radius the numeric variable matches exactly, NA with NA.
  exact <- identification_risk(s, o, "k", "x")
  expect_equal(exact$records$c, c(2L, 0L, 0L, 1L, 0L, 1L))
})

test_that("no unique match gives a false match rate of NA, not NaN", {
  o <- data.frame(k = c("a", "a"), x = c(1, 1))
  ir <- identification_risk(o, o, "k", "x")
  expect_equal(ir$records$c, c(2L, 2L))
  expect_identical(ir$summary$false.rate, c(NA_real_, NA_real_))
  expect_equal(ir$summary$exp.risk[1], 1)
})

test_that("m syntheses give one row each and a row of means; inputs are not modified", {
  part <- sd2011
  part$income <- sd2011_synds$syn$income
  before <- list(part, sd2011)
  ir <- identification_risk(list(part, sd2011), sd2011, c("sex", "age"), "income", radius = 0.1)
  expect_identical(list(part, sd2011), before)
  expect_equal(ir$summary$synthesis, c("1", "2", "mean"))
  expect_equal(ir$summary[3, -1], as.data.frame(lapply(ir$summary[1:2, -1], mean)), ignore_attr = TRUE)
  # The original as its own synthesis: every record matches itself.
  expect_true(all(ir$records$T[ir$records$synthesis == 2]))
  expect_equal(ir$summary$false.rate[2], 0)
})

test_that("agrees with the all-pairs reference on the SD2011 fixtures", {
  rows <- 1:400
  part <- sd2011[rows, ]
  part$income <- sd2011_synds$syn$income[rows]
  part$depress <- sd2011_synds$syn$depress[rows]
  o <- sd2011[rows, ]
  for (relative in c(TRUE, FALSE)) {
    radius <- if (relative) list(income = 0.1, age = 0) else list(income = 100, age = 2)
    ir <- identification_risk(part, o, c("sex", "age", "region"), c("income", "depress"),
                              radius = unlist(radius), relative = relative)
    ref <- ref_identification(list(part), o, c("sex", "age", "region"), c("income", "depress"), radius, relative)
    expect_equal(ir$records, ref$records)
    expect_equal(ir$summary[1, ], ref$summary, tolerance = 1e-12, ignore_attr = TRUE)
  }
})

test_that("agrees with the all-pairs reference on 300 random cases", {
  set.seed(20261122)
  pool_num <- c(0, -1, 1, 0.5, -0.5, 2, 1e-9, NA, NaN, Inf, -Inf, 3, 2.5)
  for (case in 1:300) {
    n <- sample(1:25, 1)
    m <- sample(1:3, 1)
    n_cat <- sample(0:2, 1)
    n_num <- if (n_cat == 0) sample(1:3, 1) else sample(0:2, 1)
    make <- function() {
      d <- data.frame(row.names = seq_len(n))
      for (k in seq_len(n_cat)) {
        v <- sample(c("a", "b", NA, "c"), n, replace = TRUE)
        d[[paste0("c", k)]] <- if (k == 2) factor(v) else v
      }
      for (k in seq_len(n_num)) {
        v <- sample(pool_num, n, replace = TRUE)
        d[[paste0("x", k)]] <- if (k == 2) as.integer(ifelse(is.finite(v), round(v), NA)) else v
      }
      d
    }
    o <- make()
    syn <- lapply(seq_len(m), function(j) make())
    vars <- names(o)
    known <- vars[seq_len(sample(0:(length(vars) - 1), 1))]
    syn.vars <- setdiff(vars, known)
    numeric_vars <- grep("^x", vars, value = TRUE)
    with_radius <- numeric_vars[as.logical(sample(0:1, length(numeric_vars), replace = TRUE))]
    radius <- stats::setNames(sample(c(0, 0.5, 1, 1.5), length(with_radius), replace = TRUE), with_radius)
    relative <- sample(c(TRUE, FALSE), 1)
    ir <- identification_risk(syn, o, known, syn.vars, radius = if (length(radius)) radius else NULL,
                              relative = relative)
    ref <- ref_identification(syn, o, known, syn.vars, as.list(radius), relative)
    expect_equal(ir$records, ref$records, info = paste("case", case))
    expect_equal(ir$summary[seq_len(m), ], ref$summary, tolerance = 1e-12, ignore_attr = TRUE,
                 info = paste("case", case))
  }
})

test_that("bad input gets errors naming the argument and value", {
  part <- sd2011
  expect_snapshot(error = TRUE, {
    identification_risk(part, sd2011, c("sex", "age"), "income", radius = c(incme = 1))
    identification_risk(part, sd2011, c("sex", "age"), "income", radius = -1)
    identification_risk(part, sd2011, c("sex", "age"), "income", radius = c(1, 2))
    identification_risk(part[1:10, ], sd2011, c("sex", "age"), "income")
    identification_risk(part, sd2011, c("sex", "age"), c("age", "income"))
    identification_risk(part, sd2011, c("sex", "age"), NULL)
    identification_risk(part, sd2011, "sex", "marital", radius = 1)
    identification_risk(part, sd2011, "sex", "income", relative = NA)
  })
})

test_that("print writes the summary and definitions to standard output", {
  part <- sd2011
  part$income <- sd2011_synds$syn$income
  ir <- identification_risk(part, sd2011, c("sex", "age"), "income", radius = 0.1)
  out <- capture.output(print(ir), type = "output")
  expect_true(any(grepl("Identification risk of partially synthetic data", out)))
  expect_true(any(grepl("exp.risk", out)))
  expect_true(any(grepl("relative radius", out)))
  expect_true(any(grepl(format(round(ir$summary$true.rate[1], 4)), out, fixed = TRUE)))
  p <- autoplot(ir)
  expect_s3_class(p, "ggplot")
})
