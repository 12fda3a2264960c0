# The front door disclosure() (R/disclosure.R): every kind of synthetic data reaches the
# same request, and a disclosure() is the one-target case of multi.disclosure().

keys4 <- c("sex", "age", "region", "placesize")

numbers_of <- function(d) d[c("ident", "attrib", "allCAPs", "Nexclusions")]

test_that("a synds, a list of data frames and a data frame give the same numbers", {
  from_synds <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  from_list <- disclosure(sd2011_synds5$syn, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_identical(numbers_of(from_list), numbers_of(from_synds))
  one <- disclosure(sd2011_synds5$syn[[2]], sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_identical(one$attrib, from_synds$attrib[2, , drop = FALSE], ignore_attr = "row.names")
  expect_s3_class(from_synds, c("synthrisk_disclosure", "disclosure"), exact = TRUE)
})

test_that("disclosure() of a target equals that target of multi.disclosure()", {
  for (target in c("depress", "income", "marital")) {
    single <- disclosure(sd2011_synds5, sd2011, keys4, target, print.flag = FALSE, ngroups_target = 5)
    multi <- multi.disclosure(sd2011_synds5, sd2011, keys4, targets = target, print.flag = FALSE, plot = FALSE,
                              ngroups_targets = 5)
    expect_identical(numbers_of(single), numbers_of(multi$output.list[[target]]), label = target)
  }
})

test_that("anything else as the synthetic data is an error naming `object`", {
  expect_error(disclosure(1:3, sd2011, keys = keys4, target = "depress"), class = "rlang_error", regexp = "object")
  expect_error(disclosure(list(sd2011, "a"), sd2011, keys = keys4, target = "depress"), "object")
})
