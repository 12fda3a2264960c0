# target_request() (R/target-request.R): a target's options resolved from labels to the
# 0-based codes the core reads, in one form before or after the encoding; the core
# completes it from the encoded target.

encoded <- function() {
  o <- data.frame(k = c("a", "a", "b", "c"), t = c("x", NA, "y", "z"))
  s <- data.frame(k = c("a", "b", "b", "c"), t = c("x", "x", "y", "z"))
  synthrisk:::encode_variables(c("k", "t"), o, list(s), NULL, list(k = 0, t = 0), strict = FALSE,
                               n_threads = 1L, call = globalenv())
}

options_of <- function(...) {
  utils::modifyList(list(target = "t", not.targetlev = NULL, usetargetNA = TRUE, exclude.keys = NULL,
                         exclude.keylevs = NULL, exclude.targetlevs = NULL), list(...))
}

test_that("excluded target levels and key/target exclusions become the codes of their labels", {
  enc <- encoded()
  request <- core_request("k", 3L, TRUE, c(4, 80))
  got <- synthrisk:::target_request(options_of(not.targetlev = c("y", "z"), exclude.keys = c("k", "k"),
                                               exclude.keylevs = c("c", "a"), exclude.targetlevs = c("x", "z")),
                                    enc, request)
  t_labels <- enc$labels$t
  expect_identical(got$var, match("t", enc$vars) - 1L)
  expect_identical(got$excluded_levels, match(c("y", "z"), t_labels) - 1L)
  expect_identical(got$kt_key, c(0L, 0L))
  expect_identical(got$kt_key_level, match(c("c", "a"), enc$labels$k) - 1L)
  expect_identical(got$kt_target_level, match(c("x", "z"), t_labels) - 1L)
  expect_identical(got$denom_lim, 3L)
  expect_identical(got$twoway_min_cell, 4)
})

test_that("the missing target is excluded only with usetargetNA = FALSE and missing values in the original", {
  enc <- encoded()
  request <- core_request("k", 5L, FALSE, c(4, 80))
  kept <- synthrisk:::target_request(options_of(), enc, request)
  dropped <- synthrisk:::target_request(options_of(usetargetNA = FALSE), enc, request)
  expect_true(kept$use_target_na)
  expect_false(dropped$use_target_na)
  expect_identical(kept$denom_lim, NA_integer_)
  # The core completes the request: the original's missing target value (1 record of 4)
  # is excluded from the original's tables with usetargetNA = FALSE ...
  count <- function(req, plan = NULL) {
    synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, 0L, TRUE, list(req), 1L, plan))[[1]]
  }
  removed <- function(raw) sum(raw$nexcl$original[1:5])
  expect_identical(removed(count(kept)), 0)
  expect_gt(removed(count(dropped)), 0)
  # ... but not with the synthesis as the original (holdout plans): it has none.
  as_original <- list(original = 1L, syntheses = list(list(dataset = 0L, rows = NULL)), tau = numeric(0))
  expect_identical(removed(count(dropped, as_original)), 0)
})

test_that("before the encoding, the request has the same form, or waits for labels it needs", {
  enc <- encoded()
  before <- list(vars = enc$vars, labels = enc$labels)
  request <- core_request("k", 5L, FALSE, c(4, 80))
  got <- synthrisk:::target_request(options_of(usetargetNA = FALSE, not.targetlev = "y"), before, request)
  expect_identical(got, synthrisk:::target_request(options_of(usetargetNA = FALSE, not.targetlev = "y"), enc, request))
  # A level of a variable not labelled yet (a numeric one) waits for the encoding.
  before$labels["t"] <- list(NULL)
  expect_null(synthrisk:::target_request(options_of(not.targetlev = "x"), before, request))
})

test_that("unknown keys and levels are errors naming them", {
  enc <- encoded()
  request <- core_request("k", 5L, FALSE, c(4, 80))
  expect_error(synthrisk:::target_request(options_of(not.targetlev = "w"), enc, request), "names \"w\", not among the levels")
  expect_error(synthrisk:::target_request(options_of(exclude.keys = "q", exclude.keylevs = "a", exclude.targetlevs = "x"),
                                          enc, request), "names \"q\", not among the `keys`")
  expect_error(synthrisk:::target_request(options_of(exclude.keys = "k", exclude.keylevs = "d", exclude.targetlevs = "x"),
                                          enc, request), "has \"d\", not a level of key \"k\"")
  expect_error(synthrisk:::target_request(options_of(exclude.keys = "k", exclude.keylevs = c("a", "b"), exclude.targetlevs = "x"),
                                          enc, request), "must have the same length")
})

quiet_disclosure <- function(...) disclosure(..., print.flag = FALSE)

test_that("not.targetlev keeps \"\" inside a longer vector (definitions vignette 5.1)", {
  o <- data.frame(k = c("a", "b", "c"), t = c("x", "", "y"))
  d <- quiet_disclosure(o, o, keys = "k", target = "t", not.targetlev = c("x", ""))
  expect_identical(d$Nexclusions[[1]]["original", "excluded target"], 2)
  expect_equal(d$attrib$DiSCO, 100 / 3, tolerance = 1e-12)
  only_x <- quiet_disclosure(o, o, keys = "k", target = "t", not.targetlev = "x")
  expect_equal(only_x$attrib$DiSCO, 200 / 3, tolerance = 1e-12)
  none <- quiet_disclosure(o, o, keys = "k", target = "t", not.targetlev = "")
  expect_identical(none$attrib$DiSCO, 100)
  expect_identical(none$Nexclusions[[1]]["original", "excluded target"], 0)
  # multi.disclosure: the same rule per target.
  o2 <- data.frame(k = c("a", "b", "c"), t = c("x", "", "y"), u = c("x", "", "y"))
  md <- multi.disclosure(o2, o2, keys = "k", not.targetslev = list(c("x", ""), ""), print.flag = FALSE,
                         plot = FALSE)
  expect_equal(md$output.list$t$attrib$DiSCO, 100 / 3, tolerance = 1e-12)
  expect_identical(md$output.list$u$attrib$DiSCO, 100)
})
