# record_risk(): per-record flags whose sums are disclosure()'s measures, exactly, on
# a hand-worked case, the SD2011 fixtures and random data, with exclusions.

record_sums_match <- function(rr, label) {
  sm <- summary(rr)
  d <- rr$disclosure
  for (col in c("UiO", "UiOiS", "repU")) expect_equal(sm[[col]], d$ident[[col]], tolerance = 1e-9, label = paste(label, col))
  for (col in c("Dorig", "DiSCO", "DCAPd")) expect_equal(sm[[col]], d$attrib[[col]], tolerance = 1e-9, label = paste(label, col))
  expect_equal(sm$TCAP_taub, d$allCAPs$TCAP_taub, tolerance = 1e-9, label = paste(label, "TCAP_taub"))
}

test_that("a hand-worked case", {
  o <- data.frame(k = c("a", "a", "b", "c"), t = c("x", "y", "x", "x"))
  s <- data.frame(k = c("a", "b", "b", "d"), t = c("x", "x", "x", "y"))
  rr <- record_risk(s, o, "k", target = "t")
  # q a: d = 2 (x, y), s = 1 (x). q b: d = 1, s = 2 (x, x). q c: d = 1, s = 0.
  expect_equal(rr$original$d_q, c(2L, 2L, 1L, 1L))
  expect_equal(rr$original$s_q, c(1L, 1L, 2L, 0L))
  expect_equal(rr$original$unique_orig, c(FALSE, FALSE, TRUE, TRUE))
  expect_equal(rr$original$unique_in_syn, c(FALSE, FALSE, TRUE, FALSE))
  expect_equal(rr$original$disclosive_orig, c(FALSE, FALSE, TRUE, TRUE))
  expect_equal(rr$original$disco, c(TRUE, FALSE, TRUE, FALSE))
  expect_equal(rr$original$cap, c(1, 0, 1, 0))
  expect_equal(rr$original$rk, c(0.5, 0.5, 1, 1))
  expect_equal(rr$synthetic$replicated_unique, c(FALSE, FALSE, FALSE, FALSE))
  expect_equal(rr$synthetic$weap, c(1, 1, 1, 1))
  expect_equal(rr$synthetic$tcap, c(0.5, 1, 1, NA))
  record_sums_match(rr, "hand")
})

test_that("sums equal disclosure() on the SD2011 fixtures, with every exclusion", {
  keys <- c("sex", "age", "region", "placesize")
  cases <- list(
    list(target = "depress"),
    list(target = "workab", usetargetNA = FALSE, exclude_ov_denom_lim = TRUE, denom_lim = 3),
    list(target = "income", ngroups_target = 10, not.targetlev = "[-8,600)", usekeysNA = FALSE),
    list(target = "marital", exclude.keys = "sex", exclude.keylevs = "MALE", exclude.targetlevs = "MARRIED")
  )
  for (case in cases) {
    rr <- do.call(record_risk, c(list(sd2011_synds5, sd2011, keys), case))
    record_sums_match(rr, case$target)
    step_counts <- table(rr$original$excluded[rr$original$synthesis == 1])
    expect_equal(as.vector(step_counts), unname(rr$disclosure$Nexclusions[[1]]["original", 1:5]),
                 label = paste(case$target, "excluded"))
  }
})

test_that("sums equal disclosure() on random data, with exclusions", {
  local_quiet_labels()
  set.seed(11)
  for (case in random_cases(200)) {
    n <- sample(1:30, 1)
    make <- function(rows) data.frame(k1 = sample(c("a", "b", NA), rows, TRUE), k2 = sample(c(1, 2, NaN), rows, TRUE),
                                      t = sample(c("x", "y", "z", NA), rows, TRUE))
    data <- make(n)
    syn <- lapply(seq_len(sample(1:3, 1)), function(j) make(sample(1:30, 1)))
    args <- list(usetargetNA = sample(c(TRUE, FALSE), 1), usekeysNA = sample(c(TRUE, FALSE), 2, TRUE),
                 exclude_ov_denom_lim = sample(c(TRUE, FALSE), 1), denom_lim = sample(1:3, 1))
    if (runif(1) < 0.3) args$not.targetlev <- "z"
    if (runif(1) < 0.3) args[c("exclude.keys", "exclude.keylevs", "exclude.targetlevs")] <- list("k1", "a", "x")
    rr <- tryCatch(do.call(record_risk, c(list(syn, data, c("k1", "k2"), target = "t"), args)),
                   error = function(e) e)
    if (inherits(rr, "error")) {
      # Exclusions naming a level that is absent are errors in disclosure() too.
      expect_error(do.call(disclosure, c(list(syn, data, keys = c("k1", "k2"), target = "t", print.flag = FALSE), args)))
      next
    }
    record_sums_match(rr, paste("case", case))
  }
})

test_that("without a target: the key-based flags, replicated uniques as replicated.uniques()", {
  keys <- c("sex", "age", "region", "placesize")
  rr <- record_risk(sd2011_synds5, sd2011, keys)
  ru <- replicated.uniques(sd2011_synds5, sd2011, keys)
  for (j in 1:5) expect_identical(rr$synthetic$replicated_unique[rr$synthetic$synthesis == j], unname(ru$repU.rm[, j]))
  d <- disclosure(sd2011_synds5, sd2011, keys = keys, target = "depress", print.flag = FALSE)
  expect_equal(summary(rr)$repU, d$ident$repU, tolerance = 1e-12)
  expect_snapshot(error = TRUE, record_risk(sd2011_synds, sd2011, keys, usetargetNA = FALSE))
})

test_that("print writes the flagged counts and sums to standard output", {
  rr <- record_risk(sd2011_synds, sd2011, c("sex", "age", "region"), target = "depress")
  out <- capture.output(print(rr), type = "output")
  expect_true(any(grepl("Records at risk", out)))
  expect_true(any(grepl("TCAP_taub", out)))
  expect_true(any(grepl(as.character(sum(rr$original$disco)), out)))
})
