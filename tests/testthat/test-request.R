# The request (R/request.R): one checked object per call, printed briefly.

keys4 <- c("sex", "age", "region", "placesize")

test_that("disclosure() is the one-target case of the request; the request prints what it holds", {
  one <- synthrisk:::disclosure_request("disclosure", sd2011_synds5$syn, NULL, sd2011, keys4, "depress")
  expect_s3_class(one, "synthrisk_request")
  expect_identical(one$targets, "depress")
  expect_identical(one$keys, keys4)
  expect_identical(names(one$plans), "train")
  expect_output(print(one), "<synthrisk request: disclosure() of 1 target, 4 keys, 5 syntheses>", fixed = TRUE)
  parts <- holdout_split(sd2011, prop = 0.5, seed = 1)
  multi <- synthrisk:::disclosure_request("multi", sd2011_synds5$syn, NULL, parts$train, keys4,
                                          c("depress", "ls"), control = parts$control)
  expect_identical(multi$targets, c("depress", "ls"))
  expect_identical(names(multi$plans), c("train", "control"))
  expect_length(multi$plans$control$syntheses, 5)
  expect_output(print(multi), "multi.disclosure() of 2 targets, 4 keys, 5 syntheses, with control", fixed = TRUE)
})

test_that("keys are put in the column order of data, their options with them", {
  r <- synthrisk:::disclosure_request("disclosure", list(sd2011_synds$syn), NULL, sd2011, c("region", "sex"), "depress",
                                      usekeysNA = c(FALSE, TRUE), ngroups_keys = c(0, 0))
  expect_identical(r$keys, c("sex", "region"))
  expect_identical(r$usekeysNA, c(TRUE, FALSE))
})
