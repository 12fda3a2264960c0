# How inputs are taken: names or numbers, key order, data-frame types, no modification,
# thread counts.

keys4 <- c("sex", "age", "region", "placesize")

test_that("keys and target may be column numbers and are put in data order", {
  a <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress")
  b <- disclosure(sd2011_synds, sd2011, keys = c(4, 3, 1, 2), target = 5)
  expect_identical(b$keys, keys4)
  expect_identical(b$target, "depress")
  expect_identical(a$measures, b$measures)
})

test_that("per-key options follow their keys when keys are reordered", {
  a <- disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "marital"), target = "depress",
                  usekeysNA = c(TRUE, TRUE, FALSE))
  b <- disclosure(sd2011_synds, sd2011, keys = c("marital", "sex", "age"), target = "depress",
                  usekeysNA = c(FALSE, TRUE, TRUE))
  expect_identical(a$measures, b$measures)
})

test_that("synds, data frame and list inputs agree", {
  a <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "ls")
  b <- disclosure(sd2011_synds5$syn, sd2011, keys = keys4, target = "ls")
  expect_identical(a$measures, b$measures)
  c1 <- disclosure(sd2011_synds5$syn[[1]], sd2011, keys = keys4, target = "ls")
  expect_identical(a$measures[1, ], c1$measures)
})

test_that("tibbles and data.tables give the data-frame result", {
  skip_if_not_installed("data.table")
  a <- disclosure(sd2011_synds$syn, sd2011, keys = keys4, target = "income", ngroups_target = 20,
                  cont.na = list(income = -8))
  dt <- disclosure(data.table::as.data.table(sd2011_synds$syn), data.table::as.data.table(sd2011),
                   keys = keys4, target = "income", ngroups_target = 20, cont.na = list(income = -8))
  expect_identical(a$measures, dt$measures)
  tb <- structure(sd2011_synds$syn, class = c("tbl_df", "tbl", "data.frame"))
  tbo <- structure(sd2011, class = c("tbl_df", "tbl", "data.frame"))
  t2 <- disclosure(tb, tbo, keys = keys4, target = "income", ngroups_target = 20, cont.na = list(income = -8))
  expect_identical(a$measures, t2$measures)
})

test_that("inputs are not modified", {
  syn <- sd2011_synds$syn
  syn$sex <- as.character(syn$sex)
  orig <- sd2011
  syn_copy <- rlang::duplicate(syn)
  orig_copy <- rlang::duplicate(orig)
  disclosure(syn, orig, keys = keys4, target = "income", ngroups_target = 5, print.flag = FALSE)
  expect_identical(syn, syn_copy)
  expect_identical(orig, orig_copy)
})

test_that("results are identical for 1 and 2 threads", {
  a <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "workab", n_threads = 1)
  b <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "workab", n_threads = 2)
  a$call <- b$call <- NULL
  expect_identical(a, b)
  withr_opt <- options(synthrisk.n_threads = 1)
  on.exit(options(withr_opt))
  expect_identical(synthrisk_threads(), 1L)
})

test_that("levels are matched by label, whatever their order or separators", {
  orig <- data.frame(k = factor(c("a | b", "a", "b", "a | b")), t = factor(c("x", "y", "x", "y")))
  syn <- data.frame(k = factor(c("a", "a | b", "b"), levels = c("b", "a", "a | b")),
                    t = factor(c("y", "x", "x"), levels = c("y", "x")))
  d <- disclosure(syn, orig, keys = "k", target = "t")
  ref <- ref_disclosure(syn, orig, keys = "k", target = "t")[[1]]
  expect_equal(d$attrib$DiSCO, ref$DiSCO)
  expect_equal(d$attrib$DiSCO, 75)
})

test_that("an unused factor level does not count as present in the synthetic data", {
  orig <- data.frame(k = factor(c("a", "b", "c")), t = c(1, 2, 3))
  syn <- data.frame(k = factor(c("a", "a", "a"), levels = c("a", "b", "c")), t = c(1, 1, 2))
  # Keys b and c are in the original only, and the call says so.
  d <- expect_label_warning(disclosure(syn, orig, keys = "k", target = "t"))
  expect_equal(d$ident$UiOiS, 100 / 3)
})

quiet_disclosure <- function(...) disclosure(..., print.flag = FALSE)

test_that("a stratified synds takes the union of its cont.na rows (definitions vignette 2.3)", {
  keys <- c("sex", "age", "region", "placesize")
  plain <- quiet_disclosure(sd2011_synds, sd2011, keys = keys, target = "income", ngroups_target = 6)
  s1 <- sd2011_synds
  s1$strata.syn <- factor(rep(c("a", "b"), length.out = nrow(s1$syn)))
  s1$cont.na <- rbind(s1$cont.na, s1$cont.na)
  strat <- quiet_disclosure(s1, sd2011, keys = keys, target = "income", ngroups_target = 6)
  expect_equal(strat$attrib$DiSCO, 8.9, tolerance = 1e-12)
  expect_identical(strat$measures, plain$measures)
  # Codes given in one stratum only count too.
  s2 <- s1
  s2$cont.na[1, "income"] <- list(NA)
  expect_identical(quiet_disclosure(s2, sd2011, keys = keys, target = "income", ngroups_target = 6)$measures,
                   plain$measures)
  # A bad entry is named.
  s3 <- sd2011_synds
  s3$cont.na$income <- "minus eight"
  err <- expect_error(quiet_disclosure(s3, sd2011, keys = keys, target = "income", ngroups_target = 6),
                      class = "rlang_error")
  expect_match(conditionMessage(err), "cont.na.*income")
  err <- expect_error(quiet_disclosure(sd2011_synds$syn, sd2011, keys = keys, target = "income",
                                       cont.na = list(-8)), class = "rlang_error")
  expect_match(conditionMessage(err), "cont.na.*name")
})

test_that("a side whose class repeats \"factor\" does not pass a side without a class for a factor", {
  # The shortcut for sides that are all factors counts one class per side.
  set.seed(1)
  n <- 60
  data <- data.frame(k = factor(sample(c("a", "b", "c"), n, TRUE)), t = factor(sample(c("x", "y"), n, TRUE)))
  syn <- data.frame(k = sample(c("a", "b", "c"), n, TRUE), t = factor(sample(c("x", "y"), n, TRUE)))
  odd <- data
  odd_k <- odd$k
  class(odd_k) <- c("factor", "factor")
  odd$k <- odd_k
  want <- disclosure(list(syn), data, keys = "k", target = "t", print.flag = FALSE)
  got <- disclosure(list(syn), odd, keys = "k", target = "t", print.flag = FALSE)
  expect_equal(got$ident, want$ident)
  expect_equal(got$attrib, want$attrib)
})

# normalise_cont_na() from its definition (definitions vignette 2.3), one entry at a
# time: NULL or NA entries have no codes, numbers without a class are codes (NA
# removed, NaN kept), anything else is an error; entries of one name are united.
reference_cont_na <- function(entries) {
  out <- list()
  for (i in seq_along(entries)) {
    x <- entries[[i]]
    no_codes <- is.null(x) || (is.atomic(x) && all(is.na(x) & !is.nan(x)))
    numbers <- (typeof(x) %in% c("double", "integer")) && is.null(oldClass(x))
    if (!no_codes && !numbers) return("error")
    codes <- if (numbers) as.double(x[!is.na(x) | is.nan(x)]) else numeric(0)
    out[[names(entries)[i]]] <- unique(c(out[[names(entries)[i]]], codes))
  }
  out
}

test_that("cont.na entries are normalised as one at a time, whatever their kinds", {
  pool <- list(NULL, NA, NA_real_, NA_integer_, NaN, -8, c(-8, -9), c(-9L, -8L), c(NA, -8, NaN, -8), TRUE,
               c(NA, FALSE), "a", NA_character_, factor("x"), factor(NA), list(-8), matrix(c(-8, -9), 1),
               as.Date(NA), as.Date("2020-01-01"), c(1.5, NA), 0L, -0)
  for (seed in 1:300) {
    set.seed(seed)
    n <- sample(1:6, 1)
    entries <- pool[sample(length(pool), n, replace = TRUE)]
    names(entries) <- sample(c("a", "b", "c"), n, replace = TRUE)
    want <- reference_cont_na(entries)
    got <- tryCatch(synthrisk:::normalise_cont_na(entries, globalenv()), error = function(e) "error")
    expect_identical(got, want, info = paste("seed", seed))
  }
  expect_identical(synthrisk:::normalise_cont_na(sd2011_synds$cont.na, globalenv()),
                   reference_cont_na(sd2011_synds$cont.na))
})
