# Definitions vignette 2.3 / 5.2: the missing level is NA, an NA level of a factor (addNA()) and the
# literal label "Missing"; `has_missing` is "some record is at the missing level".

test_that("an NA factor level counts as missing for usetargetNA = FALSE (issue 8 repro)", {
  o <- data.frame(k = "a", t = addNA(factor(NA)))
  s <- data.frame(k = "a", t = NA)
  d <- disclosure(s, o, keys = "k", target = "t", usetargetNA = FALSE, print.flag = FALSE)
  expect_equal(d$ident$UiO, 0)
  expect_equal(unname(d$Nexclusions[[1]]["original", "missing target"]), 1)
  # the same numbers as plain NA
  o2 <- data.frame(k = "a", t = factor(NA))
  d2 <- disclosure(s, o2, keys = "k", target = "t", usetargetNA = FALSE, print.flag = FALSE)
  expect_numbers(d$measures, d2$measures, label = "addNA vs NA")
})

test_that("a literal \"Missing\" target label is excluded with usetargetNA = FALSE", {
  o <- data.frame(k = c("a", "b", "c"), t = c("Missing", "x", "x"), stringsAsFactors = FALSE)
  s <- o
  d <- disclosure(s, o, keys = "k", target = "t", usetargetNA = FALSE, print.flag = FALSE)
  expect_equal(unname(d$Nexclusions[[1]]["original", c("missing target", "remaining")]), c(1, 2))
  expect_equal(d$ident$UiO, 100 * 2 / 3)
  d_na <- disclosure(s, transform(o, t = ifelse(t == "Missing", NA, t)), keys = "k", target = "t",
                     usetargetNA = FALSE, print.flag = FALSE)
  expect_equal(unname(d_na$Nexclusions[[1]]["original", "missing target"]), 1)
  # kept with usetargetNA = TRUE
  d_keep <- disclosure(s, o, keys = "k", target = "t", usetargetNA = TRUE, print.flag = FALSE)
  expect_equal(d_keep$ident$UiO, 100)
})

test_that("has_missing is per dataset and reads the remapped codes", {
  o <- data.frame(t = addNA(factor(c("x", NA))))
  s <- data.frame(t = factor(c("x", "y")))
  enc <- synthrisk:::encode_variables("t", o, list(s), NULL, list(t = 0), strict = FALSE, n_threads = 1L,
                                      call = globalenv())
  expect_identical(enc$info$t$has_missing, c(TRUE, FALSE))
  # a "Missing" level that no record uses is not missing data
  o2 <- data.frame(t = factor("x", levels = c("x", "Missing")))
  enc2 <- synthrisk:::encode_variables("t", o2, list(o2), NULL, list(t = 0), strict = FALSE, n_threads = 1L,
                                       call = globalenv())
  expect_identical(enc2$info$t$has_missing, c(FALSE, FALSE))
})
