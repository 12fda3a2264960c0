# The R glue of the core: errors arrive verbatim, values R should never send are
# "internal" errors rather than silent clamps.

small_encoding <- function() {
  d <- data.frame(k = c("a", "a", "a", "b"), t = c("x", "x", "y", "x"))
  synthrisk:::encode_variables(c("k", "t"), d, list(d), NULL, list(k = 0, t = 0), strict = FALSE,
                               n_threads = 1L, call = globalenv())
}

small_request <- function(enc) {
  opt <- list(target = "t", not.targetlev = NULL, usetargetNA = TRUE, exclude.keys = NULL,
              exclude.keylevs = NULL, exclude.targetlevs = NULL)
  synthrisk:::target_request(opt, enc, "k", 5L, FALSE, c(4, 80), globalenv())
}

compute <- function(enc, request) {
  synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, 0L, TRUE, list(request), 1L))
}

test_that("a % in a core error reaches R verbatim, not as a format string", {
  spec <- list(kind = "50% {x} %s", columns = list(1), remaps = NULL, n_levels = 0L, missing_code = 0L)
  err <- expect_error(synthrisk:::rust_result(synthrisk:::rust_encode_variables(list(spec), 1L)))
  expect_match(conditionMessage(err), "unknown column kind `50% {x} %s`", fixed = TRUE)
})

test_that("values R should never send are internal errors, not clamped", {
  enc <- small_encoding()
  req <- small_request(enc)
  expect_error(compute(enc, utils::modifyList(req, list(var = -1L))), "internal: `var` is -1")
  expect_error(compute(enc, utils::modifyList(req, list(target_missing_code = -2L))), "internal: `target_missing_code`")
  expect_error(compute(enc, utils::modifyList(req, list(denom_lim = -1L))), "internal: denom_lim is -1")
  expect_error(compute(enc, utils::modifyList(req, list(twoway_min_cell = NA_real_))), "internal: `twoway_min_cell`")
  expect_error(compute(enc, utils::modifyList(req, list(exclude_missing_target = NA))), "internal: `exclude_missing_target`")
  bad <- req
  bad$excluded_target[1] <- NA
  expect_error(compute(enc, bad), "internal: `excluded_target` has NA")
  expect_error(synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, -1L, TRUE, list(req), 1L)), "internal: `keys`")
  expect_error(synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, 0L, TRUE, list(req), 0L)), "internal: n_threads")
})

test_that("denom_lim may be a double: Inf never excludes, a fraction compares as its floor", {
  enc <- small_encoding()
  req <- small_request(enc)
  none <- compute(enc, utils::modifyList(req, list(denom_lim = NA_integer_)))
  expect_identical(compute(enc, utils::modifyList(req, list(denom_lim = Inf))), none)
  one <- compute(enc, utils::modifyList(req, list(denom_lim = 1L)))
  expect_false(identical(one, none))
  expect_identical(compute(enc, utils::modifyList(req, list(denom_lim = 1.5))), one)
})

test_that("the core's results name every number (no positional protocol)", {
  enc <- small_encoding()
  raw <- compute(enc, small_request(enc))[[1]]
  expect_true(all(setdiff(synthrisk:::measure_registry$measure, "DCAP") %in% names(raw$stats)))
  expect_identical(names(raw$nexcl[[1]]), synthrisk:::exclusion_rows)
  expect_identical(names(raw$one_way[[1]]), c("level", "n_level_dis", "total_disclosive", "level_orig", "all_orig"))
  # Hand counts: q a has x, x, y on both sides (no level certain); q b has x once.
  expect_equal(raw$stats$DiSCO, 25)
  expect_equal(raw$nexcl[[1]]$original, c(0, 0, 0, 0, 0, 4))
  expect_equal(raw$one_way[[1]]$total_disclosive, 1)
})
