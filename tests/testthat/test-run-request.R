# One request, one run (R/run-request.R): the crossings into the core.

test_that("core_crossings() counts", {
  expect_identical(core_crossings(NULL), 0L)
  expect_identical(core_crossings(synthrisk:::rust_level_counts(NULL, 0L, list())), 1L)
  # The columns' facts are counted apart.
  expect_identical(core_crossings(synthrisk:::rust_column_facts(list(sd2011), "sex")), 0L)
  expect_identical(facts_reads(synthrisk:::rust_column_facts(list(sd2011), "sex")), 1L)
})

test_that("an in-memory multi.disclosure() reads its columns' facts once, crosses into the core once and shapes its result once", {
  keys <- c("sex", "age", "region", "placesize")
  once <- c(facts = 1L, tables = 1L, parts = 1L, core = 1L)
  expect_identical(crossings(multi.disclosure(sd2011_synds, sd2011, keys, targets = c("depress", "ls", "marital"),
                                              print.flag = FALSE, plot = FALSE)), once)
  expect_identical(crossings(multi.disclosure(adult_synds, adult, c("age", "sex", "race", "marital.status"),
                                              print.flag = FALSE, plot = FALSE)), once)
  # With a holdout and with exclusions named by label: still one.
  parts <- holdout_split(sd2011, prop = 0.5, seed = 1)
  expect_identical(core_crossings(disclosure(sd2011_synds, parts$train, keys, "marital", print.flag = FALSE,
                                             control = parts$control, usetargetNA = FALSE,
                                             exclude.keys = "sex", exclude.keylevs = "MALE",
                                             exclude.targetlevs = "MARRIED")), 1L)
})

test_that("counted in one crossing or in two, the numbers are the same", {
  keys <- c("sex", "age", "region", "placesize")
  excluded <- list(exclude.keys = "age", exclude.keylevs = "60", exclude.targetlevs = "MARRIED")
  # A level of a numeric key is labelled only after encoding: two crossings.
  n <- core_crossings(two <- do.call(disclosure, c(list(sd2011_synds, sd2011, keys, "marital", print.flag = FALSE),
                                                   excluded)))
  expect_identical(n, 2L)
  # The same variable as a factor is labelled before: one crossing, the same counts.
  as_factor_age <- function(d) transform(d, age = factor(age, levels = sort(unique(c(sd2011$age, sd2011_synds$syn$age)))))
  syn <- as_factor_age(sd2011_synds$syn)
  n <- core_crossings(one <- do.call(disclosure, c(list(syn, as_factor_age(sd2011), keys = keys, target = "marital",
                                                        print.flag = FALSE), excluded)))
  expect_identical(n, 1L)
  expect_identical(one$measures, two$measures)
  expect_identical(one$Nexclusions, two$Nexclusions)
  # The exclusion did something.
  none <- disclosure(sd2011_synds, sd2011, keys, "marital", print.flag = FALSE)
  expect_false(identical(none$Nexclusions, two$Nexclusions))
})

test_that("look-alike doubles of several variables are merged in one batched crossing", {
  # 0.1 + 0.2 and 0.3 print alike: one level, as factor() makes it, in both variables.
  d <- data.frame(k1 = c(0.3, 0.1 + 0.2, 1, 1), k2 = c(0.3, 0.3, 0.1 + 0.2, 2), t = c("a", "b", "a", "b"))
  s <- data.frame(k1 = c(0.1 + 0.2, 0.3, 1, 2), k2 = c(0.1 + 0.2, 0.3, 2, 2), t = c("a", "b", "b", "b"))
  # The encoding (with the counts it could not make), the merge of both variables, the counts.
  n <- core_crossings(x <- disclosure(s, d, keys = c("k1", "k2"), target = "t", print.flag = FALSE))
  expect_identical(n, 3L)
  as_factors <- function(x) transform(x, k1 = factor(as.character(k1)), k2 = factor(as.character(k2)))
  y <- disclosure(as_factors(s), as_factors(d), keys = c("k1", "k2"), target = "t", print.flag = FALSE)
  expect_identical(x$measures, y$measures)
})
