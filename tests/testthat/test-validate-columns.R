# Which columns can be keys or targets (R/validate-columns.R), and the errors naming the
# column, where it is and what is wrong.

test_that("plain vectors, factors, dates and times are usable; other columns say what they are", {
  usable <- list(1:3, c(1.5, NA), c("a", "b"), c(TRUE, NA), factor("a"), Sys.Date(), Sys.time(),
                 as.POSIXlt(Sys.time()))
  for (x in usable) expect_null(synthrisk:::unusable_column_type(x))
  expect_match(synthrisk:::unusable_column_type(data.frame(a = 1, b = 2)), "a data-frame column (2 columns)", fixed = TRUE)
  expect_match(synthrisk:::unusable_column_type(matrix(1:4, 2)), "a matrix column (2 x 2)", fixed = TRUE)
  expect_match(synthrisk:::unusable_column_type(list(1, 2)), "a list column", fixed = TRUE)
  expect_match(synthrisk:::unusable_column_type(complex(real = 1, imaginary = 1)), "a complex column", fixed = TRUE)
})

test_that("a bad column is an error naming the variable and the dataset it is in", {
  o <- data.frame(k = c("a", "b"), t = c("x", "y"))
  s1 <- o
  s2 <- o
  s2$t <- I(list(1, 2))
  err <- expect_error(synthrisk:::check_variable_columns(c("k", "t"), o, list(s1, s2), call = globalenv()))
  expect_match(conditionMessage(err), "Variable \"t\" in synthesis 2 of `object` is a list column", fixed = TRUE)
  err <- expect_error(synthrisk:::check_variable_columns("t", o, list(s2), call = globalenv()))
  expect_match(conditionMessage(err), "the synthetic data (`object`)", fixed = TRUE)
  control <- o
  control$k <- matrix(1:4, 2)
  err <- expect_error(synthrisk:::check_variable_columns("k", o, list(s1), call = globalenv(), control = control))
  expect_match(conditionMessage(err), "in `control` is a matrix column", fixed = TRUE)
  expect_null(synthrisk:::check_variable_columns(c("k", "t"), o, list(s1, s1), call = globalenv()))
})

test_that("more rows than the core can count are refused, naming the dataset", {
  err <- expect_error(synthrisk:::check_row_count(2^31, "{.arg data}", globalenv()))
  expect_match(conditionMessage(err), "`data` has 2,147,483,648 rows", fixed = TRUE)
  expect_null(synthrisk:::check_row_count(2^31 - 1, "{.arg data}", globalenv()))
})
