# The progress bar of long runs (R/progress.R): views counted in batches, no number changed.

keys4 <- c("sex", "age", "region", "placesize")

test_that("a progress bar counts in batches and changes no number", {
  one_call <- size_curve(sd2011_synds5, sd2011, keys4, targets = "depress", reps = 7, seed = 2, sizes = c(500, 2000))
  withr::local_options(synthrisk.progress = TRUE, cli.progress_show_after = 0)
  n <- 0L
  count <- function() n <<- n + 1L
  trace("crossed", as.call(list(count)), print = FALSE, where = asNamespace("synthrisk"))
  on.exit(untrace("crossed", where = asNamespace("synthrisk")), add = TRUE)
  batched <- size_curve(sd2011_synds5, sd2011, keys4, targets = "depress", reps = 7, seed = 2, sizes = c(500, 2000))
  expect_gt(n, 2L)
  expect_identical(batched, one_call)
  sc <- size_curve(sd2011_synds5, sd2011, keys4, targets = "depress", reps = 2, seed = 1, sizes = c(100, 1000))
  withr::local_options(synthrisk.progress = FALSE)
  expect_identical(size_curve(sd2011_synds5, sd2011, keys4, targets = "depress", reps = 2, seed = 1,
                              sizes = c(100, 1000)), sc)
})

test_that("the bar is asked for only when the run is long, interactive and not knitted, or forced", {
  withr::local_options(synthrisk.progress = NULL)
  expect_false(synthrisk:::wants_progress(0))
  expect_identical(synthrisk:::wants_progress(1e12), interactive())
  withr::local_options(synthrisk.progress = FALSE)
  expect_false(synthrisk:::wants_progress(1e12))
  withr::local_options(synthrisk.progress = TRUE)
  expect_true(synthrisk:::wants_progress(10))
})
