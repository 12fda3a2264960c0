# The counts' lists and the encoding's info, built on R's protect stack by the glue
# (src/rust/src/r_lists.rs).

# The arguments of the core's one crossing that `f()` makes.
encode_compute_arguments <- function(f) {
  captured <- NULL
  # The tracer runs in the traced call's frame: its arguments are read from there.
  capture <- function() captured <<- mget(c("vars", "calls"), envir = parent.frame())
  trace("rust_encode_compute", as.call(list(capture)), print = FALSE, where = asNamespace("synthrisk"))
  on.exit(untrace("rust_encode_compute", where = asNamespace("synthrisk")))
  f()
  captured
}

test_that("the counts' lists and the encoding's info hold up when R collects garbage at every allocation", {
  skip_on_cran()
  small <- sd2011[1:300, c("sex", "age", "region", "depress", "marital")]
  set.seed(11)
  syn <- lapply(1:2, function(i) small[sample(300), ])
  syn[[2]]$marital[1:5] <- NA
  # An age only the synthesis has: its levels are one-sided (counts and overlap in the info).
  syn[[1]]$age[1] <- 120
  obj <- structure(list(syn = syn, m = 2), class = "synds")
  args <- encode_compute_arguments(function() {
    multi.disclosure(obj, small, c("sex", "region"), print.flag = FALSE, plot = FALSE)
  })
  plain <- rust_encode_compute(args$vars, 1L, args$calls)
  on.exit(gctorture(FALSE), add = TRUE)
  gctorture(TRUE)
  tortured <- rust_encode_compute(args$vars, 1L, args$calls)
  gctorture(FALSE)
  expect_identical(tortured$raw, plain$raw)
  expect_identical(tortured$info, plain$info)
  # Age's info (the one variable with one-sided levels): every kind of field.
  one_sided <- Filter(function(info) isTRUE(info$one_sided), plain$info)
  expect_length(one_sided, 1)
  age <- one_sided[[1]]
  expect_type(age$level_overlap$covers_original, "logical")
  expect_type(age$level_labels, "character")
  expect_true(120 %in% age$numeric_levels)
  expect_type(age$level_counts[[2]], "double")
  expect_type(age$n_levels, "integer")
  # One result per target: age, depress, marital.
  expect_length(plain$raw[[1]], 3)
  first <- plain$raw[[1]][[1]]
  expect_named(first, c("stats", "nexcl", "one_way", "two_way", "tau_syn", "tau_orig"))
  expect_named(first$two_way, c("synthesis", "key", "key_level", "target_level", "npairs", "key_target_total",
                                "key_total"))
  with_pairs <- Filter(function(r) length(r$two_way$key) > 0, plain$raw[[1]])
  expect_gte(length(with_pairs), 1)
  pairs <- with_pairs[[1]]$two_way
  expect_type(pairs$key, "integer")
  expect_type(pairs$npairs, "double")
  expect_gt(length(pairs$key), 0)
  expect_named(first$one_way, c("level", "n_level_dis", "total_disclosive", "level_orig", "all_orig"))
  # Every measure a double per synthesis (and the holdout's none here).
  expect_true(all(vapply(first$stats, function(s) is.double(s) && length(s) == 2L, logical(1))))
  expect_null(names(plain$raw[[1]]))
})
