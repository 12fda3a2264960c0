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

# Columns as bit64's integer64, as databases return BIGINT.
as_integer64_columns <- function(d, vars) {
  d[vars] <- lapply(d[vars], bit64::as.integer64)
  d
}

test_that("integer64 keys and targets are grouped and counted as the same numbers held as doubles (issue 37)", {
  skip_if_not_installed("bit64")
  set.seed(37)
  n <- 500
  draw <- function() {
    data.frame(k = sample(1:5, n, TRUE), big = sample(c(1e5, 2e5, 3e5, 4e5, 123456789012), n, TRUE),
               id = sample(c(3e9, 4e9, 5e9), n, TRUE), t = sample(c(10, 20, 30, 40), n, TRUE))
  }
  d <- draw()
  s <- draw()
  vars <- c("k", "big", "id", "t")
  d64 <- as_integer64_columns(d, vars)
  s64 <- as_integer64_columns(s, vars)
  expect_true(inherits(d64$big, "integer64"))
  run <- function(syn, data, ...) {
    multi.disclosure(syn, data, keys = c("k", "big"), print.flag = FALSE, plot = FALSE, ...)
  }
  same <- function(a, b) {
    expect_equal(b$ident.table, a$ident.table)
    expect_equal(b$attrib.table, a$attrib.table)
    for (t in names(a$output.list)) expect_equal(b$output.list[[t]]$attrib, a$output.list[[t]]$attrib)
  }
  # Grouped: the same breaks, labels and numbers as the doubles.
  grouped <- run(s, d, ngroups_keys = c(0, 3), ngroups_targets = c(id = 2, t = 3))
  grouped64 <- run(s64, d64, ngroups_keys = c(0, 3), ngroups_targets = c(id = 2, t = 3))
  expect_true(grouped64$grouping$big$grouped)
  expect_identical(grouped64$grouping$big$breaks, grouped$grouping$big$breaks)
  expect_identical(grouped64$grouping$big$labels, grouped$grouping$big$labels)
  expect_true(grouped64$grouping$t$grouped)
  same(grouped, grouped64)
  # Ungrouped: every value its own category, on both sides or on one.
  plain <- run(s, d)
  same(plain, run(s64, d64))
  same(plain, run(s, d64))
  same(plain, run(s64, d))
  # disclosure() with an integer64 target grouped.
  expect_equal(disclosure(s64, d64, keys = c("k", "big"), target = "t", ngroups_target = 3, print.flag = FALSE)$attrib,
               disclosure(s, d, keys = c("k", "big"), target = "t", ngroups_target = 3, print.flag = FALSE)$attrib)
})

test_that("integer64 values beyond 2^53 count by their exact values, and grouping them is an error naming the column", {
  skip_if_not_installed("bit64")
  beyond <- bit64::as.integer64(c("9007199254740993", "9007199254740994", "100000", "200000"))
  d <- data.frame(k = rep(1:2, 10), t = rep(c("a", "b", "a", "c"), 5))
  d$big <- beyond[rep(1:4, 5)]
  s <- d[c(2:20, 1), ]
  s$big <- beyond[rep(c(1, 3, 4, 4), 5)]
  # 9007199254740993 and ...994 are two values (one double); as exact text they are two labels.
  as_text <- function(x) {
    x$big <- as.character(x$big)
    x
  }
  got <- disclosure(s, d, keys = c("k", "big"), target = "t", print.flag = FALSE)
  want <- disclosure(as_text(s), as_text(d), keys = c("k", "big"), target = "t", print.flag = FALSE)
  expect_equal(got$ident, want$ident)
  expect_equal(got$attrib, want$attrib)
  # A plain-number side compares by the same labels: 100000 is "100000", not "1e+05".
  s_plain <- s
  s_plain$big <- c(9007199254740992, 1e5, 2e5, 2e5)[rep(1:4, 5)]
  mixed <- disclosure(s_plain, d, keys = c("k", "big"), target = "t", print.flag = FALSE)
  s_text <- s_plain
  s_text$big <- c("9007199254740992", "100000", "200000", "200000")[rep(1:4, 5)]
  expect_equal(mixed$attrib, disclosure(s_text, as_text(d), keys = c("k", "big"), target = "t", print.flag = FALSE)$attrib)
  cnd <- expect_error(disclosure(s, d, keys = c("k", "big"), target = "t", ngroups_keys = c(0, 2), print.flag = FALSE),
                      class = "rlang_error")
  msg <- gsub("\\s+", " ", cli::ansi_strip(conditionMessage(cnd)))
  expect_match(msg, "Variable \"big\" in `data` cannot be grouped: it is integer64 with 10 values beyond 2^53 (e.g. 9007199254740993)",
               fixed = TRUE)
  # Within 2^53 the same column groups.
  d$big <- beyond[rep(3:4, 10)]
  s$big <- beyond[rep(c(4, 3), 10)]
  expect_true(disclosure(s, d, keys = c("k", "big"), target = "t", ngroups_keys = c(0, 2),
                         print.flag = FALSE)$grouping$big$grouped)
})
