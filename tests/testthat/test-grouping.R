# Grouping asked for a variable that cannot be grouped is said, not silently skipped
# (R/grouping.R).

keys4 <- c("sex", "age", "region", "placesize")

test_that("grouping a factor, a Date or a variable of fewer than two values is refused with a reason", {
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "workab", ngroups_target = 5, print.flag = FALSE)
  g <- d$grouping$workab
  expect_false(g$grouped)
  expect_match(g$reason, "it is a factor, and only numeric variables are grouped", fixed = TRUE)
  out <- capture.output(print(d))
  expect_true(any(grepl("Did not group 'workab' (5 groups asked)", out, fixed = TRUE)))
  expect_output(disclosure(sd2011_synds, sd2011, keys = keys4, target = "workab", ngroups_target = 5),
                "Did not group 'workab'")

  orig <- data.frame(k = factor(rep(c("a", "b"), 10)), when = as.Date("2020-01-01") + 0:19, one = 1,
                     t = factor(rep(c("x", "y"), each = 10)))
  syn <- orig[20:1, ]
  md <- multi.disclosure(syn, orig, keys = "k", targets = c("when", "one"), ngroups_targets = 3, print.flag = FALSE,
                         plot = FALSE)
  expect_match(md$grouping$when$reason, "it is a Date, and only numeric variables are grouped; to group dates",
               fixed = TRUE)
  expect_match(md$grouping$one$reason, "fewer than two distinct usable values", fixed = TRUE)
  out <- capture.output(print(md, plot = FALSE))
  expect_true(any(grepl("Did not group 'when'", out, fixed = TRUE)))
  expect_false(any(grepl("Made 'when'", out, fixed = TRUE)))
  # The Date is compared by its labels, as without grouping.
  plain <- multi.disclosure(syn, orig, keys = "k", targets = "when", print.flag = FALSE, plot = FALSE)
  expect_identical(md$output.list$when$attrib, plain$output.list$when$attrib)
})

quiet_disclosure <- function(...) disclosure(..., print.flag = FALSE)

# The encoding of `vars` as disclosure() makes it (grouping records, labels).
encode_for_test <- function(syn, data, vars, ngroups = 0, cont.na = NULL) {
  ngroups <- as.list(stats::setNames(rep_len(ngroups, length(vars)), vars))
  encode_variables(vars, data, list(syn), cont.na, ngroups, strict = FALSE, n_threads = 1L,
                   call = rlang::current_env())
}

test_that("grouping with fewer than two usable values is left ungrouped, and says so", {
  o <- data.frame(k = c("a", "a", "b", "b"), t = c(5, 5, -8, NA))
  enc <- encode_for_test(o, o, c("k", "t"), ngroups = c(0, 3), cont.na = list(t = -8))
  g <- enc$grouping$t
  expect_false(g$grouped)
  expect_identical(g$reason, "fewer than two distinct usable values")
  expect_identical(g$labels, c("-8", "5"))
  expect_identical(g$ngroups, 3L)
  expect_identical(names(enc$grouping), "t")
  # Ungrouped, the values are categories: q "a" (5, 5) is disclosive, "b" (-8, NA) not.
  d <- quiet_disclosure(o, o, keys = "k", target = "t", ngroups_target = 3, cont.na = list(t = -8))
  expect_identical(d$attrib$Dorig, 50)
  none <- encode_for_test(data.frame(k = "a", t = NA_real_), data.frame(k = "a", t = Inf), c("k", "t"),
                          ngroups = c(0, 2))
  expect_false(none$grouping$t$grouped)
  expect_match(none$grouping$t$reason, "no usable values")
})
