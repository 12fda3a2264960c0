# synthpop's arguments bound as R binds them (R/request-arguments.R).

test_that("a request binds synthpop's arguments by name, partial name and position", {
  b <- synthrisk:::bind_arguments("disclosure", c("sex", "age"), "depress", FALSE, denom = 3)
  expect_identical(b$values$keys, c("sex", "age"))
  expect_identical(b$values$target, "depress")
  expect_false(b$values$print.flag)
  expect_identical(b$values$denom_lim, 3)
  expect_identical(b$values$thresh_1way, c(50, 90))
  expect_setequal(b$supplied, c("keys", "target", "print.flag", "denom_lim"))
  expect_length(b$extra, 0)
  expect_named(synthrisk:::bind_arguments("multi", keys = "sex", plott = FALSE)$extra, "plott")
})

test_that("every argument of both families is documented, in synthpop's order", {
  for (family in c("disclosure", "multi")) {
    args <- setdiff(names(synthrisk:::request_formals(family)), "...")
    expect_true(all(args %in% names(synthrisk:::argument_docs)), label = family)
    doc <- synthrisk:::argument_docs_roxygen(family)
    expect_identical(unname(regmatches(doc, regexpr("(?<=item\\{`)[^`]+", doc, perl = TRUE))), args)
  }
  expect_identical(names(synthrisk:::request_formals("disclosure"))[1:3], c("keys", "target", "print.flag"))
  expect_identical(names(synthrisk:::request_formals("multi"))[1:3], c("keys", "targets", "print.flag"))
})
