# Bad input gets a classed error that names the argument and the value.

keys4 <- c("sex", "age", "region", "placesize")

expect_arg_error <- function(expr, pattern) {
  err <- expect_error(expr, class = "rlang_error")
  expect_match(conditionMessage(err), pattern)
}

call_d <- function(...) disclosure(sd2011_synds, sd2011, print.flag = FALSE, ...)

test_that("unknown keys and targets are named", {
  expect_arg_error(call_d(keys = c("sex", "nokey"), target = "depress"), "keys.*nokey")
  expect_arg_error(call_d(keys = keys4, target = "notarget"), "target.*notarget")
  expect_arg_error(call_d(keys = c(1, 99), target = "depress"), "keys.*99")
  expect_arg_error(call_d(keys = keys4, target = c("depress", "ls")), "target")
})

test_that("a target among the keys and duplicated keys are errors", {
  expect_arg_error(call_d(keys = keys4, target = "age"), "target.*keys[^\n]*\n?.*age")
  expect_arg_error(call_d(keys = c("sex", "age", "sex"), target = "depress"), "keys.*sex")
})

test_that("data must be a data frame", {
  expect_arg_error(disclosure(sd2011_synds, as.matrix(sd2011), keys = keys4, target = "depress"),
                   "data.*data frame.*matrix")
  expect_arg_error(disclosure(sd2011_synds, list(a = 1), keys = keys4, target = "depress"), "data.*data frame")
  expect_arg_error(disclosure("nope", sd2011, keys = keys4, target = "depress"), "object.*synds")
  expect_arg_error(disclosure(list(sd2011, 3), sd2011, keys = keys4, target = "depress"), "object")
})

test_that("per-key vectors of the wrong length are errors", {
  expect_arg_error(call_d(keys = keys4, target = "depress", usekeysNA = c(TRUE, FALSE)), "usekeysNA.*length 2")
  expect_arg_error(call_d(keys = keys4, target = "depress", usekeysNA = NA), "usekeysNA")
  expect_arg_error(call_d(keys = keys4, target = "depress", ngroups_keys = c(0, 5)), "ngroups_keys.*length 2")
})

test_that("exclusion vectors must match and name known keys and levels", {
  expect_arg_error(call_d(keys = keys4, target = "marital", exclude.keys = c("age", "sex"),
                          exclude.keylevs = "19", exclude.targetlevs = "SINGLE"),
                   "exclude.keys.*same length.*2, 1 and 1")
  expect_arg_error(call_d(keys = keys4, target = "marital", exclude.keys = "ls",
                          exclude.keylevs = "19", exclude.targetlevs = "SINGLE"), "exclude.keys.*ls")
  expect_arg_error(call_d(keys = keys4, target = "marital", exclude.keys = "age",
                          exclude.keylevs = "500", exclude.targetlevs = "SINGLE"), "exclude.keylevs.*500.*age")
  expect_arg_error(call_d(keys = keys4, target = "marital", exclude.keys = "age",
                          exclude.keylevs = "19", exclude.targetlevs = "PIRATE"), "exclude.targetlevs.*PIRATE")
  expect_arg_error(call_d(keys = keys4, target = "marital", not.targetlev = "PIRATE"), "not.targetlev.*PIRATE")
})

test_that("denom_lim must be a positive whole number", {
  for (bad in list(0, -1, 2.5, "5", c(1, 2), NA)) {
    expect_arg_error(call_d(keys = keys4, target = "depress", denom_lim = bad), "denom_lim")
  }
})

test_that("a number of groups of 1 is an error", {
  expect_arg_error(call_d(keys = keys4, target = "income", ngroups_target = 1), "ngroups_target.*1")
  expect_arg_error(call_d(keys = keys4, target = "income", ngroups_keys = c(0, 1, 0, 0)), "ngroups_keys.*1")
  expect_arg_error(call_d(keys = keys4, target = "income", ngroups_target = 2.5), "ngroups_target")
})

test_that("a dataset with two columns of one name is an error naming the column", {
  # The analyses would read the first "sex" and leave age out without saying so.
  o <- sd2011
  names(o)[2] <- "sex"
  expect_arg_error(disclosure(sd2011_synds, o, keys = c("sex", "region"), target = "depress", print.flag = FALSE),
                   "`data` has more than one column named \"sex\"")
  s <- sd2011_synds
  names(s$syn)[2] <- "sex"
  expect_arg_error(multi.disclosure(s, sd2011, keys = c("sex", "region"), print.flag = FALSE, plot = FALSE),
                   "Synthesis 1 of `object` has more than one column named \"sex\"")
  expect_arg_error(dcr(s$syn, sd2011), "Synthesis 1 of `object` has more than one column named \"sex\"")
  parts <- holdout_split(sd2011, seed = 1)
  control <- parts$control
  names(control)[3:4] <- "edu"
  expect_arg_error(disclosure(sd2011_train_synds5, parts$train, keys = c("sex", "region"), target = "depress",
                              control = control, print.flag = FALSE),
                   "`control` has more than one column named \"edu\"")
})

test_that("other arguments are checked", {
  expect_arg_error(call_d(keys = keys4, target = "depress", thresh_1way = 50), "thresh_1way")
  expect_arg_error(call_d(keys = keys4, target = "depress", to.print = "everything"), "to.print.*everything")
  expect_arg_error(call_d(keys = keys4, target = "depress", n_threads = 0), "n_threads")
  expect_arg_error(call_d(keys = keys4, target = "depress", usetargetNA = "yes"), "usetargetNA")
  expect_arg_error(call_d(keys = keys4, target = "depress", nonsense = 1), "nonsense")
})

test_that("a synthesis lacking a variable or rows is an error", {
  syn <- sd2011_synds$syn
  syn$region <- NULL
  expect_arg_error(disclosure(syn, sd2011, keys = keys4, target = "depress"), "region")
  expect_arg_error(disclosure(sd2011[0, ], sd2011, keys = keys4, target = "depress"), "no rows")
})

test_that("compare.synorig = FALSE refuses a factor on one side only", {
  syn <- sd2011_synds$syn
  syn$sex <- as.character(syn$sex)
  expect_arg_error(disclosure(syn, sd2011, keys = keys4, target = "depress", compare.synorig = FALSE), "sex")
  expect_output(disclosure(syn, sd2011, keys = keys4, target = "depress"), "sex")
})

test_that("strict arguments: unknown names, choices with suggestions, values shown as R code", {
  local_reproducible_output(width = 100)
  md <- function(...) multi.disclosure(sd2011_synds, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE, ...)
  expect_snapshot(md(ngroups_targets = c(incme = 20)), error = TRUE)
  expect_snapshot(md(usetargetsNA = c(depres = FALSE)), error = TRUE)
  expect_snapshot(md(targets = c("depress", "marital"), exclude.keys = list(marital = "age", workab = "sex"),
                     exclude.keylevs = list(marital = "19", workab = "MALE"),
                     exclude.targetlevs = list(marital = "SINGLE", workab = "NO")), error = TRUE)
  expect_snapshot(md(attrib.meas = "DiSC"), error = TRUE)
  expect_snapshot(md(ident.meas = "rep"), error = TRUE)
  expect_snapshot(md(ident.meas = c("repU", "UiSiO")), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depress", denom_lim = NULL), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depress", denom_lim = Inf), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depress", thresh_2way = NULL), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depress", usetargetNA = 1), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depress", usekeysNA = c(TRUE, NA)), error = TRUE)
  expect_snapshot(call_d(keys = "sex", target = "depress", usekeysNA = c(TRUE, FALSE)), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depress", to.print = c("short", "alCAPs")), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depres"), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depress", cont.na = list(income = -8)), error = TRUE)
  expect_snapshot(call_d(keys = keys4, target = "depress", denom_limit = 3), error = TRUE)
})

test_that("a denom_lim of Inf or NULL is an error without a coercion warning", {
  expect_no_warning(expect_error(call_d(keys = keys4, target = "depress", denom_lim = Inf), "denom_lim.*Inf"))
  expect_error(call_d(keys = keys4, target = "depress", denom_lim = NULL), "denom_lim.*NULL")
  expect_error(call_d(keys = keys4, target = "depress", thresh_2way = NULL), "thresh_2way.*NULL")
})

quiet_disclosure <- function(...) disclosure(..., print.flag = FALSE)

test_that("unusable columns and arguments get clear errors naming them", {
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

test_that("did you mean suggests only close names: a slip, not any short name", {
  dym <- synthrisk:::did_you_mean
  expect_length(dym("xx", c("sex", "age")), 0)
  expect_length(dym("ag", c("sex", "age", "region")), 1)
  expect_match(dym("regoin", c("sex", "age", "region")), "region")
  expect_match(dym("agee", c("sex", "age")), "age")
  expect_length(dym("income", c("sex", "age", "region")), 0)
  expect_error(disclosure(sd2011_synds, sd2011, keys = c("sex", "age"), target = "depres"), "depress")
  err <- tryCatch(disclosure(sd2011_synds, sd2011, keys = c("xx", "age"), target = "depress"), error = identity)
  expect_no_match(conditionMessage(err), "Did you mean")
})

test_that("an empty selection is an error naming the argument, in every function (issue 37)", {
  data <- sd2011[1:300, c("sex", "age", "region", "income", "depress")]
  syn <- sd2011_synds$syn[1:300, names(data)]
  keys <- c("sex", "age", "region")
  part <- data
  part$income <- syn$income
  no_queries <- data.frame(query = integer(0), column = character(0), op = character(0), value = character(0))
  empty <- list(
    targets = function() multi.disclosure(syn, data, keys = keys, targets = character(0), print.flag = FALSE),
    target = function() disclosure(syn, data, keys = keys, target = character(0), print.flag = FALSE),
    keys = function() disclosure(syn, data, keys = character(0), target = "depress", print.flag = FALSE),
    keys = function() multi.disclosure(syn, data, keys = character(0), print.flag = FALSE),
    targets = function() tau_curve(syn, data, keys, targets = character(0)),
    tau = function() tau_curve(syn, data, keys, targets = "depress", tau = numeric(0)),
    targets = function() size_curve(syn, data, keys, targets = character(0), sizes = 100, reps = 1),
    sizes = function() size_curve(syn, data, keys, targets = "depress", sizes = numeric(0)),
    measures = function() size_curve(syn, data, keys, targets = "depress", measures = character(0)),
    keys = function() record_risk(syn, data, character(0)),
    keys = function() record_risk(syn, data, character(0), target = "depress"),
    target = function() record_risk(syn, data, keys, target = character(0)),
    keys = function() replicated.uniques(syn, data, keys = character(0)),
    keys = function() identification_risk(part, data, character(0), "income"),
    syn.vars = function() identification_risk(part, data, keys, character(0)),
    vars = function() dcr(syn, data, vars = character(0)),
    secret = function() inference_risk(syn, data, secret = character(0), aux = keys),
    aux = function() inference_risk(syn, data, secret = "income", aux = character(0)),
    aux_a = function() linkability_risk(syn, data, aux_a = character(0), aux_b = "income"),
    aux_b = function() linkability_risk(syn, data, aux_a = keys, aux_b = character(0)),
    cols = function() singling_out_risk(syn, data, cols = character(0)),
    queries = function() singling_out_risk(syn, data, cols = keys, queries = no_queries),
    targets = function() disclosure_report_contents(syn, data, keys, targets = character(0)),
    keys = function() disclosure_report_contents(syn, data, character(0))
  )
  for (i in seq_along(empty)) {
    arg <- names(empty)[i]
    cnd <- expect_error(empty[[i]](), class = "rlang_error", info = paste(i, arg))
    msg <- cli::ansi_strip(conditionMessage(cnd))
    expect_match(msg, paste0("`", arg, "`"), fixed = TRUE, info = paste(i, arg))
    expect_no_match(msg, "subscript out of bounds", fixed = TRUE, info = paste(i, arg))
  }
  # NULL is synthpop's default: every variable of data beside the keys is a target.
  md <- multi.disclosure(syn, data, keys = keys, targets = NULL, print.flag = FALSE, plot = FALSE)
  expect_identical(names(md$output.list), c("income", "depress"))
})
