# The one encoding (R/encode.R): labels cleaned, numeric variables grouped where asked,
# every variable coded on the union of its levels, and what the analyses read of it.

encode <- function(vars, data, syn, cont.na = list(), ngroups = NULL, control = NULL) {
  ngroups <- ngroups %||% stats::setNames(as.list(rep(0, length(vars))), vars)
  synthrisk:::encode_variables(vars, data, syn, cont.na, ngroups, strict = FALSE, n_threads = 1L, call = NULL,
                               control = control)
}

level_counts <- function(enc, var) {
  i <- match(var, enc$vars)
  n <- length(enc$weights)
  counts <- synthrisk:::rust_result(synthrisk:::rust_level_counts(enc$ptr, i - 1L, rep(list(NULL), n)))
  lapply(counts, stats::setNames, enc$labels[[var]])
}

test_that("NFC and NFD labels are one level; NA, an NA level and 'Missing' are the missing level", {
  data <- data.frame(city = factor(c("Krak\u00f3w", "Lodz", NA, "Missing")), stringsAsFactors = FALSE)
  syn <- list(data.frame(city = addNA(factor(c("Krako\u0301w", "Krako\u0301w", "Lodz", NA)))))
  enc <- encode("city", data, syn)
  expect_identical(enc$labels$city, c("Krak\u00f3w", "Lodz", "Missing"))
  counts <- level_counts(enc, "city")
  expect_identical(unname(counts[[1]]), c(1, 1, 2))
  expect_identical(unname(counts[[2]]), c(2, 1, 1))
  expect_false(enc$one_sided[["city"]])
})

test_that("numbers that print alike are one level, labelled as factor() labels them", {
  data <- data.frame(x = c(0.1 + 0.2, 1, NA, NaN, -8))
  syn <- list(data.frame(x = c(0.3, 2L, 1, NA, -8)))
  enc <- encode("x", data, syn, cont.na = list(x = -8))
  expect_identical(enc$labels$x, c(levels(factor(c(data$x, syn[[1]]$x))), "Missing"))
  counts <- level_counts(enc, "x")
  expect_identical(counts[[1]][["0.3"]], 1)
  expect_identical(counts[[2]][["0.3"]], 1)
  expect_identical(counts[[1]][["NaN"]], 1)
  expect_identical(counts[[1]][["Missing"]], 1)
})

test_that("sides are made comparable, grouping is recorded, control is the last dataset", {
  data <- data.frame(a = c(1, 2, 3, 4, 5, 6), b = c("u", "v", "u", "v", "u", "v"))
  syn <- list(data.frame(a = c(1, 2, 3, 4, 5, 6), b = factor(c(1, 2, 1, 2, 1, 2))))
  enc <- encode(c("a", "b"), data, syn, ngroups = list(a = 3, b = 0),
                control = data.frame(a = c(0, 7), b = c("u", "w")))
  expect_false("a" %in% enc$adjusted)
  expect_true(enc$grouping$a$grouped)
  expect_identical(length(enc$weights), 3L)
  expect_identical(enc$records, c(6, 6, 2))
  # Control values beyond the outer breaks go to the end intervals, and are counted.
  expect_identical(enc$control$a$below + enc$control$a$above, 2L)
  mixed <- encode("a", data, list(data.frame(a = factor(c(1, 2, 3, 4, 5, 6)))))
  expect_identical(mixed$adjusted, "a")
})

test_that("labels that barely meet are found once, for every analysis to report", {
  data <- data.frame(sex = c("male", "female", "male"))
  syn <- list(data.frame(sex = c("MALE", "FEMALE", "MALE")))
  enc <- encode("sex", data, syn)
  expect_true(enc$label_gaps$sex$none)
  expect_identical(enc$label_gaps$sex$original_labels, c("female", "male"))
})

test_that("a NaN among whole-number control values stays NaN (not missing)", {
  data <- data.frame(x = c(1L, 2L, 3L))
  syn <- list(data.frame(x = c(1L, 2L, 2L)))
  control <- data.frame(x = c(1, NaN, NA))
  enc <- encode("x", data, syn, control = control)
  counts <- level_counts(enc, "x")
  expect_identical(counts[[3]][["NaN"]], 1)
  expect_identical(counts[[3]][["Missing"]], 1)
  # Whole-number control values keep integer data integer (labels as R writes integers).
  enc <- encode("x", data, syn, control = data.frame(x = c(1, 100000, NA)))
  expect_true("100000" %in% enc$labels$x)
})
