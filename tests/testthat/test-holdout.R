# The holdout baseline: `control` leaves every train number as it is, its own numbers
# are those of disclosure() with `control` as the original, R follows its formula, and
# print, tidy and holdout_split() behave as documented.

keys4 <- c("sex", "age", "region", "placesize")
main_components <- c("ident", "attrib", "allCAPs", "check_1way", "check1", "check_2way", "check2", "Nexclusions",
                     "measures", "grouping", "notes", "Norig", "Nsyn", "keys", "target")

split_sd2011 <- function(seed = 7, prop = 0.3) holdout_split(sd2011, prop = prop, seed = seed)

test_that("control changes no number of the call without it (SD2011, m = 1 and 5, grouped)", {
  parts <- split_sd2011()
  calls <- list(
    list(sd2011_synds, parts$train, keys = keys4, target = "depress"),
    list(sd2011_synds5, parts$train, keys = keys4, target = "marital", usetargetNA = FALSE),
    list(sd2011_synds5, parts$train, keys = keys4, target = "income", ngroups_target = 10, ngroups_keys = c(0, 5, 0, 0),
         exclude_ov_denom_lim = TRUE)
  )
  for (args in calls) {
    plain <- do.call(disclosure, c(args, print.flag = FALSE))
    with_control <- do.call(disclosure, c(args, print.flag = FALSE, list(control = parts$control)))
    for (k in main_components) expect_identical(with_control[[k]], plain[[k]], label = paste(args$target, k))
    # The train column is the plain call's measures.
    expect_equal(with_control$holdout$train, tidy(plain)$value, tolerance = 1e-12)
    expect_identical(with_control$holdout[c("synthesis", "measure")], tidy(plain)[c("synthesis", "measure")])
  }
})

test_that("without grouping the control column is disclosure() with control as the original", {
  parts <- split_sd2011()
  for (target in c("depress", "workab", "ls")) {
    got <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = target, print.flag = FALSE,
                      control = parts$control, usetargetNA = target != "ls", exclude_ov_denom_lim = target == "ls")
    want <- disclosure(sd2011_synds5, parts$control, keys = keys4, target = target, print.flag = FALSE,
                       usetargetNA = target != "ls", exclude_ov_denom_lim = target == "ls")
    expect_equal(got$holdout$control, tidy(want)$value, tolerance = 1e-12)
    expect_identical(got$Ncontrol, nrow(parts$control))
  }
})

test_that("R is (r_train - r_control) / (1 - r_control), NA for counts and where r_control is 1", {
  parts <- split_sd2011()
  got <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = "depress", print.flag = FALSE,
                    control = parts$control)
  h <- got$holdout
  expect_named(h, c("synthesis", "measure", "train", "control", "R"))
  i <- which(h$measure == "DiSCO" & h$synthesis == 2)
  expect_equal(h$R[i], (h$train[i] / 100 - h$control[i] / 100) / (1 - h$control[i] / 100))
  expect_true(all(is.na(h$R[h$measure %in% c("max_denom", "mean_denom")])))
  expect_true(all(!is.na(h$R[h$measure %in% c("repU", "DiSCO", "DCAPd", "TCAP")])))
  # Hand-made numbers: r_control = 1 gives NA; otherwise the formula.
  expect_equal(synthrisk:::holdout_ratio(c(50, 30, 100, 20), c(100, 10, 40, 20), c("%", "%", "%", "count")),
               c(NA, (0.3 - 0.1) / 0.9, (1 - 0.4) / 0.6, NA))
})

test_that("a control identical to the training data gives R = 0 wherever R is defined", {
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE, control = sd2011)
  expect_identical(d$holdout$train, d$holdout$control)
  defined <- !is.na(d$holdout$R)
  expect_true(all(d$holdout$R[defined] == 0))
})

test_that("control values beyond the breaks go to the end intervals and a note says how many", {
  parts <- split_sd2011()
  control <- parts$control
  control$income[1:3] <- c(-1e6, 1e7, 2e7)
  d <- disclosure(sd2011_synds, parts$train, keys = keys4, target = "income", ngroups_target = 5,
                  print.flag = FALSE, control = control)
  plain <- disclosure(sd2011_synds, parts$train, keys = keys4, target = "income", ngroups_target = 5,
                      print.flag = FALSE)
  expect_identical(d$grouping, plain$grouping)
  expect_match(d$holdout_notes, "Put 3 control values of 'income'.*1 below the lowest, 2 above the highest")
  expect_match(paste(format(d), collapse = "\n"), "Put 3 control values", fixed = TRUE)
})

test_that("multi.disclosure() gains holdout per target, with the per-target results", {
  parts <- split_sd2011()
  targets <- c("depress", "income", "ls")
  md <- multi.disclosure(sd2011_synds5, parts$train, keys = keys4, targets = targets,
                         ngroups_targets = c(income = 10), print.flag = FALSE, plot = FALSE, control = parts$control)
  plain <- multi.disclosure(sd2011_synds5, parts$train, keys = keys4, targets = targets,
                            ngroups_targets = c(income = 10), print.flag = FALSE, plot = FALSE)
  expect_identical(md$attrib.table, plain$attrib.table)
  expect_named(md$holdout, c("target", "synthesis", "measure", "train", "control", "R"))
  expect_identical(unique(md$holdout$target), targets)
  for (tv in targets) {
    expect_identical(md$output.list[[tv]]$holdout, {
      h <- md$holdout[md$holdout$target == tv, -1]
      rownames(h) <- NULL
      h
    })
    d <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = tv, print.flag = FALSE,
                    ngroups_target = if (tv == "income") 10 else 0, control = parts$control)
    expect_equal(md$output.list[[tv]]$holdout, d$holdout, tolerance = 1e-12)
  }
})

test_that("control is checked like data, errors naming control and the column", {
  parts <- split_sd2011()
  run <- function(control, ...) {
    disclosure(sd2011_synds, parts$train, keys = keys4, target = "depress", print.flag = FALSE, control = control, ...)
  }
  expect_snapshot(error = TRUE, {
    run(as.list(parts$control))
    run(parts$control[0, ])
    run(parts$control[, c("sex", "age", "depress")])
  })
  bad_type <- parts$control
  bad_type$age <- as.character(bad_type$age)
  expect_snapshot(run(bad_type), error = TRUE)
  listcol <- parts$control
  listcol$depress <- as.list(listcol$depress)
  expect_snapshot(run(listcol), error = TRUE)
  strict <- parts$control
  strict$sex <- as.character(strict$sex)
  expect_snapshot(run(strict, compare.synorig = FALSE), error = TRUE)
  expect_error(multi.disclosure(sd2011_synds, parts$train, keys = keys4, targets = "depress", print.flag = FALSE,
                                control = parts$control[, keys4]), "control")
  expect_error(record_risk(sd2011_synds, parts$train, keys = keys4, target = "depress", control = parts$control),
               "control")
})

test_that("a control with levels of its own and synthpop's positional arguments work", {
  parts <- split_sd2011()
  control <- parts$control
  control$marital <- factor(ifelse(seq_len(nrow(control)) <= 5, "new", as.character(control$marital)))
  d <- disclosure(sd2011_synds, parts$train, keys4, "marital", FALSE, 5, control = control)
  plain <- disclosure(sd2011_synds, parts$train, keys4, "marital", FALSE, 5)
  for (k in main_components) expect_identical(d[[k]], plain[[k]])
  expect_identical(nrow(d$holdout), nrow(tidy(plain)))
})

test_that("print shows the holdout table by default when control is given, and on request", {
  parts <- split_sd2011()
  d <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = "depress", print.flag = FALSE,
                  control = parts$control)
  expect_identical(d$to.print, c("short", "holdout"))
  expect_snapshot(print(d))
  short <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = "depress", print.flag = FALSE,
                      control = parts$control, to.print = "short")
  expect_false(any(grepl("Holdout baseline", format(short))))
  plain <- disclosure(sd2011_synds, parts$train, keys = keys4, target = "depress", print.flag = FALSE)
  expect_snapshot(print(plain, to.print = "holdout"))
  expect_false(any(grepl("Holdout", format(plain, to.print = "all"))))
  expect_true(any(grepl("Holdout baseline", format(d, to.print = "all"))))
  md <- multi.disclosure(sd2011_synds, parts$train, keys = keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE, control = parts$control)
  expect_snapshot(print(md))
  expect_false(any(grepl("Holdout", format(md, to.print = "attrib"))))
})

test_that("tidy(type = \"holdout\") gives the holdout table with group and unit", {
  parts <- split_sd2011()
  d <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = "depress", print.flag = FALSE,
                  control = parts$control)
  td <- tidy(d, type = "holdout")
  expect_named(td, c("target", "synthesis", "group", "measure", "unit", "train", "control", "R"))
  expect_identical(td[c("synthesis", "measure", "train", "control", "R")], d$holdout)
  expect_identical(td[c("target", "group", "unit")], tidy(d)[c("target", "group", "unit")])
  md <- multi.disclosure(sd2011_synds, parts$train, keys = keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE, control = parts$control)
  tm <- tidy(md, type = "holdout")
  expect_identical(tm[c("target", "synthesis", "measure", "train", "control", "R")], md$holdout)
  plain <- disclosure(sd2011_synds, parts$train, keys = keys4, target = "depress", print.flag = FALSE)
  expect_error(tidy(plain, type = "holdout"), "no holdout baseline")
  expect_error(tidy(d, type = "holdouts"), "type")
  expect_identical(tidy(d), tidy(plain <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = "depress",
                                                      print.flag = FALSE)))
})

test_that("holdout_split() splits reproducibly, keeps row order and leaves the random state alone", {
  set.seed(99)
  before <- .Random.seed
  a <- holdout_split(sd2011, prop = 0.2, seed = 5)
  expect_identical(.Random.seed, before)
  b <- holdout_split(sd2011, prop = 0.2, seed = 5)
  expect_identical(a, b)
  expect_identical(nrow(a$control), as.integer(round(0.2 * nrow(sd2011))))
  expect_identical(nrow(a$train) + nrow(a$control), nrow(sd2011))
  rows <- as.integer(c(rownames(a$train), rownames(a$control)))
  expect_identical(sort(rows), seq_len(nrow(sd2011)))
  expect_false(is.unsorted(as.integer(rownames(a$train))))
  expect_false(is.unsorted(as.integer(rownames(a$control))))
  expect_false(identical(holdout_split(sd2011, 0.2, seed = 6)$control, a$control))
  # Without a seed the session's random numbers decide.
  set.seed(1)
  c1 <- holdout_split(sd2011, 0.1)
  set.seed(1)
  expect_identical(holdout_split(sd2011, 0.1), c1)
  # No .Random.seed before: none after.
  rm(".Random.seed", envir = globalenv())
  holdout_split(sd2011, 0.1, seed = 1)
  expect_false(exists(".Random.seed", envir = globalenv(), inherits = FALSE))
  expect_snapshot(error = TRUE, {
    holdout_split(sd2011, prop = 1)
    holdout_split(sd2011, prop = c(0.1, 0.2))
    holdout_split(sd2011, prop = "a")
    holdout_split(sd2011, seed = 1.5)
    holdout_split(as.list(sd2011))
    holdout_split(sd2011[1:2, ], prop = 0.1)
  })
})

test_that("the curves refuse control instead of ignoring it", {
  parts <- split_sd2011()
  expect_error(tau_curve(sd2011_synds, parts$train, keys = keys4, targets = "depress", print.flag = FALSE,
                         control = parts$control), "control")
})

test_that("the printout explains negative R and the size of the control set (issue 19)", {
  squish <- function(lines) gsub("\\s+", " ", paste(lines, collapse = " "))
  parts <- split_sd2011(prop = 0.2)
  d <- disclosure(sd2011_synds5, parts$train, keys = keys4, target = "depress", print.flag = FALSE,
                  control = parts$control)
  out <- squish(capture.output(print(d), type = "output"))
  # The explanation no longer says R runs from 0 up: negative values are explained.
  expect_match(out, "negative when the control records are more exposed than the training ones", fixed = TRUE)
  expect_match(out, "no sign of leakage", fixed = TRUE)
  expect_match(out, "within noise", fixed = TRUE)
  # The measures whose printed R is negative are named, and only those.
  s <- holdout_summary(d$holdout)
  negative <- rownames(s)[!is.na(s$R) & round(s$R, 2) < 0]
  expect_gt(length(negative), 0)
  expect_match(out, paste0("R is negative for ", paste(negative, collapse = ", ")), fixed = TRUE)
  # The control set is smaller than the training set: the advice on prop.
  expect_match(out, "The control set has 1,000 records, the training set 4,000", fixed = TRUE)
  expect_match(out, "prop = 0.2 follows the PSD paper (Raab, 2024)", fixed = TRUE)
  expect_match(out, "a control set as large as the training set (prop = 0.5) gives R that compares like with",
               fixed = TRUE)
  # Measures whose R the sizes alone move (a simulation without leakage) are named.
  expect_match(out, "near +0.3 for DCAPs, DCAPb, TCAPs and TCAPb", fixed = TRUE)

  # A control set as large as the training set needs no advice; a control identical to
  # the training data has no negative R to explain.
  half <- split_sd2011(prop = 0.5)
  even <- disclosure(sd2011_synds, half$train, keys = keys4, target = "depress", print.flag = FALSE,
                     control = half$control)
  expect_no_match(squish(capture.output(print(even), type = "output")), "prop = 0.2 follows", fixed = TRUE)
  same <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE, control = sd2011)
  out_same <- squish(capture.output(print(same), type = "output"))
  expect_no_match(out_same, "R is negative for", fixed = TRUE)
  expect_match(out_same, "no sign of leakage", fixed = TRUE)

  md <- multi.disclosure(sd2011_synds, parts$train, keys = keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE, control = parts$control)
  out_md <- squish(capture.output(print(md), type = "output"))
  expect_match(out_md, "R is negative for repU", fixed = TRUE)
  expect_match(out_md, "prop = 0.2 follows the PSD paper (Raab, 2024)", fixed = TRUE)
})

test_that("the printout's sizes note holds: without leakage, R of DCAPs and TCAPs is near +0.3 at prop = 0.2 and near 0 at equal sizes", {
  # What bench/holdout-sizes.R measures with 40 splits, here with 12: the "syntheses"
  # are real records drawn apart from both sets, so nothing leaks.
  withr::local_seed(7)
  mean_r <- function(n_train, n_control, n_syn) {
    r <- replicate(12, {
      i <- sample(nrow(sd2011))
      train <- sd2011[i[seq_len(n_train)], ]
      control <- sd2011[i[n_train + seq_len(n_control)], ]
      syn <- sd2011[i[n_train + n_control + seq_len(n_syn)], ]
      h <- disclosure(syn, train, keys = c("sex", "age", "region"), target = "marital", control = control,
                      print.flag = FALSE)
      stats::setNames(h$holdout$R, h$holdout$measure)[c("DCAPs", "TCAPs", "UiO", "DiSCO")]
    })
    rowMeans(r)
  }
  smaller <- mean_r(2000, 500, 2000)
  expect_true(all(smaller[c("DCAPs", "TCAPs")] > 0.2 & smaller[c("DCAPs", "TCAPs")] < 0.45))
  expect_lt(smaller[["UiO"]], -0.5)
  expect_lt(abs(smaller[["DiSCO"]]), 0.1)
  equal <- mean_r(1500, 1500, 2000)
  expect_true(all(abs(equal) < 0.11))
})
