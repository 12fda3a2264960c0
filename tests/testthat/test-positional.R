# Calls written for synthpop 1.9-3 by position give the same result as by name: the
# methods' argument order is synthpop's (cont.na third for data frames and lists).

keys4 <- c("sex", "age", "region", "placesize")

same_measures <- function(a, b) {
  expect_identical(a$measures, b$measures)
  expect_identical(a$Nexclusions, b$Nexclusions)
  expect_identical(a$check_2way, b$check_2way)
}

test_that("disclosure(): synds by position = by name", {
  pos <- disclosure(sd2011_synds, sd2011, keys4, "income", FALSE, 3, TRUE, "", FALSE, c(TRUE, TRUE, FALSE, TRUE),
                    "sex", "MALE", "-8", 5, 0, c(40, 80), c(3, 70), 3, "allCAPs")
  named <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "income", print.flag = FALSE, denom_lim = 3,
                      exclude_ov_denom_lim = TRUE, not.targetlev = "", usetargetNA = FALSE,
                      usekeysNA = c(TRUE, TRUE, FALSE, TRUE), exclude.keys = "sex", exclude.keylevs = "MALE",
                      exclude.targetlevs = "-8", ngroups_target = 5, ngroups_keys = 0, thresh_1way = c(40, 80),
                      thresh_2way = c(3, 70), digits = 3, to.print = "allCAPs")
  same_measures(pos, named)
  expect_identical(pos$digits, 3)
  expect_identical(pos$to.print, "allCAPs")
  expect_gt(sum(pos$Nexclusions[[1]][, 1:5]), 0)
})

test_that("disclosure(): data frame and list with cont.na third", {
  pos <- disclosure(sd2011_synds$syn, sd2011, list(income = -8), keys4, "income", FALSE, ngroups_target = 5)
  named <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "income", print.flag = FALSE, ngroups_target = 5)
  same_measures(pos, named)
  # sd2011_synds5 was made without cont.na codes: -8 is an ordinary income there
  pos5 <- disclosure(sd2011_synds5$syn, sd2011, NULL, keys4, "income", FALSE, ngroups_target = 5)
  named5 <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "income", print.flag = FALSE, ngroups_target = 5)
  same_measures(pos5, named5)
})

test_that("multi.disclosure(): synds and data frame by position = by name", {
  pos <- multi.disclosure(sd2011_synds, sd2011, keys4, c("depress", "income"), FALSE, 5, FALSE, c("", "-8"),
                          c(TRUE, FALSE), TRUE, NULL, NULL, NULL, c(0, 6), 0, "UiSiO", "DCAP", c(50, 90), c(4, 80),
                          3, FALSE)
  named <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = c("depress", "income"), print.flag = FALSE,
                            denom_lim = 5, exclude_ov_denom_lim = FALSE, not.targetslev = c("", "-8"),
                            usetargetsNA = c(TRUE, FALSE), usekeysNA = TRUE, ngroups_targets = c(0, 6),
                            ngroups_keys = 0, ident.meas = "UiSiO", attrib.meas = "DCAP", digits = 3, plot = FALSE)
  expect_identical(pos$attrib.table, named$attrib.table)
  expect_identical(pos$ident.syn, named$ident.syn)
  expect_identical(pos$digits, 3)
  expect_false(pos$plot)
  df_pos <- multi.disclosure(sd2011_synds$syn, sd2011, list(income = -8), keys4, c("depress", "income"), FALSE,
                             ngroups_targets = c(0, 6), plot = FALSE)
  df_named <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = c("depress", "income"),
                               print.flag = FALSE, ngroups_targets = c(0, 6), plot = FALSE)
  expect_identical(df_pos$attrib.table, df_named$attrib.table)
})

test_that("disclosure.summary() is multi.disclosure() under synthpop 1.8's name", {
  a <- disclosure.summary(sd2011_synds, sd2011, keys4, targets = c("depress", "ls"), print.flag = FALSE, plot = FALSE)
  b <- multi.disclosure(sd2011_synds, sd2011, keys4, targets = c("depress", "ls"), print.flag = FALSE, plot = FALSE)
  expect_s3_class(a, "multi.disclosure")
  expect_identical(a$attrib.table, b$attrib.table)
})

test_that("print methods take synthpop's argument order", {
  d <- disclosure(sd2011_synds, sd2011, keys4, "depress", FALSE)
  expect_identical(capture.output(print(d, "allCAPs", 1)), capture.output(print(d, to.print = "allCAPs", digits = 1)))
  md <- multi.disclosure(sd2011_synds, sd2011, keys4, targets = "depress", print.flag = FALSE, plot = FALSE)
  expect_identical(capture.output(print(md, 1, FALSE, "ident")),
                   capture.output(print(md, digits = 1, plot = FALSE, to.print = "ident")))
})
