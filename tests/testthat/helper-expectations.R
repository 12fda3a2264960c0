# testthat's expect_identical(), expect_equal(), expect_true() and expect_false(), each
# trying the plain check first. In edition 3 every one of them compares through waldo
# after setting the reporter's locale, options and environment variables: about 4-8 ms
# a call on a 2-core machine, a minute or two of the suite's ~28,000 expectations. When
# the values are identical (or the value is TRUE, FALSE) no comparison can fail, so the
# expectation succeeds at once; otherwise testthat's own expectation runs, and fails
# with its usual account of the difference. Only the passing path is shortened: what
# passes and what fails is testthat's.

expect_identical <- function(object, expected, info = NULL, label = NULL, expected.label = NULL, ...) {
  if (identical(object, expected)) return(pass_at_once(object))
  testthat::expect_identical(object, expected, info = info, ...,
                             label = label %||% expression_label(substitute(object)),
                             expected.label = expected.label %||% expression_label(substitute(expected)))
}

expect_equal <- function(object, expected, ..., tolerance = testthat::testthat_tolerance(), info = NULL, label = NULL,
                         expected.label = NULL) {
  if (identical(object, expected)) return(pass_at_once(object))
  testthat::expect_equal(object, expected, ..., tolerance = tolerance, info = info,
                         label = label %||% expression_label(substitute(object)),
                         expected.label = expected.label %||% expression_label(substitute(expected)))
}

expect_true <- function(object, info = NULL, label = NULL) {
  if (is_single_logical(object, TRUE)) return(pass_at_once(object))
  testthat::expect_true(object, info = info, label = label %||% expression_label(substitute(object)))
}

expect_false <- function(object, info = NULL, label = NULL) {
  if (is_single_logical(object, FALSE)) return(pass_at_once(object))
  testthat::expect_false(object, info = info, label = label %||% expression_label(substitute(object)))
}

pass_at_once <- function(object) {
  testthat::succeed()
  invisible(object)
}

is_single_logical <- function(x, value) {
  is.logical(x) && length(x) == 1L && !is.na(x) && x == value && is.null(attributes(x))
}

expression_label <- function(expr) paste(deparse(expr, width.cutoff = 500L), collapse = " ")
