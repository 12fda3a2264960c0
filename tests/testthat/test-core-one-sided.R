# The encoding reports, per variable, whether a non-missing level occurs on one side
# only (original vs some synthesis): synthpop 1.9-3 misaligns such an ungrouped numeric
# target (definitions vignette 9.8), and R can say so.

one_sided <- function(data, syn) {
  enc <- synthrisk:::encode_variables("t", data, syn, NULL, list(t = 0), strict = FALSE, n_threads = 1L,
                                      call = globalenv())
  enc$info$t$one_sided
}

test_that("one_sided flags levels in the original only or in a synthesis only", {
  o <- data.frame(t = c(1, 2, 3))
  expect_false(one_sided(o, list(data.frame(t = c(3, 1, 2, 2)))))
  expect_true(one_sided(o, list(data.frame(t = c(1, 2)))))
  expect_true(one_sided(o, list(data.frame(t = c(1, 2, 3)), data.frame(t = c(1, 2, 3, 4)))))
  # missing values on one side only do not count
  expect_false(one_sided(data.frame(t = c(1, NA)), list(data.frame(t = c(1, 1)))))
  # NaN is a level: on one side only, it counts
  expect_true(one_sided(data.frame(t = c(1, NaN)), list(data.frame(t = c(1, 1)))))
  # factors: declared but unused levels do not occur
  f <- data.frame(t = factor(c("a", "b"), levels = c("a", "b", "c")))
  expect_false(one_sided(f, list(data.frame(t = factor(c("b", "a"))))))
  expect_true(one_sided(f, list(data.frame(t = factor(c("c", "a", "b"))))))
})
