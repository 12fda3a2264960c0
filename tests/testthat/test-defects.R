# The defects of issue 8, each a minimal repro with the numbers the definitions vignette gives.

quiet_disclosure <- function(...) disclosure(..., print.flag = FALSE)

# The encoding of `vars` as disclosure() makes it (grouping records, labels).
encode_for_test <- function(syn, data, vars, ngroups = 0, cont.na = NULL) {
  ngroups <- as.list(stats::setNames(rep_len(ngroups, length(vars)), vars))
  encode_variables(vars, data, list(syn), cont.na, ngroups, strict = FALSE, n_threads = 1L,
                   call = rlang::current_env())
}

test_that("defect 1: NaN is a level of its own, not missing (definitions vignette 2.2)", {
  o <- data.frame(k = c("a", "a"), t = c(NA, 1))
  s <- data.frame(k = c("a", "a"), t = c(NA, NaN))
  # 1 against NaN: the target's labels do not meet, and the call says so.
  d <- expect_label_warning(quiet_disclosure(s, o, keys = "k", target = "t"))
  # The synthetic q "a" has two target levels, Missing and NaN: not disclosive.
  expect_identical(d$attrib$Dsyn, 0)
  # The same data with the target as character (labels "NaN" and NA) agree.
  s_chr <- transform(s, t = as.character(t))
  o_chr <- transform(o, t = as.character(t))
  d_chr <- expect_label_warning(quiet_disclosure(s_chr, o_chr, keys = "k", target = "t"))
  expect_identical(d_chr$attrib$Dsyn, 0)
  # NaN on both sides is one level: q "b" of the original is disclosive and correct.
  o2 <- data.frame(k = c("a", "b", "b"), t = c(1, NaN, NaN))
  s2 <- data.frame(k = c("a", "b"), t = c(1, NaN))
  d2 <- quiet_disclosure(s2, o2, keys = "k", target = "t", usetargetNA = FALSE)
  expect_identical(d2$attrib$DiSCO, 100)
  expect_identical(d2$Nexclusions[[1]]["original", "missing target"], 0)
})

test_that("defect 2: a stratified synds takes the union of its cont.na rows (definitions vignette 2.3)", {
  keys <- c("sex", "age", "region", "placesize")
  plain <- quiet_disclosure(sd2011_synds, sd2011, keys = keys, target = "income", ngroups_target = 6)
  s1 <- sd2011_synds
  s1$strata.syn <- factor(rep(c("a", "b"), length.out = nrow(s1$syn)))
  s1$cont.na <- rbind(s1$cont.na, s1$cont.na)
  strat <- quiet_disclosure(s1, sd2011, keys = keys, target = "income", ngroups_target = 6)
  expect_equal(strat$attrib$DiSCO, 8.9, tolerance = 1e-12)
  expect_identical(strat$measures, plain$measures)
  # Codes given in one stratum only count too.
  s2 <- s1
  s2$cont.na[1, "income"] <- list(NA)
  expect_identical(quiet_disclosure(s2, sd2011, keys = keys, target = "income", ngroups_target = 6)$measures,
                   plain$measures)
  # A bad entry is named.
  s3 <- sd2011_synds
  s3$cont.na$income <- "minus eight"
  err <- expect_error(quiet_disclosure(s3, sd2011, keys = keys, target = "income", ngroups_target = 6),
                      class = "rlang_error")
  expect_match(conditionMessage(err), "cont.na.*income")
  err <- expect_error(quiet_disclosure(sd2011_synds$syn, sd2011, keys = keys, target = "income",
                                       cont.na = list(-8)), class = "rlang_error")
  expect_match(conditionMessage(err), "cont.na.*name")
})

test_that("defect 3: an NA level (addNA) is the missing level for usetargetNA (definitions vignette 2.3, 5.2)", {
  o <- data.frame(k = "a", t = addNA(factor(NA)))
  s <- data.frame(k = "a", t = NA)
  d <- quiet_disclosure(s, o, keys = "k", target = "t", usetargetNA = FALSE)
  expect_identical(d$ident$UiO, 0)
  expect_identical(d$Nexclusions[[1]]["original", "missing target"], 1)
  plain <- quiet_disclosure(s, data.frame(k = "a", t = NA), keys = "k", target = "t", usetargetNA = FALSE)
  expect_identical(d$measures, plain$measures)
})

test_that("defect 4: not.targetlev keeps \"\" inside a longer vector (definitions vignette 5.1)", {
  o <- data.frame(k = c("a", "b", "c"), t = c("x", "", "y"))
  d <- quiet_disclosure(o, o, keys = "k", target = "t", not.targetlev = c("x", ""))
  expect_identical(d$Nexclusions[[1]]["original", "excluded target"], 2)
  expect_equal(d$attrib$DiSCO, 100 / 3, tolerance = 1e-12)
  only_x <- quiet_disclosure(o, o, keys = "k", target = "t", not.targetlev = "x")
  expect_equal(only_x$attrib$DiSCO, 200 / 3, tolerance = 1e-12)
  none <- quiet_disclosure(o, o, keys = "k", target = "t", not.targetlev = "")
  expect_identical(none$attrib$DiSCO, 100)
  expect_identical(none$Nexclusions[[1]]["original", "excluded target"], 0)
  # multi.disclosure: the same rule per target.
  o2 <- data.frame(k = c("a", "b", "c"), t = c("x", "", "y"), u = c("x", "", "y"))
  md <- multi.disclosure(o2, o2, keys = "k", not.targetslev = list(c("x", ""), ""), print.flag = FALSE,
                         plot = FALSE)
  expect_equal(md$output.list$t$attrib$DiSCO, 100 / 3, tolerance = 1e-12)
  expect_identical(md$output.list$u$attrib$DiSCO, 100)
})

test_that("defect 5: doubles that print the same are one level (definitions vignette 2.2)", {
  o <- data.frame(k = c("a", "a"), t = c(0.1 + 0.2, 0.3))
  d <- quiet_disclosure(o, o, keys = "k", target = "t", thresh_2way = c(0, 0))
  expect_identical(d$attrib$Dorig, 100)
  expect_identical(d$attrib$DiSCO, 100)
  expect_identical(d$check_2way$target_key_levs, "0.3|a")
  expect_identical(d$check_2way$npairs, 2L)
  # As keys too: one q.
  o2 <- data.frame(k = c(0.1 + 0.2, 0.3), t = c("x", "x"))
  expect_identical(quiet_disclosure(o2, o2, keys = "k", target = "t")$ident$UiO, 0)
})

test_that("defect 6: a literal \"Missing\" target label is the missing level (definitions vignette 2.3, 5.2)", {
  o <- data.frame(k = c("a", "b"), t = c("Missing", "x"))
  d <- quiet_disclosure(o, o, keys = "k", target = "t", usetargetNA = FALSE)
  expect_identical(d$Nexclusions[[1]]["original", "missing target"], 1)
  expect_identical(d$ident$UiO, 50)
  expect_identical(d$attrib$DiSCO, 50)
  # "Missing" and NA are one level.
  s <- data.frame(k = c("a", "a"), t = c("Missing", NA))
  expect_identical(quiet_disclosure(s, o, keys = "k", target = "t")$attrib$Dsyn, 100)
})

test_that("defect 7: ratios with a zero denominator follow R's arithmetic (definitions vignette, section 6)", {
  # The synthetic cell (10 records) is over denom_lim and excluded, the original one is
  # not: K = 1 record predicted with certainty and correct, Nb = 0.
  o <- data.frame(k = "a", t = "x")
  s <- data.frame(k = rep("a", 10), t = "x")
  d <- quiet_disclosure(s, o, keys = "k", target = "t", exclude_ov_denom_lim = TRUE, denom_lim = 5)
  expect_identical(d$allCAPs$TCAPb, Inf)
  expect_identical(d$allCAPs$DCAPb, NaN)
  expect_identical(d$attrib$DiSCO, 100)
  expect_identical(d$allCAPs$TCAPs, 10)
  expect_identical(d$allCAPs$TCAP, 100)
})

test_that("defect 8: unusable columns and arguments get clear errors naming them", {
  o <- data.frame(k = c("a", "b"), t = c("x", "y"))
  bad_key <- function(col) {
    s <- o
    s$k <- col
    err <- expect_error(quiet_disclosure(s, o, keys = "k", target = "t"), class = "rlang_error")
    expect_match(conditionMessage(err), "\"k\"")
    expect_no_match(conditionMessage(err), "core")
    conditionMessage(err)
  }
  expect_match(bad_key(matrix(c("a", "b", "c", "d"), 2)), "matrix column")
  expect_match(bad_key(data.frame(a = 1:2, b = 3:4)), "data-frame column")
  expect_match(bad_key(I(list("a", "b"))), "list column")
  expect_match(bad_key(c(1i, 2i)), "complex column")
  # Inf in a grouped variable: levels of their own (definitions vignette 2.1), no classInt message.
  o2 <- data.frame(k = c("a", "a", "b", "b", "c", "c"), t = c(Inf, -Inf, 1, 2, NaN, NaN))
  expect_no_warning(d <- quiet_disclosure(o2, o2, keys = "k", target = "t", ngroups_target = 2))
  expect_equal(d$attrib$Dorig, 100 / 3, tolerance = 1e-12)
  expect_equal(d$attrib$DiSCO, 100 / 3, tolerance = 1e-12)
  # Argument errors name the argument and the value, NULL included, without warnings.
  arg_error <- function(expr, pattern) {
    err <- expect_error(expect_no_warning(expr), class = "rlang_error")
    expect_match(conditionMessage(err), pattern)
    expect_no_match(conditionMessage(err), "1 or 1|not \\.$")
  }
  arg_error(quiet_disclosure(o, o, keys = "k", target = "t", denom_lim = NULL), "denom_lim.*NULL")
  arg_error(quiet_disclosure(o, o, keys = "k", target = "t", thresh_2way = NULL), "thresh_2way.*NULL")
  # denom_lim = Inf: either no limit or a clear error, never a coercion warning.
  warned <- FALSE
  inf <- tryCatch(
    withCallingHandlers(
      quiet_disclosure(o, o, keys = "k", target = "t", denom_lim = Inf, exclude_ov_denom_lim = TRUE),
      warning = function(w) {
        warned <<- TRUE
        invokeRestart("muffleWarning")
      }
    ),
    rlang_error = function(e) e
  )
  expect_false(warned)
  if (inherits(inf, "error")) {
    expect_match(conditionMessage(inf), "denom_lim.*Inf")
  } else {
    expect_identical(inf$measures, quiet_disclosure(o, o, keys = "k", target = "t")$measures)
  }
  arg_error(quiet_disclosure(o, o, keys = "k", target = "t", ngroups_target = c(2, 3)), "ngroups_target")
})

test_that("defect 9: grouping with fewer than two usable values is left ungrouped, and says so", {
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
