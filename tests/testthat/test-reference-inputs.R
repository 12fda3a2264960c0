# Every kind of input (column types, labels, sizes, synds shapes, data frame classes):
# each gives the reference's numbers (helper-reference.R) or a clear, classed error naming the column or argument.

quiet <- function(...) disclosure(..., print.flag = FALSE)

# disclosure() on (syn, data) agrees with the reference; returns the result.
expect_as_reference <- function(syn, data, ..., label = "") {
  got <- quiet(syn, data, ...)
  want <- ref_disclosure(if (inherits(syn, "synds")) syn$syn else syn, data, ...)
  expect_reference(got, want, label)
  invisible(got)
}

expect_column_error <- function(expr, pattern) {
  err <- expect_error(expr, class = "rlang_error")
  expect_match(conditionMessage(err), pattern)
  expect_no_match(conditionMessage(err), "core could not")
}

# Levels of `var` as the package labels them.
package_labels <- function(syn, data, var, compare = TRUE) {
  enc <- encode_variables(var, data, list(syn), NULL, stats::setNames(list(0), var), strict = !compare,
                          n_threads = 1L, call = rlang::current_env())
  enc$labels[[var]]
}

# A column of each type, for the original (12 rows) and the synthesis (10 rows), with
# a level on one side only and missing values.
typed_columns <- function(type) {
  o_idx <- c(1, 1, 2, 2, 3, 3, 1, 2, 3, 4, 1, NA)
  s_idx <- c(1, 1, 2, 2, 3, 5, 1, 2, NA, 1)
  make <- function(values) list(orig = values[o_idx], syn = values[s_idx])
  t0 <- as.POSIXct("2020-03-01 00:00:00", tz = "UTC")
  switch(type,
    factor = lapply(make(c("a", "b", "c", "d", "e")), factor),
    ordered = lapply(make(c("lo", "mid", "hi", "top", "extra")), factor, levels = c("lo", "mid", "hi", "top", "extra"),
                     ordered = TRUE),
    character = make(c("a", "b", "c", "d", "e")),
    logical = list(orig = c(TRUE, TRUE, FALSE, FALSE, TRUE, NA, TRUE, FALSE, TRUE, TRUE, FALSE, NA),
                   syn = c(TRUE, FALSE, FALSE, FALSE, TRUE, TRUE, NA, FALSE, TRUE, TRUE)),
    integer = make(c(1L, 2L, 3L, 40L, 50L)),
    double = make(c(1.5, 2.25, -3, 1e6, 0.1)),
    nonfinite = make(c(NaN, Inf, -Inf, -0, 0)),
    Date = make(as.Date("2020-01-01") + c(0, 1, 2, 40, 50)),
    POSIXct = make(t0 + c(0, 3600, 86400, 90061, 7200)),
    difftime = make(as.difftime(c(1, 2, 3, 4, 5), units = "mins"))
  )
}

expected_type_labels <- list(
  factor = c("a", "b", "c", "e", "d", "Missing"),
  ordered = c("lo", "mid", "hi", "top", "extra", "Missing"),
  character = c("a", "b", "c", "e", "d", "Missing"),
  logical = c("FALSE", "TRUE", "Missing"),
  integer = c("1", "2", "3", "40", "50", "Missing"),
  double = c("-3", "0.1", "1.5", "2.25", "1e+06", "Missing"),
  nonfinite = c("-Inf", "0", "Inf", "NaN", "Missing"),
  Date = c("2020-01-01", "2020-01-02", "2020-01-03", "2020-02-20", "2020-02-10", "Missing"),
  POSIXct = c("2020-03-01 00:00:00", "2020-03-01 01:00:00", "2020-03-01 02:00:00", "2020-03-02 00:00:00",
              "2020-03-02 01:01:01", "Missing"),
  difftime = c("1 mins", "2 mins", "3 mins", "5 mins", "4 mins", "Missing")
)

for (type in names(expected_type_labels)) {
  test_that(paste("a", type, "column as key and as target gives the reference's numbers"), {
    cols <- typed_columns(type)
    helper_key <- factor(c("u", "v", "u", "v", "u", "v", "u", "v", "u", "v", "u", "v"))
    helper_t <- factor(c("x", "x", "y", "x", "y", "y", "x", "x", "y", "x", "x", "y"))
    o <- data.frame(k = helper_key)
    o$v <- cols$orig
    o$t <- helper_t
    s <- data.frame(k = helper_key[1:10])
    s$v <- cols$syn
    s$t <- helper_t[3:12]
    labels <- package_labels(s, o, "v")
    if (type %in% c("factor", "character", "logical", "Date", "POSIXct", "difftime", "ordered")) {
      # Non-numeric: syntheses' levels first, then the original's (definitions vignette, section 1).
      expect_setequal(labels, expected_type_labels[[type]])
    } else {
      # Numbers: in numeric order, NaN last, as factor() makes them (definitions vignette 2.2).
      expect_identical(labels, expected_type_labels[[type]])
    }
    expect_as_reference(s, o, keys = c("k", "v"), target = "t", thresh_2way = c(0, 0), label = paste(type, "key"))
    expect_as_reference(s, o, keys = "k", target = "v", thresh_1way = c(0, 0), thresh_2way = c(0, 0),
                        label = paste(type, "target"))
    expect_as_reference(s, o, keys = "k", target = "v", usetargetNA = FALSE, not.targetlev = labels[2],
                        label = paste(type, "target with exclusions"))
  })
}

test_that("times of one instant are one level whatever the time zone or units of each side", {
  t0 <- as.POSIXct("2020-03-01 12:00:00", tz = "UTC")
  o <- data.frame(k = c("a", "a"), t = c(t0, t0))
  s <- data.frame(k = c("a", "a"), t = c(t0, t0))
  attr(s$t, "tzone") <- "Europe/Warsaw"
  expect_identical(quiet(s, o, keys = "k", target = "t")$attrib$Dsyn, 100)
  expect_identical(package_labels(s, o, "t"), c("2020-03-01 12:00:00", "Missing"))
  o2 <- data.frame(k = c("a", "a"), t = as.difftime(c(1, 1), units = "mins"))
  s2 <- data.frame(k = c("a", "a"), t = as.difftime(c(60, 60), units = "secs"))
  expect_identical(package_labels(s2, o2, "t"), c("1 mins", "Missing"))
  expect_identical(quiet(s2, o2, keys = "k", target = "t")$attrib$DiSCO, 100)
})

for (bad in c("list", "complex", "matrix", "data.frame")) {
  test_that(paste("a", bad, "column as key or target is an error naming the column"), {
    make_bad <- function(n) {
      switch(bad,
             list = I(as.list(seq_len(n))),
             complex = complex(real = seq_len(n), imaginary = 1),
             matrix = matrix(seq_len(2 * n), n),
             data.frame = data.frame(a = seq_len(n), b = seq_len(n)))
    }
    type_words <- c(list = "list column", complex = "complex column", matrix = "matrix column",
                    data.frame = "data-frame column")[[bad]]
    o <- data.frame(k = c("a", "b", "a"), t = c("x", "y", "y"))
    for (role in c("k", "t")) {
      for (where in c("data", "syn")) {
        oo <- o
        ss <- o
        if (where == "data") oo[[role]] <- make_bad(3) else ss[[role]] <- make_bad(3)
        expect_column_error(quiet(ss, oo, keys = "k", target = "t"),
                            paste0("\"", role, "\".*", if (where == "data") "data" else "synthetic data", ".*",
                                   type_words))
      }
    }
  })
}

test_that("numeric on one side and character or factor on the other", {
  o <- data.frame(k = c("a", "a", "b"), t = c(1, 2, 2))
  s <- data.frame(k = c("a", "b", "b"), t = c("1", "2", "2"))
  expect_as_reference(s, o, keys = "k", target = "t", label = "numeric vs character")
  expect_identical(quiet(s, o, keys = "k", target = "t")$attrib$DiSCO, 200 / 3)
  expect_column_error(quiet(s, o, keys = "k", target = "t", compare.synorig = FALSE),
                      "\"t\" is numeric on one side and character on the other")
  s$t <- factor(s$t)
  expect_as_reference(s, o, keys = "k", target = "t", label = "numeric vs factor")
  expect_column_error(quiet(s, o, keys = "k", target = "t", compare.synorig = FALSE),
                      "\"t\" is numeric on one side and factor on the other")
  # The same kind on both sides needs no adjustment, even when strict.
  s$t <- c(1L, 2L, 2L)
  expect_identical(quiet(s, o, keys = "k", target = "t", compare.synorig = FALSE)$measures,
                   quiet(s, o, keys = "k", target = "t")$measures)
})

test_that("levels on one side only are matched by label", {
  o <- data.frame(k = factor(c("a", "b", "c", "a")), t = c(1, 2, 3, 1))
  s <- data.frame(k = factor(c("a", "d", "d", "b"), levels = c("d", "b", "a")), t = c(1, 9, 9, 2))
  expect_as_reference(s, o, keys = "k", target = "t", thresh_2way = c(0, 0), label = "one-sided levels")
  d <- quiet(s, o, keys = "k", target = "t")
  expect_identical(d$attrib$DiSCO, 75)
  expect_identical(d$ident$UiOiS, 25)
})

test_that("the encoding says which variables have levels on one side only", {
  o <- data.frame(k = c("a", "b"), j = c(1, 2), t = c("x", "y"))
  s <- data.frame(k = c("a", "a"), j = c(2, 1), t = c("x", "z"))
  enc <- encode_variables(c("k", "j", "t"), o, list(s), NULL, list(k = 0, j = 0, t = 0), strict = FALSE,
                          n_threads = 1L, call = rlang::current_env())
  expect_identical(enc$one_sided, c(k = TRUE, j = FALSE, t = TRUE))
  expect_identical(enc$grouping, list())
})

test_that("labels with separators, \"Missing\", \"\" and latin1 spellings", {
  utf8 <- "caf\u00e9"
  lat <- iconv(utf8, "UTF-8", "latin1")
  expect_identical(Encoding(lat), "latin1")
  o <- data.frame(k = c(" | ", " | ", "a | b", "", "", utf8, utf8, "Missing"),
                  t = c("x|y", "x|y", "", "Missing", NA, utf8, utf8, "z"))
  s <- o
  s$k[6:7] <- lat
  s$t[6:7] <- lat
  d_utf8 <- quiet(o, o, keys = "k", target = "t", thresh_2way = c(0, 0))
  d_lat <- expect_as_reference(s, o, keys = "k", target = "t", thresh_2way = c(0, 0), label = "latin1")
  expect_identical(d_lat$measures, d_utf8$measures)
  expect_identical(sum(package_labels(s, o, "k") == utf8), 1L)
  # "Missing" and NA are one target level; "" is a level of its own.
  expect_setequal(package_labels(o, o, "t"), c("", "caf\u00e9", "Missing", "x|y", "z"))
  s_fac <- s
  s_fac[] <- lapply(s, factor)
  o_fac <- o
  o_fac[] <- lapply(o, factor)
  d_fac <- expect_as_reference(s_fac, o_fac, keys = "k", target = "t", usetargetNA = FALSE,
                               not.targetlev = c("", "z"), label = "factors")
  expect_identical(d_fac$Nexclusions[[1]]["original", c("excluded target", "missing target")],
                   c(`excluded target` = 2, `missing target` = 2))
})

test_that("all-NA keys and targets", {
  o <- data.frame(k = NA, j = c("a", "b", "a"), t = c(1, 2, 2))
  s <- data.frame(k = NA, j = c("a", "a", "b"), t = c(1, 2, 3))
  expect_as_reference(s, o, keys = c("k", "j"), target = "t", label = "all-NA key")
  expect_as_reference(s, o, keys = c("k", "j"), target = "t", usekeysNA = c(FALSE, TRUE), label = "all-NA key, excluded")
  o$t <- NA_real_
  s$t <- NA_character_
  expect_as_reference(s, o, keys = "j", target = "t", label = "all-NA target")
  d <- expect_as_reference(s, o, keys = "j", target = "t", usetargetNA = FALSE, label = "all-NA target excluded")
  expect_identical(d$attrib$Dorig, 0)
  expect_identical(d$allCAPs$TCAP, NaN)
})

test_that("zero-row data are errors naming them; one-row data work", {
  o <- data.frame(k = c("a", "b"), t = c("x", "y"))
  expect_column_error(quiet(o, o[0, ], keys = "k", target = "t"), "data.*0 rows")
  expect_column_error(quiet(o[0, ], o, keys = "k", target = "t"), "no rows")
  expect_column_error(quiet(list(o, o[0, ]), o, keys = "k", target = "t"), "Synthesis 2.*no rows")
  one <- o[1, ]
  d <- expect_as_reference(one, one, keys = "k", target = "t", label = "one row")
  expect_identical(d$ident$repU, 100)
  expect_as_reference(o, one, keys = "k", target = "t", label = "one original row")
  expect_as_reference(one, o, keys = "k", target = "t", label = "one synthetic row")
})

test_that("synthetic data with columns missing, extra or reordered", {
  o <- data.frame(k = c("a", "b", "a"), j = c(1, 2, 2), t = c("x", "y", "y"))
  s <- data.frame(t = c("x", "x", "y"), extra = 1:3, j = c(1, 2, 1), k = c("a", "b", "b"))
  d <- expect_as_reference(s, o, keys = c("k", "j"), target = "t", label = "extra and reordered")
  expect_identical(d$measures, quiet(s[c("k", "j", "t")], o, keys = c("k", "j"), target = "t")$measures)
  expect_column_error(quiet(s[c("k", "t")], o, keys = c("k", "j"), target = "t"), "\"j\".*missing")
  expect_column_error(quiet(list(s, s[c("k", "j")]), o, keys = c("k", "j"), target = "t"), "Synthesis 2.*\"t\"")
})

test_that("synds with m = 1, m > 1 and strata agree with the reference", {
  keys <- c("sex", "age", "region")
  d1 <- quiet(sd2011_synds, sd2011, keys = keys, target = "depress")
  expect_reference(d1, ref_disclosure(sd2011_synds$syn, sd2011, keys = keys, target = "depress"), "m = 1")
  s3 <- sd2011_synds5
  s3$syn <- s3$syn[1:3]
  s3$m <- 3
  d3 <- quiet(s3, sd2011, keys = keys, target = "income", ngroups_target = 5)
  expect_reference(d3, ref_disclosure(s3$syn, sd2011, keys = keys, target = "income", ngroups_target = 5,
                                      cont.na = s3$cont.na), "m = 3")
  strat <- sd2011_synds
  strat$strata.syn <- rep(1:3, length.out = nrow(strat$syn))
  strat$cont.na <- rbind(strat$cont.na, strat$cont.na, strat$cont.na)
  strat$cont.na[2:3, "income"] <- list(NA, c(-8, 9999))
  ds <- quiet(strat, sd2011, keys = keys, target = "income", ngroups_target = 5)
  expect_reference(ds, ref_disclosure(strat$syn, sd2011, keys = keys, target = "income", ngroups_target = 5,
                                      cont.na = strat$cont.na), "strata")
  expect_identical(ds$measures, quiet(sd2011_synds$syn, sd2011, keys = keys, target = "income", ngroups_target = 5,
                                      cont.na = list(income = c(-8, 9999)))$measures)
  wrong_m <- sd2011_synds
  wrong_m$m <- 2
  expect_column_error(quiet(wrong_m, sd2011, keys = keys, target = "depress"), "object.*m.*2")
})

test_that("tibbles and data.tables give the data-frame result", {
  keys <- c("sex", "age", "region")
  want <- quiet(sd2011_synds$syn, sd2011, keys = keys, target = "income", ngroups_target = 5,
                cont.na = list(income = -8))$measures
  skip_if_not_installed("data.table")
  dt <- quiet(data.table::as.data.table(sd2011_synds$syn), data.table::as.data.table(sd2011), keys = keys,
              target = "income", ngroups_target = 5, cont.na = list(income = -8))
  expect_identical(dt$measures, want)
  skip_if_not_installed("tibble")
  tb <- quiet(tibble::as_tibble(sd2011_synds$syn), tibble::as_tibble(sd2011), keys = keys, target = "income",
              ngroups_target = 5, cont.na = list(income = -8))
  expect_identical(tb$measures, want)
  tl <- quiet(list(tibble::as_tibble(sd2011_synds$syn)), sd2011, keys = keys, target = "income",
              ngroups_target = 5, cont.na = list(income = -8))
  expect_identical(tl$measures, want)
})

test_that("keys and target by column number", {
  a <- quiet(sd2011_synds, sd2011, keys = c("sex", "region"), target = "marital")
  b <- quiet(sd2011_synds, sd2011, keys = c(3, 1), target = 8)
  expect_identical(a$measures, b$measures)
  expect_identical(b$keys, c("sex", "region"))
})

test_that("an integer64 column needs bit64", {
  skip_if(requireNamespace("bit64", quietly = TRUE), "bit64 is installed")
  o <- data.frame(k = c("a", "b"), t = c("x", "y"))
  o$k <- structure(c(1, 2), class = "integer64")
  expect_column_error(quiet(o, o, keys = "k", target = "t"), "\"k\".*integer64.*bit64")
})

test_that("an integer64 column gives the numbers of the same doubles when bit64 is installed", {
  skip_if_not_installed("bit64")
  o <- data.frame(k = c(1, 2, 1, 3, 3), j = c(5, 5, 6, 6, 6), t = c("x", "y", "x", "y", "x"))
  o64 <- o
  o64$k <- bit64::as.integer64(o$k)
  s <- o[c(1, 1, 2, 4, 5), ]
  s64 <- o64[c(1, 1, 2, 4, 5), ]
  expect_identical(quiet(s64, o64, keys = c("k", "j"), target = "t")$measures,
                   quiet(s, o, keys = c("k", "j"), target = "t")$measures)
})

test_that("rows beyond 2^31 - 1 are refused, not wrapped", {
  err <- expect_error(check_row_count(2^31, "The original data", rlang::current_env()), class = "rlang_error")
  expect_match(conditionMessage(err), "original data.*2,147,483,648 rows")
  expect_silent(check_row_count(.Machine$integer.max, "The original data", rlang::current_env()))
})

# ---- Arguments: a wrong type, length or range (NULL included) names the argument ----

small_o <- data.frame(k = c("a", "b", "a", "b"), j = c(1, 2, 3, 4), t = c("x", "y", "x", "x"))

bad_arguments <- list(
  keys = list(NULL, character(0), NA, "nokey", 99, 0, list("k"), TRUE, c("k", "k")),
  target = list(NULL, c("t", "k"), NA, 99, "k", "notarget", TRUE),
  cont.na = list("x", list(1), list(t = "a"), 5, list(j = list(1)), list(j = TRUE)),
  print.flag = list(NULL, NA, "yes", c(TRUE, FALSE), 1),
  denom_lim = list(NULL, 0, -1, 2.5, "5", c(1, 2), NA),
  exclude_ov_denom_lim = list(NULL, NA, "yes", c(TRUE, FALSE)),
  not.targetlev = list("nolevel", NA, c("x", "nolevel"), list(1), mean),
  usetargetNA = list(NULL, NA, "no", c(TRUE, FALSE)),
  usekeysNA = list(NULL, NA, "no", c(TRUE, FALSE, TRUE)),
  ngroups_target = list(1, -1, 2.5, "3", c(2, 3), NA),
  ngroups_keys = list(1, c(2, 3, 4), "a", NA, -2),
  thresh_1way = list(NULL, 50, c(1, NA), "a", c(1, 2, 3)),
  thresh_2way = list(NULL, 4, c(NA, 1), "a", c(1, 2, 3)),
  digits = list(NULL, -1, "a", NA, c(1, 2)),
  to.print = list(NULL, "everything", NA, 1),
  compare.synorig = list(NULL, NA, "yes", c(TRUE, FALSE)),
  n_threads = list(0, -1, 1.5, "2", NA, 2000, c(1, 2))
)

for (arg in names(bad_arguments)) {
  test_that(paste("a bad", arg, "is a classed error naming it"), {
    for (value in bad_arguments[[arg]]) {
      args <- list(keys = "k", target = "t", print.flag = FALSE)
      args[arg] <- list(value)
      err <- expect_error(do.call(disclosure, c(list(small_o, small_o), args)), class = "rlang_error",
                          label = paste(arg, "=", deparse(value)))
      expect_match(conditionMessage(err), arg, fixed = TRUE, label = paste(arg, "=", deparse(value)))
    }
  })
}

test_that("exclusion vectors: wrong lengths, unknown keys and levels are named", {
  e <- function(...) {
    err <- expect_error(quiet(small_o, small_o, keys = "k", target = "t", ...), class = "rlang_error")
    conditionMessage(err)
  }
  expect_match(e(exclude.keys = "k", exclude.keylevs = c("a", "b"), exclude.targetlevs = "x"), "exclude.keys")
  expect_match(e(exclude.keys = "nokey", exclude.keylevs = "a", exclude.targetlevs = "x"), "exclude.keys.*nokey")
  expect_match(e(exclude.keys = "k", exclude.keylevs = "zz", exclude.targetlevs = "x"), "exclude.keylevs.*zz")
  expect_match(e(exclude.keys = "k", exclude.keylevs = "a", exclude.targetlevs = "zz"), "exclude.targetlevs.*zz")
  expect_match(e(exclude.keys = "k", exclude.keylevs = NULL, exclude.targetlevs = "x"), "exclude.keylevs")
})

test_that("bad object and data are errors naming them", {
  expect_column_error(quiet("nope", small_o, keys = "k", target = "t"), "object")
  expect_column_error(quiet(NULL, small_o, keys = "k", target = "t"), "object")
  expect_column_error(quiet(list(small_o, 1), small_o, keys = "k", target = "t"), "object")
  expect_column_error(quiet(small_o, NULL, keys = "k", target = "t"), "data")
  expect_column_error(quiet(small_o, as.matrix(small_o), keys = "k", target = "t"), "data")
  expect_column_error(quiet(small_o, small_o[, 0], keys = "k", target = "t"), "data")
})

bad_multi_arguments <- list(
  targets = list("nope", 99, NA, "k"),
  not.targetslev = list(c("x", "y", "z", "w"), list("nolevel", NULL)),
  usetargetsNA = list(NA, c(TRUE, FALSE, TRUE), "no"),
  ngroups_targets = list(1, c(2, 3, 4), "a"),
  ident.meas = list(NULL, "x", c("repU", "UiSiO")),
  attrib.meas = list(NULL, "x", 1),
  plot = list(NULL, NA, "yes"),
  exclude.keys = list(list("k", "k", "k"))
)

for (arg in names(bad_multi_arguments)) {
  test_that(paste("multi.disclosure: a bad", arg, "is a classed error naming it"), {
    for (value in bad_multi_arguments[[arg]]) {
      args <- list(keys = "k", targets = c("j", "t"), print.flag = FALSE, plot = FALSE)
      args[arg] <- list(value)
      err <- expect_error(do.call(multi.disclosure, c(list(small_o, small_o), args)), class = "rlang_error",
                          label = paste(arg, "=", deparse(value)))
      expect_match(conditionMessage(err), paste0(arg, "|not.targetlev"), label = paste(arg, "=", deparse(value)))
    }
  })
}

test_that("grouping records say how each asked-for variable was grouped (definitions vignette 2.1)", {
  cols <- list(sd2011$income, sd2011_synds$syn$income)
  enc <- encode_variables(c("sex", "income"), sd2011, list(sd2011_synds$syn), sd2011_synds$cont.na,
                          list(sex = 0, income = 6), strict = FALSE, n_threads = 1L, call = rlang::current_env())
  g <- enc$grouping$income
  ref <- ref_group(cols, 6, -8)
  usable <- unlist(lapply(cols, function(x) x[!is.na(x) & x != -8]))
  expect_identical(names(enc$grouping), "income")
  expect_true(g$grouped)
  expect_identical(g$style, "quantile")
  expect_equal(g$breaks, ref_breaks(usable, 6, "quantile"), tolerance = 1e-12)
  expect_identical(g$labels, ref$levels)
  expect_identical(g$labels[length(g$labels)], "-8")
  expect_identical(g$n_levels, 7L)
  expect_identical(enc$labels$income, c(ref$levels, "Missing"))
  expect_identical(g$reason, NA_character_)

  # Two distinct values and no codes: one class per value gives 2 levels, so equal
  # breaks are tried (and also give one class per value).
  o <- data.frame(k = c("a", "b", "c"), t = c(1, 5, 5))
  two <- encode_variables(c("k", "t"), o, list(o), NULL, list(k = 0, t = 4), strict = FALSE, n_threads = 1L,
                          call = rlang::current_env())$grouping$t
  expect_identical(two$style, "equal")
  expect_identical(two$breaks, c(-1, 3, 7))
  expect_identical(two$labels, c("[-1,3)", "[3,7]"))

  # Non-finite values after the codes, in the order -Inf, Inf, NaN; Inf as a code.
  o <- data.frame(k = letters[1:8], t = c(1, 2, 3, 4, -8, Inf, NaN, -Inf))
  nf <- encode_variables(c("k", "t"), o, list(o), list(t = c(-8, Inf)), list(k = 0, t = 2), strict = FALSE,
                         n_threads = 1L, call = rlang::current_env())
  expect_identical(nf$grouping$t$labels, c("[1,2.5)", "[2.5,4]", "-8", "Inf", "-Inf", "NaN"))
  expect_identical(nf$labels$t, c(nf$grouping$t$labels, "Missing"))
  expect_as_reference(o, o, keys = "k", target = "t", ngroups_target = 2, cont.na = list(t = c(-8, Inf)),
                      label = "non-finite grouped")
  # A grouping asked of a non-numeric variable is recorded as not done, with the reason
  # (issue 19: said, not silently skipped).
  chr <- encode_variables(c("k", "t"), o, list(o), NULL, list(k = 3, t = 0), strict = FALSE, n_threads = 1L,
                          call = rlang::current_env())
  expect_identical(names(chr$grouping), "k")
  expect_false(chr$grouping$k$grouped)
  expect_match(chr$grouping$k$reason, "it is text, and only numeric variables are grouped", fixed = TRUE)
})
