# The front door multi.disclosure() (R/multi-disclosure.R): the kinds of synthetic data
# it takes, its default targets and synthpop's disclosure.summary() spelling.

keys4 <- c("sex", "age", "region", "placesize")

test_that("a synds, a list and (for m = 1) a data frame give the same tables", {
  from_synds <- multi.disclosure(sd2011_synds5, sd2011, keys4, print.flag = FALSE, plot = FALSE)
  from_list <- multi.disclosure(sd2011_synds5$syn, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE)
  expect_identical(from_list$attrib.table, from_synds$attrib.table)
  expect_identical(from_list$ident.syn, from_synds$ident.syn)
  one_synds <- multi.disclosure(sd2011_synds, sd2011, keys4, print.flag = FALSE, plot = FALSE)
  one_frame <- multi.disclosure(sd2011_synds$syn, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE)
  expect_identical(one_frame$attrib.table, one_synds$attrib.table)
  expect_s3_class(from_synds, c("synthrisk_multi_disclosure", "multi.disclosure"), exact = FALSE)
})

test_that("the targets default to every variable of the synthetic data that is not a key, in data order", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, print.flag = FALSE, plot = FALSE)
  expect_identical(names(md$output.list), setdiff(names(sd2011_synds5$syn[[1]]), keys4))
})

test_that("disclosure.summary() is multi.disclosure(), as synthpop names it", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, targets = "depress", print.flag = FALSE, plot = FALSE)
  ds <- disclosure.summary(sd2011_synds5, sd2011, keys4, targets = "depress", print.flag = FALSE, plot = FALSE)
  expect_identical(ds$attrib.table, md$attrib.table)
})

test_that("for data frames and lists the third argument is cont.na, as in synthpop's signature", {
  err <- expect_error(multi.disclosure(sd2011_synds5$syn, sd2011, keys4, print.flag = FALSE, plot = FALSE))
  expect_match(conditionMessage(err), "`keys` is missing; `cont.na` got `c(\"sex\", \"age\", \"region\", \"placesize\")`",
               fixed = TRUE)
  expect_match(conditionMessage(err), "third argument of `multi.disclosure()` is `cont.na`", fixed = TRUE)
  err <- expect_error(disclosure(sd2011_synds$syn, sd2011, keys4, target = "depress", print.flag = FALSE))
  expect_match(conditionMessage(err), "third argument of `disclosure()` is `cont.na`", fixed = TRUE)
  # A missing key list with no cont.na is still said as before.
  expect_error(multi.disclosure(sd2011_synds5$syn, sd2011, print.flag = FALSE, plot = FALSE),
               "`keys` must name at least one variable")
})
